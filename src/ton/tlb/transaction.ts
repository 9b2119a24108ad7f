/**
 * Transaction reader (crypto/block/block.tlb).
 *
 * transaction$0111 account_addr:bits256 lt:uint64 prev_trans_hash:bits256 prev_trans_lt:uint64 now:uint32
 *   outmsg_cnt:uint15 orig_status:AccountStatus end_status:AccountStatus
 *   ^[ in_msg:(Maybe ^(Message Any)) out_msgs:(HashmapE 15 ^(Message Any)) ]
 *   total_fees:CurrencyCollection state_update:^(HASH_UPDATE Account) description:^TransactionDescr = Transaction;
 */
import type { Cells } from '../cell/boc.ts';
import { Slice } from '../cell/slice.ts';
import { DecodeError } from '../errors.ts';
import type { BlockRef } from './block-info.ts';
import {
  type AccStatusChange,
  type AccountStatus,
  type ExtraCurrencies,
  type MsgSize,
  loadAccStatusChange,
  loadAccountStatus,
  loadCurrencyCollection,
  loadHashUpdate,
  loadMaybeGrams,
  loadStorageUsedShort,
  rawAddress,
} from './common.ts';
import { walkHashmapE } from './hashmap.ts';
import { readMessage, type MessageRow } from './message.ts';

/** `tr_phase_storage$_` */
export interface StoragePhase {
  storage_fees_collected: bigint;
  /** null when absent (Maybe Grams) */
  storage_fees_due: bigint | null;
  status_change: AccStatusChange;
}

/** `tr_phase_credit$_` */
export interface CreditPhase {
  due_fees_collected: bigint | null;
  credit: bigint;
  credit_extra_currencies: ExtraCurrencies;
}

/** `tr_phase_compute_skipped$0` / `tr_phase_compute_vm$1` (fields of the VM form are absent when skipped). */
export interface ComputePhase {
  skipped: boolean;
  /** only when skipped */
  reason?: 'no_state' | 'bad_state' | 'no_gas' | 'suspended';
  success?: boolean;
  msg_state_used?: boolean;
  account_activated?: boolean;
  gas_fees?: bigint;
  gas_used?: bigint;
  gas_limit?: bigint;
  /** null when absent (Maybe VarUInteger 3) */
  gas_credit?: bigint | null;
  mode?: number;
  exit_code?: number;
  /** null when absent */
  exit_arg?: number | null;
  vm_steps?: number;
  vm_init_state_hash?: string;
  vm_final_state_hash?: string;
}

/** `tr_phase_action$_` */
export interface ActionPhase {
  success: boolean;
  valid: boolean;
  no_funds: boolean;
  status_change: AccStatusChange;
  total_fwd_fees: bigint | null;
  total_action_fees: bigint | null;
  result_code: number;
  result_arg: number | null;
  tot_actions: number;
  spec_actions: number;
  skipped_actions: number;
  msgs_created: number;
  action_list_hash: string;
  tot_msg_size: MsgSize;
}

/** `tr_phase_bounce_negfunds$00` / `_nofunds$01` / `_ok$1` */
export interface BouncePhase {
  type: 'negfunds' | 'nofunds' | 'ok';
  /** nofunds, ok */
  msg_size?: MsgSize;
  /** nofunds */
  req_fwd_fees?: bigint;
  /** ok */
  msg_fees?: bigint;
  /** ok */
  fwd_fees?: bigint;
}

/** `split_merge_info$_` (accounts as raw hex of the 256-bit address, upper-case, no workchain) */
export interface SplitMergeInfo {
  cur_shard_pfx_len: number;
  acc_split_depth: number;
  this_addr: string;
  sibling_addr: string;
}

/** TransactionDescr, API v3 shape; fields absent for a constructor are absent here. */
export interface TransactionDescr {
  type: 'ord' | 'storage' | 'tick_tock' | 'split_prepare' | 'split_install' | 'merge_prepare' | 'merge_install';
  /** ord */
  credit_first?: boolean;
  storage_ph?: StoragePhase;
  credit_ph?: CreditPhase;
  compute_ph?: ComputePhase;
  action?: ActionPhase;
  aborted?: boolean;
  bounce?: BouncePhase;
  destroyed?: boolean;
  /** tick_tock */
  is_tock?: boolean;
  /** split_install / merge_install */
  installed?: boolean;
  split_info?: SplitMergeInfo;
  /** split_install / merge_install: hash of the prepare transaction cell */
  prepare_transaction_hash?: string;
}

/** One transaction. */
export interface TransactionRow {
  /** representation hash of the Transaction cell */
  hash: string;
  lt: bigint;
  /** raw `wc:HEX` (workchain from the block; standalone decode needs it passed in, default 0) */
  account: string;
  now: number;
  prev_trans_hash: string;
  prev_trans_lt: bigint;
  outmsg_cnt: number;
  orig_status: AccountStatus;
  end_status: AccountStatus;
  total_fees: bigint;
  total_fees_extra_currencies: ExtraCurrencies;
  /** `update_hashes#72` of the transaction: account cell hash before / after */
  account_state_hash_before: string;
  account_state_hash_after: string;
  description: TransactionDescr;
  in_msg: MessageRow | null;
  /** ordered by created_lt (out_msgs dict index order) */
  out_msgs: MessageRow[];
  /** the block holding it (null for a standalone decode) */
  block_ref: BlockRef | null;
}

/** Decode the Transaction cell `cell` of an arena; `workchain` is the account's (from the block). */
export function readTransaction(cells: Cells, cell: number, workchain: number, globalVersion = 0): TransactionRow {
  const s = Slice.of(cells, cell, 'Transaction');
  const tag = s.uint(4);
  if (tag !== 0b0111) throw new DecodeError(`Transaction: bad tag 0x${tag.toString(16)} (expected transaction$0111)`);
  const account = rawAddress(workchain, s.hex(256));
  const lt = s.uint64();
  const prev_trans_hash = s.hash();
  const prev_trans_lt = s.uint64();
  const now = s.uint(32);
  const outmsg_cnt = s.uint(15);
  const orig_status = loadAccountStatus(s);
  const end_status = loadAccountStatus(s);
  const msgs = s.refSlice('Transaction messages');
  let in_msg: MessageRow | null = null;
  if (msgs.bit()) in_msg = readMessage(cells, msgs.loadRef(), globalVersion);
  const out_msgs: MessageRow[] = [];
  walkHashmapE(msgs, 15, (_key, v) => {
    out_msgs.push(readMessage(cells, v.loadRef(), globalVersion));
  }, false, 'Transaction out_msgs');
  const fees = loadCurrencyCollection(s);
  const update = loadHashUpdate(s.refSlice('Transaction state_update'));
  const description = loadTransactionDescr(s.refSlice('TransactionDescr'));
  return {
    hash: cells.hashHex(cell),
    lt,
    account,
    now,
    prev_trans_hash,
    prev_trans_lt,
    outmsg_cnt,
    orig_status,
    end_status,
    total_fees: fees.grams,
    total_fees_extra_currencies: fees.extra,
    account_state_hash_before: update.old_hash,
    account_state_hash_after: update.new_hash,
    description,
    in_msg,
    out_msgs,
    block_ref: null,
  };
}

/** tr_phase_storage$_ storage_fees_collected:Grams storage_fees_due:(Maybe Grams) status_change:AccStatusChange = TrStoragePhase; */
function loadStoragePhase(s: Slice): StoragePhase {
  const storage_fees_collected = s.grams();
  const storage_fees_due = loadMaybeGrams(s);
  const status_change = loadAccStatusChange(s);
  return { storage_fees_collected, storage_fees_due, status_change };
}

/** tr_phase_credit$_ due_fees_collected:(Maybe Grams) credit:CurrencyCollection = TrCreditPhase; */
function loadCreditPhase(s: Slice): CreditPhase {
  const due_fees_collected = loadMaybeGrams(s);
  const credit = loadCurrencyCollection(s);
  return { due_fees_collected, credit: credit.grams, credit_extra_currencies: credit.extra };
}

/**
 * tr_phase_compute_skipped$0 reason:ComputeSkipReason = TrComputePhase;
 * tr_phase_compute_vm$1 success:Bool msg_state_used:Bool account_activated:Bool gas_fees:Grams
 *   ^[ gas_used:(VarUInteger 7) gas_limit:(VarUInteger 7) gas_credit:(Maybe (VarUInteger 3))
 *   mode:int8 exit_code:int32 exit_arg:(Maybe int32) vm_steps:uint32
 *   vm_init_state_hash:bits256 vm_final_state_hash:bits256 ] = TrComputePhase;
 * cskip_no_state$00 = ComputeSkipReason; cskip_bad_state$01 = ComputeSkipReason; cskip_no_gas$10 = ComputeSkipReason;
 * cskip_suspended$110 = ComputeSkipReason;
 */
function loadComputePhase(s: Slice): ComputePhase {
  if (!s.bit()) {
    const r = s.uint(2);
    let reason: ComputePhase['reason'];
    if (r === 0) reason = 'no_state';
    else if (r === 1) reason = 'bad_state';
    else if (r === 2) reason = 'no_gas';
    else if (!s.bit()) reason = 'suspended';
    else throw new DecodeError('TrComputePhase: unknown ComputeSkipReason 111');
    return { skipped: true, reason };
  }
  const success = s.bit();
  const msg_state_used = s.bit();
  const account_activated = s.bit();
  const gas_fees = s.grams();
  const d = s.refSlice('TrComputePhase details');
  const gas_used = d.varUint(7);
  const gas_limit = d.varUint(7);
  const gas_credit = d.bit() ? d.varUint(3) : null;
  const mode = d.int(8);
  const exit_code = d.int(32);
  const exit_arg = d.bit() ? d.int(32) : null;
  const vm_steps = d.uint(32);
  const vm_init_state_hash = d.hash();
  const vm_final_state_hash = d.hash();
  return {
    skipped: false,
    success,
    msg_state_used,
    account_activated,
    gas_fees,
    gas_used,
    gas_limit,
    gas_credit,
    mode,
    exit_code,
    exit_arg,
    vm_steps,
    vm_init_state_hash,
    vm_final_state_hash,
  };
}

/**
 * tr_phase_action$_ success:Bool valid:Bool no_funds:Bool status_change:AccStatusChange
 *   total_fwd_fees:(Maybe Grams) total_action_fees:(Maybe Grams) result_code:int32 result_arg:(Maybe int32)
 *   tot_actions:uint16 spec_actions:uint16 skipped_actions:uint16 msgs_created:uint16
 *   action_list_hash:bits256 tot_msg_size:StorageUsedShort = TrActionPhase;
 */
function loadActionPhase(s: Slice): ActionPhase {
  const success = s.bit();
  const valid = s.bit();
  const no_funds = s.bit();
  const status_change = loadAccStatusChange(s);
  const total_fwd_fees = loadMaybeGrams(s);
  const total_action_fees = loadMaybeGrams(s);
  const result_code = s.int(32);
  const result_arg = s.bit() ? s.int(32) : null;
  const tot_actions = s.uint(16);
  const spec_actions = s.uint(16);
  const skipped_actions = s.uint(16);
  const msgs_created = s.uint(16);
  const action_list_hash = s.hash();
  const tot_msg_size = loadStorageUsedShort(s);
  return {
    success,
    valid,
    no_funds,
    status_change,
    total_fwd_fees,
    total_action_fees,
    result_code,
    result_arg,
    tot_actions,
    spec_actions,
    skipped_actions,
    msgs_created,
    action_list_hash,
    tot_msg_size,
  };
}

/**
 * tr_phase_bounce_negfunds$00 = TrBouncePhase;
 * tr_phase_bounce_nofunds$01 msg_size:StorageUsedShort req_fwd_fees:Grams = TrBouncePhase;
 * tr_phase_bounce_ok$1 msg_size:StorageUsedShort msg_fees:Grams fwd_fees:Grams = TrBouncePhase;
 */
function loadBouncePhase(s: Slice): BouncePhase {
  if (s.bit()) {
    const msg_size = loadStorageUsedShort(s);
    const msg_fees = s.grams();
    const fwd_fees = s.grams();
    return { type: 'ok', msg_size, msg_fees, fwd_fees };
  }
  if (!s.bit()) return { type: 'negfunds' };
  const msg_size = loadStorageUsedShort(s);
  const req_fwd_fees = s.grams();
  return { type: 'nofunds', msg_size, req_fwd_fees };
}

/** split_merge_info$_ cur_shard_pfx_len:(## 6) acc_split_depth:(## 6) this_addr:bits256 sibling_addr:bits256 = SplitMergeInfo; */
function loadSplitMergeInfo(s: Slice): SplitMergeInfo {
  const cur_shard_pfx_len = s.uint(6);
  const acc_split_depth = s.uint(6);
  const this_addr = s.hex(256, true);
  const sibling_addr = s.hex(256, true);
  return { cur_shard_pfx_len, acc_split_depth, this_addr, sibling_addr };
}

function loadMaybeActionRef(s: Slice, d: TransactionDescr): void {
  if (s.bit()) d.action = loadActionPhase(s.refSlice('TrActionPhase'));
}

/**
 * trans_ord$0000 credit_first:Bool storage_ph:(Maybe TrStoragePhase) credit_ph:(Maybe TrCreditPhase)
 *   compute_ph:TrComputePhase action:(Maybe ^TrActionPhase) aborted:Bool bounce:(Maybe TrBouncePhase)
 *   destroyed:Bool = TransactionDescr;
 * trans_storage$0001 storage_ph:TrStoragePhase = TransactionDescr;
 * trans_tick_tock$001 is_tock:Bool storage_ph:TrStoragePhase compute_ph:TrComputePhase
 *   action:(Maybe ^TrActionPhase) aborted:Bool destroyed:Bool = TransactionDescr;
 * trans_split_prepare$0100 split_info:SplitMergeInfo storage_ph:(Maybe TrStoragePhase) compute_ph:TrComputePhase
 *   action:(Maybe ^TrActionPhase) aborted:Bool destroyed:Bool = TransactionDescr;
 * trans_split_install$0101 split_info:SplitMergeInfo prepare_transaction:^Transaction installed:Bool = TransactionDescr;
 * trans_merge_prepare$0110 split_info:SplitMergeInfo storage_ph:TrStoragePhase aborted:Bool = TransactionDescr;
 * trans_merge_install$0111 split_info:SplitMergeInfo prepare_transaction:^Transaction
 *   storage_ph:(Maybe TrStoragePhase) credit_ph:(Maybe TrCreditPhase) compute_ph:TrComputePhase
 *   action:(Maybe ^TrActionPhase) aborted:Bool destroyed:Bool = TransactionDescr;
 */
export function loadTransactionDescr(s: Slice): TransactionDescr {
  const t3 = s.uint(3);
  switch (t3) {
    case 0b000: {
      if (s.bit()) return { type: 'storage', storage_ph: loadStoragePhase(s) };
      const d: TransactionDescr = { type: 'ord' };
      d.credit_first = s.bit();
      if (s.bit()) d.storage_ph = loadStoragePhase(s);
      if (s.bit()) d.credit_ph = loadCreditPhase(s);
      d.compute_ph = loadComputePhase(s);
      loadMaybeActionRef(s, d);
      d.aborted = s.bit();
      if (s.bit()) d.bounce = loadBouncePhase(s);
      d.destroyed = s.bit();
      return d;
    }
    case 0b001: {
      const d: TransactionDescr = { type: 'tick_tock' };
      d.is_tock = s.bit();
      d.storage_ph = loadStoragePhase(s);
      d.compute_ph = loadComputePhase(s);
      loadMaybeActionRef(s, d);
      d.aborted = s.bit();
      d.destroyed = s.bit();
      return d;
    }
    case 0b010: {
      if (!s.bit()) {
        const d: TransactionDescr = { type: 'split_prepare' };
        d.split_info = loadSplitMergeInfo(s);
        if (s.bit()) d.storage_ph = loadStoragePhase(s);
        d.compute_ph = loadComputePhase(s);
        loadMaybeActionRef(s, d);
        d.aborted = s.bit();
        d.destroyed = s.bit();
        return d;
      }
      const d: TransactionDescr = { type: 'split_install' };
      d.split_info = loadSplitMergeInfo(s);
      d.prepare_transaction_hash = s.cells.hashHex(s.loadRef());
      d.installed = s.bit();
      return d;
    }
    case 0b011: {
      if (!s.bit()) {
        const d: TransactionDescr = { type: 'merge_prepare' };
        d.split_info = loadSplitMergeInfo(s);
        d.storage_ph = loadStoragePhase(s);
        d.aborted = s.bit();
        return d;
      }
      const d: TransactionDescr = { type: 'merge_install' };
      d.split_info = loadSplitMergeInfo(s);
      d.prepare_transaction_hash = s.cells.hashHex(s.loadRef());
      if (s.bit()) d.storage_ph = loadStoragePhase(s);
      if (s.bit()) d.credit_ph = loadCreditPhase(s);
      d.compute_ph = loadComputePhase(s);
      loadMaybeActionRef(s, d);
      d.aborted = s.bit();
      d.destroyed = s.bit();
      return d;
    }
    default:
      throw new DecodeError(`TransactionDescr: unknown tag ${t3.toString(2).padStart(3, '0')}…`);
  }
}
