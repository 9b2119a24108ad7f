/**
 * The HTTP server shell shared by API v2 and v3: per-network route groups, API keys, rate limits,
 * `X-API-Version`, one error handler per group (its envelope), `/healthcheck`.
 *
 * Networks are told apart by a path prefix: the first network (usually mainnet) is served at the root
 * (`/api/v2/...`, `/api/v3/...`), every other at `/<name>` (`/testnet/api/v2/...`) unless `basePath`
 * says otherwise. A reverse proxy can map a Host (testnet.example.com) onto that prefix.
 */
import type { Socket } from 'node:net';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyPluginAsync, type FastifyReply, type FastifyRequest } from 'fastify';
import { ApiError, fromFastifyError } from './errors.ts';
import { admit, apiKeyOf, chargeMore, KeyStore, MemoryRateLimiter, parseTrustedProxies, type Caller, type RateLimiter } from './auth/index.ts';
import { withRedaction } from './redact.ts';

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
  /** pino options or false. API keys are redacted from what the request logs print (see redact.ts). */
  logger?: boolean | Record<string, unknown>;
  /**
   * Addresses / CIDRs of the reverse proxies in front of the server (`127.0.0.1`, `10.0.0.0/8`, `loopback`, ...):
   * the client address, which anonymous rate limits count by, is the first hop of `X-Forwarded-For`, read from the
   * right, that is not one of them. Absent or empty: the socket's address, and the header is ignored.
   */
  trustProxy?: readonly string[];
  bodyLimit?: number;
  /** Request line + headers, in bytes. Default 128 KiB: 1,000 addresses by GET (`?address=...` repeated). */
  maxHeaderBytes?: number;
  /** Plugins registered at the root before the groups (the streaming API's WebSocket support). */
  plugins?: { plugin: FastifyPluginAsync<Record<string, unknown>>; opts?: Record<string, unknown> }[];
  /** Headers on every answer (an API worker's `x-api-worker`). */
  headers?: Record<string, string>;
}

/** Enough for the largest list a GET may carry: 1,000 raw addresses (`&address=-1%3A` + 64 hex) are 78 KB. */
export const MAX_HEADER_BYTES = 128 * 1024;

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
          const caller = await admit(opts.keys, opts.limiter, network.name, apiKeyOf(request.headers, request.query), request.ip);
          request.caller = caller;
          request.chargeMore = (cost: number) => chargeMore(opts.limiter, caller, cost);
        });
        await group.routes(scope, network);
      },
      { prefix },
    );
  });
}

/**
 * A request Node refuses before routing (headers too large, malformed HTTP, timeout), answered in the project's
 * envelope instead of Fastify's `{error, message, statusCode}`. Nothing is logged: the raw packet holds the URL and
 * its API key.
 */
function clientError(err: NodeJS.ErrnoException, socket: Socket, maxHeaderBytes: number): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', `request line and headers exceed ${maxHeaderBytes} bytes`]
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'request timeout']
        : [400, 'Bad Request', 'malformed HTTP request'];
  const body = JSON.stringify({ ok: false, code: status, error: message });
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy();
}

/** Builds the fastify instance; call `.listen()` or `.inject()` on it. */
export function buildServer(options: ServerOptions): FastifyInstance {
  if (options.networks.length === 0) throw new Error('buildServer: at least one network is required');
  const names = new Set<string>();
  for (const n of options.networks) {
    if (names.has(n.name)) throw new Error(`buildServer: network "${n.name}" listed twice`);
    names.add(n.name);
  }
  const proxies = parseTrustedProxies(options.trustProxy ?? []);
  const maxHeaderBytes = options.maxHeaderBytes ?? MAX_HEADER_BYTES;
  const app = Fastify({
    logger: withRedaction(options.logger ?? false),
    // proxy-addr's rule: from the socket's address leftwards through X-Forwarded-For, the first untrusted hop
    trustProxy: proxies.length ? proxies : false,
    bodyLimit: options.bodyLimit ?? 4 * 1024 * 1024,
    http: { maxHeaderSize: maxHeaderBytes },
    clientErrorHandler: (err: NodeJS.ErrnoException, socket: Socket) => clientError(err, socket, maxHeaderBytes),
    // Query arrays by repeating keys (`?libraries=a&libraries=b`); fastify's default parser does that.
  });
  app.decorateRequest('caller', null);
  app.decorateRequest('network', null);
  app.decorateRequest('chargeMore', async () => undefined);
  const headers = options.headers;
  if (headers && Object.keys(headers).length) {
    // on the raw response: the streaming routes write their own head (SSE), which keeps headers set so
    app.addHook('onRequest', async (_request, reply) => {
      for (const [k, v] of Object.entries(headers)) reply.raw.setHeader(k, v);
    });
  }
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
