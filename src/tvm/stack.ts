/**
 * TVM stack codec of API v2, both directions (api-v2.md §7):
 * - legacy entries `[type, value]` (runGetMethod input and output),
 * - typed `tvm.stackEntry*` objects (runGetMethodStd input and output, and inside tuple/list).
 * Values in code are @ton/core `TupleItem`s. Integers are bigint; numbers travel as strings in JSON.
 */
import { beginCell, BitString, Cell, type TupleItem } from '@ton/core';
import { nodeBoc } from '../ton/index.ts';

export class StackError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StackError';
  }
}

/** Deepest tuple/list nesting accepted or produced (the C++ reference's default). */
export const MAX_STACK_DEPTH = 100;

type Json = unknown;

function isObject(v: Json): v is Record<string, Json> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const INT257_MAX = (1n << 256n) - 1n;
const INT257_MIN = -(1n << 256n);

/** Integer from a JSON number or string: decimal, `0x…`, `-0x…` (tonlib's base auto-detect). */
export function parseStackNumber(v: Json, where: string): bigint {
  let n: bigint;
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v)) throw new StackError(`${where}: number ${v} is not a safe integer; pass big numbers as strings`);
    n = BigInt(v);
  } else if (typeof v === 'string') {
    const s = v.trim();
    const m = /^(-?)(0[xX][0-9a-fA-F]+|\d+)$/.exec(s);
    if (!m) throw new StackError(`${where}: cannot parse number ${JSON.stringify(s.slice(0, 80))}`);
    n = BigInt(m[2]);
    if (m[1]) n = -n;
  } else if (typeof v === 'bigint') {
    n = v;
  } else {
    throw new StackError(`${where}: expected a number or a numeric string`);
  }
  if (n > INT257_MAX || n < INT257_MIN) throw new StackError(`${where}: number out of the 257-bit TVM integer range`);
  return n;
}

function parseBoc(v: Json, where: string): Cell {
  if (typeof v !== 'string' || v.length === 0) throw new StackError(`${where}: expected a base64 BoC string`);
  let cells: Cell[];
  try {
    cells = Cell.fromBoc(Buffer.from(v, 'base64'));
  } catch {
    throw new StackError(`${where}: not a valid base64 BoC`);
  }
  if (cells.length !== 1) throw new StackError(`${where}: BoC must have exactly one root, got ${cells.length}`);
  return cells[0];
}

/** Python reference cell object: `{data: {b64, len}, refs: [...], special?}`. */
function parseCellObject(v: Record<string, Json>, where: string, depth: number): Cell {
  if (depth > 1024) throw new StackError(`${where}: cell object too deep`);
  const data = v.data;
  if (!isObject(data) || typeof data.b64 !== 'string' || typeof data.len !== 'number') {
    throw new StackError(`${where}: cell object needs data.b64 (string) and data.len (bits)`);
  }
  const bytes = Buffer.from(data.b64, 'base64');
  if (!Number.isInteger(data.len) || data.len < 0 || data.len > 1023 || data.len > bytes.length * 8) {
    throw new StackError(`${where}: cell object data.len ${data.len} does not fit data.b64`);
  }
  const refsJson = v.refs ?? [];
  if (!Array.isArray(refsJson) || refsJson.length > 4) throw new StackError(`${where}: cell object refs must be an array of at most 4 cells`);
  const refs = refsJson.map((r, i) => {
    if (!isObject(r)) throw new StackError(`${where}.refs[${i}]: expected a cell object`);
    return parseCellObject(r, `${where}.refs[${i}]`, depth + 1);
  });
  const bits = new BitString(bytes, 0, data.len);
  try {
    return new Cell({ exotic: v.special === true, bits, refs });
  } catch (e) {
    throw new StackError(`${where}: invalid cell object (${(e as Error).message})`);
  }
}

/** A cell given as base64 BoC string, `{bytes}` object (C++), or `{data, refs}` object (Python). */
function parseCellValue(v: Json, where: string): Cell {
  if (typeof v === 'string') return parseBoc(v, where);
  if (isObject(v)) {
    if (typeof v.bytes === 'string') return parseBoc(v.bytes, `${where}.bytes`);
    if ('data' in v) return parseCellObject(v, where, 0);
  }
  throw new StackError(`${where}: expected a base64 BoC string, {"bytes": "<base64 BoC>"} or {"data": {"b64", "len"}, "refs": []}`);
}

function listToTuple(items: TupleItem[]): TupleItem {
  // A TVM list is nested pairs (head, tail) ending in null.
  let acc: TupleItem = { type: 'null' };
  for (let i = items.length - 1; i >= 0; i--) acc = { type: 'tuple', items: [items[i], acc] };
  return acc;
}

function parseElements(v: Json, where: string, depth: number): TupleItem[] {
  const elements = isObject(v) ? v.elements : v;
  if (!Array.isArray(elements)) throw new StackError(`${where}: expected {"elements": [...]}`);
  if (depth >= MAX_STACK_DEPTH) throw new StackError(`${where}: nesting deeper than ${MAX_STACK_DEPTH}`);
  // Elements are typed entries; legacy [type, value] entries are accepted too.
  return elements.map((e, i) => (Array.isArray(e) ? parseLegacyEntry(e, `${where}.elements[${i}]`, depth + 1) : parseTypedEntry(e, `${where}.elements[${i}]`, depth + 1)));
}

/** One legacy entry `[type, value]`. */
export function parseLegacyEntry(e: Json, where: string, depth = 0): TupleItem {
  if (!Array.isArray(e) || e.length < 1 || e.length > 2 || typeof e[0] !== 'string') {
    throw new StackError(`${where}: expected a [type, value] pair`);
  }
  const [type, value] = e as [string, Json];
  switch (type) {
    case 'num':
    case 'int':
    case 'number':
    case 'integer':
      if (value === 'NaN') return { type: 'nan' };
      return { type: 'int', value: parseStackNumber(value, where) };
    case 'tvm.Cell':
    case 'cell':
      return { type: 'cell', cell: parseCellValue(value, where) };
    case 'tvm.Slice':
    case 'slice':
      return { type: 'slice', cell: parseCellValue(value, where) };
    case 'tvm.Builder':
    case 'builder':
      return { type: 'builder', cell: parseCellValue(value, where) };
    case 'tuple':
    case 'tvm.Tuple':
      return { type: 'tuple', items: parseElements(value, where, depth) };
    case 'list':
    case 'tvm.List':
      return listToTuple(parseElements(value, where, depth));
    case 'null':
      return { type: 'null' };
    default:
      throw new StackError(
        `${where}: unsupported stack entry type ${JSON.stringify(type)} (use num, cell, slice, builder, tuple, list, null, tvm.Cell, tvm.Slice)`,
      );
  }
}

/** One typed entry `{"@type": "tvm.stackEntry…", …}`. */
export function parseTypedEntry(e: Json, where: string, depth = 0): TupleItem {
  if (!isObject(e) || typeof e['@type'] !== 'string') throw new StackError(`${where}: expected a tvm.stackEntry* object with "@type"`);
  const t = e['@type'];
  switch (t) {
    case 'tvm.stackEntryNumber': {
      const num = e.number;
      const raw = isObject(num) ? num.number : num;
      if (raw === 'NaN') return { type: 'nan' };
      return { type: 'int', value: parseStackNumber(raw, `${where}.number`) };
    }
    case 'tvm.stackEntryCell':
      return { type: 'cell', cell: parseCellValue(e.cell, `${where}.cell`) };
    case 'tvm.stackEntrySlice':
      return { type: 'slice', cell: parseCellValue(e.slice, `${where}.slice`) };
    case 'tvm.stackEntryBuilder':
      return { type: 'builder', cell: parseCellValue(e.builder, `${where}.builder`) };
    case 'tvm.stackEntryTuple':
      return { type: 'tuple', items: parseElements(e.tuple, `${where}.tuple`, depth) };
    case 'tvm.stackEntryList':
      return listToTuple(parseElements(e.list, `${where}.list`, depth));
    case 'tvm.stackEntryNull':
      return { type: 'null' };
    default:
      throw new StackError(`${where}: unsupported stack entry type ${JSON.stringify(t)}`);
  }
}

export function parseLegacyStack(stack: Json): TupleItem[] {
  if (stack === undefined || stack === null) return [];
  if (!Array.isArray(stack)) throw new StackError('stack: expected an array of [type, value] entries');
  return stack.map((e, i) => parseLegacyEntry(e, `stack[${i}]`));
}

export function parseTypedStack(stack: Json): TupleItem[] {
  if (stack === undefined || stack === null) return [];
  if (!Array.isArray(stack)) throw new StackError('stack: expected an array of tvm.stackEntry* objects');
  return stack.map((e, i) => (Array.isArray(e) ? parseLegacyEntry(e, `stack[${i}]`) : parseTypedEntry(e, `stack[${i}]`)));
}

// ---- output ----

/** Elements of a TVM list (nested pairs ending in null), or null when the tuple is not a list. */
function listElements(item: TupleItem): TupleItem[] | null {
  const out: TupleItem[] = [];
  let node = item;
  for (let guard = 0; guard < 1_000_000; guard++) {
    if (node.type === 'null') return out;
    if (node.type !== 'tuple' || node.items.length !== 2) return null;
    out.push(node.items[0]);
    node = node.items[1];
  }
  return null;
}

/** tonlib's `tvm.cell bytes`: the node's std_boc_serialize with CRC32-C. */
function boc(cell: Cell): string {
  return nodeBoc(cell, { crc: true }).toString('base64');
}

function sliceRemainderCell(item: { cell: Cell }): Cell {
  return item.cell;
}

export type TypedEntry = Record<string, unknown> & { '@type': string };

/** tonlib's rendering: null is the empty list; a proper list (pairs ending in null) is a list. */
export function toTypedEntry(item: TupleItem, depth = 0): TypedEntry {
  if (depth > MAX_STACK_DEPTH) throw new StackError(`result stack nesting deeper than ${MAX_STACK_DEPTH}`);
  switch (item.type) {
    case 'int':
      return { '@type': 'tvm.stackEntryNumber', number: { '@type': 'tvm.numberDecimal', number: item.value.toString() } };
    case 'nan':
      return { '@type': 'tvm.stackEntryNumber', number: { '@type': 'tvm.numberDecimal', number: 'NaN' } };
    case 'cell':
      return { '@type': 'tvm.stackEntryCell', cell: { '@type': 'tvm.cell', bytes: boc(item.cell) } };
    case 'slice':
      return { '@type': 'tvm.stackEntrySlice', slice: { '@type': 'tvm.slice', bytes: boc(sliceRemainderCell(item)) } };
    case 'builder':
      return { '@type': 'tvm.stackEntryBuilder', builder: { '@type': 'tvm.builder', bytes: boc(item.cell) } };
    case 'null':
      return { '@type': 'tvm.stackEntryList', list: { '@type': 'tvm.list', elements: [] } };
    case 'tuple': {
      const list = item.items.length === 2 ? listElements(item) : null;
      if (list) return { '@type': 'tvm.stackEntryList', list: { '@type': 'tvm.list', elements: list.map((x) => toTypedEntry(x, depth + 1)) } };
      return { '@type': 'tvm.stackEntryTuple', tuple: { '@type': 'tvm.tuple', elements: item.items.map((x) => toTypedEntry(x, depth + 1)) } };
    }
  }
}

/** Python-reference cell object (`object` field of legacy cell output). */
export function cellObject(cell: Cell): Record<string, unknown> {
  const bits = cell.bits;
  const padded = beginCell().storeBits(bits).endCell().bits;
  const bytes = Buffer.alloc(Math.ceil(bits.length / 8));
  for (let i = 0; i < bits.length; i++) if (padded.at(i)) bytes[i >> 3] |= 0x80 >> (i & 7);
  return { data: { b64: bytes.toString('base64'), len: bits.length }, refs: cell.refs.map(cellObject), special: cell.isExotic };
}

/** Legacy output: numbers as `0x…` hex strings, cells and slices as `["cell", {bytes, object}]`. */
export function toLegacyEntry(item: TupleItem): [string, unknown] {
  switch (item.type) {
    case 'int':
      return ['num', item.value < 0n ? '-0x' + (-item.value).toString(16) : '0x' + item.value.toString(16)];
    case 'nan':
      return ['num', 'NaN'];
    case 'cell':
    case 'slice':
      return ['cell', { bytes: boc(item.cell), object: cellObject(item.cell) }];
    case 'builder':
      return ['builder', { bytes: boc(item.cell), object: cellObject(item.cell) }];
    case 'null':
    case 'tuple': {
      const typed = toTypedEntry(item);
      if (typed['@type'] === 'tvm.stackEntryList') return ['list', typed.list];
      return ['tuple', typed.tuple];
    }
  }
}

export function toLegacyStack(items: TupleItem[]): [string, unknown][] {
  return items.map(toLegacyEntry);
}

export function toTypedStack(items: TupleItem[]): TypedEntry[] {
  return items.map((x) => toTypedEntry(x));
}
