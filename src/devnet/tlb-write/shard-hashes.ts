/** ShardHashes writers (crypto/block/block.tlb, ton-blockchain/ton); the ShardDescr type and writer are src/ton's. */
import { beginCell, Dictionary, type Builder, type Cell } from '@ton/core';
import { storeShardDescr, type ShardDescr } from '../../ton/index.ts';
import { shardChildren } from './common.ts';

/**
 * bt_leaf$0 {X:Type} leaf:X = BinTree X;
 * bt_fork$1 {X:Type} left:^(BinTree X) right:^(BinTree X) = BinTree X;
 */
function binTree(descrs: ShardDescr[], shard: bigint): Cell {
  const own = descrs.find((d) => BigInt('0x' + d.shard) === shard);
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
