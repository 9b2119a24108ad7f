/**
 * The lists of /actions and /traces by account (issue 30) read from the key-value store: range scans of the entries
 * lists-mirror.ts writes, no engine statement. Every read sees only entries whose tag is at most `visible`, read once
 * per call, as reads.ts does. Rows come back as the store's JSON gives them, like the statements they replace
 * (src/api/v3/queries/actions.ts, traces.ts), which stay the path of a server store and of what these do not serve.
 */
import type { Database } from 'lmdb';
import { addrKey, hashKey, prefixEnd, u64 } from './keys.ts';
import type { Kv } from './kv.ts';
import { actsKey } from './lists-mirror.ts';
import { newestVisible } from './reads.ts';
import type { LtPage } from './point-reads.ts';
import type { Row } from '../util/index.ts';

/** The ORDER BY tuple of a row of /actions (trace_end_lt, trace_id, end_lt, action_id): rows strictly after it. */
export interface ActionsKeyCursor {
  traceEnd: bigint;
  traceId: string;
  end: bigint;
  actionId: string;
}

/** A page of an account's actions in (trace_end_lt, trace_id, end_lt, action_id) order; [startLt, endLt] bounds trace_end_lt. */
export interface ActionsPage extends LtPage {
  cursor?: ActionsKeyCursor;
  /** The rows the request's other conditions keep (types): filtered before the page is cut. */
  keep: (row: Row) => boolean;
}

export interface ListReads {
  /** An account's actions (action_accounts' and actions' rows joined), paged. */
  actionsByAccount(account: string, page: ActionsPage): Promise<Row[]>;
  /** The accounts of each action (sorted), by action id; actions without any left out. */
  actionAccounts(actions: readonly Row[]): Promise<Map<string, string[]>>;
  /** The actions of these traces that `keep` keeps, in (trace_id, start_lt, end_lt, action_id) order. */
  actionsOfTraces(traceIds: readonly string[], keep: (row: Row) => boolean): Promise<Row[]>;
  /** The newest rows of the traces an account's transactions belong to, in (end_lt, trace_id) order, paged. */
  tracesByAccount(account: string, page: LtPage): Promise<Row[]>;
}

const LT_MAX = 2n ** 64n - 1n;
const ENTRY_TAIL = 80; // trace id, action end_lt, action id after an acts key's trace_end_lt

const big = (v: unknown): bigint => BigInt(String(v));

/** The key range of `prefix` whose next 8 bytes (an lt) lie in [lo, hi], in `dir` order, for getRange. */
function ltRange(prefix: Buffer, lo: bigint, hi: bigint, dir: 'ASC' | 'DESC', tail: number): { start: Buffer; end: Buffer; reverse: boolean } {
  const low = Buffer.concat([prefix, u64(lo)]);
  const high = prefixEnd(Buffer.concat([prefix, u64(hi)]), tail);
  return dir === 'ASC' ? { start: low, end: high, reverse: false } : { start: high, end: low, reverse: true };
}

/** Entries of a list in key order (`dir`), from `range`, that are visible: tag is the value's first item. */
function* visibleKeys(db: Database, range: { start: Buffer; end: Buffer; reverse: boolean }, visible: number): Generator<Buffer> {
  for (const { key, value } of db.getRange(range)) {
    if ((value as [number])[0] <= visible) yield key as Buffer;
  }
}

/** A page's lt window, [lo, hi] inclusive, and how many entries it needs (offset + limit). */
function pageWindow(page: { startLt?: bigint; endLt?: bigint; offset: number; limit: number }): { want: number; lo: bigint; hi: bigint } {
  return { want: page.offset + page.limit, lo: page.startLt ?? 0n, hi: page.endLt ?? LT_MAX };
}

/** Compares row values as unsigned integers then as text: (start_lt, end_lt, action_id) within a trace. */
function byTraceOrder(a: Row, b: Row): number {
  if (a.trace_id !== b.trace_id) return String(a.trace_id) < String(b.trace_id) ? -1 : 1;
  for (const c of ['start_lt', 'end_lt'] as const) {
    const x = big(a[c]);
    const y = big(b[c]);
    if (x !== y) return x < y ? -1 : 1;
  }
  return String(a.action_id) < String(b.action_id) ? -1 : String(a.action_id) > String(b.action_id) ? 1 : 0;
}

export function kvListReads(kv: Kv): ListReads {
  const db = kv.db;
  const actionRow = (traceId: Buffer, actionId: Buffer, visible: number): Row | null => {
    const v = db.actrows.get(Buffer.concat([traceId, actionId])) as [number, Row] | undefined;
    return v && v[0] <= visible ? v[1] : null;
  };
  return {
    async actionsByAccount(account, page) {
      const visible = kv.visible();
      const out: Row[] = [];
      const { want, lo, hi } = pageWindow(page);
      if (want <= 0 || lo > hi) return out;
      const prefix = addrKey(account);
      const range = ltRange(prefix, lo, hi, page.dir, ENTRY_TAIL);
      const c = page.cursor;
      const after = c ? actsKey(account, c.traceEnd, c.traceId, c.end, c.actionId) : null;
      // the cursor moves the range's start when it lies inside it; its own key is never taken
      if (after && (page.dir === 'ASC' ? Buffer.compare(after, range.start) > 0 : Buffer.compare(after, range.start) < 0)) range.start = after;
      const at = prefix.length + 8;
      for (const key of visibleKeys(db.acts, range, visible)) {
        if (after && (page.dir === 'ASC' ? Buffer.compare(key, after) <= 0 : Buffer.compare(key, after) >= 0)) continue;
        const row = actionRow(key.subarray(at, at + 32), key.subarray(at + 40, at + 72), visible);
        if (!row || !page.keep(row)) continue;
        out.push(row);
        if (out.length >= want) break;
      }
      return out.slice(page.offset);
    },
    async actionAccounts(actions) {
      const visible = kv.visible();
      const out = new Map<string, string[]>();
      for (const a of actions) {
        const prefix = Buffer.concat([hashKey(String(a.trace_id)), hashKey(String(a.action_id))]);
        const accounts = new Set<string>();
        for (const { value } of db.actaccts.getRange({ start: prefix, end: prefixEnd(prefix, 40) })) {
          const [tag, account] = value as [number, string];
          if (tag <= visible) accounts.add(account);
        }
        if (accounts.size) out.set(String(a.action_id), [...accounts].sort());
      }
      return out;
    },
    async actionsOfTraces(traceIds, keep) {
      const visible = kv.visible();
      const out: Row[] = [];
      for (const id of new Set(traceIds)) {
        const prefix = hashKey(id);
        for (const { value } of db.actrows.getRange({ start: prefix, end: prefixEnd(prefix, 32) })) {
          const [tag, row] = value as [number, Row];
          if (tag <= visible && keep(row)) out.push(row);
        }
      }
      return out.sort(byTraceOrder);
    },
    async tracesByAccount(account, page) {
      const visible = kv.visible();
      const out: Row[] = [];
      const { want, lo, hi } = pageWindow(page);
      if (want <= 0 || lo > hi) return out;
      const prefix = addrKey(account);
      const at = prefix.length;
      for (const key of visibleKeys(db.acctraces, ltRange(prefix, lo, hi, page.dir, 32), visible)) {
        // an entry of an older version of the trace (its end_lt grew since) is not the trace's place in the list
        const row = newestVisible(db.traces, key.subarray(at + 8, at + 40), visible) as Row | undefined;
        if (!row || big(row.end_lt) !== key.readBigUInt64BE(at)) continue;
        out.push(row);
        if (out.length >= want) break;
      }
      return out.slice(page.offset);
    },
  };
}
