-- Traces, actions, parsed contract entities (filled by the traces/actions stages), API metadata.
-- Entity tables are last-write-wins on last_transaction_lt (ReplacingMergeTree version column).

CREATE TABLE IF NOT EXISTS traces
(
    trace_id FixedString(64) CODEC(ZSTD(1)),
    external_hash Nullable(FixedString(64)) CODEC(ZSTD(1)),
    external_hash_norm Nullable(FixedString(64)) CODEC(ZSTD(1)),
    mc_seqno_start UInt32,
    mc_seqno_end UInt32,
    start_lt UInt64,
    start_utime UInt32,
    end_lt UInt64,
    end_utime UInt32,
    state Enum8('complete' = 0, 'pending' = 1, 'broken' = 2),
    pending_edges UInt64,
    edges UInt64,
    nodes UInt64,
    classification_state Enum8('unclassified' = 0, 'failed' = 1, 'ok' = 2, 'broken' = 3),
    INDEX idx_end_lt end_lt TYPE minmax GRANULARITY 1,
    INDEX idx_end_utime end_utime TYPE minmax GRANULARITY 1,
    INDEX idx_mc_seqno_end mc_seqno_end TYPE minmax GRANULARITY 1,
    INDEX idx_external_hash external_hash TYPE bloom_filter(0.01) GRANULARITY 1
)
ENGINE = ReplacingMergeTree(end_lt)
ORDER BY trace_id;

-- trace_id -> its transactions (traces?trace_id= loads every tx of a trace).
CREATE TABLE IF NOT EXISTS trace_transactions
(
    trace_id FixedString(64) CODEC(ZSTD(1)),
    lt UInt64,
    account String,
    hash FixedString(64) CODEC(ZSTD(1))
)
ENGINE = ReplacingMergeTree
ORDER BY (trace_id, lt, account);

CREATE TABLE IF NOT EXISTS actions
(
    trace_id FixedString(64) CODEC(ZSTD(1)),
    action_id FixedString(64) CODEC(ZSTD(1)),
    type LowCardinality(String),
    start_lt UInt64,
    end_lt UInt64,
    start_utime UInt32,
    end_utime UInt32,
    trace_end_lt UInt64,
    trace_end_utime UInt32,
    trace_mc_seqno_end UInt32,
    trace_external_hash Nullable(FixedString(64)),
    trace_external_hash_norm Nullable(FixedString(64)),
    tx_hashes Array(FixedString(64)),
    success Nullable(Bool),
    source Nullable(String),
    source_secondary Nullable(String),
    destination Nullable(String),
    destination_secondary Nullable(String),
    asset Nullable(String),
    asset_secondary Nullable(String),
    asset2 Nullable(String),
    asset2_secondary Nullable(String),
    opcode Nullable(Int32),
    value Nullable(UInt256),
    amount Nullable(UInt256),
    value_extra_currencies Map(UInt32, UInt256),
    parent_action_id Nullable(FixedString(64)),
    ancestor_type Array(LowCardinality(String)),
    -- per-type details (the reference's *_data composite columns) as a JSON object string
    details String CODEC(ZSTD(3)),
    INDEX idx_action_id action_id TYPE bloom_filter(0.001) GRANULARITY 1,
    INDEX idx_trace_end_lt trace_end_lt TYPE minmax GRANULARITY 1,
    INDEX idx_trace_mc_seqno_end trace_mc_seqno_end TYPE minmax GRANULARITY 1
)
ENGINE = ReplacingMergeTree
ORDER BY (trace_id, action_id);

-- Per-account action index (actions?account=).
CREATE TABLE IF NOT EXISTS action_accounts
(
    account String,
    trace_end_lt UInt64,
    trace_id FixedString(64) CODEC(ZSTD(1)),
    action_end_lt UInt64,
    action_id FixedString(64) CODEC(ZSTD(1)),
    trace_end_utime UInt32,
    action_end_utime UInt32
)
ENGINE = ReplacingMergeTree
ORDER BY (account, trace_end_lt, trace_id, action_end_lt, action_id);

CREATE TABLE IF NOT EXISTS jetton_masters
(
    address String,
    total_supply UInt256,
    mintable Bool,
    admin_address Nullable(String),
    jetton_content String CODEC(ZSTD(3)),
    jetton_wallet_code_hash FixedString(64),
    code_hash FixedString(64),
    data_hash FixedString(64),
    last_transaction_lt UInt64,
    INDEX idx_admin admin_address TYPE bloom_filter(0.01) GRANULARITY 1
)
ENGINE = ReplacingMergeTree(last_transaction_lt)
ORDER BY address;

CREATE TABLE IF NOT EXISTS jetton_wallets
(
    address String,
    balance UInt256,
    owner String,
    jetton String,
    last_transaction_lt UInt64,
    code_hash Nullable(FixedString(64)),
    data_hash Nullable(FixedString(64)),
    mintless_is_claimed Nullable(Bool),
    mintless_amount Nullable(UInt256),
    mintless_start_from Nullable(UInt32),
    mintless_expire_at Nullable(UInt32),
    INDEX idx_owner owner TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_jetton jetton TYPE bloom_filter(0.01) GRANULARITY 1
)
ENGINE = ReplacingMergeTree(last_transaction_lt)
ORDER BY address;

CREATE TABLE IF NOT EXISTS jetton_transfers
(
    tx_hash FixedString(64) CODEC(ZSTD(1)),
    tx_lt UInt64,
    tx_now UInt32,
    tx_aborted Bool,
    mc_seqno UInt32,
    query_id UInt64,
    amount UInt256,
    source String,
    destination String,
    jetton_wallet_address String,
    jetton_master_address String,
    response_destination Nullable(String),
    custom_payload Nullable(String),
    forward_ton_amount Nullable(UInt128),
    forward_payload Nullable(String),
    trace_id Nullable(FixedString(64)),
    INDEX idx_source source TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_destination destination TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_wallet jetton_wallet_address TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_master jetton_master_address TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_now tx_now TYPE minmax GRANULARITY 1
)
ENGINE = ReplacingMergeTree
ORDER BY (tx_lt, tx_hash);

CREATE TABLE IF NOT EXISTS jetton_burns
(
    tx_hash FixedString(64) CODEC(ZSTD(1)),
    tx_lt UInt64,
    tx_now UInt32,
    tx_aborted Bool,
    mc_seqno UInt32,
    query_id UInt64,
    owner String,
    jetton_wallet_address String,
    jetton_master_address String,
    amount UInt256,
    response_destination Nullable(String),
    custom_payload Nullable(String),
    trace_id Nullable(FixedString(64)),
    INDEX idx_owner owner TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_wallet jetton_wallet_address TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_master jetton_master_address TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_now tx_now TYPE minmax GRANULARITY 1
)
ENGINE = ReplacingMergeTree
ORDER BY (tx_lt, tx_hash);

CREATE TABLE IF NOT EXISTS nft_collections
(
    address String,
    next_item_index UInt256,
    owner_address Nullable(String),
    collection_content String CODEC(ZSTD(3)),
    last_transaction_lt UInt64,
    code_hash FixedString(64),
    data_hash FixedString(64),
    INDEX idx_owner owner_address TYPE bloom_filter(0.01) GRANULARITY 1
)
ENGINE = ReplacingMergeTree(last_transaction_lt)
ORDER BY address;

CREATE TABLE IF NOT EXISTS nft_items
(
    address String,
    init Bool,
    `index` UInt256,
    collection_address Nullable(String),
    owner_address Nullable(String),
    real_owner Nullable(String),
    content String CODEC(ZSTD(3)),
    last_transaction_lt UInt64,
    code_hash FixedString(64),
    data_hash FixedString(64),
    INDEX idx_owner owner_address TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_real_owner real_owner TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_collection collection_address TYPE bloom_filter(0.01) GRANULARITY 1
)
ENGINE = ReplacingMergeTree(last_transaction_lt)
ORDER BY address;

CREATE TABLE IF NOT EXISTS nft_transfers
(
    tx_hash FixedString(64) CODEC(ZSTD(1)),
    tx_lt UInt64,
    tx_now UInt32,
    tx_aborted Bool,
    mc_seqno UInt32,
    query_id UInt64,
    nft_item_address String,
    nft_item_index UInt256,
    nft_collection_address Nullable(String),
    old_owner String,
    new_owner String,
    response_destination Nullable(String),
    custom_payload Nullable(String),
    forward_amount Nullable(UInt128),
    forward_payload Nullable(String),
    trace_id Nullable(FixedString(64)),
    INDEX idx_item nft_item_address TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_collection nft_collection_address TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_old_owner old_owner TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_new_owner new_owner TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_now tx_now TYPE minmax GRANULARITY 1
)
ENGINE = ReplacingMergeTree
ORDER BY (tx_lt, tx_hash);

CREATE TABLE IF NOT EXISTS dns_entries
(
    nft_item_address String,
    nft_item_owner Nullable(String),
    domain String,
    dns_next_resolver Nullable(String),
    dns_wallet Nullable(String),
    dns_site_adnl Nullable(String),
    dns_storage_bag_id Nullable(String),
    last_transaction_lt UInt64,
    INDEX idx_domain domain TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_wallet dns_wallet TYPE bloom_filter(0.01) GRANULARITY 1
)
ENGINE = ReplacingMergeTree(last_transaction_lt)
ORDER BY nft_item_address;

CREATE TABLE IF NOT EXISTS multisig
(
    address String,
    next_order_seqno Nullable(UInt256),
    threshold Nullable(UInt32),
    signers Array(String),
    proposers Array(String),
    last_transaction_lt UInt64,
    code_hash FixedString(64),
    data_hash FixedString(64)
)
ENGINE = ReplacingMergeTree(last_transaction_lt)
ORDER BY address;

CREATE TABLE IF NOT EXISTS multisig_orders
(
    address String,
    multisig_address String,
    order_seqno Nullable(UInt256),
    threshold Nullable(UInt32),
    sent_for_execution Nullable(Bool),
    approvals_mask Nullable(UInt256),
    approvals_num Nullable(UInt32),
    expiration_date Nullable(UInt32),
    order_boc Nullable(String) CODEC(ZSTD(3)),
    signers Array(String),
    last_transaction_lt UInt64,
    code_hash FixedString(64),
    data_hash FixedString(64),
    INDEX idx_multisig multisig_address TYPE bloom_filter(0.01) GRANULARITY 1
)
ENGINE = ReplacingMergeTree(last_transaction_lt)
ORDER BY address;

CREATE TABLE IF NOT EXISTS vesting_contracts
(
    address String,
    vesting_start_time UInt32,
    vesting_total_duration UInt32,
    unlock_period UInt32,
    cliff_duration UInt32,
    vesting_total_amount UInt128,
    vesting_sender_address String,
    owner_address String,
    whitelist Array(String),
    last_transaction_lt UInt64,
    code_hash FixedString(64),
    data_hash FixedString(64),
    INDEX idx_owner owner_address TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_sender vesting_sender_address TYPE bloom_filter(0.01) GRANULARITY 1
)
ENGINE = ReplacingMergeTree(last_transaction_lt)
ORDER BY address;

-- Off-chain token metadata (address_metadata in the reference), last write wins on updated_at.
CREATE TABLE IF NOT EXISTS address_metadata
(
    address String,
    type Enum8('jetton_masters' = 0, 'jetton_wallets' = 1, 'nft_items' = 2, 'nft_collections' = 3),
    valid Nullable(Bool),
    name Nullable(String),
    description Nullable(String),
    symbol Nullable(String),
    image Nullable(String),
    extra String,
    is_nsfw Bool DEFAULT false,
    is_scam Bool DEFAULT false,
    updated_at DateTime64(3),
    expires_at Nullable(DateTime64(3))
)
ENGINE = ReplacingMergeTree(updated_at)
ORDER BY (address, type);

-- Pipeline bookkeeping. A block is visible to checkpoints only once its marker row is written,
-- which the writer does after every other row of the block was inserted.
CREATE TABLE IF NOT EXISTS ingested_blocks
(
    workchain Int32,
    shard UInt64,
    seqno UInt32,
    root_hash FixedString(64),
    mc_block_seqno UInt32,
    tx_count UInt32,
    ingested_at DateTime64(3) DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree
ORDER BY (workchain, shard, seqno, root_hash);

-- Named checkpoints (e.g. 'ingest' = last masterchain seqno fully written); highest updated_at wins.
CREATE TABLE IF NOT EXISTS checkpoints
(
    name String,
    mc_seqno UInt32,
    updated_at DateTime64(3) DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree(updated_at)
ORDER BY name;
