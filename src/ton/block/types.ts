/**
 * Rows produced by the block decoder (pure: bytes in, typed rows out).
 *
 * Conventions (all rows):
 * - field names are snake_case and follow toncenter API v3 / its storage schema where one exists;
 * - hashes are lower-case hex (64 chars); the API layers re-encode them (base64) as their contracts require;
 * - lt, coin amounts and 64-bit ids are `bigint` (decimal strings once in JSON); 32-bit values are `number`;
 * - shards are unsigned 64-bit upper-case hex strings, 16 digits, no `0x` (e.g. `"8000000000000000"`);
 * - internal accounts are raw `"<wc>:<64 UPPER-CASE hex>"` (e.g. `"0:2A58…"`, `"-1:3333…"`), as API v3 renders them;
 * - extra-currency maps are `{ "<currency id>": amount }`, `null` when the collection is empty;
 * - an optional (`?`) field is absent when the chain has no value for it (toncenter omits it then).
 */

/** `{ "<currency id (uint32, decimal)>": amount }` of an ExtraCurrencyCollection; null when empty. */
export type ExtraCurrencies = Record<string, bigint> | null;

/** Account status as API v3 names it (`acc_state_uninit$00` … `acc_state_nonexist$11`). */
export type AccountStatus = 'uninit' | 'frozen' | 'active' | 'nonexist';

/** Short block id, as API v3 `block_ref` / `masterchain_block_ref` / `prev_blocks` render it. */
export interface BlockRef {
  workchain: number;
  /** unsigned 64-bit shard, 16 upper-case hex digits */
  shard: string;
  seqno: number;
}

/** Full block id (BlockIdExt). */
export interface BlockId extends BlockRef {
  /** representation hash of the Block root cell */
  root_hash: string;
  /** sha256 of the BoC bytes as received (equals the canonical file hash only for the node's own serialization) */
  file_hash: string;
}

/** `ext_blk_ref$_ end_lt:uint64 seq_no:uint32 root_hash:bits256 file_hash:bits256 = ExtBlkRef;` */
export interface ExtBlkRef {
  end_lt: bigint;
  seqno: number;
  root_hash: string;
  file_hash: string;
}

/** A referenced block (prev / master / vert prev) with its shard resolved from the referencing block. */
export interface BlockRefFull extends BlockRef, ExtBlkRef {}

/** `capabilities#c4 version:uint32 capabilities:uint64 = GlobalVersion;` */
export interface GlobalVersion {
  version: number;
  capabilities: bigint;
}

/** Every field of `block_info#9bc7a987` (crypto/block/block.tlb). */
export interface BlockInfo {
  version: number;
  not_master: boolean;
  after_merge: boolean;
  before_split: boolean;
  after_split: boolean;
  want_split: boolean;
  want_merge: boolean;
  key_block: boolean;
  vert_seqno_incr: boolean;
  flags: number;
  seqno: number;
  vert_seqno: number;
  /** ShardIdent of the block */
  workchain: number;
  shard: string;
  /** shard_pfx_bits of the ShardIdent */
  shard_pfx_bits: number;
  gen_utime: number;
  start_lt: bigint;
  end_lt: bigint;
  gen_validator_list_hash_short: number;
  gen_catchain_seqno: number;
  min_ref_mc_seqno: number;
  prev_key_block_seqno: number;
  /** present when `flags & 1` */
  gen_software: GlobalVersion | null;
  /** `master_ref:not_master?^BlkMasterInfo` — the masterchain block this shard block refers to (null in masterchain) */
  master_ref: BlockRefFull | null;
  /**
   * `prev_ref:^(BlkPrevInfo after_merge)`: one previous block, or two after a merge (`prev_blks_info`: prev1 = left
   * child shard, prev2 = right child shard). After a split the previous block is in the parent shard.
   */
  prev_ref: BlockRefFull[];
  /** `prev_vert_ref:vert_seqno_incr?^(BlkPrevInfo 0)` */
  prev_vert_ref: BlockRefFull | null;
}

/** `split_merge_at:FutureSplitMerge` (fsm_none / fsm_split / fsm_merge). */
export interface FutureSplitMerge {
  type: 'none' | 'split' | 'merge';
  utime: number | null;
  interval: number | null;
}

/** One shard descriptor of `masterchain_block_extra#cca5` ShardHashes (`shard_descr#b` or `shard_descr_new#a`). */
export interface ShardDescr {
  workchain: number;
  /** resolved from the BinTree path */
  shard: string;
  seqno: number;
  reg_mc_seqno: number;
  start_lt: bigint;
  end_lt: bigint;
  root_hash: string;
  file_hash: string;
  before_split: boolean;
  before_merge: boolean;
  want_split: boolean;
  want_merge: boolean;
  nx_cc_updated: boolean;
  flags: number;
  next_catchain_seqno: number;
  /** uint64 as 16-digit upper-case hex */
  next_validator_shard: string;
  min_ref_mc_seqno: number;
  gen_utime: number;
  split_merge_at: FutureSplitMerge;
  fees_collected: bigint;
  fees_collected_extra_currencies: ExtraCurrencies;
  funds_created: bigint;
  funds_created_extra_currencies: ExtraCurrencies;
  /** which constructor the chain used: `b` = shard_descr#b (fees inline), `a` = shard_descr_new#a (fees in a ref) */
  descr_tag: 'a' | 'b';
}

/** One ConfigParams entry: the param's value cell as it is in the block. */
export interface ConfigParamCell {
  id: number;
  /** representation hash of the param's value cell */
  hash: string;
  /** standard base64 BoC of the value cell (may contain pruned branches if the block carried them) */
  boc: string;
}

/** `validators#11` / `validators_ext#12` summary (ConfigParam 32..37). */
export interface ValidatorSetSummary {
  utime_since: number;
  utime_until: number;
  total: number;
  main: number;
  /** only in validators_ext#12 */
  total_weight: bigint | null;
}

/** `_ config_addr:bits256 config:^(Hashmap 32 ^Cell) = ConfigParams;` (key blocks only). */
export interface BlockConfig {
  /** config smart contract, raw `-1:HEX` */
  config_addr: string;
  /** every param, ascending id */
  params: ConfigParamCell[];
  /** ConfigParam 0/1/2 as raw `-1:HEX` (null when absent) */
  config_address: string | null;
  elector_address: string | null;
  minter_address: string | null;
  /** ConfigParam 34 summary (null when absent/unreadable) */
  cur_validators: ValidatorSetSummary | null;
}

/** `storage_used_short$_ cells:(VarUInteger 7) bits:(VarUInteger 7) = StorageUsedShort;` */
export interface MsgSize {
  cells: bigint;
  bits: bigint;
}

export type AccStatusChange = 'unchanged' | 'frozen' | 'deleted';

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

export type MessageType = 'int' | 'ext_in' | 'ext_out';

/** One message (inbound or outbound of a transaction). */
export interface MessageRow {
  /** representation hash of the Message cell */
  msg_hash: string;
  message_type: MessageType;
  /** raw `wc:HEX`; null for external-in (addr_none/addr_extern source) */
  source: string | null;
  /** raw `wc:HEX`; null for external-out (addr_none/addr_extern destination) */
  destination: string | null;
  /** addr_extern payload of an external source/destination: `"<bit length>:<hex of the bits, right-padded>"`, else null */
  source_external: string | null;
  destination_external: string | null;
  /** int only */
  value: bigint | null;
  value_extra_currencies: ExtraCurrencies;
  /** int only */
  fwd_fee: bigint | null;
  /**
   * int only. The CommonMsgInfo field after `value` is `ihr_fee:Grams` before global version 12 and
   * `extra_flags:(VarUInteger 16)` from it (same bits; IHR fees are zero since version 11): read as the block's
   * version says, the other one is 0.
   */
  ihr_fee: bigint | null;
  /** int only: see ihr_fee (bit 0: new bounce format, bit 1: bounce with the whole body); 0 before version 12 */
  extra_flags: bigint | null;
  /** ext_in only */
  import_fee: bigint | null;
  /** int, ext_out */
  created_lt: bigint | null;
  /** int, ext_out (unix time) */
  created_at: number | null;
  /** int only */
  ihr_disabled: boolean | null;
  bounce: boolean | null;
  bounced: boolean | null;
  /**
   * first 32 bits of the body as a signed int32 (as toncenter stores it, `messages.opcode int4`); null when the
   * body has fewer than 32 bits. API v3 renders `"0x" + (opcode >>> 0).toString(16).padStart(8, "0")`.
   */
  opcode: number | null;
  /** hash of the body cell: the referenced cell, or the inline remainder of the message slice as its own cell */
  body_hash: string;
  /** base64 BoC of that body cell */
  body_boc: string;
  /** StateInit cell (inline StateInit rebuilt as its own cell) hash and BoC; null without init */
  init_state_hash: string | null;
  init_state_boc: string | null;
  /** external-in only: normalized hash (API v3 §7.1); null for other messages. Set even when equal to msg_hash. */
  hash_norm: string | null;
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

/** State of one account after the block, read from the block's `state_update` (new ShardState). */
export interface AccountStateRow {
  /** raw `wc:HEX` */
  account: string;
  /** hash (level 0, i.e. the real hash even where the block prunes parts of it) of the Account cell */
  hash: string;
  /** ShardAccount.last_trans_hash / last_trans_lt */
  last_trans_hash: string;
  last_trans_lt: bigint;
  /** balance (0 for nonexist) */
  balance: bigint;
  balance_extra_currencies: ExtraCurrencies;
  account_status: AccountStatus;
  /** frozen accounts: account_frozen state_hash */
  frozen_hash: string | null;
  /** active accounts: code/data cell hash (taken from the pruned branch when the block prunes it) */
  code_hash: string | null;
  data_hash: string | null;
  /** base64 BoC of code/data when the block carries the whole tree unpruned, else null */
  code_boc: string | null;
  data_boc: string | null;
  /**
   * base64 BoC of the data cell as the block carries it, unchanged subtrees left as pruned branch cells (enough to
   * read the root cell's fields, e.g. a jetton wallet's owner); null when the data root itself is pruned or absent
   */
  data_root_boc: string | null;
  /** gen_utime of the block */
  timestamp: number;
}

/**
 * A state a transaction names that is not an account's state after the block: the state before its first transaction
 * of the block, or after one of its transactions but the last. Derived from the block (./states.ts): balance, extra
 * currencies and status always; code / data / frozen hashes where the block proves them, else null with `complete`
 * false. last_trans_hash / last_trans_lt: the transaction that made the state (for the state before: the transaction's
 * prev_trans_hash / prev_trans_lt); no BoCs.
 */
export interface TransactionStateRow {
  /** raw `wc:HEX` */
  account: string;
  /** the Account cell hash (the transactions' state_update hashes) */
  hash: string;
  last_trans_hash: string;
  last_trans_lt: bigint;
  balance: bigint;
  balance_extra_currencies: ExtraCurrencies;
  account_status: AccountStatus;
  frozen_hash: string | null;
  code_hash: string | null;
  data_hash: string | null;
  /** false: some of code_hash / data_hash / frozen_hash are not known (null), not absent */
  complete: boolean;
  /** code / data / frozen hashes read from the block's old state, from a rebuilt Account cell whose hash is the state's, or by the rules */
  proof: 'block' | 'rebuilt' | 'rules';
  /** gen_utime of the block */
  timestamp: number;
}

/** Everything decodeBlock reads from one Block BoC. */
export interface DecodedBlock {
  id: BlockId;
  global_id: number;
  info: BlockInfo;
  /** BlockExtra rand_seed / created_by (hex) */
  rand_seed: string;
  created_by: string;
  /** `state_update:^(MERKLE_UPDATE ShardState)` old/new shard-state hashes */
  state_update: { old_hash: string; new_hash: string };
  /** sorted by lt, then account */
  transactions: TransactionRow[];
  /** one per account the block touched (ascending address) */
  account_states: AccountStateRow[];
  /** per account the block touched: its state before its first transaction of the block (ascending address) */
  states_before: TransactionStateRow[];
  /** per account with several transactions: its state after each but the last (ascending address, then lt) */
  intermediate_states: TransactionStateRow[];
  /** masterchain blocks: every shard descriptor (null for shard blocks) */
  shards: ShardDescr[] | null;
  /** masterchain key blocks: config params (null otherwise) */
  config: BlockConfig | null;
}

/** Cheap header read: id, global_id and BlockInfo (no transactions). */
export interface BlockHeader {
  id: BlockId;
  global_id: number;
  info: BlockInfo;
}
