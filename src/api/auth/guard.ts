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

/** The bucket a caller's requests are counted in: its key's, whatever the network, or its address's without a key. */
export function bucketOf(caller: Pick<Caller, 'keyHash' | 'ip'>): string {
  return caller.keyHash ? `key:${caller.keyHash}` : `ip:${caller.ip}`;
}

async function take(limiter: RateLimiter, bucket: string, rps: number, cost: number, prepaid = 0): Promise<void> {
  const r = await limiter.take(bucket, rps, cost, prepaid);
  if (!r.ok) throw rateLimited(Math.max(1, Math.ceil(r.retryAfterMs / 1000)));
}

/**
 * Resolves the caller and charges its first token, before anything else answers: one bucket per key across every
 * network (a key allowed on two networks has its plan's rate once), one per client address without a key. An
 * unknown key is charged to its address at the anonymous rate before the 401, so guessing keys is limited too.
 * Throws 429 (with Retry-After), 401 (unknown key) or 403 (network not allowed).
 */
export async function admit(keys: KeyStore, limiter: RateLimiter, network: string, apiKey: string | null, ip: string): Promise<Caller> {
  const entry = apiKey === null ? null : keys.lookup(apiKey);
  if (apiKey !== null && !entry) {
    await take(limiter, bucketOf({ keyHash: null, ip }), keys.anonymous.rps, 1);
    throw unauthorized();
  }
  const caller: Caller = entry ? { keyHash: entry.hash, keyName: entry.name, plan: entry.plan, ip } : { keyHash: null, keyName: null, plan: keys.anonymous, ip };
  await take(limiter, bucketOf(caller), caller.plan.rps, 1);
  if (!planAllows(caller.plan, network)) throw forbiddenNetwork();
  return caller;
}

/**
 * Charges `cost` more tokens to a request already admitted (its first token paid): a jsonRPC batch of n calls
 * costs n. See rate-limit.ts for the rule that makes a batch larger than the plan's burst possible.
 */
export function chargeMore(limiter: RateLimiter, caller: Caller, cost: number): Promise<void> {
  return cost > 0 ? take(limiter, bucketOf(caller), caller.plan.rps, cost, 1) : Promise.resolve();
}
