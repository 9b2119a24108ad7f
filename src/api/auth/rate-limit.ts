/**
 * Token buckets: capacity = rps (one second of burst), refilled continuously at rps tokens per second.
 * The clock is injectable so tests drive time. In-memory for one process; RedisRateLimiter shares
 * buckets between API processes.
 */

export type Clock = () => number;

export type TakeResult = { ok: true; remaining: number } | { ok: false; retryAfterMs: number };

export interface RateLimiter {
  /** Takes `cost` tokens from bucket `key` refilled at `rps`. */
  take(key: string, rps: number, cost?: number): Promise<TakeResult>;
  close?(): Promise<void>;
}

interface Bucket {
  tokens: number;
  at: number;
}

export class MemoryRateLimiter implements RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private lastSweep = 0;

  constructor(private readonly clock: Clock = Date.now) {}

  async take(key: string, rps: number, cost = 1): Promise<TakeResult> {
    return this.takeSync(key, rps, cost);
  }

  takeSync(key: string, rps: number, cost = 1): TakeResult {
    const now = this.clock();
    this.sweep(now);
    const capacity = Math.max(rps, cost);
    const b = this.buckets.get(key) ?? { tokens: capacity, at: now };
    const elapsed = Math.max(0, now - b.at);
    b.tokens = Math.min(capacity, b.tokens + (elapsed * rps) / 1000);
    b.at = now;
    this.buckets.set(key, b);
    if (b.tokens >= cost) {
      b.tokens -= cost;
      return { ok: true, remaining: Math.floor(b.tokens) };
    }
    return { ok: false, retryAfterMs: Math.ceil(((cost - b.tokens) * 1000) / rps) };
  }

  /** Drops buckets idle long enough to be full again, so memory stays bounded by active clients. */
  private sweep(now: number): void {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    for (const [k, b] of this.buckets) if (now - b.at > 60_000) this.buckets.delete(k);
  }

  get size(): number {
    return this.buckets.size;
  }
}
