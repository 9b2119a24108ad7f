-- What the API renders for one transaction, as one JSON document per transaction: its row, its in/out message
-- rows, their bodies / init states, and its account states before / after when the writer knew them
-- (src/store/docs.ts has the shape). The flattened tables stay the source for SQL; this is a read copy.
-- Why: chdb pays a fixed cost per column and per part it reads. A transaction point read touched ~90 columns over
-- 4 statements (transactions, messages, message_contents, account_states) for ~80 ms; one String column of
-- this table reads in ~8 ms (by hand on a 1M-transaction store, 11 parts).
-- Keyed like `transactions`, so `/transactions?account=` pages and (account, lt) reads are primary-key ranges.
-- Written with the transaction rows (the traces stage, or the decode stage when traces are off); the row
-- that has a trace_id wins, as in `transactions`. Transactions stored before this migration have no document:
-- the API reads those from the flattened tables.
-- index_granularity_bytes bounds a granule to ~256 KiB: documents are ~1-4 KiB, and a point read
-- decompresses one granule per part.
CREATE TABLE IF NOT EXISTS transaction_docs
(
    account String,
    lt UInt64,
    hash FixedString(64) CODEC(ZSTD(1)),
    traced UInt8,
    doc String CODEC(ZSTD(1))
)
ENGINE = ReplacingMergeTree(traced)
ORDER BY (account, lt, hash)
SETTINGS index_granularity = 256, index_granularity_bytes = 262144;
