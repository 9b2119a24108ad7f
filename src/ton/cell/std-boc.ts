/**
 * A subtree serialized exactly as the node's `vm::std_boc_serialize` does (ton-blockchain/ton crypto/vm/boc.cpp,
 * `BagOfCells::import_cells` / `reorder_cells` / `revisit` / `serialize_to_impl`), so BoC strings compare equal with
 * toncenter's byte for byte: its indexer stores bodies and init states with mode WithCRC32C (`te6cck…`), and account
 * code / data with mode 0 (`te6ccg…`).
 *
 * The node's order is not a plain DFS: cells are imported in post-order (deduplicated by hash), each gets a weight
 * (1 + its children's, capped at 255, then limited so a parent's children share at most 63), cells whose weight does
 * not fit are "special", and `revisit` allocates indices so special subtrees are visited before the rest; the BoC
 * lists cells in reverse allocation order (the root first).
 *
 * serialized_boc#b5ee9c72 has_idx:(## 1) has_crc32c:(## 1) has_cache_bits:(## 1) flags:(## 2) { flags = 0 }
 *   size:(## 3) { size <= 4 } off_bytes:(## 8) { off_bytes <= 8 } cells:(##(size * 8)) roots:(##(size * 8))
 *   absent:(##(size * 8)) tot_cells_size:(##(off_bytes * 8)) root_list:(roots * ##(size * 8))
 *   index:has_idx?(cells * ##(off_bytes * 8)) cell_data:(tot_cells_size * [ uint8 ]) crc32c:has_crc32c?uint32
 */
import { CELL_ORDINARY, type Cells } from './boc.ts';
import { crc32c } from './crc32c.ts';
import type { NewCell } from './builder.ts';

/** `BagOfCells::Mode` bits the indexer uses: WithCRC32C (2). No index, no cache bits, no stored hashes. */
export interface BocMode {
  crc?: boolean;
}

/** `BagOfCells::max_cell_whs` */
const MAX_CELL_WHS = 64;

interface CellInfo<N> {
  node: N;
  /** children as indices into the import list */
  refs: number[];
  /** weight; 0 marks a "special" cell (is_special) */
  wt: number;
  /** -1 new, -2 previsited, -3 visited, >= 0 allocated */
  newIdx: number;
}

function bytesFor(n: number): number {
  let b = 1;
  while (n >= 2 ** (8 * b)) b++;
  return b;
}

/** A cell tree as the serializer reads it, whatever holds the cells (our arena, @ton/core cells). */
export interface CellTreeView<N> {
  /** identity for deduplication (the representation hash); null: never shared (a cell being built) */
  key(n: N): string | null;
  refs(n: N): readonly N[];
  /** the first descriptor byte without the ref count: exotic (8) + level mask * 32 */
  flags(n: N): number;
  bits(n: N): number;
  /** the (bits + 7) >> 3 data bytes, completion tag included */
  data(n: N): Uint8Array;
}

/** The distinct cells of a tree in import order, with what the header needs to know of them. */
interface ImportedTree<N> {
  list: CellInfo<N>[];
  rootIdx: number;
  /** bytes of every cell's descriptors and data */
  dataBytes: number;
  /** references between the imported cells */
  intRefs: number;
}

/**
 * Serialize the tree at `root` as one BoC with one root, in the node's cell order. `mode.crc` appends the CRC32-C
 * (what toncenter stores for bodies and init states).
 */
export function serializeCellTree<N>(root: N, view: CellTreeView<N>, mode: BocMode = {}): Buffer {
  const tree = importCells(root, view);
  reorderCells(tree.list);
  const order = allocateCells(tree.list, tree.rootIdx);
  return writeBoc(tree, order, view, mode.crc === true);
}

/** BagOfCells::import_cell: children first (post-order), one entry per distinct representation hash. */
function importCells<N>(root: N, view: CellTreeView<N>): ImportedTree<N> {
  const list: CellInfo<N>[] = [];
  const byHash = new Map<string, number>();
  let dataBytes = 0;
  let intRefs = 0;
  const importCell = (node: N, depth: number): number => {
    if (depth > 1024) throw new RangeError('BoC serialization: cell depth too large');
    const key = view.key(node);
    if (key !== null) {
      const seen = byHash.get(key);
      if (seen !== undefined) return seen;
    }
    const refs: number[] = [];
    let sumWt = 1;
    for (const c of view.refs(node)) {
      const r = importCell(c, depth + 1);
      refs.push(r);
      sumWt += list[r].wt;
      intRefs++;
    }
    const idx = list.length;
    list.push({ node, refs, wt: Math.min(255, sumWt), newIdx: -1 });
    if (key !== null) byHash.set(key, idx);
    dataBytes += 2 + ((view.bits(node) + 7) >> 3);
    return idx;
  };
  const rootIdx = importCell(root, 0);
  return { list, rootIdx, dataBytes, intRefs };
}

/** BagOfCells::reorder_cells: limit the children's weights top-down, then recompute bottom-up (0: special). */
function reorderCells<N>(list: CellInfo<N>[]): void {
  const count = list.length;
  for (let i = count - 1; i >= 0; i--) {
    const d = list[i];
    const s = d.refs.length;
    let c = s;
    let sum = MAX_CELL_WHS - 1;
    let mask = 0;
    for (let j = 0; j < s; j++) {
      const dj = list[d.refs[j]];
      const limit = Math.floor((MAX_CELL_WHS - 1 + j) / s);
      if (dj.wt <= limit) {
        sum -= dj.wt;
        c--;
        mask |= 1 << j;
      }
    }
    if (c) {
      for (let j = 0; j < s; j++) {
        if (mask & (1 << j)) continue;
        const dj = list[d.refs[j]];
        const limit = Math.floor(sum++ / c);
        if (dj.wt > limit) dj.wt = limit;
      }
    }
  }
  for (let i = 0; i < count; i++) {
    const d = list[i];
    let sum = 1;
    for (const r of d.refs) sum += list[r].wt;
    d.wt = sum <= d.wt ? sum : 0;
  }
}

/**
 * BagOfCells::revisit (force 0 previsit, 1 visit, 2 allocate) from the root: the cells' import indices in
 * allocation order. Each cell's refs then hold allocation indices; its place in the BoC is count - 1 - its own.
 */
function allocateCells<N>(list: CellInfo<N>[], rootIdx: number): number[] {
  const order: number[] = [];
  const revisit = (i: number, force: number): number => {
    const d = list[i];
    if (d.newIdx >= 0) return d.newIdx;
    if (force === 0) {
      if (d.newIdx !== -1) return d.newIdx;
      for (let j = d.refs.length - 1; j >= 0; j--) revisit(d.refs[j], list[d.refs[j]].wt === 0 ? 1 : 0);
      return (d.newIdx = -2);
    }
    if (force > 1) {
      d.newIdx = order.length;
      order.push(i);
      return d.newIdx;
    }
    if (d.newIdx === -3) return d.newIdx;
    if (d.wt === 0) revisit(i, 0);
    for (let j = d.refs.length - 1; j >= 0; j--) revisit(d.refs[j], 1);
    for (let j = d.refs.length - 1; j >= 0; j--) d.refs[j] = revisit(d.refs[j], 2);
    return (d.newIdx = -3);
  };
  revisit(rootIdx, 0);
  revisit(rootIdx, 1);
  revisit(rootIdx, 2);
  return order;
}

/** BagOfCells::serialize_to_impl: the header, the cells in reverse allocation order (the root first), the CRC. */
function writeBoc<N>(tree: ImportedTree<N>, order: number[], view: CellTreeView<N>, crc: boolean): Buffer {
  const { list, rootIdx } = tree;
  const count = list.length;
  const size = bytesFor(count);
  const dataSize = tree.dataBytes + tree.intRefs * size;
  const offBytes = bytesFor(dataSize);
  const total = 4 + 1 + 1 + 3 * size + offBytes + size + dataSize + (crc ? 4 : 0);
  const out = Buffer.allocUnsafe(total);
  let p = 0;
  const put = (v: number, n: number) => {
    for (let i = n - 1; i >= 0; i--) out[p++] = Math.floor(v / 2 ** (8 * i)) & 255;
  };
  put(0xb5ee9c72, 4);
  out[p++] = (crc ? 0x40 : 0) | size;
  out[p++] = offBytes;
  put(count, size);
  put(1, size);
  put(0, size);
  put(dataSize, offBytes);
  put(count - 1 - list[rootIdx].newIdx, size);
  for (let k = count - 1; k >= 0; k--) {
    const d = list[order[k]];
    const bits = view.bits(d.node);
    out[p++] = d.refs.length + view.flags(d.node);
    out[p++] = (bits >> 3) + ((bits + 7) >> 3);
    const data = view.data(d.node);
    out.set(data, p);
    p += data.length;
    for (const r of d.refs) put(count - 1 - r, size);
  }
  if (crc) {
    const c = crc32c(out, 0, p);
    out.writeUInt32LE(c, p);
    p += 4;
  }
  if (p !== total) throw new Error(`BoC serialization: wrote ${p} bytes, expected ${total}`);
  return out;
}

/**
 * Serialize the subtree at `root` (an arena cell, or a NewCell whose refs are arena cells) as one BoC with one root,
 * in the node's cell order.
 */
export function serializeBoc(cells: Cells, root: number | NewCell, mode: BocMode = {}): Buffer {
  const hashed = cells.hashes.length > 0;
  // arena cells by index; -1 stands for the NewCell root
  const fresh = typeof root === 'number' ? null : root;
  const view: CellTreeView<number> = {
    key: (c) => (c < 0 ? null : hashed ? cells.hashes.toString('latin1', cells.hashOff(c), cells.hashOff(c) + 32) : String(c)),
    refs: (c) => (c < 0 ? fresh!.refs : refsOf(cells, c)),
    flags: (c) => (c < 0 ? 0 : (cells.type[c] !== CELL_ORDINARY ? 8 : 0) + cells.levelMask[c] * 32),
    bits: (c) => (c < 0 ? fresh!.bits : cells.bits[c]),
    data: (c) => (c < 0 ? fresh!.data : cells.buf.subarray(cells.dataOff[c], cells.dataOff[c] + ((cells.bits[c] + 7) >> 3))),
  };
  return serializeCellTree(fresh ? -1 : (root as number), view, mode);
}

function refsOf(cells: Cells, c: number): number[] {
  const n = cells.refCount[c];
  const out = new Array<number>(n);
  for (let r = 0; r < n; r++) out[r] = cells.refs[c * 4 + r];
  return out;
}
