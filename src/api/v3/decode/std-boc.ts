/**
 * The TON node's bag-of-cells serializer as ton-marker calls it (`vm::std_boc_serialize`) over @ton/core cells: the
 * node's cell order is the one implementation in src/ton/cell/std-boc.ts. Mode 0 (no index, no CRC) is what
 * ton-marker prints for Cell fields; `crc` gives the toncenter storage flavour (`te6cck`). Also the strict
 * td::base64 / td::hex decoders and the size checks ton-marker runs before deserializing.
 */
import { Cell } from '@ton/core';
import { serializeCellTree, type CellTreeView } from '../../../ton/index.ts';

/** @ton/core cells as the node's serializer reads them. */
const coreCells: CellTreeView<Cell> = {
  key: (c) => c.hash().toString('latin1'),
  refs: (c) => c.refs,
  flags: (c) => (c.isExotic ? 8 : 0) + c.mask.value * 32,
  bits: (c) => c.bits.length,
  data: cellData,
};

/** `vm::std_boc_serialize` of a @ton/core cell: the node's cell order (src/ton/cell/std-boc.ts), mode 0 or WithCRC32C. */
export function stdBocSerialize(root: Cell, opts: { crc?: boolean } = {}): Buffer {
  return serializeCellTree(root, coreCells, opts);
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
