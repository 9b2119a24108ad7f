-- Masterchain blocks ingest trusts (src/source/trust.ts): the network config's init block (`anchor` is its root
-- hash) and the key blocks proved from it by validator signatures. A restart proves the next block from the
-- nearest of them instead of walking from the init block again.
CREATE TABLE IF NOT EXISTS trusted_blocks
(
    anchor FixedString(64),
    seqno UInt32,
    root_hash FixedString(64),
    file_hash FixedString(64),
    saved_at DateTime64(3) DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree(saved_at)
ORDER BY (anchor, seqno);

-- What ingest was asked to do and where it is stuck (src/store/ingest-state.ts), one live row per name (highest
-- version wins): the requested masterchain range (range_until 0: none, follow the tip), so that a restart without
-- --from-seqno continues it; the first seqno ever requested, so `status` reports a hole below the first indexed
-- block; and the stall, a seqno no liteserver gives valid (stalled_seqno 0: none), for `status` and indexStatus.
CREATE TABLE IF NOT EXISTS ingest_state
(
    name String,
    range_from UInt32,
    range_until UInt32,
    first_requested UInt32,
    checkpoint_at_request Int64,
    stalled_seqno UInt32,
    stall_reason String,
    stalled_since DateTime64(3),
    version UInt64
)
ENGINE = ReplacingMergeTree(version)
ORDER BY name;
