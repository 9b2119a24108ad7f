/** Trace reads for /traces, /events and the pending variants: the traces rows, their transactions and actions. */
import type { TraceTx } from '../../../kv/index.ts';
import type { TxDoc } from '../../../decode/index.ts';
import type { Db, Row } from '../db.ts';
import type { LtWindow, Page } from '../params.ts';
import { actionTypeFilter } from './actions.ts';
import { docsByTxKey } from './transactions.ts';

export interface TraceFilter extends LtWindow {
  account?: string;
  traceIds?: string[];
  txHashes?: string[];
  msgHashes?: string[];
  mcSeqno?: number;
  state?: 'pending';
}

/** trace_id subquery for the filters (one of them, validated by the caller). */
function traceIdSource(f: TraceFilter, p: Record<string, unknown>): string | null {
  if (f.account) {
    p.acc = f.account;
    return 'SELECT trace_id FROM transactions WHERE account = {acc:String} AND trace_id IS NOT NULL';
  }
  if (f.txHashes?.length) {
    p.txh = f.txHashes;
    return `SELECT trace_id FROM transactions WHERE (account, lt) IN (SELECT account, lt FROM transactions_by_hash WHERE hash IN {txh:Array(FixedString(64))}) AND trace_id IS NOT NULL`;
  }
  if (f.msgHashes?.length) {
    p.mh = f.msgHashes;
    return `SELECT trace_id FROM transactions WHERE (account, lt) IN (SELECT tx_account, tx_lt FROM message_hashes WHERE hash IN {mh:Array(FixedString(64))}) AND trace_id IS NOT NULL`;
  }
  return null;
}

/**
 * An account's traces from the key-value store's list (src/kv/lists.ts), as findTraces would give them; null when
 * the request is not one it serves (a server store, no account, a state or mc_seqno condition, a utime window), and
 * findTraces answers instead.
 */
export async function tracesFromKv(db: Db, f: TraceFilter, pg: Page): Promise<Row[] | null> {
  const lists = db.lists;
  if (!lists || !f.account || f.traceIds?.length || f.mcSeqno !== undefined || f.state || f.start_utime !== undefined || f.end_utime !== undefined) return null;
  return lists.tracesByAccount(f.account, { startLt: f.start_lt, endLt: f.end_lt, dir: pg.dir, limit: pg.limit, offset: pg.offset });
}

/** Traces matching `f`, ordered by end_lt (end_utime with a utime bound), then trace_id, in `pg.dir`, paged. */
export async function findTraces(db: Db, f: TraceFilter, pg: Page): Promise<Row[]> {
  const p: Record<string, unknown> = { limit: pg.limit, offset: pg.offset };
  const c: string[] = [];
  // by trace id: point reads (db.points); the other conditions filter the rows found (pageTraces)
  const byId = !!f.traceIds?.length;
  if (byId) {
    p.tids = f.traceIds;
    c.push('trace_id IN {tids:Array(FixedString(64))}');
  }
  const src = byId ? null : traceIdSource(f, p);
  if (src) c.push(`trace_id IN (${src})`);
  if (f.mcSeqno !== undefined) {
    p.mc = f.mcSeqno;
    c.push("state = 'complete' AND mc_seqno_end = {mc:UInt32}");
  }
  if (f.state) c.push(`state = '${f.state}'`);
  const byUtime = f.start_utime !== undefined || f.end_utime !== undefined;
  if (f.start_utime !== undefined) { p.sut = f.start_utime; c.push('end_utime >= {sut:UInt32}'); }
  if (f.end_utime !== undefined) { p.eut = f.end_utime; c.push('end_utime <= {eut:UInt32}'); }
  if (f.start_lt !== undefined) { p.slt = f.start_lt; c.push('end_lt >= {slt:UInt64}'); }
  if (f.end_lt !== undefined) { p.elt = f.end_lt; c.push('end_lt <= {elt:UInt64}'); }
  const col = byUtime ? 'end_utime' : 'end_lt';
  if (byId) return pageTraces(await db.points.traces(f.traceIds!), f, pg);
  return db.q(
    `SELECT * FROM traces FINAL ${c.length ? 'WHERE ' + c.join(' AND ') : ''} ORDER BY ${col} ${pg.dir}, trace_id ${pg.dir} LIMIT {limit:UInt32} OFFSET {offset:UInt32}`,
    p,
  );
}

/** The traces (read by id) that the request's other conditions keep, in its order, paged: what findTraces' SQL does. */
function pageTraces(rows: Row[], f: TraceFilter, pg: Page): Row[] {
  const big = (v: unknown) => BigInt(String(v));
  const kept = rows.filter(
    (t) =>
      (f.mcSeqno === undefined || (t.state === 'complete' && Number(t.mc_seqno_end) === f.mcSeqno)) &&
      (!f.state || t.state === f.state) &&
      (f.start_utime === undefined || Number(t.end_utime) >= f.start_utime) &&
      (f.end_utime === undefined || Number(t.end_utime) <= f.end_utime) &&
      (f.start_lt === undefined || big(t.end_lt) >= f.start_lt) &&
      (f.end_lt === undefined || big(t.end_lt) <= f.end_lt),
  );
  const byUtime = f.start_utime !== undefined || f.end_utime !== undefined;
  const s = pg.dir === 'ASC' ? 1 : -1;
  kept.sort((a, b) => {
    const x = byUtime ? BigInt(Number(a.end_utime)) : big(a.end_lt);
    const y = byUtime ? BigInt(Number(b.end_utime)) : big(b.end_lt);
    if (x !== y) return s * (x < y ? -1 : 1);
    return s * (String(a.trace_id) < String(b.trace_id) ? -1 : String(a.trace_id) > String(b.trace_id) ? 1 : 0);
  });
  return kept.slice(pg.offset, pg.offset + pg.limit);
}

/**
 * Actions of these traces in (trace_id, start_lt, end_lt, action_id) order: of the supported `types` and not inside
 * an action of those types, unless `explicitTypes`. `fromKv`: the traces came from the key-value store's list, so do
 * their actions.
 */
export async function actionsOfTraces(db: Db, traceIds: string[], types: string[], explicitTypes = false, fromKv = false): Promise<Row[]> {
  if (traceIds.length === 0) return [];
  const lists = fromKv ? db.lists : null;
  if (lists) return lists.actionsOfTraces(traceIds, explicitTypes ? () => true : actionTypeFilter({ types }));
  return db.q(
    `SELECT * FROM actions FINAL WHERE trace_id IN {t:Array(FixedString(64))}
     ${explicitTypes ? '' : 'AND type IN {s:Array(String)} AND NOT hasAny(ancestor_type, {s:Array(String)})'}
     ORDER BY trace_id, start_lt, end_lt, action_id`,
    { t: traceIds, s: types },
  );
}

/** The transactions of these traces (keys with their trace id) and their documents by `${account}|${lt}`: point reads (db.points). */
export async function traceTransactions(
  db: Db,
  traceIds: string[],
): Promise<{ txKeys: TraceTx[]; docs: Map<string, TxDoc> }> {
  if (traceIds.length === 0) return { txKeys: [], docs: new Map() };
  const keys = await db.points.traceTxs(traceIds);
  return { txKeys: keys, docs: docsByTxKey(db, await db.points.docs([...new Set(keys.map((k) => k.hash))])) };
}
