/**
 * Route helper of API v3: one call declares a GET (or POST) route with its parameter spec, response
 * schema and docs; the handler receives parsed parameters and a per-request Db (timeout applied).
 */
import type { ApiCaches } from './caches.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { StoreClient } from '../../store/client/index.ts';
import type { PointReads } from '../../kv/index.ts';
import { ApiError } from '../errors.ts';
import { Db, DEFAULT_TIMEOUT_MS, type Row } from './db.ts';
import { parseQuery, querySchema, type CommonParams, type Page, type ParamDef, type ParamsOf, type ParamSpec } from './params.ts';
import { ErrorResponse } from '../../../schemas/api/v3/entities.ts';

/** Optional node-layer functions for the legacy group (provided by the API v2 stage). */
export interface LegacyNode {
  runGetMethod?(req: { address: string; method: string; stack: unknown[] }): Promise<unknown>;
  estimateFee?(req: { address: string; body: string; init_code?: string; init_data?: string; ignore_chksig?: boolean }): Promise<unknown>;
  sendMessage?(boc: string): Promise<{ message_hash: string; message_hash_norm: string }>;
  /** Latest masterchain seqno of the network (lag in indexStatus). */
  lastMcSeqno?(): Promise<number | null>;
}

export interface V3Deps {
  store: StoreClient;
  /** Lookups by key (src/kv): given to API processes that read the key-value store beside an IPC store; default: the store's own. */
  points?: PointReads;
  /** Friendly addresses get the testnet flag. */
  testnet?: boolean;
  node?: LegacyNode;
  /** Emulated traces of the messages sent (src/emulate, src/api/emulate): the pending routes serve them first. */
  emulation?: EmulatedPending;
  /** Version sent in X-API-Version. */
  apiVersion?: string;
  /** The network's caches (caches.ts), shared by its routes; made when the routes are mounted. */
  caches?: ApiCaches;
}

/** One emulated trace as the pending routes render it (src/api/emulate/render.ts). */
export interface RenderedPending {
  /** /traces' trace object in upstream's pending shape, without actions */
  trace: Record<string, unknown>;
  /** its transactions (emulated: true), lt ascending */
  txs: Record<string, unknown>[];
  /** its action rows, of the supported types */
  actionRows: Row[];
  addrs: string[];
}

/** The emulated traces the pending routes serve before the indexed ones: one page over both. */
export interface EmulatedPending {
  page(db: Db, q: { accounts?: readonly string[]; hashes?: readonly string[] }, pg: Page, supported: ReadonlySet<string>): Promise<{ rendered: RenderedPending[]; rest: Page }>;
}

/** What a handler gets: `q` is the query parsed and typed by the route's spec (ParamsOf). */
export interface Ctx<Q = CommonParams> {
  q: Q;
  db: Db;
  testnet: boolean;
  /** X-No-Address-Book / x_no_address_book */
  noBook: boolean;
  /** X-No-Metadata / x_no_metadata */
  noMeta: boolean;
  request: FastifyRequest;
  deps: V3Deps;
}

/**
 * A response body already serialized as JSON: for integers beyond 2^53 that the contract renders as JSON
 * numbers (JSON.stringify would round them). Handlers return it instead of an object.
 */
export class RawJson {
  constructor(readonly text: string) {}
}

export interface RouteDef<P extends ParamSpec = ParamSpec> {
  method?: 'GET' | 'POST';
  url: string;
  tags: string[];
  summary: string;
  description?: string;
  /** The query parameters; their parsed types reach the handler (write the spec inline, or declare it `satisfies ParamSpec`). */
  params?: P;
  /** POST: zod body schema (validated by the handler through `body`). */
  body?: z.ZodType;
  response: z.ZodType;
  /** What a 200 answer holds, for the OpenAPI document (default: the summary). */
  responseDescription?: string;
  handler(ctx: Ctx<ParamsOf<P>>): Promise<unknown>;
}

const ERROR_422 = ErrorResponse.describe('Bad input: `error` names the parameter that is unknown, malformed, repeated or out of range');
const ERROR_404 = ErrorResponse.describe('Nothing matches (routes that look up one object)');
const ERROR_504 = ErrorResponse.describe('The store did not answer within the timeout (X-Timeout / x_timeout, default 3 s)');

function headerFlag(request: FastifyRequest, header: string, q: unknown): boolean {
  if (q === true) return true;
  const h = request.headers[header];
  const v = Array.isArray(h) ? h[0] : h;
  return v !== undefined && ['1', 'true', 'True', 'TRUE', 't', 'on', 'yes'].includes(v.trim());
}

/**
 * The request's statement timeout: x_timeout or X-Timeout, capped at 3000 ms. Zero is refused: a statement given no
 * time fails at once, so every route would answer 504 (the reference's context expires at once too) for what is the
 * caller's mistake.
 */
function timeoutOf(request: FastifyRequest, q: CommonParams): number {
  const h = request.headers['x-timeout'];
  let ms = q.x_timeout;
  if (ms === 0) throw new ApiError(422, 'invalid x_timeout: must be a positive number of milliseconds');
  if (ms === undefined && h !== undefined) {
    const v = Array.isArray(h) ? h[0] : h;
    if (!/^\d{1,9}$/.test(v.trim())) throw new ApiError(422, 'invalid X-Timeout header: want milliseconds');
    ms = Number(v);
    if (ms === 0) throw new ApiError(422, 'invalid X-Timeout header: must be a positive number of milliseconds');
  }
  return Math.min(ms ?? DEFAULT_TIMEOUT_MS, DEFAULT_TIMEOUT_MS);
}

/**
 * X-Debug-Request / x_debug_request: the reference logs each statement it runs for the request; so does this
 * (info level, with the request id). Bound parameters stay out of the text, so no input reaches the log raw.
 */
function debugStatements(db: Db, request: FastifyRequest): void {
  const run = db.q.bind(db);
  db.q = ((sql: string, params?: Parameters<Db['q']>[1]) => {
    request.log.info({ sql: sql.replace(/\s+/g, ' ').trim() }, 'x_debug_request statement');
    return run(sql, params);
  }) as Db['q'];
}

/** Declares a route; the handler's `ctx.q` is typed from `def.params` (ParamsOf), so handlers need no casts. */
export function addRoute<const P extends ParamSpec = Record<never, ParamDef>>(app: FastifyInstance, deps: V3Deps, def: RouteDef<P>): void {
  const spec = (def.params ?? {}) as P;
  const baseDb = new Db(deps.store, undefined, undefined, deps.points, deps.caches);
  app.route({
    method: def.method ?? 'GET',
    url: def.url,
    schema: {
      tags: def.tags,
      summary: def.summary,
      description: def.description,
      ...(def.method === 'POST' ? { body: def.body } : { querystring: querySchema(spec) }),
      // each status described (the OpenAPI document's response descriptions; without one the docs say "Default Response")
      response: {
        200: def.response.describe(def.responseDescription ?? def.summary),
        422: ERROR_422,
        404: ERROR_404,
        504: ERROR_504,
      },
    },
    handler: async (request, reply) => {
      const t0 = performance.now();
      const q = parseQuery(spec, request.query);
      const db = baseDb.withTimeout(timeoutOf(request, q), (err, sql) => request.log.error({ err, sql: sql.slice(0, 500) }, 'v3 query failed'));
      const noBook = headerFlag(request, 'x-no-address-book', q.x_no_address_book);
      if (headerFlag(request, 'x-debug-request', q.x_debug_request)) debugStatements(db, request);
      const result = await def.handler({
        q,
        db,
        testnet: deps.testnet ?? false,
        noBook,
        noMeta: headerFlag(request, 'x-no-metadata', q.x_no_metadata),
        request,
        deps,
      });
      reply.header('Server-Timing', `app;dur=${(performance.now() - t0).toFixed(1)}`);
      if (result instanceof RawJson) {
        // a string with a JSON content type is sent as is (no serializer)
        reply.type('application/json; charset=utf-8');
        return result.text;
      }
      return result;
    },
  });
}
