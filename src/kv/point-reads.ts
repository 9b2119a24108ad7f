/**
 * What the API reads by key, as one interface with two implementations: the key-value store here (embedded: many
 * reader processes, no engine statement), and ClickHouse's own tables (a server, src/store/read/table-point-reads.ts). Rows come
 * back as the store's JSON gives them (64-bit and wider integers as decimal strings); hashes lower-case hex,
 * addresses raw `wc:HEX`.
 */
import type { Row } from '../util/index.ts';

/** A message's hash index row (message_hashes): one per (hash, direction, is_norm, transaction). */
export interface MessageTx {
  /** the hash asked for: the message's own, or (is_norm 1) the normalized hash of an external-in message */
  hash: string;
  direction: 'in' | 'out';
  is_norm: 0 | 1;
  msg_hash: string;
  tx_account: string;
  tx_lt: string;
  tx_hash: string;
}

export interface TraceTx {
  trace_id: string;
  account: string;
  lt: string;
  hash: string;
}

/** That `address` has a row in the entity table `fact` names (address_facts_kv, clickhouse/0014); `value`: an NFT item's index. */
export interface FactRow {
  address: string;
  fact: string;
  value: string | null;
}

export interface TxKeyRow {
  account: string;
  lt: string;
  hash: string;
}

/** A page of a list in lt order: [startLt, endLt] (inclusive), `dir`, limit and offset. */
export interface LtPage {
  startLt?: bigint;
  endLt?: bigint;
  dir: 'ASC' | 'DESC';
  limit: number;
  offset: number;
}

export interface PointReads {
  readonly kind: 'kv' | 'tables';
  /** Documents (src/decode/docs.ts, stored text) of the transactions with these hashes; unknown ones left out. */
  docs(hashes: readonly string[]): Promise<string[]>;
  /** account_states rows by state hash. */
  statesByHash(hashes: readonly string[]): Promise<Row[]>;
  /** The transactions that sent or received messages whose own or normalized hash is one of `hashes`. */
  messageTxs(hashes: readonly string[]): Promise<MessageTx[]>;
  /** Latest traces rows by id. */
  traces(ids: readonly string[]): Promise<Row[]>;
  /** The transactions of these traces. */
  traceTxs(ids: readonly string[]): Promise<TraceTx[]>;
  /** Latest account states (every latest_account_states column) of these accounts; unknown ones left out. */
  latestStates(accounts: readonly string[]): Promise<Row[]>;
  /** The code hash (null: none) of each account whose latest state is known: the address book's. */
  codeHashes(accounts: readonly string[]): Promise<Map<string, string | null>>;
  /** Code BoCs by code hash. */
  codes(codeHashes: readonly string[]): Promise<Map<string, string>>;
  /** Get-method ids by code hash. */
  methods(codeHashes: readonly string[]): Promise<Map<string, number[]>>;
  /** The facts among `facts` of these addresses. */
  facts(addresses: readonly string[], facts: readonly string[]): Promise<FactRow[]>;
  /** The shortest domain of each wallet that a DNS item names while the wallet owns it. */
  domains(wallets: readonly string[]): Promise<Map<string, string>>;
  /** Latest jetton_wallets rows (address, owner, jetton, balance). */
  jettonWallets(addresses: readonly string[]): Promise<Row[]>;
  /** Latest address_metadata rows of these addresses, every type. */
  addressMetadata(addresses: readonly string[]): Promise<Row[]>;
  /**
   * Those of `keys` a reader may see: the key-value store's behind the checkpoint (a transaction found in the
   * flattened tables by hash, having no document, is shown only then); the tables see every stored row.
   */
  visibleTxs(keys: readonly TxKeyRow[]): Promise<TxKeyRow[]>;
  /**
   * An account's transactions in lt order (one per lt), paged; null when this implementation leaves lists to
   * ClickHouse.
   */
  accountTxKeys(account: string, page: LtPage): Promise<TxKeyRow[] | null>;
  /**
   * Non-aborted jetton transfers whose source or destination (direction 'out' / 'in' / both) is one of `owners`, in
   * (tx_lt, tx_hash) order, one per transfer, paged; null when this implementation leaves lists to ClickHouse.
   */
  jettonTransfers(owners: readonly string[], direction: 'in' | 'out' | 'both', page: LtPage): Promise<Row[] | null>;
}
