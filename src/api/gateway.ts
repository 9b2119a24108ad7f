/**
 * The gateway's HTTP server as `serve` and `start` run it: API v2 for every network, API v3 for networks with
 * a store, Prometheus metrics at /metrics.
 */
import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import type { KeyStore, RateLimiter } from './auth/index.ts';
import { buildServer, type NetworkContext, type RouteGroup } from './server.ts';
import { legacyNode, v2Group } from './v2/index.ts';

export interface GatewayOptions {
  networks: NetworkContext[];
  keys?: KeyStore;
  limiter?: RateLimiter;
  /** Addresses / CIDRs of the reverse proxies in front (see ServerOptions.trustProxy). */
  trustProxy?: readonly string[];
  logger?: boolean | Record<string, unknown>;
  /** Served at /metrics when given. */
  metrics?: Registry;
}

export async function buildGateway(opts: GatewayOptions): Promise<FastifyInstance> {
  const groups: RouteGroup[] = [v2Group()];
  if (opts.networks.some((n) => n.services.store)) {
    // Loaded only when a store is configured: v2-only deployments do not need the indexed API.
    const { v3Group } = await import('./v3/index.ts');
    groups.push(
      v3Group((net) => ({
        store: net.services.store as never,
        testnet: net.testnet,
        node: legacyNode(net as NetworkContext),
      })),
    );
  }
  const app = buildServer({ networks: opts.networks, keys: opts.keys, limiter: opts.limiter, groups, trustProxy: opts.trustProxy, logger: opts.logger });
  const registry = opts.metrics;
  if (registry) {
    app.get('/metrics', async (_req, reply) => reply.header('Content-Type', registry.contentType).send(await registry.metrics()));
  }
  return app;
}
