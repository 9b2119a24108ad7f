/** How the generator refers to the blocks it produced, and the shard arithmetic it routes accounts with. */
import type { BlockRef, BlockRefFull, ExtBlkRef } from '../../ton/index.ts';
import { formatShardHex, shardPrefixLength } from '../../format/index.ts';

/** A produced block: its short id, hashes and lt range, what later blocks and states refer to it by (`extRef`, `fullRef`). */
export interface ProducedRef extends BlockRef<bigint> {
  rootHash: Buffer;
  fileHash: Buffer;
  startLt: bigint;
  endLt: bigint;
}

/** The chain's reference to a block (src/ton's ExtBlkRef). */
export function extRef(r: ProducedRef): ExtBlkRef {
  return { end_lt: r.endLt, seqno: r.seqno, root_hash: r.rootHash.toString('hex'), file_hash: r.fileHash.toString('hex') };
}

/** `r` as a BlockInfo's master_ref / prev_ref (src/ton's BlockRefFull; the writer stores only its ExtBlkRef part). */
export function fullRef(r: ProducedRef): BlockRefFull {
  return { workchain: r.workchain, shard: formatShardHex(r.shard), ...extRef(r) };
}

/** Number of prefix bits of a shard id (position of its lowest set bit). */
export function shardPrefixBits(shard: bigint): number {
  if (BigInt.asUintN(64, shard) === 0n) throw new Error('shard id 0 is invalid');
  return shardPrefixLength(shard);
}

/** Does account `addr` (256-bit) belong to shard `shard`? */
export function inShard(addr: bigint, shard: bigint): boolean {
  const bits = shardPrefixBits(shard);
  if (bits === 0) return true;
  const prefix = shard >> BigInt(64 - bits);
  return addr >> BigInt(256 - bits) === prefix;
}
