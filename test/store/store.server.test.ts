import { existsSync } from 'node:fs';
import { afterAll, describe } from 'vitest';
import type { StartedClickHouseContainer } from '@testcontainers/clickhouse';
import type { StoreConfig } from '../../src/store/index.ts';
import { storeSuite } from './suite.ts';

// The same suite against a ClickHouse server: CLICKHOUSE_URL (a fresh database per run), else a
// testcontainers ClickHouse when a Docker engine is reachable, else skipped.
const url = process.env.CLICKHOUSE_URL;
const docker = Boolean(process.env.DOCKER_HOST) || existsSync('/var/run/docker.sock');
let container: StartedClickHouseContainer | undefined;

afterAll(async () => {
  await container?.stop();
});

async function serverConfig(): Promise<StoreConfig> {
  const database = `tg_store_test_${process.pid}_${Date.now()}`;
  if (url) {
    return { url, user: process.env.CLICKHOUSE_USER, password: process.env.CLICKHOUSE_PASSWORD, database };
  }
  const { ClickHouseContainer } = await import('@testcontainers/clickhouse');
  container = await new ClickHouseContainer('clickhouse/clickhouse-server:25.8-alpine').start();
  return { url: container.getHttpUrl(), user: container.getUsername(), password: container.getPassword(), database };
}

describe.skipIf(!url && !docker)('ClickHouse server', () => {
  storeSuite(url ? `server ${url}` : 'server (testcontainers)', serverConfig);
});
