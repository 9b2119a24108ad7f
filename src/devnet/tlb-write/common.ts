/** Small shared TL-B writers (crypto/block/block.tlb, ton-blockchain/ton). */
import { beginCell, type Builder, type Cell } from '@ton/core';
import { shardPrefixLength } from '../../format/shard.ts';
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

/** shard_ident$00 shard_pfx_bits:(#<= 60) workchain_id:int32 shard_prefix:uint64 = ShardIdent; */
export function storeShardIdent(b: Builder, workchain: number, shard: bigint): void {
  const pfxBits = shardPrefixBits(shard);
  b.storeUint(0, 2).storeUint(pfxBits, 6).storeInt(workchain, 32).storeUint(shard & ~(1n << BigInt(63 - pfxBits)), 64);
}

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

/** ext_blk_ref$_ end_lt:uint64 seq_no:uint32 root_hash:bits256 file_hash:bits256 = ExtBlkRef; */
export function storeExtBlkRef(b: Builder, r: BlockRef): void {
  b.storeUint(r.endLt, 64).storeUint(r.seqno, 32).storeBuffer(r.rootHash, 32).storeBuffer(r.fileHash, 32);
}

export function extBlkRefCell(r: BlockRef): Cell {
  const b = beginCell();
  storeExtBlkRef(b, r);
  return b.endCell();
}

/** capabilities#c4 version:uint32 capabilities:uint64 = GlobalVersion; */
export function storeGlobalVersion(b: Builder, version: number, capabilities: bigint): void {
  b.storeUint(0xc4, 8).storeUint(version, 32).storeUint(capabilities, 64);
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

export { shardChildren, shardParent } from '../../format/shard.ts';
