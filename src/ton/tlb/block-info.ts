/**
 * BlockInfo and the block references it holds (crypto/block/block.tlb): the readers (over a `Cells` arena, the
 * decoder's; `readBlockInfoCell` for a @ton/core cell, e.g. inside a Merkle proof) and the writers the devnet
 * builds its blocks with, side by side so they cannot drift (test/ton/tlb-write.test.ts round-trips them).
 */
import { beginCell, type Builder, type Cell } from '@ton/core';
import { parseBoc, type Cells } from '../cell/boc.ts';
import { Slice } from '../cell/slice.ts';
import { DecodeError } from '../errors.ts';
import { shardPrefixLength } from '../../format/index.ts';
import { loadShardIdent, shardChild, shardHex, shardParent } from './common.ts';

/**
 * A block's short id. Rows, bus messages and API v3 (`block_ref`, `masterchain_block_ref`, `prev_blocks`) carry the
 * unsigned 64-bit shard as 16 upper-case hex digits (the default); code that computes with shards (the liteserver
 * protocol in src/source, the devnet) holds it as a bigint: `BlockRef<bigint>`.
 */
export interface BlockRef<Shard extends string | bigint = string> {
  workchain: number;
  shard: Shard;
  seqno: number;
}

/** Full block id (BlockIdExt). */
export interface BlockId extends BlockRef {
  /** representation hash of the Block root cell */
  root_hash: string;
  /** sha256 of the BoC bytes as received (equals the canonical file hash only for the node's own serialization) */
  file_hash: string;
}

/** `ext_blk_ref$_ end_lt:uint64 seq_no:uint32 root_hash:bits256 file_hash:bits256 = ExtBlkRef;` */
export interface ExtBlkRef {
  end_lt: bigint;
  seqno: number;
  root_hash: string;
  file_hash: string;
}

/** A referenced block (prev / master / vert prev) with its shard resolved from the referencing block. */
export interface BlockRefFull extends BlockRef, ExtBlkRef {}

/** `capabilities#c4 version:uint32 capabilities:uint64 = GlobalVersion;` */
export interface GlobalVersion {
  version: number;
  capabilities: bigint;
}

/** Every field of `block_info#9bc7a987` (crypto/block/block.tlb). */
export interface BlockInfo {
  version: number;
  not_master: boolean;
  after_merge: boolean;
  before_split: boolean;
  after_split: boolean;
  want_split: boolean;
  want_merge: boolean;
  key_block: boolean;
  vert_seqno_incr: boolean;
  flags: number;
  seqno: number;
  vert_seqno: number;
  /** ShardIdent of the block */
  workchain: number;
  shard: string;
  /** shard_pfx_bits of the ShardIdent */
  shard_pfx_bits: number;
  gen_utime: number;
  start_lt: bigint;
  end_lt: bigint;
  gen_validator_list_hash_short: number;
  gen_catchain_seqno: number;
  min_ref_mc_seqno: number;
  prev_key_block_seqno: number;
  /** present when `flags & 1` */
  gen_software: GlobalVersion | null;
  /** `master_ref:not_master?^BlkMasterInfo` — the masterchain block this shard block refers to (null in masterchain) */
  master_ref: BlockRefFull | null;
  /**
   * `prev_ref:^(BlkPrevInfo after_merge)`: one previous block, or two after a merge (`prev_blks_info`: prev1 = left
   * child shard, prev2 = right child shard). After a split the previous block is in the parent shard.
   */
  prev_ref: BlockRefFull[];
  /** `prev_vert_ref:vert_seqno_incr?^(BlkPrevInfo 0)` */
  prev_vert_ref: BlockRefFull | null;
}

/** ext_blk_ref$_ end_lt:uint64 seq_no:uint32 root_hash:bits256 file_hash:bits256 = ExtBlkRef; */
export function loadExtBlkRef(s: Slice): ExtBlkRef {
  const end_lt = s.uint64();
  const seqno = s.uint(32);
  const root_hash = s.hash();
  const file_hash = s.hash();
  return { end_lt, seqno, root_hash, file_hash };
}

export function storeExtBlkRef(b: Builder, r: ExtBlkRef): void {
  b.storeUint(r.end_lt, 64).storeUint(r.seqno, 32).storeBuffer(Buffer.from(r.root_hash, 'hex'), 32).storeBuffer(Buffer.from(r.file_hash, 'hex'), 32);
}

export function extBlkRefCell(r: ExtBlkRef): Cell {
  const b = beginCell();
  storeExtBlkRef(b, r);
  return b.endCell();
}

/** capabilities#c4 version:uint32 capabilities:uint64 = GlobalVersion; */
function loadGlobalVersion(s: Slice): GlobalVersion {
  const tag = s.uint(8);
  if (tag !== 0xc4) throw new DecodeError(`GlobalVersion: bad tag 0x${tag.toString(16)}`);
  return { version: s.uint(32), capabilities: s.uint64() };
}

export function storeGlobalVersion(b: Builder, v: GlobalVersion): void {
  b.storeUint(0xc4, 8).storeUint(v.version, 32).storeUint(v.capabilities, 64);
}

/** shard_ident$00 shard_pfx_bits:(#<= 60) workchain_id:int32 shard_prefix:uint64 = ShardIdent; (shard: with its terminating bit) */
export function storeShardIdent(b: Builder, workchain: number, shard: bigint, pfxBits = shardPrefixLength(shard)): void {
  if (BigInt.asUintN(64, shard) === 0n) throw new Error('shard id 0 is invalid');
  b.storeUint(0, 2).storeUint(pfxBits, 6).storeInt(workchain, 32).storeUint(shard & ~(1n << BigInt(63 - pfxBits)), 64);
}

function full(workchain: number, shard: bigint, r: ExtBlkRef): BlockRefFull {
  return { workchain, shard: shardHex(shard), seqno: r.seqno, end_lt: r.end_lt, root_hash: r.root_hash, file_hash: r.file_hash };
}

/**
 * block_info#9bc7a987 version:uint32 not_master:(## 1) after_merge:(## 1) before_split:(## 1) after_split:(## 1)
 *   want_split:Bool want_merge:Bool key_block:Bool vert_seqno_incr:(## 1) flags:(## 8) { flags <= 1 }
 *   seq_no:# vert_seq_no:# { vert_seq_no >= vert_seqno_incr } { prev_seq_no:# } { ~prev_seq_no + 1 = seq_no }
 *   shard:ShardIdent gen_utime:uint32 start_lt:uint64 end_lt:uint64 gen_validator_list_hash_short:uint32
 *   gen_catchain_seqno:uint32 min_ref_mc_seqno:uint32 prev_key_block_seqno:uint32
 *   gen_software:flags . 0?GlobalVersion master_ref:not_master?^BlkMasterInfo
 *   prev_ref:^(BlkPrevInfo after_merge) prev_vert_ref:vert_seqno_incr?^(BlkPrevInfo 0) = BlockInfo;
 * prev_blk_info$_ prev:ExtBlkRef = BlkPrevInfo 0;
 * prev_blks_info$_ prev1:^ExtBlkRef prev2:^ExtBlkRef = BlkPrevInfo 1;
 * master_info$_ master:ExtBlkRef = BlkMasterInfo;
 */
export function readBlockInfo(cells: Cells, cell: number): BlockInfo {
  const s = Slice.of(cells, cell, 'BlockInfo');
  const tag = s.uint(32);
  if (tag !== 0x9bc7a987) throw new DecodeError(`BlockInfo: bad tag 0x${tag.toString(16)} (expected block_info#9bc7a987)`);
  const version = s.uint(32);
  const not_master = s.bit();
  const after_merge = s.bit();
  const before_split = s.bit();
  const after_split = s.bit();
  const want_split = s.bit();
  const want_merge = s.bit();
  const key_block = s.bit();
  const vert_seqno_incr = s.bit();
  const flags = s.uint(8);
  const seqno = s.uint(32);
  const vert_seqno = s.uint(32);
  const shard = loadShardIdent(s);
  const gen_utime = s.uint(32);
  const start_lt = s.uint64();
  const end_lt = s.uint64();
  const gen_validator_list_hash_short = s.uint(32);
  const gen_catchain_seqno = s.uint(32);
  const min_ref_mc_seqno = s.uint(32);
  const prev_key_block_seqno = s.uint(32);
  const gen_software = flags & 1 ? loadGlobalVersion(s) : null;
  let master_ref: BlockRefFull | null = null;
  if (not_master) master_ref = full(-1, 1n << 63n, loadExtBlkRef(s.refSlice('BlkMasterInfo')));
  const prevCell = s.refSlice('BlkPrevInfo');
  const prev_ref: BlockRefFull[] = [];
  if (after_merge) {
    prev_ref.push(full(shard.workchain, shardChild(shard.shard, false), loadExtBlkRef(prevCell.refSlice('prev1'))));
    prev_ref.push(full(shard.workchain, shardChild(shard.shard, true), loadExtBlkRef(prevCell.refSlice('prev2'))));
  } else {
    const prevShard = after_split ? shardParent(shard.shard) : shard.shard;
    prev_ref.push(full(shard.workchain, prevShard, loadExtBlkRef(prevCell)));
  }
  let prev_vert_ref: BlockRefFull | null = null;
  if (vert_seqno_incr) prev_vert_ref = full(shard.workchain, shard.shard, loadExtBlkRef(s.refSlice('prev_vert_ref')));
  return {
    version,
    not_master,
    after_merge,
    before_split,
    after_split,
    want_split,
    want_merge,
    key_block,
    vert_seqno_incr,
    flags,
    seqno,
    vert_seqno,
    workchain: shard.workchain,
    shard: shardHex(shard.shard),
    shard_pfx_bits: shard.pfx_bits,
    gen_utime,
    start_lt,
    end_lt,
    gen_validator_list_hash_short,
    gen_catchain_seqno,
    min_ref_mc_seqno,
    prev_key_block_seqno,
    gen_software,
    master_ref,
    prev_ref,
    prev_vert_ref,
  };
}

/** readBlockInfo of a BlockInfo cell held as a @ton/core cell (its refs may sit in a Merkle proof: only the ones read must be there). */
export function readBlockInfoCell(info: Cell): BlockInfo {
  const cells = parseBoc(info.toBoc({ idx: false, crc32: false }));
  return readBlockInfo(cells, cells.roots[0]);
}

/** The BlockInfo cell of `info` (the writer of readBlockInfo; every branch: master_ref, a merge's two prev refs, prev_vert_ref, gen_software). */
export function blockInfoCell(info: BlockInfo): Cell {
  if (info.not_master !== (info.master_ref !== null)) throw new Error('BlockInfo: master_ref is present exactly when not_master');
  if (info.after_merge !== (info.prev_ref.length === 2) || info.prev_ref.length < 1 || info.prev_ref.length > 2) throw new Error('BlockInfo: after_merge needs two prev refs, otherwise one');
  if (info.vert_seqno_incr !== (info.prev_vert_ref !== null)) throw new Error('BlockInfo: prev_vert_ref is present exactly when vert_seqno_incr');
  if (Boolean(info.flags & 1) !== (info.gen_software !== null)) throw new Error('BlockInfo: gen_software is present exactly when flags & 1');
  const b = beginCell()
    .storeUint(0x9bc7a987, 32)
    .storeUint(info.version, 32)
    .storeBit(info.not_master)
    .storeBit(info.after_merge)
    .storeBit(info.before_split)
    .storeBit(info.after_split)
    .storeBit(info.want_split)
    .storeBit(info.want_merge)
    .storeBit(info.key_block)
    .storeBit(info.vert_seqno_incr)
    .storeUint(info.flags, 8)
    .storeUint(info.seqno, 32)
    .storeUint(info.vert_seqno, 32);
  storeShardIdent(b, info.workchain, BigInt('0x' + info.shard), info.shard_pfx_bits);
  b.storeUint(info.gen_utime, 32)
    .storeUint(info.start_lt, 64)
    .storeUint(info.end_lt, 64)
    .storeUint(info.gen_validator_list_hash_short, 32)
    .storeUint(info.gen_catchain_seqno, 32)
    .storeUint(info.min_ref_mc_seqno, 32)
    .storeUint(info.prev_key_block_seqno, 32);
  if (info.gen_software) storeGlobalVersion(b, info.gen_software);
  if (info.master_ref) b.storeRef(extBlkRefCell(info.master_ref));
  if (info.after_merge) b.storeRef(beginCell().storeRef(extBlkRefCell(info.prev_ref[0])).storeRef(extBlkRefCell(info.prev_ref[1])).endCell());
  else b.storeRef(extBlkRefCell(info.prev_ref[0]));
  if (info.prev_vert_ref) b.storeRef(extBlkRefCell(info.prev_vert_ref));
  return b.endCell();
}
