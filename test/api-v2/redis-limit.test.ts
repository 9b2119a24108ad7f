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

// Issue 21, hole 10, on the shared limiter: the same rules as the in-memory one (test/api-v2/hardening.test.ts).
describe.skipIf(!url)('Redis limits: one bucket per key, unknown keys limited, batches with debt', () => {
  let t = 9_000_000;
  const prefix = `ton-gateway-test-rules:${process.pid}:${Date.now()}:`;
  const keys = new KeyStore({
    anonymous: { rps: 2 },
    plans: { both: { rps: 2, networks: ['mainnet', 'testnet'] } },
    keys: [{ sha256: hashApiKey('both-key'), plan: 'both', name: 'both' }],
  });
  const servers: FastifyInstance[] = [];
  const networks = [
    { name: 'mainnet', testnet: false, services: {} },
    { name: 'testnet', testnet: true, services: {} },
  ];
  beforeAll(async () => {
    for (let i = 0; i < 2; i++) {
      const app = buildServer({ networks, keys, limiter: new RedisRateLimiter(url!, () => t, prefix), groups: [v2Group()] });
      await app.ready();
      servers.push(app);
    }
  });
  afterAll(async () => {
    for (const s of servers) await s.close();
  });
  const detect = (i: number, o: { base?: string; headers?: Record<string, string>; ip?: string } = {}) =>
    servers[i % 2].inject({ method: 'GET', url: `${o.base ?? ''}/api/v2/detectHash?hash=${'ab'.repeat(32)}`, headers: o.headers, remoteAddress: o.ip ?? '10.2.3.4' });
  const count = async (n: number, send: (i: number) => ReturnType<typeof detect>) => {
    const seen: Record<number, number> = {};
    for (let i = 0; i < n; i++) {
      const s = (await send(i)).statusCode;
      seen[s] = (seen[s] ?? 0) + 1;
    }
    return seen;
  };

  it('a key on two networks and two servers: 2 of 200 pass its 2 rps', async () => {
    expect(await count(200, (i) => detect(i, { base: i % 3 ? '/testnet' : '', headers: { 'x-api-key': 'both-key' } }))).toEqual({ 200: 2, 429: 198 });
  });

  it('unknown keys: 2 answers 401 per address and second, the rest 429', async () => {
    expect(await count(200, (i) => detect(i, { headers: { 'x-api-key': `guess-${i}` }, ip: '10.2.3.5' }))).toEqual({ 401: 2, 429: 198 });
  });

  it('a batch of 100 on a 2 rps bucket: admitted, then 49 s of debt, seen by the other server', async () => {
    const batch = Array.from({ length: 100 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'detectHash', params: { hash: 'ab'.repeat(32) } }));
    const r = await servers[0].inject({ method: 'POST', url: '/api/v2/jsonRPC', payload: batch, remoteAddress: '10.2.3.6' });
    expect(r.statusCode).toBe(200);
    expect((r.json() as unknown[]).length).toBe(100);
    const next = await detect(1, { ip: '10.2.3.6' });
    expect(next.statusCode).toBe(429);
    expect(next.headers['retry-after']).toBe('50');
    t += 49_000;
    expect((await detect(1, { ip: '10.2.3.6' })).statusCode).toBe(429);
    t += 500;
    expect((await detect(0, { ip: '10.2.3.6' })).statusCode).toBe(200);
  });
});
