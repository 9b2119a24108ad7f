/** Action reads for /actions and /pendingActions: the actions rows, their accounts and their transactions. */
import type { Db, Row } from '../db.ts';
import type { LtWindow, Page } from '../params.ts';
import { loadByHashes, type LoadedTx } from './transactions.ts';

/** The ORDER BY tuple of the last row of the previous page (the reference's actions cursor). */
export interface ActionsCursor {
  traceEnd: bigint;
  traceId: string;
  end: bigint;
  actionId: string;
}

export interface ActionFilter extends LtWindow {
  /** Overrides the other filters (not the types). */
  action_id?: string[];
  account?: string;
  /** Overrides tx_hash, msg_hash, mc_seqno and the window. */
  trace_id?: string[];
  tx_hash?: string[];
  msg_hash?: string[];
  mc_seqno?: number;
  /** These types only (children included); otherwise the supported `types` not inside an action of those types. */
  action_type?: string[];
  exclude_action_type?: string[];
  /** Supported action types (supportedTypes). */
  types: string[];
  /** Rows strictly after this one in the order. */
  cursor?: ActionsCursor;
}

/** The rows the type conditions of `f` keep: what findActions' SQL says of type and ancestor_type. */
export function actionTypeFilter(f: Pick<ActionFilter, 'action_type' | 'exclude_action_type' | 'types'>): (r: Row) => boolean {
  const only = f.action_type?.length ? new Set(f.action_type) : null;
  const types = new Set(f.types);
  const excluded = new Set(f.exclude_action_type ?? []);
  return (r) => {
    const t = String(r.type);
    if (only ? !only.has(t) : !types.has(t) || ((r.ancestor_type as string[] | null) ?? []).some((a) => types.has(a))) return false;
    return !excluded.has(t);
  };
}

/**
 * An account's actions from the key-value store's list (src/kv/lists.ts), as findActions would give them; null when
 * the request is not one it serves (a server store; action_id, trace_id, tx_hash, msg_hash or mc_seqno; a utime
 * window, which orders by utime), and findActions answers instead.
 */
export async function actionsFromKv(db: Db, f: ActionFilter, pg: Page): Promise<Row[] | null> {
  const lists = db.lists;
  if (!lists || f.account === undefined || f.action_id?.length || f.trace_id?.length || f.tx_hash?.length || f.msg_hash?.length) return null;
  if (f.mc_seqno !== undefined || f.start_utime !== undefined || f.end_utime !== undefined) return null;
  return lists.actionsByAccount(f.account, { startLt: f.start_lt, endLt: f.end_lt, dir: pg.dir, limit: pg.limit, offset: pg.offset, cursor: f.cursor, keep: actionTypeFilter(f) });
}

/**
 * Actions ordered by trace_end_lt (trace_end_utime with a utime bound), trace_id, end_lt (end_utime), action_id in
 * `pg.dir`, paged.
 */
export async function findActions(db: Db, f: ActionFilter, pg: Page): Promise<Row[]> {
  const p: Record<string, unknown> = { limit: pg.limit, offset: pg.offset, types: f.types };
  const c: string[] = [];
  if (f.action_id?.length) {
    p.aid = f.action_id;
    c.push('action_id IN {aid:Array(FixedString(64))}');
  } else {
    if (f.account !== undefined) {
      p.acc = f.account;
      c.push('(trace_id, action_id) IN (SELECT trace_id, action_id FROM action_accounts WHERE account = {acc:String})');
    }
    if (f.trace_id?.length) {
      p.tid = f.trace_id;
      c.push('trace_id IN {tid:Array(FixedString(64))}');
    } else {
      if (f.tx_hash?.length) {
        p.txh = f.tx_hash;
        c.push('hasAny(tx_hashes, {txh:Array(FixedString(64))})');
      }
      if (f.msg_hash?.length) {
        p.mh = f.msg_hash;
        c.push(`hasAny(tx_hashes, (SELECT groupArray(hash) FROM transactions WHERE (account, lt) IN (SELECT tx_account, tx_lt FROM message_hashes WHERE hash IN {mh:Array(FixedString(64))})))`);
      }
      if (f.mc_seqno !== undefined) { p.mc = f.mc_seqno; c.push('trace_mc_seqno_end = {mc:UInt32}'); }
      if (f.start_utime !== undefined) { p.sut = f.start_utime; c.push('trace_end_utime >= {sut:UInt32}'); }
      if (f.end_utime !== undefined) { p.eut = f.end_utime; c.push('trace_end_utime <= {eut:UInt32}'); }
      if (f.start_lt !== undefined) { p.slt = f.start_lt; c.push('trace_end_lt >= {slt:UInt64}'); }
      if (f.end_lt !== undefined) { p.elt = f.end_lt; c.push('trace_end_lt <= {elt:UInt64}'); }
    }
  }
  if (f.action_type?.length) { p.at = f.action_type; c.push('type IN {at:Array(String)}'); }
  else c.push('type IN {types:Array(String)} AND NOT hasAny(ancestor_type, {types:Array(String)})');
  if (f.exclude_action_type?.length) { p.xt = f.exclude_action_type; c.push('type NOT IN {xt:Array(String)}'); }
  const u = f.start_utime !== undefined || f.end_utime !== undefined;
  const d = pg.dir;
  if (f.cursor) {
    p.c_te = f.cursor.traceEnd;
    p.c_tid = f.cursor.traceId;
    p.c_e = f.cursor.end;
    p.c_aid = f.cursor.actionId;
    c.push(
      `(${u ? 'trace_end_utime' : 'trace_end_lt'}, trace_id, ${u ? 'end_utime' : 'end_lt'}, action_id) ${d === 'DESC' ? '<' : '>'} ` +
        '({c_te:UInt64}, {c_tid:FixedString(64)}, {c_e:UInt64}, {c_aid:FixedString(64)})',
    );
  }
  return db.q(
    `SELECT * FROM actions FINAL WHERE ${c.join(' AND ')}
     ORDER BY ${u ? 'trace_end_utime' : 'trace_end_lt'} ${d}, trace_id ${d}, ${u ? 'end_utime' : 'end_lt'} ${d}, action_id ${d}
     LIMIT {limit:UInt32} OFFSET {offset:UInt32}`,
    p,
  );
}

/** The accounts of each action (sorted), by action id; `fromKv`: the rows came from the key-value store, so do these. */
export async function accountsOfActions(db: Db, actions: Row[], fromKv = false): Promise<Map<string, string[]>> {
  if (!actions.length) return new Map();
  const lists = fromKv ? db.lists : null;
  if (lists) return lists.actionAccounts(actions);
  const acc = await db.q<{ action_id: string; accounts: string[] }>(
    'SELECT action_id, groupUniqArray(account) AS accounts FROM action_accounts WHERE action_id IN {a:Array(FixedString(64))} GROUP BY action_id',
    { a: actions.map((r) => r.action_id) },
  );
  return new Map(acc.map((a) => [a.action_id, a.accounts.sort()]));
}

/** The transactions of these actions, in (lt, account, hash) order. */
export async function transactionsOfActions(db: Db, actions: Row[]): Promise<LoadedTx[]> {
  if (!actions.length) return [];
  const hashes = [...new Set(actions.flatMap((r) => r.tx_hashes as string[]))];
  return loadByHashes(db, hashes);
}
