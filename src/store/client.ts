import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { createClient, type ClickHouseClient } from '@clickhouse/client';
import { createChdbConnection } from 'chdb/connection';
import type { InsertFormat } from './encode.ts';
import { lockDataDir, type DataDirLock } from './lock.ts';

/** Where the store lives: embedded chdb under a data dir, or a ClickHouse server. */
export interface StoreConfig {
  /** Data directory; chdb files go to `<dataDir>/clickhouse`. Default `./data`. */
  dataDir?: string;
  /** ClickHouse server URL; when set, the server is used instead of chdb. */
  url?: string;
  user?: string;
  password?: string;
  database?: string;
}

/** Store config from the environment (CLICKHOUSE_URL/USER/PASSWORD/DATABASE) plus a data dir. */
export function storeConfigFromEnv(dataDir?: string, env: NodeJS.ProcessEnv = process.env): StoreConfig {
  return {
    dataDir: dataDir ?? env.TON_GATEWAY_DATA ?? './data',
    url: env.CLICKHOUSE_URL || undefined,
    user: env.CLICKHOUSE_USER || undefined,
    password: env.CLICKHOUSE_PASSWORD || undefined,
    database: env.CLICKHOUSE_DATABASE || undefined,
  };
}

/** Query parameters: bound server-side through `{name:Type}` placeholders, never concatenated. */
export type QueryParams = Record<string, unknown>;

/** One ClickHouse connection (chdb or server) through @clickhouse/client. */
export interface StoreClient {
  readonly kind: 'embedded' | 'server';
  readonly client: ClickHouseClient;
  /** Human-readable location (data dir or server URL + database). */
  readonly location: string;
  /** SELECT returning JSON rows; 64-bit integers come back as decimal strings. */
  query<T = Record<string, unknown>>(sql: string, params?: QueryParams, settings?: Record<string, unknown>): Promise<T[]>;
  /** SELECT returning the raw text of `format` (CSV, Pretty, JSONEachRow, ...). */
  queryText(sql: string, format: string, params?: QueryParams, settings?: Record<string, unknown>): Promise<string>;
  /** DDL / statements without a result. */
  command(sql: string, params?: QueryParams): Promise<void>;
  /** Insert pre-serialized rows: JSONEachRow objects, or JSONCompactEachRow arrays over `columns`. */
  insertFormatted(table: string, body: string, format: InsertFormat, columns?: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

const BASE_SETTINGS = {
  output_format_json_quote_64bit_integers: 1,
  // UInt128/UInt256 must come back as strings too (they exceed JS numbers).
  output_format_json_quote_decimals: 1,
} as const;

/**
 * Measured on chdb (bench/store.ts): parallel parsing costs more than it gains on batches of this size
 * with few cores, and optimize_on_insert's in-block ReplacingMergeTree collapse is wasted work (the
 * writer never sends duplicates inside one batch; merges and FINAL handle the rest).
 */
const EMBEDDED_INSERT_SETTINGS = { input_format_parallel_parsing: 0, optimize_on_insert: 0 } as const;

function insertTarget(table: string, columns?: readonly string[]): string {
  return columns?.length ? `${ident(table)} (${columns.map(ident).join(', ')})` : ident(table);
}

function ident(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`invalid identifier "${name}"`);
  return name;
}

/** Opens a client. Embedded mode locks `<dataDir>` for this process (see lock.ts). */
export async function openClient(config: StoreConfig = {}): Promise<StoreClient> {
  if (config.url) return openServer(config);
  return openEmbedded(resolve(config.dataDir ?? './data'));
}

async function openServer(config: StoreConfig): Promise<StoreClient> {
  const database = config.database ?? 'default';
  ident(database);
  if (database !== 'default') {
    const admin = createClient({ url: config.url, username: config.user, password: config.password, clickhouse_settings: BASE_SETTINGS });
    try {
      await admin.command({ query: `CREATE DATABASE IF NOT EXISTS ${database}` });
    } finally {
      await admin.close();
    }
  }
  const client = createClient({
    url: config.url,
    username: config.user,
    password: config.password,
    database,
    clickhouse_settings: BASE_SETTINGS,
  });
  return wrap('server', client, `${config.url} database ${database}`, async (table, body, format, columns) => {
    await client.exec({
      query: `INSERT INTO ${insertTarget(table, columns)} FORMAT ${format}`,
      values: Readable.from([body]),
      clickhouse_settings: { optimize_on_insert: 0 },
    });
  });
}

async function openEmbedded(dataDir: string): Promise<StoreClient> {
  const lock: DataDirLock = lockDataDir(dataDir);
  try {
    const path = join(dataDir, 'clickhouse');
    mkdirSync(path, { recursive: true });
    const connection = createChdbConnection({ path });
    const client = createClient({ connection: connection as never, clickhouse_settings: BASE_SETTINGS });
    // chdb's raw insert hands the bytes to the engine's parser without the client's stream plumbing.
    const raw = connection.chdb;
    return wrap(
      'embedded',
      client,
      dataDir,
      async (table, body, format, columns) => {
        await raw.rawInsert({ table: ident(table), values: Buffer.from(body), format, columns: columns?.map(ident), settings: EMBEDDED_INSERT_SETTINGS });
      },
      () => lock.release(),
    );
  } catch (err) {
    lock.release();
    throw err;
  }
}

function wrap(
  kind: 'embedded' | 'server',
  client: ClickHouseClient,
  location: string,
  insertFormatted: (table: string, body: string, format: InsertFormat, columns?: readonly string[]) => Promise<void>,
  onClose?: () => void,
): StoreClient {
  let closed = false;
  return {
    kind,
    client,
    location,
    async query<T>(sql: string, params?: QueryParams, settings?: Record<string, unknown>) {
      const rs = await client.query({ query: sql, query_params: params, format: 'JSONEachRow', clickhouse_settings: settings as never });
      return (await rs.json()) as T[];
    },
    async queryText(sql: string, format: string, params?: QueryParams, settings?: Record<string, unknown>) {
      const rs = await client.query({ query: sql, query_params: params, format: format as never, clickhouse_settings: settings as never });
      return rs.text();
    },
    async command(sql: string, params?: QueryParams) {
      await client.command({ query: sql, query_params: params });
    },
    async insertFormatted(table: string, body: string, format: InsertFormat, columns?: readonly string[]) {
      if (body.length === 0) return;
      await insertFormatted(table, body, format, columns);
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        await client.close();
      } finally {
        onClose?.();
      }
    },
  };
}
