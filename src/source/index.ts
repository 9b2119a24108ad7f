/**
 * The source stage: liteserver pool (ton-lite-client) and the masterchain follower.
 *
 * - `LiteserverPool` — `new LiteserverPool(endpoints, opts)`, `await pool.start()`, then `pool.call(fn)` or the
 *   typed calls (getMasterchainInfo, lookupBlock, getBlock (verified bytes), getBlockHeader, getAllShardsInfo,
 *   getAccountState, runSmcMethod, sendMessage, getTransactions, listBlockTransactions, getConfig).
 * - `loadLiteservers({network | configPath})` — endpoints from bundled mainnet/testnet or any global config.
 * - `followMasterchain(source, {fromSeqno, untilSeqno})` — async generator of verified McSteps.
 * - `walkShardBlocks` / `followStep` — the pure walking logic over a `fetchBlock(id)`.
 */
export * from './block-id.ts';
export { readBlockHeader, readShardTops, verifyBlock, sha256Hex, BlockHashMismatch, BlockFormatError, type BlockHeader, type ExtBlkRef, type ShardTop, type VerifiedBlock } from './block-header.ts';
export { walkShardBlocks, followStep, ChainLinkError, type FetchBlock, type McStep } from './walk.ts';
export { followMasterchain, FollowAborted, type BlockSource, type FollowOptions } from './follower.ts';
export { LiteserverPool, NoLiteserverError, BadAnswerError, toTlBlockId, fromTlBlockId, toClientBlockId, type PoolOptions, type ServerHandle, type ServerInfo, type ServerStatus } from './pool.ts';
export { loadLiteservers, parseGlobalConfig, parseNetwork, bundledConfigPath, intToIp, NETWORKS, NetworkConfigError, type LiteserverEndpoint, type NetworkName } from './network-config.ts';
