/**
 * Hashmap traversal (crypto/block/block.tlb, "FROM hashmap.tlb"):
 *
 * hm_edge#_ {n:#} {X:Type} {l:#} {m:#} label:(HmLabel ~l n) {n = (~m) + l} node:(HashmapNode m X) = Hashmap n X;
 * hmn_leaf#_ {X:Type} value:X = HashmapNode 0 X;
 * hmn_fork#_ {n:#} {X:Type} left:^(Hashmap n X) right:^(Hashmap n X) = HashmapNode (n + 1) X;
 * hml_short$0 {m:#} {n:#} len:(Unary ~n) {n <= m} s:(n * Bit) = HmLabel ~n m;
 * hml_long$10 {m:#} n:(#<= m) s:(n * Bit) = HmLabel ~n m;
 * hml_same$11 {m:#} v:Bit n:(#<= m) = HmLabel ~n m;
 * hme_empty$0 {n:#} {X:Type} = HashmapE n X;
 * hme_root$1 {n:#} {X:Type} root:^(Hashmap n X) = HashmapE n X;
 *
 * Augmented maps have the same edges; a fork carries `extra:Y` after its two refs and a leaf `extra:Y value:X`:
 * ahm_edge#_ … label:(HmLabel ~l n) {n = (~m) + l} node:(HashmapAugNode m X Y) = HashmapAug n X Y;
 * ahmn_leaf#_ {X:Type} {Y:Type} extra:Y value:X = HashmapAugNode 0 X Y;
 * ahmn_fork#_ … left:^(HashmapAug n X Y) right:^(HashmapAug n X Y) extra:Y = HashmapAugNode (n + 1) X Y;
 * ahme_empty$0 … extra:Y = HashmapAugE n X Y;  ahme_root$1 … root:^(HashmapAug n X Y) extra:Y = HashmapAugE n X Y;
 *
 * The traversal only walks edges and forks, so it serves both kinds: at a leaf the callback gets the slice
 * positioned at `value` (plain) or at `extra` (augmented, the callback reads past it).
 */
import { CELL_ORDINARY, CELL_PRUNED, type Cells } from '../cell/boc.ts';
import { Slice } from '../cell/slice.ts';
import { DecodeError } from '../errors.ts';
import { beginCell, type Builder, type Cell } from '@ton/core';

/** Key bits of a leaf, most significant first, one 0/1 per byte. */
export type KeyBits = Uint8Array;

export type LeafFn = (key: KeyBits, value: Slice) => void;

function lenBits(m: number): number {
  // #<= m: enough bits to hold m
  return 32 - Math.clz32(m);
}

/**
 * Walk the Hashmap n X rooted at `cell` (the hm_edge cell). Pruned subtrees are skipped when `allowPruned`
 * (Merkle proofs/updates), else they raise DecodeError (a full block must carry them).
 */
export function walkHashmap(cells: Cells, cell: number, n: number, leaf: LeafFn, allowPruned = false, what = 'hashmap'): void {
  const key = new Uint8Array(n);
  walkEdge(cells, cell, n, 0, key, leaf, allowPruned, what);
}

function walkEdge(cells: Cells, cell: number, m: number, depth: number, key: Uint8Array, leaf: LeafFn, allowPruned: boolean, what: string): void {
  const t = cells.type[cell];
  if (t !== CELL_ORDINARY) {
    if (t === CELL_PRUNED && allowPruned) return;
    throw new DecodeError(`${what}: ${t === CELL_PRUNED ? 'pruned' : 'exotic'} cell inside the dictionary (not a full block?)`);
  }
  walkEdgeSlice(new Slice(cells, cell, what), m, depth, key, leaf, allowPruned, what);
}

function walkEdgeSlice(s: Slice, m: number, depth: number, key: Uint8Array, leaf: LeafFn, allowPruned: boolean, what: string): void {
  const cells = s.cells;
  // label
  let l: number;
  const labelTag = s.bit() ? (s.bit() ? 3 : 2) : 0;
  if (labelTag === 0) {
    // hml_short$0: unary length then the bits
    l = 0;
    while (s.bit()) l++;
    if (l > m) throw new DecodeError(`${what}: label longer than the key`);
    for (let i = 0; i < l; i++) key[depth + i] = s.bit() ? 1 : 0;
  } else if (labelTag === 2) {
    // hml_long$10
    l = s.uint(lenBits(m));
    if (l > m) throw new DecodeError(`${what}: label longer than the key`);
    for (let i = 0; i < l; i++) key[depth + i] = s.bit() ? 1 : 0;
  } else {
    // hml_same$11
    const v = s.bit() ? 1 : 0;
    l = s.uint(lenBits(m));
    if (l > m) throw new DecodeError(`${what}: label longer than the key`);
    for (let i = 0; i < l; i++) key[depth + i] = v;
  }
  const rest = m - l;
  if (rest === 0) {
    leaf(key, s);
    return;
  }
  if (s.refsLeft < 2) throw new DecodeError(`${what}: fork without two refs`);
  const left = s.loadRef();
  const right = s.loadRef();
  key[depth + l] = 0;
  walkEdge(cells, left, rest - 1, depth + l + 1, key, leaf, allowPruned, what);
  key[depth + l] = 1;
  walkEdge(cells, right, rest - 1, depth + l + 1, key, leaf, allowPruned, what);
}

/**
 * Walk a Hashmap n X whose root edge starts at the cursor of `s` (an inline Hashmap field, e.g. the
 * transactions of an AccountBlock). When the root is a fork the cursor ends after its two refs (an Aug
 * fork's extra is not read); when it is a leaf the callback consumes the value.
 */
export function walkHashmapInline(s: Slice, n: number, leaf: LeafFn, allowPruned = false, what = 'hashmap'): void {
  walkEdgeSlice(s, n, 0, new Uint8Array(n), leaf, allowPruned, what);
}

/** HashmapE / HashmapAugE: reads the root bit (and ref) from `s`; the extra of an Aug map is left to the caller. */
export function walkHashmapE(s: Slice, n: number, leaf: LeafFn, allowPruned = false, what = 'hashmap'): void {
  if (!s.bit()) return;
  walkHashmap(s.cells, s.loadRef(), n, leaf, allowPruned, what);
}

export function keyToNumber(key: KeyBits, from = 0, to = key.length): number {
  let v = 0;
  for (let i = from; i < to; i++) v = v * 2 + key[i];
  return v;
}

export function keyToSigned(key: KeyBits): number {
  const u = keyToNumber(key);
  const half = 2 ** (key.length - 1);
  return u >= half ? u - 2 * half : u;
}

export function keyToBigInt(key: KeyBits): bigint {
  let v = 0n;
  for (let i = 0; i < key.length; i += 32) {
    const end = Math.min(i + 32, key.length);
    v = (v << BigInt(end - i)) | BigInt(keyToNumber(key, i, end));
  }
  return v;
}

const HEX = '0123456789ABCDEF';
/** key (length multiple of 4) as upper-case hex */
export function keyToHex(key: KeyBits): string {
  let s = '';
  for (let i = 0; i < key.length; i += 4) s += HEX[key[i] * 8 + key[i + 1] * 4 + key[i + 2] * 2 + key[i + 3]];
  return s;
}

/**
 * The writers of (augmented) hashmaps (the devnet builds its blocks and states with them):
 *
 *   hml_short$0 {m:#} {n:#} len:(Unary ~n) {n <= m} s:(n * Bit) = HmLabel ~n m;
 *   hml_long$10 {m:#} n:(#<= m) s:(n * Bit) = HmLabel ~n m;
 *   hml_same$11 {m:#} v:Bit n:(#<= m) = HmLabel ~n m;
 *
 *   ahm_edge#_ {n:#} {X:Type} {Y:Type} {l:#} {m:#} label:(HmLabel ~l n) {n = (~m) + l}
 *     node:(HashmapAugNode m X Y) = HashmapAug n X Y;
 *   ahmn_leaf#_ {X:Type} {Y:Type} extra:Y value:X = HashmapAugNode 0 X Y;
 *   ahmn_fork#_ {n:#} {X:Type} {Y:Type} left:^(HashmapAug n X Y) right:^(HashmapAug n X Y) extra:Y
 *     = HashmapAugNode (n + 1) X Y;
 *   ahme_empty$0 {n:#} {X:Type} {Y:Type} extra:Y = HashmapAugE n X Y;
 *   ahme_root$1 {n:#} {X:Type} {Y:Type} root:^(HashmapAug n X Y) extra:Y = HashmapAugE n X Y;
 */
/** How the augmentation Y of a HashmapAug is stored and combined (the fork's extra = sum of children). */
export interface AugKind<E> {
  store(b: Builder, extra: E): void;
  add(a: E, b: E): E;
  zero: E;
}

export interface AugEntry<E> {
  key: bigint;
  extra: E;
  /** Writes the value X inline after the extra (use storeRef for ^X values). */
  value(b: Builder): void;
}

function bitLength(x: bigint): number {
  return x === 0n ? 0 : x.toString(2).length;
}

/** HmLabel ~l m: picks the shortest of hml_short / hml_long / hml_same, as the node does. */
export function storeHmLabel(b: Builder, label: bigint, len: number, m: number): void {
  const k = lenBits(m);
  const shortLen = 2 * len + 2;
  const longLen = 2 + k + len;
  const allZero = label === 0n;
  const allOne = len > 0 && label === (1n << BigInt(len)) - 1n;
  const sameLen = allZero || allOne ? 3 + k : Infinity;
  if (sameLen < shortLen && sameLen < longLen) {
    b.storeUint(3, 2).storeBit(allOne).storeUint(len, k);
  } else if (shortLen <= longLen) {
    b.storeBit(0);
    for (let i = 0; i < len; i++) b.storeBit(1);
    b.storeBit(0);
    if (len > 0) b.storeUint(label, len);
  } else {
    b.storeUint(2, 2).storeUint(len, k);
    if (len > 0) b.storeUint(label, len);
  }
}

interface Built<E> {
  cell: Cell;
  extra: E;
}

function buildEdge<E>(kind: AugKind<E>, entries: AugEntry<E>[], lo: number, hi: number, n: number): Built<E> {
  const b = beginCell();
  const extra = writeEdge(b, kind, entries, lo, hi, n);
  return { cell: b.endCell(), extra };
}

/** Writes the edge of HashmapAug n X Y over entries[lo..hi) (sorted, distinct keys) into `b`. */
function writeEdge<E>(b: Builder, kind: AugKind<E>, entries: AugEntry<E>[], lo: number, hi: number, n: number): E {
  const mask = n === 0 ? 0n : (1n << BigInt(n)) - 1n;
  const first = entries[lo].key & mask;
  const last = entries[hi - 1].key & mask;
  const diff = first ^ last;
  const l = hi - lo === 1 ? n : n - bitLength(diff);
  const label = l === 0 ? 0n : first >> BigInt(n - l);
  storeHmLabel(b, label, l, n);
  const m = n - l;
  if (m === 0) {
    const e = entries[lo];
    kind.store(b, e.extra);
    e.value(b);
    return e.extra;
  }
  // Fork: next bit (position m-1 from the low end) splits the range.
  const bit = 1n << BigInt(m - 1);
  let mid = lo;
  while (mid < hi && (entries[mid].key & bit) === 0n) mid++;
  const left = buildEdge(kind, entries, lo, mid, m - 1);
  const right = buildEdge(kind, entries, mid, hi, m - 1);
  const extra = kind.add(left.extra, right.extra);
  b.storeRef(left.cell).storeRef(right.cell);
  kind.store(b, extra);
  return extra;
}

function sortEntries<E>(entries: AugEntry<E>[]): AugEntry<E>[] {
  const sorted = [...entries].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i].key === sorted[i - 1].key) throw new Error(`duplicate hashmap key ${sorted[i].key.toString(16)}`);
  }
  return sorted;
}

/** HashmapAug n X Y (non-empty): the root edge cell and the total extra. */
export function buildHashmapAug<E>(kind: AugKind<E>, n: number, entries: AugEntry<E>[]): Built<E> {
  if (entries.length === 0) throw new Error('HashmapAug must not be empty');
  const sorted = sortEntries(entries);
  return buildEdge(kind, sorted, 0, sorted.length, n);
}

/** Stores a non-empty HashmapAug n X Y inline into `b` (e.g. AccountBlock's transactions); returns the total extra. */
export function storeHashmapAug<E>(b: Builder, kind: AugKind<E>, n: number, entries: AugEntry<E>[]): E {
  if (entries.length === 0) throw new Error('HashmapAug must not be empty');
  const sorted = sortEntries(entries);
  return writeEdge(b, kind, sorted, 0, sorted.length, n);
}

/** Stores HashmapAugE n X Y into `b`; returns the total extra. */
export function storeHashmapAugE<E>(b: Builder, kind: AugKind<E>, n: number, entries: AugEntry<E>[]): E {
  if (entries.length === 0) {
    b.storeBit(0);
    kind.store(b, kind.zero);
    return kind.zero;
  }
  const root = buildHashmapAug(kind, n, entries);
  b.storeBit(1).storeRef(root.cell);
  kind.store(b, root.extra);
  return root.extra;
}

/** A HashmapAugE n X Y alone in a cell (e.g. ^InMsgDescr). */
export function hashmapAugECell<E>(kind: AugKind<E>, n: number, entries: AugEntry<E>[]): { cell: Cell; extra: E } {
  const b = beginCell();
  const extra = storeHashmapAugE(b, kind, n, entries);
  return { cell: b.endCell(), extra };
}
