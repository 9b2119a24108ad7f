-- DNS auctions (API v3 dns/activeAuctions, ton-indexer v1.3): the auction of a .ton item as its get-methods report it,
-- filled by the traces stage with the rest of the DNS entry (src/entities/dns.ts): the leading bidder, the bid and the
-- end time of an auction running or ended and not yet claimed (NULL: none), and the item's last fill-up time.
-- Same row, same version column (last_transaction_lt): a replayed block writes the same values again.
ALTER TABLE dns_entries ADD COLUMN IF NOT EXISTS max_bid_address Nullable(String);
ALTER TABLE dns_entries ADD COLUMN IF NOT EXISTS max_bid_amount Nullable(UInt128);
ALTER TABLE dns_entries ADD COLUMN IF NOT EXISTS auction_end_time Nullable(UInt64);
ALTER TABLE dns_entries ADD COLUMN IF NOT EXISTS last_fill_up_time Nullable(UInt64);
-- the route's filter: the auctions a bidder leads
ALTER TABLE dns_entries ADD INDEX IF NOT EXISTS idx_max_bid max_bid_address TYPE bloom_filter(0.01) GRANULARITY 1;
ALTER TABLE dns_entries MATERIALIZE INDEX idx_max_bid;
