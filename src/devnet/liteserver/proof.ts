/**
 * Merkle proofs and multi-root BoCs for liteserver answers.
 * A proof keeps the cells a client must read and replaces every other subtree by a pruned branch
 * (exotic type 1: level mask, hash, depth), wrapped in a Merkle proof cell (exotic type 3) whose hash
 * field is the original root hash, so it verifies against block root hashes / state hashes.
 */
import { beginCell, Cell, convertToMerkleProof, crc32c } from '@ton/core';

/** Collects the cells to keep in a proof (by hash). */
export class ProofBuilder {
  readonly keep = new Set<string>();
  constructor(readonly root: Cell) {
    this.visit(root);
  }
  visit(cell: Cell): this {
    this.keep.add(cell.hash().toString('hex'));
    return this;
  }
  /** Keeps a cell and its whole subtree. */
  visitAll(cell: Cell): this {
    this.visit(cell);
    for (const r of cell.refs) this.visitAll(r);
    return this;
  }
  /** Keeps the cells along a path of ref indexes from the root; returns the last cell. */
  path(...refs: number[]): Cell {
    let c = this.root;
    for (const i of refs) {
      c = c.refs[i];
      this.visit(c);
    }
    return c;
  }
  /** The pruned tree (not wrapped). */
  pruned(): Cell {
    const memo = new Map<string, Cell>();
    const go = (c: Cell): Cell => {
      const h = c.hash().toString('hex');
      const done = memo.get(h);
      if (done) return done;
      let out: Cell;
      if (!this.keep.has(h)) {
        // Cells that already hold pruned branches (level > 0) stay whole: pruning them needs higher-level hashes.
        out = c.level() === 0 ? prunedBranch(c) : c;
      } else if (c.refs.length === 0 || c.isExotic) {
        // A kept Merkle update/proof stays whole: its children sit one Merkle level deeper, where a pruned
        // branch would need a higher level mask than the level-1 ones built here.
        out = c;
      } else {
        out = new Cell({ exotic: c.isExotic, bits: c.bits, refs: c.refs.map(go) });
      }
      memo.set(h, out);
      return out;
    };
    return go(this.root);
  }
  /** The Merkle proof cell. */
  proof(): Cell {
    return convertToMerkleProof(this.pruned());
  }
}

export function prunedBranch(c: Cell): Cell {
  return beginCell().storeUint(1, 8).storeUint(1, 8).storeBuffer(c.hash(0)).storeUint(c.depth(0), 16).endCell({ exotic: true });
}

/** Walks a Hashmap(E) by key and reports the cells on the way (for proofs). */
export interface DictWalk {
  /** Ordinary cells visited from the root. */
  cells: Cell[];
  /** The leaf value slice, null when the key is absent or its part of the tree is pruned. */
  leaf: ReturnType<Cell['beginParse']> | null;
  /** The walk hit a pruned branch: the tree cannot tell whether the key is there. */
  pruned: boolean;
}

export function dictPath(root: Cell, keyBits: number, key: bigint): DictWalk {
  const cells: Cell[] = [];
  let cell = root;
  let remaining = keyBits;
  const bitAt = (i: number) => (key >> BigInt(keyBits - 1 - i)) & 1n;
  let pos = 0;
  for (;;) {
    if (cell.isExotic) return { cells, leaf: null, pruned: true }; // the key's part is not in this tree
    cells.push(cell);
    const s = cell.beginParse();
    // hml_short$0 / hml_long$10 / hml_same$11
    let label: bigint[] = [];
    const lenBits = Math.ceil(Math.log2(remaining + 1));
    const b0 = s.loadBit();
    const b1 = b0 ? s.loadBit() : false;
    if (!b0) {
      let n = 0;
      while (s.loadBit()) n++;
      for (let i = 0; i < n; i++) label.push(s.loadBit() ? 1n : 0n);
    } else if (!b1) {
      const n = s.loadUint(lenBits);
      for (let i = 0; i < n; i++) label.push(s.loadBit() ? 1n : 0n);
    } else {
      const v = s.loadBit() ? 1n : 0n;
      const n = s.loadUint(lenBits);
      label = new Array<bigint>(n).fill(v);
    }
    for (const b of label) {
      if (bitAt(pos) !== b) return { cells, leaf: null, pruned: false };
      pos++;
    }
    remaining -= label.length;
    if (remaining === 0) return { cells, leaf: s, pruned: false };
    const dir = Number(bitAt(pos));
    pos++;
    remaining--;
    cell = cell.refs[dir];
  }
}

/** Serializes several roots into one BoC (with CRC32-C), as liteservers do for proofs and transaction lists. */
export function serializeBocRoots(roots: Cell[]): Buffer {
  if (roots.length === 0) return Buffer.alloc(0);
  // Topological order: every cell before its refs; identical cells (same hash) stored once.
  const order: Cell[] = [];
  const index = new Map<string, number>();
  const state = new Map<string, number>(); // 1 = visiting, 2 = done
  const post: Cell[] = [];
  const visit = (c: Cell) => {
    const h = c.hash().toString('hex');
    if (state.get(h) === 2) return;
    state.set(h, 1);
    for (const r of c.refs) visit(r);
    state.set(h, 2);
    post.push(c);
  };
  for (const r of roots) visit(r);
  for (let i = post.length - 1; i >= 0; i--) {
    index.set(post[i].hash().toString('hex'), order.length);
    order.push(post[i]);
  }
  const n = order.length;
  const sizeBytes = Math.max(1, Math.ceil(n.toString(2).length / 8));
  const cellBufs = order.map((c) => {
    const bits = c.bits.length;
    const d1 = c.refs.length + (c.isExotic ? 8 : 0) + c.mask.value * 32;
    const d2 = Math.ceil(bits / 8) + Math.floor(bits / 8);
    const data = paddedBits(c);
    const refs = Buffer.alloc(c.refs.length * sizeBytes);
    c.refs.forEach((r, i) => refs.writeUIntBE(index.get(r.hash().toString('hex'))!, i * sizeBytes, sizeBytes));
    return Buffer.concat([Buffer.from([d1, d2]), data, refs]);
  });
  const total = cellBufs.reduce((a, b) => a + b.length, 0);
  const offBytes = Math.max(1, Math.ceil(total.toString(2).length / 8));
  const header = Buffer.alloc(4 + 1 + 1 + 3 * sizeBytes + offBytes + roots.length * sizeBytes);
  let o = 0;
  header.writeUInt32BE(0xb5ee9c72, o);
  o += 4;
  header[o++] = 0x40 | sizeBytes; // has_crc32c
  header[o++] = offBytes;
  header.writeUIntBE(n, o, sizeBytes);
  o += sizeBytes;
  header.writeUIntBE(roots.length, o, sizeBytes);
  o += sizeBytes;
  header.writeUIntBE(0, o, sizeBytes);
  o += sizeBytes;
  header.writeUIntBE(total, o, offBytes);
  o += offBytes;
  for (const r of roots) {
    header.writeUIntBE(index.get(r.hash().toString('hex'))!, o, sizeBytes);
    o += sizeBytes;
  }
  const body = Buffer.concat([header, ...cellBufs]);
  return Buffer.concat([body, crc32c(body)]);
}

function paddedBits(c: Cell): Buffer {
  const len = c.bits.length;
  const bytes = Math.ceil(len / 8);
  const out = Buffer.alloc(bytes);
  for (let i = 0; i < len; i++) if (c.bits.at(i)) out[i >> 3] |= 0x80 >> (i & 7);
  if (len % 8 !== 0) out[len >> 3] |= 0x80 >> (len & 7);
  return out;
}
