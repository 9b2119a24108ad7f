/**
 * Merkle updates of shard states, as genuine blocks carry them (crypto/block/block.tlb):
 *
 *   !merkle_update#04 {X:Type} old_hash:bits256 new_hash:bits256 old_depth:uint16 new_depth:uint16
 *     old:^X new:^X = MERKLE_UPDATE X;
 *
 * Unchanged subtrees are replaced by pruned-branch cells (exotic type 1, level mask 1) carrying the
 * pruned cell's hash and depth, so both trees hash (at level 0) to the full states' hashes.
 */
import { beginCell, type Cell } from '@ton/core';

/** Exotic pruned branch standing for `cell` (which is an ordinary level-0 cell). */
export function prunedBranch(cell: Cell): Cell {
  return beginCell()
    .storeUint(1, 8)
    .storeUint(1, 8)
    .storeBuffer(cell.hash(0), 32)
    .storeUint(cell.depth(0), 16)
    .endCell({ exotic: true });
}

/** Hex hashes of every cell of a tree. */
export function collectHashes(root: Cell, into = new Set<string>()): Set<string> {
  const stack = [root];
  while (stack.length > 0) {
    const c = stack.pop()!;
    const h = c.hash(0).toString('hex');
    if (into.has(h)) continue;
    into.add(h);
    for (const r of c.refs) stack.push(r);
  }
  return into;
}

/**
 * Hashes of the cells the two trees share, found without walking shared subtrees: cells are visited by
 * decreasing depth, and a shared cell has the same depth in both trees, so both copies meet in one level.
 */
export function sharedCells(a: Cell, b: Cell): Set<string> {
  const levels = new Map<number, { a: Cell[]; b: Cell[] }>();
  const push = (c: Cell, side: 'a' | 'b') => {
    const d = c.depth(0);
    let l = levels.get(d);
    if (!l) {
      l = { a: [], b: [] };
      levels.set(d, l);
    }
    l[side].push(c);
  };
  push(a, 'a');
  push(b, 'b');
  const shared = new Set<string>();
  const seen = { a: new Set<string>(), b: new Set<string>() };
  for (let d = Math.max(a.depth(0), b.depth(0)); d >= 0; d--) {
    const l = levels.get(d);
    if (!l) continue;
    levels.delete(d);
    const inA = new Map(l.a.map((c) => [c.hash(0).toString('hex'), c]));
    const inB = new Map(l.b.map((c) => [c.hash(0).toString('hex'), c]));
    for (const [h, c] of inA) {
      if (inB.has(h)) shared.add(h);
      else if (!seen.a.has(h)) {
        seen.a.add(h);
        for (const r of c.refs) push(r, 'a');
      }
    }
    for (const [h, c] of inB) {
      if (inA.has(h)) continue;
      if (!seen.b.has(h)) {
        seen.b.add(h);
        for (const r of c.refs) push(r, 'b');
      }
    }
  }
  return shared;
}

/** Copy of `root` where every cell whose hash is in `prune` (and not in `keep`) becomes a pruned branch. */
function pruneTree(root: Cell, prune: Set<string>, keep: Set<string>, memo: Map<string, Cell>): Cell {
  const h = root.hash(0).toString('hex');
  const done = memo.get(h);
  if (done) return done;
  let out: Cell;
  if (prune.has(h) && !keep.has(h)) {
    out = prunedBranch(root);
  } else if (root.refs.length === 0) {
    out = root;
  } else {
    const b = beginCell().storeBits(root.bits);
    for (const r of root.refs) b.storeRef(pruneTree(r, prune, keep, memo));
    out = b.endCell({ exotic: root.isExotic });
  }
  memo.set(h, out);
  return out;
}

/**
 * MERKLE_UPDATE from `oldState` to `newState`. Cells present in both trees are pruned on both sides;
 * cells under `keepNew` roots (the touched accounts) stay whole in the new tree.
 */
export function merkleUpdate(oldState: Cell, newState: Cell, keepNew: Cell[] = []): Cell {
  const shared = sharedCells(oldState, newState);
  const keep = new Set<string>();
  for (const k of keepNew) collectHashes(k, keep);
  const oldTree = pruneTree(oldState, shared, new Set(), new Map());
  const newTree = pruneTree(newState, shared, keep, new Map());
  return beginCell()
    .storeUint(4, 8)
    .storeBuffer(oldState.hash(0), 32)
    .storeBuffer(newState.hash(0), 32)
    .storeUint(oldState.depth(0), 16)
    .storeUint(newState.depth(0), 16)
    .storeRef(oldTree)
    .storeRef(newTree)
    .endCell({ exotic: true });
}
