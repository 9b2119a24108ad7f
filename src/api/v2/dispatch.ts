/** Running one API v2 method: context, parameter validation, domain error mapping. */
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../errors.ts';
import type { NetworkContext } from '../server.ts';
import type { ConfigCache } from './chain.ts';
import { toV2Error, type V2Context, type V2Method } from './method.ts';
import type { NodeClient } from './node.ts';
import { parseParams } from './validate.ts';

export function extraOf(started: number): string {
  return `${Math.floor(Date.now() / 1000)}:_:${(performance.now() - started).toFixed(3)}`;
}

export function makeContext(network: NetworkContext, request: FastifyRequest | null, configs: ConfigCache): V2Context {
  return {
    network,
    request,
    configs,
    render: { testnet: network.testnet },
    node() {
      const node = network.services.node as NodeClient | undefined;
      if (!node) throw new ApiError(503, `no liteservers are configured for network ${network.name}`);
      return node;
    },
  };
}

/** Runs one method with raw (unvalidated) parameters; throws ApiError on failure. */
export async function callMethod(method: V2Method, ctx: V2Context, raw: unknown): Promise<unknown> {
  const params = parseParams(method.params, raw);
  try {
    return await method.run(ctx, params);
  } catch (err) {
    throw toV2Error(err);
  }
}

