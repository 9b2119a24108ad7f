/**
 * Block ids as the liteserver protocol names them (tonNode.blockIdExt), with the shard as an unsigned
 * 64-bit bigint and hashes as lower-case hex. JSON form (bus messages): shard as 16 upper-case hex digits,
 * as API v3 renders it.
 */
export interface BlockRef {
  workchain: number;
  /** Unsigned 64-bit shard id, e.g. 0x8000000000000000n for the whole workchain. */
  shard: bigint;
  seqno: number;
}

export interface BlockIdExt extends BlockRef {
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
export function refKey(id: BlockRef): string {
  return `${id.workchain}:${shardHex(id.shard)}:${id.seqno}`;
}

export function sameRef(a: BlockRef, b: BlockRef): boolean {
  return a.workchain === b.workchain && a.shard === b.shard && a.seqno === b.seqno;
}

export function sameId(a: BlockIdExt, b: BlockIdExt): boolean {
  return sameRef(a, b) && a.rootHash === b.rootHash && a.fileHash === b.fileHash;
}

/** Lowest set bit of a shard id: the shard's size marker. */
function lowBit(shard: bigint): bigint {
  return shard & -shard;
}

/** Parent shard (one prefix bit shorter). */
export function shardParent(shard: bigint): bigint {
  const x = lowBit(shard);
  return BigInt.asUintN(64, (shard - x) | (x << 1n));
}

/** Left and right children (one prefix bit longer). */
export function shardChildren(shard: bigint): [bigint, bigint] {
  const x = lowBit(shard) >> 1n;
  return [shard - x, shard + x];
}

/** Prefix length in bits (0 for the whole workchain). */
export function shardPrefixLength(shard: bigint): number {
  let len = 63;
  let s = shard;
  while ((s & 1n) === 0n && len > 0) {
    s >>= 1n;
    len--;
  }
  return len;
}

/** True when the two shards overlap (one is an ancestor of the other, or they are equal). */
export function shardsIntersect(a: bigint, b: bigint): boolean {
  const x = lowBit(a);
  const y = lowBit(b);
  const z = x > y ? x : y;
  const mask = BigInt.asUintN(64, -(z << 1n));
  return (a & mask) === (b & mask);
}
