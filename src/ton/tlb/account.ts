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
import { CELL_PRUNED, type Cells } from '../cell/boc.ts';
import { serializeBoc } from '../cell/std-boc.ts';
import { Slice } from '../cell/slice.ts';
import { DecodeError } from '../errors.ts';
import type { AccountStatus, ExtraCurrencies } from '../block/types.ts';
import { loadCurrencyCollection, skipCurrencyCollection } from './common.ts';
import { keyToHex, walkHashmapE } from './hashmap.ts';

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
