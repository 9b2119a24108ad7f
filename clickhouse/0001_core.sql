-- Core chain data: blocks, transactions, messages, states, contents, code.
-- Keys end with the row's hash where (account, lt) / (wc, shard, seqno) would be enough on one
-- network: the test fixtures mix mainnet, testnet and local nets whose ids collide.
-- Conventions (see clickhouse/README.md): hashes are lower-case hex FixedString(64) with ZSTD,
-- addresses raw upper-case "wc:HEX" (as API v3 prints them), lt UInt64, coins UInt128/UInt256,
-- every table a ReplacingMergeTree keyed by its natural id so re-writing a block is a no-op for
-- readers that use FINAL.

CREATE TABLE IF NOT EXISTS blocks
(
    workchain Int32,
    shard UInt64,
    seqno UInt32,
    root_hash FixedString(64) CODEC(ZSTD(1)),
    file_hash FixedString(64) CODEC(ZSTD(1)),
    mc_block_workchain Int32 DEFAULT -1,
    mc_block_shard UInt64 DEFAULT 9223372036854775808,
    mc_block_seqno UInt32,
    global_id Int32,
    version UInt32,
    after_merge Bool,
    before_split Bool,
    after_split Bool,
    want_merge Bool,
    want_split Bool,
    key_block Bool,
    vert_seqno_incr Bool,
    flags UInt8,
    gen_utime UInt32,
    start_lt UInt64,
    end_lt UInt64,
    validator_list_hash_short UInt32,
    gen_catchain_seqno UInt32,
    min_ref_mc_seqno UInt32,
    prev_key_block_seqno UInt32,
    vert_seqno UInt32,
    master_ref_seqno UInt32,
    rand_seed FixedString(64) CODEC(ZSTD(1)),
    created_by FixedString(64) CODEC(ZSTD(1)),
    tx_count UInt32,
    prev_blocks Array(Tuple(workchain Int32, shard UInt64, seqno UInt32, root_hash FixedString(64), file_hash FixedString(64))),
    INDEX idx_mc_seqno mc_block_seqno TYPE minmax GRANULARITY 1,
    INDEX idx_root_hash root_hash TYPE bloom_filter(0.001) GRANULARITY 1,
    INDEX idx_file_hash file_hash TYPE bloom_filter(0.001) GRANULARITY 1,
    INDEX idx_gen_utime gen_utime TYPE minmax GRANULARITY 1,
    INDEX idx_start_lt start_lt TYPE minmax GRANULARITY 1
)
ENGINE = ReplacingMergeTree
ORDER BY (workchain, shard, seqno, root_hash);

-- Top shard blocks registered in each masterchain block (api v3 masterchainBlockShardState).
CREATE TABLE IF NOT EXISTS shard_state
(
    mc_seqno UInt32,
    workchain Int32,
    shard UInt64,
    seqno UInt32,
    root_hash FixedString(64) CODEC(ZSTD(1)),
    file_hash FixedString(64) CODEC(ZSTD(1))
)
ENGINE = ReplacingMergeTree
ORDER BY (mc_seqno, workchain, shard, seqno, root_hash);

-- Full transactions, one row per transaction, description phases flattened.
-- ORDER BY (account, lt): account history pages and (account, lt) point reads are range reads.
CREATE TABLE IF NOT EXISTS transactions
(
    account String,
    lt UInt64,
    hash FixedString(64) CODEC(ZSTD(1)),
    now UInt32,
    block_workchain Int32,
    block_shard UInt64,
    block_seqno UInt32,
    mc_block_seqno UInt32,
    trace_id Nullable(FixedString(64)) CODEC(ZSTD(1)),
    prev_trans_hash FixedString(64) CODEC(ZSTD(1)),
    prev_trans_lt UInt64,
    orig_status Enum8('uninit' = 0, 'frozen' = 1, 'active' = 2, 'nonexist' = 3),
    end_status Enum8('uninit' = 0, 'frozen' = 1, 'active' = 2, 'nonexist' = 3),
    total_fees UInt128,
    total_fees_extra_currencies Map(UInt32, UInt256),
    account_state_hash_before FixedString(64) CODEC(ZSTD(1)),
    account_state_hash_after FixedString(64) CODEC(ZSTD(1)),
    -- description
    descr Enum8('ord' = 0, 'storage' = 1, 'tick_tock' = 2, 'split_prepare' = 3, 'split_install' = 4, 'merge_prepare' = 5, 'merge_install' = 6),
    aborted Nullable(Bool),
    destroyed Nullable(Bool),
    credit_first Nullable(Bool),
    is_tock Nullable(Bool),
    installed Nullable(Bool),
    storage_fees_collected Nullable(UInt128),
    storage_fees_due Nullable(UInt128),
    storage_status_change Nullable(Enum8('unchanged' = 0, 'frozen' = 1, 'deleted' = 2)),
    credit_due_fees_collected Nullable(UInt128),
    credit Nullable(UInt128),
    credit_extra_currencies Map(UInt32, UInt256),
    compute_skipped Nullable(Bool),
    skipped_reason Nullable(Enum8('no_state' = 0, 'bad_state' = 1, 'no_gas' = 2, 'suspended' = 3)),
    compute_success Nullable(Bool),
    compute_msg_state_used Nullable(Bool),
    compute_account_activated Nullable(Bool),
    compute_gas_fees Nullable(UInt128),
    compute_gas_used Nullable(UInt64),
    compute_gas_limit Nullable(UInt64),
    compute_gas_credit Nullable(UInt64),
    compute_mode Nullable(Int8),
    compute_exit_code Nullable(Int32),
    compute_exit_arg Nullable(Int32),
    compute_vm_steps Nullable(UInt32),
    compute_vm_init_state_hash Nullable(FixedString(64)) CODEC(ZSTD(1)),
    compute_vm_final_state_hash Nullable(FixedString(64)) CODEC(ZSTD(1)),
    action_success Nullable(Bool),
    action_valid Nullable(Bool),
    action_no_funds Nullable(Bool),
    action_status_change Nullable(Enum8('unchanged' = 0, 'frozen' = 1, 'deleted' = 2)),
    action_total_fwd_fees Nullable(UInt128),
    action_total_action_fees Nullable(UInt128),
    action_result_code Nullable(Int32),
    action_result_arg Nullable(Int32),
    action_tot_actions Nullable(UInt16),
    action_spec_actions Nullable(UInt16),
    action_skipped_actions Nullable(UInt16),
    action_msgs_created Nullable(UInt16),
    action_action_list_hash Nullable(FixedString(64)) CODEC(ZSTD(1)),
    action_tot_msg_size_cells Nullable(UInt64),
    action_tot_msg_size_bits Nullable(UInt64),
    bounce Nullable(Enum8('negfunds' = 0, 'nofunds' = 1, 'ok' = 2)),
    bounce_msg_size_cells Nullable(UInt64),
    bounce_msg_size_bits Nullable(UInt64),
    bounce_req_fwd_fees Nullable(UInt128),
    bounce_msg_fees Nullable(UInt128),
    bounce_fwd_fees Nullable(UInt128),
    split_info_cur_shard_pfx_len Nullable(UInt8),
    split_info_acc_split_depth Nullable(UInt8),
    split_info_this_addr Nullable(String),
    split_info_sibling_addr Nullable(String),
    -- The traces stage re-writes a transaction with its trace_id once the trace is assembled; that row wins
    -- merges and FINAL whichever of the two was inserted last.
    trace_version UInt8 MATERIALIZED isNotNull(trace_id),
    INDEX idx_hash hash TYPE bloom_filter(0.001) GRANULARITY 1
)
ENGINE = ReplacingMergeTree(trace_version)
ORDER BY (account, lt, hash);

-- hash -> (account, lt): point lookup of a transaction by hash (GET /transactions?hash=,
-- adjacentTransactions, traces?tx_hash=); then read `transactions` by its primary key.
CREATE TABLE IF NOT EXISTS transactions_by_hash
(
    hash FixedString(64) CODEC(ZSTD(1)),
    account String,
    lt UInt64
)
ENGINE = ReplacingMergeTree
ORDER BY (hash, account, lt);

-- Global lt order: latest transactions, lt / lt-range / utime-range / mc_block_seqno filters
-- (minmax skip indexes work because now and mc_block_seqno grow with lt).
CREATE TABLE IF NOT EXISTS transactions_by_lt
(
    lt UInt64,
    account String,
    hash FixedString(64) CODEC(ZSTD(1)),
    now UInt32,
    mc_block_seqno UInt32,
    block_workchain Int32,
    block_shard UInt64,
    block_seqno UInt32,
    INDEX idx_now now TYPE minmax GRANULARITY 1,
    INDEX idx_mc_seqno mc_block_seqno TYPE minmax GRANULARITY 1
)
ENGINE = ReplacingMergeTree
ORDER BY (lt, account, hash);

-- One row per message per direction: an internal message appears as 'out' in the sender's tx and
-- as 'in' in the receiver's tx. ORDER BY follows transactions so a page of transactions fetches its
-- in/out messages with the same (account, lt) keys.
CREATE TABLE IF NOT EXISTS messages
(
    tx_account String,
    tx_lt UInt64,
    direction Enum8('in' = 0, 'out' = 1),
    msg_hash FixedString(64) CODEC(ZSTD(1)),
    tx_hash FixedString(64) CODEC(ZSTD(1)),
    msg_hash_norm Nullable(FixedString(64)) CODEC(ZSTD(1)),
    message_type Enum8('int' = 0, 'ext_in' = 1, 'ext_out' = 2),
    mc_seqno UInt32,
    trace_id Nullable(FixedString(64)) CODEC(ZSTD(1)),
    -- as in transactions: the row the traces stage re-writes with trace_id wins
    trace_version UInt8 MATERIALIZED isNotNull(trace_id),
    source Nullable(String),
    destination Nullable(String),
    value Nullable(UInt128),
    value_extra_currencies Map(UInt32, UInt256),
    fwd_fee Nullable(UInt128),
    ihr_fee Nullable(UInt128),
    extra_flags Nullable(UInt128),
    created_lt Nullable(UInt64),
    created_at Nullable(UInt32),
    opcode Nullable(Int32),
    ihr_disabled Nullable(Bool),
    bounce Nullable(Bool),
    bounced Nullable(Bool),
    import_fee Nullable(UInt128),
    body_hash FixedString(64) CODEC(ZSTD(1)),
    init_state_hash Nullable(FixedString(64)) CODEC(ZSTD(1)),
    INDEX idx_msg_hash msg_hash TYPE bloom_filter(0.001) GRANULARITY 1,
    INDEX idx_source source TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_destination destination TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_body_hash body_hash TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_opcode opcode TYPE set(256) GRANULARITY 1
)
ENGINE = ReplacingMergeTree(trace_version)
ORDER BY (tx_account, tx_lt, tx_hash, direction, msg_hash);

-- msg_hash and msg_hash_norm -> the message's rows: one row per (hash, direction); an external-in
-- whose normalized hash differs gets a second row keyed by the normalized hash (is_norm = 1), so
-- "msg_hash = X OR msg_hash_norm = X" is a single primary-key range.
CREATE TABLE IF NOT EXISTS message_hashes
(
    hash FixedString(64) CODEC(ZSTD(1)),
    direction Enum8('in' = 0, 'out' = 1),
    is_norm UInt8,
    msg_hash FixedString(64) CODEC(ZSTD(1)),
    tx_account String,
    tx_lt UInt64,
    tx_hash FixedString(64) CODEC(ZSTD(1))
)
ENGINE = ReplacingMergeTree
ORDER BY (hash, direction, is_norm, tx_account, tx_lt, tx_hash);

-- Bodies and init states, deduplicated by cell hash. boc is the base64 BoC of the cell.
CREATE TABLE IF NOT EXISTS message_contents
(
    hash FixedString(64) CODEC(ZSTD(1)),
    boc String CODEC(ZSTD(3))
)
ENGINE = ReplacingMergeTree
ORDER BY hash;

-- Account state after each transaction (AccountState objects of transactions), by (account, hash).
CREATE TABLE IF NOT EXISTS account_states
(
    account String,
    hash FixedString(64) CODEC(ZSTD(1)),
    balance UInt128,
    extra_currencies Map(UInt32, UInt256),
    account_status Enum8('uninit' = 0, 'frozen' = 1, 'active' = 2, 'nonexist' = 3),
    frozen_hash Nullable(FixedString(64)) CODEC(ZSTD(1)),
    data_hash Nullable(FixedString(64)) CODEC(ZSTD(1)),
    code_hash Nullable(FixedString(64)) CODEC(ZSTD(1)),
    last_trans_lt UInt64,
    INDEX idx_hash hash TYPE bloom_filter(0.001) GRANULARITY 1
)
ENGINE = ReplacingMergeTree
ORDER BY (account, hash);

-- Latest state per account: the row with the highest last_trans_lt wins (version column), so
-- replays of older blocks never overwrite a newer state.
CREATE TABLE IF NOT EXISTS latest_account_states
(
    account String,
    hash FixedString(64) CODEC(ZSTD(1)),
    balance UInt128,
    extra_currencies Map(UInt32, UInt256),
    account_status Enum8('uninit' = 0, 'frozen' = 1, 'active' = 2, 'nonexist' = 3),
    timestamp UInt32,
    last_trans_hash FixedString(64) CODEC(ZSTD(1)),
    last_trans_lt UInt64,
    frozen_hash Nullable(FixedString(64)) CODEC(ZSTD(1)),
    data_hash Nullable(FixedString(64)) CODEC(ZSTD(1)),
    code_hash Nullable(FixedString(64)) CODEC(ZSTD(1)),
    data_boc Nullable(String) CODEC(ZSTD(3)),
    INDEX idx_code_hash code_hash TYPE bloom_filter(0.01) GRANULARITY 1
)
ENGINE = ReplacingMergeTree(last_trans_lt)
ORDER BY account;

-- Contract code, deduplicated by code hash (latest_account_states.code_hash -> code_boc).
CREATE TABLE IF NOT EXISTS contract_code
(
    code_hash FixedString(64) CODEC(ZSTD(1)),
    code_boc String CODEC(ZSTD(3))
)
ENGINE = ReplacingMergeTree
ORDER BY code_hash;

-- Get-method ids per code hash (drives address_book interfaces).
CREATE TABLE IF NOT EXISTS contract_methods
(
    code_hash FixedString(64) CODEC(ZSTD(1)),
    methods Array(UInt32)
)
ENGINE = ReplacingMergeTree
ORDER BY code_hash;
