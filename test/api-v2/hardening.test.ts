/**
 * Issue 21, holes 2, 3 and 10, on the HTTP shell every API answers through: the client address behind trusted
 * proxies, API keys kept out of the logs, and the rate-limit rules (one bucket per key across networks, unknown-key
 * 401s limited, jsonRPC batches larger than the burst). The clock is controlled: every count below is exact.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildServer, type NetworkContext } from '../../src/api/server.ts';
import { hashApiKey, KeyStore, MemoryRateLimiter, TrustProxyError, parseTrustedProxies } from '../../src/api/auth/index.ts';
import { v2Group } from '../../src/api/v2/index.ts';
import { MAX_BATCH } from '../../src/api/v2/jsonrpc.ts';
import { redactText, redactUrl } from '../../src/api/redact.ts';
import { parseServeConfig } from '../../src/cli/commands/serve.ts';
import { CliError } from '../../src/cli/command.ts';

const ADDR_RAW = '0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8';
const TX_HASH = 'f87f2de8a7b8cb7c289a80cc5a7aaf4a0855dd51b73920c1523db66edc2adeef';
const NETWORKS: NetworkContext[] = [
  { name: 'mainnet', testnet: false, services: {} },
  { name: 'testnet', testnet: true, services: {} },
];
const keys = new KeyStore({
  anonymous: { rps: 2 },
  plans: { both: { rps: 2, networks: ['mainnet', 'testnet'] }, three: { rps: 3 } },
  keys: [
    { sha256: hashApiKey('both-key'), plan: 'both', name: 'both' },
    { sha256: hashApiKey('three-key'), plan: 'three', name: 'three' },
  ],
});

function server(opts: { trustProxy?: string[]; logger?: Record<string, unknown> } = {}) {
  const clock = { now: 1_000_000 };
  const app = buildServer({ networks: NETWORKS, keys, limiter: new MemoryRateLimiter(() => clock.now), groups: [v2Group()], ...opts });
  return { app, clock };
}

const detect = (app: FastifyInstance, o: { base?: string; remoteAddress?: string; headers?: Record<string, string>; query?: string } = {}) =>
  app.inject({ method: 'GET', url: `${o.base ?? ''}/api/v2/detectAddress?address=${ADDR_RAW}${o.query ?? ''}`, remoteAddress: o.remoteAddress ?? '10.9.9.9', headers: o.headers });

/** Sends `n` requests at one instant; returns how many were answered 200 and the other statuses seen. */
async function burst(n: number, send: (i: number) => ReturnType<typeof detect>) {
  let ok = 0;
  const other = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const r = await send(i);
    if (r.statusCode === 200) ok++;
    else other.set(r.statusCode, (other.get(r.statusCode) ?? 0) + 1);
  }
  return { ok, other: Object.fromEntries(other) };
}

describe('hole 2: the client address behind trusted proxies', () => {
  it('trust_proxy: true is refused with what to write instead; lists of addresses / CIDRs are checked', () => {
    expect(() => parseServeConfig({ trust_proxy: true })).toThrow(CliError);
    expect(() => parseServeConfig({ trust_proxy: true })).toThrow(/trust_proxy: true would trust every hop of X-Forwarded-For.*list the proxies/);
    expect(parseServeConfig({ trust_proxy: ['127.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8', 'loopback'] }).trust_proxy).toEqual(['127.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8', 'loopback']);
    expect(parseServeConfig({}).trust_proxy).toBe(false);
    expect(() => parseServeConfig({ trust_proxy: ['10.0.0.0/33'] })).toThrow(/trust_proxy: "10.0.0.0\/33": the prefix length must be 0..32/);
    expect(() => parseServeConfig({ trust_proxy: ['proxy.internal'] })).toThrow(/trust_proxy: "proxy.internal" is not an IP address or CIDR/);
    expect(() => parseTrustedProxies(true)).toThrow(TrustProxyError);
  });

  it('200 requests through a trusted proxy, each with another leftmost X-Forwarded-For: 2 pass a 2 rps limit', async () => {
    const { app } = server({ trustProxy: ['127.0.0.1'] });
    // the proxy appends the address it saw; everything left of it is whatever the client sent
    const r = await burst(200, (i) => detect(app, { remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': `198.51.100.${i % 250}, 203.0.113.7` } }));
    expect(r).toEqual({ ok: 2, other: { 429: 198 } });
    // another client behind the same proxy has its own bucket
    expect((await detect(app, { remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '203.0.113.8' } })).statusCode).toBe(200);
    await app.close();
  });

  it('two trusted hops: the first untrusted one from the right is the client', async () => {
    const { app } = server({ trustProxy: ['127.0.0.1', '10.0.0.0/8'] });
    const r = await burst(100, (i) => detect(app, { remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': `${i}.${i}.${i}.${i}, 203.0.113.9, 10.1.2.3` } }));
    expect(r).toEqual({ ok: 2, other: { 429: 98 } });
    await app.close();
  });

  it('X-Forwarded-For from a socket that is not a trusted proxy, or with no proxies configured, is ignored', async () => {
    for (const trustProxy of [['127.0.0.1'], undefined]) {
      const { app } = server({ trustProxy });
      const r = await burst(100, (i) => detect(app, { remoteAddress: '198.51.100.77', headers: { 'x-forwarded-for': `192.0.2.${i}` } }));
      expect(r).toEqual({ ok: 2, other: { 429: 98 } });
      await app.close();
    }
  });
});

describe('hole 10: rate limits', () => {
  it('a key allowed on two networks has its plan once: 200 requests alternating networks, 2 pass a 2 rps plan', async () => {
    const { app, clock } = server();
    const r = await burst(200, (i) => detect(app, { base: i % 2 ? '/testnet' : '', headers: { 'x-api-key': 'both-key' } }));
    expect(r).toEqual({ ok: 2, other: { 429: 198 } });
    clock.now += 500; // one token at 2 rps
    expect((await detect(app, { base: '/testnet', headers: { 'x-api-key': 'both-key' } })).statusCode).toBe(200);
    expect((await detect(app, { headers: { 'x-api-key': 'both-key' } })).statusCode).toBe(429);
    await app.close();
  });

  it('unknown keys are charged to the client address at the anonymous rate: 2 answers 401, the rest 429', async () => {
    const { app, clock } = server();
    const r = await burst(200, (i) => detect(app, { remoteAddress: '10.7.7.7', headers: { 'x-api-key': `guess-${i}` } }));
    expect(r).toEqual({ ok: 0, other: { 401: 2, 429: 198 } });
    // the same bucket as the address's anonymous requests
    expect((await detect(app, { remoteAddress: '10.7.7.7' })).statusCode).toBe(429);
    clock.now += 500;
    expect((await detect(app, { remoteAddress: '10.7.7.7', query: '&api_key=guess' })).statusCode).toBe(401);
    await app.close();
  });

  it(`a jsonRPC batch of ${MAX_BATCH} calls succeeds on a 2 rps bucket; the caller then waits until it is paid for`, async () => {
    const { app, clock } = server();
    const batch = Array.from({ length: MAX_BATCH }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'detectHash', params: { hash: TX_HASH } }));
    const post = () => app.inject({ method: 'POST', url: '/api/v2/jsonRPC', payload: batch, remoteAddress: '10.8.8.8' });
    const r = await post();
    expect(r.statusCode).toBe(200);
    expect((r.json() as unknown[]).length).toBe(MAX_BATCH);
    // 100 calls at 2 rps with a burst of 2: 98 tokens owed = 49 s before the bucket holds one token again
    const next = await detect(app, { remoteAddress: '10.8.8.8' });
    expect(next.statusCode).toBe(429);
    expect(next.headers['retry-after']).toBe('50');
    clock.now += 49_000;
    expect((await detect(app, { remoteAddress: '10.8.8.8' })).statusCode).toBe(429);
    clock.now += 500;
    expect((await detect(app, { remoteAddress: '10.8.8.8' })).statusCode).toBe(200);
    // the average never beats the plan: another full batch needs a full bucket (two tokens) again
    expect((await post()).statusCode).toBe(429);
    clock.now += 1000;
    expect((await post()).statusCode).toBe(200);
    await app.close();
  });

  it('a batch refused for a partly empty bucket costs nothing and tells when to come back', async () => {
    const { app, clock } = server();
    const batch = Array.from({ length: 5 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'detectHash', params: { hash: TX_HASH } }));
    const post = () => app.inject({ method: 'POST', url: '/api/v2/jsonRPC', payload: batch, headers: { 'x-api-key': 'three-key' } });
    expect((await detect(app, { headers: { 'x-api-key': 'three-key' } })).statusCode).toBe(200); // 2 of 3 tokens left
    const refused = await post();
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('1'); // one token at 3 rps: 334 ms, rounded up
    clock.now += 333;
    expect((await post()).statusCode).toBe(429);
    clock.now += 1;
    expect((await post()).statusCode).toBe(200);
    await app.close();
  });
});

describe('hole 3: API keys never reach the logs', () => {
  it('redactUrl blanks api_key however it is spelled, and nothing else', () => {
    expect(redactUrl('/api/v2/x?a=1&api_key=s3cret&b=2')).toBe('/api/v2/x?a=1&api_key=REDACTED&b=2');
    expect(redactUrl('/api/v2/x?api%5Fkey=s3cret')).toBe('/api/v2/x?api%5Fkey=REDACTED');
    expect(redactUrl('/api/v2/x?API_KEY=s3cret&api_key')).toBe('/api/v2/x?API_KEY=REDACTED&api_key=REDACTED');
    expect(redactUrl('/api/v2/x?address=abc')).toBe('/api/v2/x?address=abc');
    expect(redactUrl('/healthcheck')).toBe('/healthcheck');
    expect(redactText('GET /x?api_key=abc&b=1 failed: "…?API%5Fkey=def"')).toBe('GET /x?api_key=REDACTED&b=1 failed: "…?API%5Fkey=REDACTED"');
  });

  it('request logs at every level print the URL without the key, and headers without X-API-Key / Authorization', async () => {
    let out = '';
    const stream = new Writable({
      write(chunk, _enc, cb) {
        out += String(chunk);
        cb();
      },
    });
    const { app } = server({ logger: { level: 'trace', stream } });
    app.addHook('onRequest', async (request) => {
      // a route that logs its request headers (as debugging code does) gets them redacted too, and an error quoting
      // the URL is scrubbed
      request.log.info({ headers: request.headers }, 'headers');
      request.log.error({ err: new Error(`failed on ${request.url}`) }, 'an error');
    });
    // (each from its own address: unknown keys are charged to the address)
    expect((await detect(app, { remoteAddress: '10.0.3.1', query: '&api_key=secret-query-1' })).statusCode).toBe(401);
    expect((await detect(app, { remoteAddress: '10.0.3.2', query: '&api%5Fkey=secret-query-2' })).statusCode).toBe(401);
    expect((await detect(app, { remoteAddress: '10.0.3.3', headers: { 'x-api-key': 'both-key', authorization: 'Bearer secret-auth-4' } })).statusCode).toBe(200);
    expect((await detect(app, { remoteAddress: '10.0.3.4', headers: { 'x-api-key': 'secret-header-3' } })).statusCode).toBe(401);
    expect((await detect(app, { remoteAddress: '10.0.3.5', query: '&api_key=three-key' })).statusCode).toBe(200);
    await app.close();
    expect(out).toMatch(/incoming request/);
    expect(out).toMatch(/request completed/);
    expect(out).toContain('api_key=REDACTED');
    expect(out).toContain('"x-api-key":"REDACTED"');
    expect(out).toContain('"authorization":"REDACTED"');
    expect(out).toMatch(/failed on \/api\/v2\/detectAddress\?address=[^"]*&api_key=REDACTED/);
    for (const secret of ['secret-query-1', 'secret-query-2', 'secret-header-3', 'secret-auth-4', 'both-key', 'three-key']) expect(out).not.toContain(secret);
  });
});
