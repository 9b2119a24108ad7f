/**
 * liteServer.* methods over a ChainSource. Each takes the decoded TL function object and returns the TL
 * answer object; failures throw LiteServerError (sent as liteServer.error).
 */
import { createHash } from 'node:crypto';
import { Address, beginCell, Cell, convertToMerkleProof, Dictionary, loadAccount, loadCurrencyCollection, parseTuple, type TupleItem } from '@ton/core';
import { defaultConfig, Executor } from '@ton/sandbox';
import type { TlObject } from '../../tl/index.ts';
import type { BlockRef } from '../../ton/index.ts';
import { SHARD_ALL } from '../chain/block.ts';
import { ChainMessageError, type ChainBlock, type ChainSource, type ChainTx } from '../chain/source.ts';
import { ErrorCode, invalidBlockId, LiteServerError, notApplied, notFoundInDb, unknownQuery } from './errors.ts';
import { BlockProofs } from './block-proof.ts';
import { readBlockId, tlBlockId } from './tl-ids.ts';
import { dictPath, prunedBranch, ProofBuilder, serializeBocRoots, type DictWalk } from './proof.ts';

/** What getVersion reports: version 0x101 with capabilities 7 (like current liteservers). */
export const LS_VERSION = 0x101;
export const LS_CAPABILITIES = 7n;

export { tlBlockId } from './tl-ids.ts';

/** The shard is a valid 64-bit shard id (a 1 bit ending a prefix of at most 60 bits). */
function validShard(workchain: number, shard: bigint): boolean {
  if (shard === 0n) return false;
  const low = shard & -shard;
  if (low < 1n << 3n) return false;
  return workchain !== -1 || shard === SHARD_ALL;
}

function shardContains(parent: bigint, child: bigint): boolean {
  const low = parent & -parent;
  const mask = ~((low << 1n) - 1n) & 0xffffffffffffffffn;
  return (parent & mask) === (child & mask) && (child & -child) <= low;
}

function nowSec(): number {
  return Math.floor(Date.now() / 1000);
}

export interface HandlerContext {
  source: ChainSource;
  /** Config dictionary cell for runSmcMethod when the chain has no masterchain state with one. */
  fallbackConfig?: Cell;
}

let executorPromise: Promise<Executor> | undefined;
function executor(): Promise<Executor> {
  executorPromise ??= Executor.create();
  return executorPromise;
}

export class LiteHandlers {
  private readonly proofs: BlockProofs;

  constructor(private readonly ctx: HandlerContext) {
    this.proofs = new BlockProofs(ctx.source);
  }

  private get source(): ChainSource {
    return this.ctx.source;
  }

  /** Resolves a full block id: must be valid, visible, and match both hashes. */
  private block(o: TlObject): ChainBlock {
    const id = readBlockId(o);
    if (!validShard(id.workchain, id.shard) || id.seqno < 0) throw invalidBlockId();
    const b = this.source.getBlock(id);
    if (!b || !b.id.rootHash.equals(id.rootHash) || !b.id.fileHash.equals(id.fileHash)) throw notApplied();
    return b;
  }

  private mcBlock(o: TlObject): ChainBlock {
    const b = this.block(o);
    if (b.id.workchain !== -1) throw new LiteServerError(ErrorCode.fatal, 'block ' + idStr(b.id) + ' is not a masterchain block');
    return b;
  }

  async handle(q: TlObject): Promise<TlObject> {
    switch (q._) {
      case 'liteServer.getTime':
        return { _: 'liteServer.currentTime', now: nowSec() };
      case 'liteServer.getVersion':
        return { _: 'liteServer.version', mode: 0, version: LS_VERSION, capabilities: LS_CAPABILITIES, now: nowSec() };
      case 'liteServer.getMasterchainInfo':
        return this.masterchainInfo(-1);
      case 'liteServer.getMasterchainInfoExt':
        return this.masterchainInfo((q.mode as number) & 0x7fffffff);
      case 'liteServer.getBlock': {
        const b = this.block(q.id as TlObject);
        return { _: 'liteServer.blockData', id: tlBlockId(b.id), data: b.boc };
      }
      case 'liteServer.getBlockHeader': {
        const b = this.block(q.id as TlObject);
        return this.header(b, q.mode as number);
      }
      case 'liteServer.getState':
        return this.getState(this.block(q.id as TlObject));
      case 'liteServer.lookupBlock':
        return this.lookupBlock(q);
      case 'liteServer.getAllShardsInfo':
        return this.allShardsInfo(this.mcBlock(q.id as TlObject));
      case 'liteServer.getShardInfo':
        return this.shardInfo(this.mcBlock(q.id as TlObject), q.workchain as number, BigInt.asUintN(64, q.shard as bigint), q.exact as boolean);
      case 'liteServer.listBlockTransactions':
      case 'liteServer.listBlockTransactionsExt':
        return this.listBlockTransactions(q);
      case 'liteServer.getOneTransaction':
        return this.oneTransaction(q);
      case 'liteServer.getTransactions':
        return this.transactions(q);
      case 'liteServer.getAccountState':
      case 'liteServer.getAccountStatePrunned':
        return this.accountState(q);
      case 'liteServer.runSmcMethod':
        return this.runSmcMethod(q);
      case 'liteServer.getConfigAll':
      case 'liteServer.getConfigParams':
        return this.configInfo(q);
      case 'liteServer.getLibraries':
        return this.libraries(q.library_list as Buffer[]);
      case 'liteServer.sendMessage':
        return this.sendMessage(q.body as Buffer);
      case 'liteServer.getBlockProof':
        return this.proofs.partialBlockProof(q);
      case 'liteServer.getShardBlockProof':
        return this.proofs.shardBlockProof(q);
      case 'liteServer.getOutMsgQueueSizes':
        return this.proofs.outMsgQueueSizes(q);
      case 'liteServer.getBlockOutMsgQueueSize':
        return this.proofs.blockOutMsgQueueSize(q, this.block(q.id as TlObject));
      case 'liteServer.lookupBlockWithProof':
      case 'liteServer.getValidatorStats':
      case 'liteServer.getLibrariesWithProof':
        // Known lite_api functions this devnet server does not implement.
        throw new LiteServerError(ErrorCode.protoviolation, `${q._} is not supported by the devnet liteserver`);
      default:
        throw unknownQuery();
    }
  }

  private masterchainInfo(mode: number): TlObject {
    if (mode > 0) throw new LiteServerError(ErrorCode.fatal, 'unsupported getMasterchainInfo mode');
    const tip = this.source.lastMasterchain();
    const zs = this.source.zeroState;
    const init = { workchain: zs.workchain, root_hash: zs.rootHash, file_hash: zs.fileHash };
    const stateRootHash = stateHashAfter(tip);
    if (mode === -1) return { _: 'liteServer.masterchainInfo', last: tlBlockId(tip.id), state_root_hash: stateRootHash, init };
    return {
      _: 'liteServer.masterchainInfoExt',
      mode,
      version: LS_VERSION,
      capabilities: LS_CAPABILITIES,
      last: tlBlockId(tip.id),
      last_utime: tip.header.genUtime,
      now: nowSec(),
      state_root_hash: stateRootHash,
      init,
    };
  }

  /** Block header proof: the block root with BlockInfo (and its refs) unpruned, as a Merkle proof. */
  private header(b: ChainBlock, mode: number): TlObject {
    const pb = new ProofBuilder(b.root);
    pb.visitAll(b.root.refs[0]);
    if (mode & 2) pb.visitAll(b.root.refs[1]); // value_flow
    if (mode & 1) pb.path(2); // state_update: proves the state hash
    return { _: 'liteServer.blockHeader', id: tlBlockId(b.id), mode, header_proof: pb.proof().toBoc() };
  }

  private getState(b: ChainBlock): TlObject {
    const state = this.source.getState(b.id);
    if (!state) throw new LiteServerError(ErrorCode.notready, `state of ${idStr(b.id)} is not available`);
    const data = state.toBoc();
    return { _: 'liteServer.blockState', id: tlBlockId(b.id), root_hash: state.hash(), file_hash: sha256(data), data };
  }

  private lookupBlock(q: TlObject): TlObject {
    const mode = q.mode as number;
    const id = q.id as TlObject;
    const workchain = id.workchain as number;
    const shard = BigInt.asUintN(64, id.shard as bigint);
    if (!validShard(workchain, shard)) throw new LiteServerError(ErrorCode.fatal, 'invalid shard');
    const which = mode & 7;
    if (which !== 1 && which !== 2 && which !== 4) throw new LiteServerError(ErrorCode.protoviolation, 'exactly one of mode.0, mode.1 and mode.2 bits must be set');
    // Candidate blocks: the shard chain(s) containing or contained in the requested shard.
    const candidates = this.candidateBlocks(workchain, shard);
    let found: ChainBlock | undefined;
    if (which === 1) {
      const seqno = id.seqno as number;
      found = candidates.find((b) => b.id.seqno === seqno);
    } else if (which === 2) {
      const lt = q.lt as bigint;
      const last = candidates[candidates.length - 1];
      if (last && lt <= last.header.endLt) found = candidates.find((b) => b.header.endLt >= lt);
    } else {
      const utime = q.utime as number;
      const last = candidates[candidates.length - 1];
      if (last && utime <= last.header.genUtime) {
        for (const b of candidates) if (b.header.genUtime <= utime) found = b;
        if (!found && candidates[0] && candidates[0].header.genUtime >= utime) found = candidates[0];
      }
    }
    if (!found) throw notFoundInDb();
    return this.header(found, mode & ~7 & 0xff);
  }

  private candidateBlocks(workchain: number, shard: bigint): ChainBlock[] {
    const exact = this.source.shardBlocks(workchain, shard);
    if (exact.length > 0) return exact;
    const all: ChainBlock[] = [];
    const tip = this.source.lastMasterchain();
    const seen = new Set<bigint>();
    for (const s of tip.shards) {
      if (s.workchain !== workchain || seen.has(s.shard)) continue;
      if (shardContains(s.shard, shard) || shardContains(shard, s.shard)) {
        seen.add(s.shard);
        all.push(...this.source.shardBlocks(workchain, s.shard));
      }
    }
    return all.sort((a, b) => a.id.seqno - b.id.seqno);
  }

  /** data = Maybe ^ShardHashes as in McBlockExtra/McStateExtra; proof = Merkle proof of the block to it. */
  private allShardsInfo(b: ChainBlock): TlObject {
    const data = beginCell().storeMaybeRef(b.shardHashesRoot).endCell();
    const pb = new ProofBuilder(b.root);
    const extra = pb.path(3);
    const mcExtra = extra.refs[3];
    if (mcExtra) {
      pb.visit(mcExtra);
      if (b.shardHashesRoot) pb.visitAll(b.shardHashesRoot);
    }
    return { _: 'liteServer.allShardsInfo', id: tlBlockId(b.id), proof: pb.proof().toBoc(), data: data.toBoc() };
  }

  private shardInfo(b: ChainBlock, workchain: number, shard: bigint, exact: boolean): TlObject {
    if (!validShard(workchain, shard)) throw new LiteServerError(ErrorCode.fatal, 'requested shard is invalid');
    const d = b.shards.find((s) => s.workchain === workchain && (exact ? s.shard === shard : shardContains(s.shard, shard)));
    if (!d) {
      // No shard: the answer carries an empty shard block id, as the C++ server does.
      return { _: 'liteServer.shardInfo', id: tlBlockId(b.id), shardblk: tlBlockId({ workchain, shard, seqno: 0, rootHash: Buffer.alloc(32), fileHash: Buffer.alloc(32) }), shard_proof: Buffer.alloc(0), shard_descr: Buffer.alloc(0) };
    }
    const pb = new ProofBuilder(b.root);
    pb.path(3);
    if (b.root.refs[3].refs[3]) pb.visit(b.root.refs[3].refs[3]);
    if (b.shardHashesRoot) pb.visitAll(b.shardHashesRoot);
    return {
      _: 'liteServer.shardInfo',
      id: tlBlockId(b.id),
      shardblk: tlBlockId({ workchain: d.workchain, shard: d.shard, seqno: d.seqno, rootHash: d.rootHash, fileHash: d.fileHash }),
      shard_proof: serializeBocRoots([pb.proof()]),
      shard_descr: d.descrCell.toBoc(),
    };
  }

  private listBlockTransactions(q: TlObject): TlObject {
    const b = this.block(q.id as TlObject);
    const mode = q.mode as number;
    const count = Math.min(q.count as number, 256);
    const reverse = (mode & 64) !== 0;
    let txs = b.transactions;
    if (reverse) txs = [...txs].reverse();
    if (mode & 128) {
      const after = q.after as TlObject;
      const acc = after.account as Buffer;
      const lt = after.lt as bigint;
      const cmp = (t: ChainBlock['transactions'][number]) => Buffer.compare(t.account, acc) || (t.lt < lt ? -1 : t.lt > lt ? 1 : 0);
      txs = txs.filter((t) => (reverse ? cmp(t) < 0 : cmp(t) > 0));
    }
    const page = txs.slice(0, count);
    const incomplete = txs.length > page.length;
    let proof: Buffer = Buffer.alloc(0);
    if (mode & 32) {
      const pb = new ProofBuilder(b.root);
      const extra = pb.path(3);
      const ab = extra.refs[2];
      pb.visit(ab);
      for (const t of page) {
        const walk = dictPath(ab.beginParse().loadBit() ? ab.refs[0] : ab, 256, BigInt('0x' + t.account.toString('hex')));
        for (const c of walk.cells) pb.visit(c);
        // the account's transactions dictionary: keep it whole (small) so every listed transaction is proven
        for (const c of walk.cells.slice(-1)) for (const r of c.refs) pb.visitAll(r);
      }
      proof = pb.proof().toBoc();
    }
    if (q._ === 'liteServer.listBlockTransactionsExt') {
      return {
        _: 'liteServer.blockTransactionsExt',
        id: tlBlockId(b.id),
        req_count: q.count as number,
        incomplete,
        transactions: serializeBocRoots(page.map((t) => t.cell)),
        proof,
      };
    }
    const idMode = mode & 7;
    return {
      _: 'liteServer.blockTransactions',
      id: tlBlockId(b.id),
      req_count: q.count as number,
      incomplete,
      ids: page.map((t) => ({
        mode: idMode,
        account: idMode & 1 ? t.account : null,
        lt: idMode & 2 ? t.lt : null,
        hash: idMode & 4 ? t.hash : null,
        metadata: null,
      })),
      proof,
    };
  }

  /** Proof of a block down to the transactions of one account (account_blocks path). */
  private txProof(b: ChainBlock, account: Buffer): Buffer {
    const pb = new ProofBuilder(b.root);
    pb.visitAll(b.root.refs[0]);
    const extra = pb.path(3);
    const ab = extra.refs[2];
    pb.visit(ab);
    const s = ab.beginParse();
    if (s.loadBit()) {
      const walk = dictPath(ab.refs[0], 256, BigInt('0x' + account.toString('hex')));
      for (const c of walk.cells) pb.visit(c);
      for (const c of walk.cells.slice(-1)) for (const r of c.refs) pb.visitAll(r);
    }
    return pb.proof().toBoc();
  }

  private oneTransaction(q: TlObject): TlObject {
    const b = this.block(q.id as TlObject);
    const acc = q.account as TlObject;
    const account = acc.id as Buffer;
    const lt = q.lt as bigint;
    if ((acc.workchain as number) !== b.id.workchain) {
      throw new LiteServerError(ErrorCode.fatal, `account ${acc.workchain}:${account.toString('hex')} does not belong to block ${idStr(b.id)}`);
    }
    const t = b.transactions.find((x) => x.account.equals(account) && x.lt === lt);
    return {
      _: 'liteServer.transactionInfo',
      id: tlBlockId(b.id),
      proof: this.txProof(b, account),
      transaction: t ? t.cell.toBoc() : Buffer.alloc(0),
    };
  }

  private transactions(q: TlObject): TlObject {
    const acc = q.account as TlObject;
    const workchain = acc.workchain as number;
    const account = acc.id as Buffer;
    let lt = q.lt as bigint;
    let hash = q.hash as Buffer;
    const count = Math.min(q.count as number, 16);
    const all = this.source.accountTransactions(workchain, account);
    const out: ChainTx[] = [];
    for (let i = 0; i < count && lt !== 0n; i++) {
      const t = all.find((x) => x.lt === lt);
      if (!t) {
        if (i === 0) throw new LiteServerError(ErrorCode.notready, `cannot locate transaction with lt=${lt} of account ${workchain}:${account.toString('hex')}`);
        break;
      }
      if (!t.hash.equals(hash)) {
        throw new LiteServerError(ErrorCode.notready, `transaction ${lt} of ${workchain}:${account.toString('hex')} has a different hash`);
      }
      out.push(t);
      lt = t.prevLt;
      hash = t.prevHash;
    }
    return {
      _: 'liteServer.transactionList',
      ids: out.map((t) => tlBlockId(t.block)),
      transactions: serializeBocRoots(out.map((t) => t.cell)),
    };
  }

  /**
   * The shard block holding an account's state at masterchain block `mc` (the top block of its shard),
   * or the block itself when a shard block id is given.
   */
  private shardBlockFor(b: ChainBlock, workchain: number, account: Buffer): ChainBlock {
    if (b.id.workchain === workchain) return b;
    if (b.id.workchain !== -1) throw new LiteServerError(ErrorCode.fatal, `account workchain ${workchain} is not in block ${idStr(b.id)}`);
    const key = BigInt('0x' + account.subarray(0, 8).toString('hex'));
    const d = b.shards.find((s) => s.workchain === workchain && shardContains(s.shard, key | 1n));
    if (!d) throw new LiteServerError(ErrorCode.fatal, `workchain ${workchain} has no shard in block ${idStr(b.id)}`);
    const sb = this.source.getBlock(d);
    if (!sb) throw notApplied();
    return sb;
  }

  /**
   * Finds the ShardAccount of `account` after shard block `sb`: from the full state when the chain has it,
   * else from the newest block's state_update new tree whose accounts dictionary holds that key unpruned
   * (a recorded chain: a block that did not touch an account leaves its path pruned).
   */
  private findAccount(sb: ChainBlock, account: Buffer): FoundAccount {
    const key = BigInt('0x' + account.toString('hex'));
    const full = this.source.getState(sb.id);
    if (full) {
      const r = lookupAccount(full, key);
      if (r.pruned) throw new LiteServerError(ErrorCode.notready, `state of ${idStr(sb.id)} is incomplete`);
      return { stateRoot: full, shardAccount: r.shardAccount, walk: r.walk, fromBlock: sb, full: true };
    }
    const chain = this.source.shardBlocks(sb.id.workchain, sb.id.shard).filter((x) => x.id.seqno <= sb.id.seqno).reverse();
    for (const b of chain) {
      const newState = b.root.refs[2].refs[1];
      const r = lookupAccount(newState, key);
      if (!r.pruned) return { stateRoot: newState, shardAccount: r.shardAccount, walk: r.walk, fromBlock: b, full: false };
    }
    throw new LiteServerError(
      ErrorCode.notready,
      `account ${sb.id.workchain}:${account.toString('hex')} is not in any recorded state update up to block ${idStr(sb.id)} (recorded chain without states)`,
    );
  }

  /** The account a query names at its block: the shard block holding it, its state and the proofs of it. */
  private queriedAccount(q: TlObject) {
    const b = this.block(q.id as TlObject);
    const acc = q.account as TlObject;
    const workchain = acc.workchain as number;
    const account = acc.id as Buffer;
    const sb = this.shardBlockFor(b, workchain, account);
    const found = this.findAccount(sb, account);
    return { b, sb, workchain, account, ...this.accountProofs(sb, found) };
  }

  private accountState(q: TlObject): TlObject {
    const { b, sb, proof, stateCell } = this.queriedAccount(q);
    const shardProof = b === sb ? Buffer.alloc(0) : this.shardProof(b);
    return {
      _: 'liteServer.accountState',
      id: tlBlockId(b.id),
      shardblk: tlBlockId(sb.id),
      shard_proof: shardProof,
      proof,
      state: q._ === 'liteServer.getAccountStatePrunned' && stateCell ? pruned(stateCell) : stateCell ? stateCell.toBoc() : Buffer.alloc(0),
    };
  }

  /** Two-root BoC: [block proof with state_update, state proof down to the account]; plus the Account cell. */
  private accountProofs(sb: ChainBlock, found: FoundAccount): { proof: Buffer; stateCell: Cell | null } {
    const blockProof = new ProofBuilder(sb.root);
    blockProof.visitAll(sb.root.refs[0]);
    blockProof.path(2);
    let stateProof: Cell;
    if (found.full) {
      // The state root, the accounts dictionary path to the key, and the account.
      const pb = new ProofBuilder(found.stateRoot);
      pb.path(1);
      for (const c of found.walk?.cells ?? []) pb.visit(c);
      if (found.shardAccount) pb.visitAll(found.shardAccount.refs[0]);
      stateProof = pb.proof();
    } else {
      // Recorded chain: the state_update new tree is already pruned to what the block touched.
      stateProof = convertToMerkleProof(found.stateRoot);
    }
    const stateCell = found.shardAccount ? this.unprune(found.shardAccount.refs[0]) : null;
    return { proof: serializeBocRoots([blockProof.proof(), stateProof]), stateCell };
  }

  private cellIndex?: { size: number; cells: Map<string, Cell> };

  /**
   * Replaces pruned branches by the full cells when some recorded state update holds them (a recorded
   * chain keeps an account's unchanged code pruned in later blocks, but the block deploying it has it).
   */
  private unprune(c: Cell): Cell {
    if (!c.isExotic && c.level() === 0) return c;
    const blocks = this.source.shardBlocks(-1, SHARD_ALL);
    const all = blocks.flatMap((m) => [m, ...m.shards.map((d) => this.source.shardBlocks(d.workchain, d.shard)).flat()]);
    if (!this.cellIndex || this.cellIndex.size !== all.length) {
      const cells = new Map<string, Cell>();
      const add = (x: Cell) => {
        if (x.isExotic) return;
        const h = x.hash(0).toString('hex');
        const prev = cells.get(h);
        if (prev && prev.level() === 0) return;
        if (!prev || x.level() < prev.level()) cells.set(h, x);
        for (const r of x.refs) add(r);
      };
      for (const b of all) for (const r of b.root.refs[2].refs) add(r);
      this.cellIndex = { size: all.length, cells };
    }
    const index = this.cellIndex.cells;
    const memo = new Map<string, Cell>();
    const go = (x: Cell): Cell => {
      if (x.level() === 0 && !x.isExotic) return x;
      const h = x.hash(0).toString('hex');
      const done = memo.get(h);
      if (done) return done;
      let out = x;
      if (x.isExotic) {
        const full = index.get(h);
        if (full) out = go(full);
      } else {
        out = new Cell({ bits: x.bits, refs: x.refs.map(go) });
      }
      memo.set(h, out);
      return out;
    };
    return go(c);
  }

  private shardProof(mc: ChainBlock): Buffer {
    const pb = new ProofBuilder(mc.root);
    pb.path(3);
    if (mc.root.refs[3].refs[3]) pb.visit(mc.root.refs[3].refs[3]);
    if (mc.shardHashesRoot) pb.visitAll(mc.shardHashesRoot);
    return serializeBocRoots([pb.proof()]);
  }

  private async runSmcMethod(q: TlObject): Promise<TlObject> {
    const mode = q.mode as number;
    const { b, sb, workchain, account, proof, stateCell } = this.queriedAccount(q);
    let params: TupleItem[] = [];
    const raw = q.params as Buffer;
    if (raw.length > 0) {
      try {
        params = parseTuple(Cell.fromBoc(raw)[0]);
      } catch (err) {
        throw new LiteServerError(ErrorCode.fatal, `cannot deserialize parameter list boc: ${(err as Error).message}`);
      }
    }
    const base = {
      _: 'liteServer.runMethodResult',
      mode,
      id: tlBlockId(b.id),
      shardblk: tlBlockId(sb.id),
      shard_proof: mode & 1 ? (b === sb ? Buffer.alloc(0) : this.shardProof(b)) : null,
      proof: mode & 1 ? proof : null,
      state_proof: mode & 2 ? proof : null,
      init_c7: mode & 8 ? Buffer.alloc(0) : null,
      lib_extras: mode & 16 ? Buffer.alloc(0) : null,
    };
    const account_ = stateCell ? readAccount(stateCell) : null;
    if (!account_ || !account_.code || !account_.data) {
      // Uninitialized / missing account: the TVM cannot run; real liteservers answer exit code -256.
      return { ...base, exit_code: -256, result: mode & 4 ? Buffer.alloc(0) : null };
    }
    const ex = await executor();
    const res = await ex.runGetMethod({
      code: account_.code,
      data: account_.data,
      methodId: Number(BigInt.asIntN(32, q.method_id as bigint)),
      stack: params,
      config: (this.configRoot() ?? this.ctx.fallbackConfig ?? Cell.fromBase64(defaultConfig)).toBoc().toString('base64'),
      verbosity: 'short',
      address: new Address(workchain, account),
      unixTime: sb.header.genUtime,
      balance: account_.balance,
      randomSeed: Buffer.alloc(32),
      libs: this.librariesCell(),
      gasLimit: 1_000_000n,
      debugEnabled: false,
    });
    if (!res.output.success) throw new LiteServerError(ErrorCode.fatal, `cannot run get method: ${res.output.error}`);
    return { ...base, exit_code: res.output.vm_exit_code, result: mode & 4 ? Buffer.from(res.output.stack, 'base64') : null };
  }

  /** The newest known configuration: from the tip's state, else the newest key block's McBlockExtra. */
  private configRoot(): Cell | null {
    const tip = this.source.lastMasterchain();
    const state = this.source.getState(tip.id);
    const fromState = state ? configFromState(state) : null;
    if (fromState) return fromState;
    for (const b of [...this.source.shardBlocks(-1, SHARD_ALL)].reverse()) if (b.configRoot) return b.configRoot;
    return null;
  }

  /** The masterchain state's public libraries as the emulator wants them (HashmapE 256 ^Cell root). */
  private librariesCell(): Cell | undefined {
    const state = this.source.getState(this.source.lastMasterchain().id);
    const libs = state ? librariesOf(state) : null;
    if (!libs || libs.size === 0) return undefined;
    const dict = Dictionary.empty(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell());
    for (const [k, v] of libs) dict.set(k, v);
    return beginCell().storeDictDirect(dict).endCell();
  }

  private configInfo(q: TlObject): TlObject {
    const b = this.mcBlock(q.id as TlObject);
    const mode = q.mode as number;
    const state = this.source.getState(b.id);
    if (!state) throw new LiteServerError(ErrorCode.notready, `cannot load state for ${idStr(b.id)}: the chain has no masterchain states`);
    const custom = state.refs[3];
    if (!custom) throw new LiteServerError(ErrorCode.fatal, 'masterchain state has no McStateExtra');
    const pb = new ProofBuilder(state);
    pb.visit(custom);
    const cfgDict = custom.refs.find((_, i) => i === (custom.beginParse().skip(16).loadBit() ? 1 : 0));
    if (!cfgDict) throw new LiteServerError(ErrorCode.fatal, 'masterchain state has no configuration');
    if (q._ === 'liteServer.getConfigAll') {
      pb.visitAll(cfgDict);
    } else {
      pb.visit(cfgDict);
      for (const p of q.param_list as number[]) {
        const walk = dictPath(cfgDict, 32, BigInt.asUintN(32, BigInt(p)));
        for (const c of walk.cells) pb.visit(c);
        if (walk.leaf && walk.cells.length) for (const r of walk.cells[walk.cells.length - 1].refs) pb.visitAll(r);
      }
    }
    const blockProof = new ProofBuilder(b.root);
    blockProof.visitAll(b.root.refs[0]);
    blockProof.path(2);
    return {
      _: 'liteServer.configInfo',
      mode,
      id: tlBlockId(b.id),
      state_proof: blockProof.proof().toBoc(),
      config_proof: pb.proof().toBoc(),
    };
  }

  private libraries(list: Buffer[]): TlObject {
    const tip = this.source.lastMasterchain();
    const state = this.source.getState(tip.id);
    const result: TlObject[] = [];
    if (state) {
      const libs = librariesOf(state);
      for (const h of list.slice(0, 16)) {
        const lib = libs?.get(BigInt('0x' + h.toString('hex')));
        if (lib) result.push({ hash: h, data: lib.toBoc() });
      }
    }
    return { _: 'liteServer.libraryResult', result };
  }

  private async sendMessage(body: Buffer): Promise<TlObject> {
    let msg: Cell;
    try {
      msg = Cell.fromBoc(body)[0];
    } catch {
      throw new LiteServerError(0, 'cannot apply external message to current state : cannot deserialize message: bad bag-of-cells');
    }
    if (msg.beginParse().preloadUint(2) !== 2) {
      throw new LiteServerError(0, 'cannot apply external message to current state : not an inbound external message');
    }
    if (!this.source.sendMessage) {
      throw new LiteServerError(0, 'cannot apply external message to current state : External message was not accepted (static recorded chain)');
    }
    try {
      await this.source.sendMessage(body);
    } catch (err) {
      if (err instanceof ChainMessageError) throw new LiteServerError(err.code, err.message);
      throw new LiteServerError(0, `cannot apply external message to current state : ${(err as Error).message}`);
    }
    return { _: 'liteServer.sendMsgStatus', status: 1 };
  }
}

export function idStr(id: BlockRef<bigint>): string {
  return `(${id.workchain},${BigInt.asUintN(64, id.shard).toString(16)},${id.seqno})`;
}

function sha256(b: Buffer): Buffer {
  return createHash('sha256').update(b).digest();
}

/** The state hash after a block: the new hash of its state_update (MERKLE_UPDATE) cell. */
export function stateHashAfter(b: ChainBlock): Buffer {
  const upd = b.root.refs[2];
  // _ {X:Type} old_hash:bits256 new_hash:bits256 old_depth:uint16 new_depth:uint16 old:^X new:^X = MERKLE_UPDATE X;
  return Buffer.from(upd.bits.substring(8 + 256, 256).subbuffer(0, 256)!);
}

interface FoundAccount {
  stateRoot: Cell;
  /** The ShardAccount (account:^Account last_trans_hash:bits256 last_trans_lt:uint64) as a cell; null if absent. */
  shardAccount: Cell | null;
  walk: DictWalk | null;
  fromBlock: ChainBlock;
  /** From a full ShardState (true) or a recorded state_update tree (false). */
  full: boolean;
}

/**
 * ShardAccounts lookup in a ShardStateUnsplit (refs: out_msg_queue_info, accounts, ^[...], custom).
 * ShardAccounts = HashmapAugE 256 ShardAccount DepthBalanceInfo; a leaf is extra then value:
 * depth_balance$_ split_depth:(#<= 30) balance:CurrencyCollection, then account_descr$_ account:^Account ...
 */
function lookupAccount(state: Cell, key: bigint): { shardAccount: Cell | null; walk: DictWalk | null; pruned: boolean } {
  if (state.isExotic) return { shardAccount: null, walk: null, pruned: true };
  const accounts = state.refs[1];
  if (!accounts || accounts.isExotic) return { shardAccount: null, walk: null, pruned: true };
  const s = accounts.beginParse();
  if (!s.loadBit()) return { shardAccount: null, walk: null, pruned: false };
  const walk = dictPath(accounts.refs[0], 256, key);
  if (!walk.leaf) return { shardAccount: null, walk, pruned: walk.pruned };
  const leaf = walk.leaf;
  leaf.loadUint(5);
  loadCurrencyCollection(leaf);
  return { shardAccount: leaf.asCell(), walk, pruned: false };
}

function pruned(c: Cell): Buffer {
  return prunedBranch(c).toBoc();
}

function readAccount(c: Cell): { code: Cell | null; data: Cell | null; balance: bigint } | null {
  if (c.isExotic) return null;
  const s = c.beginParse();
  if (!s.loadBit()) return null; // account_none$0
  const acc = loadAccount(s);
  if (!acc) return null;
  const st = acc.storage.state;
  if (st.type !== 'active') return { code: null, data: null, balance: acc.storage.balance.coins };
  return { code: st.state.code ?? null, data: st.state.data ?? null, balance: acc.storage.balance.coins };
}

/** McStateExtra (custom ref of a masterchain state): shard_hashes:ShardHashes config:ConfigParams ... */
function configFromState(state: Cell): Cell | null {
  const custom = state.refs[3];
  if (!custom || custom.isExotic) return null;
  const cs = custom.beginParse();
  if (cs.loadUint(16) !== 0xcc26) return null;
  const cfg = custom.refs[cs.loadBit() ? 1 : 0];
  return cfg && !cfg.isExotic ? cfg : null;
}

/** ^[ overload_history:uint64 underload_history:uint64 total_balance total_validator_fees libraries:(HashmapE 256 LibDescr) ...] */
function librariesOf(state: Cell): Map<bigint, Cell> | null {
  const r = state.refs[2];
  if (!r || r.isExotic) return null;
  const s = r.beginParse();
  s.skip(128);
  loadCurrencyCollection(s);
  loadCurrencyCollection(s);
  const dict = Dictionary.load(
    Dictionary.Keys.BigUint(256),
    {
      serialize: () => {
        throw new Error('read only');
      },
      // shared_lib_descr$00 lib:^Cell publishers:(Hashmap 256 True) = LibDescr;
      parse: (v) => {
        v.loadUint(2);
        return v.loadRef();
      },
    },
    s,
  );
  return new Map([...dict]);
}
