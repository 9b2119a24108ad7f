/**
 * Token buckets: capacity = rps (one second of burst, at least one token), refilled continuously at rps tokens
 * per second. The clock is injectable so tests drive time. In-memory for one process; RedisRateLimiter shares
 * buckets between API processes (same rule, one Lua script).
 *
 * A request costing more than one token (a jsonRPC batch: one per call) is admitted when the bucket holds
 * min(cost, capacity) tokens and may leave it in debt (below zero): a full bucket admits any batch, and the
 * caller's next request waits until the debt is paid at the plan's rate. So every call is paid for (the average
 * never exceeds rps) and a batch larger than the burst is possible.
 */

export type Clock = () => number;

export type TakeResult = { ok: true; remaining: number } | { ok: false; retryAfterMs: number };

export interface RateLimiter {
  /**
   * Takes `cost` tokens from bucket `key` refilled at `rps`. `prepaid`: tokens the same request already took
   * (its first token, taken before the body was read); admission looks at the bucket as it was before them.
   */
  take(key: string, rps: number, cost?: number, prepaid?: number): Promise<TakeResult>;
  close?(): Promise<void>;
}

interface Bucket {
  tokens: number;
  at: number;
  rps: number;
}

/** The bucket rule shared by both limiters (the Redis script implements the same lines). */
export function takeFrom(b: { tokens: number; at: number } | undefined, now: number, rps: number, cost: number, prepaid: number): { tokens: number; result: TakeResult } {
  const capacity = Math.max(rps, 1);
  const before = b ? Math.min(capacity, b.tokens + (Math.max(0, now - b.at) * rps) / 1000) : capacity;
  const need = Math.min(cost + prepaid, capacity) - prepaid;
  if (before >= need) {
    const tokens = before - cost;
    return { tokens, result: { ok: true, remaining: Math.max(0, Math.floor(tokens)) } };
  }
  // refused: the request's prepaid tokens go back (a refused request costs nothing, a refused batch included)
  const refunded = Math.min(capacity, before + prepaid);
  return { tokens: refunded, result: { ok: false, retryAfterMs: Math.ceil(((need + prepaid - refunded) * 1000) / rps) } };
}

export class MemoryRateLimiter implements RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private lastSweep = 0;

  constructor(private readonly clock: Clock = Date.now) {}

  async take(key: string, rps: number, cost = 1, prepaid = 0): Promise<TakeResult> {
    return this.takeSync(key, rps, cost, prepaid);
  }

  takeSync(key: string, rps: number, cost = 1, prepaid = 0): TakeResult {
    const now = this.clock();
    this.sweep(now);
    const { tokens, result } = takeFrom(this.buckets.get(key), now, rps, cost, prepaid);
    this.buckets.set(key, { tokens, at: now, rps });
    return result;
  }

  /** Drops buckets that are full again (a bucket in debt is kept until paid), so memory stays bounded by active clients. */
  private sweep(now: number): void {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    for (const [k, b] of this.buckets) {
      if (b.tokens + ((now - b.at) * b.rps) / 1000 >= Math.max(b.rps, 1)) this.buckets.delete(k);
    }
  }

  get size(): number {
    return this.buckets.size;
  }
}
