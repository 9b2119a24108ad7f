/** BlockInfo and the block references it holds (crypto/block/block.tlb). */
import type { Cells } from '../cell/boc.ts';
import { Slice } from '../cell/slice.ts';
import { DecodeError } from '../errors.ts';
import type { BlockInfo, BlockRefFull, ExtBlkRef, GlobalVersion } from '../block/types.ts';
import { loadShardIdent, shardChild, shardHex, shardParent } from './common.ts';

/** ext_blk_ref$_ end_lt:uint64 seq_no:uint32 root_hash:bits256 file_hash:bits256 = ExtBlkRef; */
export function loadExtBlkRef(s: Slice): ExtBlkRef {
  const end_lt = s.uint64();
  const seqno = s.uint(32);
  const root_hash = s.hash();
  const file_hash = s.hash();
  return { end_lt, seqno, root_hash, file_hash };
}

/** capabilities#c4 version:uint32 capabilities:uint64 = GlobalVersion; */
function loadGlobalVersion(s: Slice): GlobalVersion {
  const tag = s.uint(8);
  if (tag !== 0xc4) throw new DecodeError(`GlobalVersion: bad tag 0x${tag.toString(16)}`);
  return { version: s.uint(32), capabilities: s.uint64() };
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
