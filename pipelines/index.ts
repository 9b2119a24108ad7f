/**
 * Pipeline wiring. `runIndexer` runs ingest -> decode -> store -> checkpoint in one process (the embedded
 * default, over the in-process bus, or over Kafka with every role here); `startRoles` runs chosen roles only
 * (Kafka deployments: one ingest, N decoders, a store writer; see docker/README.md).
 */
import { setMaxListeners } from 'node:events';
import type { Logger } from 'pino';
import type { Bus } from '../src/bus/index.ts';
import type { DedustPoolList } from '../src/actions/index.ts';
import type { AccountStateSource } from '../src/entities/index.ts';
import type { BlockSource } from '../src/source/index.ts';
import type { PipelineNotifications } from '../src/feed/index.ts';
import { getCheckpoint, INGEST_CHECKPOINT, type StoreClient } from '../src/store/client/index.ts';
import { tracesResumePoint } from '../src/store/traces/index.ts';
import { newStats, runIngest, startCheckpointStage, startDecodeStage, startStoreStage, type PipelineStats, type Stoppable } from './stages.ts';
import { TOPICS } from '../schemas/bus/index.ts';
import { SharedDecode, type SharedDecodeStats } from '../src/decode/index.ts';
import { startTracesStage, type TracesStage } from './traces.ts';
import { IngestBook, planRange } from './ingest-book.ts';

export { createPipelineMetrics, type PipelineMetrics } from './metrics.ts';
import { createPipelineMetrics, type PipelineMetrics } from './metrics.ts';
export { DEFAULT_CLASSIFY_WORKERS, startTracesStage, TRACES_GROUP, TRACES_MARKERS_GROUP, type TracesStage } from './traces.ts';
/** The seqno the traces stage has saved its state at: what the checkpoint stage waits on (src/store/traces/state.ts). */
export { tracesResumePoint } from '../src/store/traces/index.ts';
export * from './stages.ts';
export { IngestBook, planRange, type PlannedRange, type RangeRequest } from './ingest-book.ts';
export { assignMcSeqnos, importBlocks, type ImportResult } from './import.ts';

export type Role = 'ingest' | 'decode' | 'store' | 'checkpoint' | 'traces';
export const ROLES: Role[] = ['ingest', 'decode', 'store', 'checkpoint', 'traces'];

export interface IndexerOptions {
  bus: Bus;
  /**
   * Needed by ingest. The traces stage reads the contract codes neither the blocks nor the store have from it
   * too, when it is a liteserver pool (it answers account states).
   */
  source?: BlockSource;
  /** Needed by store and checkpoint. */
  store?: StoreClient;
  roles?: Role[];
  /** Start seqno; default: the stored range continued, else checkpoint + 1, else the tip (ingest-book.ts). */
  fromSeqno?: number;
  untilSeqno?: number;
  /** With an end seqno, ingest stops (FollowStalled) once one masterchain seqno failed this long; default: waits forever. */
  giveUpMs?: number;
  prefetch?: number;
  logger?: Logger;
  stats?: PipelineStats;
  /** Decoder batch size (blocks). */
  decodeBatch?: number;
  /**
   * Whether a traces stage runs in the deployment (default true). It then writes the transactions and messages
   * rows, and the checkpoint waits for it; with false (`--no-traces`) decode writes them and no traces are built.
   */
  traces?: boolean;
  /** The streaming API's publisher: told of each seqno the traces stage processes and of each checkpoint. */
  notifications?: PipelineNotifications;
  /** Worker threads classifying traces and deriving entity states in the traces stage (`--workers`); 0 or unset: on the stage's thread. */
  classifyWorkers?: number;
  /** This process's metrics (the API serves their registry at /metrics); default: a set of its own. */
  metrics?: PipelineMetrics;
  /** The DeDust pool list the traces stage's classifier falls back on (`--dedust-pools-api`); default: none. */
  dedustPools?: DedustPoolList;
}

export interface IndexerHandle {
  stats: PipelineStats;
  /** The traces stage, when this process runs it. */
  traces: TracesStage | null;
  /** The decodes its stages shared (src/decode/shared.ts). */
  decodes: SharedDecodeStats;
  fromSeqno: number | null;
  /** Where ingest stops (the request's, or the stored range's when it continues one); undefined: never. */
  untilSeqno?: number;
  /**
   * With untilSeqno: resolves once ingest reached it and, in a process with the checkpoint role, the checkpoint caught
   * up with it (a checkpoint process without ingest resolves when the checkpoint reaches it). Following forever: never,
   * unless ingest fails.
   */
  done: Promise<void>;
  stop(): Promise<void>;
}

/** Where to resume: the stored checkpoint + 1, or null when nothing was indexed yet. */
export async function resumeSeqno(store: StoreClient, opts: { traces?: boolean } = {}): Promise<number | null> {
  const cp = await getCheckpoint(store, INGEST_CHECKPOINT);
  if (cp === null) return null;
  // The traces stage saves its state on its own schedule; resume where both stages have everything.
  const traced = opts.traces ? await tracesResumePoint(store) : null;
  return (traced === null ? cp : Math.min(cp, traced)) + 1;
}

/** The source as the traces stage's code reader, when it can read account states (a LiteserverPool can). */
function accountStates(source: BlockSource | undefined): AccountStateSource | undefined {
  return typeof (source as Partial<AccountStateSource> | undefined)?.getAccountStateBoc === 'function' ? (source as BlockSource & AccountStateSource) : undefined;
}

function onSeqnoOf(n: PipelineNotifications | undefined) {
  return n ? n.seqnoProcessed.bind(n) : undefined;
}

export async function runIndexer(opts: IndexerOptions): Promise<IndexerHandle> {
  const withTraces = opts.traces ?? true;
  const roles = new Set((opts.roles ?? ROLES).filter((r) => withTraces || r !== 'traces'));
  const stats = opts.stats ?? newStats();
  const log = opts.logger;
  const abort = new AbortController();
  // every prefetched masterchain step listens for the abort; that many listeners are expected
  setMaxListeners(256, abort.signal);
  await opts.bus.ensureTopics(Object.values(TOPICS));

  if (roles.has('store') || roles.has('checkpoint')) {
    if (!opts.store) throw new Error('the store and checkpoint roles need a store');
    stats.checkpoint = await getCheckpoint(opts.store, INGEST_CHECKPOINT);
  }
  // decode and traces both decode raw blocks; in one process they share the work (src/decode/shared.ts)
  const decoders = (roles.has('decode') ? 1 : 0) + (roles.has('traces') ? 1 : 0);
  const shared = new SharedDecode(decoders);
  const metrics = opts.metrics ?? createPipelineMetrics();
  const watch = new CheckpointWatch(stats);
  const subs = await startRowStages(opts, roles, { log, stats, metrics, shared, withTraces, onCheckpoint: (s) => watch.reached(s) });

  let fromSeqno: number | null = null;
  let untilSeqno = opts.untilSeqno;
  let book: IngestBook | null = null;
  let traces: TracesStage | null = null;
  if (roles.has('traces') && !opts.store) throw new Error('the traces role needs a store');
  const startTraces = async (from?: number) => {
    const stage = await startTracesStage(opts.bus, opts.store!, {
      logger: log, ...(from === undefined ? {} : { fromSeqno: from }), shared, metrics, dedustPools: opts.dedustPools, liteservers: accountStates(opts.source), onSeqno: onSeqnoOf(opts.notifications), workers: opts.classifyWorkers,
    });
    subs.push(stage);
    return stage;
  };
  if (roles.has('traces') && !roles.has('ingest')) traces = await startTraces();
  /** resolves once the checkpoint (and the traces stage of this process) reached `target` */
  const checkpointAt = async (target: number): Promise<void> => {
    await traces?.reached(target);
    await watch.at(target);
  };
  let done: Promise<void> = new Promise<void>(() => undefined);
  if (roles.has('ingest')) {
    ({ fromSeqno, untilSeqno, book } = await ingestRange(opts, roles));
    if (roles.has('traces')) traces = await startTraces(fromSeqno);
    const until = untilSeqno;
    const ingest = runIngest(opts.bus, opts.source!, {
      fromSeqno,
      untilSeqno: until,
      prefetch: opts.prefetch,
      logger: log,
      signal: abort.signal,
      stats,
      metrics,
      shared: decoders > 0 ? shared : undefined,
      onStall: book ? (stall) => void book!.stall(stall) : undefined,
      // a bounded range fails once a seqno cannot be had for giveUpMs; following the tip waits it out
      giveUpMs: until !== undefined ? opts.giveUpMs : undefined,
    });
    ingest.catch((err) => {
      if (!abort.signal.aborted) log?.error({ err: (err as Error).message }, 'ingest stopped');
    });
    done = ingestDone(ingest, { from: fromSeqno, until, book, checkpoint: roles.has('checkpoint'), checkpointAt, stats });
  } else if (roles.has('checkpoint') && opts.untilSeqno !== undefined) {
    // a split deployment's checkpoint process: done once the checkpoint reaches the last seqno ingest was given
    done = checkpointAt(opts.untilSeqno);
  }
  // a traces stage that stopped for good ends the run (the process exits non-zero and restarts from its saved state)
  if (traces) done = Promise.race([done, traces.failed]);

  return {
    stats,
    traces,
    decodes: shared.stats,
    fromSeqno,
    untilSeqno,
    done,
    stop: async () => {
      abort.abort();
      await book?.flush();
      for (const s of subs.reverse()) await s.close();
    },
  };
}

/** The checkpoint as the checkpoint stage of this process moves it: waits for a seqno to be reached. */
class CheckpointWatch {
  private waiter: ((seqno: number) => void) | null = null;
  constructor(private readonly stats: PipelineStats) {}
  reached(seqno: number): void {
    this.waiter?.(seqno);
  }
  async at(target: number): Promise<void> {
    if ((this.stats.checkpoint ?? -1) >= target) return;
    await new Promise<void>((resolve) => {
      this.waiter = (s) => {
        if (s >= target) resolve();
      };
      if ((this.stats.checkpoint ?? -1) >= target) resolve();
    });
  }
}

/** What the row stages (store, decode, checkpoint) share of the run. */
interface RowStagesContext {
  log: Logger | undefined;
  stats: PipelineStats;
  metrics: PipelineMetrics;
  shared: SharedDecode;
  withTraces: boolean;
  onCheckpoint: (seqno: number) => void;
}

/** The store, decode and checkpoint stages this process runs, in that order. */
async function startRowStages(opts: IndexerOptions, roles: Set<Role>, c: RowStagesContext): Promise<Stoppable[]> {
  const { log, stats, metrics } = c;
  const subs: Stoppable[] = [];
  if (roles.has('store')) subs.push(await startStoreStage(opts.bus, opts.store!, { logger: log, stats, metrics }));
  if (roles.has('decode')) subs.push(await startDecodeStage(opts.bus, { logger: log, stats, maxBatch: opts.decodeBatch, tracesWriteRows: c.withTraces, shared: c.shared, metrics }));
  if (roles.has('checkpoint')) {
    const store = opts.store!;
    const tracedUpTo = c.withTraces ? () => tracesResumePoint(store) : undefined;
    const notify = opts.notifications;
    subs.push(
      await startCheckpointStage(opts.bus, store, {
        logger: log,
        stats,
        metrics,
        tracedUpTo,
        onCheckpoint: (s) => {
          c.onCheckpoint(s);
          void notify?.checkpoint(s);
        },
      }),
    );
  }
  return subs;
}

/** The range ingest runs: with a store, the requested range is the store's state (a restart continues it). */
async function ingestRange(opts: IndexerOptions, roles: Set<Role>): Promise<{ fromSeqno: number; untilSeqno: number | undefined; book: IngestBook | null }> {
  if (!opts.source) throw new Error('the ingest role needs a liteserver source');
  if (!opts.store) return { fromSeqno: opts.fromSeqno ?? (await opts.source.getMasterchainTip()).seqno, untilSeqno: opts.untilSeqno, book: null };
  const saved = await IngestBook.read(opts.store);
  const cp = await getCheckpoint(opts.store, INGEST_CHECKPOINT);
  const plan = planRange(opts, saved, cp, await resumeSeqno(opts.store, { traces: roles.has('traces') }));
  const fromSeqno = plan.from ?? (await opts.source.getMasterchainTip()).seqno;
  const untilSeqno = plan.until;
  if (plan.continued) opts.logger?.info({ from: fromSeqno, until: untilSeqno ?? 'tip', requested: saved?.range }, 'continuing the requested range');
  const book = await IngestBook.begin(opts.store, saved, { from: fromSeqno, until: untilSeqno, continued: plan.continued }, cp, opts.logger);
  return { fromSeqno, untilSeqno, book };
}

/**
 * When a run with ingest is done: a bounded range once ingest ended and (with the checkpoint role) the checkpoint
 * reached its end, the range then marked done; following the tip, only if ingest fails (so the CLI can report it).
 */
function ingestDone(
  ingest: Promise<void>,
  r: { from: number; until: number | undefined; book: IngestBook | null; checkpoint: boolean; checkpointAt: (target: number) => Promise<void>; stats: PipelineStats },
): Promise<void> {
  let done: Promise<void>;
  if (r.until !== undefined && r.checkpoint) {
    const target = r.until;
    done = (async () => {
      await ingest;
      if (r.from > target) return;
      await r.checkpointAt(target);
    })();
  } else if (r.until !== undefined) {
    done = ingest;
  } else {
    // Following forever: `done` only settles if ingest fails (so the CLI can report it).
    done = ingest.then(() => new Promise<void>(() => undefined));
  }
  if (r.until !== undefined && r.book && r.checkpoint) {
    // stored up to its end: the range is done, a restart without flags follows from the checkpoint
    const b = r.book;
    done = done.then(() => b.rangeDone(r.stats.checkpoint));
  }
  return done;
}
