/**
 * One external message run as a whole trace in the TVM emulator (@ton/sandbox's Executor, the emulator toncenter's
 * ton-trace-emulator links): the external transaction, then every internal message it causes, across accounts and
 * shards, each against the account's state as the trace left it (or as the given state has it), until no message is
 * left or a bound is reached. Ported from ton-index-worker/ton-trace-emulator/src/TraceEmulator.cpp (v1.3 66150f0f):
 *   - bounds: 256 transactions a trace, depth 32 (EmulationContext.h `txs_count_limit_`, `trace_depth_limit_`); a
 *     trace cut by either is returned with `limitExceeded` (upstream's `tx_limit_exceeded`, the API's is_incomplete);
 *   - time: the block's gen_utime for every transaction, lt from the block's start lt aligned down to 1,000,000
 *     (`lt - lt % lt_align`), a child message one above its parent's (`lt + 1`); the emulator raises it past the
 *     account's last transaction and the message's created_lt, as a validator does;
 *   - an external message its account does not accept is an error (EmulationExternalNotAccepted: the exit code), so
 *     is any failure of the emulator on an internal message (the whole emulation fails, as upstream's promise does);
 *   - external-out messages are not followed; internal messages go breadth first (depth by depth, each depth in the
 *     order its messages were sent), which is the order a chain delivers them one block apart.
 * Upstream emulates intra-shard messages in one shard block and defers cross-shard ones to the next masterchain
 * block, with the same utime and lt rules; every account here is read at the same masterchain block, so the order
 * within one depth is the only difference, and only for messages that meet at one account.
 */
import { Address, beginCell, Cell, Dictionary, loadMessage } from '@ton/core';
import type { Executor } from '@ton/sandbox';

/** Upstream's bounds (EmulationContext.h). */
export const MAX_TRACE_TXS = 256;
export const MAX_TRACE_DEPTH = 32;
/** block::ConfigInfo::get_lt_align() */
export const LT_ALIGN = 1_000_000n;

/** What a trace is emulated against: one masterchain block's config and account states. */
export interface EmulationState {
  /** the masterchain seqno whose state this is */
  mcSeqno: number;
  /** the ConfigParams dictionary cell at that block */
  config: Cell;
  /** gen_utime of the block the transactions are emulated into */
  utime: number;
  /** its start lt (aligned down to LT_ALIGN by the emulation) */
  lt: bigint;
  /** the shard block an account's transactions are emulated into (block_ref of the emulated transactions) */
  shardOf(account: Address): { workchain: number; shard: string; seqno: number };
  /** The ShardAccount cell of an account in that state (account_none with a zero last transaction when absent). */
  shardAccount(account: Address): Promise<Cell>;
  /** Library cells (a dictionary cell, as the emulator takes them) the accounts may need; null: none known. */
  libs?: Cell | null;
}

export interface EmulatedTx {
  /** the Transaction cell */
  tx: Cell;
  /** raw address `wc:HEX` (the store's form) */
  account: string;
  address: Address;
  /** 1 for the external message's transaction */
  depth: number;
  /** index of the transaction whose out message this one consumed; null for the root */
  parent: number | null;
  inMsg: Cell;
  /** ShardAccount before and after */
  before: Cell;
  after: Cell;
  block: { workchain: number; shard: string; seqno: number };
}

export interface EmulatedTrace {
  /** the external message */
  message: Cell;
  mcSeqno: number;
  /** in the order they were emulated (the root first) */
  txs: EmulatedTx[];
  /** true when the transaction or depth bound cut the trace (messages left unemulated) */
  limitExceeded: boolean;
  /** the block random seed every transaction ran with */
  randSeed: Buffer;
}

/** The account refused the external message: no transaction (the chain would not include it). */
export class EmulationRejected extends Error {
  constructor(
    readonly reason: string,
    readonly exitCode: number | null,
  ) {
    super(`the external message is not accepted by its account: ${reason}${exitCode !== null ? ` (exit code ${exitCode})` : ''}`);
    this.name = 'EmulationRejected';
  }
}

/** The emulator could not run a message of the trace (not a refusal: a message it cannot process). */
export class EmulationFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EmulationFailed';
  }
}

/** addr_none account with a zero last transaction: what the emulator runs a message to an absent account against. */
export function noneShardAccount(): Cell {
  return beginCell().storeRef(beginCell().storeBit(0).endCell()).storeUint(0n, 256).storeUint(0n, 64).endCell();
}

function rawOf(a: Address): string {
  return `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;
}

/** The out messages of a Transaction cell, raw (their own cells: the hashes the chain gives them), in index order. */
export function outMessageCells(tx: Cell): Cell[] {
  const io = tx.refs[0].beginParse();
  io.loadMaybeRef();
  const outs = io.loadDict(Dictionary.Keys.Uint(15), Dictionary.Values.Cell());
  return [...outs.keys()].sort((a, b) => a - b).map((k) => outs.get(k)!);
}

export interface EmulateOptions {
  ignoreChksig?: boolean;
  /** the block random seed (default: 32 random bytes, as upstream draws one per emulation) */
  randSeed?: Buffer;
  maxTxs?: number;
  maxDepth?: number;
}

/** Emulates the trace of one external-in message (`message`: its cell) against `state`. */
export async function emulateTrace(executor: Executor, message: Cell, state: EmulationState, opts: EmulateOptions = {}): Promise<EmulatedTrace> {
  const maxTxs = opts.maxTxs ?? MAX_TRACE_TXS;
  const maxDepth = opts.maxDepth ?? MAX_TRACE_DEPTH;
  const parsed = loadMessage(message.beginParse());
  if (parsed.info.type !== 'external-in') throw new EmulationFailed(`expected an external-in message, got ${parsed.info.type}`);
  const randSeed = opts.randSeed ?? Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(32)));
  const config = state.config.toBoc().toString('base64');
  const baseLt = state.lt - (state.lt % LT_ALIGN);
  /** accounts as the trace left them (raw address -> ShardAccount) */
  const accounts = new Map<string, Cell>();
  const txs: EmulatedTx[] = [];
  let limitExceeded = false;
  let queue: { msg: Cell; dest: Address; depth: number; parent: number | null; lt: bigint }[] = [{ msg: message, dest: parsed.info.dest, depth: 1, parent: null, lt: baseLt }];
  while (queue.length) {
    const next: typeof queue = [];
    // the states of a depth's accounts not reached before, read at once (a read is a liteserver round trip)
    const reads = new Map<string, Promise<Cell>>();
    for (const item of queue.slice(0, Math.max(0, maxTxs - txs.length))) {
      const key = rawOf(item.dest);
      if (accounts.has(key) || reads.has(key)) continue;
      const read = state.shardAccount(item.dest);
      read.catch(() => undefined); // awaited below, or not at all when a bound stops the depth
      reads.set(key, read);
    }
    for (const item of queue) {
      if (txs.length >= maxTxs) {
        limitExceeded = true;
        break;
      }
      const key = rawOf(item.dest);
      const before = accounts.get(key) ?? (await reads.get(key)!);
      const res = await executor.runTransaction({
        config,
        libs: state.libs ?? null,
        verbosity: 'short',
        shardAccount: before.toBoc().toString('base64'),
        message: item.msg,
        now: state.utime,
        lt: item.lt,
        randomSeed: randSeed,
        ignoreChksig: opts.ignoreChksig ?? false,
        debugEnabled: false,
      });
      if (!res.result.success) {
        if (item.parent === null) throw new EmulationRejected(res.result.error, res.result.vmResults?.vmExitCode ?? null);
        throw new EmulationFailed(`the emulator failed on an internal message to ${key} at depth ${item.depth}: ${res.result.error}`);
      }
      const tx = Cell.fromBase64(res.result.transaction);
      const after = Cell.fromBase64(res.result.shardAccount);
      accounts.set(key, after);
      const index = txs.length;
      txs.push({ tx, account: key, address: item.dest, depth: item.depth, parent: item.parent, inMsg: item.msg, before, after, block: state.shardOf(item.dest) });
      for (const out of outMessageCells(tx)) {
        const m = loadMessage(out.beginParse());
        if (m.info.type !== 'internal') continue; // external-out: a log, nobody receives it
        if (item.depth >= maxDepth) {
          limitExceeded = true;
          continue;
        }
        next.push({ msg: out, dest: m.info.dest, depth: item.depth + 1, parent: index, lt: item.lt + 1n });
      }
    }
    if (limitExceeded && txs.length >= maxTxs) break;
    queue = next;
  }
  return { message, mcSeqno: state.mcSeqno, txs, limitExceeded, randSeed };
}
