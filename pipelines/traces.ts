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
import {
  createClassifier, createTracesContext, loadAssembler, mergeMcBatches, prefetchForBatches, rememberEntities, startMcBatch, writeMcBatch,
  type Classifier, type ClassifierStats, type McBatchOptions, type McBatchOutput, type TraceAssembler, type TracesContext, type UnwrittenEntities,
} from '../src/traces/index.ts';
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

/** The readers of the chain a batch needs besides the store, each when the liteserver source answers what it needs. */
function chainReaders(store: StoreClient, opts: TracesStageOptions): Pick<McBatchOptions, 'codes' | 'pools' | 'elector'> {
  const codes = opts.liteservers ? new LiteserverCodeFetcher(opts.liteservers, store, { ...opts.codeFetch, logger: opts.logger }) : undefined;
  // nominator pools need whole states and the transactions' cells: a liteserver pool answers both
  const ls = opts.liteservers as Partial<PoolChainSource> | undefined;
  const pools = ls && typeof ls.getTransactions === 'function' && typeof ls.getConfigAllProof === 'function' ? new NominatorPoolReplayer(ls as PoolChainSource) : undefined;
  // the elector's get-methods need its whole state and the block's config: the same pool answers both
  const elector = ls && typeof ls.getConfigAllProof === 'function' && typeof ls.getAccountStateBoc === 'function' ? new ElectorReader(ls as PoolChainSource, { log: (msg) => opts.logger?.warn(msg) }) : undefined;
  return { codes, pools, elector };
}

/** A masterchain seqno whose blocks are all buffered: its block keys and its blocks. */
interface ReadySeqno {
  seqno: number;
  ids: string[];
  blocks: DecodedBlock[];
}

/**
 * Blocks and markers buffered per masterchain seqno until the seqno is processed, and the bus holds of what is
 * buffered (Delivery.hold), released once the seqno is written.
 */
class SeqnoBuffer {
  readonly blocks = new Map<string, DecodedBlock>();
  readonly markers = new Map<number, McCompleteMessage>();
  private readonly held = new Map<number, (() => void)[]>();

  hold(seqno: number, release: () => void): void {
    const list = this.held.get(seqno);
    if (list) list.push(release);
    else this.held.set(seqno, [release]);
  }

  /** Every consecutive seqno from `next` whose blocks are all here, up to the bounds of one write. */
  ready(next: number): ReadySeqno[] {
    const ready: ReadySeqno[] = [];
    let rows = 0;
    for (let seqno = next; ready.length < MAX_SEQNOS_PER_WRITE && rows < MAX_ROWS_PER_WRITE; seqno++) {
      const marker = this.markers.get(seqno);
      if (!marker) break;
      const ids = marker.blocks.map(blockKey);
      if (!ids.every((k) => this.blocks.has(k))) break;
      const bs = ids.map((k) => this.blocks.get(k)!);
      ready.push({ seqno, ids, blocks: bs });
      rows += tracedRowCount(bs);
    }
    return ready;
  }

  /** A processed seqno's blocks and marker leave the buffer (their holds stay until it is written). */
  forget(r: ReadySeqno): void {
    for (const k of r.ids) this.blocks.delete(k);
    this.markers.delete(r.seqno);
  }

  /** Written up to `next`: the bus may commit past these seqnos (and past any below them that will never be processed). */
  release(next: number): void {
    for (const [s, releases] of this.held) {
      if (s >= next) continue;
      for (const release of releases) release();
      this.held.delete(s);
    }
  }
}

/**
 * One group of ready seqnos through the fold, in masterchain order on this thread; each seqno's traces are classified
 * (on the pool) while the next seqnos fold, and taken back in order: a seqno reaches onSeqno (and the write) only once
 * classified. Returns their outputs, in order.
 */
async function foldGroup(
  ctx: TracesContext,
  asm: TraceAssembler,
  ready: readonly ReadySeqno[],
  batch: McBatchOptions,
  deps: { buffer: SeqnoBuffer; stats: TracesStageStats; onSeqno: TracesStageOptions['onSeqno'] },
): Promise<McBatchOutput[]> {
  const outs: McBatchOutput[] = [];
  const unwritten: UnwrittenEntities = { jettonWallets: new Map(), nftItems: new Map() };
  const pending: { r: ReadySeqno; done: Promise<McBatchOutput>; settled: boolean }[] = [];
  const settle = async (all: boolean) => {
    while (pending.length && (all || pending[0].settled)) {
      const { r, done } = pending.shift()!;
      const tw = performance.now();
      const out = await done;
      deps.stats.classify.waitMs += performance.now() - tw;
      await deps.onSeqno?.(r.seqno, out, r.blocks);
      outs.push(out);
      deps.buffer.forget(r);
    }
  };
  for (const r of ready) {
    const started = await startMcBatch(ctx, asm, r.seqno, r.blocks, unwritten, batch);
    rememberEntities(unwritten, started);
    const p = { r, done: started.done, settled: false };
    const mark = () => void (p.settled = true);
    started.done.then(mark, mark);
    pending.push(p);
    await settle(false);
  }
  await settle(true);
  return outs;
}

/** A group written: its counts into the stage's stats and the pipeline's metrics, its times into `ms` and `split`. */
function countGroup(stats: TracesStageStats, metrics: PipelineMetrics, seqnos: number, out: McBatchOutput, t: [number, number, number, number]): void {
  const [t0, t1, t2, t3] = t;
  stats.ms += t3 - t0;
  stats.split.prefetchMs += t1 - t0;
  stats.split.processMs += t2 - t1;
  stats.split.writeMs += t3 - t2;
  stats.mcProcessed += seqnos;
  stats.traces += out.traces.length;
  stats.actions += out.actions.length;
  addStateStats(stats.entities, out.entityStats);
  recordEntityStats(metrics, out.entityStats);
}

/**
 * The stage's backpressure. Raw blocks of one partition come in masterchain order (ingest publishes seqno by seqno),
 * so a partition that delivered a block above the seqno the fold waits for holds nothing it needs now. Those pause
 * while the buffer is full (and stay paused down to half of it); the others never do, so the blocks the fold waits
 * for always come. The markers pause when their buffer is full and holds the one the fold waits for.
 */
class FlowControl {
  /** set once subscribed; a handler may run (and call update) before subscribe resolves */
  readonly subs: { raw?: Subscription; markers?: Subscription } = {};
  private readonly lastSeqnoOf = new Map<number, number>();
  private readonly pausedParts = new Set<number>();
  private markersPaused = false;

  constructor(
    private readonly bounds: { maxBlocks: number; maxMarkers: number },
    private readonly stats: Pick<TracesStageStats, 'pauses'>,
  ) {}

  /** A raw block of `mcSeqno` came on `partition`. */
  seen(partition: number, mcSeqno: number): void {
    this.lastSeqnoOf.set(partition, mcSeqno);
  }

  update(next: number | null, buffer: SeqnoBuffer): void {
    const { maxBlocks, maxMarkers } = this.bounds;
    const toPause: number[] = [];
    const toResume: number[] = [];
    for (const [p, s] of this.lastSeqnoOf) {
      const ahead = next !== null && s > next;
      const pause = ahead && (buffer.blocks.size >= maxBlocks || (this.pausedParts.has(p) && buffer.blocks.size > maxBlocks / 2));
      if (pause && !this.pausedParts.has(p)) toPause.push(p);
      else if (!pause && this.pausedParts.has(p)) toResume.push(p);
    }
    for (const p of toPause) this.pausedParts.add(p);
    for (const p of toResume) this.pausedParts.delete(p);
    if (toPause.length) {
      this.stats.pauses++;
      this.subs.raw?.pause(toPause);
    }
    if (toResume.length) this.subs.raw?.resume(toResume);
    const full = buffer.markers.size >= maxMarkers && next !== null && buffer.markers.has(next);
    if (full !== this.markersPaused) {
      this.markersPaused = full;
      if (full) {
        this.stats.pauses++;
        this.subs.markers?.pause();
      }
      else this.subs.markers?.resume();
    }
  }
}

/**
 * The first seqno to process: after the saved state, or where ingest starts when nothing was saved yet. Where ingest
 * starts above the saved state (an explicit --from-seqno), the seqnos between are never published: jump there,
 * keeping the open traces (their messages may still arrive). Below it, a replay: skip what is done.
 */
function firstSeqno(savedSeqno: number | null, fromSeqno: number | undefined): number | null {
  const saved = savedSeqno !== null ? savedSeqno + 1 : null;
  return saved === null ? (fromSeqno ?? null) : Math.max(saved, fromSeqno ?? saved);
}

/** Callers of `reached(seqno)` waiting for the stage to process up to their seqno. */
class SeqnoWaiters {
  private readonly waiters: { seqno: number; resolve: () => void }[] = [];

  wait(seqno: number): Promise<void> {
    return new Promise<void>((resolve) => this.waiters.push({ seqno, resolve }));
  }

  /** Every seqno below `next` is processed. */
  reach(next: number): void {
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      if (this.waiters[i].seqno < next) this.waiters.splice(i, 1)[0].resolve();
    }
  }
}

/**
 * The stage's two subscriptions (their own groups): raw blocks, decoded through `shared`, and markers, buffered with
 * their bus holds (what is below the resume point `next()` was processed before a restart), then `changed()`. A
 * subscription that fails leaves nothing behind (`notStarted`).
 */
async function subscribeInputs(
  bus: Bus,
  deps: { buffer: SeqnoBuffer; control: FlowControl; shared: SharedDecode; next: () => number | null; changed: () => void; notStarted: (err: unknown) => Promise<never> },
): Promise<void> {
  const { buffer, control, next } = deps;
  control.subs.raw = await bus.subscribe<RawBlockMessage>(
    TOPICS.rawBlocks,
    async (batch) => {
      for (const d of batch) {
        const msg = rawBlockMessageSchema.parse(d.value);
        control.seen(d.partition, msg.mc_seqno);
        const n = next();
        if (n !== null && msg.mc_seqno < n) continue;
        buffer.blocks.set(blockKey(msg.id), deps.shared.decode(msg));
        buffer.hold(msg.mc_seqno, d.hold());
      }
      deps.changed();
    },
    { group: TRACES_GROUP, maxBatch: 64 },
  ).catch(deps.notStarted);
  control.subs.markers = await bus.subscribe<McCompleteMessage>(
    TOPICS.mcComplete,
    async (batch) => {
      for (const d of batch) {
        const m = mcCompleteMessageSchema.parse(d.value);
        const n = next();
        if (n === null || m.mc_seqno >= n) {
          buffer.markers.set(m.mc_seqno, m);
          buffer.hold(m.mc_seqno, d.hold());
        }
      }
      deps.changed();
    },
    { group: TRACES_MARKERS_GROUP, maxBatch: 64 },
  ).catch(deps.notStarted);
}

/**
 * Runs the stage's `drain` beside the bus handlers, never inside them (a handler only buffers and returns: issue 20,
 * finding 2): one run at a time, run again when kicked meanwhile, `after` each run. A failure while `dirty()` (the
 * fold moved past what is written) cannot be retried in place: `broken`, and `stop` is told; any other is retried
 * after RETRY_MS.
 */
class DrainLoop {
  failure: Error | null = null;
  broken = false;
  closed = false;
  private draining: Promise<void> | null = null;
  private again = false;
  private retry: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly drain: () => Promise<void>,
    private readonly deps: { dirty: () => boolean; stop: (err: Error) => void; after: () => void; logger?: Logger },
  ) {}

  readonly kick = (): void => {
    if (this.closed || this.broken) return;
    if (this.draining) {
      this.again = true;
      return;
    }
    this.draining = this.run();
  };

  private async run(): Promise<void> {
    try {
      do {
        this.again = false;
        await this.drain();
      } while (this.again && !this.closed);
      this.failure = null;
    } catch (err) {
      const failure = (this.failure = err as Error);
      if (this.deps.dirty()) {
        this.broken = true;
        this.deps.logger?.error({ err: failure.message }, 'traces stage failed after processing seqnos it could not write; it stops (restart the process: it resumes from the saved state)');
        this.deps.stop(failure);
      } else {
        this.deps.logger?.error({ err: failure.message }, 'traces stage failed; it will be retried');
        if (!this.closed) this.retry = setTimeout(this.kick, RETRY_MS);
      }
    } finally {
      this.draining = null;
    }
    this.deps.after();
  }

  /** No run starts from now on (the one in progress goes on: `idle`). */
  close(): void {
    this.closed = true;
    clearTimeout(this.retry);
  }

  /** Resolves once the run in progress, if any, has ended. */
  async idle(): Promise<void> {
    await this.draining;
  }
}

function newStageStats(classifier: Classifier, lastSeqno: number | null): TracesStageStats {
  return {
    mcProcessed: 0,
    traces: 0,
    actions: 0,
    lastSeqno,
    ms: 0,
    split: { prefetchMs: 0, processMs: 0, writeMs: 0 },
    entities: emptyStateStats(),
    pauses: 0,
    classify: Object.assign(classifier.stats, { waitMs: 0 }),
  };
}

export async function startTracesStage(bus: Bus, store: StoreClient, opts: TracesStageOptions = {}): Promise<TracesStage> {
  // the stage's context: its store, its classifier and what it keeps between batches (src/traces/stage-context.ts)
  const ctx = createTracesContext({ store, classifier: opts.classifier ?? createClassifier(opts.workers ?? 0, { dedustPools: opts.dedustPools }) });
  const loaded = await loadAssembler(ctx);
  const asm = loaded.assembler;
  const shared = opts.shared ?? new SharedDecode();
  const metrics = opts.metrics ?? createPipelineMetrics();
  const stats = newStageStats(ctx.classifier, loaded.mcSeqno);
  const readers = chainReaders(store, opts);
  let next = firstSeqno(loaded.mcSeqno, opts.fromSeqno);
  const buffer = new SeqnoBuffer();
  const waiters = new SeqnoWaiters();
  /** the assembler moved past the store (processed, not written yet): a failure now cannot be retried in place */
  let dirty = false;
  let fail!: (err: Error) => void;
  const failed = new Promise<never>((_, reject) => (fail = reject));
  failed.catch(() => undefined);

  const drain = async () => {
    for (;;) {
      if (next === null) {
        // nothing saved and no start given: begin with the lowest marker seen
        if (!buffer.markers.size) return;
        next = Math.min(...buffer.markers.keys());
      }
      // every consecutive seqno whose blocks are all here, up to a bound, is processed and then written at once
      const t0 = performance.now();
      const ready = buffer.ready(next);
      if (!ready.length) return;
      // the store's context rows for the whole group in one query per table (a query per seqno waited behind
      // the store stage's inserts each time)
      const prefetched = ready.length > 1 ? await prefetchForBatches(ctx, asm, ready.map((r) => r.blocks)) : undefined;
      const t1 = performance.now();
      dirty = true;
      const outs = await foldGroup(ctx, asm, ready, { ...readers, prefetched }, { buffer, stats, onSeqno: opts.onSeqno });
      const last = ready[ready.length - 1].seqno;
      const out = mergeMcBatches(outs);
      const t2 = performance.now();
      await writeMcBatch(ctx, asm, last, out);
      dirty = false;
      countGroup(stats, metrics, outs.length, out, [t0, t1, t2, performance.now()]);
      stats.lastSeqno = last;
      next = last + 1;
      buffer.release(next);
      waiters.reach(next);
    }
  };
  const loop = new DrainLoop(drain, { dirty: () => dirty, stop: (err) => fail(err), after: () => flow(), logger: opts.logger });

  const control = new FlowControl({ maxBlocks: opts.maxBufferedBlocks ?? MAX_BUFFERED_BLOCKS, maxMarkers: opts.maxBufferedMarkers ?? MAX_BUFFERED_MARKERS }, stats);
  const flow = () => {
    if (!loop.closed) control.update(next, buffer);
  };
  const subs = control.subs;
  // a stage that does not start leaves no thread behind (the process would not exit)
  const notStarted = async (err: unknown): Promise<never> => {
    await subs.raw?.close();
    await ctx.classifier.close();
    throw err;
  };
  const changed = () => {
    flow();
    loop.kick();
  };
  await subscribeInputs(bus, { buffer, control, shared, next: () => next, changed, notStarted });

  return {
    stats,
    failed,
    reached(seqno: number) {
      if (loop.broken) return Promise.reject(loop.failure);
      if (next !== null && seqno < next) return Promise.resolve();
      // a failure that is retried in place is waited through; one that stops the stage rejects
      return Promise.race([waiters.wait(seqno), failed]);
    },
    async close() {
      loop.close();
      await subs.raw?.close();
      await subs.markers?.close();
      await loop.idle();
      // code reads a batch stopped waiting for still write to the store: let them finish before it closes
      await readers.codes?.settled();
      await ctx.classifier.close();
    },
  };
}
