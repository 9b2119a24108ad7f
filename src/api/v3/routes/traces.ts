/** Traces and actions (reference §2.9), plus the pending variants (traces whose messages are still in flight). */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import * as S from '../../../../schemas/api/v3/entities.ts';
import { ApiError } from '../../errors.ts';
import { actionAddresses, actionJson, supportedTypes } from '../actions.ts';
import { bookAndMetadata } from '../address-book.ts';
import type { Db, Row } from '../db.ts';
import { LT_WINDOW, PAGE_SORT, pageOf, type Page, type Parsed } from '../params.ts';
import { b64, num, str, transactionAddresses } from '../render.ts';
import { addRoute, type Ctx, type V3Deps } from '../route.ts';
import { docsByTxKey, mcBlockExists, renderByHashes, renderWithDocs } from '../queries/transactions.ts';

/** Traces with more transactions render without them (`is_incomplete`), as the reference does. */
export const MAX_TRACE_TXS = 4000;
const PENDING_DOC =
  'This gateway has no mempool emulator: "pending" means traces whose messages are still in flight between finalized blocks ' +
  '(trace_state pending: some internal message was sent but not yet received). They become complete once every message is received.';

interface TraceFilter {
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

async function findTraces(db: Db, f: TraceFilter, q: Parsed, pg: Page): Promise<Row[]> {
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
  const byUtime = q.start_utime !== undefined || q.end_utime !== undefined;
  if (q.start_utime !== undefined) { p.sut = q.start_utime; c.push('end_utime >= {sut:UInt32}'); }
  if (q.end_utime !== undefined) { p.eut = q.end_utime; c.push('end_utime <= {eut:UInt32}'); }
  if (q.start_lt !== undefined) { p.slt = q.start_lt; c.push('end_lt >= {slt:UInt64}'); }
  if (q.end_lt !== undefined) { p.elt = q.end_lt; c.push('end_lt <= {elt:UInt64}'); }
  const col = byUtime ? 'end_utime' : 'end_lt';
  if (byId) return pageTraces(await db.points.traces(f.traceIds!), f, q, pg);
  return db.q(
    `SELECT * FROM traces FINAL ${c.length ? 'WHERE ' + c.join(' AND ') : ''} ORDER BY ${col} ${pg.dir}, trace_id ${pg.dir} LIMIT {limit:UInt32} OFFSET {offset:UInt32}`,
    p,
  );
}

/** The traces (read by id) that the request's other conditions keep, in its order, paged: what findTraces' SQL does. */
function pageTraces(rows: Row[], f: TraceFilter, q: Parsed, pg: Page): Row[] {
  const big = (v: unknown) => BigInt(String(v));
  const kept = rows.filter(
    (t) =>
      (f.mcSeqno === undefined || (t.state === 'complete' && Number(t.mc_seqno_end) === f.mcSeqno)) &&
      (!f.state || t.state === f.state) &&
      (q.start_utime === undefined || Number(t.end_utime) >= (q.start_utime as number)) &&
      (q.end_utime === undefined || Number(t.end_utime) <= (q.end_utime as number)) &&
      (q.start_lt === undefined || big(t.end_lt) >= (q.start_lt as bigint)) &&
      (q.end_lt === undefined || big(t.end_lt) <= (q.end_lt as bigint)),
  );
  const byUtime = q.start_utime !== undefined || q.end_utime !== undefined;
  const s = pg.dir === 'ASC' ? 1 : -1;
  kept.sort((a, b) => {
    const x = byUtime ? BigInt(Number(a.end_utime)) : big(a.end_lt);
    const y = byUtime ? BigInt(Number(b.end_utime)) : big(b.end_lt);
    if (x !== y) return s * (x < y ? -1 : 1);
    return s * (String(a.trace_id) < String(b.trace_id) ? -1 : String(a.trace_id) > String(b.trace_id) ? 1 : 0);
  });
  return kept.slice(pg.offset, pg.offset + pg.limit);
}

async function loadActions(db: Db, traceIds: string[], types: string[], explicitTypes = false): Promise<Row[]> {
  if (traceIds.length === 0) return [];
  return db.q(
    `SELECT * FROM actions FINAL WHERE trace_id IN {t:Array(FixedString(64))}
     ${explicitTypes ? '' : 'AND type IN {s:Array(String)} AND NOT hasAny(ancestor_type, {s:Array(String)})'}
     ORDER BY trace_id, start_lt, end_lt, action_id`,
    { t: traceIds, s: types },
  );
}

async function renderTraces(ctx: Ctx, traces: Row[], includeActions: boolean, types: string[]) {
  const ids = traces.map((t) => t.trace_id as string);
  const small = traces.filter((t) => Number(t.nodes) <= MAX_TRACE_TXS).map((t) => t.trace_id as string);
  // a trace's transactions and their documents: point reads (db.points)
  const txsAndDocs = async () => {
    const keys = await ctx.db.points.traceTxs(small);
    return { txKeys: keys, docs: docsByTxKey(await ctx.db.points.docs([...new Set(keys.map((k) => k.hash))])) };
  };
  const [{ txKeys, docs }, actions] = await Promise.all([
    small.length ? txsAndDocs() : Promise.resolve({ txKeys: [], docs: new Map() }),
    includeActions ? loadActions(ctx.db, ids, types) : Promise.resolve([]),
  ]);
  const rendered = await renderWithDocs(ctx.db, txKeys.map((k) => [k.account, k.lt, k.hash]), docs, 'ASC');
  const byTrace = new Map<string, Record<string, unknown>[]>();
  const traceOf = new Map(txKeys.map((k) => [`${k.account}|${k.lt}`, k.trace_id]));
  rendered.forEach((t) => {
    const id = traceOf.get(`${t.account}|${t.lt}`);
    if (!id) return;
    const l = byTrace.get(id);
    if (l) l.push(t);
    else byTrace.set(id, [t]);
  });
  const addrs: string[] = [];
  const out = traces.map((t) => {
    const id = t.trace_id as string;
    const r = traceJson(t, Number(t.nodes) > MAX_TRACE_TXS ? null : (byTrace.get(id) ?? []), includeActions ? actions.filter((a) => a.trace_id === id) : null);
    addrs.push(...r.addrs);
    return r.trace;
  });
  return { out, addrs };
}

/**
 * One trace as /traces renders it, from its `traces` row, its rendered transactions in lt order (null: too large to
 * load, rendered without them) and its `actions` rows (null: without actions); with the addresses its address book
 * covers. The streaming API's `trace` notifications render with this too.
 */
export function traceJson(t: Row, txs: Record<string, unknown>[] | null, actions: Row[] | null): { trace: Record<string, unknown>; addrs: string[] } {
  const addrs: string[] = [];
  const o: Record<string, unknown> = {
    trace_id: b64(t.trace_id),
    external_hash: b64(t.external_hash),
    mc_seqno_start: str(t.mc_seqno_start),
    mc_seqno_end: str(t.mc_seqno_end),
    start_lt: str(t.start_lt),
    start_utime: num(t.start_utime),
    end_lt: str(t.end_lt),
    end_utime: num(t.end_utime),
    trace_info: {
      trace_state: String(t.state),
      messages: Number(t.edges),
      transactions: Number(t.nodes),
      pending_messages: Number(t.pending_edges),
      classification_state: String(t.classification_state),
    },
    is_incomplete: false,
  };
  if (txs === null) {
    o.is_incomplete = true;
    o.warning = 'trace is too large';
  } else {
    addrs.push(...transactionAddresses(txs));
    o.transactions_order = txs.map((x) => x.hash);
    o.transactions = Object.fromEntries(txs.map((x) => [x.hash as string, x]));
    const tree = buildTree(txs);
    if (tree.root) o.trace = tree.root;
    if (tree.missing) o.warning = 'missing node in trace found';
  }
  if (actions) {
    for (const a of actions) addrs.push(...actionAddresses(a));
    o.actions = actions.map((a) => actionJson(a));
  }
  return { trace: o, addrs };
}

interface TreeNode {
  tx_hash: string;
  in_msg_hash: string | null;
  children: TreeNode[];
}

/** Links each transaction to the one whose out_msgs contain its in_msg (lt order). */
function buildTree(txs: Record<string, unknown>[]): { root: TreeNode | null; missing: boolean } {
  if (txs.length === 0) return { root: null, missing: false };
  const nodes = txs.map((t) => ({ tx_hash: t.hash as string, in_msg_hash: ((t.in_msg as Row | null)?.hash as string) ?? null, children: [] as TreeNode[] }));
  const parentOfMsg = new Map<string, number>();
  txs.forEach((t, i) => {
    for (const m of t.out_msgs as Row[]) parentOfMsg.set(m.hash as string, i);
  });
  let root: TreeNode | null = null;
  let missing = false;
  nodes.forEach((n, i) => {
    const p = n.in_msg_hash ? parentOfMsg.get(n.in_msg_hash) : undefined;
    if (p !== undefined && p !== i) nodes[p].children.push(n);
    else if (!root) root = n;
    else missing = true;
  });
  return { root, missing };
}

export function traceRoutes(app: FastifyInstance, deps: V3Deps): void {
  const tags = ['actions and traces'];
  const traceParams = {
    account: { kind: 'address' as const },
    trace_id: { kind: 'hash[]' as const },
    tx_hash: { kind: 'hash[]' as const },
    msg_hash: { kind: 'hash[]' as const },
    mc_seqno: { kind: 'uint32' as const },
    ...LT_WINDOW,
    include_actions: { kind: 'bool' as const, default: false },
    supported_action_types: { kind: 'string[]' as const },
    ...PAGE_SORT,
  };

  const tracesHandler = (key: 'traces' | 'events') => async (ctx: Ctx) => {
    const { q } = ctx;
    const given = ['account', 'trace_id', 'tx_hash', 'msg_hash'].filter((k) => q[k] !== undefined);
    if (given.length > 1) throw new ApiError(422, 'only one of account, trace_id, tx_hash, msg_hash should be specified');
    if (q.mc_seqno !== undefined && !(await mcBlockExists(ctx.db, q.mc_seqno as number))) throw new ApiError(404, `masterchain block ${q.mc_seqno} not found`);
    const types = supportedTypes(q.supported_action_types as string[] | undefined, header(ctx));
    const traces = await findTraces(
      ctx.db,
      { account: q.account as string | undefined, traceIds: q.trace_id as string[] | undefined, txHashes: q.tx_hash as string[] | undefined, msgHashes: q.msg_hash as string[] | undefined, mcSeqno: q.mc_seqno as number | undefined },
      q,
      pageOf(q),
    );
    const { out, addrs } = await renderTraces(ctx, traces, key === 'events' || q.include_actions === true, types);
    const { address_book, metadata } = await bookAndMetadata(ctx, addrs);
    return { [key]: out, address_book, metadata };
  };

  addRoute(app, deps, {
    url: '/traces',
    tags,
    summary: 'Traces by account, trace id, transaction or message hash, masterchain block or window',
    description: 'Give at most one of account, trace_id, tx_hash, msg_hash. Order: end_lt (or end_utime with utime filters), then trace_id; sort default desc.',
    params: traceParams,
    response: S.TracesResponse,
    handler: tracesHandler('traces'),
  });
  addRoute(app, deps, {
    url: '/events',
    tags,
    summary: 'Alias of /traces with actions always included (envelope key events)',
    params: traceParams,
    response: z.object({ events: z.array(S.Trace), address_book: S.AddressBook, metadata: S.Metadata }),
    handler: tracesHandler('events'),
  });

  addRoute(app, deps, {
    url: '/actions',
    tags,
    summary: 'Actions (classified trace events)',
    description:
      'Order: trace_end_lt (or trace_end_utime), trace_id, end_lt, action_id; sort default desc. action_id overrides other filters. ' +
      'A full page carries next_cursor: send it back as cursor (with the same filters and sort) for the rows after it, as the reference does.',
    params: {
      account: { kind: 'address' },
      tx_hash: { kind: 'hash[]' },
      msg_hash: { kind: 'hash[]' },
      action_id: { kind: 'hash[]' },
      trace_id: { kind: 'hash[]' },
      mc_seqno: { kind: 'uint32' },
      ...LT_WINDOW,
      action_type: { kind: 'string[]' },
      exclude_action_type: { kind: 'string[]' },
      supported_action_types: { kind: 'string[]' },
      include_accounts: { kind: 'bool', default: false },
      include_transactions: { kind: 'bool', default: false },
      cursor: { kind: 'string', description: 'next_cursor of the previous page: the rows strictly after it (same filters and sort; not with offset)' },
      ...PAGE_SORT,
    },
    response: S.ActionsResponse,
    async handler(ctx) {
      const { q, db } = ctx;
      for (const k of ['action_type', 'exclude_action_type']) {
        if ((q[k] as string[] | undefined)?.some((t) => !/^[A-Za-z0-9_.]+$/.test(t))) throw new ApiError(422, `${k} contains invalid characters`);
      }
      if (q.mc_seqno !== undefined && !(await mcBlockExists(db, q.mc_seqno as number))) throw new ApiError(404, `masterchain block ${q.mc_seqno} not found`);
      const pg = pageOf(q);
      const types = supportedTypes(q.supported_action_types as string[] | undefined, header(ctx));
      const p: Record<string, unknown> = { limit: pg.limit, offset: pg.offset, types };
      const c: string[] = [];
      if ((q.action_id as string[] | undefined)?.length) {
        p.aid = q.action_id;
        c.push('action_id IN {aid:Array(FixedString(64))}');
      } else {
        if (q.account !== undefined) {
          p.acc = q.account;
          c.push('(trace_id, action_id) IN (SELECT trace_id, action_id FROM action_accounts WHERE account = {acc:String})');
        }
        if ((q.trace_id as string[] | undefined)?.length) {
          p.tid = q.trace_id;
          c.push('trace_id IN {tid:Array(FixedString(64))}');
        } else {
          if ((q.tx_hash as string[] | undefined)?.length) {
            p.txh = q.tx_hash;
            c.push('hasAny(tx_hashes, {txh:Array(FixedString(64))})');
          }
          if ((q.msg_hash as string[] | undefined)?.length) {
            p.mh = q.msg_hash;
            c.push(`hasAny(tx_hashes, (SELECT groupArray(hash) FROM transactions WHERE (account, lt) IN (SELECT tx_account, tx_lt FROM message_hashes WHERE hash IN {mh:Array(FixedString(64))})))`);
          }
          if (q.mc_seqno !== undefined) { p.mc = q.mc_seqno; c.push('trace_mc_seqno_end = {mc:UInt32}'); }
          if (q.start_utime !== undefined) { p.sut = q.start_utime; c.push('trace_end_utime >= {sut:UInt32}'); }
          if (q.end_utime !== undefined) { p.eut = q.end_utime; c.push('trace_end_utime <= {eut:UInt32}'); }
          if (q.start_lt !== undefined) { p.slt = q.start_lt; c.push('trace_end_lt >= {slt:UInt64}'); }
          if (q.end_lt !== undefined) { p.elt = q.end_lt; c.push('trace_end_lt <= {elt:UInt64}'); }
        }
      }
      if ((q.action_type as string[] | undefined)?.length) { p.at = q.action_type; c.push('type IN {at:Array(String)}'); }
      else c.push('type IN {types:Array(String)} AND NOT hasAny(ancestor_type, {types:Array(String)})');
      if ((q.exclude_action_type as string[] | undefined)?.length) { p.xt = q.exclude_action_type; c.push('type NOT IN {xt:Array(String)}'); }
      const u = q.start_utime !== undefined || q.end_utime !== undefined;
      const d = pg.dir;
      if (q.cursor !== undefined) {
        if (pg.offset > 0) throw new ApiError(422, 'cursor cannot be combined with offset');
        const cur = decodeActionsCursor(q.cursor as string, u, d === 'DESC');
        p.c_te = cur.traceEnd;
        p.c_tid = cur.traceId;
        p.c_e = cur.end;
        p.c_aid = cur.actionId;
        c.push(
          `(${u ? 'trace_end_utime' : 'trace_end_lt'}, trace_id, ${u ? 'end_utime' : 'end_lt'}, action_id) ${d === 'DESC' ? '<' : '>'} ` +
            '({c_te:UInt64}, {c_tid:FixedString(64)}, {c_e:UInt64}, {c_aid:FixedString(64)})',
        );
      }
      const rows = await db.q(
        `SELECT * FROM actions FINAL WHERE ${c.join(' AND ')}
         ORDER BY ${u ? 'trace_end_utime' : 'trace_end_lt'} ${d}, trace_id ${d}, ${u ? 'end_utime' : 'end_lt'} ${d}, action_id ${d}
         LIMIT {limit:UInt32} OFFSET {offset:UInt32}`,
        p,
      );
      let accounts = new Map<string, string[]>();
      if (q.include_accounts && rows.length) {
        const acc = await db.q<{ action_id: string; accounts: string[] }>(
          'SELECT action_id, groupUniqArray(account) AS accounts FROM action_accounts WHERE action_id IN {a:Array(FixedString(64))} GROUP BY action_id',
          { a: rows.map((r) => r.action_id) },
        );
        accounts = new Map(acc.map((a) => [a.action_id, a.accounts.sort()]));
      }
      let full = new Map<string, Record<string, unknown>>();
      if (q.include_transactions && rows.length) {
        const hashes = [...new Set(rows.flatMap((r) => r.tx_hashes as string[]))];
        const rendered = await renderByHashes(db, hashes);
        full = new Map(rendered.map((t) => [Buffer.from(String(t.hash), 'base64').toString('hex'), t]));
      }
      const actions = rows.map((r) =>
        actionJson(r, {
          accounts: q.include_accounts ? (accounts.get(r.action_id as string) ?? []) : undefined,
          transactionsFull: q.include_transactions ? (r.tx_hashes as string[]).map((h) => full.get(h)).filter(Boolean) : undefined,
        }),
      );
      const addrs = rows.flatMap(actionAddresses);
      const { address_book, metadata } = await bookAndMetadata(ctx, addrs);
      const last = rows.length === pg.limit ? rows[rows.length - 1] : null;
      return last ? { actions, address_book, metadata, next_cursor: encodeActionsCursor(last, u, d === 'DESC') } : { actions, address_book, metadata };
    },
  });

  addRoute(app, deps, {
    url: '/pendingTraces',
    tags,
    summary: 'Traces whose messages are still in flight',
    description: PENDING_DOC,
    params: { account: { kind: 'address' }, ext_msg_hash: { kind: 'hash[]' }, supported_action_types: { kind: 'string[]' }, ...PAGE_SORT },
    response: S.TracesResponse,
    async handler(ctx) {
      const { q } = ctx;
      if (q.account === undefined && !(q.ext_msg_hash as string[] | undefined)?.length) throw new ApiError(422, 'account or ext_msg_hash should be specified');
      const types = supportedTypes(q.supported_action_types as string[] | undefined, header(ctx));
      const traces = await findTraces(ctx.db, { account: q.account as string | undefined, msgHashes: q.ext_msg_hash as string[] | undefined, state: 'pending' }, q, pageOf(q));
      const { out, addrs } = await renderTraces(ctx, traces, true, types);
      const { address_book, metadata } = await bookAndMetadata(ctx, addrs);
      return { traces: out, address_book, metadata };
    },
  });

  addRoute(app, deps, {
    url: '/pendingActions',
    tags,
    summary: 'Actions of traces whose messages are still in flight',
    description: PENDING_DOC,
    params: { account: { kind: 'address' }, ext_msg_hash: { kind: 'hash[]' }, supported_action_types: { kind: 'string[]' }, include_transactions: { kind: 'bool', default: false }, ...PAGE_SORT },
    response: S.ActionsResponse,
    async handler(ctx) {
      const { q } = ctx;
      if (q.account === undefined && !(q.ext_msg_hash as string[] | undefined)?.length) throw new ApiError(422, 'account or ext_msg_hash should be specified');
      const types = supportedTypes(q.supported_action_types as string[] | undefined, header(ctx));
      const traces = await findTraces(ctx.db, { account: q.account as string | undefined, msgHashes: q.ext_msg_hash as string[] | undefined, state: 'pending' }, q, pageOf(q));
      const rows = await loadActions(ctx.db, traces.map((t) => t.trace_id as string), types);
      let full = new Map<string, Record<string, unknown>>();
      if (q.include_transactions && rows.length) {
        const hashes = [...new Set(rows.flatMap((r) => r.tx_hashes as string[]))];
        const rendered = await renderByHashes(ctx.db, hashes);
        full = new Map(rendered.map((t) => [Buffer.from(String(t.hash), 'base64').toString('hex'), t]));
      }
      const actions = rows.map((r) =>
        actionJson(r, { transactionsFull: q.include_transactions ? (r.tx_hashes as string[]).map((h) => full.get(h)).filter(Boolean) : undefined }),
      );
      const addrs = rows.flatMap(actionAddresses);
      const { address_book, metadata } = await bookAndMetadata(ctx, addrs);
      return { actions, address_book, metadata };
    },
  });
}

interface ActionsCursor {
  traceEnd: bigint;
  traceId: string;
  end: bigint;
  actionId: string;
}

/**
 * The reference's actions cursor (crud/actions_cursor.go): the ORDER BY tuple of a page's last row, with the time
 * axis and direction it was made for; opaque to clients (here base64url of JSON).
 */
function encodeActionsCursor(r: Row, utime: boolean, desc: boolean): string {
  const tuple = [utime, desc, String(utime ? r.trace_end_utime : r.trace_end_lt), r.trace_id, String(utime ? r.end_utime : r.end_lt), r.action_id];
  return Buffer.from(JSON.stringify(tuple)).toString('base64url');
}

function decodeActionsCursor(s: string, utime: boolean, desc: boolean): ActionsCursor {
  let t: unknown;
  try {
    t = JSON.parse(Buffer.from(s, 'base64url').toString('utf8'));
  } catch {
    throw new ApiError(422, 'invalid cursor');
  }
  const hex = /^[0-9a-f]{64}$/;
  const dec = /^\d{1,20}$/;
  if (!Array.isArray(t) || t.length !== 6 || typeof t[0] !== 'boolean' || typeof t[1] !== 'boolean' || !dec.test(String(t[2])) || !hex.test(String(t[3])) || !dec.test(String(t[4])) || !hex.test(String(t[5]))) {
    throw new ApiError(422, 'invalid cursor');
  }
  if (t[0] !== utime || t[1] !== desc) throw new ApiError(422, 'invalid cursor: it was made for another sort or time window (send the same filters and sort)');
  return { traceEnd: BigInt(t[2] as string), traceId: t[3] as string, end: BigInt(t[4] as string), actionId: t[5] as string };
}

function header(ctx: Ctx): string | undefined {
  const h = ctx.request.headers['x-actions-version'];
  const v = Array.isArray(h) ? h[0] : h;
  return v?.trim() || undefined;
}
