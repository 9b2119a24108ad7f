/**
 * API v2: the node API over liteservers (toncenter v2 compatible).
 *   v2Group()            route group for buildServer (src/api/server.ts)
 *   LiteNode             NodeClient over ton-lite-client (one engine, or the LiteserverPool)
 */
export { v2Group, API_V2_VERSION, type V2GroupOptions } from './group.ts';
export { LiteNode, LiteServerError, NodeTimeoutError, classifyNodeError, isNotInDb, type NodeClient, type QueryOptions, type EngineRunner } from './node.ts';
export { ALL_METHODS } from './methods/index.ts';
export { callMethod, makeContext } from './dispatch.ts';
export type { V2Method, V2Context } from './method.ts';
export { normalizedHash } from './methods/send.ts';
export { explainSendError } from './send-errors.ts';
export { legacyNode, type LegacyNodeFns } from './legacy.ts';
// the state an emulation starts from (src/api/emulate/state.ts), read as the v2 methods read it
export { accountState, blockIdTl, configAll, MASTER_SHARD_SIGNED, newConfigCache, type BlockIdTl } from './chain.ts';
