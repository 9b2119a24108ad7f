/**
 * src/ton's TL-B writers the devnet builds its chain with, against independent readers: HashmapAug labels against @ton/core's Dictionary,
 * merkle updates against @ton/core's exotic-cell hashing, ShardIdent / shard arithmetic against known ids.
 */
import { describe, expect, it } from 'vitest';
import { beginCell, Cell, Dictionary } from '@ton/core';
import { buildHashmapAug, hashmapAugECell, merkleUpdate, type AugKind } from '../../src/ton/index.ts';
import { shardChildren, shardParent } from '../../src/format/index.ts';
import { inShard, shardPrefixBits } from '../../src/devnet/generate/refs.ts';
import { storeShardIdent } from '../../src/ton/index.ts';

/** An augmentation of zero bits: HashmapAug then has exactly the layout of a plain Hashmap. */
const noExtra: AugKind<null> = { store: () => undefined, add: () => null, zero: null };
const sumExtra: AugKind<bigint> = { store: (b, v) => b.storeUint(v, 32), add: (a, b) => a + b, zero: 0n };

function keys(n: number, bits: number, salt: number): bigint[] {
  const out = new Set<bigint>();
  let x = BigInt(salt) * 0x9e3779b97f4a7c15n;
  while (out.size < n) {
    x = (x * 6364136223846793005n + 1442695040888963407n) & ((1n << 256n) - 1n);
    out.add(x >> BigInt(256 - bits));
  }
  return [...out];
}

describe('HashmapAug writer', () => {
  for (const [n, bits] of [
    [1, 256],
    [2, 256],
    [37, 256],
    [200, 64],
    [15, 8],
    [3, 32],
  ] as const) {
    it(`lays out ${n} keys of ${bits} bits exactly as @ton/core's Dictionary does`, () => {
      const ks = keys(n, bits, n + bits);
      const dict = Dictionary.empty(Dictionary.Keys.BigUint(bits), Dictionary.Values.Uint(32));
      ks.forEach((k, i) => dict.set(k, i));
      const ours = buildHashmapAug(noExtra, bits, ks.map((k, i) => ({ key: k, extra: null, value: (b) => b.storeUint(i, 32) })));
      const theirs = beginCell().storeDictDirect(dict).endCell();
      expect(ours.cell.hash().toString('hex')).toBe(theirs.hash().toString('hex'));
    });
  }

  it('sums the extras at every fork and stores the total in HashmapAugE', () => {
    const ks = keys(10, 64, 3);
    const { cell, extra } = hashmapAugECell(sumExtra, 64, ks.map((k, i) => ({ key: k, extra: BigInt(i + 1), value: (b) => b.storeUint(i, 8) })));
    expect(extra).toBe(55n);
    const s = cell.beginParse();
    expect(s.loadBit()).toBe(true);
    s.loadRef();
    expect(s.loadUintBig(32)).toBe(55n);
    const empty = hashmapAugECell(sumExtra, 64, []);
    expect(empty.cell.bits.length).toBe(33);
    expect(() => buildHashmapAug(sumExtra, 64, [{ key: 1n, extra: 0n, value: () => undefined }, { key: 1n, extra: 0n, value: () => undefined }])).toThrow(/duplicate/);
  });
});

describe('merkle update writer', () => {
  it('keeps both trees hashing (level 0) to the full states and prunes the shared part', () => {
    const shared = beginCell().storeUint(0xdeadbeef, 32).storeRef(beginCell().storeUint(7, 8).endCell()).endCell();
    const oldLeaf = beginCell().storeUint(1, 16).endCell();
    const newLeaf = beginCell().storeUint(2, 16).endCell();
    const oldState = beginCell().storeUint(10, 32).storeRef(shared).storeRef(oldLeaf).endCell();
    const newState = beginCell().storeUint(11, 32).storeRef(shared).storeRef(newLeaf).endCell();
    const mu = merkleUpdate(oldState, newState);
    // Through a BoC round trip, as a reader sees it.
    const back = Cell.fromBoc(mu.toBoc())[0];
    expect(back.isExotic).toBe(true);
    const s = back.beginParse(true);
    expect(s.loadUint(8)).toBe(4);
    expect(s.loadBuffer(32).equals(oldState.hash())).toBe(true);
    expect(s.loadBuffer(32).equals(newState.hash())).toBe(true);
    expect(s.loadUint(16)).toBe(oldState.depth());
    expect(s.loadUint(16)).toBe(newState.depth());
    const [oldTree, newTree] = back.refs;
    expect(oldTree.hash(0).equals(oldState.hash())).toBe(true);
    expect(newTree.hash(0).equals(newState.hash())).toBe(true);
    // The shared subtree is a pruned branch (exotic type 1) on both sides; the changed leaves are whole.
    expect(oldTree.refs[0].isExotic).toBe(true);
    expect(newTree.refs[0].isExotic).toBe(true);
    expect(oldTree.refs[0].beginParse(true).loadUint(8)).toBe(1);
    expect(newTree.refs[1].isExotic).toBe(false);
    expect(newTree.refs[1].beginParse().loadUint(16)).toBe(2);
    // keepNew keeps a shared subtree whole in the new tree.
    const kept = merkleUpdate(oldState, newState, [shared]);
    expect(kept.refs[1].refs[0].isExotic).toBe(false);
  });
});

describe('shard ids', () => {
  it('computes prefixes, children, parents and ShardIdent as the node does', () => {
    expect(shardPrefixBits(0x8000000000000000n)).toBe(0);
    expect(shardPrefixBits(0x4000000000000000n)).toBe(1);
    expect(shardChildren(0x8000000000000000n)).toEqual([0x4000000000000000n, 0xc000000000000000n]);
    expect(shardParent(0xc000000000000000n)).toBe(0x8000000000000000n);
    expect(shardParent(0x6000000000000000n)).toBe(0x4000000000000000n);
    expect(inShard(0x7fn << 248n, 0x4000000000000000n)).toBe(true);
    expect(inShard(0x80n << 248n, 0x4000000000000000n)).toBe(false);
    expect(inShard(0x80n << 248n, 0xc000000000000000n)).toBe(true);
    // shard_ident$00 shard_pfx_bits:(#<= 60) workchain_id:int32 shard_prefix:uint64 (prefix without the tag bit)
    const b = beginCell();
    storeShardIdent(b, 0, 0xc000000000000000n);
    const s = b.endCell().beginParse();
    expect(s.loadUint(2)).toBe(0);
    expect(s.loadUint(6)).toBe(1);
    expect(s.loadInt(32)).toBe(0);
    expect(s.loadUintBig(64)).toBe(0x8000000000000000n);
  });
});
