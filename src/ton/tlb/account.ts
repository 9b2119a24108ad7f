/**
 * Account states from the new ShardState of a block's state_update (crypto/block/block.tlb).
 *
 * shard_state#9023afe2 global_id:int32 shard_id:ShardIdent seq_no:uint32 vert_seq_no:# gen_utime:uint32 gen_lt:uint64
 *   min_ref_mc_seqno:uint32 out_msg_queue_info:^OutMsgQueueInfo before_split:(## 1) accounts:^ShardAccounts
 *   ^[ … ] custom:(Maybe ^McStateExtra) = ShardStateUnsplit;
 * split_state#5f327da5 left:^ShardStateUnsplit right:^ShardStateUnsplit = ShardState;
 * _ (HashmapAugE 256 ShardAccount DepthBalanceInfo) = ShardAccounts;
 * depth_balance$_ split_depth:(#<= 30) balance:CurrencyCollection = DepthBalanceInfo;
 * account_descr$_ account:^Account last_trans_hash:bits256 last_trans_lt:uint64 = ShardAccount;
 */
import { beginCell, type Builder, type Cell } from '@ton/core';
import { CELL_PRUNED, type Cells } from '../cell/boc.ts';
import { serializeBoc } from '../cell/std-boc.ts';
import { Slice } from '../cell/slice.ts';
import { DecodeError } from '../errors.ts';
import { loadCurrencyCollection, skipCurrencyCollection, storeCurrencyCollection, type AccountStatus, type ExtraCurrencies } from './common.ts';
import { hashmapAugECell, keyToHex, storeHashmapAugE, walkHashmapE, type AugEntry, type AugKind } from './hashmap.ts';
import { storeExtBlkRef, storeShardIdent, type ExtBlkRef } from './block-info.ts';
import { storeShardHashes, type ShardDescr } from './mc-extra.ts';

export interface ShardAccountLeaf {
  /** 64 upper-case hex */
  address: string;
  /** Account cell */
  account: number;
  last_trans_hash: string;
  last_trans_lt: bigint;
}

/** Every unpruned ShardAccount of a (partial) ShardState tree, keyed by 256-bit address hex (upper-case). */
export function readShardAccounts(cells: Cells, stateRoot: number): Map<string, ShardAccountLeaf> {
  const out = new Map<string, ShardAccountLeaf>();
  collect(cells, stateRoot, out);
  return out;
}

function collect(cells: Cells, cell: number, out: Map<string, ShardAccountLeaf>): void {
  if (cells.type[cell] === CELL_PRUNED) return;
  const s = Slice.of(cells, cell, 'ShardState');
  const tag = s.uint(32);
  if (tag === 0x5f327da5) {
    collect(cells, s.loadRef(), out);
    collect(cells, s.loadRef(), out);
    return;
  }
  if (tag !== 0x9023afe2) throw new DecodeError(`ShardState: bad tag 0x${tag.toString(16)}`);
  s.loadRef(); // out_msg_queue_info
  const accounts = s.loadRef();
  if (cells.type[accounts] === CELL_PRUNED) return;
  const a = Slice.of(cells, accounts, 'ShardAccounts');
  walkHashmapE(a, 256, (key, v) => {
    v.uint(5); // split_depth:(#<= 30)
    skipCurrencyCollection(v);
    const account = v.loadRef();
    const last_trans_hash = v.hash();
    const last_trans_lt = v.uint64();
    const address = keyToHex(key);
    out.set(address, { address, account, last_trans_hash, last_trans_lt });
  }, true, 'ShardAccounts');
}

export interface AccountInfo {
  status: AccountStatus;
  balance: bigint;
  extra: ExtraCurrencies;
  frozen_hash: string | null;
  code_hash: string | null;
  data_hash: string | null;
  code_boc: string | null;
  data_boc: string | null;
  data_root_boc: string | null;
}

/**
 * account_none$0 = Account;
 * account$1 addr:MsgAddressInt storage_stat:StorageInfo storage:AccountStorage = Account;
 * storage_info$_ used:StorageUsed storage_extra:StorageExtraInfo last_paid:uint32 due_payment:(Maybe Grams) = StorageInfo;
 *   (before the 2025 upgrade: storage_info$_ used:StorageUsed last_paid:uint32 due_payment:(Maybe Grams))
 * storage_used$_ cells:(VarUInteger 7) bits:(VarUInteger 7) = StorageUsed;
 *   (before: storage_used$_ cells:(VarUInteger 7) bits:(VarUInteger 7) public_cells:(VarUInteger 7) = StorageUsed;)
 * storage_extra_none$000 = StorageExtraInfo; storage_extra_info$001 dict_hash:uint256 = StorageExtraInfo;
 * account_storage$_ last_trans_lt:uint64 balance:CurrencyCollection state:AccountState = AccountStorage;
 * account_uninit$00 = AccountState; account_active$1 _:StateInit = AccountState;
 * account_frozen$01 state_hash:bits256 = AccountState;
 *
 * Both StorageInfo layouts exist on chain; the node knows which from the global version, we read the newer one
 * and fall back to the older one when it does not consume the cell exactly.
 */
export function readAccount(cells: Cells, cell: number): AccountInfo {
  try {
    return readAccountLayout(cells, cell, true);
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e;
    return readAccountLayout(cells, cell, false);
  }
}

/**
 * Past `addr:MsgAddressInt` and the storage used (with `storage_extra` in the newer StorageInfo layout, the third
 * VarUInteger of the older one), up to `last_paid`. Shared with the account template (account-cell.ts).
 */
export function skipAddrAndStorageUsed(s: Slice, newLayout: boolean): void {
  const t = s.uint(2);
  if (t < 2) throw new DecodeError('Account: address is not MsgAddressInt');
  if (s.bit()) s.skip(s.uint(5));
  if (t === 2) s.skip(8 + 256);
  else s.skip(32 + s.uint(9));
  s.varUint(7);
  s.varUint(7);
  if (newLayout) {
    const extra = s.uint(3);
    if (extra === 1) s.skip(256);
    else if (extra !== 0) throw new DecodeError('Account: bad StorageExtraInfo');
  } else {
    s.varUint(7);
  }
}

function readAccountLayout(cells: Cells, cell: number, newLayout: boolean): AccountInfo {
  const s = Slice.of(cells, cell, 'Account');
  if (!s.bit()) {
    return { status: 'nonexist', balance: 0n, extra: null, frozen_hash: null, code_hash: null, data_hash: null, code_boc: null, data_boc: null, data_root_boc: null };
  }
  skipAddrAndStorageUsed(s, newLayout);
  s.skip(32); // last_paid
  if (s.bit()) s.grams(); // due_payment
  s.uint64(); // last_trans_lt
  const balance = loadCurrencyCollection(s);
  const info: AccountInfo = {
    status: 'uninit',
    balance: balance.grams,
    extra: balance.extra,
    frozen_hash: null,
    code_hash: null,
    data_hash: null,
    code_boc: null,
    data_boc: null,
    data_root_boc: null,
  };
  if (s.bit()) {
    info.status = 'active';
    if (s.bit()) s.skip(5);
    if (s.bit()) s.skip(2);
    if (s.bit()) {
      const code = s.loadRef();
      info.code_hash = cells.hash0Hex(code);
      if (cells.levelMask[code] === 0) info.code_boc = serializeBoc(cells, code).toString('base64');
    }
    if (s.bit()) {
      const data = s.loadRef();
      info.data_hash = cells.hash0Hex(data);
      if (cells.levelMask[data] === 0) info.data_boc = serializeBoc(cells, data).toString('base64');
      if (cells.type[data] !== CELL_PRUNED) info.data_root_boc = info.data_boc ?? serializeBoc(cells, data).toString('base64');
    }
    if (s.bit()) s.loadRef();
  } else {
    const frozen = s.bit();
    if (frozen) {
      info.status = 'frozen';
      info.frozen_hash = s.hash();
    }
  }
  if (s.bitsLeft !== 0 || s.refsLeft !== 0) throw new DecodeError(`Account: ${s.bitsLeft} bits / ${s.refsLeft} refs left over`);
  return info;
}

/** depth_balance$_ split_depth:(#<= 30) balance:CurrencyCollection = DepthBalanceInfo; */
export const depthBalanceAug: AugKind<bigint> = {
  store: (b, v) => {
    b.storeUint(0, 5);
    storeCurrencyCollection(b, v);
  },
  add: (a, b) => a + b,
  zero: 0n,
};

export interface StateAccount {
  /** 256-bit account id. */
  id: bigint;
  /** The ShardAccount cell as the emulator returns it. */
  shardAccount: Cell;
  balance: bigint;
}

/**
 * account_descr$_ account:^Account last_trans_hash:bits256 last_trans_lt:uint64 = ShardAccount;
 * _ (HashmapAugE 256 ShardAccount DepthBalanceInfo) = ShardAccounts;
 * The emulator's ShardAccount cell is copied inline (its bits and its ^Account ref).
 */
export function shardAccountsCell(accounts: StateAccount[]): { cell: Cell; total: bigint } {
  const entries: AugEntry<bigint>[] = accounts.map((a) => ({
    key: a.id,
    extra: a.balance,
    value: (b: Builder) => b.storeSlice(a.shardAccount.beginParse()),
  }));
  const { cell, extra } = hashmapAugECell(depthBalanceAug, 256, entries);
  return { cell, total: extra };
}

/**
 * A message waiting in its sender's out queue. _ enqueued_lt:uint64 out_msg:^MsgEnvelope = EnqueuedMsg;
 * The queue key is the next hop (here the destination: workchain and first 64 address bits) and the message hash.
 */
export interface QueuedMsg {
  destWorkchain: number;
  /** 256-bit destination account id. */
  destId: bigint;
  msgHash: Buffer;
  enqueuedLt: bigint;
  /** The MsgEnvelope cell (the same one the sender's OutMsgDescr holds). */
  envelope: Cell;
}

/** OutMsgQueue augmentation: the smallest enqueued_lt below a node (uint64). */
const minLtAug: AugKind<bigint> = {
  store: (b, v) => {
    b.storeUint(v, 64);
  },
  add: (a, b) => (a < b ? a : b),
  zero: 0n,
};

/**
 * _ out_queue:OutMsgQueue proc_info:ProcessedInfo extra:(Maybe OutMsgQueueExtra) = OutMsgQueueInfo;
 * _ (HashmapAugE 352 EnqueuedMsg uint64) = OutMsgQueue;  _ (HashmapE 96 ProcessedUpto) = ProcessedInfo;
 * out_msg_queue_extra#0 dispatch_queue:DispatchQueue out_queue_size:(Maybe uint48) = OutMsgQueueExtra;
 * _ (HashmapAugE 256 AccountDispatchQueue uint64) = DispatchQueue;
 * Key: dest workchain (int32) . first 64 bits of the dest address . message hash (256). The queue size is
 * recorded in the extra, as current nodes do (liteServer.getBlockOutMsgQueueSize reads it from there).
 */
export function outMsgQueueInfoCell(queue: QueuedMsg[]): Cell {
  const b = beginCell();
  storeHashmapAugE(
    b,
    minLtAug,
    352,
    queue.map((m) => ({
      key: (BigInt.asUintN(32, BigInt(m.destWorkchain)) << 320n) | ((m.destId >> 192n) << 256n) | BigInt('0x' + m.msgHash.toString('hex')),
      extra: m.enqueuedLt,
      value: (vb: Builder) => {
        vb.storeUint(m.enqueuedLt, 64).storeRef(m.envelope);
      },
    })),
  );
  b.storeBit(0); // proc_info: empty
  b.storeBit(1).storeUint(0, 4); // extra: just out_msg_queue_extra#0
  b.storeBit(0).storeUint(0, 64); // dispatch_queue: empty (ahme_empty$0 extra:uint64)
  b.storeBit(1).storeUint(queue.length, 48); // out_queue_size: just
  return b.endCell();
}

/**
 * _ key:Bool max_end_lt:uint64 = KeyMaxLt;
 * _ key:Bool blk_ref:ExtBlkRef = KeyExtBlkRef;
 * _ (HashmapAugE 32 KeyExtBlkRef KeyMaxLt) = OldMcBlocksInfo;
 */
interface KeyMaxLt {
  key: boolean;
  maxEndLt: bigint;
}
const keyMaxLtAug: AugKind<KeyMaxLt> = {
  store: (b, v) => {
    b.storeBit(v.key).storeUint(v.maxEndLt, 64);
  },
  add: (a, b) => ({ key: a.key || b.key, maxEndLt: a.maxEndLt > b.maxEndLt ? a.maxEndLt : b.maxEndLt }),
  zero: { key: false, maxEndLt: 0n },
};

export interface McStateInfo {
  shards: ShardDescr[];
  configRoot: Cell;
  configAddr: Buffer;
  prevBlocks: { ref: ExtBlkRef; isKey: boolean }[];
  afterKeyBlock: boolean;
  lastKeyBlock: ExtBlkRef | null;
  globalBalance: bigint;
  validatorListHashShort: number;
  catchainSeqno: number;
}

/**
 * masterchain_state_extra#cc26 shard_hashes:ShardHashes config:ConfigParams
 *   ^[ flags:(## 16) { flags <= 1 } validator_info:ValidatorInfo prev_blocks:OldMcBlocksInfo
 *      after_key_block:Bool last_key_block:(Maybe ExtBlkRef) block_create_stats:(flags . 0)?BlockCreateStats ]
 *   global_balance:CurrencyCollection = McStateExtra;
 * _ config_addr:bits256 config:^(Hashmap 32 ^Cell) = ConfigParams;
 * validator_info$_ validator_list_hash_short:uint32 catchain_seqno:uint32 nx_cc_updated:Bool = ValidatorInfo;
 */
export function mcStateExtraCell(m: McStateInfo): Cell {
  const b = beginCell().storeUint(0xcc26, 16);
  storeShardHashes(b, m.shards);
  b.storeBuffer(m.configAddr, 32).storeRef(m.configRoot);
  const inner = beginCell().storeUint(0, 16).storeUint(m.validatorListHashShort, 32).storeUint(m.catchainSeqno, 32).storeBit(0);
  storeHashmapAugE(
    inner,
    keyMaxLtAug,
    32,
    m.prevBlocks.map((p) => ({
      key: BigInt(p.ref.seqno),
      extra: { key: p.isKey, maxEndLt: p.ref.end_lt },
      value: (vb: Builder) => {
        vb.storeBit(p.isKey);
        storeExtBlkRef(vb, p.ref);
      },
    })),
  );
  inner.storeBit(m.afterKeyBlock);
  if (m.lastKeyBlock) {
    inner.storeBit(1);
    storeExtBlkRef(inner, m.lastKeyBlock);
  } else {
    inner.storeBit(0);
  }
  b.storeRef(inner.endCell());
  storeCurrencyCollection(b, m.globalBalance);
  return b.endCell();
}

export interface ShardStateInfo {
  globalId: number;
  workchain: number;
  shard: bigint;
  seqno: number;
  vertSeqno: number;
  genUtime: number;
  genLt: bigint;
  minRefMcSeqno: number;
  beforeSplit: boolean;
  accounts: StateAccount[];
  masterRef: ExtBlkRef | null;
  custom: Cell | null;
  /** Messages this shard sent that are not delivered yet (default: none). */
  outQueue?: QueuedMsg[];
}

/**
 * shard_state#9023afe2 global_id:int32 shard_id:ShardIdent seq_no:uint32 vert_seq_no:#
 *   gen_utime:uint32 gen_lt:uint64 min_ref_mc_seqno:uint32 out_msg_queue_info:^OutMsgQueueInfo
 *   before_split:(## 1) accounts:^ShardAccounts
 *   ^[ overload_history:uint64 underload_history:uint64 total_balance:CurrencyCollection
 *      total_validator_fees:CurrencyCollection libraries:(HashmapE 256 LibDescr)
 *      master_ref:(Maybe BlkMasterInfo) ]
 *   custom:(Maybe ^McStateExtra) = ShardStateUnsplit;
 * master_info$_ master:ExtBlkRef = BlkMasterInfo;
 */
export function shardStateCell(s: ShardStateInfo): { cell: Cell; totalBalance: bigint } {
  const accounts = shardAccountsCell(s.accounts);
  const b = beginCell().storeUint(0x9023afe2, 32).storeInt(s.globalId, 32);
  storeShardIdent(b, s.workchain, s.shard);
  b.storeUint(s.seqno, 32)
    .storeUint(s.vertSeqno, 32)
    .storeUint(s.genUtime, 32)
    .storeUint(s.genLt, 64)
    .storeUint(s.minRefMcSeqno, 32)
    .storeRef(outMsgQueueInfoCell(s.outQueue ?? []))
    .storeBit(s.beforeSplit)
    .storeRef(accounts.cell);
  const inner = beginCell().storeUint(0, 64).storeUint(0, 64);
  storeCurrencyCollection(inner, accounts.total);
  storeCurrencyCollection(inner, 0n);
  inner.storeBit(0);
  if (s.masterRef) {
    inner.storeBit(1);
    storeExtBlkRef(inner, s.masterRef);
  } else {
    inner.storeBit(0);
  }
  b.storeRef(inner.endCell());
  if (s.custom) b.storeBit(1).storeRef(s.custom);
  else b.storeBit(0);
  return { cell: b.endCell(), totalBalance: accounts.total };
}

/** split_state#5f327da5 left:^ShardStateUnsplit right:^ShardStateUnsplit = ShardState; (the state before a merge) */
export function splitStateCell(left: Cell, right: Cell): Cell {
  return beginCell().storeUint(0x5f327da5, 32).storeRef(left).storeRef(right).endCell();
}
