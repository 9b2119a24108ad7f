/**
 * The traces stage's I/O edges: its saved state (the assembler, loaded at start and saved with each write, so a
 * restart from the checkpoint that goes with it continues exactly the traces a crash cut), one batch read and
 * folded (`processMcBatch`: read-context.ts then step.ts), and the write (src/store/traces-write.ts).
 */
import { ENTITY_TABLES, type LiteserverCodeFetcher } from '../entities/index.ts';
import { loadTracesState, saveTracesState, tracesWriteProgress, writeTracesBatch, type StoreClient, type StoreContextRows, type TracesWriteProgress } from '../store/index.ts';
import type { DecodedBlock } from '../ton/index.ts';
import { decodeState, encodeState, TraceAssembler } from './assembler.ts';
import { readBatchContext } from './read-context.ts';
import { TRACE_TABLES, type TraceTables } from './rows.ts';
import { foldBatch, type McBatchOutput, type UnwrittenEntities } from './step.ts';

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
 * One masterchain batch read and folded: its context from the store (and liteservers, `opts.codes`), then the
 * step (trace ids, traces, actions, jetton / NFT entities and events, traced rows). `blocks` are the shard blocks
 * the masterchain block commits and the masterchain block itself.
 */
export async function processMcBatch(
  store: StoreClient,
  asm: TraceAssembler,
  mcSeqno: number,
  blocks: readonly DecodedBlock[],
  unwritten?: UnwrittenEntities,
  opts: { codes?: LiteserverCodeFetcher; prefetched?: StoreContextRows } = {},
): Promise<McBatchOutput> {
  const context = await readBatchContext(store, asm, blocks, unwritten, opts);
  return foldBatch(asm, mcSeqno, blocks, context);
}

/**
 * Writes what the step produced (the seqnos after the last write up to `mcSeqno`), then the assembler state: after
 * this the batch is durable; rows a crashed earlier write of these seqnos stored are not written again
 * (src/store/traces-write.ts).
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
