-- NFT sale contracts (API v3 nft/sales, NFTSale): getgems fix-price sales, getgems auctions and telemint items,
-- filled by the traces stage from the sale contracts' get-methods (src/entities/nft-sales.ts).
-- details: the type's fields (reference NFTSale.details) as a JSON object string.
-- Last write wins on last_transaction_lt, like the other entity tables.

CREATE TABLE IF NOT EXISTS nft_sales
(
    address String,
    type Enum8('getgems_sale' = 0, 'getgems_auction' = 1, 'telemint' = 2),
    nft_address Nullable(String),
    nft_owner_address Nullable(String),
    marketplace_address Nullable(String),
    created_at Nullable(UInt32),
    details String CODEC(ZSTD(3)),
    last_transaction_lt UInt64,
    code_hash FixedString(64),
    data_hash FixedString(64),
    INDEX idx_nft nft_address TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_owner nft_owner_address TYPE bloom_filter(0.01) GRANULARITY 1
)
ENGINE = ReplacingMergeTree(last_transaction_lt)
ORDER BY address;
