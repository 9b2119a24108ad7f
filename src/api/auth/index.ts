export * from './keys.ts';
export * from './rate-limit.ts';
export { RedisRateLimiter } from './redis-rate-limit.ts';
export * from './guard.ts';
export * from './trusted-proxies.ts';
