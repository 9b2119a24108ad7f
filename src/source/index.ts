/**
 * The source stage: liteserver pool (ton-lite-client) and the masterchain follower.
 *
 * - `LiteserverPool` — `new LiteserverPool(endpoints, opts)`, `await pool.start()`, then `pool.call(fn)` or the
 *   typed calls (getMasterchainInfo, lookupBlock, getBlock (verified bytes), getBlockHeader, getAllShardsInfo,
 *   getAccountState, runSmcMethod, sendMessage, getTransactions, listBlockTransactions, getConfig).
 * - `loadLiteservers({network | configPath})` — endpoints from bundled mainnet/testnet or any global config.
 * - `followMasterchain(source, {fromSeqno, untilSeqno})` — async generator of verified McSteps.
 * - `walkShardBlocks` / `followStep` — the pure walking logic over a `fetchBlock(id)`.
 * - `ChainTrust` + `TrustedSource` — what ingest follows: every masterchain block id proved (validator signatures,
 *   src/proofs) from the config's init block (`loadTrustAnchor`), the key blocks reached kept in a TrustedBlockStore.
 */
export * from './block-id.ts';
export { verifyBlock, sha256Hex, BlockHashMismatch, type BlockHeader, type ShardTop, type VerifiedBlock } from './block-header.ts';
export { walkShardBlocks, followStep, differs, ChainLinkError, type FetchBlock, type McStep } from './walk.ts';
export { followMasterchain, FollowAborted, FollowStalled, type BlockSource, type FollowOptions, type Stall } from './follower.ts';
export { ChainTrust, TrustError, toTl, fromTl, type AskLiteserver, type TrustedBlockStore } from './trust.ts';
export { TrustedSource } from './trusted-source.ts';
export { LiteAnswerError, liteQuery } from './lite-query.ts';
export { LiteserverPool, NoLiteserverError, BadAnswerError, toTlBlockId, fromTlBlockId, toClientBlockId, type PoolOptions, type ServerHandle, type ServerInfo, type ServerStatus } from './pool.ts';
export { loadLiteservers, loadTrustAnchor, networkNameOf, parseTrustAnchor, parseGlobalConfig, parseNetwork, bundledConfigPath, intToIp, NETWORKS, NetworkConfigError, type LiteserverEndpoint, type NetworkName } from './network-config.ts';
