/**
 * Binary keys of the key-value store. Fixed widths where a key is scanned by prefix (hashes 32 bytes, addresses
 * 34, lt and versions 8, tags 4, all big-endian), so the byte order is the order of the values and a prefix never
 * matches a longer key of another value.
 */

const HEX64 = /^[0-9a-fA-F]{64}$/;
const RAW = /^(-?\d{1,3}):([0-9a-fA-F]{64})$/;

/** A 64-character hex hash as its 32 bytes. */
export function hashKey(hex: string): Buffer {
  if (!HEX64.test(hex)) throw new Error(`kv: invalid hash "${hex}"`);
  return Buffer.from(hex, 'hex');
}

/**
 * An address: a raw `wc:HEX` one as 0x01, its workchain (int8) and 32 bytes; anything else (an address the
 * decoder kept as text) as 0x02, its length and its UTF-8 bytes. The marker and the length keep prefixes exact.
 */
export function addrKey(address: string): Buffer {
  const m = RAW.exec(address);
  if (m) {
    const wc = Number(m[1]);
    if (wc >= -128 && wc <= 127) {
      const out = Buffer.allocUnsafe(34);
      out[0] = 1;
      out.writeInt8(wc, 1);
      out.write(m[2], 2, 'hex');
      return out;
    }
  }
  const text = Buffer.from(address, 'utf8');
  if (text.length > 255) throw new Error('kv: address longer than 255 bytes');
  return Buffer.concat([Buffer.from([2, text.length]), text]);
}

/** The address an addrKey encodes, from `key` at `at`; returns it and the offset after it. */
export function readAddr(key: Buffer, at = 0): { address: string; end: number } {
  if (key[at] === 1) return { address: `${key.readInt8(at + 1)}:${key.toString('hex', at + 2, at + 34).toUpperCase()}`, end: at + 34 };
  const len = key[at + 1];
  return { address: key.toString('utf8', at + 2, at + 2 + len), end: at + 2 + len };
}

/** An unsigned 64-bit value (lt, a version) as 8 big-endian bytes. */
export function u64(v: bigint | string | number): Buffer {
  const out = Buffer.allocUnsafe(8);
  out.writeBigUInt64BE(BigInt(v));
  return out;
}

/** An unsigned 32-bit value (a tag: masterchain seqno) as 4 big-endian bytes. */
export function u32(v: number): Buffer {
  const out = Buffer.allocUnsafe(4);
  out.writeUInt32BE(v >>> 0);
  return out;
}

/** `prefix` followed by 0xFF bytes: above every key that starts with it (the end of a reverse scan's range). */
export function prefixEnd(prefix: Buffer, width = 64): Buffer {
  return Buffer.concat([prefix, Buffer.alloc(width, 0xff)]);
}
