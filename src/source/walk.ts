/**
 * Pure chain-walking logic over a `fetchBlock(id)`: given two consecutive masterchain blocks, find every
 * shard block the second one commits (walking prev links from its shard tops back to the first one's tops,
 * across splits and merges). No I/O of its own, so it runs on recorded blocks in tests.
 */
import type { BlockRef } from '../ton/index.ts';
import { refKey, shardsIntersect, type BlockIdExt } from './block-id.ts';
import type { ShardTop, VerifiedBlock } from './block-header.ts';

export type FetchBlock = (id: BlockIdExt) => Promise<VerifiedBlock>;

/** One masterchain block and everything it commits. */
export interface McStep {
  mcSeqno: number;
  mc: VerifiedBlock;
  /** The shard tops this masterchain block registers. */
  shardTops: ShardTop[];
  /** Shard blocks committed by this masterchain block (new since the previous one), prevs before successors. */
  shardBlocks: VerifiedBlock[];
}

export class ChainLinkError extends Error {
  override name = 'ChainLinkError';
}

/** Says which hash of `got` differs from `want`'s, with both values (an equal root hash is not the news). */
export function differs(got: BlockIdExt, want: BlockIdExt): string {
  const parts: string[] = [];
  if (got.rootHash !== want.rootHash) parts.push(`root_hash ${got.rootHash} instead of ${want.rootHash}`);
  if (got.fileHash !== want.fileHash) parts.push(`file_hash ${got.fileHash} instead of ${want.fileHash}`);
  return parts.join(' and ') || 'the same hashes';
}

/** Zero-state tops for the first masterchain block: every workchain starts at seqno 0. */
function isZeroState(id: BlockRef<bigint>): boolean {
  return id.seqno === 0;
}

/**
 * Every shard block between `prevTops` (exclusive) and `newTops` (inclusive).
 * Throws ChainLinkError when the walk passes a previous top without meeting it (a fork, or tops that
 * do not belong to consecutive masterchain blocks) or meets it with other hashes.
 */
export async function walkShardBlocks(prevTops: BlockIdExt[], newTops: BlockIdExt[], fetchBlock: FetchBlock): Promise<VerifiedBlock[]> {
  const stop = new Map(prevTops.map((t) => [refKey(t), t]));
  const seen = new Set<string>();
  const found: VerifiedBlock[] = [];

  const isStop = (id: BlockIdExt): boolean => {
    if (isZeroState(id)) return true;
    const top = stop.get(refKey(id));
    if (top) {
      if (top.rootHash !== id.rootHash || top.fileHash !== id.fileHash) {
        throw new ChainLinkError(`block ${refKey(id)} is referenced with ${differs(id, top)} (the previous masterchain block registered it)`);
      }
      return true;
    }
    for (const t of prevTops) {
      if (t.workchain === id.workchain && shardsIntersect(t.shard, id.shard) && id.seqno <= t.seqno) {
        throw new ChainLinkError(`walking back from the new shard tops passed ${refKey(t)} (registered by the previous masterchain block) without meeting it, at ${refKey(id)}`);
      }
    }
    return false;
  };

  // Each shard chain is walked sequentially (a block names its prev), the shards in parallel.
  const walkFrom = async (start: BlockIdExt): Promise<void> => {
    let frontier: BlockIdExt[] = [start];
    while (frontier.length > 0) {
      const next: BlockIdExt[] = [];
      const todo = frontier.filter((id) => {
        const k = refKey(id);
        if (seen.has(k) || isStop(id)) return false;
        seen.add(k);
        return true;
      });
      const blocks = await Promise.all(todo.map((id) => fetchBlock(id)));
      for (const b of blocks) {
        found.push(b);
        next.push(...b.header.prev);
      }
      frontier = next;
    }
  };
  await Promise.all(newTops.map((t) => walkFrom(t)));
  // Successors always have a higher seqno than their prevs (split: parent+1; merge: max(children)+1).
  found.sort((a, b) => a.id.workchain - b.id.workchain || a.id.seqno - b.id.seqno || (a.id.shard < b.id.shard ? -1 : 1));
  return found;
}

/**
 * One follower step: `mc` is the masterchain block after `prevMc` (null when `mc` is seqno 1, whose prev
 * is the zero state). Verifies the prev link, reads the shard tops and fetches the committed shard blocks.
 */
export async function followStep(prevMc: VerifiedBlock | null, mc: VerifiedBlock, fetchBlock: FetchBlock): Promise<McStep> {
  const prevLink = mc.header.prev[0];
  if (prevMc) {
    if (prevLink.seqno !== prevMc.id.seqno || prevLink.rootHash !== prevMc.id.rootHash || prevLink.fileHash !== prevMc.id.fileHash) {
      const what = prevLink.seqno !== prevMc.id.seqno ? `seqno ${prevLink.seqno}, not ${prevMc.id.seqno}` : differs(prevLink, prevMc.id);
      throw new ChainLinkError(`masterchain block ${mc.id.seqno} names its prev block with ${what}`);
    }
  } else if (prevLink.seqno !== 0) {
    throw new ChainLinkError(`masterchain block ${mc.id.seqno} needs its previous block ${prevLink.seqno} to be walked`);
  }
  const shardTops = mc.shardTops ?? [];
  const prevTops = prevMc ? (prevMc.shardTops ?? []) : [];
  const shardBlocks = await walkShardBlocks(prevTops, shardTops, fetchBlock);
  return { mcSeqno: mc.id.seqno, mc, shardTops, shardBlocks };
}
