/** ShardHashes writers (crypto/block/block.tlb, ton-blockchain/ton). */
import { beginCell, Dictionary, type Builder, type Cell } from '@ton/core';
import { shardChildren, storeCurrencyCollection } from './common.ts';

export interface ShardDescr {
  workchain: number;
  shard: bigint;
  seqno: number;
  regMcSeqno: number;
  startLt: bigint;
  endLt: bigint;
  rootHash: Buffer;
  fileHash: Buffer;
  beforeSplit: boolean;
  beforeMerge: boolean;
  wantSplit: boolean;
  wantMerge: boolean;
  nextCatchainSeqno: number;
  minRefMcSeqno: number;
  genUtime: number;
  feesCollected: bigint;
  fundsCreated: bigint;
}

/**
 * shard_descr#b seq_no:uint32 reg_mc_seqno:uint32 start_lt:uint64 end_lt:uint64
 *   root_hash:bits256 file_hash:bits256 before_split:Bool before_merge:Bool
 *   want_split:Bool want_merge:Bool nx_cc_updated:Bool flags:(## 3) { flags = 0 }
 *   next_catchain_seqno:uint32 next_validator_shard:uint64 min_ref_mc_seqno:uint32 gen_utime:uint32
 *   split_merge_at:FutureSplitMerge fees_collected:CurrencyCollection
 *   funds_created:CurrencyCollection = ShardDescr;
 * fsm_none$0 = FutureSplitMerge;
 */
export function storeShardDescr(b: Builder, d: ShardDescr): void {
  b.storeUint(0xb, 4)
    .storeUint(d.seqno, 32)
    .storeUint(d.regMcSeqno, 32)
    .storeUint(d.startLt, 64)
    .storeUint(d.endLt, 64)
    .storeBuffer(d.rootHash, 32)
    .storeBuffer(d.fileHash, 32)
    .storeBit(d.beforeSplit)
    .storeBit(d.beforeMerge)
    .storeBit(d.wantSplit)
    .storeBit(d.wantMerge)
    .storeBit(0)
    .storeUint(0, 3)
    .storeUint(d.nextCatchainSeqno, 32)
    .storeUint(d.shard, 64)
    .storeUint(d.minRefMcSeqno, 32)
    .storeUint(d.genUtime, 32)
    .storeBit(0);
  storeCurrencyCollection(b, d.feesCollected);
  storeCurrencyCollection(b, d.fundsCreated);
}

/**
 * bt_leaf$0 {X:Type} leaf:X = BinTree X;
 * bt_fork$1 {X:Type} left:^(BinTree X) right:^(BinTree X) = BinTree X;
 */
function binTree(descrs: ShardDescr[], shard: bigint): Cell {
  const own = descrs.find((d) => d.shard === shard);
  const b = beginCell();
  if (own) {
    b.storeBit(0);
    storeShardDescr(b, own);
    return b.endCell();
  }
  if ((shard & 1n) === 1n) throw new Error(`no shard descriptor covers ${shard.toString(16)}`);
  const [l, r] = shardChildren(shard);
  return b.storeBit(1).storeRef(binTree(descrs, l)).storeRef(binTree(descrs, r)).endCell();
}

/** _ (HashmapE 32 ^(BinTree ShardDescr)) = ShardHashes; */
export function storeShardHashes(b: Builder, descrs: ShardDescr[]): void {
  const dict = Dictionary.empty(Dictionary.Keys.Int(32), Dictionary.Values.Cell());
  const wcs = [...new Set(descrs.map((d) => d.workchain))].sort((a, c) => a - c);
  for (const wc of wcs) {
    dict.set(
      wc,
      binTree(
        descrs.filter((d) => d.workchain === wc),
        0x8000000000000000n,
      ),
    );
  }
  b.storeDict(dict);
}
