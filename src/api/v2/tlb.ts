/**
 * The few TL-B readers API v2 needs on liteserver answers (proofs and shard descriptions).
 * Schemas quoted from crypto/block/block.tlb (ton-blockchain/ton).
 */
import { Cell, Dictionary, loadShardStateUnsplit, type Slice } from '@ton/core';

export interface ExtBlkRef {
  endLt: bigint;
  seqno: number;
  rootHash: Buffer;
  fileHash: Buffer;
}

/** ext_blk_ref$_ end_lt:uint64 seq_no:uint32 root_hash:bits256 file_hash:bits256 = ExtBlkRef; */
function loadExtBlkRef(s: Slice): ExtBlkRef {
  return { endLt: s.loadUintBig(64), seqno: s.loadUint(32), rootHash: s.loadBuffer(32), fileHash: s.loadBuffer(32) };
}

export interface BlockInfo {
  globalId: number;
  version: number;
  notMaster: boolean;
  afterMerge: boolean;
  beforeSplit: boolean;
  afterSplit: boolean;
  wantSplit: boolean;
  wantMerge: boolean;
  keyBlock: boolean;
  vertSeqnoIncr: boolean;
  flags: number;
  seqno: number;
  vertSeqno: number;
  workchain: number;
  /** unsigned 64-bit shard id */
  shard: bigint;
  genUtime: number;
  startLt: bigint;
  endLt: bigint;
  genValidatorListHashShort: number;
  genCatchainSeqno: number;
  minRefMcSeqno: number;
  prevKeyBlockSeqno: number;
  masterRef: ExtBlkRef | null;
  prev: ExtBlkRef[];
}

/**
 * block#11ef55aa global_id:int32 info:^BlockInfo value_flow:^ValueFlow state_update:^(MERKLE_UPDATE ShardState) extra:^BlockExtra = Block;
 * block_info#9bc7a987 version:uint32 not_master:(## 1) after_merge:(## 1) before_split:(## 1) after_split:(## 1)
 *   want_split:Bool want_merge:Bool key_block:Bool vert_seqno_incr:(## 1) flags:(## 8) { flags <= 1 }
 *   seq_no:# vert_seq_no:# ... shard:ShardIdent gen_utime:uint32 start_lt:uint64 end_lt:uint64
 *   gen_validator_list_hash_short:uint32 gen_catchain_seqno:uint32 min_ref_mc_seqno:uint32 prev_key_block_seqno:uint32
 *   gen_software:flags . 0?GlobalVersion master_ref:not_master?^BlkMasterInfo prev_ref:^(BlkPrevInfo after_merge)
 *   prev_vert_ref:vert_seqno_incr?^(BlkPrevInfo 0) = BlockInfo;
 * shard_ident$00 shard_pfx_bits:(#<= 60) workchain_id:int32 shard_prefix:uint64 = ShardIdent;
 */
export function readBlockInfo(block: Cell): BlockInfo {
  const bs = block.beginParse(true);
  const tag = bs.loadUint(32);
  if (tag !== 0x11ef55aa) throw new Error(`not a Block cell (tag 0x${tag.toString(16)})`);
  const globalId = bs.loadInt(32);
  const s = bs.loadRef().beginParse(true);
  const itag = s.loadUint(32);
  if (itag !== 0x9bc7a987) throw new Error(`not a BlockInfo cell (tag 0x${itag.toString(16)})`);
  const version = s.loadUint(32);
  const notMaster = s.loadBit();
  const afterMerge = s.loadBit();
  const beforeSplit = s.loadBit();
  const afterSplit = s.loadBit();
  const wantSplit = s.loadBit();
  const wantMerge = s.loadBit();
  const keyBlock = s.loadBit();
  const vertSeqnoIncr = s.loadBit();
  const flags = s.loadUint(8);
  const seqno = s.loadUint(32);
  const vertSeqno = s.loadUint(32);
  s.loadUint(2); // shard_ident$00
  const pfxBits = s.loadUint(6);
  const workchain = s.loadInt(32);
  // shard_prefix holds the prefix bits only; the shard id adds the terminating 1 bit.
  const shardPrefix = s.loadUintBig(64) | (1n << BigInt(63 - pfxBits));
  const genUtime = s.loadUint(32);
  const startLt = s.loadUintBig(64);
  const endLt = s.loadUintBig(64);
  const genValidatorListHashShort = s.loadUint(32);
  const genCatchainSeqno = s.loadUint(32);
  const minRefMcSeqno = s.loadUint(32);
  const prevKeyBlockSeqno = s.loadUint(32);
  if (flags & 1) {
    s.loadUint(8); // capabilities#c4
    s.loadUint(32);
    s.loadUintBig(64);
  }
  const masterRef = notMaster ? loadExtBlkRef(s.loadRef().beginParse(true)) : null;
  const prevCell = s.loadRef();
  const prev = afterMerge ? [loadExtBlkRef(prevCell.refs[0].beginParse(true)), loadExtBlkRef(prevCell.refs[1].beginParse(true))] : [loadExtBlkRef(prevCell.beginParse(true))];
  return {
    globalId, version, notMaster, afterMerge, beforeSplit, afterSplit, wantSplit, wantMerge, keyBlock, vertSeqnoIncr, flags,
    seqno, vertSeqno, workchain, shard: shardPrefix, genUtime, startLt, endLt, genValidatorListHashShort, genCatchainSeqno,
    minRefMcSeqno, prevKeyBlockSeqno, masterRef, prev,
  };
}

/** Shards of the previous blocks: children after a merge, the parent after a split, else the same shard. */
export function prevShards(info: BlockInfo): bigint[] {
  const s = info.shard;
  const low = s & -s;
  if (info.afterMerge) return [s - (low >> 1n), s + (low >> 1n)];
  if (info.afterSplit) return [(s - low) | (low << 1n)];
  return [s];
}

/** The Block cell inside a Merkle proof BoC (the proof's single ref). */
export function blockFromProof(proofBoc: Buffer, root = 0): Cell {
  const cells = Cell.fromBoc(proofBoc);
  const proof = cells[root];
  return proof.isExotic ? proof.refs[0] : proof;
}

export interface ShardTop {
  workchain: number;
  shard: bigint;
  seqno: number;
  rootHash: Buffer;
  fileHash: Buffer;
  startLt: bigint;
  endLt: bigint;
}

/**
 * _ (HashmapE 32 ^(BinTree ShardDescr)) = ShardHashes;
 * shard_descr#b seq_no:uint32 reg_mc_seqno:uint32 start_lt:uint64 end_lt:uint64 root_hash:bits256 file_hash:bits256 ... = ShardDescr;
 * (shard_descr_new#a has the same leading fields)
 */
export function readShardHashes(data: Buffer): ShardTop[] {
  const root = Cell.fromBoc(data)[0];
  const cs = root.beginParse(true);
  if (!cs.loadBit()) return [];
  const dict = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), cs.loadRef());
  const out: ShardTop[] = [];
  for (const [wc, treeRef] of dict) {
    // Values.Cell() already follows the ^ of ^(BinTree ShardDescr): treeRef is the tree root.
    const stack: { cell: Cell; shard: bigint }[] = [{ cell: treeRef, shard: 1n << 63n }];
    while (stack.length > 0) {
      const { cell, shard } = stack.pop()!;
      const s = cell.beginParse(true);
      if (!s.loadBit()) {
        s.loadUint(4);
        const seqno = s.loadUint(32);
        s.loadUint(32);
        const startLt = s.loadUintBig(64);
        const endLt = s.loadUintBig(64);
        out.push({ workchain: wc, shard, seqno, rootHash: s.loadBuffer(32), fileHash: s.loadBuffer(32), startLt, endLt });
        continue;
      }
      const delta = (shard & -shard) >> 1n;
      stack.push({ cell: s.loadRef(), shard: shard - delta });
      stack.push({ cell: s.loadRef(), shard: shard + delta });
    }
  }
  return out.sort((a, b) => a.workchain - b.workchain || (a.shard < b.shard ? -1 : a.shard > b.shard ? 1 : 0));
}

/** last_trans_lt / last_trans_hash of an account from a getAccountState state proof (ShardState). */
export function lastTxFromStateProof(proofBoc: Buffer, accountHash: Buffer): { lt: bigint; hash: Buffer } | null {
  try {
    const roots = Cell.fromBoc(proofBoc);
    const stateProof = roots[1];
    if (!stateProof) return null;
    const state = loadShardStateUnsplit(stateProof.refs[0].beginParse(true));
    const acc = state.accounts?.get(BigInt('0x' + accountHash.toString('hex')));
    if (!acc) return null;
    return { lt: acc.shardAccount.lastTransactionLt, hash: Buffer.from(acc.shardAccount.lastTransactionHash.toString(16).padStart(64, '0'), 'hex') };
  } catch {
    return null;
  }
}

/** gen_utime of the shard block in a getAccountState proof (first root: the shard block's header proof). */
export function genUtimeFromAccountProof(proofBoc: Buffer): number | null {
  try {
    return readBlockInfo(blockFromProof(proofBoc, 0)).genUtime;
  } catch {
    return null;
  }
}

/** The ConfigParams dictionary cell from a getConfigAll / getConfigParams config proof (ShardStateUnsplit -> McStateExtra). */
export function configFromProof(configProofBoc: Buffer): Cell {
  const proof = Cell.fromBoc(configProofBoc)[0];
  const stateCell = proof.isExotic ? proof.refs[0] : proof;
  // shard_state#9023afe2 ... ^[...] custom:(Maybe ^McStateExtra) = ShardStateUnsplit; custom is the last ref
  const s = stateCell.beginParse(true);
  if (s.loadUint(32) !== 0x9023afe2) throw new Error('config proof does not hold a ShardStateUnsplit');
  const refs = stateCell.refs;
  // out_msg_queue_info, accounts, ^[overload...], custom?: McStateExtra is the 4th ref when present.
  const extra = refs[3];
  if (!extra) throw new Error('config proof has no McStateExtra');
  // masterchain_state_extra#cc26 shard_hashes:ShardHashes config:ConfigParams ...
  // _ config_addr:bits256 config:^(Hashmap 32 ^Cell) = ConfigParams;
  const es = extra.beginParse(true);
  if (es.loadUint(16) !== 0xcc26) throw new Error('McStateExtra tag mismatch');
  if (es.loadBit()) es.loadRef(); // shard_hashes (HashmapE)
  es.loadBuffer(32);
  return es.loadRef();
}
