/**
 * The HTTP server shell shared by API v2 and v3: per-network route groups, API keys, rate limits,
 * `X-API-Version`, one error handler per group (its envelope), `/healthcheck`.
 *
 * Networks are told apart by a path prefix: the first network (usually mainnet) is served at the root
 * (`/api/v2/...`, `/api/v3/...`), every other at `/<name>` (`/testnet/api/v2/...`) unless `basePath`
 * says otherwise. A reverse proxy can map a Host (testnet.example.com) onto that prefix.
 */
import Fastify, { type FastifyError, type FastifyInstance, type FastifyPluginAsync, type FastifyReply, type FastifyRequest } from 'fastify';
import { ApiError, fromFastifyError } from './errors.ts';
import { apiKeyOf, charge, identify, KeyStore, MemoryRateLimiter, type Caller, type RateLimiter } from './auth/index.ts';

/** One network served by this deployment. Route groups read the services they need from it. */
export interface NetworkContext {
  /** `mainnet`, `testnet`, or another name; keys' plans list the names they may use. */
  name: string;
  /** Path prefix of this network; default: '' for the first network, `/<name>` for the others. */
  basePath?: string;
  /** True for test networks: friendly addresses get the testnet flag. */
  testnet: boolean;
  /** Services by name (API v2: `node`; API v3: its store reader). */
  services: Record<string, unknown>;
}

/** A set of routes mounted per network at `<basePath><prefix>` (e.g. `/testnet/api/v2`). */
export interface RouteGroup {
  name: string;
  prefix: string;
  /** Sent as `X-API-Version` on every answer of the group. */
  apiVersion: string;
  /** The group's error envelope. */
  renderError(error: ApiError, request: FastifyRequest): unknown;
  /** Adds the routes; `app` is an encapsulated scope already carrying auth, limits and error handling. */
  routes(app: FastifyInstance, network: NetworkContext): void | Promise<void>;
}

export interface ServerOptions {
  networks: NetworkContext[];
  keys?: KeyStore;
  limiter?: RateLimiter;
  groups?: RouteGroup[];
  /** pino options or false. */
  logger?: boolean | Record<string, unknown>;
  /** Take the client IP from X-Forwarded-For (behind a reverse proxy). */
  trustProxy?: boolean;
  bodyLimit?: number;
  /** Plugins registered at the root before the groups (the streaming API's WebSocket support). */
  plugins?: { plugin: FastifyPluginAsync<Record<string, unknown>>; opts?: Record<string, unknown> }[];
}

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
    network: NetworkContext | null;
    /** Charges more tokens to the caller (jsonRPC batches cost one per call). */
    chargeMore(cost: number): Promise<void>;
  }
}

export function basePathOf(network: NetworkContext, index: number): string {
  if (network.basePath !== undefined) return network.basePath.replace(/\/+$/, '');
  return index === 0 ? '' : `/${network.name}`;
}

/** Maps anything thrown in a route to an ApiError; unknown errors become a 500 without internals. */
export function toApiError(err: unknown, request: FastifyRequest): ApiError {
  if (err instanceof ApiError) return err;
  const fe = err as FastifyError;
  if (fe && typeof fe === 'object' && (typeof fe.statusCode === 'number' || typeof fe.code === 'string')) {
    const mapped = fromFastifyError(fe);
    if (mapped) return mapped;
  }
  request.log.error({ err }, 'unhandled error');
  return new ApiError(500, 'internal error');
}

function sendError(reply: FastifyReply, request: FastifyRequest, group: RouteGroup, err: ApiError): FastifyReply {
  if (err.opts.retryAfterSec !== undefined) reply.header('Retry-After', String(err.opts.retryAfterSec));
  for (const [k, v] of Object.entries(err.opts.headers ?? {})) reply.header(k, v);
  reply.header('X-API-Version', group.apiVersion);
  return reply.code(err.status).send(group.renderError(err, request));
}

export function registerGroup(app: FastifyInstance, opts: Required<Pick<ServerOptions, 'networks' | 'keys' | 'limiter'>>, group: RouteGroup): void {
  opts.networks.forEach((given, i) => {
    // Groups see the resolved base path ('' or '/testnet').
    const network: NetworkContext = { ...given, basePath: basePathOf(given, i) };
    const prefix = network.basePath + group.prefix;
    app.register(
      async (scope) => {
        scope.setErrorHandler((err, request, reply) => sendError(reply, request, group, toApiError(err, request)));
        scope.setNotFoundHandler((request, reply) =>
          sendError(reply, request, group, new ApiError(404, `unknown method ${request.method} ${request.url.split('?')[0]}`)),
        );
        scope.addHook('onRequest', async (request, reply) => {
          reply.header('X-API-Version', group.apiVersion);
          request.network = network;
          const caller = identify(opts.keys, network.name, apiKeyOf(request.headers, request.query), request.ip);
          request.caller = caller;
          request.chargeMore = (cost: number) => (cost > 0 ? charge(opts.limiter, network.name, caller, cost) : Promise.resolve());
          await charge(opts.limiter, network.name, caller, 1);
        });
        await group.routes(scope, network);
      },
      { prefix },
    );
  });
}

/** Builds the fastify instance; call `.listen()` or `.inject()` on it. */
export function buildServer(options: ServerOptions): FastifyInstance {
  if (options.networks.length === 0) throw new Error('buildServer: at least one network is required');
  const names = new Set<string>();
  for (const n of options.networks) {
    if (names.has(n.name)) throw new Error(`buildServer: network "${n.name}" listed twice`);
    names.add(n.name);
  }
  const app = Fastify({
    logger: options.logger ?? false,
    trustProxy: options.trustProxy ?? false,
    bodyLimit: options.bodyLimit ?? 4 * 1024 * 1024,
    // Query arrays by repeating keys (`?libraries=a&libraries=b`); fastify's default parser does that.
  });
  app.decorateRequest('caller', null);
  app.decorateRequest('network', null);
  app.decorateRequest('chargeMore', async () => undefined);
  const resolved: Required<Pick<ServerOptions, 'networks' | 'keys' | 'limiter'>> = {
    networks: options.networks,
    keys: options.keys ?? new KeyStore(),
    limiter: options.limiter ?? new MemoryRateLimiter(),
  };
  app.get('/healthcheck', async () => ({
    ok: true,
    networks: options.networks.map((n, i) => ({ name: n.name, base: basePathOf(n, i) || '/' })),
  }));
  app.setNotFoundHandler((request, reply) => reply.code(404).send({ ok: false, code: 404, error: `not found: ${request.method} ${request.url.split('?')[0]}` }));
  app.setErrorHandler((err, request, reply) => {
    const e = toApiError(err, request);
    reply.code(e.status).send({ ok: false, code: e.status, error: e.message });
  });
  for (const p of options.plugins ?? []) app.register(p.plugin, p.opts ?? {});
  for (const group of options.groups ?? []) registerGroup(app, resolved, group);
  app.addHook('onClose', async () => {
    await resolved.limiter.close?.();
  });
  return app;
}
