/**
 * Block proof chains, shard block proofs and out-message queue sizes, built as the C++ liteserver builds them
 * (validator/impl/liteserver.cpp: construct_proof_chain / construct_proof_link_back / _forward,
 * continue_getShardBlockProof, continue_getOutMsgQueueSizes, finish_getBlockOutMsgQueueSize).
 *
 * - A backward link cur -> next (next older) proves `next` from the masterchain state of `cur`: a proof of
 *   cur's header with its state hash, and a state proof down to `next` in OldMcBlocksInfo.
 * - A forward link cur -> next (cur a key block or the zero state) carries the validators' signatures of
 *   `next` (from the chain's BlockProof of next) and a proof of the configuration (params 28, 34) they are
 *   checked against.
 */
import { Cell, Dictionary } from '@ton/core';
import type { TlObject } from '../../tl/index.ts';
import { SHARD_ALL, type BlockIdExt } from '../chain/block.ts';
import type { ChainBlock, ChainSource } from '../chain/source.ts';
import { ErrorCode, LiteServerError, notApplied } from './errors.ts';
import { dictPath, ProofBuilder, serializeBocRoots } from './proof.ts';
import { readBlockId, tlBlockId } from './tl-ids.ts';

/** Collator's SKIP_EXTERNALS_QUEUE_SIZE (collator.cpp): above this queue size externals are skipped. */
export const EXT_MSG_QUEUE_SIZE_LIMIT = 8000;
/** A proof chain answer holds at most this many links; the client asks again from where it stopped. */
const MAX_LINKS = 16;
/** The config params a forward link's config proof must show (catchain config and current validators). */
const VALIDATOR_PARAMS = [28, 34];


function str(id: { workchain: number; shard: bigint; seqno: number }): string {
  return `(${id.workchain},${BigInt.asUintN(64, id.shard).toString(16)},${id.seqno})`;
}

function sameId(a: BlockIdExt, b: BlockIdExt): boolean {
  return a.workchain === b.workchain && a.shard === b.shard && a.seqno === b.seqno && a.rootHash.equals(b.rootHash) && a.fileHash.equals(b.fileHash);
}

function shardIntersects(a: bigint, b: bigint): boolean {
  const la = a & -a;
  const lb = b & -b;
  const low = la > lb ? la : lb;
  const mask = ~((low << 1n) - 1n) & 0xffffffffffffffffn;
  return (a & mask) === (b & mask);
}

/** A masterchain block of the chain, or the zero state (seqno 0, no block). */
interface McPoint {
  id: BlockIdExt;
  block: ChainBlock | null;
}

/** Header proof: the block root with BlockInfo (and its refs) unpruned, optionally with the state update. */
function headerProof(b: ChainBlock, withState = false): Cell {
  const pb = new ProofBuilder(b.root);
  pb.visitAll(b.root.refs[0]);
  if (withState) pb.path(2);
  return pb.proof();
}

/** Visits the cells of a Hashmap(E) 32 lookup of each key (hits keep their value refs whole). */
function visitDictKeys(pb: ProofBuilder, root: Cell, keys: number[]): void {
  pb.visit(root);
  for (const k of keys) {
    const walk = dictPath(root, 32, BigInt.asUintN(32, BigInt(k)));
    for (const c of walk.cells) pb.visit(c);
    if (walk.leaf) for (const r of walk.cells[walk.cells.length - 1].refs) pb.visitAll(r);
  }
}

/** masterchain_state_extra#cc26 shard_hashes:ShardHashes config:ConfigParams ^[...] ...: index of ref `which`. */
function mcStateExtraRef(custom: Cell, which: 'config' | 'inner'): Cell {
  const s = custom.beginParse();
  if (s.loadUint(16) !== 0xcc26) throw new LiteServerError(ErrorCode.fatal, 'masterchain state has no McStateExtra');
  const base = s.loadBit() ? 1 : 0;
  return custom.refs[which === 'config' ? base : base + 1];
}

export class BlockProofs {
  constructor(private readonly source: ChainSource) {}

  private mcBlocks(): ChainBlock[] {
    return this.source.shardBlocks(-1, SHARD_ALL);
  }

  private zeroStateId(): BlockIdExt {
    const z = this.source.zeroState;
    return { workchain: -1, shard: SHARD_ALL, seqno: 0, rootHash: z.rootHash, fileHash: z.fileHash };
  }

  /** A masterchain block id the chain knows (both hashes checked), or the zero state. */
  private mcPoint(o: TlObject, what: string): McPoint {
    const id = readBlockId(o);
    if (id.workchain !== -1 || id.shard !== SHARD_ALL || id.seqno < 0) {
      throw new LiteServerError(ErrorCode.fatal, `${what} block ${str(id)} is not a valid masterchain block id`);
    }
    if (id.seqno === 0) {
      if (!sameId(id, this.zeroStateId())) throw notApplied();
      return { id, block: null };
    }
    const b = this.source.getBlock(id);
    if (!b || !b.id.rootHash.equals(id.rootHash) || !b.id.fileHash.equals(id.fileHash)) throw notApplied();
    return { id: b.id, block: b };
  }

  private point(seqno: number): McPoint {
    if (seqno === 0) return { id: this.zeroStateId(), block: null };
    const b = this.source.getBlock({ workchain: -1, shard: SHARD_ALL, seqno });
    if (!b) throw notApplied();
    return { id: b.id, block: b };
  }

  private isKey(p: McPoint): boolean {
    return p.block === null || p.block.header.keyBlock;
  }

  /** The key block with the greatest seqno <= `seqno` (the zero state counts as one). */
  private prevKeyBlock(seqno: number): McPoint {
    const keys = this.mcBlocks().filter((b) => b.header.keyBlock && b.id.seqno <= seqno);
    const last = keys[keys.length - 1];
    return last ? { id: last.id, block: last } : this.point(0);
  }

  /** The key block with the least seqno in [seqno, limit], if any. */
  private nextKeyBlock(seqno: number, limit: number): McPoint | null {
    const b = this.mcBlocks().find((x) => x.header.keyBlock && x.id.seqno >= seqno && x.id.seqno <= limit);
    return b ? { id: b.id, block: b } : null;
  }

  /** The masterchain state after `p` (the zero state for seqno 0), with its hash checked. */
  private mcState(p: McPoint): Cell {
    const state = this.source.getState(p.id);
    if (!state) throw new LiteServerError(ErrorCode.notready, `state of masterchain block ${str(p.id)} is not available (the chain has no states/ file for it)`);
    if (p.block === null && !state.hash().equals(p.id.rootHash)) {
      throw new LiteServerError(ErrorCode.fatal, 'the zero state file does not hash to the zero state root hash');
    }
    return state;
  }

  /** liteServer.getBlockProof mode known_block target_block: a partialBlockProof of at most 16 links. */
  partialBlockProof(q: TlObject): TlObject {
    const mode = q.mode as number;
    const from = this.mcPoint(q.known_block as TlObject, 'source');
    const tip = this.source.lastMasterchain();
    const to = mode & 1 ? this.mcPoint(q.target_block as TlObject, 'destination') : { id: tip.id, block: tip };
    // The reference block whose state knows both ends: the newer end with mode 0x1000, else the tip.
    const base = mode & 1 && mode & 0x1000 ? (from.id.seqno > to.id.seqno ? from : to) : { id: tip.id, block: tip };
    if (from.id.seqno > base.id.seqno) throw new LiteServerError(ErrorCode.fatal, `client knows block ${str(from.id)} newer than the reference masterchain block ${str(base.id)}`);
    if (to.id.seqno > base.id.seqno) throw new LiteServerError(ErrorCode.fatal, `client knows block ${str(to.id)} newer than the reference masterchain block ${str(base.id)}`);
    const steps: TlObject[] = [];
    let cur = from;
    while (steps.length < MAX_LINKS && !sameId(cur.id, to.id)) {
      if (to.id.seqno === cur.id.seqno) throw new LiteServerError(ErrorCode.fatal, `cannot have two different masterchain blocks ${str(to.id)} and ${str(cur.id)} of the same height`);
      let next: McPoint;
      if (to.id.seqno < cur.id.seqno) {
        next = to;
        steps.push(this.backLink(cur, next));
      } else {
        const prevKey = this.prevKeyBlock(cur.id.seqno);
        if (prevKey.id.seqno !== cur.id.seqno) {
          next = prevKey;
          steps.push(this.backLink(cur, next));
        } else {
          next = this.nextKeyBlock(cur.id.seqno + 1, base.id.seqno) ?? to;
          steps.push(this.forwardLink(cur, next));
        }
      }
      cur = next;
    }
    return { _: 'liteServer.partialBlockProof', complete: sameId(cur.id, to.id), from: tlBlockId(from.id), to: tlBlockId(cur.id), steps };
  }

  /** liteServer.blockLinkBack: `next` (older) is in OldMcBlocksInfo of cur's state. */
  private backLink(cur: McPoint, next: McPoint): TlObject {
    if (!cur.block) throw new LiteServerError(ErrorCode.fatal, `cannot construct backward proof link from ${str(cur.id)} to ${str(next.id)}`);
    const state = this.mcState(cur);
    const sp = new ProofBuilder(state);
    const custom = state.refs[3];
    if (!custom) throw new LiteServerError(ErrorCode.fatal, `state of ${str(cur.id)} has no McStateExtra`);
    sp.visit(custom);
    const inner = mcStateExtraRef(custom, 'inner');
    sp.visit(inner);
    // ^[ flags:(## 16) validator_info:ValidatorInfo prev_blocks:OldMcBlocksInfo ... ]
    const is = inner.beginParse();
    is.skip(16 + 65);
    if (!is.loadBit()) throw new LiteServerError(ErrorCode.fatal, `cannot prove that ${str(next.id)} is in the previous block set of the masterchain state of ${str(cur.id)}`);
    const walk = dictPath(inner.refs[0], 32, BigInt(next.id.seqno));
    if (!walk.leaf) throw new LiteServerError(ErrorCode.fatal, `cannot prove that ${str(next.id)} is in the previous block set of the masterchain state of ${str(cur.id)}`);
    for (const c of walk.cells) sp.visit(c);
    return {
      _: 'liteServer.blockLinkBack',
      to_key_block: this.isKey(next),
      from: tlBlockId(cur.id),
      to: tlBlockId(next.id),
      dest_proof: next.block ? headerProof(next.block).toBoc() : Buffer.alloc(0),
      proof: headerProof(cur.block, true).toBoc(),
      state_proof: sp.proof().toBoc(),
    };
  }

  /** liteServer.blockLinkForward: the signatures of `next` and the config of key block (or zero state) `cur`. */
  private forwardLink(cur: McPoint, next: McPoint): TlObject {
    if (!next.block) throw new LiteServerError(ErrorCode.fatal, `cannot construct forward proof link from ${str(cur.id)} to ${str(next.id)}`);
    let configProof: Cell;
    if (cur.block) {
      // the key block's McBlockExtra carries the configuration
      const b = cur.block;
      if (!b.configRoot) throw new LiteServerError(ErrorCode.fatal, `cannot extract configuration from source key block ${str(cur.id)}`);
      const pb = new ProofBuilder(b.root);
      pb.visitAll(b.root.refs[0]);
      const extra = pb.path(3);
      const mcExtra = extra.refs[3];
      pb.visit(mcExtra);
      visitDictKeys(pb, b.configRoot, VALIDATOR_PARAMS);
      configProof = pb.proof();
    } else {
      const state = this.mcState(cur);
      const pb = new ProofBuilder(state);
      const custom = state.refs[3];
      pb.visit(custom);
      visitDictKeys(pb, mcStateExtraRef(custom, 'config'), VALIDATOR_PARAMS);
      configProof = pb.proof();
    }
    const sigs = this.signatures(next.block);
    return {
      _: 'liteServer.blockLinkForward',
      to_key_block: next.block.header.keyBlock,
      from: tlBlockId(cur.id),
      to: tlBlockId(next.id),
      dest_proof: headerProof(next.block).toBoc(),
      config_proof: configProof.toBoc(),
      signatures: {
        _: 'liteServer.signatureSet',
        validator_set_hash: sigs.validatorListHashShort,
        catchain_seqno: sigs.catchainSeqno,
        signatures: sigs.list.map((s) => ({ node_id_short: s.nodeIdShort, signature: s.signature })),
      },
    };
  }

  /**
   * The signatures of a masterchain block from its BlockProof:
   * block_proof#c3 proof_for:BlockIdExt root:^Cell signatures:(Maybe ^BlockSignatures) = BlockProof;
   * block_signatures#11 validator_info:ValidatorBaseInfo pure_signatures:BlockSignaturesPure = BlockSignatures;
   * block_signatures_pure#_ sig_count:uint32 sig_weight:uint64 signatures:(HashmapE 16 CryptoSignaturePair) = BlockSignaturesPure;
   * sig_pair$_ node_id_short:bits256 sign:CryptoSignature = CryptoSignaturePair; ed25519_signature#5 R:bits256 s:bits256
   */
  private signatures(b: ChainBlock): { validatorListHashShort: number; catchainSeqno: number; list: { nodeIdShort: Buffer; signature: Buffer }[] } {
    const proof = this.source.getBlockProof?.(b.id);
    const noSigs = () => new LiteServerError(ErrorCode.notready, `cannot extract signature set from proof for block ${str(b.id)} (this chain has no validator signatures)`);
    if (!proof) throw noSigs();
    const ps = proof.beginParse();
    if (ps.loadUint(8) !== 0xc3) throw new LiteServerError(ErrorCode.fatal, `the proof of ${str(b.id)} is not a BlockProof`);
    ps.skip(104 + 32);
    if (!ps.loadBuffer(32).equals(b.id.rootHash) || !ps.loadBuffer(32).equals(b.id.fileHash)) {
      throw new LiteServerError(ErrorCode.fatal, `the proof of ${str(b.id)} is for another block`);
    }
    ps.loadRef();
    const sigCell = ps.loadMaybeRef();
    if (!sigCell) throw noSigs();
    const s = sigCell.beginParse();
    if (s.loadUint(8) !== 0x11) throw new LiteServerError(ErrorCode.fatal, `bad BlockSignatures of ${str(b.id)}`);
    const validatorListHashShort = s.loadUint(32);
    const catchainSeqno = s.loadUint(32);
    s.skip(32 + 64);
    const dict = s.loadDict(Dictionary.Keys.Uint(16), {
      serialize: () => {
        throw new Error('read only');
      },
      parse: (v) => {
        const nodeIdShort = v.loadBuffer(32);
        if (v.loadUint(4) !== 5) throw new LiteServerError(ErrorCode.fatal, `unsupported signature kind in the proof of ${str(b.id)}`);
        return { nodeIdShort, signature: v.loadBuffer(64) };
      },
    });
    const list = [...dict.keys()].sort((x, y) => x - y).map((k) => dict.get(k)!);
    if (list.length === 0) throw noSigs();
    return { validatorListHashShort, catchainSeqno, list };
  }

  /**
   * liteServer.getShardBlockProof id: links from the masterchain block that committed `id` down to it; each
   * link names the next block down and proves the current one (mc: its shard hashes; shard: its prev refs).
   */
  shardBlockProof(q: TlObject): TlObject {
    const id = readBlockId(q.id as TlObject);
    if (id.workchain === -1) {
      if (id.shard !== SHARD_ALL) throw new LiteServerError(ErrorCode.fatal, 'invalid block id');
      return { _: 'liteServer.shardBlockProof', masterchain_id: tlBlockId(id), links: [] };
    }
    const target = this.source.getBlock(id);
    if (!target || !target.id.rootHash.equals(id.rootHash) || !target.id.fileHash.equals(id.fileHash)) throw notApplied();
    const mc = this.source.getBlock({ workchain: -1, shard: SHARD_ALL, seqno: target.mcSeqno });
    if (!mc) throw new LiteServerError(ErrorCode.notready, "block doesn't have masterchain ref");
    const links: TlObject[] = [];
    let cur: ChainBlock = mc;
    for (;;) {
      let prev: BlockIdExt;
      let proof: Cell;
      if (cur.id.workchain === -1) {
        // the descriptor of the shard holding the target's first account prefix
        const point = (target.id.shard & ~(target.id.shard & -target.id.shard)) | 1n;
        const d = cur.shards.find((s) => s.workchain === target.id.workchain && shardIntersects(s.shard, point));
        if (!d) throw new LiteServerError(ErrorCode.fatal, 'shard not found');
        prev = { workchain: d.workchain, shard: d.shard, seqno: d.seqno, rootHash: d.rootHash, fileHash: d.fileHash };
        const pb = new ProofBuilder(cur.root);
        const extra = pb.path(3);
        pb.visit(extra.refs[3]);
        if (cur.shardHashesRoot) pb.visitAll(cur.shardHashesRoot);
        proof = pb.proof();
      } else {
        const h = cur.header;
        const low = h.shard & -h.shard;
        const prevShards = h.afterMerge ? [h.shard - (low >> 1n), h.shard + (low >> 1n)] : h.afterSplit ? [(h.shard - low) | (low << 1n)] : [h.shard];
        const i = prevShards.findIndex((s) => shardIntersects(s, target.id.shard));
        if (i < 0) throw new LiteServerError(ErrorCode.fatal, 'failed to find block chain');
        const r = h.prev[i];
        prev = { workchain: h.workchain, shard: prevShards[i], seqno: r.seqno, rootHash: Buffer.from(r.root_hash, 'hex'), fileHash: Buffer.from(r.file_hash, 'hex') };
        proof = headerProof(cur);
      }
      links.push({ id: tlBlockId(prev), proof: proof.toBoc() });
      if (sameId(prev, target.id)) break;
      // Chains of shard blocks between masterchain blocks are at most 8 long (collator.cpp).
      if (links.length === 8) throw new LiteServerError(ErrorCode.fatal, 'proof chain is too long');
      const nb = this.source.getBlock(prev);
      if (!nb) throw notApplied();
      cur = nb;
    }
    return { _: 'liteServer.shardBlockProof', masterchain_id: tlBlockId(mc.id), links };
  }

  /** Number of messages in the out queue of the state after block `b` (OutMsgQueueExtra's out_queue_size). */
  private queueSize(b: ChainBlock): { size: bigint; state: Cell } {
    const state = this.source.getState(b.id);
    if (!state) throw new LiteServerError(ErrorCode.notready, `state of ${str(b.id)} is not available (the chain has no states/ file for it)`);
    // _ out_queue:OutMsgQueue proc_info:ProcessedInfo extra:(Maybe OutMsgQueueExtra) = OutMsgQueueInfo;
    const info = state.refs[0].beginParse();
    if (info.loadBit()) info.loadRef();
    info.skip(64);
    if (info.loadBit()) info.loadRef(); // proc_info
    const noSize = () => new LiteServerError(ErrorCode.fatal, 'no out_msg_queue_size in shard state');
    if (!info.loadBit()) throw noSize();
    // out_msg_queue_extra#0 dispatch_queue:DispatchQueue out_queue_size:(Maybe uint48)
    if (info.loadUint(4) !== 0) throw new LiteServerError(ErrorCode.fatal, 'cannot unpack OutMsgQueueExtra');
    if (info.loadBit()) info.loadRef();
    info.skip(64);
    if (!info.loadBit()) throw noSize();
    return { size: info.loadUintBig(48), state };
  }

  /** liteServer.getOutMsgQueueSizes mode wc shard: the tip's masterchain block and shard tops, each with its queue size. */
  outMsgQueueSizes(q: TlObject): TlObject {
    const mode = q.mode as number;
    const filter = mode & 1 ? { workchain: q.wc as number, shard: BigInt.asUintN(64, q.shard as bigint) } : null;
    const tip = this.source.lastMasterchain();
    const blocks: ChainBlock[] = [];
    const wanted = (wc: number, shard: bigint) => !filter || (filter.workchain === wc && shardIntersects(filter.shard, shard));
    if (wanted(-1, SHARD_ALL)) blocks.push(tip);
    for (const d of tip.shards) {
      if (!wanted(d.workchain, d.shard)) continue;
      const b = this.source.getBlock(d);
      if (!b) throw notApplied();
      blocks.push(b);
    }
    return {
      _: 'liteServer.outMsgQueueSizes',
      shards: blocks.map((b) => ({ id: tlBlockId(b.id), size: Number(this.queueSize(b).size) })),
      ext_msg_queue_size_limit: EXT_MSG_QUEUE_SIZE_LIMIT,
    };
  }

  /** liteServer.getBlockOutMsgQueueSize mode id: the size; with mode.0 the proof [block header with state hash, state -> OutMsgQueueInfo]. */
  blockOutMsgQueueSize(q: TlObject, b: ChainBlock): TlObject {
    const mode = q.mode as number;
    const { size, state } = this.queueSize(b);
    let proof: Buffer | null = null;
    if (mode & 1) {
      const sp = new ProofBuilder(state);
      sp.path(0);
      proof = serializeBocRoots([headerProof(b, true), sp.proof()]);
    }
    return { _: 'liteServer.blockOutMsgQueueSize', mode, id: tlBlockId(b.id), size, proof };
  }
}
