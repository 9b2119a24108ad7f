/**
 * The official nominator pool's storage before and after each of its transactions, and the rows built from them
 * (nominator-pools.ts), as ton-indexer v1.3's worker derives them (StakingEventProcessor.h
 * `process_nominator_pool_events`, `replay_nominator_pool_account`). The worker reads the pool's state before a
 * block's first pool transaction from its node's cell database and replays the block's pool transactions in the
 * emulator, one after the other. A block carries only the changed cells of the state after it, so here:
 *
 * - the state before comes from a liteserver: `liteServer.getAccountState` at the block before (the previous block of
 *   the shard that holds the account; two after a merge: the one whose shard holds it), taken only when its Account
 *   cell's hash is the first transaction's `update_hashes` old hash;
 * - the transactions' cells (their inbound messages) from `liteServer.getTransactions`, each taken only when its
 *   hash is the block's transaction hash;
 * - each transaction replayed in the emulator (`@ton/sandbox` Executor, the masterchain config at the batch's block
 *   from `liteServer.getConfigAll`, the block's rand_seed, the transaction's now and lt) and its account checked
 *   against the transaction's new hash: a replay that does not reproduce the chain refuses the pool for the block
 *   (counted), as does a liteserver answer that does not match. The worker's fallback is kept: when the emulator
 *   fails on a pool's only transaction of the block, the state after it is read (the block's own state, hash-checked).
 *
 * The pool's `nominator_pools` row is its storage after its last transaction of the block (the worker's
 * NominatorPoolData from the block's end state). A pool whose end storage does not unpack has no interface there in
 * the worker and gets no events for the block; nor here.
 */
import { Address, beginCell, Cell } from '@ton/core';
import type { Executor } from '@ton/sandbox';
import type { BlockIdExt } from '../source/index.ts';
import type { Row } from '../util/index.ts';
import { NOMINATOR_POOL_CODE_HASH_HEX, parseNominatorPoolStorage, type NominatorPoolStorage } from '../contracts/index.ts';
import { decodeAccount, type BlockRefFull, type DecodedBlock, type TransactionRow } from '../ton/index.ts';
import { withExecutor } from '../tvm/index.ts';
import { blockIdExtOf } from './liteserver-codes.ts';
import { nominatorPoolEventRows, nominatorPoolRow, nominatorPoolValidatorEventRow } from './nominator-pools.ts';

/** What the replay needs from the liteservers (`LiteserverPool` has it). */
export interface PoolChainSource {
  getAccountStateBoc(address: Address, block: BlockIdExt | null, opts?: { attempts?: number; timeoutMs?: number }): Promise<{ block: BlockIdExt; state: Buffer }>;
  getTransactions(address: Address, lt: bigint, hash: Buffer, count: number): Promise<{ transactions: Buffer }>;
  getConfigAllProof(id: BlockIdExt): Promise<Buffer>;
}

export interface PoolTables {
  nominator_pools: Row[];
  nominator_pool_events: Row[];
  nominator_pool_validator_events: Row[];
}

/** Per pool and block. */
export interface PoolReplayStats {
  /** replayed and checked: rows written */
  replayed: number;
  /** a liteserver could not give the state before, the transactions or the config (error, not known, time out) */
  unavailable: number;
  /** an answer or a replay did not match the block's hashes: refused */
  mismatch: number;
  /** the pool's storage did not unpack: no rows, as the worker */
  unparsed: number;
}

export const emptyPoolTables = (): PoolTables => ({ nominator_pools: [], nominator_pool_events: [], nominator_pool_validator_events: [] });
export const emptyPoolStats = (): PoolReplayStats => ({ replayed: 0, unavailable: 0, mismatch: 0, unparsed: 0 });

/** Adds a batch's replay counts into the entity-state counts. */
export function addPoolStats(into: { pool_replayed: number; pool_unavailable: number; pool_mismatch: number; pool_unparsed: number }, s: PoolReplayStats): void {
  into.pool_replayed += s.replayed;
  into.pool_unavailable += s.unavailable;
  into.pool_mismatch += s.mismatch;
  into.pool_unparsed += s.unparsed;
}

class Refused extends Error {
  constructor(
    readonly kind: 'unavailable' | 'mismatch' | 'unparsed',
    message: string,
  ) {
    super(message);
  }
}

/** A batch transaction with what its rows carry. */
interface Tx {
  tx: TransactionRow;
  mcSeqno: number;
  traceId: string | null;
}

const shardContains = (shardHex: string, account: string): boolean => {
  const shard = BigInt('0x' + shardHex);
  const lowBit = shard & -shard;
  const mask = ~((lowBit << 1n) - 1n) & ((1n << 64n) - 1n);
  const prefix = BigInt('0x' + account.split(':')[1].slice(0, 16));
  return (prefix & mask) === (shard & mask);
};

/** The previous block holding the account (a merge has two). */
function prevBlockOf(b: DecodedBlock, account: string): BlockRefFull | null {
  const prevs = b.info.prev_ref;
  if (prevs.length === 1) return prevs[0];
  return prevs.find((p) => shardContains(p.shard, account)) ?? null;
}

/** The Account cell of a liteserver answer: no account is `account_none$0` (a deploy's state before). */
function accountCell(boc: Buffer): Cell {
  if (boc.length === 0) return beginCell().storeBit(0).endCell();
  return Cell.fromBoc(boc)[0];
}

/** ShardAccount from an Account cell and the last transaction before it. */
function shardAccount(account: Cell, lastHash: string, lastLt: bigint): string {
  return beginCell().storeRef(account).storeBuffer(Buffer.from(lastHash, 'hex'), 32).storeUint(lastLt, 64).endCell().toBoc().toString('base64');
}

/** The pool's storage in an Account cell: its code must be the official pool's (`parse_pool_storage`). */
function poolStorage(account: Cell): { storage: NominatorPoolStorage; dataHash: string } {
  let acc;
  try {
    acc = decodeAccount(account.toBoc());
  } catch (e) {
    throw new Refused('unparsed', (e as Error).message);
  }
  if (acc.status !== 'active' || !acc.code_boc || !acc.data_boc) throw new Refused('unparsed', 'Not a nominator pool account');
  const code = Cell.fromBase64(acc.code_boc);
  if (code.hash().toString('hex') !== NOMINATOR_POOL_CODE_HASH_HEX) throw new Refused('unparsed', 'Not a nominator pool account');
  const data = Cell.fromBase64(acc.data_boc);
  try {
    return { storage: parseNominatorPoolStorage(data), dataHash: data.hash().toString('hex') };
  } catch (e) {
    throw new Refused('unparsed', (e as Error).message);
  }
}

/**
 * The ConfigParams dictionary of a getConfigAll proof: ShardStateUnsplit's McStateExtra (its 4th ref),
 * `masterchain_state_extra#cc26 shard_hashes:ShardHashes config:ConfigParams ...`,
 * `_ config_addr:bits256 config:^(Hashmap 32 ^Cell) = ConfigParams` (as src/api/v2/tlb.ts configFromProof reads it).
 */
export function configOfProof(boc: Buffer): Cell {
  const proof = Cell.fromBoc(boc)[0];
  const state = proof.isExotic ? proof.refs[0] : proof;
  if (state.beginParse(true).loadUint(32) !== 0x9023afe2) throw new Error('config proof does not hold a ShardStateUnsplit');
  const extra = state.refs[3];
  if (!extra) throw new Error('config proof has no McStateExtra');
  const es = extra.beginParse(true);
  if (es.loadUint(16) !== 0xcc26) throw new Error('McStateExtra tag mismatch');
  if (es.loadBit()) es.loadRef();
  es.loadBuffer(32);
  return es.loadRef();
}

/** The inbound message cell of a Transaction cell (`^[ in_msg:(Maybe ^(Message Any)) out_msgs:... ]`, its first ref). */
function inMessageOf(tx: Cell): Cell | null {
  const io = tx.refs[0];
  return io.beginParse().loadBit() ? io.refs[0] : null;
}

export class NominatorPoolReplayer {
  private readonly configs = new Map<string, Promise<string>>();

  constructor(
    private readonly source: PoolChainSource,
    private readonly opts: { timeoutMs?: number } = {},
  ) {}

  /** The rows of the pool transactions of a masterchain batch's blocks (`mcBlock`: the batch's masterchain block). */
  async batchRows(blocks: readonly DecodedBlock[], mcBlock: DecodedBlock, txs: readonly Tx[]): Promise<{ tables: PoolTables; stats: PoolReplayStats }> {
    const tables = emptyPoolTables();
    const stats = emptyPoolStats();
    const byHash = new Map(txs.map((t) => [t.tx.hash, t]));
    for (const b of blocks) {
      const pools = b.account_states.filter((s) => s.code_hash?.toLowerCase() === NOMINATOR_POOL_CODE_HASH_HEX).map((s) => s.account);
      const events: Row[] = [];
      const validatorEvents: Row[] = [];
      let failed = false;
      for (const account of pools) {
        const mine = b.transactions.filter((t) => t.account === account).sort((x, y) => (x.lt < y.lt ? -1 : x.lt > y.lt ? 1 : 0));
        if (!mine.length) continue;
        try {
          const rows = await this.replay(b, mcBlock, account, mine.map((t) => byHash.get(t.hash) ?? { tx: t, mcSeqno: mcBlock.id.seqno, traceId: null }));
          tables.nominator_pools.push(rows.pool);
          events.push(...rows.events);
          validatorEvents.push(...rows.validatorEvents);
          stats.replayed++;
        } catch (e) {
          const kind = e instanceof Refused ? e.kind : 'unavailable';
          stats[kind]++;
          // an end storage that does not unpack is no pool for the worker (not a candidate); any other failure fails
          // process_nominator_pool_events for the whole block: none of its pool events are kept
          if (kind !== 'unparsed') failed = true;
        }
      }
      if (!failed) {
        tables.nominator_pool_events.push(...events);
        tables.nominator_pool_validator_events.push(...validatorEvents);
      }
    }
    return { tables, stats };
  }

  private config(mcBlock: DecodedBlock): Promise<string> {
    const key = mcBlock.id.root_hash;
    let c = this.configs.get(key);
    if (!c) {
      c = this.source.getConfigAllProof(blockIdExtOf(mcBlock.id)).then((proof) => configOfProof(proof).toBoc().toString('base64'));
      c.catch(() => this.configs.delete(key));
      if (this.configs.size > 16) this.configs.delete(this.configs.keys().next().value!);
      this.configs.set(key, c);
    }
    return c;
  }

  private async replay(b: DecodedBlock, mcBlock: DecodedBlock, account: string, txs: Tx[]) {
    const addr = Address.parse(account);
    const first = txs[0].tx;
    const last = txs[txs.length - 1].tx;
    const prev = prevBlockOf(b, account);
    if (!prev) throw new Refused('unavailable', 'no previous block holds the account');
    const timeoutMs = this.opts.timeoutMs ?? 5_000;
    const [before, chain, config] = await Promise.all([
      this.source.getAccountStateBoc(addr, { workchain: prev.workchain, shard: BigInt('0x' + prev.shard), seqno: prev.seqno, rootHash: prev.root_hash, fileHash: prev.file_hash }, { attempts: 2, timeoutMs }),
      this.source.getTransactions(addr, last.lt, Buffer.from(last.hash, 'hex'), txs.length),
      this.config(mcBlock),
    ]).catch((e: unknown) => {
      throw new Refused('unavailable', (e as Error).message);
    });
    let acc = accountCell(before.state);
    if (acc.hash().toString('hex') !== first.account_state_hash_before.toLowerCase()) throw new Refused('mismatch', 'the state before does not have the first transaction\'s old hash');
    const cells = new Map(Cell.fromBoc(chain.transactions).map((c) => [c.hash().toString('hex'), c]));
    const rows = { events: [] as Row[], validatorEvents: [] as Row[] };
    let lastHash = first.prev_trans_hash;
    let lastLt = first.prev_trans_lt;
    const seed = Buffer.from(b.rand_seed, 'hex');
    let storageAfter: { storage: NominatorPoolStorage; dataHash: string } | null = null;
    for (const t of txs) {
      const cell = cells.get(t.tx.hash.toLowerCase());
      if (!cell) throw new Refused('mismatch', `the liteserver did not give transaction ${t.tx.hash}`);
      const msg = inMessageOf(cell);
      let beforeStorage: NominatorPoolStorage | null;
      try {
        beforeStorage = poolStorage(acc).storage;
      } catch {
        beforeStorage = null; // the worker replays on, with no events for this transaction
      }
      const res = msg
        ? await withExecutor('replaying a nominator pool transaction', (ex: Executor) => ex.runTransaction({
          config, libs: null, verbosity: 'short', shardAccount: shardAccount(acc, lastHash, lastLt), message: msg,
          now: t.tx.now, lt: t.tx.lt, randomSeed: seed, ignoreChksig: false, debugEnabled: false,
        }))
        : null;
      let next: Cell;
      if (!res || !res.result.success) {
        // the worker's fallback: a pool's only transaction of the block takes the state after the block
        if (txs.length !== 1 || !beforeStorage) throw new Refused('mismatch', `the emulator failed: ${res && !res.result.success ? res.result.error : 'no inbound message'}`);
        const after = await this.source.getAccountStateBoc(addr, blockIdExtOf(b.id), { attempts: 2, timeoutMs }).catch((e: unknown) => {
          throw new Refused('unavailable', (e as Error).message);
        });
        const cellAfter = accountCell(after.state);
        if (cellAfter.hash().toString('hex') !== t.tx.account_state_hash_after.toLowerCase()) throw new Refused('mismatch', 'the state after does not have the transaction\'s new hash');
        next = cellAfter;
      } else {
        const sa = Cell.fromBase64(res.result.shardAccount);
        next = sa.refs[0];
        if (next.hash().toString('hex') !== t.tx.account_state_hash_after.toLowerCase()) throw new Refused('mismatch', `the replay of ${t.tx.hash} does not reproduce its state`);
      }
      storageAfter = (() => {
        try {
          return poolStorage(next);
        } catch {
          return null;
        }
      })();
      // the worker's TRY_RESULT(after_storage, ...) once the storage before unpacked: the account's replay fails
      if (beforeStorage && !storageAfter && t !== txs[txs.length - 1]) throw new Refused('mismatch', 'the pool\'s storage after a transaction does not unpack');
      if (beforeStorage && storageAfter) {
        rows.events.push(...nominatorPoolEventRows(t, beforeStorage, storageAfter.storage));
        const v = nominatorPoolValidatorEventRow(t, beforeStorage, storageAfter.storage);
        if (v) rows.validatorEvents.push(v);
      }
      acc = next;
      lastHash = t.tx.hash;
      lastLt = t.tx.lt;
    }
    // the end state's interface: no pool there, no rows for the block (the worker's has_nominator_pool_interface)
    if (!storageAfter) throw new Refused('unparsed', 'the pool\'s storage after the block does not unpack');
    return { pool: nominatorPoolRow(account, storageAfter.storage, last.lt, NOMINATOR_POOL_CODE_HASH_HEX, storageAfter.dataHash), ...rows };
  }
}
