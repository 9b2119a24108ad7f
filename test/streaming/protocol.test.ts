// Streaming API v2 over real sockets (SSE over fetch, WebSocket over `ws`) against the gateway as `start` builds it:
// the protocol's answers, bad subscriptions, auth and limits before the stream opens, heartbeats, server shutdown.
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey, KeyStore } from '../../src/api/auth/index.ts';
import { buildGateway, streamingHub } from '../../src/api/gateway.ts';
import { InProcessFeed } from '../../src/feed/index.ts';
import { tempStore } from '../helpers/store.ts';
import { until } from '../helpers/until.ts';
import { openSse, openWs, type WsClient } from './clients.ts';

const ref = tempStore('tg-streaming-protocol-');
const A = '0:' + 'ab'.repeat(32);
const A_UPPER = A.toUpperCase();
const KEY = 'streaming-key';
let app: FastifyInstance;
let base: string;
let wsBase: string;

beforeAll(async () => {
  const keys = new KeyStore({
    anonymous: { rps: 1_000_000 },
    plans: { pro: { rps: 1_000_000 }, mainnet_only: { rps: 1_000_000, networks: ['mainnet'] } },
    keys: [
      { sha256: hashApiKey(KEY), plan: 'pro', name: 'pro' },
      { sha256: hashApiKey('mainnet-key'), plan: 'mainnet_only', name: 'mn' },
    ],
  });
  app = await buildGateway({
    networks: [{ name: 'devnet', testnet: true, services: { store: ref.store, feed: new InProcessFeed() } }],
    keys,
    streaming: { limits: { anonymousConnections: 2, anonymousAddresses: 3, keyConnections: 5, keyAddresses: 50 }, heartbeatMs: 100 },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}/api/streaming/v2`;
  wsBase = `ws://127.0.0.1:${port}/api/streaming/v2`;
});
afterAll(async () => {
  await app?.close();
});

describe('SSE', () => {
  it('answers a subscription with the connected frame (id echoed) and keepalive comments', async () => {
    const c = await openSse(`${base}/sse`, { id: 'req-1', types: ['transactions'], addresses: [A] });
    expect(c.status).toBe(200);
    await until(() => c.frames.length > 0 && c.comments >= 2, 'connected frame and two keepalives', 10_000);
    expect(c.frames[0]).toEqual({ event: 'connected', data: { id: 'req-1', status: 'subscribed' } });
    c.close();
  });

  it.each([
    [{}, 'types are required for subscription'],
    [{ types: [] }, 'types are required for subscription'],
    [{ types: ['blocks'], addresses: [A] }, 'invalid event type: blocks'],
    [{ types: ['transactions'] }, 'addresses are required for subscription'],
    [{ types: ['transactions'], addresses: ['not-an-address'] }, 'invalid address: not-an-address'],
    [{ types: ['trace'] }, 'trace_external_hash_norms are required for trace subscription'],
    [{ types: ['transactions'], addresses: [A], trace_external_hash_norms: ['ab'.repeat(32)] }, 'trace_external_hash_norms requires type "trace"'],
    [{ types: ['trace'], trace_external_hash_norms: [' '] }, 'trace_external_hash_norms contains empty value'],
    [{ types: ['trace'], trace_external_hash_norms: ['xyz'] }, 'trace_external_hash_norms contains an invalid hash'],
    [{ types: ['transactions'], addresses: [A], min_finality: 'final' }, 'invalid min_finality: "final"'],
    [{ types: ['transactions'], addresses: [A], include_address_book: 'yes' }, 'include_address_book must be true or false'],
    [{ types: ['transactions'], addresses: A }, 'addresses must be an array of strings'],
    [{ types: ['transactions'], addresses: [A], action_types: ['jetton transfer'] }, 'action_types contains invalid characters'],
    [{ types: ['transactions'], addresses: [A], acount: 1 }, 'unknown field: acount'],
    [{ types: ['transactions'], addresses: [A, '0:' + '01'.repeat(32), '0:' + '02'.repeat(32), '0:' + '03'.repeat(32)] }, 'too many addresses: 4 > max 3'],
  ])('refuses %j before the stream opens: 400 naming the problem', async (body, message) => {
    const c = await openSse(`${base}/sse`, body);
    expect(c.status).toBe(400);
    expect(String(c.body!.error)).toContain(message);
  });

  it('refuses a body that is not JSON, and echoes the id of a refused request', async () => {
    const bad = await openSse(`${base}/sse`, '{"types": [');
    expect(bad.status).toBe(400);
    expect(String(bad.body!.error)).toMatch(/^invalid subscription request: /);
    const empty = await openSse(`${base}/sse`, '');
    expect(empty.body).toEqual({ error: 'invalid subscription request: empty body (send the subscription as JSON)' });
    const withId = await openSse(`${base}/sse`, { id: 'x1', types: ['transactions'] });
    expect(withId.body).toEqual({ id: 'x1', error: 'addresses are required for subscription' });
  });

  it('takes the body whatever its content type (curl -d sends form-urlencoded); GET is 405', async () => {
    const c = await openSse(`${base}/sse`, { types: ['account_state_change'], addresses: [A] }, { 'content-type': 'application/x-www-form-urlencoded' });
    expect(c.status).toBe(200);
    c.close();
    const get = await fetch(`${base}/sse`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });

  it('an API key: 401 when unknown, 403 when its plan excludes the network, more addresses when known', async () => {
    const unknown = await openSse(`${base}/sse`, { types: ['transactions'], addresses: [A] }, { 'x-api-key': 'nope' });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({ error: 'API key does not exist' });
    const viaQuery = await openSse(`${base}/sse?api_key=nope`, { types: ['transactions'], addresses: [A] });
    expect(viaQuery.status).toBe(401);
    const forbidden = await openSse(`${base}/sse`, { types: ['transactions'], addresses: [A] }, { 'x-api-key': 'mainnet-key' });
    expect(forbidden.status).toBe(403);
    const many = Array.from({ length: 10 }, (_, i) => '0:' + i.toString(16).padStart(64, '0'));
    const keyed = await openSse(`${base}/sse?api_key=${KEY}`, { types: ['transactions'], addresses: many });
    expect(keyed.status).toBe(200);
    keyed.close();
  });

  it('connections per IP are bounded (429 before the stream opens); a closed one frees its slot', async () => {
    const hub = streamingHub(app, 'devnet')!;
    await until(() => hub.stats().clients === 0, 'earlier connections gone', 10_000);
    const a = await openSse(`${base}/sse`, { types: ['transactions'], addresses: [A] });
    const b = await openSse(`${base}/sse`, { types: ['transactions'], addresses: [A] });
    expect([a.status, b.status]).toEqual([200, 200]);
    const c = await openSse(`${base}/sse`, { types: ['transactions'], addresses: [A] });
    expect(c.status).toBe(429);
    expect(c.body).toEqual({ error: 'connection limit reached: 2 active connections' });
    // a WebSocket upgrade of the same IP is refused with the same HTTP answer
    await expect(openWs(`${wsBase}/ws`)).rejects.toMatchObject({ status: 429 });
    // with a key: its own bucket
    const keyed = await openSse(`${base}/sse`, { types: ['transactions'], addresses: [A] }, { 'x-api-key': KEY });
    expect(keyed.status).toBe(200);
    a.close();
    await until(() => hub.stats().clients === 2, 'the closed connection removed', 10_000);
    const d = await openSse(`${base}/sse`, { types: ['transactions'], addresses: [A] });
    expect(d.status).toBe(200);
    for (const x of [b, d, keyed]) x.close();
    await until(() => hub.stats().clients === 0, 'all closed', 10_000);
  });
});

describe('WebSocket', () => {
  let ws: WsClient;
  beforeAll(async () => {
    await until(() => streamingHub(app, 'devnet')!.stats().clients === 0, 'SSE connections gone', 10_000);
    ws = await openWs(`${wsBase}/ws`);
  });
  afterAll(() => ws?.ws.close());

  it('ping, subscribe, unsubscribe with id correlation; the subscription changes', async () => {
    expect(await ws.request({ operation: 'ping', id: 'ping-42' })).toEqual({ id: 'ping-42', status: 'pong' });
    expect(await ws.request({ operation: 'subscribe', id: '1', types: ['transactions', 'actions'], addresses: [A], min_finality: 'confirmed', include_address_book: true })).toEqual({ id: '1', status: 'subscribed' });
    const hub = streamingHub(app, 'devnet')!;
    const client = () => (hub as unknown as { clients: Set<{ sub: { addresses: Set<string>; minFinality: string; includeAddressBook: boolean; types: Set<string> } }> }).clients.values().next().value!;
    expect([...client().sub.addresses]).toEqual([A_UPPER]);
    expect(client().sub.minFinality).toBe('confirmed');
    // a new subscribe replaces addresses and types; options it leaves out keep their values (as toncenter's server)
    const B = '-1:' + '33'.repeat(32);
    expect(await ws.request({ operation: 'subscribe', id: '2', types: ['account_state_change'], addresses: [B, A] })).toEqual({ id: '2', status: 'subscribed' });
    expect([...client().sub.addresses].sort()).toEqual([B.toUpperCase(), A_UPPER].sort());
    expect([...client().sub.types]).toEqual(['account_state_change']);
    expect(client().sub.minFinality).toBe('confirmed');
    expect(client().sub.includeAddressBook).toBe(true);
    expect(await ws.request({ operation: 'unsubscribe', id: '3', addresses: [A] })).toEqual({ id: '3', status: 'unsubscribed' });
    expect([...client().sub.addresses]).toEqual([B.toUpperCase()]);
  });

  it('bad requests get an error message (with their id), and the connection stays', async () => {
    expect(await ws.request({ operation: 'subscribe', id: 'e1', types: ['transactions'] })).toEqual({ id: 'e1', error: 'addresses are required' });
    expect(await ws.request({ operation: 'subscribe', id: 'e2' })).toEqual({ id: 'e2', error: 'types are required' });
    expect(await ws.request({ operation: 'subscribe', id: 'e3', types: ['transactions'], addresses: [A, '0:' + '01'.repeat(32), '0:' + '02'.repeat(32), '0:' + '03'.repeat(32)] })).toEqual({
      id: 'e3',
      error: 'address limit exceeded: current 0 + new 4 > max 3',
    });
    expect(await ws.request({ operation: 'unsubscribe', id: 'e4' })).toEqual({ id: 'e4', error: 'addresses or trace_external_hash_norms are required' });
    expect((await ws.request({ operation: 'subscribe', id: 'e5', types: ['transactions'], addresses: ['zz'] })).error).toBe('invalid address: zz');
    expect((await ws.request({ operation: 'launch', id: 'e6' })).error).toMatch(/^unknown operation: launch/);
    const next = ws.next();
    ws.ws.send('{not json');
    expect(String((await next).error)).toMatch(/^invalid request envelope: /);
    expect(await ws.request({ operation: 'ping', id: 'still-here' })).toEqual({ id: 'still-here', status: 'pong' });
  });

  it('a GET without Upgrade is told to use a WebSocket (426); an unknown key is 401 before the upgrade', async () => {
    const r = await fetch(`${base}/ws`);
    expect(r.status).toBe(426);
    await expect(openWs(`${wsBase}/ws`, { 'x-api-key': 'nope' })).rejects.toMatchObject({ status: 401 });
  });
});

describe('shutdown', () => {
  it('closing the server ends open streams (they would keep it open)', async () => {
    // a gateway of its own: the sockets the earlier tests' clients keep open are not this test's subject
    const own = await buildGateway({ networks: [{ name: 'devnet', testnet: true, services: { store: ref.store, feed: new InProcessFeed() } }], keys: new KeyStore({ anonymous: { rps: 1_000_000 } }) });
    await own.listen({ port: 0, host: '127.0.0.1' });
    const port = (own.server.address() as AddressInfo).port;
    const c = await openSse(`http://127.0.0.1:${port}/api/streaming/v2/sse`, { types: ['transactions'], addresses: [A] });
    const w = await openWs(`ws://127.0.0.1:${port}/api/streaming/v2/ws`);
    await own.close();
    await c.ended;
    expect(c.frames[c.frames.length - 1]).toEqual({ event: 'error', data: { error: 'server shutting down' } });
    expect((await w.closed).code).toBe(1008);
  });
});
