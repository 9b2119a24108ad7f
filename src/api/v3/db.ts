/**
 * The v3 view of the store: every query goes through `Db.q`, which applies the request's statement
 * timeout and maps engine failures to stable API errors (504 on timeout, 503/500 otherwise) without
 * leaking driver text to clients (it is logged instead).
 */
import { TupleParam } from '@clickhouse/client';
import type { StoreClient, QueryParams } from '../../store/index.ts';
import { ApiError } from '../errors.ts';

export type Row = Record<string, unknown>;

export const DEFAULT_TIMEOUT_MS = 3000;

/** One row of address_facts_kv (clickhouse/0014): that `address` has a row in the table `fact` names. */
export interface FactRow {
  address: string;
  fact: string;
  value: string | null;
}

/** One row of the address book's sources: a code hash or a fact (address_facts_kv) of an address. */
export interface BookRow {
  address: string;
  value: string | null;
  kind: string;
}

/** Address-book source rows (address-book.ts) read ahead in another statement, for the addresses in `raws`. */
export interface BookPrefetch {
  raws: ReadonlySet<string>;
  rows: readonly BookRow[];
  /** Whether the rows include the addresses' facts (address_facts_kv). */
  facts: boolean;
}

/** Facts (address_facts_kv) the address book read in this request, and the addresses it read them for. */
export interface FactsRead {
  covered: ReadonlySet<string>;
  rows: readonly FactRow[];
}

export class Db {
  /**
   * Set per request: whether the response carries an address book (so a statement made anyway may read its rows
   * ahead, saving the book its own statement), and the rows so read.
   */
  wantsBook = false;
  prefetchedBook: BookPrefetch | null = null;
  facts: FactsRead | null = null;

  constructor(
    readonly store: StoreClient,
    /** Statement timeout in ms for this request. */
    readonly timeoutMs: number = DEFAULT_TIMEOUT_MS,
    private readonly log?: (err: unknown, sql: string) => void,
  ) {}

  withTimeout(ms: number, log?: (err: unknown, sql: string) => void): Db {
    return new Db(this.store, ms, log ?? this.log);
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
