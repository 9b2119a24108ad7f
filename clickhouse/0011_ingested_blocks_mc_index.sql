-- The checkpoint stage asks, on every poll, which blocks of a masterchain seqno range are stored
-- (`WHERE mc_block_seqno BETWEEN lo AND hi`); the table is ordered by block id, so without this index every poll
-- reads the whole table (a row per block: hundreds of thousands a day on mainnet). Blocks arrive in masterchain
-- order, so a minmax index per granule skips nearly everything.
ALTER TABLE ingested_blocks ADD INDEX IF NOT EXISTS idx_mc_block_seqno mc_block_seqno TYPE minmax GRANULARITY 1;
ALTER TABLE ingested_blocks MATERIALIZE INDEX idx_mc_block_seqno;
