-- The trace assembler's memory (in-flight messages and the open traces waiting for them), saved with the
-- 'traces' checkpoint so that a restart continues traces cut by a crash (src/traces/stage.ts).
-- One live row per name; the highest mc_seqno wins.
CREATE TABLE IF NOT EXISTS trace_assembler_state
(
    name String,
    mc_seqno UInt32,
    state String CODEC(ZSTD(3))
)
ENGINE = ReplacingMergeTree(mc_seqno)
ORDER BY name;
