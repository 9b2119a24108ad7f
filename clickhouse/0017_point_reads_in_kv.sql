-- applies to: kv
-- The RocksDB point-read tables of 0013 and 0014 and their materialized views, dropped where the key-value store
-- (src/kv, LMDB under <data dir>/kv) serves point reads instead: an embedded store (issue 22). Applied only to such
-- a store (the `applies to` line above; src/store/migrate.ts), after the key-value store was filled from these tables
-- (src/store/kv-fill.ts); a ClickHouse server keeps them (its point reads, docker/README.md).
-- Why: every insert into a source table ran its views (a RocksDB write per row, a join to the stored rows for the
-- latest states, traces and a trace's transactions) on the one engine session that also serves the API; the views
-- took latest_account_states inserts from 54 to 486 ms per 50k transactions (bench/README.md). The documents
-- (transaction_docs_kv) now live in the key-value store only.
DROP VIEW IF EXISTS latest_account_states_kv_mv;
DROP VIEW IF EXISTS traces_kv_mv;
DROP VIEW IF EXISTS account_states_kv_mv;
DROP VIEW IF EXISTS message_txs_kv_mv;
DROP VIEW IF EXISTS trace_txs_kv_mv;
DROP VIEW IF EXISTS address_facts_jetton_masters_mv;
DROP VIEW IF EXISTS address_facts_jetton_wallets_mv;
DROP VIEW IF EXISTS address_facts_nft_collections_mv;
DROP VIEW IF EXISTS address_facts_nft_items_mv;
DROP VIEW IF EXISTS address_facts_multisig_mv;
DROP VIEW IF EXISTS address_facts_multisig_orders_mv;
DROP VIEW IF EXISTS address_facts_vesting_contracts_mv;
DROP VIEW IF EXISTS address_facts_dns_mv;
DROP VIEW IF EXISTS address_facts_address_metadata_mv;
DROP TABLE IF EXISTS latest_account_states_kv;
DROP TABLE IF EXISTS traces_kv;
DROP TABLE IF EXISTS account_states_kv;
DROP TABLE IF EXISTS message_txs_kv;
DROP TABLE IF EXISTS trace_txs_kv;
DROP TABLE IF EXISTS address_facts_kv;
DROP TABLE IF EXISTS transaction_docs_kv;
