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
import { availableParallelism } from 'node:os';
import type { Logger } from 'pino';
import { mcCompleteMessageSchema, rawBlockMessageSchema, TOPICS, type McCompleteMessage, type RawBlockMessage } from '../schemas/bus/index.ts';
import type { DedustPoolList } from '../src/actions/index.ts';
import type { Bus, Subscription } from '../src/bus/index.ts';
import { emptyStateStats, addStateStats, ElectorReader, LiteserverCodeFetcher, NominatorPoolReplayer, type AccountStateSource, type CodeFetchOptions, type PoolChainSource, type StateStats } from '../src/entities/index.ts';
import type { StoreClient } from '../src/store/client/index.ts';
import { SharedDecode } from '../src/decode/index.ts';
import type { DecodedBlock } from '../src/ton/index.ts';
import { createClassifier, loadAssembler, mergeMcBatches, prefetchForBatches, rememberEntities, startMcBatch, writeMcBatch, type Classifier, type ClassifierStats, type McBatchOutput, type UnwrittenEntities } from '../src/traces/index.ts';
import { createPipelineMetrics, recordEntityStats, type PipelineMetrics } from './metrics.ts';

/**
 * `--workers` when not given: one classifier thread per core beyond the first (the stage's own thread folds, the
 * engine runs its statements in its own process), at most 4.
 */
export const DEFAULT_CLASSIFY_WORKERS = (): number => Math.min(4, Math.max(0, availableParallelism() - 1));

/** The group reading ton.blocks.raw. */
export const TRACES_GROUP = 'traces';
/**
 * The group reading ton.mc.complete: its own, because a Kafka group's assignment spans every topic its members
 * subscribe to (issue 20, finding 1: with one group for both, each consumer held partitions of the other topic and
 * never read them; 0 of 990 transactions were stored). The bus refuses one group on two topics.
 */
export const TRACES_MARKERS_GROUP = 'traces.markers';

/**
 * Decoded blocks buffered before the stage pauses the partitions that are ahead of the seqno it waits for (the
 * handlers never wait for the fold: a handler outliving the session timeout loses its member). A decoded mainnet
 * block is megabytes of objects: about what the fold held when its handler waited (the in-process bus's 256 plus a
 * batch), and what src/decode/shared.ts keeps.
 */
const MAX_BUFFERED_BLOCKS = 512;
/** Markers buffered before the marker subscription pauses (they come in order: the next one is among them). */
const MAX_BUFFERED_MARKERS = 4096;
/** Pause after a failed write before the fold is tried again (the held blocks stay buffered). */
const RETRY_MS = 1000;

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
  /** times the stage paused partitions of raw blocks or the markers, its buffer full */
  pauses: number;
  /**
   * the pool: its workers, batches, traces and time classifying, its entity-state derivations (`derive`: seqnos,
   * messages, accounts, time; summed over workers); `waitMs`: the stage waiting for a seqno's classification and
   * entity-state rows
   */
  classify: ClassifierStats & { waitMs: number };
}

export interface TracesStage {
  close(): Promise<void>;
  stats: TracesStageStats;
  /**
   * Rejects if the stage failed after its fold had moved on in memory past what is written (a write that failed):
   * it cannot redo those seqnos in this process, so it stops; the process must exit non-zero and restart from the
   * saved state (what it holds on the bus comes again). A failure before that (a read) is retried in place.
   */
  failed: Promise<never>;
  /** Resolves once every seqno up to `seqno` is processed. */
  reached(seqno: number): Promise<void>;
}

export interface TracesStageOptions {
  logger?: Logger;
  fromSeqno?: number;
  /** liteservers to read the codes the blocks and the store lack from (a LiteserverPool) */
  liteservers?: AccountStateSource;
  /** bounds of those reads */
  codeFetch?: Omit<CodeFetchOptions, 'logger'>;
  /** the decodes this process shares with its decode stage (src/decode/shared.ts); default: its own */
  shared?: SharedDecode;
  /** buffer bounds (tests) */
  maxBufferedBlocks?: number;
  maxBufferedMarkers?: number;
  /**
   * Worker threads classifying the completed traces and deriving the entity-state rows (src/traces/classify-pool.ts),
   * while the stage folds the next seqnos; 0 (the default): on the stage's thread. `classifier` instead: one made by the caller (the stage closes it).
   */
  workers?: number;
  classifier?: Classifier;
  /** the DeDust pool list its classifier falls back on (`--dedust-pools-api`); default: none */
  dedustPools?: DedustPoolList;
  /** this process's pipeline metrics (default: a set of its own) */
  metrics?: PipelineMetrics;
  /** Called for each seqno once it is processed, before it is written (the streaming API's `confirmed`; src/feed). */
  onSeqno?: (seqno: number, out: McBatchOutput, blocks: readonly DecodedBlock[]) => Promise<void>;
}

export async function startTracesStage(bus: Bus, store: StoreClient, opts: TracesStageOptions = {}): Promise<TracesStage> {
  const loaded = await loadAssembler(store);
  const asm = loaded.assembler;
  const classifier = opts.classifier ?? createClassifier(opts.workers ?? 0, { dedustPools: opts.dedustPools });
  const shared = opts.shared ?? new SharedDecode();
  const metrics = opts.metrics ?? createPipelineMetrics();
  const stats: TracesStageStats = {
    mcProcessed: 0,
    traces: 0,
    actions: 0,
    lastSeqno: loaded.mcSeqno,
    ms: 0,
    split: { prefetchMs: 0, processMs: 0, writeMs: 0 },
    entities: emptyStateStats(),
    pauses: 0,
    classify: Object.assign(classifier.stats, { waitMs: 0 }),
  };
  const codes = opts.liteservers ? new LiteserverCodeFetcher(opts.liteservers, store, { ...opts.codeFetch, logger: opts.logger }) : undefined;
  // nominator pools need whole states and the transactions' cells: a liteserver pool answers both
  const ls = opts.liteservers as Partial<PoolChainSource> | undefined;
  const pools = ls && typeof ls.getTransactions === 'function' && typeof ls.getConfigAllProof === 'function' ? new NominatorPoolReplayer(ls as PoolChainSource) : undefined;
  // the elector's get-methods need its whole state and the block's config: the same pool answers both
  const elector = ls && typeof ls.getConfigAllProof === 'function' && typeof ls.getAccountStateBoc === 'function' ? new ElectorReader(ls as PoolChainSource, { log: (msg) => opts.logger?.warn(msg) }) : undefined;
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
  let failure: Error | null = null;
  /** the assembler moved past the store (processed, not written yet): a failure now cannot be retried in place */
  let dirty = false;
  let fail!: (err: Error) => void;
  const failed = new Promise<never>((_, reject) => (fail = reject));
  failed.catch(() => undefined);

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
      dirty = true;
      // The fold stays in masterchain order on this thread; each seqno's traces are classified (on the pool) while
      // the next seqnos fold, and taken back in order: a seqno reaches onSeqno and the write only once classified.
      const pending: { r: (typeof ready)[number]; done: Promise<McBatchOutput>; settled: boolean }[] = [];
      const settle = async (all: boolean) => {
        while (pending.length && (all || pending[0].settled)) {
          const { r, done } = pending.shift()!;
          const tw = performance.now();
          const out = await done;
          stats.classify.waitMs += performance.now() - tw;
          await opts.onSeqno?.(r.seqno, out, r.blocks);
          outs.push(out);
          for (const k of r.ids) blocks.delete(k);
          markers.delete(r.seqno);
        }
      };
      for (const r of ready) {
        const started = await startMcBatch(store, asm, r.seqno, r.blocks, unwritten, { codes, pools, elector, prefetched, classifier });
        rememberEntities(unwritten, started);
        const p = { r, done: started.done, settled: false };
        const mark = () => void (p.settled = true);
        started.done.then(mark, mark);
        pending.push(p);
        await settle(false);
      }
      await settle(true);
      const seqno = ready[ready.length - 1].seqno + 1;
      const last = seqno - 1;
      const out = mergeMcBatches(outs);
      const t2 = performance.now();
      await writeMcBatch(store, asm, last, out);
      dirty = false;
      const t3 = performance.now();
      stats.ms += t3 - t0;
      stats.split.prefetchMs += t1 - t0;
      stats.split.processMs += t2 - t1;
      stats.split.writeMs += t3 - t2;
      stats.mcProcessed += outs.length;
      stats.traces += out.traces.length;
      stats.actions += out.actions.length;
      addStateStats(stats.entities, out.entityStats);
      recordEntityStats(metrics, out.entityStats);
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
  // The fold runs beside the handlers, never inside them: a handler only buffers and returns (issue 20, finding 2).
  let draining: Promise<void> | null = null;
  let again = false;
  let closed = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let broken = false;
  const kick = () => {
    if (closed || broken) return;
    if (draining) {
      again = true;
      return;
    }
    draining = (async () => {
      try {
        do {
          again = false;
          await drain();
        } while (again && !closed);
        failure = null;
      } catch (err) {
        failure = err as Error;
        if (dirty) {
          broken = true;
          opts.logger?.error({ err: failure.message }, 'traces stage failed after processing seqnos it could not write; it stops (restart the process: it resumes from the saved state)');
          fail(failure);
        } else {
          opts.logger?.error({ err: failure.message }, 'traces stage failed; it will be retried');
          if (!closed) retry = setTimeout(kick, RETRY_MS);
        }
      } finally {
        draining = null;
      }
      flow();
    })();
  };

  // Bounds: raw blocks of one partition come in masterchain order (ingest publishes seqno by seqno), so a partition
  // that delivered a block above the seqno the fold waits for holds nothing it needs now. Those pause while the buffer
  // is full (and stay paused down to half of it); the others never do, so the blocks the fold waits for always come.
  const maxBlocks = opts.maxBufferedBlocks ?? MAX_BUFFERED_BLOCKS;
  const maxMarkers = opts.maxBufferedMarkers ?? MAX_BUFFERED_MARKERS;
  const lastSeqnoOf = new Map<number, number>();
  const pausedParts = new Set<number>();
  let markersPaused = false;
  // set once subscribed; a handler may run (and call flow) before subscribe resolves
  const subs: { raw?: Subscription; markers?: Subscription } = {};
  const flow = () => {
    if (closed) return;
    const toPause: number[] = [];
    const toResume: number[] = [];
    for (const [p, s] of lastSeqnoOf) {
      const ahead = next !== null && s > next;
      const pause = ahead && (blocks.size >= maxBlocks || (pausedParts.has(p) && blocks.size > maxBlocks / 2));
      if (pause && !pausedParts.has(p)) toPause.push(p);
      else if (!pause && pausedParts.has(p)) toResume.push(p);
    }
    for (const p of toPause) pausedParts.add(p);
    for (const p of toResume) pausedParts.delete(p);
    if (toPause.length) {
      stats.pauses++;
      subs.raw?.pause(toPause);
    }
    if (toResume.length) subs.raw?.resume(toResume);
    const full = markers.size >= maxMarkers && next !== null && markers.has(next);
    if (full !== markersPaused) {
      markersPaused = full;
      if (full) {
        stats.pauses++;
        subs.markers?.pause();
      }
      else subs.markers?.resume();
    }
  };

  // a stage that does not start leaves no thread behind (the process would not exit)
  const notStarted = async (err: unknown): Promise<never> => {
    await subs.raw?.close();
    await classifier.close();
    throw err;
  };
  subs.raw = await bus.subscribe<RawBlockMessage>(
    TOPICS.rawBlocks,
    async (batch) => {
      for (const d of batch) {
        const msg = rawBlockMessageSchema.parse(d.value);
        lastSeqnoOf.set(d.partition, msg.mc_seqno);
        // blocks below the resume point were processed before a restart
        if (next !== null && msg.mc_seqno < next) continue;
        blocks.set(blockKey(msg.id), shared.decode(msg));
        holdFor(msg.mc_seqno, d.hold());
      }
      flow();
      kick();
    },
    { group: TRACES_GROUP, maxBatch: 64 },
  ).catch(notStarted);
  subs.markers = await bus.subscribe<McCompleteMessage>(
    TOPICS.mcComplete,
    async (batch) => {
      for (const d of batch) {
        const m = mcCompleteMessageSchema.parse(d.value);
        if (next === null || m.mc_seqno >= next) {
          markers.set(m.mc_seqno, m);
          holdFor(m.mc_seqno, d.hold());
        }
      }
      flow();
      kick();
    },
    { group: TRACES_MARKERS_GROUP, maxBatch: 64 },
  ).catch(notStarted);

  return {
    stats,
    failed,
    reached(seqno: number) {
      if (broken) return Promise.reject(failure);
      if (next !== null && seqno < next) return Promise.resolve();
      // a failure that is retried in place is waited through; one that stops the stage rejects
      return Promise.race([new Promise<void>((resolve) => waiters.push({ seqno, resolve })), failed]);
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      await subs.raw?.close();
      await subs.markers?.close();
      await draining;
      // code reads a batch stopped waiting for still write to the store: let them finish before it closes
      await codes?.settled();
      await classifier.close();
    },
  };
}
