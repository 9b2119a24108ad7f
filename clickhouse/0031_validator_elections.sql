-- Elections and complaints (API v3 validators/elections, validators/complaints, ton-indexer v1.3), and what cycles
-- gain from the elector: filled by the traces stage from the elector's get-methods participant_list_extended,
-- past_elections and list_complaints, run on its state at the masterchain block (src/entities/elector.ts).
-- Each snapshot is a row keyed with its block's seqno; readers keep the latest per key, as the worker's upsert
-- (`source_mc_seqno <= EXCLUDED.source_mc_seqno`) does. Keys and ADNL addresses are upper-case hex, as the worker
-- stores them; stake holder and reward addresses raw `-1:HEX`.
CREATE TABLE IF NOT EXISTS validator_elections
(
    election_id UInt32,
    source_mc_seqno UInt32,
    elect_close UInt32,
    min_stake UInt128,
    total_stake UInt128,
    failed Bool,
    finished Bool
)
ENGINE = ReplacingMergeTree(source_mc_seqno)
ORDER BY election_id;

-- A participant the elector no longer lists keeps its last row (the worker upserts, never deletes).
CREATE TABLE IF NOT EXISTS validator_election_participants
(
    election_id UInt32,
    validator_pubkey String,
    stake_holder_address String,
    source_mc_seqno UInt32,
    stake UInt128,
    max_factor UInt32,
    adnl_addr String,
    INDEX idx_holder stake_holder_address TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_adnl adnl_addr TYPE bloom_filter(0.01) GRANULARITY 1
)
ENGINE = ReplacingMergeTree(source_mc_seqno)
ORDER BY (election_id, validator_pubkey, stake_holder_address);

CREATE TABLE IF NOT EXISTS validator_complaints
(
    election_id UInt32,
    complaint_hash String,
    source_mc_seqno UInt32,
    validator_pubkey String,
    adnl_addr Nullable(String),
    description_boc String CODEC(ZSTD(3)),
    created_at UInt32,
    severity UInt32,
    reward_address String,
    paid UInt128,
    suggested_fine UInt128,
    suggested_fine_part UInt32,
    -- JSON array of {validator_index, validator_pubkey?, adnl_addr?, weight?}, as the worker's voters_to_json
    voted_validators String,
    vset_id String,
    weight_remaining Int64,
    approved_percent Float64,
    is_passed Bool
)
ENGINE = ReplacingMergeTree(source_mc_seqno)
ORDER BY (election_id, complaint_hash);
