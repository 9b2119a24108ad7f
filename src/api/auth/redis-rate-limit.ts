/**
 * Token buckets in Redis, shared by several API processes. One Lua script does refill + take atomically;
 * the time comes from the injectable clock (passed as an argument) so that all processes agree with
 * their own clocks and tests can drive it.
 */
import { Redis } from 'ioredis';
import type { Clock, RateLimiter, TakeResult } from './rate-limit.ts';

// takeFrom (rate-limit.ts) in Lua: refill, admit at min(cost + prepaid, capacity) - prepaid (debt allowed), refund
// the prepaid tokens on refusal; the key lives until the bucket is full again, so a debt is never forgotten.
const SCRIPT = `
local key = KEYS[1]
local rps = tonumber(ARGV[1])
local cost = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local prepaid = tonumber(ARGV[4])
local capacity = math.max(rps, 1)
local state = redis.call('HMGET', key, 'tokens', 'at')
local tokens = tonumber(state[1])
local at = tonumber(state[2])
if tokens == nil then tokens = capacity; at = now end
tokens = math.min(capacity, tokens + math.max(0, now - at) * rps / 1000)
local need = math.min(cost + prepaid, capacity) - prepaid
local ok = 0
local wait = 0
if tokens >= need then
  tokens = tokens - cost
  ok = 1
else
  tokens = math.min(capacity, tokens + prepaid)
  wait = math.ceil((need + prepaid - tokens) * 1000 / rps)
end
redis.call('HSET', key, 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', key, math.ceil((capacity - tokens) * 1000 / rps) + 1000)
if ok == 1 then return {1, math.max(0, math.floor(tokens))} end
return {0, wait}
`;

export class RedisRateLimiter implements RateLimiter {
  private readonly redis: Redis;

  constructor(
    url: string,
    private readonly clock: Clock = Date.now,
    private readonly prefix = 'ton-gateway:rl:',
  ) {
    this.redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 2, enableOfflineQueue: true });
    this.redis.defineCommand('tgTake', { numberOfKeys: 1, lua: SCRIPT });
  }

  async take(key: string, rps: number, cost = 1, prepaid = 0): Promise<TakeResult> {
    const r = (await (this.redis as unknown as { tgTake(k: string, ...a: (string | number)[]): Promise<[number, number]> }).tgTake(
      this.prefix + key,
      rps,
      cost,
      this.clock(),
      prepaid,
    )) as [number, number];
    return r[0] === 1 ? { ok: true, remaining: Number(r[1]) } : { ok: false, retryAfterMs: Number(r[1]) };
  }

  async close(): Promise<void> {
    await this.redis.quit();
  }
}
