-- Nominator pools (API v3 staking/nominatorPools/*, ton-indexer v1.3), filled by the traces stage
-- (src/entities/nominator-pool-replay.ts): the official pool's state at the end of each block that ran one of its
-- transactions, and the events of each transaction (its storage before and after, replayed in the emulator from the
-- state before the block a liteserver gave, checked against the transactions' state hashes).
--
-- nominator_pools: the latest state per pool (the worker's upsert on last_transaction_lt). active_nominators is the
-- worker's JSON ([{address, balance, pending_balance}]); nominator_addresses lists the same addresses for the
-- nominator lookup.
CREATE TABLE IF NOT EXISTS nominator_pools
(
    address String,
    state UInt8,
    nominators_count UInt16,
    stake_amount_sent UInt128,
    validator_amount UInt128,
    validator_address String,
    validator_reward_share UInt16,
    max_nominators_count UInt16,
    min_validator_stake UInt128,
    min_nominator_stake UInt128,
    active_nominators String,
    nominator_addresses Array(String),
    last_transaction_lt UInt64,
    code_hash String,
    data_hash String,
    INDEX idx_nominators nominator_addresses TYPE bloom_filter(0.01) GRANULARITY 1
)
ENGINE = ReplacingMergeTree(last_transaction_lt)
ORDER BY address;

-- nominator_pool_events: one row per nominator whose balances changed in a pool transaction (event_index orders the
-- events of one transaction, as the worker numbers them).
CREATE TABLE IF NOT EXISTS nominator_pool_events
(
    tx_hash FixedString(64),
    tx_lt UInt64,
    tx_now UInt32,
    mc_seqno UInt32,
    trace_id Nullable(String),
    pool_address String,
    nominator_address String,
    event_index UInt32,
    event_type LowCardinality(String),
    amount UInt128,
    balance_delta Int128,
    pending_balance_delta Int128,
    balance_before UInt128,
    balance_after UInt128,
    pending_balance_before UInt128,
    pending_balance_after UInt128,
    withdraw_request_before Bool,
    withdraw_request_after Bool,
    INDEX idx_nominator nominator_address TYPE bloom_filter(0.01) GRANULARITY 1
)
ENGINE = ReplacingMergeTree
ORDER BY (pool_address, tx_now, tx_lt, event_index);

-- nominator_pool_validator_events: the validator's deposit / withdrawal / reward / penalty in its pool.
CREATE TABLE IF NOT EXISTS nominator_pool_validator_events
(
    tx_hash FixedString(64),
    tx_lt UInt64,
    tx_now UInt32,
    mc_seqno UInt32,
    pool_address String,
    validator_address String,
    event_type LowCardinality(String),
    amount UInt128,
    balance_delta Int128,
    balance_before UInt128,
    balance_after UInt128,
    query_id Nullable(UInt64),
    cycle_start Nullable(UInt32),
    validator_reward_share UInt32,
    INDEX idx_validator validator_address TYPE bloom_filter(0.01) GRANULARITY 1
)
ENGINE = ReplacingMergeTree
ORDER BY (tx_now, tx_lt, tx_hash);
