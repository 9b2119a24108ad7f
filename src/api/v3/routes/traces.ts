/** Traces and actions (reference §2.9), plus the pending variants (traces whose messages are still in flight). */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import * as S from '../../../../schemas/api/v3/entities.ts';
import { ApiError } from '../../errors.ts';
import { actionAddresses, actionJson, supportedTypes } from '../actions.ts';
import { bookAndMetadata } from '../address-book.ts';
import type { Row } from '../db.ts';
import { LT_WINDOW, PAGE_SORT, pageOf, type ParamsOf, type ParamSpec } from '../params.ts';
import { b64, num, renderedByHash, str, transactionAddresses, transactionsJson } from '../render.ts';
import { addRoute, type Ctx, type V3Deps } from '../route.ts';
import { loadWithDocs, mcBlockExists } from '../queries/transactions.ts';
import { actionsOfTraces, findTraces, traceTransactions, tracesFromKv } from '../queries/traces.ts';
import { accountsOfActions, actionsFromKv, findActions, transactionsOfActions, type ActionsCursor } from '../queries/actions.ts';

/** Traces with more transactions render without them (`is_incomplete`), as the reference does. */
export const MAX_TRACE_TXS = 4000;
const PENDING_DOC =
  'Emulated traces first (emulated: true): the traces of the external messages sent through this gateway, run in the TVM emulator against ' +
  'the newest indexed state, until the chain shows them. Then indexed traces whose messages are still in flight between finalized blocks ' +
  '(trace_state pending: some internal message was sent but not yet received). One page over both, newest first.';

/**
 * The traces rendered (traceJson) with their transactions (those of at most MAX_TRACE_TXS) and, when asked, actions
 * (`fromKv`: the traces came from the key-value store's list, and so do their actions).
 */
async function renderTraces(ctx: Ctx<unknown>, traces: Row[], includeActions: boolean, types: string[], fromKv = false) {
  const ids = traces.map((t) => t.trace_id as string);
  const small = traces.filter((t) => Number(t.nodes) <= MAX_TRACE_TXS).map((t) => t.trace_id as string);
  const [{ txKeys, docs }, actions] = await Promise.all([
    traceTransactions(ctx.db, small),
    includeActions ? actionsOfTraces(ctx.db, ids, types, false, fromKv) : Promise.resolve([]),
  ]);
  const rendered = transactionsJson(await loadWithDocs(ctx.db, txKeys.map((k) => [k.account, k.lt, k.hash]), docs, 'ASC'));
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
    account: { kind: 'address' },
    trace_id: { kind: 'hash[]' },
    tx_hash: { kind: 'hash[]' },
    msg_hash: { kind: 'hash[]' },
    mc_seqno: { kind: 'uint32' },
    ...LT_WINDOW,
    include_actions: { kind: 'bool', default: false },
    supported_action_types: { kind: 'string[]' },
    ...PAGE_SORT,
  } satisfies ParamSpec;

  type TraceParams = ParamsOf<typeof traceParams>;

  const tracesHandler = (key: 'traces' | 'events') => async (ctx: Ctx<TraceParams>) => {
    const { q } = ctx;
    const given = [q.account, q.trace_id, q.tx_hash, q.msg_hash].filter((v) => v !== undefined);
    if (given.length > 1) throw new ApiError(422, 'only one of account, trace_id, tx_hash, msg_hash should be specified');
    if (q.mc_seqno !== undefined && !(await mcBlockExists(ctx.db, q.mc_seqno))) throw new ApiError(404, `masterchain block ${q.mc_seqno} not found`);
    const types = supportedTypes(q.supported_action_types, header(ctx));
    const f = { ...q, traceIds: q.trace_id, txHashes: q.tx_hash, msgHashes: q.msg_hash, mcSeqno: q.mc_seqno };
    const fromKv = await tracesFromKv(ctx.db, f, pageOf(q));
    const traces = fromKv ?? (await findTraces(ctx.db, f, pageOf(q)));
    const { out, addrs } = await renderTraces(ctx, traces, key === 'events' || q.include_actions, types, fromKv !== null);
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
    params: ACTIONS_PARAMS,
    response: S.ActionsResponse,
    handler: listActions,
  });

  pendingRoutes(app, deps, tags);
}

/** /pendingTraces and /pendingActions: emulated traces first, then finalized traces still in flight. */
function pendingRoutes(app: FastifyInstance, deps: V3Deps, tags: string[]): void {
  addRoute(app, deps, {
    url: '/pendingTraces',
    tags,
    summary: 'Traces whose messages are still in flight',
    description: PENDING_DOC,
    params: { account: { kind: 'address' }, ext_msg_hash: { kind: 'hash[]' }, supported_action_types: { kind: 'string[]' }, ...PAGE_SORT },
    response: S.TracesResponse,
    async handler(ctx) {
      const { q } = ctx;
      if (q.account === undefined && !q.ext_msg_hash?.length) throw new ApiError(422, 'account or ext_msg_hash should be specified');
      const types = supportedTypes(q.supported_action_types, header(ctx));
      const { rendered: emulated, rest } = await emulatedPage(ctx, q, types);
      const traces = rest.limit > 0 ? await findTraces(ctx.db, { account: q.account, msgHashes: q.ext_msg_hash, state: 'pending' }, rest) : [];
      const { out, addrs } = await renderTraces(ctx, traces, true, types);
      for (const e of emulated) addrs.push(...e.addrs, ...e.actionRows.flatMap(actionAddresses));
      const pending = emulated.map((e) => ({ ...e.trace, actions: e.actionRows.map((a) => pendingAction(a)) }));
      const { address_book, metadata } = await bookAndMetadata(ctx, addrs);
      return { traces: [...pending, ...out], address_book, metadata };
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
      if (q.account === undefined && !q.ext_msg_hash?.length) throw new ApiError(422, 'account or ext_msg_hash should be specified');
      const types = supportedTypes(q.supported_action_types, header(ctx));
      const { rendered: emulated, rest } = await emulatedPage(ctx, q, types);
      const traces = rest.limit > 0 ? await findTraces(ctx.db, { account: q.account, msgHashes: q.ext_msg_hash, state: 'pending' }, rest) : [];
      const rows = await actionsOfTraces(ctx.db, traces.map((t) => t.trace_id as string), types);
      const full = q.include_transactions ? renderedByHash(await transactionsOfActions(ctx.db, rows)) : new Map<string, Record<string, unknown>>();
      const pending = emulated.flatMap((e) => {
        const byHash = new Map(e.txs.map((t) => [Buffer.from(String(t.hash), 'base64').toString('hex'), t]));
        return e.actionRows.map((a) =>
          pendingAction(a, { transactionsFull: q.include_transactions ? ((a.tx_hashes as string[]) ?? []).map((h) => byHash.get(h)).filter(Boolean) : undefined }),
        );
      });
      const actions = [
        ...pending,
        ...rows.map((r) =>
          actionJson(r, { transactionsFull: q.include_transactions ? (r.tx_hashes as string[]).map((h) => full.get(h)).filter(Boolean) : undefined }),
        ),
      ];
      const addrs = [...emulated.flatMap((e) => e.actionRows.flatMap(actionAddresses)), ...rows.flatMap(actionAddresses)];
      const { address_book, metadata } = await bookAndMetadata(ctx, addrs);
      return { actions, address_book, metadata };
    },
  });
}

/** The parameters of /actions. */
const ACTIONS_PARAMS = {
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
} satisfies ParamSpec;

/** /actions: a page of actions by the filters (an account's from the key-value store's list where it serves them). */
async function listActions(ctx: Ctx<ParamsOf<typeof ACTIONS_PARAMS>>) {
  const { q, db } = ctx;
  for (const [k, v] of [['action_type', q.action_type], ['exclude_action_type', q.exclude_action_type]] as const) {
    if (v?.some((t) => !/^[A-Za-z0-9_.]+$/.test(t))) throw new ApiError(422, `${k} contains invalid characters`);
  }
  if (q.mc_seqno !== undefined && !(await mcBlockExists(db, q.mc_seqno))) throw new ApiError(404, `masterchain block ${q.mc_seqno} not found`);
  const pg = pageOf(q);
  const types = supportedTypes(q.supported_action_types, header(ctx));
  const u = q.start_utime !== undefined || q.end_utime !== undefined;
  const d = pg.dir;
  if (q.cursor !== undefined && pg.offset > 0) throw new ApiError(422, 'cursor cannot be combined with offset');
  const cursor = q.cursor !== undefined ? decodeActionsCursor(q.cursor, u, d === 'DESC') : undefined;
  const fromKv = await actionsFromKv(db, { ...q, types, cursor }, pg);
  const rows = fromKv ?? (await findActions(db, { ...q, types, cursor }, pg));
  const accounts = q.include_accounts ? await accountsOfActions(db, rows, fromKv !== null) : new Map<string, string[]>();
  const full = q.include_transactions ? renderedByHash(await transactionsOfActions(db, rows)) : new Map<string, Record<string, unknown>>();
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

/** The emulated traces of a pending route's page and the page left for the indexed ones. */
async function emulatedPage(ctx: Ctx<unknown>, q: { account?: string; ext_msg_hash?: string[]; limit?: number; offset?: number; sort?: 'asc' | 'desc' }, types: string[]) {
  const pg = pageOf(q);
  const e = ctx.deps.emulation;
  if (!e || (q.account === undefined && !q.ext_msg_hash?.length)) return { rendered: [], rest: pg };
  return e.page(ctx.db, { accounts: q.account ? [q.account] : undefined, hashes: q.ext_msg_hash }, pg, new Set(types));
}

/** An emulated action as /actions renders it, at upstream's `pending` finality, without a trace id (its root is not on chain). */
function pendingAction(row: Row, opts: { transactionsFull?: unknown[] } = {}): Record<string, unknown> {
  const o = { ...actionJson(row, opts), finality: 'pending' } as Record<string, unknown>;
  if (o.trace_id === null) delete o.trace_id;
  return o;
}

function header(ctx: Ctx<unknown>): string | undefined {
  const h = ctx.request.headers['x-actions-version'];
  const v = Array.isArray(h) ? h[0] : h;
  return v?.trim() || undefined;
}
