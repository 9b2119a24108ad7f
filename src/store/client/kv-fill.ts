/**
 * Filling the key-value store (src/kv) from what ClickHouse holds: once, when an embedded store that was written
 * before the key-value store existed (or whose `kv` directory was removed) is opened, before migration 0017 drops the
 * RocksDB tables it reads documents from; and for rows written by SQL (the API bench derives entity rows so). Entries
 * get tag 0: what is stored is already behind the checkpoint.
 */
import { LISTS_MARK, mirrorRows, type Kv } from '../../kv/index.ts';
import { INGEST_CHECKPOINT } from './checkpoint.ts';
import type { StoreClient } from './store-client.ts';

/** Rows per read: a document is about 1.5 KB of JSON. */
const CHUNK_ROWS = 50_000;

/** Each mirrored table and the statement reading its rows (`{p}`/`{i}`: the partition this read takes). */
const SOURCES: { table: string; from: string; select: string; key: string; final?: boolean }[] = [
  { table: 'transaction_docs_kv', from: 'transaction_docs_kv', select: 'hash, account, lt, traced, doc', key: 'hash' },
  { table: 'transactions_by_lt', from: 'transactions_by_lt', select: 'lt, account, hash', key: 'hash' },
  { table: 'message_hashes', from: 'message_hashes', select: 'hash, direction, is_norm, msg_hash, tx_account, tx_lt, tx_hash', key: 'hash' },
  { table: 'account_states', from: 'account_states', select: '*', key: 'hash' },
  { table: 'latest_account_states', from: 'latest_account_states', select: '*', key: 'account', final: true },
  { table: 'contract_code', from: 'contract_code', select: 'code_hash, code_boc', key: 'code_hash' },
  { table: 'contract_methods', from: 'contract_methods', select: 'code_hash, methods', key: 'code_hash' },
  // a trace's transactions before its rows: the traces' entries of each account's list read them (src/kv/lists-mirror.ts)
  { table: 'trace_transactions', from: 'trace_transactions', select: 'trace_id, lt, account, hash', key: 'trace_id' },
  { table: 'traces', from: 'traces', select: '*', key: 'trace_id', final: true },
  { table: 'actions', from: 'actions', select: '*', key: 'trace_id', final: true },
  { table: 'action_accounts', from: 'action_accounts', select: 'account, trace_end_lt, trace_id, action_end_lt, action_id', key: 'account', final: true },
  { table: 'jetton_masters', from: 'jetton_masters', select: 'DISTINCT address', key: 'address' },
  { table: 'jetton_wallets', from: 'jetton_wallets', select: 'address, owner, jetton, balance, last_transaction_lt', key: 'address', final: true },
  { table: 'nft_collections', from: 'nft_collections', select: 'DISTINCT address', key: 'address' },
  { table: 'nft_items', from: 'nft_items', select: 'address, init, `index`, collection_address, owner_address, last_transaction_lt', key: 'address', final: true },
  { table: 'multisig', from: 'multisig', select: 'DISTINCT address', key: 'address' },
  { table: 'multisig_orders', from: 'multisig_orders', select: 'DISTINCT address', key: 'address' },
  { table: 'vesting_contracts', from: 'vesting_contracts', select: 'DISTINCT address', key: 'address' },
  { table: 'dns_entries', from: 'dns_entries', select: 'nft_item_address, nft_item_owner, domain, dns_wallet, last_transaction_lt', key: 'nft_item_address', final: true },
  { table: 'address_metadata', from: 'address_metadata', select: '*', key: 'address', final: true },
  { table: 'jetton_transfers', from: 'jetton_transfers', select: '*', key: 'tx_hash' },
];

/** What fills the lists of src/kv/lists-mirror.ts (traces: their entries of each account's list). */
const LIST_FILL_TABLES = ['traces', 'actions', 'action_accounts'];

async function hasTransactions(store: StoreClient): Promise<boolean> {
  const [{ n }] = await store.query<{ n: string }>("SELECT count() AS n FROM system.tables WHERE database = currentDatabase() AND name = 'transactions_by_lt'");
  return Number(n) > 0 && Number((await store.query<{ c: string }>('SELECT count() AS c FROM (SELECT 1 FROM transactions_by_lt LIMIT 1)'))[0].c) > 0;
}

export type KvFillTable = (typeof SOURCES)[number]['table'];

export interface KvFillResult {
  rows: Record<string, number>;
  ms: number;
}

/**
 * Writes the entries of every row of `tables` (default: all mirrored tables that exist) into `kv`, in partitions of
 * about CHUNK_ROWS rows (by a hash of the table's key: a partition is one scan). Idempotent: entries written again
 * are the same.
 */
export async function fillKvFromStore(
  store: StoreClient,
  kv: Kv,
  opts: { tables?: readonly string[]; log?: (table: string, rows: number) => void } = {},
): Promise<KvFillResult> {
  const t0 = performance.now();
  const existing = new Set((await store.query<{ name: string }>('SELECT name FROM system.tables WHERE database = currentDatabase()')).map((r) => r.name));
  const rows: Record<string, number> = {};
  for (const src of SOURCES) {
    if (opts.tables && !opts.tables.includes(src.table)) continue;
    if (!existing.has(src.from)) continue;
    const from = `${src.from}${src.final ? ' FINAL' : ''}`;
    const [{ n }] = await store.query<{ n: string }>(`SELECT count() AS n FROM ${from}`);
    const parts = Math.max(1, Math.ceil(Number(n) / CHUNK_ROWS));
    let done = 0;
    for (let i = 0; i < parts; i++) {
      const where = parts > 1 ? `WHERE cityHash64(${src.key}) % {p:UInt32} = {i:UInt32}` : '';
      const chunk = await store.query<Record<string, unknown>>(`SELECT ${src.select} FROM ${from} ${where}`, { p: parts, i });
      await mirrorRows(kv, [{ table: src.table, rows: chunk, tag: 0 }]);
      done += chunk.length;
    }
    rows[src.table] = done;
    opts.log?.(src.table, done);
  }
  return { rows, ms: performance.now() - t0 };
}

/**
 * At open: a key-value store that does not hold every stored row yet (new beside an existing store, an older
 * format, a fill a crash cut) is filled from ClickHouse first; then `visible` catches up with the checkpoint (a
 * crash between the two writes of setCheckpoint leaves it behind).
 */
export async function prepareKv(store: StoreClient, kv: Kv, log?: (msg: string) => void): Promise<void> {
  if (!kv.complete()) {
    if (kv.hasOtherFormat()) await kv.clear();
    if (await hasTransactions(store)) {
      log?.('filling the key-value store from ClickHouse (once)');
      const r = await fillKvFromStore(store, kv, { log: (table, rows) => log?.(`  ${table}: ${rows} rows`) });
      log?.(`key-value store filled in ${(r.ms / 1000).toFixed(1)} s`);
    }
    await kv.markComplete();
    await kv.setMark(LISTS_MARK);
  }
  if (!kv.hasMark(LISTS_MARK)) {
    // a key-value store written before the lists of /actions and /traces by account (issue 30): those alone
    if (await hasTransactions(store)) {
      log?.('filling the key-value store\'s action and trace lists from ClickHouse (once)');
      const r = await fillKvFromStore(store, kv, { tables: LIST_FILL_TABLES, log: (table, rows) => log?.(`  ${table}: ${rows} rows`) });
      log?.(`lists filled in ${(r.ms / 1000).toFixed(1)} s`);
    }
    await kv.setMark(LISTS_MARK);
  }
  const rows = await store.query<{ mc_seqno: number }>("SELECT mc_seqno FROM checkpoints FINAL WHERE name = {name:String}", { name: INGEST_CHECKPOINT }).catch(() => []);
  if (rows.length) await kv.setVisible(Number(rows[0].mc_seqno));
}
