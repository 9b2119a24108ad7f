import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { ClickHouseLogLevel, createClient, type ClickHouseClient } from '@clickhouse/client';
import type { InsertFormat } from './encode.ts';
import { encodeNative, type TableSchema } from './native.ts';
import type { Row } from '../../util/index.ts';
import { lockDataDir, type DataDirLock } from './lock.ts';
import { Kv } from '../../kv/index.ts';
import { withoutStored } from './replay.ts';
import type { PointReadsMode, QueryParams, StoreClient, StoreConfig } from './store-client.ts';

export type { PointReadsMode, QueryParams, StoreClient, StoreConfig } from './store-client.ts';
import { ENGINE_USERS, EngineLease, type EngineEndpoint } from '../../engine/index.ts';

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

const BASE_SETTINGS = {
  output_format_json_quote_64bit_integers: 1,
  // UInt128/UInt256 must come back as strings too (they exceed JS numbers).
  output_format_json_quote_decimals: 1,
} as const;

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

/** Opens a client: the embedded engine of `dataDir` (started when none runs), or the server of `url`. */
export async function openClient(config: StoreConfig = {}): Promise<StoreClient> {
  if (config.url) return openServer(config);
  if (config.pointReads && config.pointReads !== 'tables' && config.pointReads !== 'kv' && config.pointReads !== 'both') throw new Error(`invalid pointReads "${String(config.pointReads)}"`);
  return openEmbedded(resolve(config.dataDir ?? './data'), config);
}

/** What differs between the embedded engine and a server below the common wrapper. */
interface Connection {
  client(): ClickHouseClient;
  /** After a failed statement: whether the engine was gone and is back (so the statement may be sent again). */
  recovered(err: unknown): Promise<boolean>;
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
  // the client's own log of every failed statement: the caller handles (and logs) it
  const client = createClient({ url: config.url, username: config.user, password: config.password, database, clickhouse_settings: settings, log: { level: ClickHouseLogLevel.OFF } });
  return wrap({
    kind: 'server',
    location: `${config.url} database ${database}`,
    pointReads: 'tables',
    kv: null,
    readonly: config.readonly === true,
    engine: () => null,
    connection: { client: () => client, recovered: async () => false },
    onClose: () => client.close(),
  });
}

/**
 * Node's and undici's words for a connection the engine's death cut or refused: the statement may be sent again once
 * the engine is back. A timeout is not one of them (the engine lives, and is busy).
 */
function engineGone(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown; cause?: unknown };
  const code = typeof e?.code === 'string' ? e.code : '';
  if (['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED'].includes(code)) return true;
  const msg = typeof e?.message === 'string' ? e.message : '';
  if (/socket hang up|ECONNREFUSED|ECONNRESET|other side closed/i.test(msg)) return true;
  return e?.cause !== undefined && e.cause !== err && engineGone(e.cause);
}

/**
 * The embedded engine: a client of the engine process over this data dir (src/engine). A writer takes the data dir's
 * writer lock first (a second indexer stops there, before it touches the engine) and writes the key-value store.
 */
async function openEmbedded(dataDir: string, config: StoreConfig): Promise<StoreClient> {
  const readonly = config.readonly === true;
  const lock: DataDirLock | null = readonly || config.lock === false ? null : lockDataDir(dataDir);
  let kv: Kv | null = null;
  let lease: EngineLease | null = null;
  try {
    const requested = config.pointReads ?? (readonly ? 'tables' : 'kv');
    // a reader opens the writer's key-value store read-only, where it exists (the first write creates it)
    const kvReadable = readonly && requested !== 'tables' && existsSync(join(dataDir, 'kv', 'data.mdb'));
    const pointReads: PointReadsMode = readonly && !kvReadable ? 'tables' : requested;
    if (pointReads !== 'tables') kv = Kv.open({ dataDir, readOnly: readonly });
    lease = await EngineLease.acquire(dataDir, { ports: config.enginePorts, log: config.log });
    const leased = lease;
    const user = readonly ? ENGINE_USERS.reader : ENGINE_USERS.writer;
    const make = (ep: EngineEndpoint) =>
      createClient({
        url: ep.url,
        username: user,
        password: ep.secret,
        clickhouse_settings: BASE_SETTINGS,
        // loopback: compressing answers costs CPU and saves nothing
        compression: { request: false, response: false },
        // a migration or a large insert may take minutes; the engine runs statements side by side
        request_timeout: 3_600_000,
        max_open_connections: 16,
        // the client logs every failed statement (the caller handles it) and warns of long timeouts behind load
        // balancers (there is none on loopback)
        log: { level: ClickHouseLogLevel.OFF },
      });
    let endpoint = leased.endpoint;
    let client = make(endpoint);
    const kvOfStore = kv;
    return wrap({
      kind: 'embedded',
      location: dataDir,
      pointReads,
      kv,
      readonly,
      engine: () => endpoint,
      connection: {
        client: () => client,
        async recovered(err) {
          if (!engineGone(err)) return false;
          const now = await leased.recover();
          if (now.url !== endpoint.url || now.pid !== endpoint.pid) {
            const old = client;
            endpoint = now;
            client = make(now);
            void old.close().catch(() => undefined);
          }
          return true;
        },
      },
      async onClose() {
        await client.close();
        await kvOfStore?.close();
        lock?.release();
        await leased.release();
      },
    });
  } catch (err) {
    await kv?.close();
    lock?.release();
    await lease?.release();
    throw err;
  }
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

/** Settings of an insert: the in-block collapse of ReplacingMergeTree is wasted work (a batch holds no duplicates). */
const INSERT_SETTINGS = { optimize_on_insert: 0 } as const;

/**
 * A statement, sent again after the embedded engine died under it and came back (src/engine): reads and commands
 * are sent as they were; an insert is handled by its caller (`insert`), which sends only what is not stored.
 */
async function again<T>(conn: Connection, run: (client: ClickHouseClient) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run(conn.client());
    } catch (err) {
      if (attempt >= 3 || !(await conn.recovered(err))) throw err;
    }
  }
}

function readText(conn: Connection, sql: string, format: string, params?: QueryParams, settings?: Record<string, unknown>): Promise<string> {
  return again(conn, async (client) => {
    const rs = await client.query({ query: sql, query_params: params, format: format as never, clickhouse_settings: settings as never });
    return rs.text();
  });
}

type InsertBody = { body: string | Buffer; format: InsertFormat | 'Native'; columns?: readonly string[] };

/**
 * One insert. Cut by the engine's death, it may or may not have been stored (MergeTree writes a part whole or not
 * at all): once the engine is back only the rows the table does not hold yet are sent (replay.ts withoutStored), so
 * nothing is stored twice.
 */
async function insertOnce(store: StoreClient, conn: Connection, table: string, rows: readonly Row[] | null, body: () => InsertBody, rebuild: (rest: Row[]) => InsertBody): Promise<void> {
  if (store.readonly) throw new Error(`insert into ${table}: the store was opened read-only`);
  let payload = body();
  for (let attempt = 1; ; attempt++) {
    try {
      const rs = await conn.client().exec({
        query: `INSERT INTO ${insertTarget(table, payload.columns)} FORMAT ${payload.format}`,
        values: Readable.from([payload.body]),
        clickhouse_settings: INSERT_SETTINGS,
      });
      rs.stream.resume();
      return;
    } catch (err) {
      if (attempt >= 3 || !(await conn.recovered(err))) throw err;
      if (rows === null) continue; // pre-encoded text: the caller's rows are not known here; identical rows collapse in FINAL
      const rest = await withoutStored(store, table, [...rows]);
      if (rest.length === 0) return;
      payload = rebuild(rest);
    }
  }
}

/**
 * Column types of every table, read in one statement on first use (shared by the inserts that start
 * together) and again when a table or column is missing (a migration applied since): a `system.columns`
 * read costs 100-400 ms while the engine warms up, and one per table added seconds to the start of a run.
 */
class SchemaCache {
  private schemas: Promise<Map<string, TableSchema>> | null = null;
  constructor(private readonly conn: Connection) {}

  private async readSchemas(): Promise<Map<string, TableSchema>> {
    const cols = jsonLines<{ table: string; name: string; type: string }>(
      await readText(this.conn, `SELECT table, name, type FROM system.columns WHERE database = currentDatabase() AND default_kind NOT IN ('MATERIALIZED', 'ALIAS')`, 'JSONEachRow'),
    );
    const out = new Map<string, Map<string, string>>();
    for (const c of cols) {
      let t = out.get(c.table);
      if (!t) out.set(c.table, (t = new Map()));
      t.set(c.name, c.type);
    }
    return out;
  }

  async of(table: string, refresh = false): Promise<TableSchema> {
    const current = this.schemas;
    let all = current ? await current.catch(() => null) : null;
    if (refresh || !all?.has(table)) {
      // one refresh for everyone who found the same cache lacking
      if (this.schemas === current) this.schemas = this.readSchemas();
      all = await this.schemas!;
    }
    const schema = all.get(table);
    if (!schema) throw new Error(`table ${table} does not exist`);
    return schema;
  }
}

function wrap(o: {
  kind: 'embedded' | 'server';
  location: string;
  pointReads: PointReadsMode;
  kv: Kv | null;
  readonly: boolean;
  engine: () => EngineEndpoint | null;
  connection: Connection;
  onClose: () => Promise<void>;
}): StoreClient {
  let closed = false;
  const killAt = killPoint();
  const conn = o.connection;
  const schemas = new SchemaCache(conn);
  const read = (sql: string, format: string, params?: QueryParams, settings?: Record<string, unknown>) => readText(conn, sql, format, params, settings);
  const insert = (table: string, rows: readonly Row[] | null, body: () => InsertBody, rebuild: (rest: Row[]) => InsertBody) => insertOnce(self, conn, table, rows, body, rebuild);
  const self: StoreClient = {
    kind: o.kind,
    get client() {
      return conn.client();
    },
    location: o.location,
    pointReads: o.pointReads,
    kv: o.kv,
    readonly: o.readonly,
    get engine() {
      return o.engine();
    },
    async query<T>(sql: string, params?: QueryParams, settings?: Record<string, unknown>) {
      return jsonLines<T>(await read(sql, 'JSONEachRow', params, settings));
    },
    queryText(sql: string, format: string, params?: QueryParams, settings?: Record<string, unknown>) {
      return read(sql, format, params, settings);
    },
    queryStream(sql: string, format: string, params?: QueryParams, settings?: Record<string, unknown>) {
      if (!/^[A-Za-z]+$/.test(format)) throw new Error(`invalid format "${format}"`);
      // the raw bytes of the answer (exec; `query` parses rows, and Parquet has none it can cut)
      return again(conn, async (client) => (await client.exec({ query: `${sql}\nFORMAT ${format}`, query_params: params, clickhouse_settings: settings as never })).stream as Readable);
    },
    async command(sql: string, params?: QueryParams) {
      await again(conn, (client) => client.command({ query: sql, query_params: params }));
    },
    async insertFormatted(table: string, body: string, format: InsertFormat, columns?: readonly string[]) {
      if (body.length === 0) return;
      await insert(table, null, () => ({ body, format, columns }), () => ({ body, format, columns }));
    },
    async insertRows(table: string, rows: readonly Row[], columns?: readonly string[]) {
      if (rows.length === 0) return;
      if (killAt && table === killAt.table && ++killAt.seen === killAt.n) process.kill(process.pid, 'SIGKILL');
      let schema = await schemas.of(table);
      const cols = columns ?? keysOf(rows);
      // A migration applied since the schema was read (a long-running process) adds columns.
      if (cols.some((c) => !schema.has(c))) schema = await schemas.of(table, true);
      const native = (rs: readonly Row[]) => {
        const block = encodeNative(rs, schema, table, cols);
        return { body: block.body, format: 'Native' as const, columns: block.columns };
      };
      await insert(table, rows, () => native(rows), native);
    },
    async close() {
      if (closed) return;
      closed = true;
      await o.onClose();
    },
  };
  return self;
}
