-- Point-read tables: EmbeddedRocksDB key-value tables for the API's lookups by one key.
-- Why: a MergeTree point read costs the engine about 1-2 ms per part it opens and a granule decompressed per
-- part, whatever the row count; on the 1M-transaction bench store a document by hash took 14.6 ms p50 from
-- transaction_docs (MergeTree, with its hash -> key lookup) and 3.2 ms from a RocksDB table keyed by hash;
-- a latest account state 17.6 ms against 4.1 ms (bench/README.md). RocksDB has no parts: a key is a get.
-- Tables: transaction documents by hash, account states by state hash, a message's transactions by (hash,
-- direction), latest account states by account, traces and their transactions by trace_id.
-- Costs: RocksDB compresses 64 KiB blocks (clickhouse/rocksdb.xml; the server needs the same file in config.d),
-- about 3-4x the bytes of the MergeTree copy; RocksDB tables are local to one server (not replicated).

-- Transaction documents (src/store/docs.ts), now keyed by transaction hash. A write of the same transaction
-- replaces its document: replays write identical bytes, and only one stage writes documents in a deployment
-- (the traces stage, or the decode stage when traces are off).
CREATE TABLE IF NOT EXISTS transaction_docs_kv
(
    hash FixedString(64),
    account String,
    lt UInt64,
    traced UInt8,
    doc String
)
ENGINE = EmbeddedRocksDB
PRIMARY KEY hash;

-- Moves the MergeTree documents of 0012 over, then drops that table. Recreated empty (same columns) first so that
-- a run interrupted after the DROP can be applied again whole.
CREATE TABLE IF NOT EXISTS transaction_docs AS transaction_docs_kv ENGINE = ReplacingMergeTree(traced) ORDER BY (account, lt, hash);

INSERT INTO transaction_docs_kv SELECT hash, account, lt, traced, doc FROM transaction_docs FINAL;

DROP TABLE IF EXISTS transaction_docs;

-- Each account's latest state, keyed by account: accountStates, walletStates and the address book's code hashes.
-- latest_account_states (MergeTree) stays for scans (topAccountsByBalance, code-hash filters, the traces stage).
-- (Created with the source's columns, from an empty SELECT: codecs and skip indexes do not apply to RocksDB.)
CREATE TABLE IF NOT EXISTS latest_account_states_kv ENGINE = EmbeddedRocksDB PRIMARY KEY account
AS SELECT * FROM latest_account_states WHERE 0;

-- Kept by the engine from every insert into latest_account_states, whoever writes it. A write replaces the
-- stored state only when it is as new or newer (last_trans_lt), so a replayed or late block never takes an
-- account back; within one insert the newest row of each account wins. (Two inserts racing on one account
-- from two writers could still cross; one writer per shard makes that need a split or merge in between.)
CREATE MATERIALIZED VIEW IF NOT EXISTS latest_account_states_kv_mv TO latest_account_states_kv AS
SELECT n.*
FROM (SELECT * FROM latest_account_states ORDER BY account, last_trans_lt DESC LIMIT 1 BY account) AS n
LEFT JOIN latest_account_states_kv AS o ON o.account = n.account
WHERE n.last_trans_lt >= o.last_trans_lt;

INSERT INTO latest_account_states_kv SELECT * FROM latest_account_states FINAL;

-- Each trace's latest row, keyed by trace_id: `/traces?trace_id=` and the traces of actions. `traces` (MergeTree)
-- stays for windows and lists. As in `traces` (ReplacingMergeTree(end_lt)), the row with the greatest end_lt wins
-- and, at equal end_lt, the one written last (a trace's row is rewritten as it grows and is classified).
CREATE TABLE IF NOT EXISTS traces_kv ENGINE = EmbeddedRocksDB PRIMARY KEY trace_id AS SELECT * FROM traces WHERE 0;

CREATE MATERIALIZED VIEW IF NOT EXISTS traces_kv_mv TO traces_kv AS
SELECT n.* EXCEPT (row_in_insert)
FROM (
    SELECT * FROM (SELECT *, rowNumberInAllBlocks() AS row_in_insert FROM traces)
    ORDER BY trace_id, end_lt DESC, row_in_insert DESC LIMIT 1 BY trace_id
) AS n
LEFT JOIN traces_kv AS o ON o.trace_id = n.trace_id
WHERE n.end_lt >= o.end_lt;

INSERT INTO traces_kv SELECT * FROM traces FINAL;

-- Account states by state hash (unique: the hashed Account cell holds the address): the states a transaction
-- document does not carry (src/api/v3/queries/transactions.ts renderDocs). Rows are immutable, so the view copies
-- every insert into account_states as it is.
CREATE TABLE IF NOT EXISTS account_states_kv ENGINE = EmbeddedRocksDB PRIMARY KEY hash AS SELECT * FROM account_states WHERE 0;

CREATE MATERIALIZED VIEW IF NOT EXISTS account_states_kv_mv TO account_states_kv AS SELECT * FROM account_states;

INSERT INTO account_states_kv SELECT * FROM account_states;

-- A message's transactions by `msg_hash/direction` (one key column: a key-value join on two columns would scan the
-- table): `/messages?msg_hash=`. An internal or external-out message has one sender and at most one receiver (its
-- hash covers its created_lt). An external-in message can be received by more than one transaction (a contract
-- that accepts the same message twice): then tx_hash holds 64 zeros, and the API reads that message from
-- message_hashes, as it reads normalized hashes (not copied here).
CREATE TABLE IF NOT EXISTS message_txs_kv
(
    key String,
    tx_account String,
    tx_lt UInt64,
    tx_hash FixedString(64)
)
ENGINE = EmbeddedRocksDB
PRIMARY KEY key;

CREATE MATERIALIZED VIEW IF NOT EXISTS message_txs_kv_mv TO message_txs_kv AS
SELECT n.key AS key, n.tx_account AS tx_account, n.tx_lt AS tx_lt,
       CAST(if(n.txs > 1 OR (o.tx_lt != 0 AND o.tx_hash != n.first_tx), repeat('0', 64), toString(n.first_tx)) AS FixedString(64)) AS tx_hash
FROM (
    SELECT concat(msg_hash, '/', toString(direction)) AS key, any(tx_account) AS tx_account, any(tx_lt) AS tx_lt,
           any(tx_hash) AS first_tx, uniqExact(tx_hash) AS txs
    FROM message_hashes WHERE is_norm = 0 GROUP BY key
) AS n
LEFT JOIN message_txs_kv AS o ON o.key = n.key;

INSERT INTO message_txs_kv
SELECT concat(msg_hash, '/', toString(direction)) AS key, any(tx_account), any(tx_lt),
       CAST(if(uniqExact(tx_hash) > 1, repeat('0', 64), toString(any(tx_hash))) AS FixedString(64))
FROM message_hashes WHERE is_norm = 0 GROUP BY key;

-- A trace's transactions by trace_id: `/traces?trace_id=`. A trace's rows arrive over several inserts as it
-- grows, so the view merges each insert's rows into the stored list (sorted, each once: replays change nothing).
-- One writer (the traces stage, a single process) inserts trace_transactions, so no two merges of a trace race.
CREATE TABLE IF NOT EXISTS trace_txs_kv
(
    trace_id FixedString(64),
    txs Array(Tuple(lt UInt64, account String, hash FixedString(64)))
)
ENGINE = EmbeddedRocksDB
PRIMARY KEY trace_id;

CREATE MATERIALIZED VIEW IF NOT EXISTS trace_txs_kv_mv TO trace_txs_kv AS
SELECT n.trace_id AS trace_id, arraySort(arrayDistinct(arrayConcat(o.txs, n.txs))) AS txs
FROM (
    SELECT trace_id, CAST(groupArray((lt, account, hash)) AS Array(Tuple(lt UInt64, account String, hash FixedString(64)))) AS txs
    FROM trace_transactions GROUP BY trace_id
) AS n
LEFT JOIN trace_txs_kv AS o ON o.trace_id = n.trace_id;

INSERT INTO trace_txs_kv
SELECT trace_id, arraySort(CAST(groupUniqArray((lt, account, hash)) AS Array(Tuple(lt UInt64, account String, hash FixedString(64)))))
FROM trace_transactions GROUP BY trace_id;
