import { mkdirSync, rmSync } from 'node:fs';
import { unlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { createClient, type ClickHouseClient } from '@clickhouse/client';
import { Session } from 'chdb';
import { createChdbConnection } from 'chdb/connection';
import type { InsertFormat } from './encode.ts';
import { encodeNative, type TableSchema } from './native.ts';
import type { Row } from './row.ts';
import { lockDataDir, type DataDirLock } from './lock.ts';
import { MIGRATIONS_DIR } from './clickhouse-dir.ts';
import { Kv } from '../kv/index.ts';

/**
 * Where the API's lookups by key are served from (issue 22): `kv`, the key-value store under `<dataDir>/kv` (the
 * embedded default: many reader processes beside the one engine session); `tables`, ClickHouse's own tables (a
 * server, which runs statements concurrently: the RocksDB tables of clickhouse/0013 and 0014); `both` keeps both
 * written (tests compare the two read paths on one store).
 */
export type PointReadsMode = 'kv' | 'tables' | 'both';

/** Where the store lives: embedded chdb under a data dir, or a ClickHouse server. */
export interface StoreConfig {
  /** Data directory; chdb files go to `<dataDir>/clickhouse`. Default `./data`. */
  dataDir?: string;
  /** ClickHouse server URL; when set, the server is used instead of chdb. */
  url?: string;
  user?: string;
  password?: string;
  database?: string;
  /**
   * Read-only: the engine itself refuses writes, DDL, setting changes and the table functions that reach files,
   * URLs or other servers (`readonly = 1` on the chdb engine at connect, on every statement of a server session).
   * `ton-gateway sql` opens the store so; inserts through this client throw.
   */
  readonly?: boolean;
  /** Embedded only (a server store is always `tables`). Default `kv`. */
  pointReads?: PointReadsMode;
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
  /** Where point reads are served from (see PointReadsMode). */
  readonly pointReads: PointReadsMode;
  /** The key-value store this process writes (embedded, `kv` or `both`); null otherwise. */
  readonly kv: Kv | null;
  /** SELECT returning JSON rows; 64-bit integers come back as decimal strings. */
  query<T = Record<string, unknown>>(sql: string, params?: QueryParams, settings?: Record<string, unknown>): Promise<T[]>;
  /** SELECT returning the raw text of `format` (CSV, Pretty, JSONEachRow, ...). */
  queryText(sql: string, format: string, params?: QueryParams, settings?: Record<string, unknown>): Promise<string>;
  /** DDL / statements without a result. */
  command(sql: string, params?: QueryParams): Promise<void>;
  /** Insert pre-serialized rows: JSONEachRow objects, or JSONCompactEachRow arrays over `columns`. */
  insertFormatted(table: string, body: string, format: InsertFormat, columns?: readonly string[]): Promise<void>;
  /**
   * Insert rows as one Native block typed by the table's columns (read once from system.columns): the
   * fastest path for both engines. Columns are the union of the rows' keys unless given; a column a row
   * lacks gets null (the column default when not Nullable), as in JSONEachRow.
   */
  insertRows(table: string, rows: readonly Row[], columns?: readonly string[]): Promise<void>;
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

/**
 * Output formatting on a thread of its own costs a statement about 1 ms of CPU (SELECT 1: 2.1 against 1.1 ms,
 * bench:chdb) and gains nothing on the API's results of a few rows; with two cores it also competes with the
 * statement that follows.
 */
const EMBEDDED_READ_SETTINGS = { output_format_parallel_formatting: 0 } as const;

function insertTarget(table: string, columns?: readonly string[]): string {
  return columns?.length ? `${ident(table)} (${columns.map(ident).join(', ')})` : ident(table);
}

function keysOf(rows: readonly Row[]): string[] {
  const keys = new Set<string>();
  for (const r of rows) for (const k in r) keys.add(k);
  return [...keys];
}

function ident(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`invalid identifier "${name}"`);
  return name;
}

/** Opens a client. Embedded mode locks `<dataDir>` for this process (see lock.ts). */
export async function openClient(config: StoreConfig = {}): Promise<StoreClient> {
  if (config.url) return openServer(config);
  if (config.pointReads && config.pointReads !== 'tables' && config.pointReads !== 'kv' && config.pointReads !== 'both') throw new Error(`invalid pointReads "${String(config.pointReads)}"`);
  return openEmbedded(resolve(config.dataDir ?? './data'), config.readonly === true, config.pointReads ?? 'kv');
}

async function openServer(config: StoreConfig): Promise<StoreClient> {
  const database = config.database ?? 'default';
  ident(database);
  const settings = config.readonly ? { ...BASE_SETTINGS, readonly: '1' as const } : BASE_SETTINGS;
  if (database !== 'default' && !config.readonly) {
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
    clickhouse_settings: settings,
  });
  const read: Reader = async (sql, format, params, settings) => {
    const rs = await client.query({ query: sql, query_params: params, format: format as never, clickhouse_settings: settings as never });
    return rs.text();
  };
  return wrap('server', client, `${config.url} database ${database}`, 'tables', null, read, async (table, body, format, columns) => {
    if (config.readonly) throw new Error(`insert into ${table}: the store was opened read-only`);
    const rs = await client.exec({
      query: `INSERT INTO ${insertTarget(table, columns)} FORMAT ${format}`,
      values: Readable.from([body]),
      clickhouse_settings: { optimize_on_insert: 0 },
    });
    rs.stream.resume();
  });
}

async function openEmbedded(dataDir: string, readonly: boolean, pointReads: PointReadsMode): Promise<StoreClient> {
  const lock: DataDirLock = lockDataDir(dataDir);
  let kv: Kv | null = null;
  try {
    // the key-value store beside the engine, under the same lock (one writer process per data dir); a read-only
    // store (`ton-gateway sql`) does not need it
    if (pointReads !== 'tables' && !readonly) kv = Kv.open({ dataDir });
    const path = join(dataDir, 'clickhouse');
    mkdirSync(path, { recursive: true });
    // Reads go straight to a chdb session: @clickhouse/client's chdb connection turns every setting into
    // a `SET` statement run before each query, and its stream plumbing doubled the cost of a point
    // read (bench/README.md). Sessions on one path share the engine connection, so the base settings
    // given at connect hold for the client too; per-query settings travel in a SETTINGS clause.
    // clickhouse/rocksdb.xml: the point-read tables' RocksDB options (server configuration, so given at connect).
    const connectionArgs = [
      ...Object.entries({ ...BASE_SETTINGS, ...EMBEDDED_READ_SETTINGS }).map(([k, v]) => `--${k}=${v}`),
      `--config-file=${MIGRATIONS_DIR}rocksdb.xml`,
      // a profile-level setting of the whole engine: no statement of this process can change it back
      ...(readonly ? ['--readonly=1'] : []),
    ];
    const session = new Session(path, { connectionArgs });
    const connection = createChdbConnection({ path });
    // The client's chdb connection is a session of its own (the connect arguments above do not reach it); it runs
    // its settings as SET statements before each query, so a read-only store makes this one read-only too.
    const client = createClient({ connection: connection as never, ...(readonly ? { clickhouse_settings: { readonly: '1' as const } } : {}) });
    const read: Reader = async (sql, format, params, settings) => {
      const text = withSettingsClause(sql, settings);
      // Engine errors are chdb's ChdbQueryError, carrying `clickhouseCode` as the server's errors do.
      const result = params && Object.keys(params).length > 0 ? await session.queryBindAsync(text, params, { format }) : await session.queryAsync(text, { format });
      return result.text();
    };
    // Inserts are staged in a file the engine reads with file(): chdb's inline raw insert takes text
    // formats only, and parsed the same JSON 3x slower (bench/README.md). The directory is ours alone
    // (the data dir lock), so leftovers of a crash are removed here.
    const staging = join(path, 'insert-staging');
    if (!readonly) {
      rmSync(staging, { recursive: true, force: true });
      mkdirSync(staging, { recursive: true });
    }
    let seq = 0;
    const kvOfStore = kv;
    return wrap(
      'embedded',
      client,
      dataDir,
      readonly ? 'tables' : pointReads,
      kv,
      read,
      async (table, body, format, columns) => {
        if (readonly) throw new Error(`insert into ${table}: the store was opened read-only`);
        const file = join(staging, `${process.pid}-${seq++}.${format}`);
        await writeFile(file, body);
        try {
          await client.command({
            query: `INSERT INTO ${insertTarget(table, columns)} SELECT * FROM file({file:String}, ${format})`,
            query_params: { file },
            clickhouse_settings: EMBEDDED_INSERT_SETTINGS,
          });
        } finally {
          await unlink(file).catch(() => undefined);
        }
      },
      async () => {
        session.close();
        await kvOfStore?.close();
        lock.release();
      },
    );
  } catch (err) {
    await kv?.close();
    lock.release();
    throw err;
  }
}

/** Runs a SELECT and returns its result text in `format`. */
type Reader = (sql: string, format: string, params?: QueryParams, settings?: Record<string, unknown>) => Promise<string>;

/** Per-query settings as a trailing SETTINGS clause (values are numbers, booleans or plain words). */
export function withSettingsClause(sql: string, settings?: Record<string, unknown>): string {
  const entries = Object.entries(settings ?? {}).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return sql;
  const list = entries.map(([k, v]) => {
    const value = typeof v === 'boolean' ? (v ? 1 : 0) : v;
    if (typeof value === 'number' && Number.isFinite(value)) return `${ident(k)} = ${value}`;
    if (typeof value === 'string' && /^[A-Za-z0-9_.]+$/.test(value)) return `${ident(k)} = '${value}'`;
    throw new Error(`setting ${k}: unsupported value ${JSON.stringify(v)}`);
  });
  return `${sql.replace(/[\s;]+$/, '')}\nSETTINGS ${list.join(', ')}`;
}

/** JSONEachRow text -> rows. */
function jsonLines<T>(text: string): T[] {
  const rows: T[] = [];
  let start = 0;
  for (let end = text.indexOf('\n'); end >= 0; start = end + 1, end = text.indexOf('\n', start)) {
    if (end > start) rows.push(JSON.parse(text.slice(start, end)) as T);
  }
  if (start < text.length && text.slice(start).trim()) rows.push(JSON.parse(text.slice(start)) as T);
  return rows;
}

/**
 * Crash tests: `TON_GATEWAY_KILL_BEFORE_INSERT=table:n` kills the process (SIGKILL, as `kill -9` does) right before
 * its n-th non-empty insert into `table`, a precise point inside a write (test/pipeline/replay.test.ts).
 */
function killPoint(): { table: string; n: number; seen: number } | null {
  const m = /^([a-z_]+):(\d+)$/.exec(process.env.TON_GATEWAY_KILL_BEFORE_INSERT ?? '');
  return m ? { table: m[1], n: Number(m[2]), seen: 0 } : null;
}

function wrap(
  kind: 'embedded' | 'server',
  client: ClickHouseClient,
  location: string,
  pointReads: PointReadsMode,
  kv: Kv | null,
  read: Reader,
  send: (table: string, body: string | Buffer, format: InsertFormat | 'Native', columns?: readonly string[]) => Promise<void>,
  onClose?: () => void | Promise<void>,
): StoreClient {
  let closed = false;
  const killAt = killPoint();
  let schemas: Promise<Map<string, TableSchema>> | null = null;
  /**
   * Column types of every table, read in one statement on first use (shared by the inserts that start
   * together) and again when a table or column is missing (a migration applied since): a `system.columns`
   * read costs 100-400 ms while the engine warms up, and one per table added seconds to the start of a run.
   */
  async function readSchemas(): Promise<Map<string, TableSchema>> {
    const cols = jsonLines<{ table: string; name: string; type: string }>(
      await read(`SELECT table, name, type FROM system.columns WHERE database = currentDatabase() AND default_kind NOT IN ('MATERIALIZED', 'ALIAS')`, 'JSONEachRow'),
    );
    const out = new Map<string, Map<string, string>>();
    for (const c of cols) {
      let t = out.get(c.table);
      if (!t) out.set(c.table, (t = new Map()));
      t.set(c.name, c.type);
    }
    return out;
  }
  async function schemaOf(table: string, refresh = false): Promise<TableSchema> {
    const current = schemas;
    let all = current ? await current.catch(() => null) : null;
    if (refresh || !all?.has(table)) {
      // one refresh for everyone who found the same cache lacking
      if (schemas === current) schemas = readSchemas();
      all = await schemas!;
    }
    const schema = all.get(table);
    if (!schema) throw new Error(`table ${table} does not exist`);
    return schema;
  }
  return {
    kind,
    client,
    location,
    pointReads,
    kv,
    async query<T>(sql: string, params?: QueryParams, settings?: Record<string, unknown>) {
      return jsonLines<T>(await read(sql, 'JSONEachRow', params, settings));
    },
    queryText(sql: string, format: string, params?: QueryParams, settings?: Record<string, unknown>) {
      return read(sql, format, params, settings);
    },
    async command(sql: string, params?: QueryParams) {
      await client.command({ query: sql, query_params: params });
    },
    async insertFormatted(table: string, body: string, format: InsertFormat, columns?: readonly string[]) {
      if (body.length === 0) return;
      await send(table, body, format, columns);
    },
    async insertRows(table: string, rows: readonly Row[], columns?: readonly string[]) {
      if (rows.length === 0) return;
      if (killAt && table === killAt.table && ++killAt.seen === killAt.n) process.kill(process.pid, 'SIGKILL');
      let schema = await schemaOf(table);
      const cols = columns ?? keysOf(rows);
      // A migration applied since the schema was read (a long-running process) adds columns.
      if (cols.some((c) => !schema.has(c))) schema = await schemaOf(table, true);
      const block = encodeNative(rows, schema, table, cols);
      await send(table, block.body, 'Native', block.columns);
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        await client.close();
      } finally {
        await onClose?.();
      }
    },
  };
}
