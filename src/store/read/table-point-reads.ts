/**
 * PointReads (src/kv/point-reads.ts) over ClickHouse's own tables: the implementation for a ClickHouse server, which
 * runs statements concurrently, so each API process sends its own. Documents, states by hash, latest states, traces,
 * a trace's transactions and address facts come from the RocksDB tables of clickhouse/0013 and 0014 (a get per
 * key); a message's transactions from `message_hashes` (a primary-key range). Lists stay with the routes' own SQL.
 */
import type { FactRow, MessageTx, PointReads, TraceTx } from '../../kv/index.ts';
import type { Row } from '../../util/index.ts';

/** Runs one statement (the API's per-request runner: its timeout and error mapping). */
export type Query = <T = Row>(sql: string, params?: Record<string, unknown>) => Promise<T[]>;

/**
 * Entity tables that hold rows, cached for a few seconds per runner source: most deployments fill only some of them,
 * and a lookup in an empty table still costs a statement.
 */
const NON_EMPTY_TTL_MS = 5000;
const nonEmptyCache = new WeakMap<object, { at: number; tables: Promise<Set<string>> }>();

function nonEmptyTables(q: Query, cacheKey: object): Promise<Set<string>> {
  const hit = nonEmptyCache.get(cacheKey);
  if (hit && Date.now() - hit.at < NON_EMPTY_TTL_MS) return hit.tables;
  const tables = q<{ table: string }>(
    `SELECT table FROM system.parts WHERE active AND database = currentDatabase() AND rows > 0
     AND table IN ('jetton_masters', 'jetton_wallets', 'nft_collections', 'nft_items', 'multisig', 'multisig_orders', 'vesting_contracts', 'dns_entries', 'address_metadata')
     GROUP BY table`,
  ).then((r) => new Set(r.map((x) => x.table)));
  nonEmptyCache.set(cacheKey, { at: Date.now(), tables });
  tables.catch(() => nonEmptyCache.delete(cacheKey));
  return tables;
}

/** Drops the cached list for a store: a writer that just made a table non-empty (the streaming hub at a checkpoint). */
export function forgetNonEmptyTables(cacheKey: object): void {
  nonEmptyCache.delete(cacheKey);
}

/** The table a fact is a row in (`address_metadata:TYPE` facts: address_metadata). */
const factTable = (fact: string) => (fact.startsWith('address_metadata:') ? 'address_metadata' : fact);

/** `cacheKey`: what the empty-table cache is kept per (the store client). */
export function tablePointReads(q: Query, cacheKey: object): PointReads {
  return {
    kind: 'tables',
    async docs(hashes) {
      if (hashes.length === 0) return [];
      return (await q<{ doc: string }>('SELECT doc FROM transaction_docs_kv WHERE hash IN {h:Array(FixedString(64))}', { h: [...new Set(hashes)] })).map((r) => r.doc);
    },
    async statesByHash(hashes) {
      if (hashes.length === 0) return [];
      return q(
        `SELECT account, hash, balance, extra_currencies, account_status, frozen_hash, data_hash, code_hash, last_trans_lt
         FROM account_states_kv WHERE hash IN {h:Array(FixedString(64))}`,
        { h: [...new Set(hashes)] },
      );
    },
    async messageTxs(hashes) {
      if (hashes.length === 0) return [];
      const rows = await q<MessageTx & { is_norm: number | string; tx_lt: string }>(
        'SELECT DISTINCT hash, direction, is_norm, msg_hash, tx_account, tx_lt, tx_hash FROM message_hashes WHERE hash IN {h:Array(FixedString(64))}',
        { h: [...new Set(hashes)] },
      );
      return rows.map((r) => ({ ...r, is_norm: Number(r.is_norm) ? 1 : 0, tx_lt: String(r.tx_lt) }));
    },
    async traces(ids) {
      if (ids.length === 0) return [];
      return q('SELECT * FROM traces_kv WHERE trace_id IN {t:Array(FixedString(64))}', { t: [...new Set(ids)] });
    },
    async traceTxs(ids) {
      if (ids.length === 0) return [];
      return q<TraceTx>(
        'SELECT trace_id, x.account AS account, toString(x.lt) AS lt, x.hash AS hash FROM trace_txs_kv ARRAY JOIN txs AS x WHERE trace_id IN {t:Array(FixedString(64))}',
        { t: [...new Set(ids)] },
      );
    },
    async latestStates(accounts) {
      if (accounts.length === 0) return [];
      return q('SELECT * FROM latest_account_states_kv WHERE account IN {a:Array(String)}', { a: [...new Set(accounts)] });
    },
    async codeHashes(accounts) {
      if (accounts.length === 0) return new Map();
      const rows = await q<{ account: string; code_hash: string | null }>('SELECT account, code_hash FROM latest_account_states_kv WHERE account IN {a:Array(String)}', {
        a: [...new Set(accounts)],
      });
      return new Map(rows.map((r) => [r.account, r.code_hash]));
    },
    async codes(codeHashes) {
      if (codeHashes.length === 0) return new Map();
      const rows = await q<{ code_hash: string; code_boc: string }>(
        'SELECT code_hash, any(code_boc) AS code_boc FROM contract_code WHERE code_hash IN {c:Array(FixedString(64))} GROUP BY code_hash',
        { c: [...new Set(codeHashes)] },
      );
      return new Map(rows.map((r) => [r.code_hash, r.code_boc]));
    },
    async methods(codeHashes) {
      if (codeHashes.length === 0) return new Map();
      const rows = await q<{ code_hash: string; methods: number[] }>(
        'SELECT code_hash, any(methods) AS methods FROM contract_methods WHERE code_hash IN {c:Array(FixedString(64))} GROUP BY code_hash',
        { c: [...new Set(codeHashes)] },
      );
      return new Map(rows.map((r) => [r.code_hash, r.methods.map(Number)]));
    },
    async facts(addresses, facts) {
      if (addresses.length === 0 || facts.length === 0) return [];
      // facts of tables without rows cannot exist: a store that fills none of them asks nothing
      const live = await nonEmptyTables(q, cacheKey);
      const asked = facts.filter((f) => live.has(factTable(f)));
      if (asked.length === 0) return [];
      const keys = [...new Set(addresses)].flatMap((a) => asked.map((f) => `${a}/${f}`));
      return q<FactRow>('SELECT address, toString(fact) AS fact, value FROM address_facts_kv WHERE key IN {k:Array(String)}', { k: keys });
    },
    async domains(wallets) {
      if (wallets.length === 0) return new Map();
      const rows = await q<{ address: string; domain: string }>(
        `SELECT dns_wallet AS address, argMin(domain, (length(domain), domain)) AS domain FROM dns_entries FINAL
         WHERE dns_wallet IN {a:Array(String)} AND nft_item_owner = dns_wallet GROUP BY dns_wallet`,
        { a: [...new Set(wallets)] },
      );
      return new Map(rows.map((r) => [r.address, r.domain]));
    },
    async jettonWallets(addresses) {
      if (addresses.length === 0) return [];
      return q('SELECT address, owner, jetton, balance FROM jetton_wallets FINAL WHERE address IN {a:Array(String)}', { a: [...new Set(addresses)] });
    },
    async addressMetadata(addresses) {
      if (addresses.length === 0) return [];
      return q('SELECT * FROM address_metadata FINAL WHERE address IN {a:Array(String)}', { a: [...new Set(addresses)] });
    },
    async visibleTxs(keys) {
      return [...keys];
    },
    async accountTxKeys() {
      return null;
    },
    async jettonTransfers() {
      return null;
    },
  };
}
