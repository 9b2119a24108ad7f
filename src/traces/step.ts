/**
 * The traces stage's step: one masterchain batch folded into the assembler, the traces it completes classified,
 * its jetton / NFT events derived, its transactions and messages given their trace_id. It takes the batch's context
 * as plain data (read before it: read-context.ts `readBatchContext`) and returns rows (written after it: stage.ts
 * `writeMcBatch`, src/store/traces/write.ts); no store handle. Its state is in memory: the assembler, and the end
 * states of the blocks it has seen (the documents' states before), which the caller keeps and passes in.
 */
import { actionRows, type ActionRow, type DedustPoolAssets, type Trace } from '../actions/index.ts';
import { classifyOne, type Classified } from './classify-pool.ts';
import { addStateStats, blockConfigParam, emptyStateStats, ENTITY_TABLES, entityEvents, validatorCycleRows, validatorEventRows, type CodeBocs, type EntityStateRows, type EntityTables, type KnownEntities, type StateStats } from '../entities/index.ts';
import { blockToRows, PriorStates, TRACED_TABLES } from '../decode/index.ts';
import { type Row } from '../util/index.ts';
import type { AccountStateRow, DecodedBlock, TransactionRow } from '../ton/index.ts';
import type { TraceAssembler, TraceRow } from './assembler.ts';
import type { TraceContextSource } from './records.ts';
import { TRACE_TABLES, traceTransactionRows, type TraceTables } from './rows.ts';
import { toTrace } from './to-trace.ts';

export interface TraceBatch {
  /** tx hash -> trace id, for the transactions and messages tables */
  traceIds: Map<string, string>;
  tables: TraceTables;
  traces: TraceRow[];
  actions: ActionRow[];
}

/** The rows the stage writes with trace ids: transactions, messages and their documents. */
export type TracedRows = Record<(typeof TRACED_TABLES)[number], Row[]>;

export interface McBatchOutput extends TraceBatch {
  entities: EntityTables;
  /** what the entity-state rows of the batch counted (src/entities/state-rows.ts) */
  entityStats: StateStats;
  /** the batch's transactions and messages rows again, now with their trace_id */
  traced: TracedRows;
}

/** What the step takes besides the assembler and the blocks: plain data, read before it (read-context.ts). */
export interface BatchContext {
  /** jetton wallets / NFT items among the batch's candidate accounts: the store's and the unwritten seqnos' */
  known: KnownEntities;
  /** the interface records' sources of every account the traces the batch may complete name */
  trace: TraceContextSource;
  /**
   * what the entity-state rows of the accounts the batch changed are derived from (src/entities: `planEntityStates`,
   * `readEntityCodes`): the candidates, their codes (the blocks', the store's, a liteserver's), the counts so far.
   * Derived after the step (classify-pool.ts, on a worker with `--workers`) and completed seqno by seqno (stage.ts).
   */
  entityPlan: EntityPlan;
}

export interface EntityPlan {
  candidates: AccountStateRow[];
  codes: CodeBocs;
  stats: StateStats;
}

/** A batch's transactions folded into the assembler; the traces it completed are not classified yet. */
export interface FoldedTraces {
  result: ReturnType<TraceAssembler['addBatch']>;
  txs: TransactionRow[];
  /** tx hash -> trace id of every transaction folded */
  traceIds: Map<string, string>;
  /** the completed traces as the classifier reads them (with their context records), in `result.completed` order */
  traces: Trace[];
}

/** Folds one masterchain batch's transactions into the assembler (`context`: records.ts). Order matters: seqno by seqno. */
export function foldTraces(asm: TraceAssembler, mcSeqno: number, txs: TransactionRow[], context?: TraceContextSource): FoldedTraces {
  const result = asm.addBatch(mcSeqno, txs);
  const traceIds = new Map(result.edges.map((e) => [e.tx_hash, e.trace_id]));
  return { result, txs, traceIds, traces: result.completed.map((done) => toTrace(done, context)) };
}

/**
 * A folded batch's trace rows, given its traces' classifications (classify-pool.ts) in the same order: each trace
 * row records its classification state (ok, broken, or failed: then its actions are the basic fallback's, or none
 * when the classifier threw).
 */
export function finishTraces(folded: FoldedTraces, classified: readonly Classified[]): TraceBatch {
  const { result, txs, traceIds } = folded;
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

/**
 * Assemble one masterchain batch's transactions and classify what it completes on this thread (`context`: records.ts;
 * `dedustPools`: the DeDust pool list the classifier falls back on, src/actions/dedust-pools.ts).
 */
export function assembleBatch(asm: TraceAssembler, mcSeqno: number, txs: TransactionRow[], context?: TraceContextSource, dedustPools?: ReadonlyMap<string, DedustPoolAssets>): TraceBatch {
  const folded = foldTraces(asm, mcSeqno, txs, context);
  return finishTraces(folded, folded.traces.map((t) => classifyOne(t, dedustPools)));
}

/**
 * One masterchain batch through the step but the classification of the traces it completes and the entity-state
 * rows: trace ids, jetton / NFT events, the traced rows, and the completed traces to classify. `finish` takes their
 * classifications, in order, and the entity-state rows, and gives the batch's output. The next seqno may be folded
 * before this one is finished (its jetton wallets / NFT items, all the next fold reads of it, are known now:
 * `rememberEntities`), so classification and derivation can run elsewhere meanwhile (classify-pool.ts).
 * `blocks` are the shard blocks the masterchain block commits and the masterchain block itself. `priorStates`: the
 * end states of the blocks the fold has seen, for the documents' states before (src/decode/docs.ts; the stage's
 * context keeps them per fold, stage-context.ts), updated with these blocks'.
 */
export function startBatch(asm: TraceAssembler, mcSeqno: number, blocks: readonly DecodedBlock[], context: BatchContext, priorStates = new PriorStates()): StartedBatch {
  const txs = blocks.flatMap((b) => b.transactions);
  const states = blocks.flatMap((b) => b.account_states);
  const folded = foldTraces(asm, mcSeqno, txs, context.trace);
  const { traceIds } = folded;
  const batchTxs = txs.map((tx) => ({ tx, mcSeqno, traceId: traceIds.get(tx.hash) ?? null }));
  const entities = entityEvents(batchTxs, states, context.known);
  // validator cycles of a key block (its config), and the elector's address its events are told by from now on
  const config = blocks.find((b) => b.config)?.config ?? null;
  if (config) {
    if (config.elector_address) asm.elector = config.elector_address;
    const cycles = validatorCycleRows((id) => blockConfigParam(config, id), mcSeqno);
    entities.validator_cycles = cycles.cycles;
    entities.validator_cycle_members = cycles.members;
  }
  entities.validator_events = validatorEventRows(batchTxs, asm.elector);
  const traced: TracedRows = { transactions: [], messages: [], transaction_docs_kv: [] };
  for (const b of blocks) {
    const rows = blockToRows(b, { mcSeqno, traceIds, tables: 'traced', priorStates });
    for (const t of TRACED_TABLES) for (const r of rows[t]) traced[t].push(r);
  }
  return {
    entities,
    traces: folded.traces,
    // jetton masters, NFT collections, DNS, multisig, vesting, NFT sales from the changed account states
    finish: (classified, entityState) => ({ ...finishTraces(folded, classified), entities: { ...entities, ...entityState.tables }, entityStats: entityState.stats, traced }),
  };
}

/** A batch started (startBatch): what the next seqnos need now, and its output once its traces are classified. */
export interface StartedBatch {
  /** the batch's jetton / NFT events (its state tables empty until `finish`) */
  entities: EntityTables;
  /** the completed traces to classify, in order */
  traces: readonly Trace[];
  finish(classified: readonly Classified[], entityState: EntityStateRows): McBatchOutput;
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
