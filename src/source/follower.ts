/**
 * Follows the masterchain from a start seqno to an end seqno (or forever), yielding one McStep per
 * masterchain block, in order, each verified (hashes, prev link) and carrying every shard block it commits.
 * Several steps are fetched ahead concurrently; a block that cannot be fetched is waited for (and logged),
 * never skipped.
 */
import type { Logger } from 'pino';
import type { BlockIdExt } from './block-id.ts';
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
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(t);
      resolve();
    });
  });

export class FollowAborted extends Error {
  override name = 'FollowAborted';
}

export async function* followMasterchain(source: BlockSource, opts: FollowOptions): AsyncGenerator<McStep> {
  const prefetch = Math.max(1, opts.prefetch ?? 8);
  const pollMs = opts.pollMs ?? 1_000;
  const retryMs = opts.retryMs ?? 2_000;
  const log = opts.logger;
  let tip = 0;

  /** Retries `fn` until it succeeds (or the follower is aborted), saying what it waits for. */
  const persist = async <T>(what: string, fn: () => Promise<T>): Promise<T> => {
    for (let attempt = 0; ; attempt++) {
      if (opts.signal?.aborted) throw new FollowAborted('aborted');
      try {
        return await fn();
      } catch (err) {
        if (err instanceof ChainLinkError) throw err;
        log?.warn({ what, attempt, err: (err as Error).message }, `waiting for ${what}: every liteserver failed, retrying`);
        await sleep(Math.min(retryMs * 2 ** Math.min(attempt, 4), 30_000), opts.signal);
      }
    }
  };

  // One shared tip poll, however many prefetched steps wait for the network.
  let tipPoll: Promise<void> | null = null;
  const pollTip = (): Promise<void> => {
    tipPoll ??= (async () => {
      const before = tip;
      const t = await persist('the masterchain tip', () => source.getMasterchainTip());
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
      await pollTip();
    }
  };

  const mcBlocks = new Map<number, Promise<VerifiedBlock>>();
  const fetchMc = (seqno: number): Promise<VerifiedBlock> => {
    let p = mcBlocks.get(seqno);
    if (!p) {
      p = (async () => {
        await waitForTip(seqno);
        const id = await persist(`masterchain block ${seqno} id`, () => source.lookupMasterchainBlock(seqno));
        return persist(`masterchain block ${seqno}`, () => source.getBlock(id));
      })();
      // Never leave a rejection unobserved: the consumer awaits it in order.
      p.catch(() => undefined);
      mcBlocks.set(seqno, p);
    }
    return p;
  };
  const fetchShard = (id: BlockIdExt) => persist(`shard block ${id.workchain}:${id.shard.toString(16)}:${id.seqno}`, () => source.getBlock(id));

  const steps = new Map<number, Promise<McStep>>();
  const startStep = (seqno: number) => {
    const p = (async () => {
      const prev = seqno > 1 ? await fetchMc(seqno - 1) : null;
      const mc = await fetchMc(seqno);
      return followStep(prev, mc, fetchShard);
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
    yield step;
    next++;
  }
}
