/**
 * Per-request access control shared by API v2 and v3: the key (X-API-Key header or api_key query),
 * the network the key may use, and the rate limit (per key, or per client IP without a key).
 */
import { forbiddenNetwork, rateLimited, unauthorized } from '../errors.ts';
import { planAllows, type KeyStore, type Plan } from './keys.ts';
import type { RateLimiter } from './rate-limit.ts';

export interface Caller {
  /** Key digest (sha256 hex) or null for anonymous callers. */
  keyHash: string | null;
  keyName: string | null;
  plan: Plan;
  ip: string;
}

export function apiKeyOf(headers: Record<string, unknown>, query: unknown): string | null {
  const h = headers['x-api-key'];
  if (typeof h === 'string' && h.length > 0) return h;
  if (query && typeof query === 'object') {
    const q = (query as Record<string, unknown>).api_key;
    if (typeof q === 'string' && q.length > 0) return q;
    if (Array.isArray(q) && typeof q[0] === 'string') return q[0];
  }
  return null;
}

/** Resolves the caller; throws 401 (unknown key) or 403 (network not allowed). */
export function identify(keys: KeyStore, network: string, apiKey: string | null, ip: string): Caller {
  if (apiKey === null) {
    if (!planAllows(keys.anonymous, network)) throw forbiddenNetwork();
    return { keyHash: null, keyName: null, plan: keys.anonymous, ip };
  }
  const entry = keys.lookup(apiKey);
  if (!entry) throw unauthorized();
  if (!planAllows(entry.plan, network)) throw forbiddenNetwork();
  return { keyHash: entry.hash, keyName: entry.name, plan: entry.plan, ip };
}

/** Takes `cost` tokens for the caller on this network; throws 429 with Retry-After when empty. */
export async function charge(limiter: RateLimiter, network: string, caller: Caller, cost = 1): Promise<void> {
  const bucket = caller.keyHash ? `${network}:key:${caller.keyHash}` : `${network}:ip:${caller.ip}`;
  const r = await limiter.take(bucket, caller.plan.rps, cost);
  if (!r.ok) throw rateLimited(Math.max(1, Math.ceil(r.retryAfterMs / 1000)));
}
