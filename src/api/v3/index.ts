/**
 * API v3: the indexed API (toncenter "TON Index" compatible) read from ClickHouse.
 *
 * Use `v3Group(deps)` with the server shell (`buildServer({ groups: [v3Group(deps)] })`), or
 * `registerV3(app, deps)` to mount the routes on a bare fastify instance (prefix `/api/v3`).
 * Errors are `{code, error}`; unknown query parameters, bad values and limits above 1000 are 422.
 */
import { createApiCaches } from './caches.ts';
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { RouteGroup } from '../server.ts';
import { ApiError } from '../errors.ts';
import type { V3Deps } from './route.ts';
import { blockRoutes } from './routes/blocks.ts';
import { transactionRoutes } from './routes/transactions.ts';
import { accountRoutes } from './routes/accounts.ts';
import { entityRoutes } from './routes/entities.ts';
import { traceRoutes } from './routes/traces.ts';
import { decodeRoutes } from './routes/decode.ts';
import { legacyRoutes } from './routes/legacy.ts';
import { balanceChangesRoutes } from './routes/balance-changes.ts';
import { validatorRoutes } from './routes/validators.ts';
import { stakingRoutes } from './routes/staking.ts';
import { docsRoutes } from './docs-page.ts';

export type { V3Deps, LegacyNode, EmulatedPending, RenderedPending } from './route.ts';
export { Db, type Row } from './db.ts';
// the reads and renderers the streaming API (src/api/streaming) shares with the routes
export { loadWithDocs } from './queries/transactions.ts';
// the body decoder, which an API worker warms before it listens (../cluster.ts)
export { decodeOpcode } from './decode/index.ts';
export { actionAddresses, actionJson, supportedTypes } from './actions.ts';
export { accountStateJson, transactionAddresses, transactionsJson } from './render.ts';
export { bookAndMetadata, type Metadata } from './address-book.ts';
export { MAX_TRACE_TXS, traceJson } from './routes/traces.ts';
export { jettonWalletJson } from './routes/entities.ts';

export const API_V3_VERSION = '1.2.6';

/** Adds every v3 route, the OpenAPI document (`/openapi.json`) and the docs page (`/`) to `app` (already prefixed). */
export async function v3Routes(app: FastifyInstance, given: V3Deps, opts: { docsPrefix?: string } = {}): Promise<void> {
  // one set of caches for the network's routes
  const deps: V3Deps = { ...given, caches: given.caches ?? createApiCaches() };
  // Query strings are validated by parseQuery (strict, named 422s); zod schemas here only document.
  app.setValidatorCompiler(() => (data) => ({ value: data }));
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'ton-gateway API v3 (indexed)',
        version: deps.apiVersion ?? API_V3_VERSION,
        description:
          'Indexed TON data read from ClickHouse, compatible with toncenter API v3 and strict where it is sloppy: unknown parameters, ' +
          'limits above 1000, bad sort values and malformed addresses or hashes are 422 `{code, error}` naming the parameter. ' +
          'Addresses in any form in, raw `wc:HEX` out (user-friendly forms in address_book); hashes hex/base64/base64url in, base64 out; ' +
          '64-bit values as decimal strings. Lists page with limit/offset over a total, stable order (lt, account, hash); use lt/utime windows for deep history.',
      },
      servers: [{ url: opts.docsPrefix ?? '/api/v3' }],
    },
    transform: jsonSchemaTransform,
  });
  blockRoutes(app, deps);
  transactionRoutes(app, deps);
  accountRoutes(app, deps);
  entityRoutes(app, deps);
  traceRoutes(app, deps);
  balanceChangesRoutes(app, deps);
  validatorRoutes(app, deps);
  stakingRoutes(app, deps);
  decodeRoutes(app, deps);
  legacyRoutes(app, deps);
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  // the page embeds the document (renders without fetching it); `servers` above keeps its requests under the prefix
  docsRoutes(app, () => app.swagger(), 'ton-gateway API v3');
}

/** The v3 route group for the server shell (`buildServer({ groups: [...] })`). */
export function v3Group(deps: V3Deps | ((network: { name: string; testnet: boolean; services: Record<string, unknown> }) => V3Deps)): RouteGroup {
  return {
    name: 'v3',
    prefix: '/api/v3',
    apiVersion: typeof deps === 'function' ? API_V3_VERSION : (deps.apiVersion ?? API_V3_VERSION),
    renderError: (error: ApiError) => ({ code: error.status, error: error.message }),
    async routes(app, network) {
      const d = typeof deps === 'function' ? deps(network) : { testnet: network.testnet, ...deps };
      // the scope's own prefix, e.g. /api/v3 or /testnet/api/v3
      await v3Routes(app, d, { docsPrefix: app.prefix });
    },
  };
}

/** Mounts API v3 on a bare fastify instance at `/api/v3` (without the shell's auth and limits). */
export async function registerV3(app: FastifyInstance, deps: V3Deps): Promise<void> {
  await app.register(
    async (scope) => {
      scope.addHook('onRequest', async (_req, reply) => {
        reply.header('X-API-Version', deps.apiVersion ?? API_V3_VERSION);
      });
      scope.setErrorHandler((err, _req, reply) => {
        const e = err instanceof ApiError ? err : new ApiError(500, 'internal error');
        reply.code(e.status).send({ code: e.status, error: e.message });
      });
      await v3Routes(scope, deps);
    },
    { prefix: '/api/v3' },
  );
}
