/**
 * Feed parts (schemas/bus/notifications.ts) -> rendered notifications' content, with API v3's own renderers: the
 * transactions from their documents as /api/v3/transactions renders them (loadWithDocs: the states a document lacks
 * are read from the store, as for a REST request), actions as /api/v3/actions (with `accounts`), traces as
 * /api/v3/traces, jetton wallets as /api/v3/jetton/wallets, account states as a transaction's account_state_after;
 * address book and metadata as the REST layer builds them. Only what some subscriber wants is rendered, once per part
 * and finality level, whatever the number of subscribers.
 */
import type { FeedSeqno } from '../../../schemas/bus/index.ts';
import { hashToBase64 } from '../../format/index.ts';
import type { TxDoc } from '../../decode/index.ts';
import { accountStateJson, actionAddresses, actionJson, bookAndMetadata, jettonWalletJson, MAX_TRACE_TXS, loadWithDocs, traceJson, transactionAddresses, transactionsJson, type Db, type Row } from '../v3/index.ts';
import type { RenderedAction, RenderedPart, RenderedTrace, RenderedTx } from './notify.ts';
import type { Finality } from './subscription.ts';

export interface PreparedTrace {
  row: Row;
  norm: string;
  /** documents of the trace's transactions in this seqno, as published: parsed only when the trace is rendered */
  docs: string[];
  /** whether the seqno completed the trace: only then are there actions and a whole-trace notification */
  complete: boolean;
  /** a completed trace's documents of the seqnos before */
  earlier: string[];
  /** accounts of its transactions, of its actions */
  txAccounts: Set<string>;
  actionAccounts: Set<string>;
  actions: { row: Row; accounts: string[] }[];
}

/** A feed part with its documents parsed: kept until its seqno is finalized. */
export interface PreparedPart {
  mcSeqno: number;
  part: number;
  last: boolean;
  at: number;
  traces: PreparedTrace[];
  accounts: Row[];
  jettons: Row[];
}

export function preparePart(ev: FeedSeqno): PreparedPart {
  return {
    mcSeqno: ev.mc_seqno,
    part: ev.part,
    last: ev.last,
    at: ev.at,
    traces: ev.traces.map((t) => ({
      row: t.trace,
      norm: t.norm,
      docs: t.docs,
      // a feed message of a publisher that predates these fields: a completed trace, every document in `docs`
      complete: t.complete ?? true,
      earlier: t.earlier ?? [],
      txAccounts: new Set(t.accounts),
      actionAccounts: new Set(t.actions.flatMap((a) => a.accounts)),
      actions: t.actions,
    })),
    accounts: ev.accounts,
    jettons: ev.jetton_wallets,
  };
}

/** What to render of a part: the traces someone gets something of, whether a trace object, states, jettons, book, metadata. */
export interface RenderNeeds {
  traces: Set<number>;
  /** traces some subscriber of its trace_external_hash_norm gets whole */
  whole: Set<number>;
  accounts: boolean;
  jettons: boolean;
  book: boolean;
  metadata: boolean;
}

function cmpActions(x: Row, y: Row): number {
  for (const k of ['start_lt', 'end_lt']) {
    const a = BigInt(String(x[k]));
    const b = BigInt(String(y[k]));
    if (a !== b) return a < b ? -1 : 1;
  }
  return String(x.action_id) < String(y.action_id) ? -1 : String(x.action_id) > String(y.action_id) ? 1 : 0;
}

export async function renderPart(p: PreparedPart, finality: Finality, needs: RenderNeeds, deps: { db: Db; testnet: boolean }): Promise<RenderedPart> {
  const wanted = p.traces.map((t, i) => (needs.traces.has(i) ? t : null));
  const parsed = wanted.map((t) => t?.docs.map((d) => deps.db.caches.docs.parse(d)) ?? []);
  // a whole trace's transactions of the seqnos before (the whole-trace notification alone renders them)
  const before = wanted.map((t, i) => (t && needs.whole.has(i) ? t.earlier.map((d) => deps.db.caches.docs.parse(d)) : []));
  // every wanted transaction in one call: at most one statement (states the documents lack), as one REST page
  const docs = new Map<string, TxDoc>();
  for (const list of [...parsed, ...before]) for (const d of list) docs.set(`${d.tx.account}|${d.tx.lt}`, d);
  const keys = [...docs.values()].map((d) => [String(d.tx.account), String(d.tx.lt), String(d.tx.hash)] as [string, string, string]);
  const rendered = keys.length ? transactionsJson(await loadWithDocs(deps.db, keys, docs, 'ASC')) : [];
  const byHash = new Map(rendered.map((x) => [String(x.hash), x]));
  const addrs = new Set<string>();
  const traces = wanted.map((t, i): RenderedTrace | null => {
    if (!t) return null;
    // lt ascending, as loadWithDocs ordered them
    const ascOf = (list: TxDoc[]) => list
      .map((d) => byHash.get(hashToBase64(String(d.tx.hash))))
      .filter((x): x is Record<string, unknown> => x !== undefined)
      .sort((a, b) => {
        const la = BigInt(String(a.lt));
        const lb = BigInt(String(b.lt));
        return la < lb ? -1 : la > lb ? 1 : String(a.account) < String(b.account) ? -1 : 1;
      });
    const asc = ascOf(parsed[i]);
    const whole = needs.whole.has(i) ? ascOf([...before[i], ...parsed[i]]) : asc;
    if (finality !== 'finalized') for (const x of whole) x.finality = finality;
    const txs: RenderedTx[] = [...asc].reverse().map((json) => ({ json, account: String(json.account), addrs: transactionAddresses([json]) }));
    // the order /api/v3/traces gives a trace's actions: start_lt, end_lt, action_id
    const sorted = [...t.actions].sort((x, y) => cmpActions(x.row, y.row));
    const actions: RenderedAction[] = sorted.map((a) => {
      // `actions` notifications: as /api/v3/actions with include_accounts; `trace` ones: as /api/v3/traces (without)
      const json: Record<string, unknown> = { ...actionJson(a.row, { accounts: a.accounts }) };
      const bare: Record<string, unknown> = { ...actionJson(a.row) };
      if (finality !== 'finalized') json.finality = bare.finality = finality;
      return { json, bare, type: String(a.row.type), ancestors: (a.row.ancestor_type as string[] | undefined) ?? [], accounts: a.accounts, addrs: actionAddresses(a.row) };
    });
    let trace: Record<string, unknown> | null = null;
    let traceAddrs: string[] = [];
    if (needs.whole.has(i)) {
      const r = traceJson(t.row, Number(t.row.nodes) > MAX_TRACE_TXS ? null : whole, sorted.map((a) => a.row));
      delete r.trace.actions;
      trace = r.trace;
      traceAddrs = r.addrs;
    }
    for (const x of txs) for (const a of x.addrs) addrs.add(a);
    for (const a of actions) for (const x of a.addrs) addrs.add(x);
    for (const a of traceAddrs) addrs.add(a);
    return { norm: t.norm, normB64: hashToBase64(t.norm), txs, actions, trace, traceAddrs };
  });
  const accounts = needs.accounts ? p.accounts.map((r) => ({ account: String(r.account), state: accountStateJson(r.hash, r) })) : [];
  const jettons = needs.jettons
    ? p.jettons.map((r) => {
        const o = { json: jettonWalletJson(r), address: String(r.address), owner: String(r.owner), bookAddrs: [r.address, r.owner, r.jetton].map(String), metaAddrs: [r.owner, r.jetton].map(String) };
        for (const a of o.bookAddrs) addrs.add(a);
        return o;
      })
    : [];
  let book: Record<string, unknown> | null;
  let metadata: Record<string, unknown> | null;
  if ((needs.book || needs.metadata) && addrs.size) {
    const r = await bookAndMetadata({ db: deps.db, testnet: deps.testnet, noBook: !needs.book, noMeta: !needs.metadata }, [...addrs]);
    book = needs.book ? r.address_book : null;
    metadata = needs.metadata ? r.metadata : null;
  } else {
    book = needs.book ? {} : null;
    metadata = needs.metadata ? {} : null;
  }
  return { mcSeqno: p.mcSeqno, part: p.part, finality, traces, accounts, jettons, book, metadata };
}
