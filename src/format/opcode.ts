/** Message opcodes: parsed to a signed int32 (as API v3 stores them), rendered as `0x%08x`. */

export class OpcodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OpcodeError';
  }
}

function toSigned32(n: bigint): number {
  return Number(BigInt.asIntN(32, n));
}

/**
 * API v3 rules: `0x…` is hex; without a prefix hex is tried first (so `"10"` = 0x10), then signed
 * 32-bit decimal (e.g. `-1`). Range-checked to 32 bits. Returns a signed int32.
 */
export function parseOpcode(input: string | number): number {
  if (typeof input === 'number') {
    if (!Number.isInteger(input) || input < -0x80000000 || input > 0xffffffff) throw new OpcodeError(`invalid opcode ${input}: out of 32-bit range`);
    return toSigned32(BigInt(input));
  }
  const s = String(input).trim();
  const hex = /^(?:0[xX])?([0-9a-fA-F]{1,8})$/.exec(s);
  if (hex) return toSigned32(BigInt('0x' + hex[1]));
  if (/^-\d{1,10}$/.test(s)) {
    const v = BigInt(s);
    if (v >= -0x80000000n) return Number(v);
  }
  throw new OpcodeError(`invalid opcode ${JSON.stringify(s.slice(0, 40))}: expected 0x-prefixed hex or a 32-bit integer`);
}

/** `0x0f8a7ea5`: lower-case, 8 digits, the signed value reinterpreted as uint32. */
export function formatOpcode(op: number | bigint): string {
  const u = BigInt.asUintN(32, BigInt(op));
  return '0x' + u.toString(16).padStart(8, '0');
}
