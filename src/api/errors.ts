/**
 * The one error type of the HTTP layer. Route code throws ApiError (or a domain error the mappers below
 * know); the server's error handler renders it in the envelope of the route group (v2: `{ok:false, code,
 * error}`, v3: `{code, error}`). Anything else becomes a generic 500 without internals.
 */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly opts: { retryAfterSec?: number; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** 422 with the parameter name first: `failed to parse <param>: <why>`. */
export function badParam(param: string, why?: string): ApiError {
  return new ApiError(422, why ? `failed to parse ${param}: ${why}` : `failed to parse ${param}`);
}

export function unknownParams(names: string[]): ApiError {
  return new ApiError(422, `unknown parameter${names.length > 1 ? 's' : ''}: ${names.join(', ')}`);
}

export function notFound(what: string): ApiError {
  return new ApiError(404, what);
}

export const UNAUTHORIZED_MESSAGE = 'API key does not exist';
export const FORBIDDEN_NETWORK_MESSAGE = 'Network not allowed';
export const RATE_LIMIT_MESSAGE = 'Ratelimit exceeded';
export const TIMEOUT_MESSAGE = 'node network timeout';

export function unauthorized(): ApiError {
  return new ApiError(401, UNAUTHORIZED_MESSAGE);
}

export function forbiddenNetwork(): ApiError {
  return new ApiError(403, FORBIDDEN_NETWORK_MESSAGE);
}

export function rateLimited(retryAfterSec: number): ApiError {
  return new ApiError(429, RATE_LIMIT_MESSAGE, { retryAfterSec });
}

export function nodeTimeout(): ApiError {
  return new ApiError(504, TIMEOUT_MESSAGE);
}

/** Fastify's own errors that are the client's fault, mapped to clear messages. */
export function fromFastifyError(err: { statusCode?: number; code?: string; message?: string }): ApiError | null {
  const code = err.code ?? '';
  if (code === 'FST_ERR_CTP_INVALID_JSON_BODY' || code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || (err.statusCode === 400 && /JSON/i.test(err.message ?? ''))) {
    return new ApiError(422, 'failed to parse request body: invalid JSON');
  }
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return new ApiError(415, 'unsupported content type: send application/json');
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new ApiError(413, 'request body too large');
  if (code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH') return new ApiError(400, 'invalid Content-Length');
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) return new ApiError(err.statusCode, err.message ?? 'bad request');
  return null;
}
