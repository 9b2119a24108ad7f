/**
 * Liteserver block proof checks, as tonlib does them (crypto/block/check-proof.cpp BlockProofLink::validate,
 * BlockProofChain::validate, check_block_signatures). One implementation for ingest (src/source trusts a
 * masterchain block only through them) and for API v2 (getMasterchainBlockSignatures, getShardBlockProof).
 * Pure functions over decoded lite_api objects; they throw ProofCheckError naming the link that does not check.
 */
import { Cell } from '@ton/core';
import { checkBlockSignatures, computeValidatorSubset, validatorSetHashShort, type BlockInfo } from '../ton/index.ts';
import type { TlBlockIdExt, TlObject } from '../tl/index.ts';
import { configParam, hashmapLookup, loadCatchainConfig, loadValidatorSet, readBlockInfo, shardOf } from './tlb.ts';

const MASTER_SHARD = 1n << 63n;

/** A proof from a liteserver does not check: the message says which part and why. */
export class ProofCheckError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProofCheckError';
  }
}

export function idStr(id: TlBlockIdExt): string {
  return `(${id.workchain},${BigInt.asUintN(64, id.shard).toString(16)},${id.seqno})`;
}

export function sameBlock(a: TlBlockIdExt, b: TlBlockIdExt): boolean {
  return (
    a.workchain === b.workchain &&
    BigInt.asUintN(64, a.shard) === BigInt.asUintN(64, b.shard) &&
    a.seqno === b.seqno &&
    a.root_hash.equals(b.root_hash) &&
    a.file_hash.equals(b.file_hash)
  );
}

/** The virtual root of a Merkle proof BoC (root `index` of a multi-root BoC), checked to hash to `hash`. */
export function proofRoot(boc: Buffer | undefined, hash: Buffer, what: string, index = 0): Cell {
  if (!boc || boc.length === 0) throw new ProofCheckError(`${what} is missing`);
  let cell: Cell;
  try {
    cell = Cell.fromBoc(boc)[index];
  } catch (e) {
    throw new ProofCheckError(`${what} is not a BoC (${(e as Error).message})`);
  }
  if (!cell || !cell.isExotic || cell.bits.length < 8 || cell.refs.length !== 1) throw new ProofCheckError(`${what} is not a Merkle proof`);
  const root = cell.refs[0];
  if (!root.hash(0).equals(hash)) throw new ProofCheckError(`${what} has root hash ${root.hash(0).toString('hex')} instead of ${hash.toString('hex')}`);
  return root;
}

/** A block header from a proof of the block `id` (root hash checked; workchain, shard and seqno too). */
export function headerOf(boc: Buffer | undefined, id: TlBlockIdExt, what: string): { root: Cell; info: BlockInfo } {
  const root = proofRoot(boc, id.root_hash, what);
  let info: BlockInfo;
  try {
    info = readBlockInfo(root);
  } catch (e) {
    throw new ProofCheckError(`${what}: cannot unpack the block header (${(e as Error).message})`);
  }
  if (info.workchain !== id.workchain || shardOf(info) !== BigInt.asUintN(64, id.shard) || info.seqno !== id.seqno) {
    throw new ProofCheckError(`${what} is the header of another block`);
  }
  return { root, info };
}

/** The new state hash of a block's state_update (!merkle_update#04 ... new:^X): the hash of its second ref. */
export function stateHashOf(block: Cell, what: string): Buffer {
  const upd = block.refs[2];
  if (!upd || !upd.isExotic || upd.refs.length !== 2) throw new ProofCheckError(`${what}: invalid Merkle update in block header`);
  return upd.refs[1].hash(0);
}

/** ConfigParams from a key block's McBlockExtra: block -> extra -> ^McBlockExtra -> config (last ref). */
function configOfKeyBlock(block: Cell): Cell {
  // block_extra ... custom:(Maybe ^McBlockExtra); masterchain_block_extra#cca5 key_extra:Bool ... config:key_extra?ConfigParams
  const extra = block.refs[3];
  const mc = extra?.refs[3];
  if (!mc) throw new Error('the source block has no McBlockExtra');
  const s = mc.beginParse();
  if (s.loadUint(16) !== 0xcca5 || !s.loadBit()) throw new Error('the source block is not a key block');
  return mc.refs[mc.refs.length - 1];
}

/** ConfigParams from a masterchain state (the zero state): ShardStateUnsplit -> McStateExtra -> config. */
function configOfState(state: Cell): Cell {
  const custom = state.refs[3];
  if (!custom) throw new Error('the zero state has no McStateExtra');
  const s = custom.beginParse();
  if (s.loadUint(16) !== 0xcc26) throw new Error('no McStateExtra');
  return custom.refs[s.loadBit() ? 1 : 0];
}

/**
 * One link of a block proof chain (BlockProofLink::validate). Backward: `to` is in OldMcBlocksInfo of the
 * state of `from`. Forward: the validators of `from`'s configuration (a key block, or the zero state) signed `to`
 * with more than 2/3 of the weight. `from` must already be trusted by the caller.
 */
export function checkBlockLink(step: TlObject): void {
  const from = step.from as TlBlockIdExt;
  const to = step.to as TlBlockIdExt;
  const fwd = step._ === 'liteServer.blockLinkForward';
  const where = `link ${idStr(from)} -> ${idStr(to)}`;
  if (step._ !== 'liteServer.blockLinkForward' && step._ !== 'liteServer.blockLinkBack') throw new ProofCheckError(`${where}: not a block link (${step._})`);
  if (from.workchain !== -1 || to.workchain !== -1) throw new ProofCheckError(`${where}: both ends must be masterchain blocks`);
  if (BigInt.asUintN(64, from.shard) !== MASTER_SHARD || BigInt.asUintN(64, to.shard) !== MASTER_SHARD) throw new ProofCheckError(`${where}: both ends must be masterchain blocks`);
  if (from.seqno === to.seqno) throw new ProofCheckError(`${where}: connects two blocks of equal height`);
  if (fwd !== from.seqno < to.seqno) throw new ProofCheckError(`${where}: declared as a ${fwd ? 'forward' : 'backward'} link`);
  let destInfo: BlockInfo | null = null;
  if (to.seqno > 0) {
    destInfo = headerOf(step.dest_proof as Buffer, to, `${where} destination proof`).info;
    if (destInfo.key_block !== Boolean(step.to_key_block)) throw new ProofCheckError(`${where}: incorrect is_key_block value for the destination block`);
  }
  try {
    if (!fwd) {
      const src = headerOf(step.proof as Buffer, from, `${where} source proof`);
      const state = proofRoot(step.state_proof as Buffer, stateHashOf(src.root, where), `${where} state proof`);
      // McStateExtra ^[ flags:(## 16) validator_info:ValidatorInfo prev_blocks:OldMcBlocksInfo ... ]
      const custom = state.refs[3];
      if (!custom) throw new Error('no McStateExtra in the state proof');
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
    const set = step.signatures as TlObject | undefined;
    const list = (set?.signatures as TlObject[] | undefined) ?? [];
    if (list.length === 0) throw new Error('a forward link carries no signatures');
    // the configuration of the source key block (or zero state) decides who validates `to`
    const config =
      from.seqno > 0
        ? configOfKeyBlock(headerOf(step.config_proof as Buffer, from, `${where} config proof`).root)
        : configOfState(proofRoot(step.config_proof as Buffer, from.root_hash, `${where} zero state proof`));
    const p34 = configParam(config, 34);
    if (!p34) throw new Error('the source configuration has no current validator set (param 34)');
    const vset = loadValidatorSet(p34);
    const nodes = computeValidatorSubset(loadCatchainConfig(configParam(config, 28)), { workchain: -1, shard: MASTER_SHARD }, vset, destInfo.gen_catchain_seqno);
    if (nodes.length === 0) throw new Error(`cannot compute the validator set of ${idStr(to)} (cc_seqno ${destInfo.gen_catchain_seqno})`);
    // the hash is of the signature set's catchain seqno, as the node computes it: a set for another session fails here
    const ccSeqno = Number(set?.catchain_seqno ?? destInfo.gen_catchain_seqno);
    const hash = validatorSetHashShort(ccSeqno, nodes);
    if (hash !== destInfo.gen_validator_list_hash_short) {
      throw new Error(`computed validator set hash ${hash} differs from ${destInfo.gen_validator_list_hash_short} stated in the header of ${idStr(to)}`);
    }
    const sigs = list.map((s) => ({ nodeIdShort: s.node_id_short as Buffer, signature: s.signature as Buffer }));
    checkBlockSignatures(nodes, sigs, to.root_hash, to.file_hash);
  } catch (e) {
    if (e instanceof ProofCheckError) throw e;
    throw new ProofCheckError(`${where}: ${(e as Error).message}`);
  }
}

/** What a run of checked links proved, starting from a trusted block. */
export interface ProvenLinks {
  /** Where the last link ends (trusted now). */
  end: TlBlockIdExt;
  /** Key blocks the links reached (each trusted now), in link order. */
  keyBlocks: TlBlockIdExt[];
  /** Whether the last link is a forward one: it carries the end block's signatures. */
  signed: boolean;
}

/** Checks consecutive links from the trusted block `from` (BlockProofChain::validate's loop). */
export function checkProofLinks(steps: TlObject[], from: TlBlockIdExt): ProvenLinks {
  let cur = from;
  const keyBlocks: TlBlockIdExt[] = [];
  let signed = false;
  steps.forEach((step, i) => {
    const begin = step.from as TlBlockIdExt;
    if (!begin || !sameBlock(begin, cur)) throw new ProofCheckError(`link #${i + 1} begins at ${begin ? idStr(begin) : 'nothing'}, the previous one ends at ${idStr(cur)}`);
    checkBlockLink(step);
    cur = step.to as TlBlockIdExt;
    signed = step._ === 'liteServer.blockLinkForward';
    if (step.to_key_block && cur.seqno > 0) keyBlocks.push(cur);
  });
  return { end: cur, keyBlocks, signed };
}

/** A partialBlockProof must be complete, go from `from` to `to`, and every link must check (BlockProofChain::validate). */
export function checkProofChain(proof: TlObject, from: TlBlockIdExt, to: TlBlockIdExt, maxLinks = 16): TlObject[] {
  const steps = (proof.steps as TlObject[] | undefined) ?? [];
  if (!proof.complete || !sameBlock(proof.from as TlBlockIdExt, from) || !sameBlock(proof.to as TlBlockIdExt, to)) {
    throw new ProofCheckError(`the proof chain does not go from ${idStr(from)} to ${idStr(to)}`);
  }
  if (steps.length > maxLinks) throw new ProofCheckError(`the proof chain has ${steps.length} links, at most ${maxLinks} expected`);
  const { end } = checkProofLinks(steps, from);
  if (!sameBlock(end, to)) throw new ProofCheckError(`the last link ends at ${idStr(end)}, not ${idStr(to)}`);
  return steps;
}

/**
 * One answer of liteServer.getBlockProof on the way from the trusted `from` towards `target`: the server may stop
 * early (complete = false, at most 16 links each time); the client asks again from where it stopped.
 */
export function checkPartialProof(proof: TlObject, from: TlBlockIdExt, target: TlBlockIdExt, maxLinks = 16): ProvenLinks & { complete: boolean } {
  const steps = (proof.steps as TlObject[] | undefined) ?? [];
  if (proof._ !== undefined && proof._ !== 'liteServer.partialBlockProof') throw new ProofCheckError(`not a partialBlockProof (${proof._})`);
  if (!proof.from || !sameBlock(proof.from as TlBlockIdExt, from)) throw new ProofCheckError(`the proof chain does not start at ${idStr(from)}`);
  if (steps.length > maxLinks) throw new ProofCheckError(`the proof chain has ${steps.length} links, at most ${maxLinks} expected`);
  const proven = checkProofLinks(steps, from);
  if (!proof.to || !sameBlock(proof.to as TlBlockIdExt, proven.end)) throw new ProofCheckError(`the proof chain says it ends at ${proof.to ? idStr(proof.to as TlBlockIdExt) : 'nothing'}, its last link at ${idStr(proven.end)}`);
  const complete = Boolean(proof.complete);
  if (complete && !sameBlock(proven.end, target)) throw new ProofCheckError(`the complete proof chain ends at ${idStr(proven.end)}, not ${idStr(target)}`);
  if (!complete && steps.length === 0) throw new ProofCheckError(`the proof chain from ${idStr(from)} to ${idStr(target)} is incomplete and has no links`);
  return { ...proven, complete };
}
