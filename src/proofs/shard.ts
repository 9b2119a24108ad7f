/**
 * Proofs below the masterchain: a shard block's links down from the masterchain block that committed it
 * (tonlib GetShardBlockProof), and a block's out message queue size (liteServer.getBlockOutMsgQueueSize).
 */
import type { TlBlockIdExt, TlObject } from '../tl/index.ts';
import { headerOf, idStr, proofRoot, ProofCheckError, sameBlock, stateHashOf } from './links.ts';
import { prevShards, readBlockInfo, readShardHashesDict } from './tlb.ts';

/**
 * liteServer.shardBlockProof links from the masterchain block down to `target` (tonlib GetShardBlockProof):
 * each proof is of the current block; a masterchain block lists the next one as its shard's top block, a shard
 * block lists it among its previous blocks.
 */
export function checkShardBlockLinks(mcId: TlBlockIdExt, links: TlObject[], target: TlBlockIdExt): void {
  if (mcId.workchain !== -1) throw new ProofCheckError('the masterchain block id is not in the masterchain');
  if (links.length > 8) throw new ProofCheckError('chain is too long');
  let cur = mcId;
  for (const link of links) {
    const next = link.id as TlBlockIdExt;
    const where = `shard link ${idStr(cur)} -> ${idStr(next)}`;
    const root = proofRoot(link.proof as Buffer, cur.root_hash, `${where} proof`);
    try {
      if (cur.workchain === -1) {
        // block -> extra -> McBlockExtra: shard_hashes:ShardHashes (HashmapE 32 ^(BinTree ShardDescr))
        const mc = root.refs[3].refs[3];
        const ms = mc.beginParse();
        if (ms.loadUint(16) !== 0xcca5) throw new Error('no McBlockExtra');
        ms.loadBit();
        const tops = ms.loadBit() ? readShardHashesDict(mc.refs[0]) : [];
        const top = tops.find((t) => t.workchain === next.workchain && t.shard === BigInt.asUintN(64, next.shard));
        if (!top || top.seqno !== next.seqno || !top.rootHash.equals(next.root_hash) || !top.fileHash.equals(next.file_hash)) {
          throw new Error('prev block is not in mc shard list');
        }
      } else {
        const info = readBlockInfo(root);
        const shards = prevShards(info);
        const ok = info.prev_ref.some(
          (p, i) => p.seqno === next.seqno && p.root_hash === next.root_hash.toString('hex') && p.file_hash === next.file_hash.toString('hex') && shards[i] === BigInt.asUintN(64, next.shard),
        );
        if (!ok) throw new Error('prev block is not in prev blocks list');
      }
    } catch (e) {
      if (e instanceof ProofCheckError) throw e;
      throw new ProofCheckError(`${where}: ${(e as Error).message}`);
    }
    cur = next;
  }
  if (!sameBlock(cur, target)) throw new ProofCheckError('the shard proof chain does not end at the requested block');
}

/**
 * The out queue size of a block from a getBlockOutMsgQueueSize proof: [block header with state hash, state ->
 * OutMsgQueueInfo]; out_msg_queue_extra#0 dispatch_queue:DispatchQueue out_queue_size:(Maybe uint48).
 */
export function queueSizeFromProof(proofBoc: Buffer, id: TlBlockIdExt): bigint {
  const where = `out queue proof of ${idStr(id)}`;
  const header = headerOf(proofBoc, id, where);
  const state = proofRoot(proofBoc, stateHashOf(header.root, where), `${where} (state)`, 1);
  try {
    const info = state.refs[0].beginParse();
    if (info.loadBit()) info.loadRef();
    info.skip(64);
    if (info.loadBit()) info.loadRef();
    if (!info.loadBit() || info.loadUint(4) !== 0) throw new Error('no OutMsgQueueExtra in the state');
    if (info.loadBit()) info.loadRef();
    info.skip(64);
    if (!info.loadBit()) throw new Error('no out_queue_size in the state');
    return info.loadUintBig(48);
  } catch (e) {
    throw new ProofCheckError(`${where}: ${(e as Error).message}`);
  }
}
