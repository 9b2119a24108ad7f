/**
 * Fetching one off-chain metadata document: URI resolution (http/https, ipfs:// through a gateway), a per-host
 * rate limit, a timeout over the whole exchange, a size cap on the body, and a JSON-object check. Failures say
 * whether trying again later can help (network errors, timeouts, 408/429/5xx) or not (4xx, too large, not JSON).
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export class FetchError extends Error {
  constructor(
    message: string,
    /** a later attempt may succeed */
    readonly transient: boolean,
  ) {
    super(message);
    this.name = 'FetchError';
  }
}

/** Requests to one host are spaced 1/rps seconds apart (in the order they ask), other hosts are not held up. */
export class HostRateLimiter {
  private readonly next = new Map<string, number>();
  private readonly chain = new Map<string, Promise<void>>();

  constructor(
    private readonly rps: number,
    private readonly clock: Clock = realClock,
  ) {
    if (!(rps > 0)) throw new Error('rate must be positive');
  }

  acquire(host: string): Promise<void> {
    const prev = this.chain.get(host) ?? Promise.resolve();
    const mine = prev.then(async () => {
      const now = this.clock.now();
      const at = this.next.get(host) ?? now;
      if (at > now) await this.clock.sleep(at - now);
      this.next.set(host, Math.max(at, now) + 1000 / this.rps);
    });
    this.chain.set(host, mine);
    return mine;
  }
}

/** ipfs://CID/path -> <gateway>/ipfs/CID/path; http(s) as is; anything else is refused. */
export function resolveUri(uri: string, ipfsGateway: string): URL {
  const u = uri.trim();
  const ipfs = /^ipfs:\/\/(?:ipfs\/)?(.+)$/i.exec(u);
  let url: URL;
  try {
    url = ipfs ? new URL(`${ipfsGateway.replace(/\/+$/, '')}/ipfs/${ipfs[1]}`) : new URL(u);
  } catch {
    throw new FetchError(`not a URI: ${JSON.stringify(u.slice(0, 100))}`, false);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FetchError(`unsupported URI scheme ${url.protocol}`, false);
  return url;
}

function isPrivateAddress(ip: string): boolean {
  if (isIP(ip) === 4) {
    const [a, b] = ip.split('.').map(Number);
    return a === 10 || a === 127 || a === 0 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127);
  }
  const l = ip.toLowerCase();
  return l === '::1' || l === '::' || l.startsWith('fc') || l.startsWith('fd') || l.startsWith('fe80') || l.startsWith('::ffff:127.') || l.startsWith('::ffff:10.') || l.startsWith('::ffff:192.168.');
}

/**
 * Content URIs come from anyone's contract: by default a host that is, or resolves to, a loopback / private /
 * link-local address is refused (checked before connecting; redirects are not re-checked).
 */
async function checkHost(url: URL): Promise<void> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addrs = isIP(host) ? [host] : (await lookup(host, { all: true }).catch(() => [])).map((a) => a.address);
  if (addrs.length === 0) throw new FetchError(`cannot resolve ${host}`, true);
  if (addrs.some(isPrivateAddress)) throw new FetchError(`${host} is a private address`, false);
}

export interface FetchJsonOptions {
  timeoutMs: number;
  maxBytes: number;
  allowPrivateHosts: boolean;
  userAgent?: string;
}

/** GETs `url` and parses a JSON object from a body of at most `maxBytes`, all within `timeoutMs`. */
export async function fetchJsonObject(url: URL, opts: FetchJsonOptions): Promise<Record<string, unknown>> {
  if (!opts.allowPrivateHosts) await checkHost(url);
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(), opts.timeoutMs);
  let text: string;
  try {
    let res: Response;
    try {
      res = await fetch(url, { signal: ac.signal, redirect: 'follow', headers: { accept: 'application/json', 'user-agent': opts.userAgent ?? 'ton-gateway-metadata' } });
    } catch (e) {
      throw new FetchError(ac.signal.aborted ? `timeout after ${opts.timeoutMs} ms` : `request failed: ${(e as Error).message}`, true);
    }
    if (!res.ok) {
      await res.body?.cancel().catch(() => undefined);
      const transient = res.status === 408 || res.status === 429 || res.status >= 500;
      throw new FetchError(`HTTP ${res.status}`, transient);
    }
    const declared = Number(res.headers.get('content-length') ?? NaN);
    if (declared > opts.maxBytes) {
      await res.body?.cancel().catch(() => undefined);
      throw new FetchError(`body of ${declared} bytes is over the ${opts.maxBytes}-byte limit`, false);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of res.body ?? []) {
        size += (chunk as Uint8Array).byteLength;
        if (size > opts.maxBytes) {
          ac.abort();
          throw new FetchError(`body is over the ${opts.maxBytes}-byte limit`, false);
        }
        chunks.push(Buffer.from(chunk as Uint8Array));
      }
    } catch (e) {
      if (e instanceof FetchError) throw e;
      throw new FetchError(ac.signal.aborted ? `timeout after ${opts.timeoutMs} ms` : `reading the body failed: ${(e as Error).message}`, true);
    }
    text = Buffer.concat(chunks).toString('utf8');
  } finally {
    clearTimeout(timer);
  }
  let v: unknown;
  try {
    v = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    throw new FetchError('not JSON', false);
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new FetchError('not a JSON object', false);
  return v as Record<string, unknown>;
}
