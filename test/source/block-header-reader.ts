/**
 * Small independent readers of a block's linking facts over @ton/core cells (BlockInfo, ShardHashes tops), kept to
 * cross-check src/source's verifyBlock, which reads them through src/ton. Schemas quoted from
 * crypto/block/block.tlb (ton-blockchain/ton).
 */
import { Cell, Dictionary, type Slice } from '@ton/core';
import { MASTER_SHARD, type BlockIdExt } from '../../src/source/block-id.ts';
import type { BlockHeader, ShardTop } from '../../src/source/block-header.ts';
import type { ExtBlkRef } from '../../src/ton/index.ts';

/** ext_blk_ref$_ end_lt:uint64 seq_no:uint32 root_hash:bits256 file_hash:bits256 = ExtBlkRef; */
function loadExtBlkRef(s: Slice): ExtBlkRef {
  return {
    end_lt: s.loadUintBig(64),
    seqno: s.loadUint(32),
    root_hash: s.loadBuffer(32).toString('hex'),
    file_hash: s.loadBuffer(32).toString('hex'),
  };
}

/**
 * block#11ef55aa global_id:int32 info:^BlockInfo value_flow:^ValueFlow
 *   state_update:^(MERKLE_UPDATE ShardState) extra:^BlockExtra = Block;
 */
const BLOCK_TAG = 0x11ef55aa;
/** block_info#9bc7a987 version:uint32 not_master:(## 1) after_merge:(## 1) before_split:(## 1) ... = BlockInfo; */
const BLOCK_INFO_TAG = 0x9bc7a987;
/** block_extra in_msg_descr:^InMsgDescr out_msg_descr:^OutMsgDescr account_blocks:^ShardAccountBlocks
 *   rand_seed:bits256 created_by:bits256 custom:(Maybe ^McBlockExtra) = BlockExtra; (tag #4a33f6fd) */
const BLOCK_EXTRA_TAG = 0x4a33f6fd;
/** masterchain_block_extra#cca5 key_block:(## 1) shard_hashes:ShardHashes ... = McBlockExtra; */
const MC_BLOCK_EXTRA_TAG = 0xcca5;

export class BlockFormatError extends Error {
  override name = 'BlockFormatError';
}

/**
 * block_info#9bc7a987 version:uint32
 *   not_master:(## 1) after_merge:(## 1) before_split:(## 1) after_split:(## 1)
 *   want_split:Bool want_merge:Bool key_block:Bool vert_seqno_incr:(## 1)
 *   flags:(## 8) { flags <= 1 }
 *   seq_no:# vert_seq_no:# { vert_seq_no >= vert_seqno_incr } { prev_seq_no:# } { ~prev_seq_no + 1 = seq_no }
 *   shard:ShardIdent gen_utime:uint32 start_lt:uint64 end_lt:uint64
 *   gen_validator_list_hash_short:uint32 gen_catchain_seqno:uint32 min_ref_mc_seqno:uint32
 *   prev_key_block_seqno:uint32 gen_software:flags . 0?GlobalVersion
 *   master_ref:not_master?^BlkMasterInfo prev_ref:^(BlkPrevInfo after_merge)
 *   prev_vert_ref:vert_seqno_incr?^(BlkPrevInfo 0) = BlockInfo;
 * shard_ident$00 shard_pfx_bits:(#<= 60) workchain_id:int32 shard_prefix:uint64 = ShardIdent;
 * capabilities#c4 version:uint32 capabilities:uint64 = GlobalVersion;
 * prev_blk_info$_ prev:ExtBlkRef = BlkPrevInfo 0;
 * prev_blks_info$_ prev1:^ExtBlkRef prev2:^ExtBlkRef = BlkPrevInfo 1;
 * master_info$_ master:ExtBlkRef = BlkMasterInfo;
 */
export function readBlockHeader(root: Cell): BlockHeader {
  const b = root.beginParse();
  if (b.loadUint(32) !== BLOCK_TAG) throw new BlockFormatError('not a Block cell (tag is not 0x11ef55aa)');
  const globalId = b.loadInt(32);
  const s = b.loadRef().beginParse();
  if (s.loadUint(32) !== BLOCK_INFO_TAG) throw new BlockFormatError('BlockInfo tag is not 0x9bc7a987');
  s.loadUint(32); // version
  const notMaster = s.loadBit();
  const afterMerge = s.loadBit();
  const beforeSplit = s.loadBit();
  const afterSplit = s.loadBit();
  s.loadBit(); // want_split
  s.loadBit(); // want_merge
  const keyBlock = s.loadBit();
  s.loadBit(); // vert_seqno_incr (prev_vert_ref comes after prev_ref; not needed)
  const flags = s.loadUint(8);
  const seqno = s.loadUint(32);
  s.loadUint(32); // vert_seq_no
  if (s.loadUint(2) !== 0) throw new BlockFormatError('ShardIdent tag is not $00');
  const pfxBits = s.loadUint(6);
  const workchain = s.loadInt(32);
  const prefix = s.loadUintBig(64);
  const shard = prefix | (1n << BigInt(63 - pfxBits));
  const genUtime = s.loadUint(32);
  const startLt = s.loadUintBig(64);
  const endLt = s.loadUintBig(64);
  s.skip(32 * 4); // gen_validator_list_hash_short, gen_catchain_seqno, min_ref_mc_seqno, prev_key_block_seqno
  if (flags & 1) s.skip(8 + 32 + 64); // GlobalVersion
  let masterRef: ExtBlkRef | null = null;
  if (notMaster) masterRef = loadExtBlkRef(s.loadRef().beginParse());
  const prevCell = s.loadRef().beginParse();
  let prev: BlockIdExt[];
  if (afterMerge) {
    // The two merged children of our shard: left then right.
    const lowBit = shard & -shard;
    const half = lowBit >> 1n;
    const p1 = loadExtBlkRef(prevCell.loadRef().beginParse());
    const p2 = loadExtBlkRef(prevCell.loadRef().beginParse());
    prev = [
      { workchain, shard: shard - half, seqno: p1.seqno, rootHash: p1.root_hash, fileHash: p1.file_hash },
      { workchain, shard: shard + half, seqno: p2.seqno, rootHash: p2.root_hash, fileHash: p2.file_hash },
    ];
  } else {
    const p = loadExtBlkRef(prevCell);
    let prevShard = shard;
    if (afterSplit) {
      const x = shard & -shard;
      prevShard = BigInt.asUintN(64, (shard - x) | (x << 1n));
    }
    prev = [{ workchain, shard: prevShard, seqno: p.seqno, rootHash: p.root_hash, fileHash: p.file_hash }];
  }
  return { globalId, workchain, shard, seqno, afterMerge, afterSplit, beforeSplit, keyBlock, genUtime, startLt, endLt, masterRef, prev };
}

/**
 * _ (HashmapE 32 ^(BinTree ShardDescr)) = ShardHashes;
 * bt_leaf$0 {X:Type} leaf:X = BinTree X;
 * bt_fork$1 {X:Type} left:^(BinTree X) right:^(BinTree X) = BinTree X;
 * shard_descr#b seq_no:uint32 reg_mc_seqno:uint32 start_lt:uint64 end_lt:uint64
 *   root_hash:bits256 file_hash:bits256 before_split:Bool before_merge:Bool ... = ShardDescr;
 * shard_descr_new#a (same leading fields) = ShardDescr;
 */
export function readShardTops(root: Cell): ShardTop[] {
  const b = root.beginParse();
  if (b.loadUint(32) !== BLOCK_TAG) throw new BlockFormatError('not a Block cell (tag is not 0x11ef55aa)');
  b.loadInt(32);
  b.loadRef(); // info
  b.loadRef(); // value_flow
  b.loadRef(); // state_update
  const extra = b.loadRef().beginParse();
  if (extra.loadUint(32) !== BLOCK_EXTRA_TAG) throw new BlockFormatError('BlockExtra tag is not 0x4a33f6fd');
  extra.loadRef();
  extra.loadRef();
  extra.loadRef();
  extra.skip(512);
  if (!extra.loadBit()) return []; // not a masterchain block
  const mc = extra.loadRef().beginParse();
  if (mc.loadUint(16) !== MC_BLOCK_EXTRA_TAG) throw new BlockFormatError('McBlockExtra tag is not 0xcca5');
  mc.loadBit(); // key_block
  const dict = mc.loadDict(Dictionary.Keys.Int(32), Dictionary.Values.Cell());
  const tops: ShardTop[] = [];
  for (const [workchain, treeCell] of dict) {
    const walk = (c: Cell, shard: bigint): void => {
      const s = c.beginParse();
      if (s.loadBit()) {
        const half = (shard & -shard) >> 1n;
        walk(s.loadRef(), shard - half);
        walk(s.loadRef(), shard + half);
        return;
      }
      const tag = s.loadUint(4);
      if (tag !== 0xb && tag !== 0xa) throw new BlockFormatError(`ShardDescr tag ${tag} is neither #a nor #b`);
      const seqno = s.loadUint(32);
      s.loadUint(32); // reg_mc_seqno
      s.loadUintBig(64); // start_lt
      const endLt = s.loadUintBig(64);
      const rootHash = s.loadBuffer(32).toString('hex');
      const fileHash = s.loadBuffer(32).toString('hex');
      const beforeSplit = s.loadBit();
      const beforeMerge = s.loadBit();
      tops.push({ workchain, shard, seqno, rootHash, fileHash, beforeSplit, beforeMerge, endLt });
    };
    walk(treeCell, MASTER_SHARD);
  }
  return tops.sort((a, b) => a.workchain - b.workchain || (a.shard < b.shard ? -1 : a.shard > b.shard ? 1 : 0));
}
