/**
 * src/ton's TL-B writers (the devnet builds its blocks with them) against their readers beside them: ExtBlkRef,
 * BlockInfo and ShardDescr of real blocks are written back bit for bit (same cell hash as the chain's own cell),
 * and the branches no fixture holds (vertical seqno, the other ShardDescr constructor, split/merge plans, extra
 * currencies) are written and read back to the same record.
 */
import { beginCell, Cell, Dictionary, type Slice as CoreSlice } from '@ton/core';
import { describe, expect, it } from 'vitest';
import {
  blockInfoCell,
  decodeBlock,
  extBlkRefCell,
  loadExtBlkRef,
  loadShardDescr,
  parseBoc,
  readBlockInfoCell,
  Slice,
  storeShardDescr,
  type BlockInfo,
  type ShardDescr,
} from '../../src/ton/index.ts';
import { fullBlocks, read } from './fixtures.ts';

const blocks = fullBlocks().map((row) => ({ row, boc: read(row.file), root: Cell.fromBoc(read(row.file))[0] }));

/** Our reader over a @ton/core cell. */
function slice(cell: Cell, what: string): Slice {
  const cells = parseBoc(cell.toBoc({ idx: false, crc32: false }));
  return Slice.of(cells, cells.roots[0], what);
}

function hex(c: Cell): string {
  return c.hash().toString('hex');
}

describe('ExtBlkRef', () => {
  it('writes back the previous-block references of real blocks', () => {
    let n = 0;
    for (const { root } of blocks) {
      const info = root.refs[0];
      const prev = info.refs[info.refs.length - 1];
      // prev_blk_info$_ prev:ExtBlkRef (one previous block): the ref cell is exactly an ExtBlkRef
      if (prev.refs.length !== 0) continue;
      const ref = loadExtBlkRef(slice(prev, 'ExtBlkRef'));
      expect(hex(extBlkRefCell(ref))).toBe(hex(prev));
      n++;
    }
    expect(n).toBeGreaterThan(0);
  });
});

describe('BlockInfo', () => {
  it('writes back the BlockInfo cell of every fixture block (same hash)', () => {
    expect(blocks.length).toBeGreaterThan(0);
    for (const { row, root } of blocks) {
      const info = readBlockInfoCell(root.refs[0]);
      expect(info.seqno, row.file).toBe(row.seqno);
      expect(hex(blockInfoCell(info)), row.file).toBe(hex(root.refs[0]));
    }
  });

  it('covers masterchain and shard blocks', () => {
    const infos = blocks.map(({ root }) => readBlockInfoCell(root.refs[0]));
    expect(infos.some((i) => i.not_master)).toBe(true);
    expect(infos.some((i) => !i.not_master)).toBe(true);
  });

  const base = (): BlockInfo => readBlockInfoCell(blocks.find(({ root }) => readBlockInfoCell(root.refs[0]).not_master)!.root.refs[0]);

  it('round-trips a merge (two previous blocks, left and right child) and a vertical seqno step', () => {
    const i = base();
    const shard = BigInt('0x' + i.shard);
    const low = shard & -shard;
    const left = (shard - (low >> 1n)).toString(16).toUpperCase().padStart(16, '0');
    const right = (shard + (low >> 1n)).toString(16).toUpperCase().padStart(16, '0');
    const merged: BlockInfo = {
      ...i,
      after_merge: true,
      after_split: false,
      vert_seqno_incr: true,
      vert_seqno: i.vert_seqno + 1,
      prev_ref: [
        { ...i.prev_ref[0], shard: left, seqno: 7, root_hash: 'ab'.repeat(32) },
        { ...i.prev_ref[0], shard: right, seqno: 9, file_hash: 'cd'.repeat(32) },
      ],
      prev_vert_ref: { ...i.prev_ref[0], shard: i.shard, seqno: 3, end_lt: 12345n },
    };
    const cell = blockInfoCell(merged);
    expect(cell.refs[cell.refs.length - 2].refs).toHaveLength(2);
    expect(readBlockInfoCell(cell)).toEqual(merged);
  });

  it('refuses a BlockInfo whose optional parts contradict its flags', () => {
    const i = base();
    expect(() => blockInfoCell({ ...i, master_ref: null })).toThrow(/master_ref/);
    expect(() => blockInfoCell({ ...i, after_merge: !i.after_merge })).toThrow(/after_merge/);
    expect(() => blockInfoCell({ ...i, vert_seqno_incr: true })).toThrow(/prev_vert_ref/);
    expect(() => blockInfoCell({ ...i, flags: i.flags ^ 1 })).toThrow(/gen_software/);
  });
});

/** Every bt_leaf of a masterchain block's ShardHashes, with the descriptor our decoder read from it. */
function leaves(root: Cell): Cell[] {
  // block_extra: in_msg_descr:^ out_msg_descr:^ account_blocks:^ rand_seed created_by custom:(Maybe ^McBlockExtra)
  const mc = root.refs[3].refs[3].beginParse();
  expect(mc.loadUint(16)).toBe(0xcca5);
  mc.loadBit();
  const dict = mc.loadDict(Dictionary.Keys.Int(32), Dictionary.Values.Cell());
  const out: Cell[] = [];
  const walk = (c: Cell): void => {
    const s: CoreSlice = c.beginParse(true);
    if (s.loadBit()) {
      walk(c.refs[0]);
      walk(c.refs[1]);
    } else out.push(c);
  };
  for (const tree of dict.values()) walk(tree);
  return out;
}

function leafOf(d: ShardDescr): Cell {
  const b = beginCell().storeBit(0);
  storeShardDescr(b, d);
  return b.endCell();
}

function readBack(d: ShardDescr): ShardDescr {
  const s = slice(leafOf(d), 'BinTree ShardDescr');
  expect(s.bit()).toBe(false);
  return loadShardDescr(s, d.workchain, BigInt('0x' + d.shard));
}

describe('ShardDescr', () => {
  const mcBlocks = blocks.filter(({ root }) => !readBlockInfoCell(root.refs[0]).not_master);
  const descrs = mcBlocks.flatMap(({ boc }) => decodeBlock(boc).shards ?? []);

  it('writes back the shard descriptors of real masterchain blocks (same leaf cells, in BinTree order)', () => {
    expect(mcBlocks.length).toBeGreaterThan(0);
    let n = 0;
    for (const { boc, root } of mcBlocks) {
      const ours = decodeBlock(boc).shards ?? [];
      const real = leaves(root);
      expect(ours.length).toBe(real.length);
      ours.forEach((d, k) => expect(hex(leafOf(d))).toBe(hex(real[k])));
      n += ours.length;
    }
    expect(n).toBeGreaterThan(0);
  });

  it('round-trips both constructors, split and merge plans and extra currencies', () => {
    const d = descrs[0];
    const variants: ShardDescr[] = [
      { ...d, descr_tag: 'a' },
      { ...d, descr_tag: 'b' },
      { ...d, split_merge_at: { type: 'split', utime: 1_700_000_000, interval: 30 } },
      { ...d, split_merge_at: { type: 'merge', utime: 1_700_000_100, interval: 60 }, nx_cc_updated: true },
      { ...d, fees_collected_extra_currencies: { '239': 5n, '7': 10n ** 30n }, funds_created_extra_currencies: { '1': 1n } },
    ];
    for (const v of variants) expect(readBack(v)).toEqual(v);
    expect(leafOf({ ...d, descr_tag: 'a' }).refs).toHaveLength(1);
    expect(leafOf({ ...d, descr_tag: 'b', fees_collected_extra_currencies: null, funds_created_extra_currencies: null }).refs).toHaveLength(0);
  });

  it('refuses what the schema forbids', () => {
    const d = descrs[0];
    expect(() => leafOf({ ...d, flags: 1 })).toThrow(/flags/);
    expect(() => leafOf({ ...d, split_merge_at: { type: 'split', utime: null, interval: 30 } })).toThrow(/fsm_split/);
  });
});
