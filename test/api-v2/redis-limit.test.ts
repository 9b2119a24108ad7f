/** Redis-backed token buckets shared by API processes; runs when REDIS_URL points at a Redis, skips otherwise. */
import { afterAll, describe, expect, it } from 'vitest';
import { RedisRateLimiter } from '../../src/api/auth/index.ts';

const url = process.env.REDIS_URL;

describe.skipIf(!url)('RedisRateLimiter', () => {
  let t = 1_000_000;
  const prefix = `ton-gateway-test:${process.pid}:${Date.now()}:`;
  const a = url ? new RedisRateLimiter(url, () => t, prefix) : null;
  const b = url ? new RedisRateLimiter(url, () => t, prefix) : null;
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('two processes share one bucket: burst = rps, refill with the clock', async () => {
    expect((await a!.take('k', 2)).ok).toBe(true);
    expect((await b!.take('k', 2)).ok).toBe(true);
    expect(await a!.take('k', 2)).toEqual({ ok: false, retryAfterMs: 500 });
    t += 500;
    expect((await b!.take('k', 2)).ok).toBe(true);
    expect((await a!.take('k', 2)).ok).toBe(false);
  });
});
