/**
 * Rows produced by the block decoder (pure: bytes in, typed rows out): the block-level ones. The row of each TL-B
 * type stands in its reader's file, beside the reader and its writer (`tlb/block-info.ts`: the block ids and
 * BlockInfo; `tlb/transaction.ts`, `tlb/message.ts`, `tlb/mc-extra.ts`, `tlb/common.ts`).
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
import type { BlockId, BlockInfo } from '../tlb/block-info.ts';
import type { AccountStatus, ExtraCurrencies } from '../tlb/common.ts';
import type { BlockConfig, ShardDescr } from '../tlb/mc-extra.ts';
import type { TransactionRow } from '../tlb/transaction.ts';

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
