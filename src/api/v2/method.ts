import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { ApiError, badParam } from '../errors.ts';
import type { NetworkContext } from '../server.ts';
import { AddressError, HashError } from '../../format/index.ts';
import { StackError, TvmError } from '../../tvm/index.ts';
import { LiteServerError, NodeTimeoutError, type NodeClient } from './node.ts';
import type { ConfigCache } from './chain.ts';
import type { RenderCtx } from './convert.ts';
import { ProofError } from './proofs.ts';

export interface V2Context {
  network: NetworkContext;
  render: RenderCtx;
  request: FastifyRequest | null;
  /** The network's liteservers; getters throw 503 when the network has none configured. */
  node(): NodeClient;
  /** Config dictionaries by block, kept where the network's API v2 was mounted. */
  configs: ConfigCache;
}

/** One API v2 method: served at `/api/v2/<name>` and as jsonRPC method `<name>`. */
export interface V2Method<S extends z.ZodType = z.ZodType> {
  name: string;
  /** GET and POST for reads; POST only for send / run / estimate. */
  post_only?: boolean;
  params: S;
  run(ctx: V2Context, params: z.output<S>): Promise<unknown>;
}

export function defineMethod<S extends z.ZodType>(m: V2Method<S>): V2Method {
  return m as unknown as V2Method;
}

/**
 * Status of an error the liteserver (or tonlib's own work: proofs, the TVM) answered. ton-http-api-cpp passes
 * tonlib's code through, and tonlib reports liteserver errors as 500 `LITE_SERVER_<CODE>: ...`
 * (TonlibError.h; the published v2 docs list the same); 542 is its code for "no liteserver available".
 */
export const LITE_SERVER_STATUS = 500;

/** Domain errors -> API errors (v2 codes). */
export function toV2Error(err: unknown): unknown {
  // A proof that does not check is tonlib's 500 `LITE_SERVER_UNKNOWN: got invalid proof` (proofs.ts builds the text).
  if (err instanceof ProofError) return new ApiError(LITE_SERVER_STATUS, err.message);
  if (err instanceof ApiError) return err;
  if (err instanceof NodeTimeoutError) return new ApiError(504, 'node network timeout');
  if (err instanceof LiteServerError) return new ApiError(LITE_SERVER_STATUS, `LITE_SERVER_UNKNOWN: ${err.message}`);
  if (err instanceof StackError) return badParam('stack', err.message);
  if (err instanceof AddressError) return badParam('address', err.message);
  if (err instanceof HashError) return badParam('hash', err.message);
  if (err instanceof TvmError) return new ApiError(LITE_SERVER_STATUS, `TVM emulator: ${err.message}`);
  return err;
}
