/** The store's client as the rest of the code sees it (types only: client.ts opens one, the other modules use it). */
import type { Readable } from 'node:stream';
import type { ClickHouseClient } from '@clickhouse/client';
import type { EngineEndpoint } from '../../engine/index.ts';
import type { Kv } from '../../kv/index.ts';
import type { InsertFormat } from './encode.ts';
import type { Row } from '../../util/index.ts';

/**
 * Where the API's lookups by key are served from (issue 22): `kv`, the key-value store under `<dataDir>/kv` (the
 * embedded default: an LMDB file beside the engine, read by any process of the machine); `tables`, ClickHouse's own
 * tables (a remote server: the RocksDB tables of clickhouse/0013 and 0014); `both` keeps both written (tests compare
 * the two read paths on one store).
 */
export type PointReadsMode = 'kv' | 'tables' | 'both';

/** Where the store lives: the embedded engine over a data dir, or a ClickHouse server. */
export interface StoreConfig {
  /** Data directory: the engine's files go to `<dataDir>/clickhouse`, the key-value store to `<dataDir>/kv`. Default `./data`. */
  dataDir?: string;
  /** ClickHouse server URL; when set, the server is used instead of the embedded engine. */
  url?: string;
  user?: string;
  password?: string;
  database?: string;
  /**
   * Read-only: the engine itself refuses writes, DDL and the table functions that reach files, URLs or other servers
   * (the embedded engine's `reader` user: `readonly = 2` and SELECT grants only; a server session: `readonly = 1` on
   * every statement). Takes no writer lock. `ton-gateway sql`, `status`, `serve` and API workers open the store so;
   * inserts through this client throw.
   */
  readonly?: boolean;
  /**
   * Embedded only (a server store is always `tables`). A writer's default is `kv`; a read-only store reads the key-value
   * store only when asked (`kv`: opened read-only, beside the writer process's), else `tables`.
   */
  pointReads?: PointReadsMode;
  /**
   * Embedded, a writer: take the data directory's writer lock (default true). The roles that must run once per
   * directory take it (ingest, the checkpoint: a whole indexer); others that write (a split layout's store or traces
   * role on the same machine) share the engine and the key-value store (LMDB serializes writers across processes).
   */
  lock?: boolean;
  /** Ports for an engine this process starts (embedded; default: free ones, the previous ones when free). */
  enginePorts?: { http?: number; tcp?: number };
  /** Lines about an engine that died under this client and was started anew (embedded). */
  log?: (line: string) => void;
}

/** Query parameters: bound server-side through `{name:Type}` placeholders, never concatenated. */
export type QueryParams = Record<string, unknown>;

/** One ClickHouse connection (the embedded engine or a server) through @clickhouse/client. */
export interface StoreClient {
  readonly kind: 'embedded' | 'server';
  /** The client statements go through now (the embedded engine's changes when the engine is started anew). */
  readonly client: ClickHouseClient;
  /** Human-readable location (data dir or server URL + database). */
  readonly location: string;
  /** Where point reads are served from (see PointReadsMode). */
  readonly pointReads: PointReadsMode;
  /** The key-value store this process reads or writes (embedded, `kv` or `both`); null otherwise. */
  readonly kv: Kv | null;
  /** The embedded engine answering now (null for a server). */
  readonly engine: EngineEndpoint | null;
  /** Opened read-only (see StoreConfig.readonly): the engine refuses this client's writes. */
  readonly readonly: boolean;
  /** SELECT returning JSON rows; 64-bit integers come back as decimal strings. */
  query<T = Record<string, unknown>>(sql: string, params?: QueryParams, settings?: Record<string, unknown>): Promise<T[]>;
  /** SELECT returning the raw text of `format` (CSV, Pretty, JSONEachRow, ...). */
  queryText(sql: string, format: string, params?: QueryParams, settings?: Record<string, unknown>): Promise<string>;
  /** SELECT returning the result in `format` as a byte stream (Parquet, CSV, ...: exports). */
  queryStream(sql: string, format: string, params?: QueryParams, settings?: Record<string, unknown>): Promise<Readable>;
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

