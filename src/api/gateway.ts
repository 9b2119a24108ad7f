/**
 * The gateway's HTTP server as `serve` and `start` run it: API v2 for every network, API v3 for networks with
 * a store, the streaming API for networks with a store and a notification feed, Prometheus metrics at /metrics.
 */
import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import type { KeyStore, RateLimiter } from './auth/index.ts';
import type { StoreClient } from '../store/client/index.ts';
import type { NotificationFeed } from '../feed/index.ts';
import { buildServer, type NetworkContext, type RouteGroup, type ServerOptions } from './server.ts';
import type { HubOptions, StreamHub } from './streaming/index.ts';
import { legacyNode, v2Group, type NodeClient } from './v2/index.ts';
import type { EmulationService, EmulationServiceOptions } from '../emulate/index.ts';
import type { DedustPoolList } from '../actions/index.ts';

export interface GatewayOptions {
  networks: NetworkContext[];
  keys?: KeyStore;
  limiter?: RateLimiter;
  /** Addresses / CIDRs of the reverse proxies in front (see ServerOptions.trustProxy). */
  trustProxy?: readonly string[];
  logger?: boolean | Record<string, unknown>;
  /** Served at /metrics when given (and registers the streaming API's metrics). */
  metrics?: Registry;
  /** /metrics from elsewhere (an API worker: the primary's registry); takes the place of `metrics` there. */
  metricsText?: { contentType: string; text(): Promise<string> };
  /** Headers on every answer (an API worker's `x-api-worker`). */
  headers?: Record<string, string>;
  /** Streaming API limits and bounds (src/api/streaming/hub.ts). */
  streaming?: Omit<HubOptions, 'feed' | 'store' | 'testnet' | 'metrics' | 'logger'>;
  /**
   * Emulated traces of the messages sent (src/emulate): on for networks with a store and liteservers; `false` turns
   * them off, an object sets the queue and pending bounds.
   */
  emulation?: false | Pick<EmulationServiceOptions, 'maxQueued' | 'bounds' | 'maxTxs' | 'maxDepth'>;
}

const hubsOf = new WeakMap<FastifyInstance, Map<string, StreamHub>>();

/** The streaming hub of a network of a gateway (tests, bench). */
export function streamingHub(app: FastifyInstance, network: string): StreamHub | undefined {
  return hubsOf.get(app)?.get(network);
}

/**
 * `TON_GATEWAY_EMULATION`: `0` turns emulated traces off (every command that serves the API), `1` or unset leaves
 * them on; anything else is refused at start, naming the variable.
 */
export function emulationFromEnv(env: Record<string, string | undefined> = process.env): false | undefined {
  const v = env.TON_GATEWAY_EMULATION;
  if (v === undefined || v === '' || v === '1') return undefined;
  if (v === '0') return false;
  throw new Error(`TON_GATEWAY_EMULATION must be 0 or 1, got ${JSON.stringify(v)}`);
}

export async function buildGateway(opts: GatewayOptions): Promise<FastifyInstance> {
  const groups: RouteGroup[] = [v2Group()];
  const emulation = opts.emulation ?? emulationFromEnv();
  // emulated traces: networks with a store (the newest indexed block, the classifier's context) and liteservers
  const emulations: EmulationService[] = [];
  if (emulation !== false && opts.networks.some((n) => n.services.store && n.services.node)) {
    const { EmulationService: Service } = await import('../emulate/index.ts');
    const { emulateGroup, liteserverState } = await import('./emulate/index.ts');
    for (const n of opts.networks) {
      if (!n.services.store || !n.services.node) continue;
      const store = n.services.store as StoreClient;
      // the indexer's DeDust pool list (`--dedust-pools-api`), when this process has one: emulated traces are classified as indexed ones
      const dedustPools = n.services.dedustPools as DedustPoolList | undefined;
      const service = new Service({ ...(emulation || {}), store, state: liteserverState(store, n.services.node as NodeClient), feed: n.services.feed as NotificationFeed | undefined, dedustPools });
      n.services.emulation = service;
      emulations.push(service);
    }
    groups.push(emulateGroup());
  }
  if (opts.networks.some((n) => n.services.store)) {
    // Loaded only when a store is configured: v2-only deployments do not need the indexed API.
    const { v3Group } = await import('./v3/index.ts');
    const { emulatedPending } = await import('./emulate/index.ts');
    groups.push(
      v3Group((net) => ({
        store: net.services.store as never,
        testnet: net.testnet,
        node: legacyNode(net as NetworkContext),
        emulation: net.services.emulation ? emulatedPending(net.services.emulation as EmulationService) : undefined,
      })),
    );
  }
  // the streaming API: networks whose indexer publishes notifications (services.feed) beside their store
  const hubs = new Map<string, StreamHub>();
  const plugins: ServerOptions['plugins'] = [];
  if (opts.networks.some((n) => n.services.store && n.services.feed)) {
    const { StreamHub: Hub, streamingGroup, websocketPlugin } = await import('./streaming/index.ts');
    for (const n of opts.networks) {
      if (!n.services.store || !n.services.feed) continue;
      const hub = new Hub({ ...opts.streaming, feed: n.services.feed as NotificationFeed, store: n.services.store as StoreClient, testnet: n.testnet, metrics: opts.metrics });
      if (n.services.emulation) hub.attachEmulation(n.services.emulation as EmulationService);
      hubs.set(n.name, hub);
    }
    groups.push(streamingGroup((net) => hubs.get(net.name)));
    plugins.push(websocketPlugin);
  }
  const app = buildServer({ networks: opts.networks, keys: opts.keys, limiter: opts.limiter, groups, plugins, trustProxy: opts.trustProxy, logger: opts.logger, headers: opts.headers });
  if (hubs.size) {
    hubsOf.set(app, hubs);
    for (const hub of hubs.values()) {
      hub.logger ??= app.log;
      await hub.start();
    }
    // before the server closes: open SSE responses would keep it from closing
    app.addHook('preClose', async () => {
      for (const hub of hubs.values()) await hub.close();
    });
  }
  for (const e of emulations) {
    e.onError ??= (err, what) => app.log.error({ err }, `emulation: ${what} failed`);
    await e.start();
  }
  if (emulations.length) app.addHook('onClose', async () => {
    for (const e of emulations) await e.close();
  });
  const remote = opts.metricsText;
  const registry = opts.metrics;
  if (remote) {
    app.get('/metrics', async (_req, reply) => reply.header('Content-Type', remote.contentType).send(await remote.text()));
  } else if (registry) {
    app.get('/metrics', async (_req, reply) => reply.header('Content-Type', registry.contentType).send(await registry.metrics()));
  }
  return app;
}
