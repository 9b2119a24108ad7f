/**
 * ChainSource: what the local liteserver serves. A chain is a list of blocks (masterchain blocks after the
 * shard blocks they commit), optionally with the ShardState after each block. `MemoryChain` keeps one in
 * memory and controls which masterchain blocks are visible (the served tip), so a live chain can be
 * released block by block or extended (the devnet generator appends blocks and handles sendMessage).
 */
import { EventEmitter } from 'node:events';
import type { Cell } from '@ton/core';
import type { BlockRef } from '../../ton/index.ts';
import { blockKey, parseBlock, shardHex, shardOverlaps, type BlockIdExt, type BlockTx, type ParsedBlock } from './block.ts';

export interface ChainBlock extends ParsedBlock {
  /** Seqno of the masterchain block that commits this block (its own seqno for masterchain blocks). */
  mcSeqno: number;
}

export interface ChainTx extends BlockTx {
  workchain: number;
  block: BlockIdExt;
}

export interface ZeroStateId {
  workchain: number;
  rootHash: Buffer;
  fileHash: Buffer;
}

/** Thrown by `sendMessage` implementations to reject a message with a liteServer.error. */
export class ChainMessageError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'ChainMessageError';
  }
}

export interface ChainSource {
  readonly globalId: number;
  /** The masterchain zero state (liteServer.masterchainInfo.init). */
  readonly zeroState: ZeroStateId;
  /** The newest visible masterchain block (the tip). */
  lastMasterchain(): ChainBlock;
  /** A visible block by (workchain, shard, seqno). */
  getBlock(ref: BlockRef<bigint>): ChainBlock | undefined;
  /** Visible blocks of one shard chain, by seqno ascending. */
  shardBlocks(workchain: number, shard: bigint): ChainBlock[];
  /** The full ShardStateUnsplit after a block (seqno 0: the zero state), when known. */
  getState(ref: BlockRef<bigint>): Cell | undefined;
  /**
   * Masterchain blocks: the BlockProof (block_proof#c3 proof_for root signatures) the validators' signatures
   * came in, when the chain has one (a generated chain does; a recorded chain has no signatures).
   */
  getBlockProof?(ref: BlockRef<bigint>): Cell | undefined;
  /** Visible transactions of one account, by lt ascending. */
  accountTransactions(workchain: number, account: Buffer): ChainTx[];
  /** Resolves true once the masterchain tip reaches `seqno`, false after `timeoutMs`. */
  waitMasterchainSeqno(seqno: number, timeoutMs: number): Promise<boolean>;
  /** Accepts an external message (BoC); absent on a static recorded chain. */
  sendMessage?(boc: Buffer): Promise<void>;
  /** Called on every tip change. Returns an unsubscribe function. */
  onTip(listener: (tip: ChainBlock) => void): () => void;
}

export interface MemoryChainOptions {
  globalId?: number;
  zeroState?: ZeroStateId;
  /** How many masterchain blocks are visible at the start (default: all). */
  visibleMc?: number;
  sendMessage?: (boc: Buffer) => Promise<void>;
}

/** An in-memory chain: blocks added in chain order, visibility controlled by `release()`/`showAll()`. */
export class MemoryChain implements ChainSource {
  readonly globalId: number;
  readonly zeroState: ZeroStateId;
  private readonly blocks = new Map<string, ChainBlock>();
  private readonly chains = new Map<string, ChainBlock[]>();
  /** States, or loaders reading them on first use (state BoCs are large and slow to parse). */
  private readonly states = new Map<string, Cell | (() => Cell)>();
  private readonly proofs = new Map<string, Cell | (() => Cell)>();
  private readonly mc: ChainBlock[] = [];
  /** Shard blocks waiting for the masterchain block that commits them. */
  private pending: ParsedBlock[] = [];
  private readonly txByAccount = new Map<string, ChainTx[]>();
  private visible: number;
  private readonly events = new EventEmitter();
  readonly sendMessage?: (boc: Buffer) => Promise<void>;

  constructor(opts: MemoryChainOptions = {}) {
    this.globalId = opts.globalId ?? 0;
    this.zeroState = opts.zeroState ?? { workchain: -1, rootHash: Buffer.alloc(32), fileHash: Buffer.alloc(32) };
    this.visible = opts.visibleMc ?? Number.MAX_SAFE_INTEGER;
    if (opts.sendMessage) this.sendMessage = opts.sendMessage;
    this.events.setMaxListeners(0);
  }

  /**
   * Adds the next block in chain order (shard blocks before the masterchain block committing them), with the
   * state after it and (masterchain blocks) its BlockProof with signatures, when known.
   */
  addBlock(block: Buffer | ParsedBlock, state?: Cell | (() => Cell), proof?: Cell | (() => Cell)): ChainBlock | ParsedBlock {
    const parsed = Buffer.isBuffer(block) ? parseBlock(block) : block;
    const key = blockKey(parsed.id);
    if (state) this.states.set(key, state);
    if (proof) this.proofs.set(key, proof);
    if (parsed.id.workchain !== -1) {
      this.pending.push(parsed);
      return parsed;
    }
    const prevTip = this.lastVisibleSeqno();
    const mcBlock: ChainBlock = { ...parsed, mcSeqno: parsed.id.seqno };
    // Shard blocks become part of the chain with the first masterchain block whose shard hashes reach them.
    const committed: ChainBlock[] = [];
    this.pending = this.pending.filter((b) => {
      const top = parsed.shards.find(
        (s) => s.workchain === b.id.workchain && shardOverlaps(s.shard, b.id.shard) && s.seqno >= b.id.seqno,
      );
      if (!top) return true;
      committed.push({ ...b, mcSeqno: parsed.id.seqno });
      return false;
    });
    for (const b of [...committed, mcBlock]) this.index(b);
    this.mc.push(mcBlock);
    if (this.lastVisibleSeqno() !== prevTip) this.events.emit('tip', this.lastMasterchain());
    return mcBlock;
  }

  private index(b: ChainBlock): void {
    const key = blockKey(b.id);
    this.blocks.set(key, b);
    const ck = `${b.id.workchain}:${shardHex(b.id.shard)}`;
    const list = this.chains.get(ck) ?? [];
    const prev = list[list.length - 1];
    list.push(b);
    if (prev && prev.id.seqno > b.id.seqno) list.sort((x, y) => x.id.seqno - y.id.seqno);
    this.chains.set(ck, list);
    for (const t of b.transactions) {
      const ak = `${b.id.workchain}:${t.account.toString('hex')}`;
      const txs = this.txByAccount.get(ak) ?? [];
      const last = txs[txs.length - 1];
      txs.push({ ...t, workchain: b.id.workchain, block: b.id });
      if (last && last.lt > t.lt) txs.sort((x, y) => (x.lt < y.lt ? -1 : x.lt > y.lt ? 1 : 0));
      this.txByAccount.set(ak, txs);
    }
  }

  /** Forgets the ShardState after a block (a live chain keeps its recent states only, as a pruning node does). */
  dropState(ref: BlockRef<bigint>): void {
    this.states.delete(blockKey(ref));
  }

  /** Sets the ShardState after a block (e.g. computed later by a generator); seqno 0 is the zero state. */
  setState(ref: BlockRef<bigint>, state: Cell | (() => Cell)): void {
    this.states.set(blockKey(ref), state);
  }

  private lastVisibleSeqno(): number {
    if (this.mc.length === 0) return -1;
    return this.mc[Math.min(this.visible, this.mc.length) - 1].id.seqno;
  }

  private isVisible(b: ChainBlock): boolean {
    return b.mcSeqno <= this.lastVisibleSeqno();
  }

  /** Number of masterchain blocks loaded (visible or not). */
  get masterchainLength(): number {
    return this.mc.length;
  }

  /** Makes the next masterchain block visible. Returns false when none is left. */
  release(): boolean {
    if (this.visible >= this.mc.length) return false;
    this.visible++;
    this.events.emit('tip', this.lastMasterchain());
    return true;
  }

  /** Shows only the first `n` masterchain blocks (at least one). */
  setVisible(n: number): void {
    const before = this.lastVisibleSeqno();
    this.visible = Math.max(1, n);
    if (this.lastVisibleSeqno() !== before) this.events.emit('tip', this.lastMasterchain());
  }

  lastMasterchain(): ChainBlock {
    if (this.mc.length === 0) throw new Error('chain has no masterchain block');
    return this.mc[Math.min(this.visible, this.mc.length) - 1];
  }

  getBlock(ref: BlockRef<bigint>): ChainBlock | undefined {
    const b = this.blocks.get(blockKey(ref));
    return b && this.isVisible(b) ? b : undefined;
  }

  shardBlocks(workchain: number, shard: bigint): ChainBlock[] {
    return (this.chains.get(`${workchain}:${shardHex(shard)}`) ?? []).filter((b) => this.isVisible(b));
  }

  /** All visible blocks in chain order. */
  allBlocks(): ChainBlock[] {
    return [...this.blocks.values()].filter((b) => this.isVisible(b));
  }

  getState(ref: BlockRef<bigint>): Cell | undefined {
    const key = blockKey(ref);
    const s = this.states.get(key);
    if (typeof s !== 'function') return s;
    const cell = s();
    this.states.set(key, cell);
    return cell;
  }

  getBlockProof(ref: BlockRef<bigint>): Cell | undefined {
    const b = this.blocks.get(blockKey(ref));
    if (!b || !this.isVisible(b)) return undefined;
    const key = blockKey(ref);
    const p = this.proofs.get(key);
    if (typeof p !== 'function') return p;
    const cell = p();
    this.proofs.set(key, cell);
    return cell;
  }

  accountTransactions(workchain: number, account: Buffer): ChainTx[] {
    const tip = this.lastVisibleSeqno();
    const list = this.txByAccount.get(`${workchain}:${account.toString('hex')}`) ?? [];
    return list.filter((t) => {
      const b = this.blocks.get(blockKey(t.block));
      return b !== undefined && b.mcSeqno <= tip;
    });
  }

  waitMasterchainSeqno(seqno: number, timeoutMs: number): Promise<boolean> {
    if (this.lastVisibleSeqno() >= seqno) return Promise.resolve(true);
    return new Promise((resolve) => {
      const onTip = (tip: ChainBlock) => {
        if (tip.id.seqno >= seqno) {
          clearTimeout(timer);
          this.events.off('tip', onTip);
          resolve(true);
        }
      };
      const timer = setTimeout(() => {
        this.events.off('tip', onTip);
        resolve(false);
      }, timeoutMs);
      this.events.on('tip', onTip);
    });
  }

  onTip(listener: (tip: ChainBlock) => void): () => void {
    this.events.on('tip', listener);
    return () => this.events.off('tip', listener);
  }
}
