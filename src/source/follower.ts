/**
 * Follows the masterchain from a start seqno to an end seqno (or forever), yielding one McStep per
 * masterchain block, in order, each verified (hashes, prev link) and carrying every shard block it commits.
 * Several steps are fetched ahead concurrently; a block that cannot be fetched is waited for, never skipped:
 * the wait is reported (`onStall`: the lowest masterchain seqno waited for, and why), and with `giveUpMs` the
 * follower stops with FollowStalled once one seqno has failed that long.
 */
import type { Logger } from 'pino';
import { refKey, type BlockIdExt } from './block-id.ts';
import type { VerifiedBlock } from './block-header.ts';
import { followStep, ChainLinkError, type McStep } from './walk.ts';

/** What the follower needs from the network; LiteserverPool implements it, tests may read files. */
export interface BlockSource {
  getMasterchainTip(): Promise<BlockIdExt>;
  lookupMasterchainBlock(seqno: number): Promise<BlockIdExt>;
  /** Fetches and verifies a block (root_hash, file_hash); retries elsewhere on a wrong answer. */
  getBlock(id: BlockIdExt): Promise<VerifiedBlock>;
}

export interface FollowOptions {
  fromSeqno: number;
  /** Inclusive; undefined = follow forever. */
  untilSeqno?: number;
  /** Masterchain blocks fetched ahead of the consumer. */
  prefetch?: number;
  /** Poll period while waiting for the network to produce the next block. */
  pollMs?: number;
  /** Pause before retrying a fetch that failed everywhere. */
  retryMs?: number;
  logger?: Logger;
  signal?: AbortSignal;
  /** Called with the latest known tip whenever it is polled. */
  onTip?: (seqno: number) => void;
  /** Called when the lowest masterchain seqno being waited for changes: a stall, or null once it is over. */
  onStall?: (stall: Stall | null) => void;
  /** Stop (FollowStalled) once one masterchain seqno has failed for this long; default: wait forever. */
  giveUpMs?: number;
}

/** A masterchain seqno the follower cannot get past: every liteserver failed or answered something invalid. */
export interface Stall {
  seqno: number;
  /** The last failure, in words. */
  reason: string;
  /** When it first failed (ms since the epoch). */
  since: number;
}

/** Waits `ms`, or less when `signal` aborts; the abort listener goes with the timer (one poll, one listener). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

export class FollowAborted extends Error {
  override name = 'FollowAborted';
}

/** The follower gave up: one masterchain seqno failed for longer than `giveUpMs`. */
export class FollowStalled extends Error {
  override name = 'FollowStalled';
  constructor(readonly stall: Stall) {
    super(`stalled at mc seqno ${stall.seqno}: ${stall.reason}`);
  }
}

/** The failing seqnos; the lowest is what the follower waits for. */
class Stalls {
  private readonly failing = new Map<number, Stall>();
  private reported: Stall | null = null;
  constructor(private readonly onChange?: (stall: Stall | null) => void) {}

  fail(seqno: number, reason: string): Stall {
    const s = this.failing.get(seqno);
    const stall = { seqno, reason, since: s?.since ?? Date.now() };
    this.failing.set(seqno, stall);
    this.report();
    return stall;
  }

  /** Everything up to `seqno` went through. */
  passed(seqno: number): void {
    for (const k of this.failing.keys()) if (k <= seqno) this.failing.delete(k);
    this.report();
  }

  private report(): void {
    let low: Stall | null = null;
    for (const s of this.failing.values()) if (!low || s.seqno < low.seqno) low = s;
    if (low?.seqno === this.reported?.seqno && low?.reason === this.reported?.reason) return;
    this.reported = low;
    this.onChange?.(low);
  }
}

export async function* followMasterchain(source: BlockSource, opts: FollowOptions): AsyncGenerator<McStep> {
  const prefetch = Math.max(1, opts.prefetch ?? 8);
  const pollMs = opts.pollMs ?? 1_000;
  const retryMs = opts.retryMs ?? 2_000;
  const log = opts.logger;
  const stalls = new Stalls(opts.onStall);
  let tip = 0;

  /**
   * Retries `fn` (for masterchain seqno `seqno`) until it succeeds or the follower is aborted, with backoff; each
   * failure is a stall at that seqno, and one that lasts past `giveUpMs` stops the follower.
   */
  const persist = async <T>(what: string, seqno: number, fn: () => Promise<T>): Promise<T> => {
    for (let attempt = 0; ; attempt++) {
      if (opts.signal?.aborted) throw new FollowAborted('aborted');
      try {
        return await fn();
      } catch (err) {
        if (err instanceof ChainLinkError) throw err;
        const reason = `${what}: ${(err as Error).message}`;
        const stall = stalls.fail(seqno, reason);
        if (opts.giveUpMs !== undefined && Date.now() - stall.since >= opts.giveUpMs) throw new FollowStalled(stall);
        log?.warn({ what, attempt, err: (err as Error).message }, `waiting for ${what}: every liteserver failed, retrying`);
        let pause = Math.min(retryMs * 2 ** Math.min(attempt, 4), 30_000);
        if (opts.giveUpMs !== undefined) pause = Math.max(0, Math.min(pause, stall.since + opts.giveUpMs - Date.now()));
        await sleep(pause, opts.signal);
      }
    }
  };

  // One shared tip poll, however many prefetched steps wait for the network.
  let tipPoll: Promise<void> | null = null;
  const pollTip = (seqno: number): Promise<void> => {
    tipPoll ??= (async () => {
      const before = tip;
      const t = await persist('the masterchain tip', seqno, () => source.getMasterchainTip());
      tip = Math.max(tip, t.seqno);
      opts.onTip?.(tip);
      if (tip === before) await sleep(pollMs, opts.signal);
    })().finally(() => {
      tipPoll = null;
    });
    return tipPoll;
  };
  const waitForTip = async (seqno: number): Promise<void> => {
    while (tip < seqno) {
      if (opts.signal?.aborted) throw new FollowAborted('aborted');
      await pollTip(seqno);
    }
  };

  const mcBlocks = new Map<number, Promise<VerifiedBlock>>();
  const fetchMc = (seqno: number): Promise<VerifiedBlock> => {
    let p = mcBlocks.get(seqno);
    if (!p) {
      p = (async () => {
        await waitForTip(seqno);
        const id = await persist(`masterchain block ${seqno} id`, seqno, () => source.lookupMasterchainBlock(seqno));
        return persist(`masterchain block ${seqno}`, seqno, () => source.getBlock(id));
      })();
      // Never leave a rejection unobserved: the consumer awaits it in order.
      p.catch(() => undefined);
      mcBlocks.set(seqno, p);
    }
    return p;
  };
  const fetchShard = (seqno: number) => (id: BlockIdExt) => persist(`shard block ${refKey(id)}`, seqno, () => source.getBlock(id));

  const steps = new Map<number, Promise<McStep>>();
  const startStep = (seqno: number) => {
    const p = (async () => {
      const prev = seqno > 1 ? await fetchMc(seqno - 1) : null;
      const mc = await fetchMc(seqno);
      return followStep(prev, mc, fetchShard(seqno));
    })();
    p.catch(() => undefined);
    steps.set(seqno, p);
  };

  const until = opts.untilSeqno ?? Infinity;
  let next = opts.fromSeqno;
  let ahead = opts.fromSeqno;
  while (next <= until) {
    while (ahead <= until && ahead < next + prefetch) startStep(ahead++);
    const step = await steps.get(next)!;
    steps.delete(next);
    mcBlocks.delete(next - 1);
    stalls.passed(next);
    yield step;
    next++;
  }
}
