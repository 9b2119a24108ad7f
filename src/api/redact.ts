/**
 * API keys never reach the logs: the request serializer prints the URL with `api_key` blanked, the error serializer
 * scrubs `api_key=` from messages and stacks, and pino's redaction blanks the `X-API-Key` and `Authorization` (and
 * cookie) headers wherever a log line carries request headers.
 */
import type { FastifyRequest } from 'fastify';
import pino from 'pino';

export const REDACTED = 'REDACTED';

/** Query parameter names that carry a secret (compared after percent-decoding, as the query parser does). */
const SECRET_PARAMS = new Set(['api_key']);

function decoded(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/** `url` with the value of every secret query parameter replaced by REDACTED. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const hash = url.indexOf('#', q);
  const query = url.slice(q + 1, hash < 0 ? undefined : hash);
  const parts = query.split('&').map((p) => {
    const eq = p.indexOf('=');
    const name = eq < 0 ? p : p.slice(0, eq);
    return SECRET_PARAMS.has(decoded(name).trim().toLowerCase()) ? `${name}=${REDACTED}` : p;
  });
  return `${url.slice(0, q + 1)}${parts.join('&')}${hash < 0 ? '' : url.slice(hash)}`;
}

/** `api_key=<value>` anywhere in a text (an error message or stack that quotes a URL). */
export function redactText(text: string): string {
  return text.replace(/(api(?:_|%5F)key=)[^&\s"'#]*/gi, `$1${REDACTED}`);
}

/** pino's error serializer, its message and stack scrubbed (an error may quote the URL it failed on). */
function serializeError(err: Error): Record<string, unknown> {
  const out = pino.stdSerializers.err(err) as unknown as Record<string, unknown>;
  for (const k of ['message', 'stack']) if (typeof out[k] === 'string') out[k] = redactText(out[k]);
  return out;
}

const HEADER_PATHS = ['x-api-key', 'authorization', 'cookie', 'proxy-authorization'].flatMap((h) => [`req.headers["${h}"]`, `headers["${h}"]`, `*.headers["${h}"]`]);

/** Fastify's request serializer, the URL redacted. */
function serializeRequest(req: FastifyRequest) {
  return {
    method: req.method,
    url: redactUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket ? req.socket.remotePort : undefined,
  };
}

/** The server's logger option with the redaction added (false stays false; `true` means pino's defaults). */
export function withRedaction(logger: boolean | Record<string, unknown>): false | Record<string, unknown> {
  if (logger === false) return false;
  const opts = logger === true ? {} : logger;
  const given = opts.redact as { paths?: string[] } | string[] | undefined;
  const paths = Array.isArray(given) ? given : (given?.paths ?? []);
  return {
    ...opts,
    serializers: { ...(opts.serializers as Record<string, unknown> | undefined), req: serializeRequest, err: serializeError },
    redact: { paths: [...paths, ...HEADER_PATHS], censor: REDACTED },
  };
}
