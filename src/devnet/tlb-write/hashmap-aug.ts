/**
 * Writers for (augmented) hashmaps, from crypto/block/block.tlb (ton-blockchain/ton):
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
import { beginCell, type Builder, type Cell } from '@ton/core';

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

/** Bits needed for `#<= m`. */
function lenBits(m: number): number {
  return bitLength(BigInt(m));
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
