/**
 * The HTTP shell and the parts of API v2 that need no liteserver: address/hash utilities, envelope,
 * errors, keys, networks, rate limits (controllable clock), jsonRPC single and batch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/api/server.ts';
import { hashApiKey, KeyConfigError, KeyStore, MemoryRateLimiter } from '../../src/api/auth/index.ts';
import { v2Group, API_V2_VERSION } from '../../src/api/v2/index.ts';

const ADDR_RAW = '0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8';
const ADDR_B = 'EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N';
const ADDR_NB = 'UQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqEBI';
const TX_HASH = 'f87f2de8a7b8cb7c289a80cc5a7aaf4a0855dd51b73920c1523db66edc2adeef';

let now = 1_000_000;
const clock = () => now;
let app: FastifyInstance;

const keys = new KeyStore({
  anonymous: { rps: 1 },
  plans: { free: { rps: 10 }, mainnetOnly: { rps: 5, networks: ['mainnet'] } },
  keys: [
    { sha256: hashApiKey('free-key'), plan: 'free', name: 'alice' },
    { sha256: hashApiKey('mainnet-key'), plan: 'mainnetOnly', name: 'bob' },
  ],
});

beforeAll(async () => {
  app = buildServer({
    networks: [
      { name: 'mainnet', testnet: false, services: {} },
      { name: 'testnet', testnet: true, services: {} },
    ],
    keys,
    limiter: new MemoryRateLimiter(clock),
    groups: [v2Group()],
  });
  await app.ready();
});
afterAll(async () => {
  await app.close();
});

/** Each call moves the clock one minute on, so anonymous calls never hit the limit by accident. */
async function get(url: string, headers: Record<string, string> = {}) {
  now += 60_000;
  const res = await app.inject({ method: 'GET', url, headers });
  return { status: res.statusCode, body: res.json() as Record<string, unknown>, headers: res.headers };
}
async function post(url: string, payload: unknown, headers: Record<string, string> = {}) {
  now += 60_000;
  const res = await app.inject({ method: 'POST', url, payload: payload as object, headers });
  return { status: res.statusCode, body: res.json() as Record<string, unknown>, headers: res.headers };
}

describe('address and hash utilities', () => {
  it('detectAddress: every form of the reference vector, with the typed variants', async () => {
    for (const input of [ADDR_RAW, ADDR_RAW.toUpperCase(), ADDR_B, ADDR_NB, ADDR_B.replace(/-/g, '+').replace(/_/g, '/')]) {
      const r = await get(`/api/v2/detectAddress?address=${encodeURIComponent(input)}`);
      expect(r.status).toBe(200);
      // ton-http-api-cpp's default API_VERSION_TAG (README: Differences from toncenter)
      expect(r.headers['x-api-version']).toBe('2.1');
      expect(API_V2_VERSION).toBe('2.1');
      expect(r.body.ok).toBe(true);
      const res = r.body.result as Record<string, unknown>;
      expect(res['@type']).toBe('ext.utils.detectedAddress');
      expect(res.raw_form).toBe(ADDR_RAW);
      expect(res.bounceable).toEqual({ '@type': 'ext.utils.detectedAddressVariant', b64: ADDR_B, b64url: ADDR_B });
      expect((res.non_bounceable as { b64url: string }).b64url).toBe(ADDR_NB);
      expect(res.test_only).toBe(false);
    }
    const r = await get(`/api/v2/detectAddress?address=${ADDR_NB}`);
    expect((r.body.result as { given_type: string }).given_type).toBe('friendly_non_bounceable');
    expect(typeof r.body['@extra']).toBe('string');
  });

  it('detectAddress keeps the testnet flag of a testnet-only input', async () => {
    const r = await get('/api/v2/detectAddress?address=kQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqKYH');
    const res = r.body.result as Record<string, { b64url: string } | boolean | string>;
    expect(res.test_only).toBe(true);
    expect((res.bounceable as { b64url: string }).b64url).toBe('kQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqKYH');
    expect((res.non_bounceable as { b64url: string }).b64url[0]).toBe('0');
  });

  it('packAddress / unpackAddress', async () => {
    expect((await get(`/api/v2/packAddress?address=${ADDR_RAW}`)).body.result).toBe(ADDR_B);
    expect((await get(`/api/v2/packAddress?address=${ADDR_NB}`)).body.result).toBe(ADDR_NB);
    expect((await get(`/api/v2/unpackAddress?address=${ADDR_B}`)).body.result).toBe('0:83DFD552E63729B472FCBCC8C45EBCC6691702558B68EC7527E1BA403A0F31A8');
    // on the testnet base, packAddress sets the testnet flag
    expect((await get(`/testnet/api/v2/packAddress?address=${ADDR_RAW}`)).body.result).toBe('kQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqKYH');
  });

  it('detectHash: hex, base64 and base64url in; all forms out', async () => {
    const b64 = Buffer.from(TX_HASH, 'hex').toString('base64');
    for (const input of [TX_HASH, TX_HASH.toUpperCase(), b64, Buffer.from(TX_HASH, 'hex').toString('base64url')]) {
      const r = await get(`/api/v2/detectHash?hash=${encodeURIComponent(input)}`);
      expect(r.body.result).toEqual({
        '@type': 'ext.utils.detectedHash',
        b64,
        b64url: Buffer.from(TX_HASH, 'hex').toString('base64url') + '=',
        hex: TX_HASH.toUpperCase(),
      });
    }
  });

  it('POST with a JSON body works like GET for reads', async () => {
    const r = await post('/api/v2/unpackAddress', { address: ADDR_NB });
    expect(r.status).toBe(200);
    expect(r.body.result).toBe('0:83DFD552E63729B472FCBCC8C45EBCC6691702558B68EC7527E1BA403A0F31A8');
  });
});

describe('errors: {ok: false, code, error}, code = HTTP status, never a 500 for bad input', () => {
  it('422 names the parameter', async () => {
    let r = await get('/api/v2/detectAddress?address=nope');
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ ok: false, code: 422 });
    expect(r.body.error).toMatch(/^failed to parse address/);
    r = await get('/api/v2/detectAddress');
    expect(r.status).toBe(422);
    expect(r.body.error).toBe('failed to parse address: required parameter is missing');
    r = await get('/api/v2/detectHash?hash=123');
    expect(r.body.error).toMatch(/^failed to parse hash/);
    r = await get('/api/v2/getBlockHeader?workchain=0&shard=zz&seqno=1');
    expect(r.status).toBe(422);
    expect(r.body.error).toMatch(/^failed to parse shard/);
    r = await get('/api/v2/lookupBlock?workchain=0&shard=-9223372036854775808&seqno=1&lt=5');
    expect(r.body.error).toBe('failed to parse seqno: exactly one of seqno, lt, unixtime is required');
    r = await get(`/api/v2/getTransactions?address=${ADDR_RAW}&lt=5`);
    expect(r.body.error).toBe('failed to parse lt: lt and hash should be used together');
    r = await get(`/api/v2/getTransactions?address=${ADDR_RAW}&limit=0`);
    expect(r.body.error).toMatch(/^failed to parse limit: 0 is out of range/);
    r = await post('/api/v2/runGetMethod', { address: ADDR_RAW, method: 'seqno', stack: [['foo', 1]] });
    expect(r.status).toBe(422);
    expect(r.body.error).toBe('failed to parse stack: stack[0]: unsupported stack entry type "foo" (use num, cell, slice, builder, tuple, list, null, tvm.Cell, tvm.Slice)');
    r = await post('/api/v2/sendBoc', { boc: '' });
    expect(r.body.error).toBe('failed to parse boc: empty boc');
  });

  it('unknown query parameters are rejected by name (users sent wrong names and got wrong data)', async () => {
    const r = await get(`/api/v2/getAddressBalance?address=${ADDR_RAW}&adress=x&owner_id=y`);
    expect(r.status).toBe(422);
    expect(r.body.error).toBe('unknown parameters: adress, owner_id');
  });

  it('invalid JSON body -> 422; wrong verb -> 405; unknown method -> 404', async () => {
    now += 60_000;
    const bad = await app.inject({ method: 'POST', url: '/api/v2/sendBoc', payload: '{"boc":', headers: { 'content-type': 'application/json' } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({ ok: false, code: 422, error: 'failed to parse request body: invalid JSON' });
    const r = await get('/api/v2/sendBoc?boc=abc');
    expect(r.status).toBe(405);
    expect(r.body.error).toBe('sendBoc accepts POST only (JSON body)');
    const u = await get('/api/v2/getEverything');
    expect(u.status).toBe(404);
    expect(u.body).toMatchObject({ ok: false, code: 404 });
  });

  it('a network without liteservers answers 503 naming it, not a 500', async () => {
    const r = await get(`/api/v2/getAddressBalance?address=${ADDR_RAW}`);
    expect(r.status).toBe(503);
    expect(r.body.error).toBe('no liteservers are configured for network mainnet');
  });

  it('garbage in every parameter of every method never gives a 500', async () => {
    const methods = ['getAddressInformation', 'getTransactions', 'lookupBlock', 'getBlockTransactionsExt', 'getShards', 'getConfigParam', 'getLibraries', 'tryLocateTx', 'getTokenData'];
    for (const m of methods) {
      for (const q of ['', 'address=%00', 'seqno=-1', 'workchain=abc&shard=1&seqno=1', 'libraries=zz', 'source=1&destination=2&created_lt=x']) {
        const r = await get(`/api/v2/${m}?${q}`);
        expect(r.status, `${m}?${q}`).toBeGreaterThanOrEqual(400);
        expect(r.status, `${m}?${q}`).toBeLessThan(500);
        expect(r.body.ok).toBe(false);
      }
    }
  });
});

describe('keys, networks and rate limits', () => {
  it('unknown key -> 401, by header or api_key query', async () => {
    let r = await get(`/api/v2/detectAddress?address=${ADDR_RAW}`, { 'x-api-key': 'nope' });
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ ok: false, code: 401, error: 'API key does not exist' });
    r = await get(`/api/v2/detectAddress?address=${ADDR_RAW}&api_key=nope`);
    expect(r.status).toBe(401);
    r = await get(`/api/v2/detectAddress?address=${ADDR_RAW}&api_key=free-key`);
    expect(r.status).toBe(200);
  });

  it('a key not allowed on a network -> 403', async () => {
    let r = await get(`/testnet/api/v2/detectAddress?address=${ADDR_RAW}`, { 'x-api-key': 'mainnet-key' });
    expect(r.status).toBe(403);
    expect(r.body.error).toBe('Network not allowed');
    r = await get(`/api/v2/detectAddress?address=${ADDR_RAW}`, { 'x-api-key': 'mainnet-key' });
    expect(r.status).toBe(200);
  });

  it('without a key: 1 request per second per IP; 429 with Retry-After, text in error and result', async () => {
    now += 60_000;
    const call = () => app.inject({ method: 'GET', url: `/api/v2/detectAddress?address=${ADDR_RAW}`, remoteAddress: '10.0.0.1' });
    expect((await call()).statusCode).toBe(200);
    const limited = await call();
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('1');
    expect(limited.json()).toMatchObject({ ok: false, code: 429, error: 'Ratelimit exceeded', result: 'Ratelimit exceeded' });
    // another client IP has its own bucket
    expect((await app.inject({ method: 'GET', url: `/api/v2/detectAddress?address=${ADDR_RAW}`, remoteAddress: '10.0.0.2' })).statusCode).toBe(200);
    now += 999;
    expect((await call()).statusCode).toBe(429);
    now += 1;
    expect((await call()).statusCode).toBe(200);
  });

  it("with a key: the plan's rate (10 rps), once across every network it may use", async () => {
    now += 60_000;
    const call = (base = '') => app.inject({ method: 'GET', url: `${base}/api/v2/detectAddress?address=${ADDR_RAW}`, headers: { 'x-api-key': 'free-key' } });
    for (let i = 0; i < 10; i++) expect((await call(i % 2 ? '/testnet' : '')).statusCode).toBe(200);
    expect((await call()).statusCode).toBe(429);
    expect((await call('/testnet')).statusCode).toBe(429); // one bucket per key, whatever the network
    now += 100; // 0.1 s = one token at 10 rps
    expect((await call()).statusCode).toBe(200);
    expect((await call()).statusCode).toBe(429);
  });

  it('a jsonRPC batch costs one request per call (a full bucket admits it; what exceeds the burst is owed)', async () => {
    now += 60_000;
    const batch = Array.from({ length: 11 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'detectHash', params: { hash: TX_HASH } }));
    const r = await app.inject({ method: 'POST', url: '/api/v2/jsonRPC', payload: batch, headers: { 'x-api-key': 'free-key' } });
    expect(r.statusCode).toBe(200);
    // 11 calls at 10 rps: one token owed, so the next request waits 0.2 s
    const next = () => app.inject({ method: 'GET', url: `/api/v2/detectAddress?address=${ADDR_RAW}`, headers: { 'x-api-key': 'free-key' } });
    now += 100;
    expect((await next()).statusCode).toBe(429);
    now += 100;
    expect((await next()).statusCode).toBe(200);
  });

  it('token bucket with a controllable clock: burst = rps, continuous refill', async () => {
    let t = 0;
    const l = new MemoryRateLimiter(() => t);
    for (let i = 0; i < 3; i++) expect((await l.take('k', 3)).ok).toBe(true);
    const denied = await l.take('k', 3);
    expect(denied).toEqual({ ok: false, retryAfterMs: 334 });
    t += 334;
    expect((await l.take('k', 3)).ok).toBe(true);
    t += 10_000; // idle: the bucket refills to its capacity, not beyond
    for (let i = 0; i < 3; i++) expect((await l.take('k', 3)).ok).toBe(true);
    expect((await l.take('k', 3)).ok).toBe(false);
    expect((await l.take('k', 3, 5)).ok).toBe(false);
  });

  it('key store: keys are matched by sha256; config errors are clear', () => {
    expect(keys.lookup('free-key')?.name).toBe('alice');
    expect(keys.lookup('free-key')?.hash).toBe(hashApiKey('free-key'));
    expect(keys.lookup('FREE-KEY')).toBeNull();
    expect(() => new KeyStore({ keys: [{ sha256: hashApiKey('x'), plan: 'gold' }] })).toThrow(/keys.0.plan: unknown plan "gold"/);
    expect(() => new KeyStore({ keys: [{ sha256: 'abc', plan: 'free' }] } as never)).toThrow(KeyConfigError);
    expect(() => new KeyStore({ plans: { p: { rps: -1 } } })).toThrow(/plans.p.rps/);
  });

  it('healthcheck lists the networks and their bases', async () => {
    const r = await get('/healthcheck');
    expect(r.body).toEqual({ ok: true, networks: [{ name: 'mainnet', base: '/' }, { name: 'testnet', base: '/testnet' }] });
    expect((await get('/api/v2/healthcheck')).body.result).toBe('OK');
  });
});

describe('jsonRPC', () => {
  it('single call: envelope plus jsonrpc and the id echoed (string or number)', async () => {
    let r = await post('/api/v2/jsonRPC', { jsonrpc: '2.0', id: 7, method: 'unpackAddress', params: { address: ADDR_B } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ ok: true, result: '0:83DFD552E63729B472FCBCC8C45EBCC6691702558B68EC7527E1BA403A0F31A8', jsonrpc: '2.0', id: 7 });
    r = await post('/api/v2/jsonRPC', { jsonrpc: '2.0', id: 'abc', method: 'detectHash', params: { hash: TX_HASH } });
    expect(r.body).toMatchObject({ ok: true, id: 'abc' });
  });

  it('errors carry the id; unknown method and array params are 422', async () => {
    let r = await post('/api/v2/jsonRPC', { jsonrpc: '2.0', id: 1, method: 'unpackAddress', params: { address: 'x' } });
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ ok: false, code: 422, jsonrpc: '2.0', id: 1 });
    expect(r.body.error).toMatch(/^failed to parse address/);
    r = await post('/api/v2/jsonRPC', { jsonrpc: '2.0', id: 2, method: 'nope', params: {} });
    expect(r.body).toMatchObject({ ok: false, code: 422, id: 2, error: 'failed to parse method: unknown method "nope"' });
    r = await post('/api/v2/jsonRPC', { jsonrpc: '2.0', id: 3, method: 'detectHash', params: [TX_HASH] });
    expect(r.body.error).toBe('failed to parse params: params must contain an object');
    r = await post('/api/v2/jsonRPC', { jsonrpc: '2.0', id: 4, method: 'detectHash', params: { hash: TX_HASH, extra: 1 } });
    expect(r.body.error).toBe('unknown parameter: extra');
  });

  it('batch: one reply per call, in order, 200 overall', async () => {
    // a batch of 3 costs 3 requests: more than the anonymous 1 rps allows, so use a key
    const r = await post('/api/v2/jsonRPC', [
      { jsonrpc: '2.0', id: 1, method: 'unpackAddress', params: { address: ADDR_NB } },
      { jsonrpc: '2.0', id: 'two', method: 'unpackAddress', params: { address: 'bad' } },
      { jsonrpc: '2.0', id: null, method: 'detectHash', params: { hash: TX_HASH } },
    ], { 'x-api-key': 'free-key' });
    expect(r.status).toBe(200);
    const list = r.body as unknown as Record<string, unknown>[];
    expect(list).toHaveLength(3);
    expect(list[0]).toMatchObject({ ok: true, id: 1, result: '0:83DFD552E63729B472FCBCC8C45EBCC6691702558B68EC7527E1BA403A0F31A8' });
    expect(list[1]).toMatchObject({ ok: false, code: 422, id: 'two' });
    expect(list[2]).toMatchObject({ ok: true, id: null });
    const empty = await post('/api/v2/jsonRPC', []);
    expect(empty.status).toBe(422);
  });
});
