/** What every entity-state family reader gets and gives back. */
import type { Row } from '../util/index.ts';
import type { AccountStateRow } from '../ton/index.ts';
import type { ContractReader } from './contract-reader.ts';

export type StateTable = 'jetton_masters' | 'nft_collections' | 'dns_entries' | 'multisig' | 'multisig_orders' | 'vesting_contracts' | 'nft_sales';

export const STATE_TABLES: readonly StateTable[] = ['jetton_masters', 'nft_collections', 'dns_entries', 'multisig', 'multisig_orders', 'vesting_contracts', 'nft_sales'];

/** The identity column of each table (the row's account). */
export const KEY_COLUMN: Readonly<Record<StateTable, string>> = {
  jetton_masters: 'address',
  nft_collections: 'address',
  dns_entries: 'nft_item_address',
  multisig: 'address',
  multisig_orders: 'address',
  vesting_contracts: 'address',
  nft_sales: 'address',
};

/**
 * Columns that may be written empty when the block pruned them and no earlier row knows them (content is
 * descriptive; a wrong supply or owner is not). Any other unknown column without an earlier row drops the row.
 */
export const SOFT_DEFAULTS: Partial<Record<StateTable, Record<string, unknown>>> = {
  jetton_masters: { jetton_content: '' },
  nft_collections: { collection_content: '' },
};

export interface EntityRow {
  table: StateTable;
  row: Row;
  /** columns the block's pruned data did not let us read: taken from the account's previous row */
  unknown: string[];
  /** array columns holding only the part the block carries of a grow-only set: stored as the union with the previous row */
  union?: string[];
}

export interface FamilyInput {
  state: AccountStateRow;
  /** the data root as the block carries it (pruned branches possible) */
  data: import('@ton/core').Cell;
  /** get-method runner over code + data; null when the code is unknown (layout families only) */
  reader: ContractReader | null;
}

/** Hash columns every state table carries. */
export function stateColumns(st: AccountStateRow): { last_transaction_lt: bigint; code_hash: string; data_hash: string } {
  return { last_transaction_lt: st.last_trans_lt, code_hash: st.code_hash ?? '0'.repeat(64), data_hash: st.data_hash ?? '0'.repeat(64) };
}
