/**
 * The stages of the ingest pipeline, each a small function wiring a bus topic to a service:
 *   ingest     follower -> ton.blocks.raw (+ ton.mc.complete marker per masterchain block)
 *   decode     ton.blocks.raw -> decodeBlock + blockToRows -> ton.blocks.decoded (transactions and messages are left
 *              to the traces stage, which writes them once with their trace_id)
 *   store      ton.blocks.decoded -> StoreWriter (ack after flush: rows durable)
 *   checkpoint ton.mc.complete -> waits until every block of the seqno is in ingested_blocks (and the traces stage
 *              has written the seqno) -> checkpoint
 * Later stages (traces, actions) subscribe the same way with their own group.
 */
import type { Logger } from 'pino';
import { TOPICS, rawBlockMessageSchema, mcCompleteMessageSchema, type BlockIdJson, type DecodedBlockMessage, type McCompleteMessage, type RawBlockMessage } from '../schemas/bus/index.ts';
import type { Bus, Delivery, Subscription } from '../src/bus/index.ts';
import { followMasterchain, shardHex, type BlockIdExt, type BlockSource, type FollowOptions, type McStep } from '../src/source/index.ts';
import { blockToRows, PriorStates, rowsOfMessage, SharedDecode } from '../src/decode/index.ts';
import { getCheckpoint, INGEST_CHECKPOINT, setCheckpoint, type StoreClient } from '../src/store/client/index.ts';
import { StoreWriter, type WriterOptions } from '../src/store/write/index.ts';
import { createPipelineMetrics, type PipelineMetrics } from './metrics.ts';

/** Group names: one consumer group per stage. */
export const GROUPS = { decode: 'decode', store: 'store', checkpoint: 'checkpoint' } as const;

export function blockIdJson(id: BlockIdExt): BlockIdJson {
  return { workchain: id.workchain, shard: shardHex(id.shard), seqno: id.seqno, root_hash: id.rootHash, file_hash: id.fileHash };
}

function shardKey(id: BlockIdJson): string {
  return `${id.workchain}:${id.shard}`;
}

/** Shared counters a progress display reads. */
export interface PipelineStats {
  mcFetched: number;
  blocksFetched: number;
  blocksStored: number;
  txStored: number;
  checkpoint: number | null;
  tip: number;
  /** Cumulative ms per stage (handler time). */
  stageMs: { fetch: number; decode: number; store: number; checkpoint: number };
}

export function newStats(): PipelineStats {
  return { mcFetched: 0, blocksFetched: 0, blocksStored: 0, txStored: 0, checkpoint: null, tip: 0, stageMs: { fetch: 0, decode: 0, store: 0, checkpoint: 0 } };
}

/** Messages to publish for one masterchain step: shard blocks (oldest first), then the mc block, then the marker. */
export function stepMessages(step: McStep): { raw: { key: string; value: RawBlockMessage }[]; marker: McCompleteMessage } {
  const blocks = [...step.shardBlocks, step.mc];
  const raw = blocks.map((b) => {
    const id = blockIdJson(b.id);
    return { key: shardKey(id), value: { mc_seqno: step.mcSeqno, id, boc: b.boc.toString('base64') } };
  });
  return { raw, marker: { mc_seqno: step.mcSeqno, mc_id: blockIdJson(step.mc.id), blocks: raw.map((r) => r.value.id) } };
}

export interface IngestOptions {
  fromSeqno: number;
  untilSeqno?: number;
  prefetch?: number;
  logger?: Logger;
  signal?: AbortSignal;
  stats?: PipelineStats;
  /** the decoders of this process: ingest hands them the BoCs it parsed to verify them (src/decode/shared.ts) */
  shared?: SharedDecode;
  /** the follower's stalls (a seqno no liteserver gives valid), and its bound (follower.ts) */
  onStall?: FollowOptions['onStall'];
  giveUpMs?: number;
  /** this process's pipeline metrics (default: a set of its own) */
  metrics?: PipelineMetrics;
}

/** Follows the masterchain and publishes every verified block; resolves at untilSeqno (or on abort). */
export async function runIngest(bus: Bus, source: BlockSource, opts: IngestOptions): Promise<void> {
  const stats = opts.stats ?? newStats();
  const metrics = opts.metrics ?? createPipelineMetrics();
  let t = performance.now();
  for await (const step of followMasterchain(source, {
    fromSeqno: opts.fromSeqno,
    untilSeqno: opts.untilSeqno,
    prefetch: opts.prefetch ?? 16,
    logger: opts.logger,
    signal: opts.signal,
    onStall: opts.onStall,
    giveUpMs: opts.giveUpMs,
    onTip: (tip) => {
      stats.tip = tip;
      metrics.networkTip.set(tip);
    },
  })) {
    stats.stageMs.fetch += performance.now() - t;
    const { raw, marker } = stepMessages(step);
    if (opts.shared) for (const b of [...step.shardBlocks, step.mc]) if (b.cells) opts.shared.shareParsed(blockIdJson(b.id), b.cells);
    await bus.publish(TOPICS.rawBlocks, raw);
    await bus.publish(TOPICS.mcComplete, [{ key: 'mc', value: marker }]);
    stats.mcFetched++;
    stats.blocksFetched += raw.length;
    stats.tip = Math.max(stats.tip, step.mcSeqno);
    metrics.followerSeqno.set(step.mcSeqno);
    metrics.blocksFetched.inc({ workchain: '-1' });
    if (step.shardBlocks.length) metrics.blocksFetched.inc({ workchain: 'shard' }, step.shardBlocks.length);
    if (opts.signal?.aborted) return;
    t = performance.now();
  }
}

export interface DecodeStageOptions {
  logger?: Logger;
  stats?: PipelineStats;
  maxBatch?: number;
  /**
   * The traces stage writes the transactions and messages rows (with their trace_id), so decode leaves them out:
   * each row is written once instead of twice (default true; false when no traces stage runs: `--no-traces`).
   */
  tracesWriteRows?: boolean;
  /** The decodes this process shares (with a traces stage beside, and ingest's parses: src/decode/shared.ts); default: its own. */
  shared?: SharedDecode;
  metrics?: PipelineMetrics;
}

/** decode: raw block -> rows of every store table (pure CPU work; run N of these with Kafka). */
export async function startDecodeStage(bus: Bus, opts: DecodeStageOptions = {}): Promise<Subscription> {
  const omitTraced = opts.tracesWriteRows ?? true;
  const stats = opts.stats ?? newStats();
  const priorStates = new PriorStates();
  const shared = opts.shared ?? new SharedDecode();
  const metrics = opts.metrics ?? createPipelineMetrics();
  return bus.subscribe<RawBlockMessage>(
    TOPICS.rawBlocks,
    async (batch) => {
      const t0 = performance.now();
      const out: { key: string; value: DecodedBlockMessage & { tx_count: number } }[] = [];
      for (const d of batch) {
        const msg = rawBlockMessageSchema.parse(d.value);
        const block = shared.decode(msg);
        const rows = blockToRows(block, { mcSeqno: msg.mc_seqno, tables: omitTraced ? 'untraced' : 'all', priorStates });
        out.push({ key: d.key, value: { mc_seqno: msg.mc_seqno, id: msg.id, rows, tx_count: block.transactions.length } });
      }
      const ms = performance.now() - t0;
      stats.stageMs.decode += ms;
      metrics.stageSeconds.observe({ stage: 'decode' }, ms / 1000);
      await bus.publish(TOPICS.decodedBlocks, out);
    },
    { group: GROUPS.decode, maxBatch: opts.maxBatch ?? 64, onError: logError(opts.logger, 'decode') },
  );
}

/** store: decoded rows -> ClickHouse; the batch is acknowledged only after the writer flushed it. */
export async function startStoreStage(
  bus: Bus,
  store: StoreClient,
  opts: { logger?: Logger; stats?: PipelineStats; maxBatch?: number; lingerMs?: number; writer?: WriterOptions; metrics?: PipelineMetrics } = {},
): Promise<Stoppable & { writer: StoreWriter }> {
  const stats = opts.stats ?? newStats();
  const metrics = opts.metrics ?? createPipelineMetrics();
  // gate: the key-value store's entries become visible with the checkpoint (src/kv)
  const newWriter = () => new StoreWriter(store, { maxRows: 500_000, maxDelayMs: 60_000, gate: true, ...opts.writer });
  let writer = newWriter();
  const sub = await bus.subscribe<DecodedBlockMessage & { tx_count?: number }>(
    TOPICS.decodedBlocks,
    async (batch) => {
      const t0 = performance.now();
      let txs = 0;
      try {
        for (const d of batch) {
          const tx = d.value.tx_count ?? (d.value.rows.transactions?.length ?? 0);
          txs += tx;
          await writer.writeRows(rowsOfMessage(d.value), { blocks: 1, txs: tx });
        }
        await writer.flush();
      } catch (err) {
        // A failed writer stays failed: start a fresh one; the whole batch is redelivered (inserts are idempotent).
        writer = newWriter();
        throw err;
      }
      const ms = performance.now() - t0;
      stats.stageMs.store += ms;
      stats.blocksStored += batch.length;
      stats.txStored += txs;
      metrics.stageSeconds.observe({ stage: 'store' }, ms / 1000);
      metrics.blocksStored.inc(batch.length);
      metrics.transactionsStored.inc(txs);
    },
    { group: GROUPS.store, maxBatch: opts.maxBatch ?? 2000, lingerMs: opts.lingerMs ?? 500, onError: logError(opts.logger, 'store') },
  );
  return { get writer() {
    return writer;
  }, close: () => sub.close() };
}

/** A running stage: stop it with close(). */
export interface Stoppable {
  close(): Promise<void>;
}

export interface CheckpointStage extends Stoppable {
  /** times it paused its subscription, MAX_WAITING_MARKERS markers waiting */
  readonly pauses: number;
}

/** Markers the checkpoint stage keeps waiting before it pauses its subscription (a marker is a few hundred bytes). */
const MAX_WAITING_MARKERS = 10_000;
/** Seqnos asked of the store in one check. */
const CHECK_SPAN = 1000;

/**
 * checkpoint: markers arrive in masterchain order (one key, one partition). A marker's seqno becomes the
 * checkpoint once every block it lists has its ingested_blocks row (written after all of the block's rows) and the
 * traces stage has written the seqno.
 *
 * The handler never waits for that (issue 20, finding 2: a handler waiting for upstream sends no heartbeat, and
 * Kafka removes the member after the session timeout). It keeps the markers, holds them on the bus (Delivery.hold:
 * their offsets are committed once the checkpoint has passed them, so a restart gets them again) and returns; a
 * timer asks the store every `pollMs` and moves the checkpoint. Past MAX_WAITING_MARKERS it pauses the
 * subscription until the checkpoint catches up.
 */
export async function startCheckpointStage(bus: Bus, store: StoreClient, opts: CheckpointStageOptions = {}): Promise<CheckpointStage> {
  const stats = opts.stats ?? newStats();
  const metrics = opts.metrics ?? createPipelineMetrics();
  stats.checkpoint ??= await getCheckpoint(store, INGEST_CHECKPOINT);
  // a restart on an indexed store reports where it stands at once, not 0 until the next seqno is stored
  if (stats.checkpoint !== null) metrics.checkpoint.set(stats.checkpoint);
  const c = new Checkpointer(store, opts, stats, metrics);
  c.sub = await bus.subscribe<McCompleteMessage>(TOPICS.mcComplete, (batch) => c.take(batch), {
    group: GROUPS.checkpoint,
    maxBatch: 1000,
    onError: logError(opts.logger, 'checkpoint'),
  });
  return {
    get pauses() {
      return c.pauses;
    },
    close: () => c.close(),
  };
}

export interface CheckpointStageOptions {
  logger?: Logger;
  stats?: PipelineStats;
  pollMs?: number;
  onCheckpoint?: (seqno: number) => void;
  /** The seqno the traces stage has made durable (its rows complete a block); the checkpoint never passes it. */
  tracedUpTo?: () => Promise<number | null>;
  /** markers kept before pausing (default 10,000) */
  maxWaiting?: number;
  metrics?: PipelineMetrics;
}

/** The checkpoint stage's state: the markers waiting (held on the bus), the timer that checks them, the pause. */
class Checkpointer {
  private readonly waiting = new Map<number, { marker: McCompleteMessage; releases: (() => void)[] }>();
  private paused = false;
  pauses = 0;
  private closed = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private checking: Promise<void> | null = null;
  /** set once subscribed; the handler may run before subscribe resolves */
  sub?: Subscription;
  // each check is two queries beside the stages' own; while catching up the checkpoint waits on the slowest stage
  private readonly pollMs: number;
  private readonly maxWaiting: number;

  constructor(
    private readonly store: StoreClient,
    private readonly opts: CheckpointStageOptions,
    private readonly stats: PipelineStats,
    private readonly metrics: PipelineMetrics,
  ) {
    this.pollMs = opts.pollMs ?? 500;
    this.maxWaiting = opts.maxWaiting ?? MAX_WAITING_MARKERS;
  }

  /** The handler: keeps and holds each marker above the checkpoint, pauses when too many wait, and has them checked. */
  async take(batch: Delivery<McCompleteMessage>[]): Promise<void> {
    for (const d of batch) {
      const m = mcCompleteMessageSchema.parse(d.value);
      // at or below the checkpoint: done before (a replay); nothing to wait for, nothing to hold
      if (m.mc_seqno <= (this.stats.checkpoint ?? -1)) continue;
      const w = this.waiting.get(m.mc_seqno);
      if (w) w.releases.push(d.hold());
      else this.waiting.set(m.mc_seqno, { marker: m, releases: [d.hold()] });
    }
    if (!this.paused && this.waiting.size >= this.maxWaiting) {
      this.paused = true;
      this.pauses++;
      this.sub?.pause();
    }
    this.schedule(0);
  }

  private schedule(ms: number): void {
    if (this.closed || this.timer !== undefined || this.checking !== null) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const before = this.waiting.size;
      this.checking = this.check()
        .catch((err: unknown) => this.opts.logger?.error({ stage: 'checkpoint', err: (err as Error).message }, 'checkpoint check failed; it will be retried'))
        .finally(() => {
          this.checking = null;
          // progress: look again at once (more may be ready); none: poll
          if (this.waiting.size > 0) this.schedule(this.waiting.size < before ? 0 : this.pollMs);
        });
    }, ms);
  }

  private async check(): Promise<void> {
    const t0 = performance.now();
    const seqnos = [...this.waiting.keys()].sort((a, b) => a - b).slice(0, CHECK_SPAN);
    if (seqnos.length === 0) return;
    const last = await this.completeUpTo(seqnos);
    if (last !== null) await this.advance(seqnos, last);
    this.stats.stageMs.checkpoint += performance.now() - t0;
  }

  /** The last of `seqnos` (ascending) up to which every block is stored and the traces stage has written: null if none. */
  private async completeUpTo(seqnos: number[]): Promise<number | null> {
    const lo = seqnos[0];
    const hi = seqnos[seqnos.length - 1];
    const rows = await this.store.query<{ s: number | string; n: number | string }>(
      'SELECT mc_block_seqno AS s, uniqExact(workchain, shard, seqno) AS n FROM ingested_blocks WHERE mc_block_seqno BETWEEN {lo:UInt32} AND {hi:UInt32} GROUP BY mc_block_seqno',
      { lo, hi },
    );
    const have = new Map(rows.map((r) => [Number(r.s), Number(r.n)]));
    const traced = this.opts.tracedUpTo ? ((await this.opts.tracedUpTo()) ?? -1) : Infinity;
    let last: number | null = null;
    for (const s of seqnos) {
      if (s > traced || (have.get(s) ?? 0) < this.waiting.get(s)!.marker.blocks.length) break;
      last = s;
    }
    return last;
  }

  /** The checkpoint to `last`, the markers up to it released, the subscription resumed once few wait. */
  private async advance(seqnos: number[], last: number): Promise<void> {
    // Never backwards: a replay of older seqnos (explicit --from-seqno) leaves the checkpoint where it is.
    if (last > (this.stats.checkpoint ?? -1)) {
      await setCheckpoint(this.store, INGEST_CHECKPOINT, last);
      this.stats.checkpoint = last;
      this.metrics.checkpoint.set(last);
      this.opts.onCheckpoint?.(last);
    }
    // durable: the bus may commit past these markers
    for (const s of seqnos) {
      if (s > last) break;
      for (const release of this.waiting.get(s)!.releases) release();
      this.waiting.delete(s);
    }
    if (this.paused && this.waiting.size <= this.maxWaiting / 2) {
      this.paused = false;
      this.sub?.resume();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.sub?.close();
    await this.checking;
  }
}

function logError(log: Logger | undefined, stage: string) {
  return (err: unknown, batch: Delivery[]) => {
    log?.error({ stage, err: (err as Error).message, first: batch[0]?.offset, size: batch.length }, `${stage} stage failed on a batch; it will be retried`);
  };
}
