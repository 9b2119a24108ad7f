/**
 * The TON node's bag-of-cells serializer as ton-marker calls it (`vm::std_boc_serialize`, crypto/vm/boc.cpp):
 * cells deduplicated by hash, ordered by BagOfCells::import_cells / reorder_cells / revisit (children
 * before parents, weights capped at max_cell_whs = 64), then written root first. Mode 0 (no index, no
 * CRC) is what ton-marker prints for Cell fields; `crc` gives the toncenter storage flavour (`te6cck`),
 * used to check the order against BoCs toncenter itself wrote. Also the strict td::base64 / td::hex
 * decoders and the size checks ton-marker runs before deserializing.
 */
import { Cell, crc32c } from '@ton/core';

const MAX_CELL_WHS = 64;

interface Info {
  cell: Cell;
  refs: number[];
  wt: number;
  newIdx: number;
}

export function stdBocSerialize(root: Cell, opts: { crc?: boolean } = {}): Buffer {
  const byHash = new Map<string, number>();
  let list: Info[] = [];
  const importCell = (c: Cell): number => {
    const key = c.hash().toString('hex');
    const seen = byHash.get(key);
    if (seen !== undefined) return seen;
    const refs: number[] = [];
    let wt = 1;
    for (const r of c.refs) {
      const i = importCell(r);
      refs.push(i);
      wt += list[i].wt;
    }
    byHash.set(key, list.length);
    list.push({ cell: c, refs, wt: Math.min(0xff, wt), newIdx: -1 });
    return list.length - 1;
  };
  let rootIdx = importCell(root);
  const n = list.length;

  // reorder_cells: weights
  for (let i = n - 1; i >= 0; i--) {
    const d = list[i];
    const s = d.refs.length;
    let c = s;
    let sum = MAX_CELL_WHS - 1;
    let mask = 0;
    for (let j = 0; j < s; j++) {
      const dj = list[d.refs[j]];
      const limit = Math.trunc((MAX_CELL_WHS - 1 + j) / s);
      if (dj.wt <= limit) {
        sum -= dj.wt;
        c--;
        mask |= 1 << j;
      }
    }
    if (c) {
      for (let j = 0; j < s; j++) {
        if (!(mask & (1 << j))) {
          const dj = list[d.refs[j]];
          const limit = Math.trunc(sum++ / c);
          if (dj.wt > limit) dj.wt = limit;
        }
      }
    }
  }
  for (let i = 0; i < n; i++) {
    const d = list[i];
    let sum = 1;
    for (const r of d.refs) sum += list[r].wt;
    d.wt = sum <= d.wt ? sum : 0;
  }
  // revisit: force 0 previsit, 1 visit, 2 allocate
  const tmp: Info[] = [];
  const revisit = (idx: number, force: number): number => {
    const d = list[idx];
    if (d.newIdx >= 0) return d.newIdx;
    if (!force) {
      if (d.newIdx !== -1) return d.newIdx;
      for (let j = d.refs.length - 1; j >= 0; j--) revisit(d.refs[j], list[d.refs[j]].wt === 0 ? 1 : 0);
      return (d.newIdx = -2);
    }
    if (force > 1) {
      const i = (d.newIdx = tmp.length);
      tmp.push(d);
      return i;
    }
    if (d.newIdx === -3) return d.newIdx;
    if (d.wt === 0) revisit(idx, 0);
    for (let j = d.refs.length - 1; j >= 0; j--) revisit(d.refs[j], 1);
    for (let j = d.refs.length - 1; j >= 0; j--) d.refs[j] = revisit(d.refs[j], 2);
    return (d.newIdx = -3);
  };
  revisit(rootIdx, 0);
  revisit(rootIdx, 1);
  revisit(rootIdx, 2);
  rootIdx = list[rootIdx].newIdx;
  list = tmp;

  // serialize_to_impl
  let dataBytes = 0;
  let intRefs = 0;
  for (const d of list) {
    dataBytes += 2 + Math.ceil(d.cell.bits.length / 8);
    intRefs += d.refs.length;
  }
  let rs = 0;
  while (n >= 2 ** (rs * 8)) rs++;
  const dataAdj = dataBytes + intRefs * rs;
  let os = 0;
  while (dataAdj >= 2 ** (os * 8)) os++;
  const total = 4 + 1 + 1 + 3 * rs + os + rs + dataAdj + (opts.crc ? 4 : 0);
  const out = Buffer.alloc(total);
  let p = 0;
  const put = (v: number, bytes: number) => {
    for (let i = bytes - 1; i >= 0; i--) out[p++] = Math.floor(v / 2 ** (8 * i)) & 0xff;
  };
  out.writeUInt32BE(0xb5ee9c72, 0);
  p = 4;
  out[p++] = (opts.crc ? 0x40 : 0) | rs;
  out[p++] = os;
  put(n, rs);
  put(1, rs);
  put(0, rs);
  put(dataAdj, os);
  put(n - 1 - rootIdx, rs);
  for (let i = 0; i < n; i++) {
    const d = list[n - 1 - i];
    const c = d.cell;
    const bits = c.bits.length;
    out[p++] = d.refs.length + (c.isExotic ? 8 : 0) + c.mask.value * 32;
    out[p++] = Math.floor(bits / 8) + Math.ceil(bits / 8);
    cellData(c).copy(out, p);
    p += Math.ceil(bits / 8);
    for (const r of d.refs) put(n - 1 - r, rs);
  }
  if (opts.crc) crc32c(out.subarray(0, p)).copy(out, p);
  return out;
}

/** Cell data bytes with the completion tag (`1` then zeros) when the length is not a whole number of bytes. */
function cellData(c: Cell): Buffer {
  const n = c.bits.length;
  const out = Buffer.alloc(Math.ceil(n / 8));
  for (let i = 0; i < n; i++) if (c.bits.at(i)) out[i >> 3] |= 0x80 >> (i & 7);
  if (n % 8) out[n >> 3] |= 0x80 >> (n % 8);
  return out;
}

// ---------------------------------------------------------------- td::base64_decode / td::hex_decode

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Standard-alphabet base64 with the td library's strictness; the error text is td's. */
export function tdBase64Decode(s: string): { ok: true; bytes: Buffer } | { ok: false; error: string } {
  let body = s;
  let pad = 0;
  while (body.endsWith('=')) {
    body = body.slice(0, -1);
    pad++;
  }
  if (pad >= 3) return { ok: false, error: 'Wrong string padding' };
  if ((body.length + pad) % 4 !== 0) return { ok: false, error: 'Wrong padding length' };
  if (!/^[A-Za-z0-9+/]*$/.test(body)) return { ok: false, error: 'Wrong character in the string' };
  const bytes = Buffer.from(body, 'base64');
  // trailing bits of an incomplete group must be zero
  const rem = body.length % 4;
  if (rem) {
    const last = B64.indexOf(body[body.length - 1]);
    if ((rem === 2 && (last & 0xf)) || (rem === 3 && (last & 0x3))) return { ok: false, error: 'Wrong padding in the string' };
  }
  return { ok: true, bytes };
}

export function tdHexDecode(s: string): { ok: true; bytes: Buffer } | { ok: false; error: string } {
  if (s.length % 2 !== 0) return { ok: false, error: 'Wrong hex string length' };
  if (!/^[0-9a-fA-F]*$/.test(s)) return { ok: false, error: 'Wrong hex string' };
  return { ok: true, bytes: Buffer.from(s, 'hex') };
}

/** Cell count from a BoC header (`BagOfCells::Info::parse_serialized_header`); null when the header does not parse. */
export function bocHeaderCellCount(b: Buffer): number | null {
  if (b.length < 6) return null;
  const magic = b.readUInt32BE(0);
  let size: number;
  if (magic === 0xb5ee9c72) size = b[4] & 7;
  else if (magic === 0x68ff65f3 || magic === 0xacc3a728) size = b[4];
  else return null;
  if (size < 1 || size > 4 || b.length < 6 + size) return null;
  let n = 0;
  for (let i = 0; i < size; i++) n = n * 256 + b[6 + i];
  return n;
}

// ---------------------------------------------------------------- printed cells, parsed back

/**
 * Cells ton-marker prints as BoC strings are decoded again by its recursion; keeping the cell behind each
 * recently printed string saves parsing and rehashing it (the string is a pure function of the cell).
 */
const printed = new Map<string, Cell>();
const PRINTED_MAX = 4096;

/** base64 of std_boc_serialize (mode 0) of a cell, remembered for bocCell. */
export function bocString(c: Cell): string {
  const s = stdBocSerialize(c).toString('base64');
  if (printed.size >= PRINTED_MAX) printed.clear();
  printed.set(s, c);
  return s;
}

/** The root of a single-root BoC (a cell printed here recently, else parsed). */
export function bocCell(text: string, bytes: Buffer): Cell[] {
  const c = printed.get(text);
  return c ? [c] : Cell.fromBoc(bytes);
}
