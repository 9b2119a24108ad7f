-- What an address is, for the address book's interfaces and the metadata block: one RocksDB table instead of a
-- statement part per entity table. Why: every response with an address book asked seven entity tables (jetton
-- masters and wallets, NFT collections and items, multisig wallets and orders, vesting) and the metadata block three
-- more plus address_metadata. Each MergeTree table read costs the engine 4-5 ms of CPU however few rows it holds,
-- so on a store whose entity tables hold rows the book and metadata took about 100 ms per response
-- (bench/README.md). A fact is a get here.
--
-- A fact is that an address has a row in an entity table (or in address_metadata, per type, or is a DNS item's wallet). Facts are never
-- withdrawn: an address that was a jetton wallet stays one (rows are only ever replaced by newer versions of
-- themselves). `value` carries what the API needs of the fact and never changes for an address: an NFT item's index.
-- Views copy every insert into the sources, whoever writes them; replays write the same key with the same value.
CREATE TABLE IF NOT EXISTS address_facts_kv
(
    key String,
    address String,
    fact LowCardinality(String),
    value Nullable(String)
)
ENGINE = EmbeddedRocksDB
PRIMARY KEY key;

CREATE MATERIALIZED VIEW IF NOT EXISTS address_facts_jetton_masters_mv TO address_facts_kv AS
SELECT concat(address, '/jetton_masters') AS key, address, 'jetton_masters' AS fact, CAST(NULL AS Nullable(String)) AS value FROM jetton_masters;

CREATE MATERIALIZED VIEW IF NOT EXISTS address_facts_jetton_wallets_mv TO address_facts_kv AS
SELECT concat(address, '/jetton_wallets') AS key, address, 'jetton_wallets' AS fact, CAST(NULL AS Nullable(String)) AS value FROM jetton_wallets;

CREATE MATERIALIZED VIEW IF NOT EXISTS address_facts_nft_collections_mv TO address_facts_kv AS
SELECT concat(address, '/nft_collections') AS key, address, 'nft_collections' AS fact, CAST(NULL AS Nullable(String)) AS value FROM nft_collections;

CREATE MATERIALIZED VIEW IF NOT EXISTS address_facts_nft_items_mv TO address_facts_kv AS
SELECT concat(address, '/nft_items') AS key, address, 'nft_items' AS fact, CAST(toString(`index`) AS Nullable(String)) AS value FROM nft_items;

CREATE MATERIALIZED VIEW IF NOT EXISTS address_facts_multisig_mv TO address_facts_kv AS
SELECT concat(address, '/multisig') AS key, address, 'multisig' AS fact, CAST(NULL AS Nullable(String)) AS value FROM multisig;

CREATE MATERIALIZED VIEW IF NOT EXISTS address_facts_multisig_orders_mv TO address_facts_kv AS
SELECT concat(address, '/multisig_orders') AS key, address, 'multisig_orders' AS fact, CAST(NULL AS Nullable(String)) AS value FROM multisig_orders;

CREATE MATERIALIZED VIEW IF NOT EXISTS address_facts_vesting_contracts_mv TO address_facts_kv AS
SELECT concat(address, '/vesting_contracts') AS key, address, 'vesting_contracts' AS fact, CAST(NULL AS Nullable(String)) AS value FROM vesting_contracts;

-- A wallet that a DNS item names and is owned by (the address book's `domain`): the address book reads dns_entries
-- (ownership and records change) only for addresses with this fact. The fact stays when the domain goes; the read
-- then finds none.
CREATE MATERIALIZED VIEW IF NOT EXISTS address_facts_dns_mv TO address_facts_kv AS
SELECT concat(assumeNotNull(dns_wallet), '/dns_entries') AS key, assumeNotNull(dns_wallet) AS address, 'dns_entries' AS fact, CAST(NULL AS Nullable(String)) AS value
FROM dns_entries WHERE dns_wallet IS NOT NULL AND nft_item_owner = dns_wallet;

-- Metadata rows per (address, type): the metadata block reads address_metadata (mutable: refreshed off-chain) only
-- for the addresses that have a row there.
CREATE MATERIALIZED VIEW IF NOT EXISTS address_facts_address_metadata_mv TO address_facts_kv AS
SELECT concat(address, '/address_metadata:', toString(type)) AS key, address, concat('address_metadata:', toString(type)) AS fact,
       CAST(NULL AS Nullable(String)) AS value
FROM address_metadata;

-- What is already stored (the views see new inserts only). Re-running writes the same keys again.
INSERT INTO address_facts_kv
SELECT concat(address, '/jetton_masters'), address, 'jetton_masters', NULL FROM jetton_masters
UNION ALL SELECT concat(address, '/jetton_wallets'), address, 'jetton_wallets', NULL FROM jetton_wallets
UNION ALL SELECT concat(address, '/nft_collections'), address, 'nft_collections', NULL FROM nft_collections
UNION ALL SELECT concat(address, '/nft_items'), address, 'nft_items', toString(`index`) FROM nft_items
UNION ALL SELECT concat(address, '/multisig'), address, 'multisig', NULL FROM multisig
UNION ALL SELECT concat(address, '/multisig_orders'), address, 'multisig_orders', NULL FROM multisig_orders
UNION ALL SELECT concat(address, '/vesting_contracts'), address, 'vesting_contracts', NULL FROM vesting_contracts
UNION ALL SELECT concat(assumeNotNull(dns_wallet), '/dns_entries'), assumeNotNull(dns_wallet), 'dns_entries', NULL FROM dns_entries WHERE dns_wallet IS NOT NULL AND nft_item_owner = dns_wallet
UNION ALL SELECT concat(address, '/address_metadata:', toString(type)), address, concat('address_metadata:', toString(type)), NULL FROM address_metadata;
