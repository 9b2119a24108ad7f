/** Small shared TL-B writers (crypto/block/block.tlb, ton-blockchain/ton); ExtBlkRef, ShardIdent, GlobalVersion and BlockInfo are src/ton's. */
import type { Builder } from '@ton/core';
import type { BlockRefFull, ExtBlkRef } from '../../ton/index.ts';
import { formatShardHex, shardPrefixLength } from '../../format/index.ts';
import type { AugKind } from './hashmap-aug.ts';

/**
 * currencies$_ grams:Grams other:ExtraCurrencyCollection = CurrencyCollection;
 * (devnet chains carry no extra currencies: `other` is always the empty dict.)
 */
export function storeCurrencyCollection(b: Builder, grams: bigint): void {
  b.storeCoins(grams).storeBit(0);
}

/** CurrencyCollection as a HashmapAug augmentation (sum of grams). */
export const currencyAug: AugKind<bigint> = {
  store: (b, v) => storeCurrencyCollection(b, v),
  add: (a, b) => a + b,
  zero: 0n,
};

/** Number of prefix bits of a shard id (position of its lowest set bit). */
export function shardPrefixBits(shard: bigint): number {
  if (BigInt.asUintN(64, shard) === 0n) throw new Error('shard id 0 is invalid');
  return shardPrefixLength(shard);
}

/** Identity of a block as the chain refers to it. */
export interface BlockRef {
  workchain: number;
  shard: bigint;
  seqno: number;
  rootHash: Buffer;
  fileHash: Buffer;
  startLt: bigint;
  endLt: bigint;
}

/** The chain's reference to a block (ExtBlkRef, src/ton's type and writer). */
export function extRef(r: BlockRef): ExtBlkRef {
  return { end_lt: r.endLt, seqno: r.seqno, root_hash: r.rootHash.toString('hex'), file_hash: r.fileHash.toString('hex') };
}

/** `r` as a BlockInfo's master_ref / prev_ref (src/ton's BlockRefFull; the writer stores only its ExtBlkRef part). */
export function fullRef(r: BlockRef): BlockRefFull {
  return { workchain: r.workchain, shard: formatShardHex(r.shard), ...extRef(r) };
}

/** Shard id as the 16 lower-case hex digits used in file names and chain.json. */
export function shardHex(shard: bigint): string {
  return BigInt.asUintN(64, shard).toString(16).padStart(16, '0');
}

/** Does account `addr` (256-bit) belong to shard `shard`? */
export function inShard(addr: bigint, shard: bigint): boolean {
  const bits = shardPrefixBits(shard);
  if (bits === 0) return true;
  const prefix = shard >> BigInt(64 - bits);
  return addr >> BigInt(256 - bits) === prefix;
}

export { shardChildren, shardParent } from '../../format/index.ts';
