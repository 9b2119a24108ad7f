/**
 * The traces stage: after decode, before store. Folds each masterchain batch into the assembler, gives every
 * transaction its trace_id, classifies completed traces into actions, and writes traces and actions.
 * The assembler's state is saved in the store with the batch's masterchain seqno, so a restart (from the
 * checkpoint that goes with it) continues exactly the traces a crash cut.
 */
import { classifyTrace } from '../actions/index.ts';
import type { ActionRow } from '../actions/index.ts';
import type { Row, StoreClient } from '../store/index.ts';
import { blockToRows, loadTracesState, PriorStates, saveTracesState, TRACED_TABLES, tracesWriteProgress, writeTracesBatch, type TracesWriteProgress } from '../store/index.ts';
import type { DecodedBlock, TransactionRow } from '../ton/index.ts';
import { candidates, ENTITY_TABLES, entityEvents, type EntityTables, type KnownEntities } from '../entities/index.ts';
import { blockIdExtOf, type LiteserverCodeFetcher } from '../entities/index.ts';
import { addStateStats, emptyStateStats, entityStateRows, type StateStats } from '../entities/index.ts';
import { storeEntityLookup, withFetchedCodes } from '../entities/index.ts';
import { decodeState, encodeState, TraceAssembler, type TraceRow } from './assembler.ts';
import { TRACE_TABLES, traceTransactionRows, type TraceTables } from './rows.ts';
import { actionRows } from '../actions/index.ts';
import { toTrace } from './to-trace.ts';
import { loadTraceContext, prefetchTraceContext, readEntityRows, rowAddresses, rowMessages, type StoreContextRows, type TraceContextSource } from './trace-context.ts';

export interface TraceBatch {
  /** tx hash -> trace id, for the transactions and messages tables */
  traceIds: Map<string, string>;
  tables: TraceTables;
  traces: TraceRow[];
  actions: ActionRow[];
}

/** Pure: assemble one masterchain batch and classify what it completes (`context`: see trace-context.ts). */
export function assembleBatch(asm: TraceAssembler, mcSeqno: number, txs: TransactionRow[], context?: TraceContextSource): TraceBatch {
  const result = asm.addBatch(mcSeqno, txs);
  const traceIds = new Map(result.edges.map((e) => [e.tx_hash, e.trace_id]));
  const actions: ActionRow[] = [];
  for (const done of result.completed) {
    try {
      const cls = classifyTrace(toTrace(done, context));
      actions.push(...cls.actions);
      // the classifier's own state: ok, broken, or failed (then its actions are the basic fallback's)
      done.row.classification_state = cls.state;
    } catch {
      // never drop a trace: it stays readable, marked as not classified
      done.row.classification_state = 'failed';
    }
  }
  // rows reflect the state after classification
  const byId = new Map(result.completed.map((c) => [c.row.trace_id, c.row]));
  const traces = result.traces.map((t) => byId.get(t.trace_id) ?? t);
  const txInfo = new Map(txs.map((t) => [t.hash, { account: t.account, lt: t.lt }]));
  const tables: TraceTables = { traces: traces.map((t) => ({ ...t })), trace_transactions: traceTransactionRows(result.edges, txInfo), actions: [], action_accounts: [] };
  for (const a of actions) {
    const r = actionRows(a);
    tables.actions.push(r.action);
    tables.action_accounts.push(...r.accounts);
  }
  return { traceIds, tables, traces, actions };
}

/** Writes a batch's trace tables (idempotent: every table is keyed by the row's identity). */
export async function writeTraceTables(store: StoreClient, tables: TraceTables): Promise<void> {
  for (const t of TRACE_TABLES) await store.insertRows(t, tables[t]);
}

/** Saves the assembler's state at `mcSeqno` (what writeMcBatch does last). */
export async function saveAssemblerState(store: StoreClient, mcSeqno: number, asm: TraceAssembler): Promise<void> {
  await saveTracesState(store, mcSeqno, encodeState(asm.snapshot()));
}

/** Assemblers from loadAssembler: the stage's own, written with the replay check (src/store/traces-write.ts). Others (tests, tools) write without it. */
const progressOf = new WeakMap<TraceAssembler, TracesWriteProgress>();

/** The saved assembler and the masterchain seqno it has folded up to (null: start empty). */
export async function loadAssembler(store: StoreClient): Promise<{ assembler: TraceAssembler; mcSeqno: number | null }> {
  const saved = await loadTracesState(store);
  const loaded = saved ? { assembler: new TraceAssembler(decodeState(saved.state)), mcSeqno: saved.mcSeqno } : { assembler: new TraceAssembler(), mcSeqno: null };
  progressOf.set(loaded.assembler, tracesWriteProgress(loaded.mcSeqno));
  return loaded;
}

/**
 * Jetton wallets / NFT items of earlier batches among the batch's candidate accounts (`prefetched`: the store's
 * rows read for a group of batches, taken where they cover an address).
 */
export async function loadKnownEntities(store: StoreClient, txs: readonly TransactionRow[], prefetched?: StoreContextRows): Promise<KnownEntities> {
  const cand = candidates(txs.map((tx) => ({ tx, mcSeqno: 0, traceId: null })));
  const rows = await readEntityRows(store, [...cand.jetton], [...cand.nft], prefetched);
  const jettonWallets = new Map<string, { owner: string; jetton: string }>();
  const nftItems = new Map<string, { index: bigint; collection: string | null }>();
  for (const [a, w] of rows.jettonWallets) jettonWallets.set(a, { owner: w.owner, jetton: w.jetton });
  for (const [a, n] of rows.nftItems) if (n.index !== null) nftItems.set(a, { index: n.index, collection: n.collection });
  return { jettonWallets, nftItems };
}

export interface McBatchOutput extends TraceBatch {
  entities: EntityTables;
  /** what the entity-state rows of the batch counted (src/entities/state-rows.ts) */
  entityStats: StateStats;
  /** the batch's transactions and messages rows again, now with their trace_id */
  traced: TracedRows;
}

/** The rows the stage writes with trace ids: transactions, messages and their documents. */
export type TracedRows = Record<(typeof TRACED_TABLES)[number], Row[]>;

/** End states of the blocks an assembler's stage has seen, for the documents' states before (src/store/docs.ts). */
const priorStatesOf = new WeakMap<TraceAssembler, PriorStates>();

/**
 * One masterchain batch through the traces stage: trace ids, traces, actions, jetton / NFT entities and events.
 * `blocks` are the shard blocks the masterchain block commits and the masterchain block itself.
 * `opts.codes`: reads the codes neither the blocks nor the store have from a liteserver, at this masterchain block.
 */
export async function processMcBatch(
  store: StoreClient,
  asm: TraceAssembler,
  mcSeqno: number,
  blocks: readonly DecodedBlock[],
  unwritten?: UnwrittenEntities,
  opts: { codes?: LiteserverCodeFetcher; prefetched?: StoreContextRows } = {},
): Promise<McBatchOutput> {
  const txs = blocks.flatMap((b) => b.transactions);
  const states = blocks.flatMap((b) => b.account_states);
  const known = await loadKnownEntities(store, txs, opts.prefetched);
  if (unwritten) {
    // seqnos processed before this one but not written yet: their entities are newer than the store's
    for (const [k, v] of unwritten.jettonWallets) (known.jettonWallets as Map<string, typeof v>).set(k, v);
    for (const [k, v] of unwritten.nftItems) (known.nftItems as Map<string, typeof v>).set(k, v);
  }
  // interfaces and account states of every account the traces this batch may complete name
  const completable = [...txs, ...asm.continuedBy(txs)];
  const addresses = rowAddresses(completable);
  const context = await loadTraceContext(store, { addresses, states, known, prefetched: opts.prefetched, messages: rowMessages(completable) });
  const batch = assembleBatch(asm, mcSeqno, txs, context);
  const entities = entityEvents(
    txs.map((tx) => ({ tx, mcSeqno, traceId: batch.traceIds.get(tx.hash) ?? null })),
    states,
    known,
  );
  // jetton masters, NFT collections, DNS, multisig, vesting, NFT sales from the changed account states
  const mc = blocks.find((b) => b.id.workchain === -1);
  const lookup = opts.codes ? withFetchedCodes(storeEntityLookup(store), opts.codes, mc ? blockIdExtOf(mc.id) : null) : storeEntityLookup(store);
  const state = await entityStateRows(states, lookup);
  Object.assign(entities, state.tables);
  const traced: TracedRows = { transactions: [], messages: [], transaction_docs_kv: [] };
  let priorStates = priorStatesOf.get(asm);
  if (!priorStates) priorStatesOf.set(asm, (priorStates = new PriorStates()));
  for (const b of blocks) {
    const rows = blockToRows(b, { mcSeqno, traceIds: batch.traceIds, tables: 'traced', priorStates });
    for (const t of TRACED_TABLES) for (const r of rows[t]) traced[t].push(r);
  }
  return { ...batch, entities, entityStats: state.stats, traced };
}

/**
 * The store's context rows for a group of consecutive batches read at once (see prefetchTraceContext): every
 * address their transactions name, and those of the open traces they continue (traces the group itself opens
 * are made of its own transactions).
 */
export function prefetchForBatches(store: StoreClient, asm: TraceAssembler, groups: readonly (readonly DecodedBlock[])[]): Promise<StoreContextRows> {
  const txs = groups.flatMap((blocks) => blocks.flatMap((b) => b.transactions));
  return prefetchTraceContext(store, rowAddresses([...txs, ...asm.continuedBy(txs)]));
}

/** Jetton wallets / NFT items that processed seqnos found and the store does not have yet (see mergeMcBatches). */
export interface UnwrittenEntities {
  jettonWallets: Map<string, { owner: string; jetton: string }>;
  nftItems: Map<string, { index: bigint; collection: string | null }>;
}

export function rememberEntities(into: UnwrittenEntities, out: McBatchOutput): void {
  for (const r of out.entities.jetton_wallets) into.jettonWallets.set(String(r.address), { owner: String(r.owner), jetton: String(r.jetton) });
  for (const r of out.entities.nft_items) {
    into.nftItems.set(String(r.address), { index: BigInt(r.index as bigint | string), collection: (r.collection_address as string | null) ?? null });
  }
}

/** Keeps the last row per key: a later seqno's version of a trace replaces the earlier one in a merged write. */
function lastBy(rows: Row[], key: (r: Row) => string): Row[] {
  const m = new Map<string, Row>();
  for (const r of rows) {
    const k = key(r);
    m.delete(k);
    m.set(k, r);
  }
  return [...m.values()];
}

/**
 * Several consecutive seqnos' outputs as one write: a write costs one insert per table whatever its size, so the
 * stage writes what is ready together (the assembler state saved with the last seqno covers them all).
 */
export function mergeMcBatches(outs: McBatchOutput[]): McBatchOutput {
  if (outs.length === 1) return outs[0];
  const cat = <K extends string>(pick: (o: McBatchOutput) => Record<K, Row[]>, keys: readonly K[]) => {
    const r = {} as Record<K, Row[]>;
    for (const k of keys) r[k] = outs.flatMap((o) => pick(o)[k]);
    return r;
  };
  const tables = cat((o) => o.tables, TRACE_TABLES) as TraceTables;
  tables.traces = lastBy(tables.traces, (r) => String(r.trace_id));
  return {
    traceIds: new Map(outs.flatMap((o) => [...o.traceIds])),
    tables,
    traces: outs.flatMap((o) => o.traces),
    actions: outs.flatMap((o) => o.actions),
    entities: cat((o) => o.entities, ENTITY_TABLES) as EntityTables,
    entityStats: outs.reduce((a, o) => addStateStats(a, o.entityStats), emptyStateStats()),
    traced: cat((o) => o.traced, TRACED_TABLES),
  };
}

/**
 * Writes what processMcBatch produced (the seqnos after the last write up to `mcSeqno`), then the assembler state:
 * after this the batch is durable (src/store/traces-write.ts).
 */
export async function writeMcBatch(store: StoreClient, asm: TraceAssembler, mcSeqno: number, out: McBatchOutput): Promise<void> {
  await writeTracesBatch(
    store,
    progressOf.get(asm) ?? null,
    mcSeqno,
    {
      entities: ENTITY_TABLES.map((table) => ({ table, rows: out.entities[table] })),
      traced: out.traced,
      traces: TRACE_TABLES.map((table) => ({ table, rows: out.tables[table] })),
    },
    () => encodeState(asm.snapshot()),
  );
}
