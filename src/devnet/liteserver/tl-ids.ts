/** lite_api `tonNode.blockIdExt` <-> the devnet chain's block ids (shard signed in TL, unsigned in the chain). */
import type { TlObject } from '../../tl/index.ts';
import type { BlockIdExt } from '../chain/block.ts';

export function tlBlockId(id: BlockIdExt): TlObject {
  return { workchain: id.workchain, shard: BigInt.asIntN(64, id.shard), seqno: id.seqno, root_hash: id.rootHash, file_hash: id.fileHash };
}

export function readBlockId(o: TlObject): BlockIdExt {
  return {
    workchain: o.workchain as number,
    shard: BigInt.asUintN(64, o.shard as bigint),
    seqno: o.seqno as number,
    rootHash: o.root_hash as Buffer,
    fileHash: o.file_hash as Buffer,
  };
}
