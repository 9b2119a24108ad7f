/**
 * The emulation service of one network: runs external messages as whole traces (trace.ts) on the shared TVM
 * emulator, one at a time, with a bounded queue (past it: EmulationBusy, the API's 429); keeps the traces of the
 * messages sent (pending.ts) until the indexer's notification feed shows their real traces, compares them
 * (compare.ts) and tells its listeners: `pending` when a trace is emulated, `confirmed` when the chain made the same
 * trace, `invalidated` when it made another or none within the bounds.
 */
import type { Cell } from '@ton/core';
import type { Executor } from '@ton/sandbox';
import type { FeedEvent } from '../../schemas/bus/index.ts';
import type { DedustPoolList } from '../actions/index.ts';
import type { StoreClient } from '../store/client/index.ts';
import { withExecutor } from '../tvm/index.ts';
import { BoundedMap } from '../util/index.ts';
import { compareTraces, type TraceComparison } from './compare.ts';
import { pendingRows, PendingTraces, type PendingBounds, type PendingEntry } from './pending.ts';
import { emulatedRows, type EmulatedRows } from './rows.ts';
import { emulateTrace, type EmulateOptions, type EmulationState } from './trace.ts';

/** Emulations running or waiting past the bound: the caller is told to come back (429). */
export class EmulationBusy extends Error {
  constructor(readonly limit: number) {
    super(`too many messages being emulated (${limit} running or waiting); retry later`);
    this.name = 'EmulationBusy';
  }
}

export type PendingEvent =
  | { kind: 'pending'; entry: PendingEntry }
  | { kind: 'confirmed'; norm: string; comparison: TraceComparison }
  | { kind: 'invalidated'; norm: string; reason: string; comparison?: TraceComparison }
  /** the chain has the message's trace but it stayed open past the bounds: not compared, no longer followed */
  | { kind: 'unresolved'; norm: string };

export type PendingListener = (event: PendingEvent) => void;

/** The consuming half of the notification feed (src/feed's NotificationFeed, structurally). */
export interface FeedSource {
  subscribe(handler: (event: FeedEvent) => void): Promise<{ close(): Promise<void> }>;
}

export interface EmulationServiceOptions {
  store: StoreClient;
  /** the DeDust pool list the indexer's classifier falls back on (`--dedust-pools-api`); default: none */
  dedustPools?: DedustPoolList;
  /** The state to emulate against: the newest masterchain block the index has (called once per emulation). */
  state: (hint: { lastSeqno: number | null; at?: number }) => Promise<EmulationState>;
  /** Feed whose seqnos confirm or invalidate pending traces; without it they only expire. */
  feed?: FeedSource;
  /** Emulations running or waiting (default 16). */
  maxQueued?: number;
  bounds?: Partial<PendingBounds>;
  /** Limits of one trace (default upstream's 256 transactions, depth 32). */
  maxTxs?: number;
  maxDepth?: number;
  now?: () => number;
  onError?: (err: unknown, what: string) => void;
}

export interface EmulationStats {
  queued: number;
  pending: number;
  emulated: number;
  /** emulations that ended in an error: the account refused the message, or the emulator or the state failed */
  failed: number;
  busy: number;
  confirmed: number;
  invalidated: number;
}

export class EmulationService {
  readonly pending: PendingTraces;
  readonly maxQueued: number;
  private queued = 0;
  private chain: Promise<unknown> = Promise.resolve();
  private readonly listeners = new Set<PendingListener>();
  private feedSub: { close(): Promise<void> } | null = null;
  /** newest masterchain seqno the feed brought (processed by the traces stage) */
  private lastSeqno: number | null = null;
  /** norms whose real trace is on chain but not complete yet: kept out of the pending lists */
  private readonly onChain = new Set<string>();
  /** norms of the traces the feed brought lately (any), so that an emulation finished after its trace is not held */
  private readonly seenOnChain = new BoundedMap<string, true>(100_000);
  private readonly counts = { emulated: 0, failed: 0, busy: 0, confirmed: 0, invalidated: 0 };
  /**
   * Where the last emulation's time went (bench:emulate): the state's block and config, the trace in the emulator
   * (account states read from the liteservers as it reaches them), the rows (documents, context, classification).
   */
  lastTimings: { stateMs: number; emulateMs: number; rowsMs: number } | null = null;

  /** Where listener failures go (set by the gateway to its logger). */
  onError: ((err: unknown, what: string) => void) | undefined;

  constructor(private readonly opts: EmulationServiceOptions) {
    this.onError = opts.onError;
    this.pending = new PendingTraces(opts.bounds);
    this.maxQueued = opts.maxQueued ?? 16;
  }

  async start(): Promise<void> {
    if (this.feedSub || !this.opts.feed) return;
    this.feedSub = await this.opts.feed.subscribe((e) => this.onFeed(e));
  }

  async close(): Promise<void> {
    await this.feedSub?.close();
    this.feedSub = null;
    await this.chain.catch(() => undefined);
  }

  on(listener: PendingListener): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  stats(): EmulationStats {
    return { queued: this.queued, pending: this.pending.size, ...this.counts };
  }

  /** Throws EmulationBusy when no emulation can be queued now (checked before a message is sent). */
  admit(): void {
    if (this.queued >= this.maxQueued) {
      this.counts.busy++;
      throw new EmulationBusy(this.maxQueued);
    }
  }

  /** Emulates one external message's trace against the newest indexed state (queued; EmulationBusy past the bound). */
  emulate(message: Cell, opts: Pick<EmulateOptions, 'ignoreChksig'> & { mcSeqno?: number } = {}): Promise<EmulatedRows> {
    this.admit();
    this.queued++;
    const run = this.chain.then(async () => {
      const t0 = performance.now();
      const state = await this.opts.state({ lastSeqno: this.lastSeqno, at: opts.mcSeqno });
      const t1 = performance.now();
      const trace = await withExecutor('emulating a trace', (ex: Executor) =>
        emulateTrace(ex, message, state, { ignoreChksig: opts.ignoreChksig, maxTxs: this.opts.maxTxs, maxDepth: this.opts.maxDepth }),
      );
      const t2 = performance.now();
      const rows = await emulatedRows(trace, { store: this.opts.store, utime: state.utime, dedustPools: this.opts.dedustPools });
      this.lastTimings = { stateMs: t1 - t0, emulateMs: t2 - t1, rowsMs: performance.now() - t2 };
      return rows;
    });
    this.chain = run.catch(() => undefined).finally(() => {
      this.queued--;
    });
    run.then(
      () => this.counts.emulated++,
      () => this.counts.failed++,
    );
    return run;
  }

  /**
   * Holds an emulated trace as pending (its message was sent) and tells the listeners; null when the chain already
   * showed the message's trace (an emulation that waited long in the queue): then it is not pending, nor compared.
   */
  track(rows: EmulatedRows): PendingEntry | null {
    if (this.seenOnChain.has(rows.norm)) {
      this.emit({ kind: 'unresolved', norm: rows.norm });
      return null;
    }
    const now = this.now();
    const dropped = this.pending.add(pendingRows(rows), now, this.lastSeqno ?? rows.mcSeqno);
    this.onChain.delete(rows.norm);
    const entry = this.pending.get(rows.norm)!;
    this.emit({ kind: 'pending', entry });
    for (const d of dropped) {
      // no longer followed: whoever was told of it must not wait for its fate
      this.onChain.delete(d.rows.norm);
      this.counts.invalidated++;
      this.emit({ kind: 'invalidated', norm: d.rows.norm, reason: `dropped: more than ${this.pending.bounds.maxTraces} pending traces` });
    }
    return entry;
  }

  /** The pending traces (not yet on chain) by account or message hash, newest first. */
  find(q: { accounts?: readonly string[]; hashes?: readonly string[] }): PendingEntry[] {
    return this.pending.find(q).filter((e) => !this.onChain.has(e.rows.norm));
  }

  private now(): number {
    return (this.opts.now ?? Date.now)();
  }

  private emit(e: PendingEvent): void {
    for (const l of this.listeners) {
      try {
        l(e);
      } catch (err) {
        this.onError?.(err, 'a pending-trace listener');
      }
    }
  }

  /** What the indexer processed: a pending trace's real one compared once complete; bounds checked every seqno. */
  onFeed(e: FeedEvent): void {
    if (e.kind === 'seqno') {
      this.lastSeqno = Math.max(this.lastSeqno ?? 0, e.mc_seqno);
      for (const t of e.traces) {
        this.seenOnChain.set(t.norm, true);
        const entry = this.pending.get(t.norm);
        if (!entry) continue;
        if (!t.complete) {
          this.onChain.add(t.norm);
          continue;
        }
        this.pending.remove(t.norm);
        this.onChain.delete(t.norm);
        const comparison = compareTraces(entry.rows, { docs: [...t.earlier, ...t.docs], actions: t.actions });
        if (comparison.equal) {
          this.counts.confirmed++;
          this.emit({ kind: 'confirmed', norm: t.norm, comparison });
        } else {
          this.counts.invalidated++;
          this.emit({ kind: 'invalidated', norm: t.norm, reason: `the trace on chain differs from the emulation: ${comparison.differences.slice(0, 3).join('; ')}`, comparison });
        }
      }
    }
    const seqno = this.lastSeqno ?? e.mc_seqno;
    for (const x of this.pending.expired(seqno, this.now())) {
      if (this.onChain.delete(x.rows.norm)) {
        // on chain, still open: not a trace that never arrived, nor one known to differ
        this.emit({ kind: 'unresolved', norm: x.rows.norm });
        continue;
      }
      this.counts.invalidated++;
      this.emit({ kind: 'invalidated', norm: x.rows.norm, reason: `no trace of the message on chain within ${this.pending.bounds.maxSeqnos} masterchain blocks or ${this.pending.bounds.maxMs / 1000} s` });
    }
  }
}
