-- Validators (API v3 validators/events and validators/cycles, ton-indexer v1.3), filled by the traces stage
-- (src/entities/validators.ts).
--
-- validator_events: one row per transaction the worker's parse_validator_event reads as an elector stake event
-- (a new_stake accepted or rejected, a recover request, the elector's recover answers). Keys and ADNL addresses are
-- upper-case hex, as the worker stores them.
CREATE TABLE IF NOT EXISTS validator_events
(
    tx_hash FixedString(64),
    tx_lt UInt64,
    tx_now UInt32,
    mc_seqno UInt32,
    event_type Enum8('stake_accepted' = 0, 'stake_rejected' = 1, 'recover_requested' = 2, 'stake_recovered' = 3, 'recover_failed' = 4),
    stake_holder_address String,
    validator_pubkey Nullable(String),
    adnl_addr Nullable(String),
    election_id Nullable(UInt32),
    query_id Nullable(UInt64),
    amount UInt128,
    reason Nullable(Int32),
    INDEX idx_holder stake_holder_address TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_pubkey validator_pubkey TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_adnl adnl_addr TYPE bloom_filter(0.01) GRANULARITY 1
)
ENGINE = ReplacingMergeTree
ORDER BY (tx_now, tx_lt, tx_hash);

-- validator_cycles / validator_cycle_members: one snapshot per key block that carries the set (config 34, 36, 32)
-- with config 15 / 16 / 17, keyed with the block's seqno, so a replay writes the same rows and every snapshot is
-- kept. Readers merge a cycle's snapshots as the worker's upsert does: the latest snapshot's config values, the first
-- known election_id, the largest total_stake and member stake (the elector only lowers them, by fines).
CREATE TABLE IF NOT EXISTS validator_cycles
(
    utime_since UInt32,
    source_mc_seqno UInt32,
    utime_until UInt32,
    total UInt32,
    main UInt32,
    total_weight UInt64,
    election_id Nullable(UInt32),
    total_stake Nullable(UInt128),
    validators_elected_for UInt32,
    elections_start_before UInt32,
    elections_end_before UInt32,
    stake_held_for UInt32,
    max_validators UInt32,
    max_main_validators UInt32,
    min_validators UInt32,
    min_stake UInt128,
    max_stake UInt128,
    min_total_stake UInt128,
    max_stake_factor UInt32
)
ENGINE = ReplacingMergeTree
ORDER BY (utime_since, source_mc_seqno);

CREATE TABLE IF NOT EXISTS validator_cycle_members
(
    utime_since UInt32,
    validator_index UInt32,
    source_mc_seqno UInt32,
    validator_pubkey String,
    adnl_addr String,
    weight UInt64,
    stake Nullable(UInt128),
    INDEX idx_pubkey validator_pubkey TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_adnl adnl_addr TYPE bloom_filter(0.01) GRANULARITY 1
)
ENGINE = ReplacingMergeTree
ORDER BY (utime_since, validator_index, source_mc_seqno);
