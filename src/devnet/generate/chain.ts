/**
 * The devnet chain: accounts executed in the TVM emulator, packed round by round into a masterchain block
 * and the basechain shard blocks it commits. Internal messages produced in one block are processed in a
 * later block (the next round), as on a real chain; the basechain splits into two shards and merges back.
 */
import { createHash } from 'node:crypto';
import {
  Address,
  beginCell,
  Cell,
  contractAddress,
  Dictionary,
  loadMessage,
  loadShardAccount,
  storeShardAccount,
  type StateInit,
} from '@ton/core';
import {
  blockCell,
  blockExtraCell,
  inMsgDescrCell,
  mcBlockExtraCell,
  mcStateExtraCell,
  merkleUpdate,
  outMsgDescrCell,
  shardAccountBlocksCell,
  msgEnvelopeCell,
  shardStateCell,
  splitStateCell,
  valueFlowCell,
  type AccountBlock,
  type InMsg,
  type OutMsg,
  type QueuedMsg,
  type StateAccount,
} from '../../ton/index.ts';
import { blockProofCell } from '../../proofs/index.ts';
import { extRef, fullRef, inShard, type ProducedRef } from './refs.ts';
import { blockInfoCell, type BlockInfo, type ShardDescr } from '../../ton/index.ts';
import { formatShardHex, shardChildren, shardPrefixLength } from '../../format/index.ts';
import { Emulator, defaultConfig } from './emulator.ts';
import { CATCHAIN_SEQNO, DevnetValidators } from './validators.ts';

export const SHARD_ALL = 0x8000000000000000n;

export interface DevnetOptions {
  /** Seed of everything random (keys, tx seeds); same seed, same chain. */
  seed?: number | bigint | string;
  /** gen_utime of the zero state; round r is at startTime + r * blockInterval. */
  startTime?: number;
  blockInterval?: number;
  /** Round whose basechain blocks are the two children of 0:8000000000000000 (null: never split). */
  splitAt?: number | null;
  /** Round whose basechain block merges the two children back (null: never merge). */
  mergeAt?: number | null;
  /** Blockchain config dict (base64 BoC of Hashmap 32 ^Cell); default: @ton/sandbox defaultConfig. */
  configBase64?: string;
}

export interface ProducedTx {
  hash: Buffer;
  lt: bigint;
  /** 256-bit account id (workchain 0). */
  account: bigint;
  workchain: number;
  cell: Cell;
  /** The emulator's ShardAccount after this transaction (base64 BoC; '' when the account was deleted). */
  shardAccount: string;
}

export interface ProducedBlock {
  ref: ProducedRef;
  boc: Buffer;
  /** Full ShardStateUnsplit after this block. */
  state: Cell;
  txs: ProducedTx[];
  /** Accounts this block's transactions touched, with the emulator's ShardAccount after the block (null: deleted). */
  accounts: { id: bigint; shardAccount: Cell | null }[];
  /** Masterchain blocks: the BlockProof (block_proof#c3) with the validators' signatures. */
  proof?: Cell;
}

export interface PendingMessage {
  cell: Cell;
  hash: Buffer;
  dest: Address;
  /** Internal messages: the sender (whose out queue holds the message until it is delivered). */
  src?: Address;
  /** Internal messages: the MsgEnvelope of the sender's OutMsgDescr and out queue. */
  envelope?: Cell;
  createdLt: bigint;
  /** First round whose blocks may process it. */
  readyRound: number;
  external: boolean;
  value: bigint;
  fwdFee: bigint;
}

interface AccountEntry {
  address: Address;
  /** The ShardAccount cell; null until parsed from `b64` (accounts touched many times per block parse once). */
  cell: Cell | null;
  /** Same ShardAccount as a base64 BoC (what the emulator takes), when known. */
  b64?: string;
  /** Balance of `cell` (valid once parsed). */
  balance: bigint;
  lastLt: bigint;
}

/** Parses an account entry's ShardAccount if needed. */
function materialize(a: AccountEntry): { cell: Cell; balance: bigint } {
  if (!a.cell) {
    a.cell = Cell.fromBase64(a.b64!);
    a.balance = balanceOf(a.cell).balance;
  }
  return { cell: a.cell, balance: a.balance };
}

interface ShardChain {
  shard: bigint;
  last: ProducedRef;
  state: Cell;
  totalBalance: bigint;
  genUtime: number;
  masterRef: ProducedRef;
  minRefMcSeqno: number;
  beforeSplit: boolean;
  wantMerge: boolean;
  feesCollected: bigint;
}

/** One shard's next block in a round: the chains it follows (two after a merge) and the state it starts from. */
interface ShardPlan {
  shard: bigint;
  prev: ShardChain[];
  oldState: Cell;
  fromPrev: bigint;
  afterSplit: boolean;
}

const LT_PER_ROUND = 1_000_000n;
const DEFAULT_START_TIME = 1_700_000_000;

function seedTagOf(seed: DevnetOptions['seed']): string {
  return `ton-gateway-devnet/${String(seed ?? 1)}`;
}

function sha256(...parts: (Buffer | string)[]): Buffer {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
}

function idOf(a: Address): bigint {
  return BigInt('0x' + a.hash.toString('hex'));
}

function bocOf(c: Cell): Buffer {
  return c.toBoc({ idx: false, crc32: true });
}

/**
 * What the block needs from a Transaction, read directly (cheaper than a full loadTransaction):
 * transaction$0111 account_addr:bits256 lt:uint64 prev_trans_hash:bits256 prev_trans_lt:uint64 now:uint32
 *   outmsg_cnt:uint15 orig_status:AccountStatus end_status:AccountStatus ^[ in_msg out_msgs ]
 *   total_fees:CurrencyCollection state_update:^(HASH_UPDATE Account) description:^TransactionDescr
 */
function txSummary(tx: Cell): { lt: bigint; outCount: number; endStatus: 'non-existing' | 'other'; totalFees: bigint; stateUpdate: { oldHash: Buffer; newHash: Buffer } } {
  const s = tx.beginParse();
  if (s.loadUint(4) !== 0b0111) throw new Error('emulator returned something that is not a Transaction');
  s.skip(256);
  const lt = s.loadUintBig(64);
  s.skip(256 + 64 + 32);
  const outCount = s.loadUint(15);
  s.skip(2);
  const end = s.loadUint(2);
  s.loadRef();
  const totalFees = s.loadCoins();
  s.loadMaybeRef();
  const su = s.loadRef().beginParse();
  su.skip(8);
  return { lt, outCount, endStatus: end === 3 ? 'non-existing' : 'other', totalFees, stateUpdate: { oldHash: su.loadBuffer(32), newHash: su.loadBuffer(32) } };
}

/** int_msg_info$0 ihr_disabled:Bool bounce:Bool bounced:Bool src dest value ihr_fee fwd_fee created_lt created_at; null for ext_out. */
function outMsgHeader(msg: Cell): { dest: Address; value: bigint; fwdFee: bigint; createdLt: bigint } | null {
  const s = msg.beginParse();
  if (s.loadBit()) return null;
  s.skip(3);
  s.loadAddressAny();
  const dest = s.loadAddress();
  const value = s.loadCoins();
  s.loadMaybeRef();
  s.loadCoins();
  const fwdFee = s.loadCoins();
  return { dest, value, fwdFee, createdLt: s.loadUintBig(64) };
}

/** ShardAccount of an address that holds nothing (account_none$0). */
function noneShardAccount(): Cell {
  return beginCell().storeRef(beginCell().storeBit(0).endCell()).storeUint(0, 256).storeUint(0, 64).endCell();
}

function balanceOf(sa: Cell): { balance: bigint } {
  const parsed = loadShardAccount(sa.beginParse());
  return { balance: parsed.account?.storage.balance.coins ?? 0n };
}

export class Devnet {
  readonly seedTag: string;
  readonly startTime: number;
  readonly blockInterval: number;
  readonly splitAt: number | null;
  readonly mergeAt: number | null;
  readonly globalId: number;
  readonly configRoot: Cell;
  private readonly configAddr: Buffer;
  private readonly globalVersion: { version: number; capabilities: bigint } | null;
  private readonly createdBy: Buffer;
  /** Validator keys, config param 34 and the block signatures. */
  readonly validators: DevnetValidators;

  /** Accounts by workchain (-1 masterchain, 0 basechain), then by 256-bit id. */
  private readonly wcAccounts = new Map<number, Map<bigint, AccountEntry>>([
    [-1, new Map()],
    [0, new Map()],
  ]);
  private queue: PendingMessage[] = [];
  private externals: PendingMessage[] = [];
  private chains: ShardChain[] = [];
  private mcLast!: ProducedRef;
  private mcState!: Cell;
  private mcTotal = 0n;
  private lastKeyBlock!: ProducedRef;
  private readonly prevMcBlocks: { ref: ProducedRef; isKey: boolean }[] = [];
  private started = false;

  /** Last produced round (= masterchain seqno of the tip). */
  round = 0;
  /**
   * Seconds added to every later round's time (`rebase`): a live chain resumed after a pause goes on at the wall
   * clock, as a halted chain does when it resumes; the rounds stay a function of (seed, round, time).
   */
  private timeOffset = 0;
  /** Keep every produced block in `blocks` (a chain written to a directory at the end); a live chain does not. */
  retainBlocks = true;
  zeroState!: { mc: ProducedBlock; shard: ProducedBlock };
  /** Every block produced, in chain order (shard blocks before the masterchain block committing them). */
  readonly blocks: ProducedBlock[] = [];
  /** External messages the emulator refused (no transaction), with the reason. */
  readonly rejected: { hash: Buffer; error: string }[] = [];

  private constructor(
    private readonly emulator: Emulator,
    opts: DevnetOptions,
    validators: DevnetValidators,
  ) {
    this.validators = validators;
    this.seedTag = seedTagOf(opts.seed);
    this.startTime = opts.startTime ?? DEFAULT_START_TIME;
    this.blockInterval = opts.blockInterval ?? 3;
    this.splitAt = opts.splitAt ?? null;
    this.mergeAt = opts.mergeAt ?? null;
    if (this.splitAt !== null && this.splitAt < 2) throw new Error('splitAt must be 2 or later');
    if (this.mergeAt !== null && (this.splitAt === null || this.mergeAt < this.splitAt + 2)) {
      throw new Error('mergeAt needs a split at least two rounds earlier');
    }
    this.configRoot = Cell.fromBase64(emulator.configBase64);
    const config = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), this.configRoot);
    this.configAddr = config.get(0)?.beginParse().loadBuffer(32) ?? Buffer.alloc(32, 0x55);
    const p8 = config.get(8)?.beginParse();
    this.globalVersion = p8 && p8.loadUint(8) === 0xc4 ? { version: p8.loadUint(32), capabilities: p8.loadUintBig(64) } : null;
    const p19 = config.get(19)?.beginParse();
    this.globalId = p19 ? p19.loadInt(32) : -239;
    this.createdBy = sha256(this.seedTag, '/validator');
  }

  static async create(opts: DevnetOptions = {}): Promise<Devnet> {
    // The config every block and state carries (and the emulator runs with) lists the devnet's own validators.
    const seedTag = seedTagOf(opts.seed);
    const validators = new DevnetValidators((label) => sha256(seedTag, '/', label), Cell.fromBase64(opts.configBase64 ?? defaultConfig), opts.startTime ?? DEFAULT_START_TIME);
    return new Devnet(await Emulator.create(validators.config.toBoc().toString('base64')), opts, validators);
  }

  /** gen_utime of round `r`: startTime + r * blockInterval, plus the offset of any rebase. */
  roundTime(r: number): number {
    return this.startTime + this.timeOffset + r * this.blockInterval;
  }

  /** Makes the next round's time at least `now` (later rounds follow it by blockInterval); never moves time back. */
  rebase(now: number): void {
    const next = this.roundTime(this.round + 1);
    if (now > next) this.timeOffset += now - next;
  }

  /** Deterministic bytes derived from the seed. */
  derive(label: string): Buffer {
    return sha256(this.seedTag, '/', label);
  }

  /** An active account present in the zero state (before `start`). */
  addGenesisAccount(address: Address, init: StateInit, balance: bigint): void {
    if (this.started) throw new Error('genesis accounts must be added before start()');
    if (address.workChain !== 0 && address.workChain !== -1) throw new Error('devnet accounts live in workchains -1 and 0');
    const sa = beginCell()
      .store(
        storeShardAccount({
          account: {
            addr: address,
            storageStats: { used: { cells: 0n, bits: 0n }, lastPaid: this.startTime, duePayment: null, storageExtra: null },
            storage: { lastTransLt: 0n, balance: { coins: balance }, state: { type: 'active', state: init } },
          },
          lastTransactionLt: 0n,
          lastTransactionHash: 0n,
        }),
      )
      .endCell();
    this.accountsOf(address.workChain).set(idOf(address), { address, cell: sa, balance, lastLt: 0n });
  }

  /** Basechain address of a StateInit. */
  addressOf(init: StateInit): Address {
    return contractAddress(0, init);
  }

  /** Basechain address with the given 32-byte hash. */
  addressFromHash(hash: Buffer): Address {
    return new Address(0, hash);
  }

  /** Current ShardAccount cell of an account (account_none when it does not exist). */
  shardAccount(address: Address): Cell {
    const a = this.accountsOf(address.workChain).get(idOf(address));
    return a ? materialize(a).cell : noneShardAccount();
  }

  /** Balance of an account now (0 when it does not exist). */
  balance(address: Address): bigint {
    const a = this.accountsOf(address.workChain).get(idOf(address));
    return a ? materialize(a).balance : 0n;
  }

  /** Messages produced but not yet processed (in flight). */
  inFlight(): PendingMessage[] {
    return [...this.queue, ...this.externals];
  }

  /** The out queue of a shard: messages its accounts sent that are not delivered yet (`pick` narrows them). */
  private outQueue(workchain: number, shard: bigint, pick: (m: PendingMessage) => boolean = () => true): QueuedMsg[] {
    return this.queue
      .filter((m) => m.src && m.envelope && m.src.workChain === workchain && inShard(idOf(m.src), shard) && pick(m))
      .map((m) => ({ destWorkchain: m.dest.workChain, destId: idOf(m.dest), msgHash: m.hash, enqueuedLt: m.createdLt, envelope: m.envelope! }));
  }

  private accountsOf(workchain: number): Map<bigint, AccountEntry> {
    const m = this.wcAccounts.get(workchain);
    if (!m) throw new Error(`devnet has no workchain ${workchain}`);
    return m;
  }

  private stateAccounts(workchain: number, shard: bigint): StateAccount[] {
    const out: StateAccount[] = [];
    for (const [id, a] of this.accountsOf(workchain)) {
      if (inShard(id, shard)) {
        const m = materialize(a);
        out.push({ id, shardAccount: m.cell, balance: m.balance });
      }
    }
    return out;
  }

  /**
   * Everything the next rounds depend on, between two rounds: accounts, messages in flight, the shard chains and
   * the masterchain's tip (the states as the cells of `states`: masterchain first, then each shard's). With the same
   * options, `restore` of it produces the same next rounds as this devnet would.
   */
  snapshot(): { json: DevnetSnapshotJson; states: Cell } {
    if (!this.started) throw new Error('snapshot of a devnet that has not started');
    const accounts: DevnetSnapshotJson['accounts'] = [];
    for (const [wc, map] of this.wcAccounts) {
      for (const a of map.values()) {
        const sa = a.b64 ?? a.cell!.toBoc({ idx: false, crc32: false }).toString('base64');
        accounts.push({ workchain: wc, address: a.address.toRawString(), shard_account: sa, last_lt: a.lastLt.toString() });
      }
    }
    const msg = (m: PendingMessage): PendingJson => ({
      boc: m.cell.toBoc({ idx: false, crc32: false }).toString('base64'),
      dest: m.dest.toRawString(),
      src: m.src?.toRawString(),
      envelope: m.envelope?.toBoc({ idx: false, crc32: false }).toString('base64'),
      created_lt: m.createdLt.toString(),
      ready_round: m.readyRound,
      external: m.external,
      value: m.value.toString(),
      fwd_fee: m.fwdFee.toString(),
    });
    const states = beginCell().storeRef(this.mcState);
    for (const c of this.chains) states.storeRef(c.state);
    return {
      json: {
        version: 1,
        round: this.round,
        time_offset: this.timeOffset,
        accounts,
        queue: this.queue.map(msg),
        externals: this.externals.map(msg),
        chains: this.chains.map((c) => ({
          shard: c.shard.toString(16),
          last: refJson(c.last),
          total_balance: c.totalBalance.toString(),
          gen_utime: c.genUtime,
          master_ref: refJson(c.masterRef),
          min_ref_mc_seqno: c.minRefMcSeqno,
          before_split: c.beforeSplit,
          want_merge: c.wantMerge,
          fees_collected: c.feesCollected.toString(),
        })),
        mc_last: refJson(this.mcLast),
        mc_total: this.mcTotal.toString(),
        last_key_block: refJson(this.lastKeyBlock),
        prev_mc_blocks: this.prevMcBlocks.map((p) => ({ ref: refJson(p.ref), is_key: p.isKey })),
        zero_state: { mc: refJson(this.zeroState.mc.ref), shard: refJson(this.zeroState.shard.ref) },
      },
      states: states.endCell(),
    };
  }

  /**
   * Continues from a snapshot of a devnet created with the same options (instead of `start`; genesis accounts
   * added before are replaced by the snapshot's). `zeroStates` are the two zero-state cells, for `zeroState`.
   */
  restore(snap: DevnetSnapshotJson, states: Cell, zeroStates: { mc: Cell; shard: Cell }): void {
    if (this.started) throw new Error('restore into a devnet that has started');
    if (snap.version !== 1) throw new Error(`devnet snapshot version ${String(snap.version)} is not 1`);
    if (states.refs.length !== 1 + snap.chains.length) throw new Error('devnet snapshot: the states do not match the shard chains');
    this.started = true;
    for (const m of this.wcAccounts.values()) m.clear();
    for (const a of snap.accounts) {
      const address = Address.parseRaw(a.address);
      this.accountsOf(a.workchain).set(idOf(address), { address, cell: null, b64: a.shard_account, balance: 0n, lastLt: BigInt(a.last_lt) });
    }
    const msg = (m: PendingJson): PendingMessage => {
      const cell = Cell.fromBase64(m.boc);
      return {
        cell,
        hash: cell.hash(),
        dest: Address.parseRaw(m.dest),
        src: m.src === undefined ? undefined : Address.parseRaw(m.src),
        envelope: m.envelope === undefined ? undefined : Cell.fromBase64(m.envelope),
        createdLt: BigInt(m.created_lt),
        readyRound: m.ready_round,
        external: m.external,
        value: BigInt(m.value),
        fwdFee: BigInt(m.fwd_fee),
      };
    };
    this.queue = snap.queue.map(msg);
    this.externals = snap.externals.map(msg);
    this.chains = snap.chains.map((c, i) => ({
      shard: BigInt('0x' + c.shard),
      last: refOf(c.last),
      state: states.refs[1 + i],
      totalBalance: BigInt(c.total_balance),
      genUtime: c.gen_utime,
      masterRef: refOf(c.master_ref),
      minRefMcSeqno: c.min_ref_mc_seqno,
      beforeSplit: c.before_split,
      wantMerge: c.want_merge,
      feesCollected: BigInt(c.fees_collected),
    }));
    this.mcLast = refOf(snap.mc_last);
    this.mcState = states.refs[0];
    this.mcTotal = BigInt(snap.mc_total);
    this.lastKeyBlock = refOf(snap.last_key_block);
    this.prevMcBlocks.length = 0;
    for (const p of snap.prev_mc_blocks) this.prevMcBlocks.push({ ref: refOf(p.ref), isKey: p.is_key });
    this.round = snap.round;
    this.timeOffset = snap.time_offset;
    const zero = (ref: ProducedRef, state: Cell): ProducedBlock => ({ ref, boc: bocOf(state), state, txs: [], accounts: [] });
    this.zeroState = { mc: zero(refOf(snap.zero_state.mc), zeroStates.mc), shard: zero(refOf(snap.zero_state.shard), zeroStates.shard) };
    if (!this.zeroState.mc.state.hash().equals(this.zeroState.mc.ref.rootHash)) throw new Error('devnet snapshot: the masterchain zero state is not the one it names');
  }

  /** Builds the zero states (masterchain and basechain). */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    const t = this.startTime;
    const shardState = shardStateCell({
      globalId: this.globalId,
      workchain: 0,
      shard: SHARD_ALL,
      seqno: 0,
      vertSeqno: 0,
      genUtime: t,
      genLt: 0n,
      minRefMcSeqno: 0,
      beforeSplit: false,
      accounts: this.stateAccounts(0, SHARD_ALL),
      masterRef: null,
      custom: null,
    });
    const shardBoc = bocOf(shardState.cell);
    const shardRef: ProducedRef = { workchain: 0, shard: SHARD_ALL, seqno: 0, rootHash: shardState.cell.hash(), fileHash: sha256(shardBoc), startLt: 0n, endLt: 0n };
    const mcState = this.mcStateCell(0, t, 0n, [], false).cell;
    this.mcTotal = this.stateAccounts(-1, SHARD_ALL).reduce((x, a) => x + a.balance, 0n);
    const mcBoc = bocOf(mcState);
    const mcRef: ProducedRef = { workchain: -1, shard: SHARD_ALL, seqno: 0, rootHash: mcState.hash(), fileHash: sha256(mcBoc), startLt: 0n, endLt: 0n };
    this.zeroState = {
      mc: { ref: mcRef, boc: mcBoc, state: mcState, txs: [], accounts: [] },
      shard: { ref: shardRef, boc: shardBoc, state: shardState.cell, txs: [], accounts: [] },
    };
    this.mcLast = mcRef;
    this.mcState = mcState;
    this.lastKeyBlock = mcRef;
    this.chains = [
      {
        shard: SHARD_ALL,
        last: shardRef,
        state: shardState.cell,
        totalBalance: shardState.totalBalance,
        genUtime: t,
        masterRef: mcRef,
        minRefMcSeqno: 0,
        beforeSplit: false,
        wantMerge: false,
        feesCollected: 0n,
      },
    ];
  }

  private mcStateCell(seqno: number, now: number, lt: bigint, shards: ShardDescr[], afterKey: boolean): { cell: Cell; totalBalance: bigint } {
    const accounts = this.stateAccounts(-1, SHARD_ALL);
    const mcTotal = accounts.reduce((t, a) => t + a.balance, 0n);
    const custom = mcStateExtraCell({
      shards,
      configRoot: this.configRoot,
      configAddr: this.configAddr,
      prevBlocks: this.prevMcBlocks.map((p) => ({ ref: extRef(p.ref), isKey: p.isKey })),
      afterKeyBlock: afterKey,
      lastKeyBlock: seqno === 0 ? null : extRef(this.lastKeyBlock),
      globalBalance: this.chains.reduce((t, c) => t + c.totalBalance, mcTotal),
      validatorListHashShort: this.validators.group(-1, SHARD_ALL).hash,
      catchainSeqno: CATCHAIN_SEQNO,
    });
    const st = shardStateCell({
      globalId: this.globalId,
      workchain: -1,
      shard: SHARD_ALL,
      seqno,
      vertSeqno: 0,
      genUtime: now,
      genLt: lt,
      minRefMcSeqno: Math.max(0, seqno - 1),
      beforeSplit: false,
      accounts,
      masterRef: null,
      custom,
      outQueue: this.outQueue(-1, SHARD_ALL),
    });
    return { cell: st.cell, totalBalance: st.totalBalance };
  }

  /**
   * Queues an external message (a Message BoC or cell) for the next round. Returns its hash.
   * Throws on what cannot be an inbound external message to a masterchain or basechain account.
   */
  submitExternal(msg: Buffer | Cell): Buffer {
    let cell: Cell;
    try {
      cell = Buffer.isBuffer(msg) ? Cell.fromBoc(msg)[0] : msg;
    } catch (err) {
      throw new Error(`not a BoC: ${(err as Error).message}`, { cause: err });
    }
    let parsed;
    try {
      parsed = loadMessage(cell.beginParse());
    } catch (err) {
      throw new Error(`not a Message: ${(err as Error).message}`, { cause: err });
    }
    if (parsed.info.type !== 'external-in') throw new Error(`expected an external-in message, got ${parsed.info.type}`);
    if (parsed.info.dest.workChain !== 0 && parsed.info.dest.workChain !== -1) {
      throw new Error(`devnet accepts messages to workchains -1 and 0 only, got ${parsed.info.dest.workChain}`);
    }
    this.externals.push({
      cell,
      hash: cell.hash(),
      dest: parsed.info.dest,
      createdLt: 0n,
      readyRound: this.round + 1,
      external: true,
      value: 0n,
      fwdFee: 0n,
    });
    return cell.hash();
  }

  /**
   * Checks an external message as a full node's liteserver does before taking it (ExtMessageQ: run on the
   * account's newest state): throws when its account would not accept it, with the emulator's reason. Messages
   * checked against the same state may still conflict (two with one wallet seqno): the round rejects the later one.
   */
  async checkExternal(msg: Buffer | Cell): Promise<void> {
    if (!this.started) await this.start();
    let cell: Cell;
    let parsed;
    try {
      cell = Buffer.isBuffer(msg) ? Cell.fromBoc(msg)[0] : msg;
      parsed = loadMessage(cell.beginParse());
    } catch {
      return; // submitExternal names what it is not
    }
    if (parsed.info.type !== 'external-in') return;
    const r = this.round + 1;
    const res = await this.emulator.run(this.shardAccount(parsed.info.dest), cell, this.roundTime(r), BigInt(r) * LT_PER_ROUND, this.derive(`check/${r}`));
    if ('error' in res) {
      // a full node's wording (ExtMessageQ::run_message_on_account), with the contract's exit code when it ran
      const exit = res.exitCode !== undefined ? `Cannot run message on account: inbound external message rejected by account: exitcode=${res.exitCode}` : res.error;
      throw new Error(`External message was not accepted\n${exit}`);
    }
  }

  /** Produces the next round: basechain shard blocks, then the masterchain block that commits them. */
  async produceRound(): Promise<ProducedBlock[]> {
    if (!this.started) await this.start();
    const r = this.round + 1;
    const now = this.roundTime(r);
    const produced: ProducedBlock[] = [];
    const plans = this.shardPlans(r);

    let startLt = BigInt(r) * LT_PER_ROUND;
    if (startLt <= this.mcLast.endLt) startLt = this.mcLast.endLt + 1n;
    const ready = this.queue.filter((m) => m.readyRound <= r);
    this.queue = this.queue.filter((m) => m.readyRound > r);
    ready.sort((a, b) => (a.createdLt < b.createdLt ? -1 : a.createdLt > b.createdLt ? 1 : a.hash.compare(b.hash)));
    const exts = this.externals;
    this.externals = [];
    const newChains: ShardChain[] = [];
    for (const plan of plans) {
      const mine = [...ready, ...exts].filter((m) => m.dest.workChain === 0 && inShard(idOf(m.dest), plan.shard));
      const block = await this.shardBlock(r, now, startLt, plan.shard, plan.prev, plan.oldState, plan.fromPrev, plan.afterSplit, mine);
      produced.push(block.produced);
      newChains.push(block.chain);
    }
    this.chains = newChains.sort((a, b) => (a.shard < b.shard ? -1 : 1));

    produced.push(await this.masterchainBlock(r, now, [...ready, ...exts].filter((m) => m.dest.workChain === -1)));
    this.round = r;
    if (this.retainBlocks) this.blocks.push(...produced);
    return produced;
  }

  /** Shard layout of round r: continue, split or merge. */
  private shardPlans(r: number): ShardPlan[] {
    const plans: ShardPlan[] = [];
    if (r === this.splitAt) {
      const p = this.chains.find((c) => c.shard === SHARD_ALL);
      if (!p) throw new Error('split: no 0:8000000000000000 shard');
      for (const child of shardChildren(SHARD_ALL)) {
        // The child's state before its first block: the parent's state restricted to the child's accounts.
        const accounts = this.stateAccounts(0, child);
        const old = shardStateCell({
          globalId: this.globalId,
          workchain: 0,
          shard: child,
          seqno: p.last.seqno,
          vertSeqno: 0,
          genUtime: p.genUtime,
          genLt: p.last.endLt,
          minRefMcSeqno: p.minRefMcSeqno,
          beforeSplit: false,
          accounts,
          masterRef: extRef(p.masterRef),
          custom: null,
          // the parent's queue after its last block (delivered this round), restricted to the child's senders
          outQueue: this.outQueue(0, child, (m) => m.readyRound <= r),
        });
        plans.push({ shard: child, prev: [p], oldState: old.cell, fromPrev: old.totalBalance, afterSplit: true });
      }
    } else if (r === this.mergeAt) {
      const [l, rr] = shardChildren(SHARD_ALL).map((s) => this.chains.find((c) => c.shard === s));
      if (!l || !rr) throw new Error('merge: the two children are not both present');
      plans.push({ shard: SHARD_ALL, prev: [l, rr], oldState: splitStateCell(l.state, rr.state), fromPrev: l.totalBalance + rr.totalBalance, afterSplit: false });
    } else {
      for (const c of this.chains) plans.push({ shard: c.shard, prev: [c], oldState: c.state, fromPrev: c.totalBalance, afterSplit: false });
    }

    return plans;
  }

  /** The masterchain block's description of each shard's latest block (ShardDescr), registered in round r. */
  private shardDescrs(r: number): ShardDescr[] {
    return this.chains.map((c) => ({
      workchain: 0,
      shard: formatShardHex(c.shard),
      seqno: c.last.seqno,
      reg_mc_seqno: r,
      start_lt: c.last.startLt,
      end_lt: c.last.endLt,
      root_hash: c.last.rootHash.toString('hex'),
      file_hash: c.last.fileHash.toString('hex'),
      before_split: c.beforeSplit,
      before_merge: c.wantMerge,
      want_split: c.beforeSplit,
      want_merge: c.wantMerge,
      nx_cc_updated: false,
      flags: 0,
      next_catchain_seqno: 0,
      next_validator_shard: formatShardHex(c.shard),
      min_ref_mc_seqno: c.minRefMcSeqno,
      gen_utime: c.genUtime,
      split_merge_at: { type: 'none', utime: null, interval: null },
      fees_collected: c.feesCollected,
      fees_collected_extra_currencies: null,
      funds_created: 0n,
      funds_created_extra_currencies: null,
      descr_tag: 'b',
    }));
  }

  /** The masterchain block of round r over the shards' new blocks: it executes `msgs` (to the masterchain) and moves the masterchain on. */
  private async masterchainBlock(r: number, now: number, msgs: PendingMessage[]): Promise<ProducedBlock> {
    const isKey = r === 1;
    const descrs = this.shardDescrs(r);
    const maxShardLt = this.chains.reduce((m, c) => (c.last.endLt > m ? c.last.endLt : m), 0n);
    const mcStart = (maxShardLt > this.mcLast.endLt ? maxShardLt : this.mcLast.endLt) + 1n;
    const ex = await this.execute(-1, msgs, r, now, mcStart);
    const mcEnd = ex.endLt;
    // OldMcBlocksInfo of the state after block r lists every earlier masterchain block, r - 1 included.
    this.prevMcBlocks.push({ ref: this.mcLast, isKey: this.mcLast.seqno === 0 || this.mcLast.seqno === 1 });
    const mcStateBuilt = this.mcStateCell(r, now, mcEnd, descrs, isKey);
    const mcState = mcStateBuilt.cell;
    const info = blockInfoCell(
      devnetBlockInfo({
        workchain: -1,
        shard: SHARD_ALL,
        seqno: r,
        afterMerge: false,
        beforeSplit: false,
        afterSplit: false,
        wantSplit: false,
        wantMerge: false,
        keyBlock: isKey,
        genUtime: now,
        startLt: mcStart,
        endLt: mcEnd,
        genValidatorListHashShort: this.validators.group(-1, SHARD_ALL).hash,
        minRefMcSeqno: Math.max(0, r - 1),
        prevKeyBlockSeqno: this.lastKeyBlock.seqno,
        globalVersion: this.globalVersion,
        masterRef: null,
        prev: [this.mcLast],
      }),
    );
    const vf = valueFlowCell({
      fromPrevBlk: this.mcTotal,
      toNextBlk: mcStateBuilt.totalBalance,
      imported: ex.imported,
      exported: ex.exported,
      feesCollected: ex.fees,
      feesImported: 0n,
      recovered: 0n,
      created: 0n,
      minted: 0n,
    });
    const mcExtra = mcBlockExtraCell({ keyBlock: isKey, shards: descrs, config: isKey ? { addr: this.configAddr, root: this.configRoot } : null });
    const extra = blockExtraCell(
      inMsgDescrCell(ex.inMsgs),
      outMsgDescrCell(ex.outMsgs),
      shardAccountBlocksCell([...ex.accBlocks.values()]),
      this.derive(`rand/-1/${r}`),
      this.createdBy,
      mcExtra,
    );
    const touchedMc = this.touched(-1, ex.accBlocks);
    const cell = blockCell(this.globalId, info, vf, merkleUpdate(this.mcState, mcState, touchedMc.keep), extra);
    const boc = bocOf(cell);
    const ref: ProducedRef = { workchain: -1, shard: SHARD_ALL, seqno: r, rootHash: cell.hash(), fileHash: sha256(boc), startLt: mcStart, endLt: mcEnd };
    const proof = blockProofCell(ref, cell, this.validators.signMasterchainBlock(ref.rootHash, ref.fileHash));
    const block: ProducedBlock = { ref, boc, state: mcState, txs: ex.txs, accounts: touchedMc.accounts, proof };
    this.mcTotal = mcStateBuilt.totalBalance;
    this.mcLast = ref;
    this.mcState = mcState;
    if (isKey) this.lastKeyBlock = ref;
    return block;
  }

  /** Executes messages in order against the accounts of `workchain`; lt from startLt + 1. */
  private async execute(workchain: number, msgs: PendingMessage[], r: number, now: number, startLt: bigint) {
    const accounts = this.accountsOf(workchain);
    const inMsgs: InMsg[] = [];
    const outMsgs: OutMsg[] = [];
    const accBlocks = new Map<bigint, AccountBlock>();
    const txs: ProducedTx[] = [];
    let cursor = startLt + 1n;
    let fees = 0n;
    let imported = 0n;
    let exported = 0n;
    const seen = new Set<string>();
    for (const m of msgs) {
      // A block imports a message once (InMsgDescr is keyed by its hash): a resent external waits for no one.
      const mh = m.hash.toString('hex');
      if (seen.has(mh)) {
        this.rejected.push({ hash: m.hash, error: 'duplicate of a message already in this block' });
        continue;
      }
      seen.add(mh);
      const destId = idOf(m.dest);
      const acc = accounts.get(destId);
      const before = acc ? (acc.b64 ?? acc.cell!) : noneShardAccount();
      const lastLt = acc?.lastLt ?? 0n;
      let lt = cursor;
      if (lt <= lastLt) lt = lastLt + 1n;
      if (lt <= m.createdLt) lt = m.createdLt + 1n;
      const res = await this.emulator.run(before, m.cell, now, lt, this.derive(`tx/${lt}/${m.hash.toString('hex')}`));
      if ('error' in res) {
        // An external message the account does not accept leaves no trace on chain.
        this.rejected.push({ hash: m.hash, error: res.error });
        continue;
      }
      const tx = txSummary(res.tx);
      if (tx.endStatus === 'non-existing') accounts.delete(destId);
      else accounts.set(destId, { address: m.dest, cell: null, b64: res.shardAccountB64, balance: 0n, lastLt: tx.lt });
      const txHash = res.tx.hash();
      txs.push({ hash: txHash, lt: tx.lt, account: destId, workchain, cell: res.tx, shardAccount: tx.endStatus === 'non-existing' ? '' : res.shardAccountB64 });
      fees += tx.totalFees;
      const ab = accBlocks.get(destId) ?? { id: destId, txs: [], oldAccountHash: tx.stateUpdate.oldHash, newAccountHash: tx.stateUpdate.newHash };
      ab.txs.push({ lt: tx.lt, cell: res.tx, totalFees: tx.totalFees });
      ab.newAccountHash = tx.stateUpdate.newHash;
      accBlocks.set(destId, ab);
      if (m.external) inMsgs.push({ kind: 'ext', msgHash: m.hash, msg: m.cell, tx: res.tx });
      else {
        inMsgs.push({ kind: 'fin', msgHash: m.hash, msg: m.cell, tx: res.tx, fwdFee: m.fwdFee, value: m.value });
        imported += m.value;
      }
      // Out messages: raw cells from the transaction's ^[ in_msg out_msgs ].
      const io = res.tx.refs[0].beginParse();
      io.loadMaybeRef();
      const outs = io.loadDict(Dictionary.Keys.Uint(15), Dictionary.Values.Cell());
      for (const i of [...outs.keys()].sort((a, b) => a - b)) {
        const oc = outs.get(i)!;
        const om = outMsgHeader(oc);
        if (om) {
          outMsgs.push({ kind: 'new', msgHash: oc.hash(), msg: oc, tx: res.tx, fwdFee: om.fwdFee, value: om.value });
          exported += om.value;
          // Workchains -1 and 0 run accounts; messages elsewhere are exported and never delivered.
          if (om.dest.workChain === 0 || om.dest.workChain === -1) this.queue.push({
            cell: oc,
            hash: oc.hash(),
            dest: om.dest,
            src: m.dest,
            envelope: msgEnvelopeCell(oc, 0, 96, om.fwdFee),
            createdLt: om.createdLt,
            readyRound: r + 1,
            external: false,
            value: om.value,
            fwdFee: om.fwdFee,
          });
        } else {
          outMsgs.push({ kind: 'ext', msgHash: oc.hash(), msg: oc, tx: res.tx });
        }
      }
      cursor = tx.lt + BigInt(tx.outCount) + 1n;
    }
    const endLt = cursor > startLt + 1n ? cursor : startLt + 1n;
    return { inMsgs, outMsgs, accBlocks, txs, fees, imported, exported, endLt };
  }

  /** The touched accounts' Account cells (kept whole in the merkle update) and their ShardAccounts after the block. */
  private touched(workchain: number, accBlocks: Map<bigint, AccountBlock>) {
    const accounts = this.accountsOf(workchain);
    const keep: Cell[] = [];
    const out: { id: bigint; shardAccount: Cell | null }[] = [];
    for (const id of accBlocks.keys()) {
      const a = accounts.get(id);
      const cell = a ? materialize(a).cell : null;
      if (cell) keep.push(cell.refs[0]);
      out.push({ id, shardAccount: cell });
    }
    return { keep, accounts: out };
  }

  private async shardBlock(
    r: number,
    now: number,
    startLt: bigint,
    shard: bigint,
    prev: ShardChain[],
    oldState: Cell,
    fromPrev: bigint,
    afterSplit: boolean,
    msgs: PendingMessage[],
  ): Promise<{ produced: ProducedBlock; chain: ShardChain }> {
    const { inMsgs, outMsgs, accBlocks, txs, fees, imported, exported, endLt } = await this.execute(0, msgs, r, now, startLt);
    const beforeSplit = this.splitAt !== null && r + 1 === this.splitAt && shard === SHARD_ALL;
    const wantMerge = this.mergeAt !== null && r + 1 === this.mergeAt && shard !== SHARD_ALL;
    const seqno = Math.max(...prev.map((p) => p.last.seqno)) + 1;
    const state = shardStateCell({
      globalId: this.globalId,
      workchain: 0,
      shard,
      seqno,
      vertSeqno: 0,
      genUtime: now,
      genLt: endLt,
      minRefMcSeqno: this.mcLast.seqno,
      beforeSplit,
      accounts: this.stateAccounts(0, shard),
      masterRef: extRef(this.mcLast),
      custom: null,
      outQueue: this.outQueue(0, shard),
    });
    const { keep: touched, accounts: touchedAccounts } = this.touched(0, accBlocks);
    const info = blockInfoCell(
      devnetBlockInfo({
        workchain: 0,
        shard,
        seqno,
        afterMerge: prev.length === 2,
        beforeSplit,
        afterSplit,
        wantSplit: beforeSplit,
        wantMerge,
        keyBlock: false,
        genUtime: now,
        startLt,
        endLt,
        genValidatorListHashShort: this.validators.group(0, shard).hash,
        minRefMcSeqno: this.mcLast.seqno,
        prevKeyBlockSeqno: this.lastKeyBlock.seqno,
        globalVersion: this.globalVersion,
        masterRef: this.mcLast,
        prev: prev.map((p) => p.last),
      }),
    );
    const vf = valueFlowCell({
      fromPrevBlk: fromPrev,
      toNextBlk: state.totalBalance,
      imported,
      exported,
      feesCollected: fees,
      feesImported: 0n,
      recovered: 0n,
      created: 0n,
      minted: 0n,
    });
    const extra = blockExtraCell(
      inMsgDescrCell(inMsgs),
      outMsgDescrCell(outMsgs),
      shardAccountBlocksCell([...accBlocks.values()]),
      this.derive(`rand/0/${shard.toString(16)}/${seqno}`),
      this.createdBy,
      null,
    );
    const block = blockCell(this.globalId, info, vf, merkleUpdate(oldState, state.cell, touched), extra);
    const boc = bocOf(block);
    const ref: ProducedRef = { workchain: 0, shard, seqno, rootHash: block.hash(), fileHash: sha256(boc), startLt, endLt };
    return {
      produced: { ref, boc, state: state.cell, txs, accounts: touchedAccounts },
      chain: {
        shard,
        last: ref,
        state: state.cell,
        totalBalance: state.totalBalance,
        genUtime: now,
        masterRef: this.mcLast,
        minRefMcSeqno: this.mcLast.seqno,
        beforeSplit,
        wantMerge,
        feesCollected: fees,
      },
    };
  }
}

interface BlockRefJson {
  workchain: number;
  shard: string;
  seqno: number;
  root_hash: string;
  file_hash: string;
  start_lt: string;
  end_lt: string;
}

interface PendingJson {
  boc: string;
  dest: string;
  src?: string;
  envelope?: string;
  created_lt: string;
  ready_round: number;
  external: boolean;
  value: string;
  fwd_fee: string;
}

/** Devnet.snapshot()'s JSON part (64-bit values as decimal strings, hashes as hex, cells as base64 BoCs). */
export interface DevnetSnapshotJson {
  version: number;
  round: number;
  time_offset: number;
  accounts: { workchain: number; address: string; shard_account: string; last_lt: string }[];
  queue: PendingJson[];
  externals: PendingJson[];
  chains: {
    shard: string;
    last: BlockRefJson;
    total_balance: string;
    gen_utime: number;
    master_ref: BlockRefJson;
    min_ref_mc_seqno: number;
    before_split: boolean;
    want_merge: boolean;
    fees_collected: string;
  }[];
  mc_last: BlockRefJson;
  mc_total: string;
  last_key_block: BlockRefJson;
  prev_mc_blocks: { ref: BlockRefJson; is_key: boolean }[];
  zero_state: { mc: BlockRefJson; shard: BlockRefJson };
}

function refJson(r: ProducedRef): BlockRefJson {
  return {
    workchain: r.workchain,
    shard: r.shard.toString(16),
    seqno: r.seqno,
    root_hash: r.rootHash.toString('hex'),
    file_hash: r.fileHash.toString('hex'),
    start_lt: r.startLt.toString(),
    end_lt: r.endLt.toString(),
  };
}

function refOf(j: BlockRefJson): ProducedRef {
  return {
    workchain: j.workchain,
    shard: BigInt('0x' + j.shard),
    seqno: j.seqno,
    rootHash: Buffer.from(j.root_hash, 'hex'),
    fileHash: Buffer.from(j.file_hash, 'hex'),
    startLt: BigInt(j.start_lt),
    endLt: BigInt(j.end_lt),
  };
}

/** What a devnet block's header varies in; the rest of BlockInfo is fixed (version 0, no vertical seqno, the one catchain). */
interface DevnetHeader {
  workchain: number;
  shard: bigint;
  seqno: number;
  afterMerge: boolean;
  beforeSplit: boolean;
  afterSplit: boolean;
  wantSplit: boolean;
  wantMerge: boolean;
  keyBlock: boolean;
  genUtime: number;
  startLt: bigint;
  endLt: bigint;
  genValidatorListHashShort: number;
  minRefMcSeqno: number;
  prevKeyBlockSeqno: number;
  globalVersion: { version: number; capabilities: bigint } | null;
  /** shard blocks only */
  masterRef: ProducedRef | null;
  /** one previous block, or two after a merge (left, right) */
  prev: ProducedRef[];
}

/** src/ton's BlockInfo of a devnet block (written by src/ton's blockInfoCell). */
function devnetBlockInfo(h: DevnetHeader): BlockInfo {
  return {
    version: 0,
    not_master: h.workchain !== -1,
    after_merge: h.afterMerge,
    before_split: h.beforeSplit,
    after_split: h.afterSplit,
    want_split: h.wantSplit,
    want_merge: h.wantMerge,
    key_block: h.keyBlock,
    vert_seqno_incr: false,
    flags: h.globalVersion ? 1 : 0,
    seqno: h.seqno,
    vert_seqno: 0,
    workchain: h.workchain,
    shard: formatShardHex(h.shard),
    shard_pfx_bits: shardPrefixLength(h.shard),
    gen_utime: h.genUtime,
    start_lt: h.startLt,
    end_lt: h.endLt,
    gen_validator_list_hash_short: h.genValidatorListHashShort,
    gen_catchain_seqno: CATCHAIN_SEQNO,
    min_ref_mc_seqno: h.minRefMcSeqno,
    prev_key_block_seqno: h.prevKeyBlockSeqno,
    gen_software: h.globalVersion,
    master_ref: h.masterRef ? fullRef(h.masterRef) : null,
    prev_ref: h.prev.map(fullRef),
    prev_vert_ref: null,
  };
}
