/** Shard ids: bigint in code (signed int64, as liteservers use), several text forms at the edges. */

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
