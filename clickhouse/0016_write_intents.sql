-- What each writer is writing right now (issue 21, hole 5): a replay after a crash between two tables' inserts
-- finds the blocks (or masterchain seqnos) whose rows may be partly stored, and writes only what is missing.
-- One row per writer: a StoreWriter ('blocks/<uuid>', items = the ids of the blocks of its batch in flight) or
-- the traces stage ('traces/main', items = [first, last] masterchain seqno of its write in flight). A writer's
-- next write replaces its row (version grows); a clean close empties it. See src/store/replay.ts.
CREATE TABLE IF NOT EXISTS write_intents
(
    writer String,
    version UInt64,
    items Array(String),
    written_at DateTime64(3) DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree(version)
ORDER BY writer;
