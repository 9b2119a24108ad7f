/**
 * Checks of liteserver proofs, as tonlib does them before answering (crypto/block/check-proof.cpp
 * BlockProofLink::validate and BlockProofChain::validate; tonlib GetShardBlockProof; liteServer
 * getBlockOutMsgQueueSize proofs). A liteserver that sends something that does not check is answered with 542.
 */
import { Cell } from '@ton/core';
import { checkBlockSignatures, computeValidatorSubset, validatorSetHashShort } from '../../ton/index.ts';
import type { TlObject } from '../../tl/index.ts';
import { ApiError } from '../errors.ts';
import type { BlockIdTl } from './chain.ts';
import { configParam, hashmapLookup, loadCatchainConfig, loadValidatorSet, prevShards, readBlockInfo, readShardHashesDict, type BlockInfo } from './tlb.ts';

const MASTER_SHARD = 1n << 63n;

export class ProofError extends ApiError {
  constructor(message: string) {
    super(542, `LITE_SERVER_UNKNOWN: got invalid proof: ${message}`);
    this.name = 'ProofError';
  }
}

function idStr(id: BlockIdTl): string {
  return `(${id.workchain},${BigInt.asUintN(64, id.shard).toString(16)},${id.seqno})`;
}

export function sameBlock(a: BlockIdTl, b: BlockIdTl): boolean {
  return (
    a.workchain === b.workchain &&
    BigInt.asUintN(64, a.shard) === BigInt.asUintN(64, b.shard) &&
    a.seqno === b.seqno &&
    a.root_hash.equals(b.root_hash) &&
    a.file_hash.equals(b.file_hash)
  );
}

/** The virtual root of a Merkle proof BoC (root `index` of a multi-root BoC), checked to hash to `hash`. */
export function proofRoot(boc: Buffer, hash: Buffer, what: string, index = 0): Cell {
  let cell: Cell;
  try {
    cell = Cell.fromBoc(boc)[index];
  } catch (e) {
    throw new ProofError(`${what} is not a BoC (${(e as Error).message})`);
  }
  if (!cell || !cell.isExotic || cell.bits.length < 8 || cell.refs.length !== 1) throw new ProofError(`${what} is not a Merkle proof`);
  const root = cell.refs[0];
  if (!root.hash(0).equals(hash)) throw new ProofError(`${what} has root hash ${root.hash(0).toString('hex')} instead of ${hash.toString('hex')}`);
  return root;
}

/** A block header from a proof of the block `id` (root hash checked; workchain, shard and seqno too). */
function headerOf(boc: Buffer, id: BlockIdTl, what: string): { root: Cell; info: BlockInfo } {
  const root = proofRoot(boc, id.root_hash, what);
  let info: BlockInfo;
  try {
    info = readBlockInfo(root);
  } catch (e) {
    throw new ProofError(`${what}: cannot unpack the block header (${(e as Error).message})`);
  }
  if (info.workchain !== id.workchain || info.shard !== BigInt.asUintN(64, id.shard) || info.seqno !== id.seqno) {
    throw new ProofError(`${what} is the header of another block`);
  }
  return { root, info };
}

/** The new state hash of a block's state_update (!merkle_update#04 ... new:^X): the hash of its second ref. */
function stateHashOf(block: Cell, what: string): Buffer {
  const upd = block.refs[2];
  if (!upd || !upd.isExotic || upd.refs.length !== 2) throw new ProofError(`${what}: invalid Merkle update in block header`);
  return upd.refs[1].hash(0);
}

/** ConfigParams from a key block's McBlockExtra: block -> extra -> ^McBlockExtra -> config (last ref). */
function configOfKeyBlock(block: Cell): Cell {
  // block_extra ... custom:(Maybe ^McBlockExtra); masterchain_block_extra#cca5 key_extra:Bool ... config:key_extra?ConfigParams
  const extra = block.refs[3];
  const mc = extra.refs[3];
  const s = mc.beginParse();
  if (s.loadUint(16) !== 0xcca5 || !s.loadBit()) throw new Error('not a key block');
  return mc.refs[mc.refs.length - 1];
}

/** ConfigParams from a masterchain state (the zero state): ShardStateUnsplit -> McStateExtra -> config. */
function configOfState(state: Cell): Cell {
  const custom = state.refs[3];
  const s = custom.beginParse();
  if (s.loadUint(16) !== 0xcc26) throw new Error('no McStateExtra');
  return custom.refs[s.loadBit() ? 1 : 0];
}

/**
 * One link of a block proof chain (BlockProofLink::validate). Backward: `to` is in OldMcBlocksInfo of the
 * state of `from`. Forward: the validators of `from`'s configuration signed `to` with more than 2/3 of the weight.
 */
export function checkBlockLink(step: TlObject): void {
  const from = step.from as BlockIdTl;
  const to = step.to as BlockIdTl;
  const fwd = step._ === 'liteServer.blockLinkForward';
  const where = `link ${idStr(from)} -> ${idStr(to)}`;
  if (from.workchain !== -1 || to.workchain !== -1) throw new ProofError(`${where}: both ends must be masterchain blocks`);
  if (from.seqno === to.seqno) throw new ProofError(`${where}: connects two blocks of equal height`);
  if (fwd !== from.seqno < to.seqno) throw new ProofError(`${where}: declared as a ${fwd ? 'forward' : 'backward'} link`);
  let destInfo: BlockInfo | null = null;
  if (to.seqno > 0) {
    destInfo = headerOf(step.dest_proof as Buffer, to, `${where} destination proof`).info;
    if (destInfo.keyBlock !== Boolean(step.to_key_block)) throw new ProofError(`${where}: incorrect is_key_block value for the destination block`);
  }
  try {
    if (!fwd) {
      const src = headerOf(step.proof as Buffer, from, `${where} source proof`);
      const state = proofRoot(step.state_proof as Buffer, stateHashOf(src.root, where), `${where} state proof`);
      // McStateExtra ^[ flags:(## 16) validator_info:ValidatorInfo prev_blocks:OldMcBlocksInfo ... ]
      const custom = state.refs[3];
      const cs = custom.beginParse();
      if (cs.loadUint(16) !== 0xcc26) throw new Error('no McStateExtra in the state proof');
      const inner = custom.refs[(cs.loadBit() ? 1 : 0) + 1];
      const is = inner.beginParse();
      is.skip(16 + 65);
      const leaf = is.loadBit() ? hashmapLookup(inner.refs[0], 32, BigInt(to.seqno)) : null;
      if (!leaf) throw new Error(`${idStr(to)} is not a previous masterchain block of ${idStr(from)}`);
      // _ key:Bool max_end_lt:uint64 = KeyMaxLt (extra); _ key:Bool blk_ref:ExtBlkRef = KeyExtBlkRef
      leaf.skip(1 + 64 + 1 + 64);
      const seqno = leaf.loadUint(32);
      if (seqno !== to.seqno || !leaf.loadBuffer(32).equals(to.root_hash) || !leaf.loadBuffer(32).equals(to.file_hash)) {
        throw new Error(`the state of ${idStr(from)} lists another block ${seqno}`);
      }
      return;
    }
    if (!destInfo) throw new Error('a forward link needs a destination proof');
    // the configuration of the source key block (or zero state) decides who validates `to`
    const config =
      from.seqno > 0
        ? configOfKeyBlock(headerOf(step.config_proof as Buffer, from, `${where} config proof`).root)
        : configOfState(proofRoot(step.config_proof as Buffer, from.root_hash, `${where} zero state proof`));
    const p34 = configParam(config, 34);
    if (!p34) throw new Error('the source configuration has no current validator set (param 34)');
    const vset = loadValidatorSet(p34);
    const nodes = computeValidatorSubset(loadCatchainConfig(configParam(config, 28)), { workchain: -1, shard: MASTER_SHARD }, vset, destInfo.genCatchainSeqno);
    const hash = validatorSetHashShort(destInfo.genCatchainSeqno, nodes);
    if (hash !== destInfo.genValidatorListHashShort) {
      throw new Error(`computed validator set hash ${hash} differs from ${destInfo.genValidatorListHashShort} stated in the header of ${idStr(to)}`);
    }
    const set = step.signatures as TlObject;
    const sigs = (set.signatures as TlObject[]).map((s) => ({ nodeIdShort: s.node_id_short as Buffer, signature: s.signature as Buffer }));
    checkBlockSignatures(nodes, sigs, to.root_hash, to.file_hash);
  } catch (e) {
    if (e instanceof ProofError) throw e;
    throw new ProofError(`${where}: ${(e as Error).message}`);
  }
}

/** A partialBlockProof must be complete, go from `from` to `to`, and every link must check (BlockProofChain::validate). */
export function checkProofChain(proof: TlObject, from: BlockIdTl, to: BlockIdTl, maxLinks = 16): TlObject[] {
  const steps = proof.steps as TlObject[];
  if (!proof.complete || !sameBlock(proof.from as BlockIdTl, from) || !sameBlock(proof.to as BlockIdTl, to)) {
    throw new ProofError(`the proof chain does not go from ${idStr(from)} to ${idStr(to)}`);
  }
  if (steps.length > maxLinks) throw new ProofError(`the proof chain has ${steps.length} links, at most ${maxLinks} expected`);
  let cur = from;
  for (const step of steps) {
    if (!sameBlock(step.from as BlockIdTl, cur)) throw new ProofError(`a link begins at ${idStr(step.from as BlockIdTl)}, the previous one ends at ${idStr(cur)}`);
    checkBlockLink(step);
    cur = step.to as BlockIdTl;
  }
  if (!sameBlock(cur, to)) throw new ProofError(`the last link ends at ${idStr(cur)}, not ${idStr(to)}`);
  return steps;
}

/**
 * liteServer.shardBlockProof links from the masterchain block down to `target` (tonlib GetShardBlockProof):
 * each proof is of the current block; a masterchain block lists the next one as its shard's top block, a shard
 * block lists it among its previous blocks.
 */
export function checkShardBlockLinks(mcId: BlockIdTl, links: TlObject[], target: BlockIdTl): void {
  if (mcId.workchain !== -1) throw new ProofError('the masterchain block id is not in the masterchain');
  if (links.length > 8) throw new ProofError('chain is too long');
  let cur = mcId;
  for (const link of links) {
    const next = link.id as BlockIdTl;
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
        const ok = info.prev.some(
          (p, i) => p.seqno === next.seqno && p.rootHash.equals(next.root_hash) && p.fileHash.equals(next.file_hash) && shards[i] === BigInt.asUintN(64, next.shard),
        );
        if (!ok) throw new Error('prev block is not in prev blocks list');
      }
    } catch (e) {
      if (e instanceof ProofError) throw e;
      throw new ProofError(`${where}: ${(e as Error).message}`);
    }
    cur = next;
  }
  if (!sameBlock(cur, target)) throw new ProofError('the shard proof chain does not end at the requested block');
}

/**
 * The out queue size of a block from a getBlockOutMsgQueueSize proof: [block header with state hash, state ->
 * OutMsgQueueInfo]; out_msg_queue_extra#0 dispatch_queue:DispatchQueue out_queue_size:(Maybe uint48).
 */
export function queueSizeFromProof(proofBoc: Buffer, id: BlockIdTl): bigint {
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
    throw new ProofError(`${where}: ${(e as Error).message}`);
  }
}
