/**
 * The traces stage's I/O edges: its saved state (the assembler, loaded at start and saved with each write, so a
 * restart from the checkpoint that goes with it continues exactly the traces a crash cut), one batch read and
 * folded (`processMcBatch`: read-context.ts then step.ts), and the write (src/store/traces/write.ts). What the
 * stage keeps between batches is in its context (stage-context.ts), passed to each.
 */
import { addPoolStats, completeEntityStates, type ElectorReader, type NominatorPoolReplayer, ENTITY_TABLES, type EntityTables, type LiteserverCodeFetcher } from '../entities/index.ts';
import type { Classifier } from './classify-pool.ts';
import { loadTracesState, saveTracesState, tracesWriteProgress, writeTracesBatch, type StoreContextRows } from '../store/traces/index.ts';
import { type StoreClient } from '../store/client/index.ts';
import type { DecodedBlock } from '../ton/index.ts';
import { decodeState, encodeState, TraceAssembler } from './assembler.ts';
import { readBatchContext } from './read-context.ts';
import { TRACE_TABLES, type TraceTables } from './rows.ts';
import type { TracesContext } from './stage-context.ts';
import { startBatch, type McBatchOutput, type UnwrittenEntities } from './step.ts';

/** Writes a batch's trace tables (idempotent: every table is keyed by the row's identity). */
export async function writeTraceTables(store: StoreClient, tables: TraceTables): Promise<void> {
  for (const t of TRACE_TABLES) await store.insertRows(t, tables[t]);
}

/** Saves the assembler's state at `mcSeqno` (what writeMcBatch does last). */
export async function saveAssemblerState(store: StoreClient, mcSeqno: number, asm: TraceAssembler): Promise<void> {
  await saveTracesState(store, mcSeqno, encodeState(asm.snapshot()));
}

/**
 * The saved assembler and the masterchain seqno it has folded up to (null: start empty). Its writes on `ctx` are
 * checked against a replay (src/store/traces/write.ts); other assemblers (tests, tools) write without the check.
 */
export async function loadAssembler(ctx: TracesContext): Promise<{ assembler: TraceAssembler; mcSeqno: number | null }> {
  const saved = await loadTracesState(ctx.store);
  const loaded = saved ? { assembler: new TraceAssembler(decodeState(saved.state)), mcSeqno: saved.mcSeqno } : { assembler: new TraceAssembler(), mcSeqno: null };
  ctx.fold(loaded.assembler).progress = tracesWriteProgress(loaded.mcSeqno);
  return loaded;
}

export interface McBatchOptions {
  /** reads the codes neither the blocks nor the store have from a liteserver, at this masterchain block */
  codes?: LiteserverCodeFetcher;
  /** replays the official nominator pools' transactions from a liteserver's states (src/entities/nominator-pool-replay.ts) */
  pools?: NominatorPoolReplayer;
  /** reads the elector's state and runs its get-methods: elections, complaints, what cycles gain (src/entities/elector-reader.ts) */
  elector?: ElectorReader;
  prefetched?: StoreContextRows;
  /** classifies the completed traces and derives the entity-state rows (classify-pool.ts); default: the context's */
  classifier?: Classifier;
}

/**
 * What the stage needs of a batch before its classification and entity-state derivation are done: the jetton
 * wallets / NFT items the next seqnos' folds read (`rememberEntities`).
 */
export interface StartedMcBatch {
  entities: EntityTables;
  /**
   * the whole output, once the batch's traces are classified and its entity-state rows derived and completed
   * (rejects when the classifier failed the batch, or an earlier seqno's completion failed)
   */
  done: Promise<McBatchOutput>;
}

/**
 * One masterchain batch read and folded: its context from the store (and liteservers, `opts.codes`), then the
 * step (trace ids, traces, actions, jetton / NFT entities and events, traced rows). `blocks` are the shard blocks
 * the masterchain block commits and the masterchain block itself.
 */
export async function processMcBatch(
  ctx: TracesContext,
  asm: TraceAssembler,
  mcSeqno: number,
  blocks: readonly DecodedBlock[],
  unwritten?: UnwrittenEntities,
  opts: McBatchOptions = {},
): Promise<McBatchOutput> {
  return (await startMcBatch(ctx, asm, mcSeqno, blocks, unwritten, opts)).done;
}

/**
 * processMcBatch in two steps: resolves once the batch is read and folded (the next seqno may be processed then),
 * with `done` settling once its traces are classified and its entity-state rows derived (on a pool: while the next
 * seqnos fold) and completed (after the seqno before's).
 */
export async function startMcBatch(
  ctx: TracesContext,
  asm: TraceAssembler,
  mcSeqno: number,
  blocks: readonly DecodedBlock[],
  unwritten?: UnwrittenEntities,
  opts: McBatchOptions = {},
): Promise<StartedMcBatch> {
  const fold = ctx.fold(asm);
  const read = await readBatchContext(ctx, asm, blocks, unwritten, opts);
  // sale rows earlier seqnos derived and did not write yet (a purchase after the listing: pending-sales.ts)
  const context = { ...read, trace: await fold.pendingSales.overlay(read.trace) };
  const started = startBatch(asm, mcSeqno, blocks, context, fold.priorStates);
  const pool = opts.classifier ?? ctx.classifier;
  const { candidates, codes, stats } = context.entityPlan;
  const classified = pool.classify(started.traces);
  const derived = pool.derive({ candidates, codes });
  // awaited below, maybe after the seqno before completes: not an unhandled rejection meanwhile
  derived.catch(() => undefined);
  // completions in masterchain order, after the seqno before's, whatever order the derivations finish in; a failure
  // rejects every later seqno's `done` too: the stage stops at the first, nothing after it is written
  const completed = (fold.completion ?? Promise.resolve()).then(async () => completeEntityStates(await derived, ctx.entityLookup, stats));
  fold.completion = completed;
  completed.catch(() => undefined);
  fold.pendingSales.track(candidates, codes, completed);
  // nominator pools: their states before the batch's blocks from a liteserver, their transactions replayed
  const mc = blocks.find((b) => b.id.workchain === -1);
  const pools = opts.pools && mc ? opts.pools.batchRows(blocks, mc, blocks.flatMap((b) => b.transactions).map((tx) => ({ tx, mcSeqno, traceId: null }))) : null;
  pools?.catch(() => undefined);
  // the elector: its state at the batch's masterchain block from a liteserver, its get-methods in the emulator
  // (the address: the last key block's config param 1, as the step just updated it)
  const elector = opts.elector ? opts.elector.batchRows(blocks, asm.elector, mcSeqno) : null;
  elector?.catch(() => undefined);
  const done = Promise.all([classified, completed, pools, elector]).then(([cls, entityState, pooled, elected]) => {
    const out = started.finish(cls, entityState);
    if (elected) {
      const { snapshot, stats } = elected;
      if (snapshot) {
        out.entities.validator_elections = snapshot.validator_elections;
        out.entities.validator_election_participants = snapshot.validator_election_participants;
        out.entities.validator_complaints = snapshot.validator_complaints;
        // a key block's cycles with election_id / total_stake / stakes, in place of the config's alone
        if (snapshot.cycles) Object.assign(out.entities, snapshot.cycles);
      }
      out.entityStats.elector_read += stats.read;
      out.entityStats.elector_no_state += stats.no_state;
      out.entityStats.elector_unavailable += stats.unavailable;
      out.entityStats.elector_mismatch += stats.mismatch;
      out.entityStats.elector_failed += stats.failed;
    }
    if (pooled) {
      for (const r of pooled.tables.nominator_pool_events) r.trace_id = out.traceIds.get(String(r.tx_hash)) ?? null;
      Object.assign(out.entities, pooled.tables);
      addPoolStats(out.entityStats, pooled.stats);
    }
    return out;
  });
  // awaited by `done`'s reader, maybe after the next seqnos: not an unhandled rejection meanwhile
  done.catch(() => undefined);
  return { entities: started.entities, done };
}

/**
 * Writes what the step produced (the seqnos after the last write up to `mcSeqno`), then the assembler state: after
 * this the batch is durable; rows a crashed earlier write of these seqnos stored are not written again
 * (src/store/traces/write.ts).
 */
export async function writeMcBatch(ctx: TracesContext, asm: TraceAssembler, mcSeqno: number, out: McBatchOutput): Promise<void> {
  await writeTracesBatch(
    ctx.store,
    ctx.fold(asm).progress,
    mcSeqno,
    {
      entities: ENTITY_TABLES.map((table) => ({ table, rows: out.entities[table] })),
      traced: out.traced,
      traces: TRACE_TABLES.map((table) => ({ table, rows: out.tables[table] })),
    },
    () => encodeState(asm.snapshot()),
  );
}
