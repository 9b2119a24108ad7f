/**
 * The v3 view of the store: every query goes through `Db.q`, which applies the request's statement
 * timeout and maps engine failures to stable API errors (504 on timeout, 503/500 otherwise) without
 * leaking driver text to clients (it is logged instead).
 */
import { TupleParam } from '@clickhouse/client';
import { kvListReads, kvPointReads, type FactRow, type ListReads, type PointReads } from '../../kv/index.ts';
import { tablePointReads } from '../../store/read/index.ts';
import { type StoreClient, type QueryParams } from '../../store/client/index.ts';
import { ApiError } from '../errors.ts';
import { createApiCaches, type ApiCaches } from './caches.ts';
import type { Row } from '../../util/index.ts';

export type { Row };

export const DEFAULT_TIMEOUT_MS = 3000;

/** Facts (address_facts_kv / the key-value store) the address book read in this request, and the addresses it read them for. */
export interface FactsRead {
  covered: ReadonlySet<string>;
  rows: readonly FactRow[];
}

export class Db {
  /** Set per request: the facts the address book read, which the metadata block then need not read again. */
  facts: FactsRead | null = null;
  private pointReads: PointReads | null;

  constructor(
    readonly store: StoreClient,
    /** Statement timeout in ms for this request. */
    readonly timeoutMs: number = DEFAULT_TIMEOUT_MS,
    private readonly log?: (err: unknown, sql: string) => void,
    /** Where lookups by key go (src/kv/point-reads.ts); default: the store's key-value store, else its tables. */
    points?: PointReads,
    /** The caches of the network this Db reads for (caches.ts); default: its own. */
    readonly caches: ApiCaches = createApiCaches(),
  ) {
    this.pointReads = points ?? (store.kv && store.pointReads === 'kv' ? kvPointReads(store.kv) : null);
  }

  /** Lookups by key: the key-value store, or ClickHouse's tables through this request's runner (its timeout). */
  get points(): PointReads {
    return (this.pointReads ??= tablePointReads((sql, params) => this.q(sql, params), this.store));
  }

  /**
   * The lists of /actions and /traces by account from the key-value store (src/kv/lists.ts), where point reads go
   * there too; null: those lists are statements (a server store, the tables' point reads).
   */
  get lists(): ListReads | null {
    return this.pointReads?.kind === 'kv' && this.store.kv ? kvListReads(this.store.kv) : null;
  }

  withTimeout(ms: number, log?: (err: unknown, sql: string) => void): Db {
    return new Db(this.store, ms, log ?? this.log, this.pointReads?.kind === 'kv' ? this.pointReads : undefined, this.caches);
  }

  /** The statement settings of this request: its timeout, which fails the statement rather than truncating it. */
  get settings(): Record<string, unknown> {
    return { max_execution_time: Math.max(0.001, this.timeoutMs / 1000), timeout_overflow_mode: 'throw' };
  }

  async q<T = Row>(sql: string, params?: QueryParams): Promise<T[]> {
    try {
      return await this.store.query<T>(sql, params && tuples(params), this.settings);
    } catch (err) {
      throw mapDbError(err, (e) => this.log?.(e, sql));
    }
  }

  /** A reading of src/store (`what` names it in the log) under this request's statement settings, its errors mapped as q maps them. */
  async read<T>(what: string, fn: (store: StoreClient, settings: Record<string, unknown>) => Promise<T>): Promise<T> {
    try {
      return await fn(this.store, this.settings);
    } catch (err) {
      throw mapDbError(err, (e) => this.log?.(e, what));
    }
  }
}

export function mapDbError(err: unknown, log?: (err: unknown) => void): ApiError {
  if (err instanceof ApiError) return err;
  const msg = err instanceof Error ? err.message : String(err);
  const code = (err as { clickhouseCode?: number; code?: string })?.clickhouseCode ?? Number((err as { code?: string })?.code);
  log?.(err);
  if (code === 159 || code === 160 || /TIMEOUT_EXCEEDED|Timeout exceeded|timed out/i.test(msg)) {
    return new ApiError(504, 'query timeout: narrow the request (lt/utime window, fewer values) or raise X-Timeout (max 3000 ms)');
  }
  if (/ECONNREFUSED|ECONNRESET|socket hang up|closed/i.test(msg)) return new ApiError(503, 'index database unavailable');
  return new ApiError(500, 'index database error');
}

/** Arrays of arrays are arrays of tuples for ClickHouse: the client needs TupleParam for those. */
function tuples(params: QueryParams): QueryParams {
  const out: QueryParams = {};
  for (const [k, v] of Object.entries(params)) {
    out[k] = Array.isArray(v) && v.length > 0 && Array.isArray(v[0]) ? v.map((t) => new TupleParam(t as unknown[])) : v;
  }
  return out;
}
