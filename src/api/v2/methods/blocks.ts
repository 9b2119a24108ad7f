/** Masterchain info, block lookup, shards, headers, proofs, signatures, queue sizes. */
import { hashToBase64 } from '../../../format/index.ts';
import {
  blockIdParams,
  lookupBlockParams,
  mcSeqnoParams,
  noParams,
  shardBlockProofParams,
  signaturesParams,
} from '../../../../schemas/api/v2/params.ts';
import { badParam } from '../../errors.ts';
import type { TlObject } from '../../../tl/index.ts';
import { blockIdTl, lastMcBlock, lookupBlock, masterchainInfo, mcBlock, resolveBlock, MASTER_SHARD_SIGNED, type BlockIdTl } from '../chain.ts';
import { blockIdJson } from '../convert.ts';
import { defineMethod } from '../method.ts';
import { checkProofChain, checkShardBlockLinks, ProofError, queueSizeFromProof, sameBlock } from '../proofs.ts';
import { blockFromProof, prevShards, readBlockInfo, readGlobalId, readShardHashes, shardOf } from '../tlb.ts';

export const getMasterchainInfo = defineMethod({
  name: 'getMasterchainInfo',
  params: noParams,
  async run(ctx) {
    const info = await masterchainInfo(ctx.node());
    const init = info.init as TlObject;
    return {
      '@type': 'blocks.masterchainInfo',
      last: blockIdJson(info.last as TlObject),
      state_root_hash: hashToBase64(info.state_root_hash as Buffer),
      init: blockIdJson({ workchain: init.workchain, shard: 0n, seqno: 0, root_hash: init.root_hash, file_hash: init.file_hash }),
    };
  },
});

export const getConsensusBlock = defineMethod({
  name: 'getConsensusBlock',
  params: noParams,
  async run(ctx) {
    const node = ctx.node();
    const c = node.consensus?.() ?? null;
    if (c) return { '@type': 'ext.blocks.consensusBlock', consensus_block: c.seqno, timestamp: c.at };
    const info = await masterchainInfo(node);
    return { '@type': 'ext.blocks.consensusBlock', consensus_block: Number((info.last as TlObject).seqno), timestamp: Math.floor(Date.now() / 1000) };
  },
});

export const lookupBlockMethod = defineMethod({
  name: 'lookupBlock',
  params: lookupBlockParams,
  async run(ctx, p) {
    const by = p.seqno !== undefined ? { seqno: p.seqno } : p.lt !== undefined ? { lt: p.lt } : { utime: p.unixtime! };
    return blockIdJson(await lookupBlock(ctx.node(), p.workchain, p.shard, by));
  },
});

async function shardsAt(ctx: Parameters<typeof getMasterchainInfo.run>[0], seqno: number) {
  const node = ctx.node();
  const mc = await mcBlock(node, seqno);
  const res = await node.query({ _: 'liteServer.getAllShardsInfo', id: mc });
  return { mc, tops: readShardHashes(res.data as Buffer) };
}

export const getShards = defineMethod({
  name: 'getShards',
  params: mcSeqnoParams,
  async run(ctx, p) {
    const { tops } = await shardsAt(ctx, p.seqno);
    return { '@type': 'blocks.shards', shards: tops.map((t) => blockIdJson(blockIdTl(t.workchain, t.shard, t.seqno, t.rootHash, t.fileHash))) };
  },
});

export const shards = defineMethod({ ...getShards, name: 'shards' });

export const getBlockHeader = defineMethod({
  name: 'getBlockHeader',
  params: blockIdParams,
  async run(ctx, p) {
    const node = ctx.node();
    const id = await resolveBlock(node, p);
    const res = await node.query({ _: 'liteServer.getBlockHeader', id, mode: 0xffff });
    const info = readBlockInfo(blockFromProof(res.header_proof as Buffer));
    const globalId = (() => {
      try {
        return readGlobalId(blockFromProof(res.header_proof as Buffer));
      } catch {
        return 0;
      }
    })();
    const prevShardIds = prevShards(info);
    return {
      '@type': 'blocks.header',
      id: blockIdJson(id),
      global_id: globalId,
      version: info.version,
      flags: info.flags,
      after_merge: info.after_merge,
      after_split: info.after_split,
      before_split: info.before_split,
      want_merge: info.want_merge,
      want_split: info.want_split,
      validator_list_hash_short: info.gen_validator_list_hash_short,
      catchain_seqno: info.gen_catchain_seqno,
      min_ref_mc_seqno: info.min_ref_mc_seqno,
      is_key_block: info.key_block,
      prev_key_block_seqno: info.prev_key_block_seqno,
      start_lt: info.start_lt.toString(),
      end_lt: info.end_lt.toString(),
      gen_utime: info.gen_utime,
      vert_seqno: info.vert_seqno,
      prev_blocks: info.prev_ref.map((r, i) => blockIdJson(blockIdTl(info.workchain, prevShardIds[i] ?? shardOf(info), r.seqno, Buffer.from(r.root_hash, 'hex'), Buffer.from(r.file_hash, 'hex')))),
    };
  },
});

/**
 * Signatures of masterchain block `seqno`, as tonlib gets them: the forward link from block seqno - 1 (the
 * zero state for seqno 1) to the block carries them. The proof chain is checked: the signers are the
 * masterchain validators of the configuration in force, and they hold more than 2/3 of the weight.
 */
export const getMasterchainBlockSignatures = defineMethod({
  name: 'getMasterchainBlockSignatures',
  params: signaturesParams,
  async run(ctx, p) {
    const node = ctx.node();
    const target = await mcBlock(node, p.seqno);
    let prev: BlockIdTl;
    if (p.seqno === 1) {
      const init = (await masterchainInfo(node)).init as TlObject;
      prev = blockIdTl(-1, MASTER_SHARD_SIGNED, 0, init.root_hash as Buffer, init.file_hash as Buffer);
    } else {
      prev = await mcBlock(node, p.seqno - 1);
    }
    const proof = await node.query({ _: 'liteServer.getBlockProof', mode: 0x1001, known_block: prev, target_block: target });
    const steps = checkProofChain(proof, prev, target);
    const last = steps[steps.length - 1];
    if (!last || last._ !== 'liteServer.blockLinkForward') throw new ProofError('the proof chain ends with no forward link carrying signatures');
    const sigs = ((last.signatures as TlObject).signatures as TlObject[]).map((s) => ({
      '@type': 'blocks.signature',
      node_id_short: hashToBase64(s.node_id_short as Buffer),
      signature: (s.signature as Buffer).toString('base64'),
    }));
    return { '@type': 'blocks.blockSignatures', id: blockIdJson(target), signatures: sigs };
  },
});

/**
 * Proof that a shard block belongs to the chain, as tonlib builds it: links from the masterchain block that
 * committed it down to the block (checked), then a backward link from `from_seqno` (default: the last
 * masterchain block) to that masterchain block (checked).
 */
export const getShardBlockProof = defineMethod({
  name: 'getShardBlockProof',
  params: shardBlockProofParams,
  async run(ctx, p) {
    const node = ctx.node();
    const id = await lookupBlock(node, p.workchain, p.shard, { seqno: p.seqno });
    const from = p.from_seqno !== undefined ? await mcBlock(node, p.from_seqno) : await lastMcBlock(node);
    const res = await node.query({ _: 'liteServer.getShardBlockProof', id });
    const mcId = res.masterchain_id as BlockIdTl;
    const links = res.links as TlObject[];
    checkShardBlockLinks(mcId, links, id);
    if (mcId.seqno > from.seqno) {
      throw badParam('from_seqno', `masterchain block ${from.seqno} is older than block ${mcId.seqno} that committed the shard block`);
    }
    let mcProof: unknown[] = [];
    if (!sameBlock(from, mcId)) {
      const proof = await node.query({ _: 'liteServer.getBlockProof', mode: 0x1001, known_block: from, target_block: mcId });
      const steps = checkProofChain(proof, from, mcId, 1);
      mcProof = steps.map((s) => ({
        '@type': 'blocks.blockLinkBack',
        to_key_block: Boolean(s.to_key_block),
        from: blockIdJson(s.from as TlObject),
        to: blockIdJson(s.to as TlObject),
        dest_proof: (s.dest_proof as Buffer).toString('base64'),
        proof: (s.proof as Buffer).toString('base64'),
        state_proof: (s.state_proof as Buffer).toString('base64'),
      }));
    }
    return {
      '@type': 'blocks.shardBlockProof',
      from: blockIdJson(from),
      mc_id: blockIdJson(mcId),
      links: links.map((l) => ({ '@type': 'blocks.shardBlockLink', id: blockIdJson(l.id as TlObject), proof: (l.proof as Buffer).toString('base64') })),
      mc_proof: mcProof,
    };
  },
});

/**
 * Out message queue sizes of the last masterchain block and its shard tops: each size read from a proof of the
 * block's state (liteServer.getBlockOutMsgQueueSize with proof), the limit from liteServer.getOutMsgQueueSizes.
 */
export const getOutMsgQueueSize = defineMethod({
  name: 'getOutMsgQueueSize',
  params: noParams,
  async run(ctx) {
    const node = ctx.node();
    const last = await lastMcBlock(node);
    const [all, sizes] = await Promise.all([
      node.query({ _: 'liteServer.getAllShardsInfo', id: last }),
      node.query({ _: 'liteServer.getOutMsgQueueSizes', mode: 0 }),
    ]);
    const blocks = [last, ...readShardHashes(all.data as Buffer).map((t) => blockIdTl(t.workchain, t.shard, t.seqno, t.rootHash, t.fileHash))];
    const shards = await Promise.all(
      blocks.map(async (id) => {
        const res = await node.query({ _: 'liteServer.getBlockOutMsgQueueSize', mode: 1, id });
        if (!sameBlock(res.id as BlockIdTl, id)) throw new ProofError('the out queue size is for another block');
        const size = queueSizeFromProof(res.proof as Buffer, id);
        if (size !== BigInt(res.size as bigint)) throw new ProofError(`the liteserver says ${res.size} messages, its proof ${size}`);
        return { '@type': 'blocks.outMsgQueueSize', id: blockIdJson(id), size: Number(size) };
      }),
    );
    return { '@type': 'blocks.outMsgQueueSizes', shards, ext_msg_queue_size_limit: Number(sizes.ext_msg_queue_size_limit) };
  },
});
