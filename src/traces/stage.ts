/**
 * The traces stage: after decode, before store. Folds each masterchain batch into the assembler, gives every
 * transaction its trace_id, classifies completed traces into actions, and writes traces and actions.
 * The assembler's state is saved in the store with the batch's masterchain seqno, so a restart (from the
 * checkpoint that goes with it) continues exactly the traces a crash cut.
 */
import type { ActionRow, Trace } from '../actions/index.ts';
import { classifyOne, inlineClassifier, type Classified, type Classifier } from './classify-pool.ts';
import type { Row, StoreClient } from '../store/index.ts';
import { blockToRows, openIntents, PriorStates, TRACED_TABLES, withoutStored } from '../store/index.ts';
import { nextIntentVersion, recordIntent } from '../store/index.ts';
import { mirrorRows } from '../kv/index.ts';
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

const STATE_NAME = 'main';

export interface TraceBatch {
  /** tx hash -> trace id, for the transactions and messages tables */
  traceIds: Map<string, string>;
  tables: TraceTables;
  traces: TraceRow[];
  actions: ActionRow[];
}

/** A masterchain batch folded into the assembler, its completed traces not classified yet. */
export interface FoldedBatch {
  result: ReturnType<TraceAssembler['addBatch']>;
  txs: TransactionRow[];
  /** the completed traces as the classifier reads them, in `result.completed` order */
  traces: Trace[];
}

/** Pure: fold one masterchain batch into the assembler (`context`: see trace-context.ts). Order matters: seqno by seqno. */
export function foldBatch(asm: TraceAssembler, mcSeqno: number, txs: TransactionRow[], context?: TraceContextSource): FoldedBatch {
  const result = asm.addBatch(mcSeqno, txs);
  return { result, txs, traces: result.completed.map((done) => toTrace(done, context)) };
}

/** Pure: a folded batch's rows, given its traces' classifications (classify-pool.ts) in the same order. */
export function finishBatch(folded: FoldedBatch, classified: readonly Classified[]): TraceBatch {
  const { result, txs } = folded;
  const traceIds = new Map(result.edges.map((e) => [e.tx_hash, e.trace_id]));
  const actions: ActionRow[] = [];
  result.completed.forEach((done, i) => {
    actions.push(...classified[i].actions);
    done.row.classification_state = classified[i].state;
  });
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

/** Pure: assemble one masterchain batch and classify what it completes, on this thread (`context`: see trace-context.ts). */
export function assembleBatch(asm: TraceAssembler, mcSeqno: number, txs: TransactionRow[], context?: TraceContextSource): TraceBatch {
  const folded = foldBatch(asm, mcSeqno, txs, context);
  return finishBatch(folded, folded.traces.map(classifyOne));
}

/** Writes a batch's trace tables (idempotent: every table is keyed by the row's identity). */
export async function writeTraceTables(store: StoreClient, tables: TraceTables): Promise<void> {
  for (const t of TRACE_TABLES) await store.insertRows(t, tables[t]);
}

export async function saveAssemblerState(store: StoreClient, mcSeqno: number, asm: TraceAssembler): Promise<void> {
  await store.insertRows('trace_assembler_state', [{ name: STATE_NAME, mc_seqno: mcSeqno, state: encodeState(asm.snapshot()) }]);
}

/**
 * Replays of the stage's writes (issue 21, hole 5). A write's rows go to many tables, then the assembler state; a
 * crash between two of them leaves some rows of seqnos the saved state does not cover, and the restarted stage
 * processes those seqnos again (grouped as it then finds them ready). Before its first insert each write records
 * its seqno range in `write_intents` (src/store/replay.ts); the first write of a loaded assembler that overlaps the
 * range of an earlier write beyond the saved state inserts only the rows not stored yet.
 */
const INTENT = `traces/${STATE_NAME}`;

interface WriteProgress {
  /** the last seqno whose write is complete (the saved state's), -1 for none */
  written: number;
  /** the seqnos up to which an earlier write may have left rows (an intent beyond the saved state), null: unread */
  suspectUpTo: number | null;
  intentVersion: bigint;
}

/** Assemblers from loadAssembler: the stage's own. Others (tests, tools) write without the replay check. */
const progressOf = new WeakMap<TraceAssembler, WriteProgress>();

/** The saved assembler and the masterchain seqno it has folded up to (null: start empty). */
export async function loadAssembler(store: StoreClient): Promise<{ assembler: TraceAssembler; mcSeqno: number | null }> {
  const rows = await store.query<{ mc_seqno: number | string; state: string }>(
    'SELECT mc_seqno, state FROM trace_assembler_state FINAL WHERE name = {name:String}',
    { name: STATE_NAME },
  );
  const loaded = rows.length ? { assembler: new TraceAssembler(decodeState(rows[0].state)), mcSeqno: Number(rows[0].mc_seqno) } : { assembler: new TraceAssembler(), mcSeqno: null };
  progressOf.set(loaded.assembler, { written: loaded.mcSeqno ?? -1, suspectUpTo: null, intentVersion: 0n });
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

/** What the stage needs of a batch before its classification is done: the entities the next seqnos read. */
export interface StartedMcBatch {
  entities: EntityTables;
  /** the whole output, once the batch's traces are classified (rejects when the classifier failed the batch) */
  done: Promise<McBatchOutput>;
}

export interface McBatchOptions {
  /** reads the codes neither the blocks nor the store have from a liteserver, at this masterchain block */
  codes?: LiteserverCodeFetcher;
  prefetched?: StoreContextRows;
  /** classifies the completed traces (classify-pool.ts); default: on this thread */
  classifier?: Classifier;
}

/**
 * One masterchain batch through the traces stage: trace ids, traces, actions, jetton / NFT entities and events.
 * `blocks` are the shard blocks the masterchain block commits and the masterchain block itself.
 */
export async function processMcBatch(
  store: StoreClient,
  asm: TraceAssembler,
  mcSeqno: number,
  blocks: readonly DecodedBlock[],
  unwritten?: UnwrittenEntities,
  opts: McBatchOptions = {},
): Promise<McBatchOutput> {
  return (await startMcBatch(store, asm, mcSeqno, blocks, unwritten, opts)).done;
}

/**
 * processMcBatch in two steps: resolves once the batch is folded and its entities derived (the next seqno may be
 * processed then), with `done` settling once its traces are classified (on a pool: while the next seqnos fold).
 */
export async function startMcBatch(
  store: StoreClient,
  asm: TraceAssembler,
  mcSeqno: number,
  blocks: readonly DecodedBlock[],
  unwritten?: UnwrittenEntities,
  opts: McBatchOptions = {},
): Promise<StartedMcBatch> {
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
  const folded = foldBatch(asm, mcSeqno, txs, context);
  const classified = (opts.classifier ?? INLINE).classify(folded.traces);
  // awaited by `done`'s reader, maybe after the next seqnos: not an unhandled rejection meanwhile
  classified.catch(() => undefined);
  const traceIds = new Map(folded.result.edges.map((e) => [e.tx_hash, e.trace_id]));
  const entities = entityEvents(
    txs.map((tx) => ({ tx, mcSeqno, traceId: traceIds.get(tx.hash) ?? null })),
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
    const rows = blockToRows(b, { mcSeqno, traceIds, tables: 'traced', priorStates });
    for (const t of TRACED_TABLES) for (const r of rows[t]) traced[t].push(r);
  }
  const done = classified.then((cls) => ({ ...finishBatch(folded, cls), entities, entityStats: state.stats, traced }));
  done.catch(() => undefined);
  return { entities, done };
}

const INLINE = inlineClassifier();

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

export function rememberEntities(into: UnwrittenEntities, out: Pick<McBatchOutput, 'entities'>): void {
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
 * after this the batch is durable. Rows a crashed earlier write of these seqnos stored are not written again.
 */
export async function writeMcBatch(store: StoreClient, asm: TraceAssembler, mcSeqno: number, out: McBatchOutput): Promise<void> {
  const progress = progressOf.get(asm);
  let suspect = false;
  if (progress) {
    if (progress.suspectUpTo === null) {
      const [intent] = await openIntents(store, INTENT);
      const upTo = intent?.writer === INTENT ? Number(intent.items[1]) : -1;
      progress.suspectUpTo = Number.isInteger(upTo) ? upTo : -1;
      progress.intentVersion = intent?.writer === INTENT ? intent.version : 0n;
    }
    suspect = progress.written < progress.suspectUpTo;
    progress.intentVersion = nextIntentVersion(progress.intentVersion);
    // while earlier rows may be stored beyond this write (a crash cut a longer write), the intent keeps naming them:
    // a second crash here must leave the next restart just as suspicious of those seqnos
    const end = Math.max(mcSeqno, progress.suspectUpTo);
    await recordIntent(store, INTENT, progress.intentVersion, [String(progress.written + 1), String(end)]);
  }
  // the key-value store's entries (src/kv), tagged with the write's last seqno: committed in parallel with the
  // inserts, before the state (the checkpoint never passes a seqno before the state covers it)
  const kv = store.kv;
  const kvDone = kv
    ? mirrorRows(kv, [
        ...ENTITY_TABLES.map((table) => ({ table, rows: out.entities[table], tag: mcSeqno })),
        ...TRACED_TABLES.map((table) => ({ table, rows: out.traced[table], tag: mcSeqno })),
        ...TRACE_TABLES.map((table) => ({ table, rows: out.tables[table], tag: mcSeqno })),
      ])
    : null;
  kvDone?.catch(() => undefined);
  const put = async (table: string, rows: Row[]) => store.insertRows(table, suspect ? await withoutStored(store, table, rows) : rows);
  for (const t of ENTITY_TABLES) await put(t, out.entities[t]);
  // trace_version makes these rows win over the ones the store stage wrote without trace_id; documents live in the
  // key-value store alone where it serves point reads (clickhouse/0017)
  for (const t of TRACED_TABLES) if (t !== 'transaction_docs_kv' || store.pointReads !== 'kv') await put(t, out.traced[t]);
  for (const t of TRACE_TABLES) await put(t, out.tables[t]);
  await kvDone;
  await saveAssemblerState(store, mcSeqno, asm);
  if (progress) progress.written = mcSeqno;
}
