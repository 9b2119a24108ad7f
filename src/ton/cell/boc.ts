/**
 * Bag-of-cells parser and cell hashing over flat typed arrays: a cell is an index into a `Cells` arena,
 * its data stays in the BoC buffer (zero copy). Hashes and depths of every level are computed bottom-up,
 * once, for ordinary and exotic cells (pruned branch, library, Merkle proof, Merkle update), following
 * `crypto/vm/cells/DataCell.cpp` (ton-blockchain/ton) / ton-core `wonderCalculator`.
 *
 * BoC layout (crypto/tl/boc.tlb):
 * serialized_boc#b5ee9c72 has_idx:(## 1) has_crc32c:(## 1) has_cache_bits:(## 1) flags:(## 2) { flags = 0 }
 *   size:(## 3) { size <= 4 } off_bytes:(## 8) { off_bytes <= 8 } cells:(##(size * 8)) roots:(##(size * 8))
 *   absent:(##(size * 8)) tot_cells_size:(##(off_bytes * 8)) root_list:(roots * ##(size * 8))
 *   index:has_idx?(cells * ##(off_bytes * 8)) cell_data:(tot_cells_size * [ uint8 ]) crc32c:has_crc32c?uint32
 */
import { DecodeError } from '../errors.ts';
import { sha256Input, sha256Scratch } from './sha256.ts';

export const CELL_ORDINARY = 0;
export const CELL_PRUNED = 1;
export const CELL_LIBRARY = 2;
export const CELL_MERKLE_PROOF = 3;
export const CELL_MERKLE_UPDATE = 4;

function popcount3(m: number): number {
  return (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1);
}

/** Parsed BoC: cell i has data at buf[dataOff[i] .. +ceil(bits/8)), refs refs[4i .. 4i+refCount[i]). */
export class Cells {
  readonly buf: Buffer;
  readonly count: number;
  readonly roots: number[];
  readonly dataOff: Int32Array;
  readonly bits: Uint16Array;
  readonly refCount: Uint8Array;
  readonly refs: Int32Array;
  /** 0 ordinary, else CELL_* exotic type */
  readonly type: Uint8Array;
  readonly levelMask: Uint8Array;
  /** 4 hash slots of 32 bytes per cell, slot j = hash index j (0 .. popcount(mask)) */
  readonly hashes: Buffer;
  /** 4 depth slots per cell */
  readonly depths: Uint16Array;

  /** `hashed` false: a structure-only parse, `hashes` / `depths` are empty */
  constructor(buf: Buffer, count: number, roots: number[], hashed = true) {
    this.buf = buf;
    this.count = count;
    this.roots = roots;
    this.dataOff = new Int32Array(count);
    this.bits = new Uint16Array(count);
    this.refCount = new Uint8Array(count);
    this.refs = new Int32Array(count * 4);
    this.type = new Uint8Array(count);
    this.levelMask = new Uint8Array(count);
    this.hashes = Buffer.allocUnsafe(hashed ? count * 128 : 0);
    this.depths = new Uint16Array(hashed ? count * 4 : 0);
  }

  /** Hash index used for level `level` (0..3) of cell `c`. */
  hashIndex(c: number, level: number): number {
    return popcount3(this.levelMask[c] & ((1 << level) - 1));
  }

  /** Byte offset in `hashes` of the hash of cell `c` at `level` (3 = representation hash). */
  hashOff(c: number, level = 3): number {
    return c * 128 + this.hashIndex(c, level) * 32;
  }

  /** Representation hash (lower-case hex). */
  hashHex(c: number): string {
    const o = this.hashOff(c, 3);
    return this.hashes.toString('hex', o, o + 32);
  }

  /** Level-0 hash (lower-case hex): the hash of the original cell even where this copy has pruned branches. */
  hash0Hex(c: number): string {
    const o = c * 128;
    return this.hashes.toString('hex', o, o + 32);
  }

  depth(c: number, level = 3): number {
    return this.depths[c * 4 + this.hashIndex(c, level)];
  }

  /** Number of data bytes of the cell (with the completion tag byte when bits % 8 != 0). */
  dataLen(c: number): number {
    return (this.bits[c] + 7) >> 3;
  }
}

function readBE(buf: Buffer, off: number, n: number): number {
  let v = 0;
  for (let i = 0; i < n; i++) v = v * 256 + buf[off + i];
  return v;
}

/**
 * Parse a BoC (any root count) and hash every cell. Throws DecodeError on malformed input.
 * `hash: false` reads the structure only (data offsets, bits, refs, exotic types) for callers that never
 * read a hash: hashing is most of the cost.
 */
export function parseBoc(input: Uint8Array, opts: { hash?: boolean } = {}): Cells {
  const buf = Buffer.isBuffer(input) ? input : Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  if (buf.length < 6) throw new DecodeError(`not a BoC: ${buf.length} bytes is too short`);
  const magic = buf.readUInt32BE(0);
  let hasIdx: boolean;
  let hasCrc: boolean;
  let size: number;
  let p = 4;
  if (magic === 0xb5ee9c72) {
    const b = buf[p++];
    hasIdx = (b & 0x80) !== 0;
    hasCrc = (b & 0x40) !== 0;
    size = b & 7;
  } else if (magic === 0x68ff65f3 || magic === 0xacc3a728) {
    hasIdx = true;
    hasCrc = magic === 0xacc3a728;
    size = buf[p++];
  } else {
    throw new DecodeError(`not a BoC: bad magic 0x${magic.toString(16).padStart(8, '0')}`);
  }
  if (size < 1 || size > 4) throw new DecodeError(`not a BoC: bad ref size ${size}`);
  const offBytes = buf[p++];
  if (offBytes < 1 || offBytes > 8) throw new DecodeError(`not a BoC: bad offset size ${offBytes}`);
  const headerEnd = p + 3 * size + offBytes;
  if (buf.length < headerEnd) throw new DecodeError('not a BoC: truncated header');
  const count = readBE(buf, p, size);
  p += size;
  const rootCount = readBE(buf, p, size);
  p += size;
  p += size; // absent
  const totSize = readBE(buf, p, offBytes);
  p += offBytes;
  if (count === 0 || rootCount === 0 || rootCount > count) throw new DecodeError(`not a BoC: ${count} cells, ${rootCount} roots`);
  const roots: number[] = [];
  if (magic === 0xb5ee9c72) {
    for (let i = 0; i < rootCount; i++, p += size) roots.push(readBE(buf, p, size));
  } else {
    roots.push(0);
  }
  if (hasIdx) p += count * offBytes;
  const dataStart = p;
  if (buf.length < dataStart + totSize + (hasCrc ? 4 : 0)) throw new DecodeError(`truncated BoC: ${buf.length} bytes, needs ${dataStart + totSize + (hasCrc ? 4 : 0)}`);
  const end = dataStart + totSize;
  const cells = new Cells(buf, count, roots, opts.hash !== false);
  for (let i = 0; i < count; i++) {
    if (p + 2 > end) throw new DecodeError(`truncated BoC: cell ${i} of ${count} starts past the data`);
    const d1 = buf[p];
    const d2 = buf[p + 1];
    p += 2;
    const nrefs = d1 & 7;
    const exotic = (d1 & 8) !== 0;
    if (nrefs > 4) throw new DecodeError(`bad BoC: cell ${i} has ${nrefs} refs`);
    // with_hashes: the serializer stored hashes+depths of every level before the data; we recompute them
    if (d1 & 16) p += (popcount3(d1 >> 5) + 1) * 34;
    const dlen = (d2 + 1) >> 1;
    let bits = (d2 >> 1) * 8;
    if (d2 & 1) {
      const last = buf[p + dlen - 1];
      if (last === 0) throw new DecodeError(`bad BoC: cell ${i} has no completion tag`);
      // the lowest set bit of the last byte is the completion tag
      bits = (d2 >> 1) * 8 + (7 - ctz8(last));
    }
    cells.dataOff[i] = p;
    cells.bits[i] = bits;
    p += dlen;
    cells.refCount[i] = nrefs;
    for (let r = 0; r < nrefs; r++) {
      const ref = readBE(buf, p, size);
      p += size;
      if (ref <= i || ref >= count) throw new DecodeError(`bad BoC: cell ${i} refers to cell ${ref}`);
      cells.refs[i * 4 + r] = ref;
    }
    if (exotic) {
      if (bits < 8) throw new DecodeError(`bad BoC: exotic cell ${i} has no type byte`);
      const t = buf[cells.dataOff[i]];
      if (t < 1 || t > 4) throw new DecodeError(`bad BoC: exotic cell ${i} has unknown type ${t}`);
      cells.type[i] = t;
    }
  }
  if (p > end) throw new DecodeError('bad BoC: cell data overruns tot_cells_size');
  if (opts.hash !== false) for (let i = count - 1; i >= 0; i--) hashCell(cells, i);
  return cells;
}

function ctz8(b: number): number {
  let n = 0;
  while ((b & 1) === 0) {
    b >>= 1;
    n++;
  }
  return n;
}

/** Compute level mask, hashes and depths of cell `i` (its refs must be done). */
function hashCell(cells: Cells, i: number): void {
  const { buf, refs, levelMask, depths, hashes } = cells;
  const t = cells.type[i];
  const nrefs = cells.refCount[i];
  const off = cells.dataOff[i];
  const bits = cells.bits[i];
  const dlen = (bits + 7) >> 3;
  let mask = 0;
  const base = i * 4;
  switch (t) {
    case CELL_ORDINARY:
      for (let r = 0; r < nrefs; r++) mask |= levelMask[refs[base + r]];
      break;
    case CELL_PRUNED:
      if (nrefs !== 0) throw new DecodeError(`bad BoC: pruned branch cell ${i} has refs`);
      // legacy 280-bit form (type, hash, depth; no level byte) seen in old config proofs: level mask 1
      mask = bits === 280 ? 1 : buf[off + 1];
      if (mask === 0 || mask > 7) throw new DecodeError(`bad BoC: pruned branch cell ${i} has level mask ${mask}`);
      if (bits !== 280 && bits !== 16 + popcount3(mask) * (256 + 16)) throw new DecodeError(`bad BoC: pruned branch cell ${i} has ${bits} bits`);
      break;
    case CELL_LIBRARY:
      if (bits !== 8 + 256 || nrefs !== 0) throw new DecodeError(`bad BoC: library cell ${i} is malformed`);
      break;
    case CELL_MERKLE_PROOF:
      if (nrefs !== 1 || bits !== 8 + 256 + 16) throw new DecodeError(`bad BoC: Merkle proof cell ${i} is malformed`);
      mask = levelMask[refs[base]] >> 1;
      break;
    case CELL_MERKLE_UPDATE:
      if (nrefs !== 2 || bits !== 8 + 512 + 32) throw new DecodeError(`bad BoC: Merkle update cell ${i} is malformed`);
      mask = (levelMask[refs[base]] | levelMask[refs[base + 1]]) >> 1;
      break;
  }
  levelMask[i] = mask;
  const merkle = t === CELL_MERKLE_PROOF || t === CELL_MERKLE_UPDATE;
  const totalHashes = popcount3(mask) + 1;
  const hashOffset = t === CELL_PRUNED ? totalHashes - 1 : 0;
  const m = sha256Input;
  let hashI = 0;
  for (let level = 0; level <= 3; level++) {
    if (level > 0 && (mask & (1 << (level - 1))) === 0) continue;
    if (hashI < hashOffset) {
      hashI++;
      continue;
    }
    const applied = mask & ((1 << level) - 1);
    m[0] = nrefs + (t !== CELL_ORDINARY ? 8 : 0) + applied * 32;
    m[1] = (bits >> 3) + ((bits + 7) >> 3);
    let len = 2;
    // small copies by hand: Buffer.copy's native call costs more than the bytes here
    if (hashI === hashOffset) {
      for (let k = 0; k < dlen; k++) m[2 + k] = buf[off + k];
      len += dlen;
    } else {
      const src = i * 128 + (hashI - hashOffset - 1) * 32;
      for (let k = 0; k < 32; k++) m[2 + k] = hashes[src + k];
      len += 32;
    }
    const childLevel = merkle ? (level < 3 ? level + 1 : 3) : level;
    let depth = 0;
    for (let r = 0; r < nrefs; r++) {
      const c = refs[base + r];
      const cd = depths[c * 4 + popcount3(levelMask[c] & ((1 << childLevel) - 1))];
      m[len++] = cd >> 8;
      m[len++] = cd & 255;
      if (cd + 1 > depth) depth = cd + 1;
    }
    for (let r = 0; r < nrefs; r++) {
      const c = refs[base + r];
      const ho = c * 128 + popcount3(levelMask[c] & ((1 << childLevel) - 1)) * 32;
      for (let k = 0; k < 32; k++) m[len + k] = hashes[ho + k];
      len += 32;
    }
    const dest = hashI - hashOffset;
    sha256Scratch(len, hashes, i * 128 + (t === CELL_PRUNED ? totalHashes - 1 : dest) * 32);
    depths[base + (t === CELL_PRUNED ? totalHashes - 1 : dest)] = depth;
    hashI++;
  }
  if (t === CELL_PRUNED) {
    // lower hashes and depths are stored in the pruned cell itself
    const skip = bits === 280 ? 1 : 2;
    for (let j = 0; j < totalHashes - 1; j++) {
      buf.copy(hashes, i * 128 + j * 32, off + skip + j * 32, off + skip + (j + 1) * 32);
      const dp = off + skip + (totalHashes - 1) * 32 + j * 2;
      depths[base + j] = (buf[dp] << 8) | buf[dp + 1];
    }
  }
}
