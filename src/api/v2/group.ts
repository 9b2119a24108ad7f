/**
 * API v2 route group: every method at `/api/v2/<name>` (GET with query parameters and POST with a JSON
 * body for reads; POST only for send / run / estimate), plus `POST /api/v2/jsonRPC` (single or batch).
 * Envelope `{ok: true, result, "@extra"}`; errors `{ok: false, code, error}` with code = HTTP status.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.ts';
import type { NetworkContext, RouteGroup } from '../server.ts';
import type { V2Method } from './method.ts';
import { newConfigCache } from './chain.ts';
import { callMethod, extraOf, makeContext } from './dispatch.ts';
import { ALL_METHODS } from './methods/index.ts';
import { handleJsonRpc } from './jsonrpc.ts';

/**
 * `X-API-Version` of API v2: ton-http-api-cpp's own default tag (`API_VERSION_TAG`, 2.1), the server whose route set,
 * parameters and status codes this API follows (the Python ton-http-api sends 2.0.0 and lacks the 2.1 methods). A
 * client that tells the two servers apart by this header sees the one it is talking to; no toncenter patch release is
 * claimed (README, "Differences from toncenter").
 */
export const API_V2_VERSION = '2.1';

function mergeParams(request: FastifyRequest): unknown {
  const query = (request.query ?? {}) as Record<string, unknown>;
  if (request.method === 'GET') return query;
  const body = request.body;
  if (body === undefined || body === null || body === '') return query;
  if (typeof body !== 'object' || Array.isArray(body)) throw new ApiError(422, 'failed to parse request body: expected a JSON object');
  return { ...query, ...(body as Record<string, unknown>) };
}

export interface V2GroupOptions {
  methods?: V2Method[];
}

export function v2Group(opts: V2GroupOptions = {}): RouteGroup {
  const methods = opts.methods ?? ALL_METHODS;
  const byName = new Map(methods.map((m) => [m.name, m]));
  return {
    name: 'v2',
    prefix: '/api/v2',
    apiVersion: API_V2_VERSION,
    renderError: (error: ApiError) => {
      const body: Record<string, unknown> = { ok: false, code: error.status, error: error.message, '@extra': `${Math.floor(Date.now() / 1000)}:_:0` };
      // Clients of the public service read the 429 text from `result` (yungwine/TonTools#20): send both.
      if (error.status === 429) body.result = error.message;
      return body;
    },
    routes(app: FastifyInstance, network: NetworkContext) {
      // this network's caches, made as its routes are mounted: two networks or two servers share none
      const configs = newConfigCache();
      for (const m of methods) {
        const handler = async (request: FastifyRequest) => {
          const started = performance.now();
          const result = await callMethod(m, makeContext(network, request, configs), mergeParams(request));
          return { ok: true, result, '@extra': extraOf(started) };
        };
        app.post(`/${m.name}`, handler);
        if (m.post_only) {
          app.get(`/${m.name}`, async () => {
            throw new ApiError(405, `${m.name} accepts POST only (JSON body)`);
          });
        } else {
          app.get(`/${m.name}`, handler);
        }
      }
      app.post('/jsonRPC', async (request, reply) => {
        const { status, body } = await handleJsonRpc(byName, makeContext(network, request, configs), request.body, (n) => request.chargeMore(n));
        reply.code(status);
        return body;
      });
      app.get('/jsonRPC', async () => {
        throw new ApiError(405, 'jsonRPC accepts POST only');
      });
      app.get('/healthcheck', async () => ({ ok: true, result: 'OK', '@extra': extraOf(performance.now()) }));
    },
  };
}
