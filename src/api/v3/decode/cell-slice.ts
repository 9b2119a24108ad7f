/**
 * A read cursor over one cell with the semantics of the TON node's `vm::CellSlice` that the reference's
 * TL-B printers rely on: reads that run past the end fail (return null / false) without moving the cursor,
 * `fetch_ulong` past the end yields all ones, exotic cells are read as their raw data. Reads go straight
 * to the cell's bytes (cached per cell).
 */
import { beginCell, type BitString, type Cell } from '@ton/core';

const ULONG_EOF = (1n << 64n) - 1n;
const dataCache = new WeakMap<Cell, Uint8Array>();

/** The cell's data bits as bytes (last byte zero-padded). */
export function cellBytes(cell: Cell): Uint8Array {
  let b = dataCache.get(cell);
  if (b) return b;
  const bits = cell.bits;
  const n = bits.length;
  const whole = n - (n % 8);
  const out = new Uint8Array(Math.ceil(n / 8));
  if (whole) out.set(bits.subbuffer(0, whole)!);
  for (let i = whole; i < n; i++) if (bits.at(i)) out[i >> 3] |= 0x80 >> (i & 7);
  dataCache.set(cell, out);
  b = out;
  return b;
}

/** Bits [pos, pos + len) of `data` as a number (len <= 48). */
function readNum(data: Uint8Array, pos: number, len: number): number {
  let v = 0;
  let p = pos;
  let left = len;
  while (left > 0) {
    const byte = data[p >> 3];
    const off = p & 7;
    const take = Math.min(8 - off, left);
    const chunk = (byte >> (8 - off - take)) & ((1 << take) - 1);
    v = v * (1 << take) + chunk;
    p += take;
    left -= take;
  }
  return v;
}

function readBig(data: Uint8Array, pos: number, len: number): bigint {
  let v = 0n;
  let p = pos;
  let left = len;
  while (left > 0) {
    const take = Math.min(left, 48);
    v = (v << BigInt(take)) | BigInt(readNum(data, p, take));
    p += take;
    left -= take;
  }
  return v;
}

export class CellSlice {
  readonly cell: Cell;
  private readonly data: Uint8Array;
  pos: number;
  readonly end: number;
  refPos: number;

  constructor(cell: Cell, pos = 0, refPos = 0, data?: Uint8Array) {
    this.cell = cell;
    this.data = data ?? cellBytes(cell);
    this.pos = pos;
    this.end = cell.bits.length;
    this.refPos = refPos;
  }

  clone(): CellSlice {
    return new CellSlice(this.cell, this.pos, this.refPos, this.data);
  }

  size(): number {
    return this.end - this.pos;
  }

  sizeRefs(): number {
    return this.cell.refs.length - this.refPos;
  }

  have(bits: number): boolean {
    return bits >= 0 && bits <= this.size();
  }

  emptyExt(): boolean {
    return this.size() === 0 && this.sizeRefs() === 0;
  }

  /** Unsigned value of `bits` bits starting `offset` bits ahead, as a number (bits <= 48); null past the end. */
  prefetchNum(bits: number, offset = 0): number | null {
    if (bits < 0 || offset < 0 || offset + bits > this.size()) return null;
    return readNum(this.data, this.pos + offset, bits);
  }

  /** Unsigned value of the next `bits` bits; null when fewer bits remain. */
  prefetchUint(bits: number, offset = 0): bigint | null {
    if (bits < 0 || offset < 0 || offset + bits > this.size()) return null;
    return readBig(this.data, this.pos + offset, bits);
  }

  fetchUint(bits: number): bigint | null {
    const v = this.prefetchUint(bits);
    if (v !== null) this.pos += bits;
    return v;
  }

  fetchInt(bits: number): bigint | null {
    const v = this.fetchUint(bits);
    if (v === null || bits === 0) return v;
    return v >= 1n << BigInt(bits - 1) ? v - (1n << BigInt(bits)) : v;
  }

  /** `CellSlice::fetch_ulong`: all ones when the bits are not there (callers that do not check see "true"). */
  fetchUlong(bits: number): bigint {
    if (bits > 64) return ULONG_EOF;
    return this.fetchUint(bits) ?? ULONG_EOF;
  }

  /** `bits` bits as upper-case hex (td's to_hex, see bitsToHex); null past the end. */
  fetchHex(bits: number): string | null {
    if (!this.have(bits)) return null;
    const s = hexOf(this.data, this.pos, bits);
    this.pos += bits;
    return s;
  }

  advance(bits: number): boolean {
    if (!this.have(bits)) return false;
    this.pos += bits;
    return true;
  }

  /** Next ref, or null when none is left (the node returns a null Ref there, it does not throw). */
  fetchRef(): Cell | null {
    if (this.sizeRefs() <= 0) return null;
    return this.cell.refs[this.refPos++];
  }

  prefetchRef(i = 0): Cell | null {
    return this.cell.refs[this.refPos + i] ?? null;
  }

  /** Bits and refs between `from` (an earlier cursor over the same cell) and this cursor (`cut_tail`), as a new ordinary cell. */
  consumedSince(from: CellSlice): Cell {
    // the whole of an ordinary cell is that cell (saves rebuilding and rehashing it)
    if (!from.pos && !from.refPos && this.pos === this.end && this.refPos === this.cell.refs.length && !this.cell.isExotic) return this.cell;
    const b = beginCell().storeBits(this.cell.bits.substring(from.pos, this.pos - from.pos));
    for (let i = from.refPos; i < this.refPos; i++) b.storeRef(this.cell.refs[i]);
    return b.endCell();
  }
}

const HEX = '0123456789ABCDEF';

/** `td::BitSlice::to_hex`: upper-case hex; an incomplete last nibble gets the completion bit and '_'. */
function hexOf(data: Uint8Array, pos: number, n: number): string {
  let out = '';
  let i = 0;
  for (; i + 4 <= n; i += 4) out += HEX[readNum(data, pos + i, 4)];
  const r = n - i;
  if (r > 0) out += HEX[(readNum(data, pos + i, r) << (4 - r)) | (1 << (3 - r))] + '_';
  return out;
}

/** to_hex of a whole bit string (see hexOf). */
export function bitsToHex(b: BitString): string {
  const bytes = Buffer.alloc(Math.ceil(b.length / 8));
  for (let i = 0; i < b.length; i++) if (b.at(i)) bytes[i >> 3] |= 0x80 >> (i & 7);
  return hexOf(bytes, 0, b.length);
}
