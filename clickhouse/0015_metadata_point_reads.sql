-- The metadata block's two reads of changing rows as RocksDB gets: jetton wallets (balances) and address_metadata
-- (refreshed off-chain). Why: after 0014 the block reads them only for the addresses whose facts name them, but
-- each was a MergeTree FINAL read of 9-17 ms of CPU, and a response naming a jetton wallet or master paid both
-- (the tails of bench:api, bench/README.md). The MergeTree tables stay for lists, filters and SQL.

-- Each jetton wallet's newest row, keyed by address. As in jetton_wallets (ReplacingMergeTree(last_transaction_lt)):
-- a write replaces the stored row only when it is as new or newer, and at equal last_transaction_lt the row written
-- last wins, so a replayed or late block never takes a balance back.
CREATE TABLE IF NOT EXISTS jetton_wallets_kv ENGINE = EmbeddedRocksDB PRIMARY KEY address AS SELECT * FROM jetton_wallets WHERE 0;

CREATE MATERIALIZED VIEW IF NOT EXISTS jetton_wallets_kv_mv TO jetton_wallets_kv AS
SELECT n.* EXCEPT (row_in_insert)
FROM (
    SELECT * FROM (SELECT *, rowNumberInAllBlocks() AS row_in_insert FROM jetton_wallets)
    ORDER BY address, last_transaction_lt DESC, row_in_insert DESC LIMIT 1 BY address
) AS n
LEFT JOIN jetton_wallets_kv AS o ON o.address = n.address
WHERE n.last_transaction_lt >= o.last_transaction_lt;

INSERT INTO jetton_wallets_kv SELECT * FROM jetton_wallets FINAL;

-- Each (address, type)'s newest metadata, keyed by `address/type` (one key column: a key-value join or get on two
-- columns would scan). Newest by updated_at, as in address_metadata (ReplacingMergeTree(updated_at)).
CREATE TABLE IF NOT EXISTS address_metadata_kv ENGINE = EmbeddedRocksDB PRIMARY KEY key
AS SELECT concat(address, '/', toString(type)) AS key, * FROM address_metadata WHERE 0;

CREATE MATERIALIZED VIEW IF NOT EXISTS address_metadata_kv_mv TO address_metadata_kv AS
SELECT n.* EXCEPT (row_in_insert)
FROM (
    SELECT concat(address, '/', toString(type)) AS key, * FROM (SELECT *, rowNumberInAllBlocks() AS row_in_insert FROM address_metadata)
    ORDER BY key, updated_at DESC, row_in_insert DESC LIMIT 1 BY key
) AS n
LEFT JOIN address_metadata_kv AS o ON o.key = n.key
WHERE n.updated_at >= o.updated_at;

INSERT INTO address_metadata_kv SELECT concat(address, '/', toString(type)) AS key, * FROM address_metadata FINAL;
