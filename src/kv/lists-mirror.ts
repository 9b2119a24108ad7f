/**
 * The write side of the lists of /actions and /traces by account (issue 30; read by lists.ts): rows of the traces
 * stage's `actions`, `action_accounts` and `traces` tables, turned into entries. mirrorRows (mirror.ts) calls this with
 * every write's rows, so the entries go in the same batch, with the same tags, as the rest of the key-value store.
 *
 * - `actrows` (trace id, action id): the actions row. An action is written once, when its trace completes (a replay
 *   classifies it again to the same row), so it needs no versions.
 * - `actaccts` (trace id, action id, account) and `acts` (account, trace_end_lt, trace id, action end_lt, action id):
 *   one per action_accounts row; `acts` is in the order /actions pages an account's actions.
 * - `acctraces` (account, end_lt, trace id): one per account of each version of a traces row. A trace's end_lt grows
 *   while it is pending, so an account's entry of an older version stays behind: readers take an entry only when the
 *   newest traces row they see has that end_lt (lists.ts). The accounts of a version are those of its transactions:
 *   the trace's `tracetx` entries written by this write or an earlier one (tag at most this write's: a replay after a
 *   crash may find a later write's entries already there), and the trace_transactions rows of this write (not
 *   committed yet, so not in `tracetx` for a get).
 *
 * Idempotent: a replay writes the same keys with the same values.
 */
import type { Database } from 'lmdb';
import { jsonRow } from './json.ts';
import { addrKey, hashKey, prefixEnd, u64 } from './keys.ts';
import type { Kv } from './kv.ts';
import type { Row } from '../util/index.ts';

/** The rows of one table and their tag, as mirrorRows takes them. */
interface ListInput {
  table: string;
  rows: readonly Row[];
  tag: number;
}

/** The tables whose rows make list entries. */
export const LIST_TABLES = new Set(['actions', 'action_accounts', 'traces']);

/** The `info` mark of a store whose list entries are complete (kv-fill.ts fills a store written before them). */
export const LISTS_MARK = 'lists';

const text = (v: unknown): string => (typeof v === 'string' ? v : String(v));

/** `acts` key of an action_accounts row (also what a reader builds for a cursor). */
export function actsKey(account: string, traceEndLt: bigint | string, traceId: string, actionEndLt: bigint | string, actionId: string): Buffer {
  return Buffer.concat([addrKey(account), u64(traceEndLt), hashKey(traceId), u64(actionEndLt), hashKey(actionId)]);
}

/** The accounts of a trace's transactions stored so far with a tag at most `upTo` (`tracetx`: trace id, lt, hash -> [tag, account]). */
function storedTraceAccounts(db: Database, traceId: string, upTo: number): string[] {
  const prefix = hashKey(traceId);
  const out: string[] = [];
  for (const { value } of db.getRange({ start: prefix, end: prefixEnd(prefix, 64) })) {
    const [tag, account] = value as [number, string];
    if (tag <= upTo) out.push(account);
  }
  return out;
}

/** Writes the list entries of `inputs` (other tables ignored); resolves once they are committed. */
export function mirrorListRows(kv: Kv, inputs: readonly ListInput[]): Promise<void> {
  const db = kv.db;
  let last: Promise<unknown> = Promise.resolve();
  const put = (d: Database, key: Buffer, value: unknown) => {
    last = d.put(key, value);
  };
  // this write's trace transactions by trace id: their accounts belong to the trace's rows written with them
  const written = new Map<string, Set<string>>();
  for (const { table, rows } of inputs) {
    if (table !== 'trace_transactions') continue;
    for (const r of rows) {
      const id = text(r.trace_id);
      let s = written.get(id);
      if (!s) written.set(id, (s = new Set()));
      s.add(text(r.account));
    }
  }
  for (const { table, rows, tag } of inputs) {
    if (rows.length === 0 || !LIST_TABLES.has(table)) continue;
    if (table === 'actions') {
      for (const r of rows) put(db.actrows, Buffer.concat([hashKey(text(r.trace_id)), hashKey(text(r.action_id))]), [tag, jsonRow(r)]);
    } else if (table === 'action_accounts') {
      for (const r of rows) {
        const account = text(r.account);
        const traceId = text(r.trace_id);
        const actionId = text(r.action_id);
        put(db.acts, actsKey(account, r.trace_end_lt as bigint, traceId, r.action_end_lt as bigint, actionId), [tag]);
        put(db.actaccts, Buffer.concat([hashKey(traceId), hashKey(actionId), addrKey(account)]), [tag, account]);
      }
    } else {
      for (const r of rows) {
        const id = text(r.trace_id);
        // tag 0 (a fill from ClickHouse, an import): the newest row, so every transaction stored, whatever its tag
        const accounts = new Set([...storedTraceAccounts(db.tracetx, id, tag === 0 ? Number.MAX_SAFE_INTEGER : tag), ...(written.get(id) ?? [])]);
        const tail = Buffer.concat([u64(r.end_lt as bigint), hashKey(id)]);
        for (const a of accounts) put(db.acctraces, Buffer.concat([addrKey(a), tail]), [tag]);
      }
    }
  }
  return last.then(() => undefined);
}
