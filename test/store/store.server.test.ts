import { describe } from 'vitest';
import type { StoreConfig } from '../../src/store/client/index.ts';
import { testServer } from '../helpers/server.ts';
import { storeSuite } from './suite.ts';

// The same suite against a ClickHouse server (a fresh database per run): CLICKHOUSE_URL, else the project's own
// engine serving as one (test/helpers/server.ts).
const server = testServer();

async function serverConfig(): Promise<StoreConfig> {
  const s = await server();
  return { url: s.url, user: s.user, password: s.password, database: `tg_store_test_${process.pid}_${Date.now()}` };
}

describe('ClickHouse server', () => {
  storeSuite(process.env.CLICKHOUSE_URL ? `server ${process.env.CLICKHOUSE_URL}` : "server (the project's engine)", serverConfig);
});
