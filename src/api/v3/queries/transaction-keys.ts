/** Keys (account, lt, hash) of the transactions /adjacentTransactions and /pendingTransactions list. */
import type { Db } from '../db.ts';
import type { Page } from '../params.ts';
import { txKeysByMessage, type TxKey } from './transactions.ts';

/**
 * Transactions on the other end of the internal messages of transaction `hash`: direction in, the sender of its
 * in_msg; out, the receivers of its out_msgs; absent, both. Null when no transaction has that hash.
 */
export async function adjacentTxKeys(db: Db, hash: string, direction?: 'in' | 'out'): Promise<TxKey[] | null> {
  const own = await db.q<{ account: string; lt: string }>('SELECT DISTINCT account, lt FROM transactions_by_hash WHERE hash = {h:FixedString(64)}', { h: hash });
  if (own.length === 0) return null;
  const msgs = await db.q<{ msg_hash: string; direction: string }>(
    `SELECT DISTINCT msg_hash, direction FROM messages WHERE (tx_account, tx_lt) IN {k:Array(Tuple(String, UInt64))} ${direction ? 'AND direction = {d:String}' : ''} AND message_type = 'int'`,
    { k: own.map((o) => [o.account, BigInt(o.lt)]), d: direction === 'in' ? 'in' : 'out' },
  );
  const keys: TxKey[] = [];
  for (const dir of ['in', 'out'] as const) {
    const hs = msgs.filter((m) => m.direction === dir).map((m) => m.msg_hash);
    if (hs.length) keys.push(...(await txKeysByMessage(db, hs, dir === 'in' ? 'out' : 'in')));
  }
  return keys;
}

export interface PendingTxFilter {
  account?: string[];
  trace_id?: string[];
}

/** Transactions of traces still pending (of these accounts / traces), lt then account descending, paged. */
export async function pendingTxKeys(db: Db, f: PendingTxFilter, pg: Page): Promise<TxKey[]> {
  const accounts = f.account;
  const traceIds = f.trace_id;
  const p: Record<string, unknown> = { limit: pg.limit, offset: pg.offset, a: accounts ?? [], t: traceIds ?? [] };
  const rows = await db.q<{ account: string; lt: string; hash: string }>(
    `SELECT DISTINCT tt.account AS account, tt.lt AS lt, tt.hash AS hash FROM trace_transactions AS tt
     WHERE tt.trace_id IN (SELECT trace_id FROM traces FINAL WHERE state = 'pending' ${traceIds?.length ? 'AND trace_id IN {t:Array(FixedString(64))}' : ''})
     ${accounts?.length ? 'AND tt.account IN {a:Array(String)}' : ''}
     ORDER BY tt.lt DESC, tt.account DESC LIMIT {limit:UInt32} OFFSET {offset:UInt32}`,
    p,
  );
  return rows.map((r) => [r.account, r.lt, r.hash]);
}
