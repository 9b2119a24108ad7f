/**
 * traces: ton.blocks.raw + ton.mc.complete -> trace assembly, actions, jetton / NFT entities, in strict
 * masterchain order (a single consumer: the fold is sequential; decoding here is cheap next to it).
 *
 * Blocks are buffered per masterchain seqno until that seqno's marker names them all; seqno N is processed only
 * after N-1. After each seqno the stage's output and the assembler state are in the store (the state row carries
 * N), so a restart resumes from the saved state; anything replayed writes the same rows again (idempotent).
 * The blocks and markers buffered for seqnos not written yet are held on the bus (Delivery.hold): their offsets
 * are committed only once their seqno is written, so a worker that restarts alone (Kafka) gets them again.
 * Consecutive seqnos that are ready together are processed one by one and written in one go.
 * With `liteservers`, the contract codes neither the blocks nor the store have are read from them (bounded, see
 * src/entities/liteserver-codes.ts); the entity counts are in `stats.entities` and the Prometheus counters.
 */
import type { Logger } from 'pino';
import { mcCompleteMessageSchema, rawBlockMessageSchema, TOPICS, type McCompleteMessage, type RawBlockMessage } from '../schemas/bus/index.ts';
import type { Bus, Subscription } from '../src/bus/index.ts';
import { emptyStateStats, addStateStats, LiteserverCodeFetcher, type AccountStateSource, type CodeFetchOptions, type StateStats } from '../src/entities/index.ts';
import type { StoreClient } from '../src/store/index.ts';
import type { DecodedBlock } from '../src/ton/index.ts';
import { decodeShared } from './shared-decode.ts';
import { loadAssembler, mergeMcBatches, prefetchForBatches, processMcBatch, rememberEntities, writeMcBatch, type McBatchOutput, type UnwrittenEntities } from '../src/traces/stage.ts';
import { recordEntityStats } from './metrics.ts';

export const TRACES_GROUP = 'traces';

/**
 * Bounds of one write: each write is one insert per table plus the assembler state, whatever its size, so ready
 * seqnos are written together; the bounds keep memory and the replay after a crash small.
 */
const MAX_SEQNOS_PER_WRITE = 32;
const MAX_ROWS_PER_WRITE = 200_000;

/** Rows of the `transactions`, `messages` and `transaction_docs_kv` tables the stage writes for these blocks. */
function tracedRowCount(blocks: readonly DecodedBlock[]): number {
  let n = 0;
  for (const b of blocks) for (const tx of b.transactions) n += 2 + (tx.in_msg ? 1 : 0) + tx.out_msgs.length;
  return n;
}

const blockKey = (id: { workchain: number; shard: string; seqno: number }) => `${id.workchain}:${id.shard}:${id.seqno}`;

export interface TracesStageStats {
  mcProcessed: number;
  traces: number;
  actions: number;
  lastSeqno: number | null;
  ms: number;
  /** `ms` split: reading the store's context rows for a group, processing its seqnos, writing the group */
  split: { prefetchMs: number; processMs: number; writeMs: number };
  /** entity-state counts of the seqnos written (accounts, rows, no_code, failed, incomplete, code fetches) */
  entities: StateStats;
}

export interface TracesStage extends Subscription {
  stats: TracesStageStats;
  /** Resolves once every seqno up to `seqno` is processed. */
  reached(seqno: number): Promise<void>;
}

/** The masterchain seqno the traces stage has durably processed (null: nothing yet). */
export async function tracesResumePoint(store: StoreClient): Promise<number | null> {
  // only the seqno: the checkpoint stage asks on every poll, and the state itself can be large
  // max() over the seqno column alone: no FINAL over the (large) state blobs; saved seqnos only grow
  const rows = await store.query<{ s: number | string | null }>("SELECT max(mc_seqno) AS s, count() AS n FROM trace_assembler_state WHERE name = 'main' HAVING n > 0");
  return rows.length && rows[0].s !== null ? Number(rows[0].s) : null;
}

export interface TracesStageOptions {
  logger?: Logger;
  fromSeqno?: number;
  /** liteservers to read the codes the blocks and the store lack from (a LiteserverPool) */
  liteservers?: AccountStateSource;
  /** bounds of those reads */
  codeFetch?: Omit<CodeFetchOptions, 'logger'>;
  /** stages of this process that decode raw blocks (shared-decode.ts) */
  decoders?: number;
  /** Called for each seqno once it is processed, before it is written (the streaming API's `confirmed`; src/streaming). */
  onSeqno?: (seqno: number, out: McBatchOutput, blocks: readonly DecodedBlock[]) => Promise<void>;
}

export async function startTracesStage(bus: Bus, store: StoreClient, opts: TracesStageOptions = {}): Promise<TracesStage> {
  const loaded = await loadAssembler(store);
  const asm = loaded.assembler;
  const stats: TracesStageStats = { mcProcessed: 0, traces: 0, actions: 0, lastSeqno: loaded.mcSeqno, ms: 0, split: { prefetchMs: 0, processMs: 0, writeMs: 0 }, entities: emptyStateStats() };
  const codes = opts.liteservers ? new LiteserverCodeFetcher(opts.liteservers, store, { ...opts.codeFetch, logger: opts.logger }) : undefined;
  // The first seqno to process: after the saved state, or where ingest starts when nothing was saved yet.
  // Where ingest starts above the saved state (an explicit --from-seqno), the seqnos between are never published:
  // jump there, keeping the open traces (their messages may still arrive). Below it, a replay: skip what is done.
  const saved = loaded.mcSeqno !== null ? loaded.mcSeqno + 1 : null;
  let next: number | null = saved === null ? (opts.fromSeqno ?? null) : Math.max(saved, opts.fromSeqno ?? saved);
  const blocks = new Map<string, DecodedBlock>();
  const markers = new Map<number, McCompleteMessage>();
  // bus holds of what is buffered, per seqno, released once the seqno is written
  const held = new Map<number, (() => void)[]>();
  const holdFor = (seqno: number, release: () => void) => {
    const list = held.get(seqno);
    if (list) list.push(release);
    else held.set(seqno, [release]);
  };
  const waiters: { seqno: number; resolve: () => void }[] = [];
  let running: Promise<void> = Promise.resolve();
  let failure: Error | null = null;

  const drain = async () => {
    for (;;) {
      if (next === null) {
        // nothing saved and no start given: begin with the lowest marker seen
        if (!markers.size) return;
        next = Math.min(...markers.keys());
      }
      // every consecutive seqno whose blocks are all here, up to a bound, is processed and then written at once
      const t0 = performance.now();
      const ready: { seqno: number; ids: string[]; blocks: DecodedBlock[] }[] = [];
      let rows = 0;
      for (let seqno = next; ready.length < MAX_SEQNOS_PER_WRITE && rows < MAX_ROWS_PER_WRITE; seqno++) {
        const marker = markers.get(seqno);
        if (!marker) break;
        const ids = marker.blocks.map(blockKey);
        if (!ids.every((k) => blocks.has(k))) break;
        const bs = ids.map((k) => blocks.get(k)!);
        ready.push({ seqno, ids, blocks: bs });
        rows += tracedRowCount(bs);
      }
      if (!ready.length) return;
      // the store's context rows for the whole group in one query per table (a query per seqno waited behind
      // the store stage's inserts each time)
      const prefetched = ready.length > 1 ? await prefetchForBatches(store, asm, ready.map((r) => r.blocks)) : undefined;
      const t1 = performance.now();
      const outs: McBatchOutput[] = [];
      const unwritten: UnwrittenEntities = { jettonWallets: new Map(), nftItems: new Map() };
      for (const r of ready) {
        const out = await processMcBatch(store, asm, r.seqno, r.blocks, unwritten, { codes, prefetched });
        rememberEntities(unwritten, out);
        await opts.onSeqno?.(r.seqno, out, r.blocks);
        outs.push(out);
        for (const k of r.ids) blocks.delete(k);
        markers.delete(r.seqno);
      }
      const seqno = ready[ready.length - 1].seqno + 1;
      const last = seqno - 1;
      const out = mergeMcBatches(outs);
      const t2 = performance.now();
      await writeMcBatch(store, asm, last, out);
      const t3 = performance.now();
      stats.ms += t3 - t0;
      stats.split.prefetchMs += t1 - t0;
      stats.split.processMs += t2 - t1;
      stats.split.writeMs += t3 - t2;
      stats.mcProcessed += outs.length;
      stats.traces += out.traces.length;
      stats.actions += out.actions.length;
      addStateStats(stats.entities, out.entityStats);
      recordEntityStats(out.entityStats);
      stats.lastSeqno = last;
      next = seqno;
      // written: the bus may commit past these seqnos (and past any below them that will never be processed)
      for (const [s, releases] of held) {
        if (s >= next) continue;
        for (const release of releases) release();
        held.delete(s);
      }
      for (let i = waiters.length - 1; i >= 0; i--) {
        if (waiters[i].seqno < next) waiters.splice(i, 1)[0].resolve();
      }
    }
  };
  const kick = () => {
    running = running.then(drain).catch((err: unknown) => {
      failure = err as Error;
      opts.logger?.error({ err: (err as Error).message }, 'traces stage failed');
    });
    return running;
  };

  const rawSub = await bus.subscribe<RawBlockMessage>(
    TOPICS.rawBlocks,
    async (batch) => {
      for (const d of batch) {
        const msg = rawBlockMessageSchema.parse(d.value);
        // blocks below the resume point were processed before a restart
        if (next !== null && msg.mc_seqno < next) continue;
        blocks.set(blockKey(msg.id), decodeShared(msg, opts.decoders ?? 1));
        holdFor(msg.mc_seqno, d.hold());
      }
      await kick();
    },
    { group: TRACES_GROUP, maxBatch: 64 },
  );
  const markerSub = await bus.subscribe<McCompleteMessage>(
    TOPICS.mcComplete,
    async (batch) => {
      for (const d of batch) {
        const m = mcCompleteMessageSchema.parse(d.value);
        if (next === null || m.mc_seqno >= next) {
          markers.set(m.mc_seqno, m);
          holdFor(m.mc_seqno, d.hold());
        }
      }
      await kick();
    },
    { group: TRACES_GROUP, maxBatch: 64 },
  );

  return {
    stats,
    reached(seqno: number) {
      if (failure) return Promise.reject(failure);
      if (next !== null && seqno < next) return Promise.resolve();
      return new Promise<void>((resolve) => waiters.push({ seqno, resolve }));
    },
    async close() {
      await rawSub.close();
      await markerSub.close();
      await running;
      // code reads a batch stopped waiting for still write to the store: let them finish before it closes
      await codes?.settled();
    },
  };
}
