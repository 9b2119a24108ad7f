/**
 * Building small new cells on top of an arena (inline message bodies / StateInits rebuilt as their own cells,
 * the normalized external message of API v3 §7.1) and hashing them; ./std-boc.ts serializes them (and any subtree)
 * as a BoC the way the node does.
 */
import type { Cells } from './boc.ts';
import { sha256Input, sha256Scratch } from './sha256.ts';
import type { Slice } from './slice.ts';

/** A cell not stored in the arena: its data (with completion tag), bit length and refs into the arena. */
export interface NewCell {
  data: Uint8Array;
  bits: number;
  refs: number[];
}

/** Append-only bit writer (max 1023 bits). */
export class BitWriter {
  readonly data = new Uint8Array(128);
  bits = 0;

  writeBit(b: boolean | number): void {
    if (b) this.data[this.bits >> 3] |= 0x80 >> (this.bits & 7);
    else this.data[this.bits >> 3] &= ~(0x80 >> (this.bits & 7));
    this.bits++;
  }

  writeUint(v: number, n: number): void {
    for (let i = n - 1; i >= 0; i--) this.writeBit(Math.floor(v / 2 ** i) & 1);
  }

  /** copy bits [from, to) (absolute bit positions in cells.buf) */
  writeFrom(buf: Uint8Array, from: number, to: number): void {
    for (let p = from; p < to; p++) this.writeBit((buf[p >> 3] >> (7 - (p & 7))) & 1);
  }

  /** data bytes with the completion tag */
  finish(): Uint8Array {
    const len = (this.bits + 7) >> 3;
    const out = this.data.slice(0, len);
    if (this.bits & 7) {
      out[len - 1] &= 0xff << (8 - (this.bits & 7));
      out[len - 1] |= 0x80 >> (this.bits & 7);
    }
    return out;
  }
}

/** The remainder of a slice (bits and refs from the cursor on) as a NewCell. */
export function sliceRemainder(s: Slice): NewCell {
  return sliceRange(s, s.pos, s.end, s.ref, s.refEnd);
}

/** Bits [from, to) and refs [refFrom, refTo) of a slice's cell as a NewCell. */
export function sliceRange(s: Slice, from: number, to: number, refFrom: number, refTo: number): NewCell {
  const w = new BitWriter();
  w.writeFrom(s.cells.buf, from, to);
  const refs: number[] = [];
  for (let r = refFrom; r < refTo; r++) refs.push(s.cells.refs[s.cell * 4 + r]);
  return { data: w.finish(), bits: w.bits, refs };
}

/**
 * Representation hash of an ordinary NewCell whose refs are arena cells (level-0 cells: message bodies and
 * init states never carry pruned branches). `extra` adds refs given directly by hash/depth.
 */
export function hashNewCell(cells: Cells, c: NewCell, extra?: { hash: Uint8Array; depth: number }[]): { hash: Buffer; depth: number } {
  const m = sha256Input;
  const nrefs = c.refs.length + (extra ? extra.length : 0);
  m[0] = nrefs;
  m[1] = (c.bits >> 3) + ((c.bits + 7) >> 3);
  m.set(c.data, 2);
  let len = 2 + c.data.length;
  let depth = 0;
  for (const r of c.refs) {
    const d = cells.depth(r);
    m[len++] = d >> 8;
    m[len++] = d & 255;
    if (d + 1 > depth) depth = d + 1;
  }
  if (extra) {
    for (const e of extra) {
      m[len++] = e.depth >> 8;
      m[len++] = e.depth & 255;
      if (e.depth + 1 > depth) depth = e.depth + 1;
    }
  }
  for (const r of c.refs) {
    const o = cells.hashOff(r);
    cells.hashes.copy(m, len, o, o + 32);
    len += 32;
  }
  if (extra) {
    for (const e of extra) {
      m.set(e.hash, len);
      len += 32;
    }
  }
  const out = Buffer.allocUnsafe(32);
  sha256Scratch(len, out, 0);
  return { hash: out, depth };
}
