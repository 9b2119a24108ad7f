/**
 * The TL-B readers proof checks need: block headers, shard descriptions, config params, validator sets.
 * They work on Merkle proof trees (only the cells on the path read are needed).
 * Schemas quoted from crypto/block/block.tlb (ton-blockchain/ton).
 */
import { Dictionary, type Cell, type Slice } from '@ton/core';
import { shardChildren, shardParent } from '../format/index.ts';
import type { CatchainConfig, ValidatorDescr, ValidatorSet } from '../ton/index.ts';

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
  if (info.afterMerge) return shardChildren(info.shard);
  if (info.afterSplit) return [shardParent(info.shard)];
  return [info.shard];
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

/** The shard tops of a ShardHashes dictionary root (the Hashmap 32 cell a non-empty HashmapE refers to). */
export function readShardHashesDict(dictRoot: Cell): ShardTop[] {
  const dict = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), dictRoot);
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

/**
 * Looks up one key of a Hashmap(E) root (labels hml_short$0 / hml_long$10 / hml_same$11, forks to refs 0/1).
 * Works on Merkle proof trees: only the cells on the key's path are read, a pruned one throws.
 * Returns the leaf slice (the value, after an augmented leaf's extra), null when the key is absent.
 */
export function hashmapLookup(root: Cell, keyBits: number, key: bigint): Slice | null {
  let cell = root;
  let remaining = keyBits;
  let pos = 0;
  const bitAt = (i: number) => (key >> BigInt(keyBits - 1 - i)) & 1n;
  for (;;) {
    const s = cell.beginParse();
    const lenBits = Math.ceil(Math.log2(remaining + 1));
    let label: bigint[];
    const b0 = s.loadBit();
    const b1 = b0 ? s.loadBit() : false;
    if (!b0) {
      let n = 0;
      while (s.loadBit()) n++;
      label = Array.from({ length: n }, () => (s.loadBit() ? 1n : 0n));
    } else if (!b1) {
      const n = s.loadUint(lenBits);
      label = Array.from({ length: n }, () => (s.loadBit() ? 1n : 0n));
    } else {
      const v = s.loadBit() ? 1n : 0n;
      label = new Array<bigint>(s.loadUint(lenBits)).fill(v);
    }
    for (const b of label) {
      if (bitAt(pos) !== b) return null;
      pos++;
    }
    remaining -= label.length;
    if (remaining === 0) return s;
    cell = cell.refs[Number(bitAt(pos))];
    pos++;
    remaining--;
  }
}

/** One config param (a ConfigParams dictionary, Hashmap 32 ^Cell) from a possibly pruned tree; null when absent. */
export function configParam(config: Cell, id: number): Cell | null {
  const leaf = hashmapLookup(config, 32, BigInt.asUintN(32, BigInt(id)));
  return leaf ? leaf.loadRef() : null;
}

/**
 * validators#11 utime_since:uint32 utime_until:uint32 total:(## 16) main:(## 16) { main <= total } { main >= 1 }
 *   list:(Hashmap 16 ValidatorDescr) = ValidatorSet;
 * validators_ext#12 utime_since:uint32 utime_until:uint32 total:(## 16) main:(## 16) { main <= total } { main >= 1 }
 *   total_weight:uint64 list:(HashmapE 16 ValidatorDescr) = ValidatorSet;
 * validator#53 public_key:SigPubKey weight:uint64 = ValidatorDescr; ed25519_pubkey#8e81278a pubkey:bits256 = SigPubKey;
 * validator_addr#73 public_key:SigPubKey weight:uint64 adnl_addr:bits256 = ValidatorDescr;
 */
export function loadValidatorSet(c: Cell): ValidatorSet {
  const s = c.beginParse();
  const tag = s.loadUint(8);
  if (tag !== 0x11 && tag !== 0x12) throw new Error(`not a ValidatorSet (tag 0x${tag.toString(16)})`);
  const utimeSince = s.loadUint(32);
  const utimeUntil = s.loadUint(32);
  const total = s.loadUint(16);
  const main = s.loadUint(16);
  let totalWeight = tag === 0x12 ? s.loadUintBig(64) : 0n;
  const value = {
    serialize: () => {
      throw new Error('read only');
    },
    parse: (v: Slice): ValidatorDescr => {
      const t = v.loadUint(8);
      if (t !== 0x53 && t !== 0x73) throw new Error(`not a ValidatorDescr (tag 0x${t.toString(16)})`);
      if (v.loadUint(32) !== 0x8e81278a) throw new Error('ValidatorDescr: not an ed25519 public key');
      const publicKey = v.loadBuffer(32);
      const weight = v.loadUintBig(64);
      return { publicKey, weight, adnlAddr: t === 0x73 ? v.loadBuffer(32) : null };
    },
  };
  const dict = tag === 0x12 ? s.loadDict(Dictionary.Keys.Uint(16), value) : Dictionary.loadDirect(Dictionary.Keys.Uint(16), value, s);
  const list = [...dict.keys()].sort((a, b) => a - b).map((k) => dict.get(k)!);
  if (tag === 0x11) totalWeight = list.reduce((t, v) => t + v.weight, 0n);
  return { utimeSince, utimeUntil, total, main, totalWeight, list };
}

/**
 * catchain_config#c1 mc_catchain_lifetime:uint32 shard_catchain_lifetime:uint32 shard_validators_lifetime:uint32
 *   shard_validators_num:uint32 = CatchainConfig;
 * catchain_config_new#c2 flags:(## 7) { flags = 0 } shuffle_mc_validators:Bool mc_catchain_lifetime:uint32
 *   shard_catchain_lifetime:uint32 shard_validators_lifetime:uint32 shard_validators_num:uint32 = CatchainConfig;
 * (no param 28: the node's defaults, no shuffle and 7 shard validators)
 */
export function loadCatchainConfig(c: Cell | null): CatchainConfig {
  if (!c) return { shuffleMcValidators: false, shardValidatorsNum: 7 };
  const s = c.beginParse();
  const tag = s.loadUint(8);
  let shuffleMcValidators = false;
  if (tag === 0xc2) {
    s.skip(7);
    shuffleMcValidators = s.loadBit();
  } else if (tag !== 0xc1) {
    throw new Error(`not a CatchainConfig (tag 0x${tag.toString(16)})`);
  }
  s.skip(96);
  return { shuffleMcValidators, shardValidatorsNum: s.loadUint(32) };
}
