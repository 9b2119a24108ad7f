/**
 * Shard ids: bigint in code (signed int64, as liteservers use), several text forms at the edges; and the
 * arithmetic of shard ids, on their unsigned 64-bit form (the prefix bits, then one 1 bit marking the length).
 */

export class ShardError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ShardError';
  }
}

/**
 * Accepts signed int64 decimal (`-9223372036854775808`), unsigned decimal, or hex with or without `0x`
 * (exactly 16 hex digits without prefix, e.g. `8000000000000000`). Returns the signed int64.
 */
export function parseShard(input: string | number | bigint): bigint {
  if (typeof input === 'bigint') return BigInt.asIntN(64, input);
  if (typeof input === 'number') {
    if (!Number.isSafeInteger(input)) throw new ShardError(`invalid shard ${input}: pass large shard ids as strings`);
    return BigInt.asIntN(64, BigInt(input));
  }
  const s = String(input).trim();
  let v: bigint;
  if (/^0[xX][0-9a-fA-F]{1,16}$/.test(s)) v = BigInt(s);
  // Exactly 16 hex digits is the unsigned hex form (`8000000000000000`); a decimal shard of 16 digits
  // would mean a shard depth of 11+ bits, which the chain does not use.
  else if (/^[0-9a-fA-F]{16}$/.test(s)) v = BigInt('0x' + s);
  else if (/^-?\d{1,20}$/.test(s)) v = BigInt(s);
  else throw new ShardError(`invalid shard ${JSON.stringify(s.slice(0, 40))}: expected a signed 64-bit integer or 16 hex digits`);
  if (v < -(1n << 63n) || v >= 1n << 64n) throw new ShardError(`invalid shard ${s}: out of 64-bit range`);
  return BigInt.asIntN(64, v);
}

/** Signed decimal string (API v2 `shard`, e.g. `-9223372036854775808`). */
export function formatShardSigned(shard: bigint): string {
  return BigInt.asIntN(64, shard).toString();
}

/** Unsigned upper-case hex without prefix, 16 digits (API v3, e.g. `8000000000000000`). */
export function formatShardHex(shard: bigint): string {
  return BigInt.asUintN(64, shard).toString(16).toUpperCase().padStart(16, '0');
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

/** The left (`right` false) or right child. */
export function shardChild(shard: bigint, right: boolean): bigint {
  return shardChildren(shard)[right ? 1 : 0];
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
