/**
 * Redis-backed token buckets shared by API processes; runs when REDIS_URL points at a Redis (`.ci/run` starts one),
 * skips otherwise.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/api/server.ts';
import { hashApiKey, KeyStore, RedisRateLimiter } from '../../src/api/auth/index.ts';
import { v2Group } from '../../src/api/v2/index.ts';

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

  it('separate keys have separate buckets', async () => {
    expect((await a!.take('x', 1)).ok).toBe(true);
    expect((await a!.take('x', 1)).ok).toBe(false);
    expect((await b!.take('y', 1)).ok).toBe(true);
  });
});

describe.skipIf(!url)('two API servers behind one Redis', () => {
  let t = 5_000_000;
  const prefix = `ton-gateway-test-http:${process.pid}:${Date.now()}:`;
  const keys = new KeyStore({
    anonymous: { rps: 1 },
    plans: { team: { rps: 3 } },
    keys: [{ sha256: hashApiKey('team-key'), plan: 'team', name: 'team' }],
  });
  const servers: FastifyInstance[] = [];
  beforeAll(async () => {
    for (let i = 0; i < 2; i++) {
      const limiter = new RedisRateLimiter(url!, () => t, prefix);
      const app = buildServer({ networks: [{ name: 'mainnet', testnet: false, services: {} }], keys, limiter, groups: [v2Group()] });
      await app.ready();
      servers.push(app);
    }
  });
  afterAll(async () => {
    // each server closes its own limiter
    for (const s of servers) await s.close();
  });
  const detect = (i: number, headers: Record<string, string> = {}) =>
    servers[i].inject({ method: 'GET', url: '/api/v2/detectHash?hash=' + 'ab'.repeat(32), headers, remoteAddress: '10.1.2.3' });

  it('an anonymous client spending its 1 rps on one server gets 429 with Retry-After from the other', async () => {
    expect((await detect(0)).statusCode).toBe(200);
    const r = await detect(1);
    expect(r.statusCode).toBe(429);
    expect(r.json()).toMatchObject({ ok: false, code: 429, error: 'Ratelimit exceeded' });
    expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    t += 1000;
    expect((await detect(1)).statusCode).toBe(200);
  });

  it("a key's plan rate is shared across servers too", async () => {
    t += 10_000;
    const h = { 'x-api-key': 'team-key' };
    const codes = [];
    for (let i = 0; i < 4; i++) codes.push((await detect(i % 2, h)).statusCode);
    expect(codes).toEqual([200, 200, 200, 429]);
  });
});
