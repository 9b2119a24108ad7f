/**
 * Block ids as the liteserver protocol names them (tonNode.blockIdExt), with the shard as an unsigned
 * 64-bit bigint and hashes as lower-case hex. JSON form (bus messages): shard as 16 upper-case hex digits,
 * as API v3 renders it.
 */
import type { BlockRef } from '../ton/index.ts';

/** tonNode.blockIdExt: the short id (shard: unsigned 64-bit, e.g. 0x8000000000000000n for the whole workchain) and the hashes. */
export interface BlockIdExt extends BlockRef<bigint> {
  rootHash: string;
  fileHash: string;
}

export const MASTER_SHARD = 0x8000000000000000n;

/** Unsigned shard id -> signed int64 (what TL `long` and toncenter's decimal form carry). */
export function shardToSigned(shard: bigint): bigint {
  return BigInt.asIntN(64, shard);
}

/** Signed or unsigned int64 (bigint or decimal string) -> unsigned shard id. */
export function shardFromSigned(shard: bigint | string): bigint {
  return BigInt.asUintN(64, BigInt(shard));
}

export function shardHex(shard: bigint): string {
  return shard.toString(16).toUpperCase().padStart(16, '0');
}

export function shardFromHex(hex: string): bigint {
  if (!/^[0-9a-fA-F]{1,16}$/.test(hex)) throw new Error(`invalid shard "${hex}": expected up to 16 hex digits`);
  return BigInt('0x' + hex);
}

/** "wc:SHARDHEX:seqno", the usual short form in logs and keys. */
export function refKey(id: BlockRef<bigint>): string {
  return `${id.workchain}:${shardHex(id.shard)}:${id.seqno}`;
}

export function sameRef(a: BlockRef<bigint>, b: BlockRef<bigint>): boolean {
  return a.workchain === b.workchain && a.shard === b.shard && a.seqno === b.seqno;
}

export function sameId(a: BlockIdExt, b: BlockIdExt): boolean {
  return sameRef(a, b) && a.rootHash === b.rootHash && a.fileHash === b.fileHash;
}

export { shardChildren, shardParent, shardPrefixLength, shardsIntersect } from '../format/index.ts';
