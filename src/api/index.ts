/**
 * The HTTP APIs, as the CLI starts them: the gateway (one Fastify server for every network: API v2 over
 * liteservers, API v3 over a store, loaded when a network has one), API keys and rate limits, the v2 node client.
 */
export { buildGateway, streamingHub } from './gateway.ts';
export { buildServer, type NetworkContext } from './server.ts';
export * from './auth/index.ts';
export { ALL_METHODS, LiteNode, v2Group } from './v2/index.ts';
export {
  apiWorkerSlot,
  isApiWorker,
  prepareApiWorker,
  PrimaryChannel,
  primaryStoreInfo,
  PrimaryRateLimiter,
  startApiWorkers,
  workerListening,
  type ApiWorkers,
} from './cluster.ts';
