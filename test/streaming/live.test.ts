// The streaming API end to end on a live devnet: a generated chain (real contracts in the TVM emulator) released one
// masterchain block at a time by the devnet liteserver over ADNL (as `devnet serve --live`), indexed into chdb by the
// whole pipeline, pushed by the gateway to SSE and WebSocket clients over real sockets. What they receive is checked
// against the REST API over the same store: every transaction and action of the subscribed wallet exactly once per
// finality level, in masterchain order, with the bodies /api/v3 returns.
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIndexer, type IndexerHandle } from '../../pipelines/index.ts';
import { KeyStore } from '../../src/api/auth/index.ts';
import { buildGateway, streamingHub } from '../../src/api/gateway.ts';
import { LiteNode } from '../../src/api/v2/index.ts';
import { MemoryBus } from '../../src/bus/index.ts';
import { loadChainDir } from '../../src/devnet/chain/index.ts';
import { generateDevnet } from '../../src/devnet/generate/index.ts';
import { startLiteServer, type LiteServer } from '../../src/devnet/liteserver/index.ts';
import { hashToBase64, toRawUpper } from '../../src/format/index.ts';
import { LiteserverPool } from '../../src/source/index.ts';
import { openStore, type StoreClient } from '../../src/store/client/index.ts';
import { InProcessFeed, NotificationPublisher } from '../../src/feed/index.ts';
import { decodeBlock } from '../../src/ton/index.ts';
import { Notification } from '../../schemas/api/streaming/notifications.ts';
import { until } from '../helpers/until.ts';
import { openSse, openWs, type SseClient, type WsClient } from './clients.ts';

type Json = Record<string, unknown>;

let dir: string;
let data: string;
let tip: number;
let A: string; // the busiest wallet (raw upper-case)
let B: string; // the second busiest
let accounts: string[]; // every account with a transaction
let normsA: string[]; // trace_external_hash_norms of A's external messages (hex)
let ls: LiteServer;
let store: StoreClient;
let pool: LiteserverPool;
let bus: MemoryBus;
let app: FastifyInstance;
let h: IndexerHandle;
let timer: ReturnType<typeof setInterval> | undefined;
const clients: { fin?: SseClient; conf?: SseClient; ent?: SseClient; pend?: WsClient; trace?: WsClient; wsA?: WsClient; stall?: Socket } = {};
let stallBytes = 0;
let switchAck = -1; // index of the ack of the switch to B in pend's messages
let finalizedAtSwitch = -1;

const inject = async (url: string): Promise<Json> => {
  const r = await app.inject({ method: 'GET', url });
  expect(r.statusCode, `${url}: ${r.body.slice(0, 300)}`).toBe(200);
  return r.json() as Json;
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tg-stream-devnet-'));
  await generateDevnet(dir, { blocks: 16, seed: 7, states: 'last' });
  const chain = JSON.parse(readFileSync(join(dir, 'chain.json'), 'utf8')) as { blocks: { workchain: number; seqno: number }[]; transactions: { account: string }[] };
  tip = Math.max(...chain.blocks.filter((b) => b.workchain === -1).map((b) => b.seqno));
  const count = new Map<string, number>();
  for (const t of chain.transactions) count.set(toRawUpper(t.account), (count.get(toRawUpper(t.account)) ?? 0) + 1);
  const busiest = [...count].filter(([a]) => a.startsWith('0:')).sort((x, y) => y[1] - x[1]);
  [A, B] = [busiest[0][0], busiest[1][0]];
  accounts = [...count.keys()];
  const norms = new Set<string>();
  for (const f of readdirSync(join(dir, 'blocks'))) {
    for (const tx of decodeBlock(readFileSync(join(dir, 'blocks', f))).transactions) {
      if (toRawUpper(tx.account) === A && tx.in_msg?.message_type === 'ext_in') norms.add(tx.in_msg.hash_norm ?? tx.in_msg.msg_hash);
    }
  }
  normsA = [...norms].slice(0, 6);

  const live = loadChainDir(dir, { visibleMc: 2 });
  ls = await startLiteServer({ source: live, key: Buffer.alloc(32, 21), host: '127.0.0.1' });
  data = mkdtempSync(join(tmpdir(), 'tg-stream-data-'));
  store = await openStore({ dataDir: data });
  pool = new LiteserverPool([{ host: `127.0.0.1:${ls.port}`, publicKey: ls.publicKey }], { timeoutMs: 10_000 });
  await pool.start();
  bus = new MemoryBus();
  const feed = new InProcessFeed();
  app = await buildGateway({
    networks: [{ name: 'devnet', testnet: true, services: { node: LiteNode.fromPool(pool), store, feed } }],
    keys: new KeyStore({ anonymous: { rps: 1_000_000 } }),
    // a small buffer bound, so that the stalled client below passes it within this chain
    streaming: { limits: { anonymousConnections: 50, anonymousAddresses: 10_000 }, maxBufferedBytes: 256 * 1024, cutGraceMs: 900_000 },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  const sse = `http://127.0.0.1:${port}/api/streaming/v2/sse`;
  const ws = `ws://127.0.0.1:${port}/api/streaming/v2/ws`;

  clients.fin = await openSse(sse, { types: ['transactions', 'actions'], addresses: [A], include_address_book: true, include_metadata: true });
  clients.conf = await openSse(sse, { types: ['transactions', 'actions', 'account_state_change'], addresses: [A], min_finality: 'confirmed' });
  clients.ent = await openSse(sse, { types: ['jettons_change', 'account_state_change'], addresses: accounts, include_address_book: true });
  clients.pend = await openWs(ws);
  expect(await clients.pend.request({ operation: 'subscribe', id: 'a', types: ['transactions'], addresses: [A], min_finality: 'pending' })).toEqual({ id: 'a', status: 'subscribed' });
  clients.trace = await openWs(ws);
  expect(await clients.trace.request({ operation: 'subscribe', id: 't', types: ['trace'], trace_external_hash_norms: normsA, min_finality: 'confirmed', include_address_book: true })).toEqual({ id: 't', status: 'subscribed' });
  // the SSE `conf` subscriber's twin over WebSocket
  clients.wsA = await openWs(ws);
  expect(await clients.wsA.request({ operation: 'subscribe', id: 'w', types: ['transactions', 'actions', 'account_state_change'], addresses: [A], min_finality: 'confirmed' })).toEqual({ id: 'w', status: 'subscribed' });
  // a client that subscribes to everything and never reads
  clients.stall = await new Promise<Socket>((resolve) => {
    const s = connect(port, '127.0.0.1', () => resolve(s));
  });
  const body = JSON.stringify({ types: ['transactions', 'actions', 'account_state_change', 'jettons_change'], addresses: accounts, min_finality: 'confirmed', include_address_book: true, include_metadata: true });
  clients.stall.write(`POST /api/streaming/v2/sse HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  clients.stall.pause();
  await until(() => streamingHub(app, 'devnet')!.stats().clients === 7, 'seven subscribers', 20_000);

  // the switch of the WebSocket subscription from A to B, once it got A's first finalized notification
  const pend = clients.pend;
  void until(() => pend.notes().some((n) => n.finality === 'finalized'), 'a finalized notification', 600_000).then(async () => {
    finalizedAtSwitch = streamingHub(app, 'devnet')!.stats().finalizedUpTo;
    await pend.request({ operation: 'subscribe', id: 'b', types: ['transactions'], addresses: [B] });
    switchAck = pend.messages.findIndex((m) => m.id === 'b');
  });

  timer = setInterval(() => live.release(), 300);
  const publisher = new NotificationPublisher(feed, { store });
  h = await runIndexer({ bus, source: pool, store, fromSeqno: 1, untilSeqno: tip, notifications: publisher });
  await h.done;
  const hub = streamingHub(app, 'devnet')!;
  await until(() => hub.stats().finalizedUpTo >= tip, `finalized notifications up to ${tip}`, 120_000);
  await hub.idle();
  // the clients (in this process) have read everything the hub sent them
  const got = [clients.fin.notes, clients.conf.notes, clients.ent.notes, clients.pend.notes, clients.trace.notes, clients.wsA.notes];
  await until(() => hub.list().slice(0, 6).every((c, i) => got[i]().length === c.delivered), 'clients caught up', 60_000);
  // the stalled client's buffer: cut by the server (its reason waits in the socket for it)
  stallBytes = clients.stall.readableLength;
}, 900_000);

afterAll(async () => {
  clearInterval(timer);
  clients.fin?.close();
  clients.conf?.close();
  clients.ent?.close();
  clients.pend?.ws.close();
  clients.trace?.ws.close();
  clients.wsA?.ws.close();
  clients.stall?.destroy();
  await h?.stop();
  await app?.close();
  await bus?.close();
  await pool?.close();
  await store?.close();
  await ls?.close();
  for (const d of [dir, data]) if (d) rmSync(d, { recursive: true, force: true });
});

/** Every transaction of the account: those of traces still in flight at the tip too (notified with their seqno). */
async function txHashes(account: string): Promise<Set<string>> {
  const rows = await store.query<{ hash: string }>('SELECT hash FROM transactions FINAL WHERE account = {a:String}', { a: account });
  return new Set(rows.map((r) => hashToBase64(r.hash)));
}

/**
 * A notification's address book against the REST one read after the tip: equal for every address that had no
 * transaction after the notification's seqno (an address book says what the store knew then: a later deploy changes
 * an address's bounceable form and interfaces).
 */
async function expectBook(book: Json, rest: Json, mcSeqno: number): Promise<void> {
  const keys = Object.keys(book);
  if (!keys.length) return;
  const rows = await store.query<{ account: string; s: number }>('SELECT account, max(mc_block_seqno) AS s FROM transactions FINAL WHERE account IN {a:Array(String)} GROUP BY account', { a: keys });
  const last = new Map(rows.map((r) => [r.account, Number(r.s)]));
  for (const k of keys) if ((last.get(k) ?? 0) <= mcSeqno) expect(book[k], `address book of ${k} at ${mcSeqno}`).toEqual(rest[k]);
}

function txsOf(notes: Json[], finality?: string): Json[] {
  return notes.filter((n) => n.type === 'transactions' && (!finality || n.finality === finality)).flatMap((n) => n.transactions as Json[]);
}

function expectOrdered(notes: Json[]): void {
  for (const fin of ['confirmed', 'finalized']) {
    const seqnos = notes.filter((n) => n.finality === fin).map((n) => n.mc_seqno as number);
    expect(seqnos, `${fin} notifications in masterchain order`).toEqual([...seqnos].sort((a, b) => a - b));
  }
  for (const n of notes.filter((x) => x.type === 'transactions')) {
    const lts = (n.transactions as Json[]).map((t) => BigInt(String(t.lt)));
    expect(lts, 'transactions of a notification by lt descending').toEqual([...lts].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0)));
  }
}

/** A `min_finality: confirmed` subscriber to A's transactions, actions and states: each once per level, as /api/v3 renders them. */
async function expectBothLevels(notes: Json[]): Promise<void> {
  expectOrdered(notes);
  const expected = await txHashes(A);
  for (const fin of ['confirmed', 'finalized']) {
    expect(txsOf(notes, fin).map((t) => t.hash).sort(), fin).toEqual([...expected].sort());
    expect(txsOf(notes, fin).every((t) => t.finality === fin)).toBe(true);
  }
  // per trace, monotonically: confirmed before finalized
  const firstAt = new Map<string, { confirmed?: number; finalized?: number }>();
  notes.forEach((n, i) => {
    if (n.type !== 'transactions') return;
    const e = firstAt.get(n.trace_external_hash_norm as string) ?? {};
    e[n.finality as 'confirmed' | 'finalized'] ??= i;
    firstAt.set(n.trace_external_hash_norm as string, e);
  });
  for (const e of firstAt.values()) expect(e.confirmed!).toBeLessThan(e.finalized!);
  // confirmed bodies: the finalized ones but for the finality field
  const rest = (await inject(`/api/v3/transactions?account=${A}&limit=1000`)) as { transactions: Json[] };
  const byHash = new Map(rest.transactions.map((t) => [t.hash, t]));
  for (const t of txsOf(notes, 'confirmed')) expect(t).toEqual({ ...byHash.get(t.hash), finality: 'confirmed' });
  const actions = (fin: string) => notes.filter((n) => n.type === 'actions' && n.finality === fin).flatMap((n) => (n.actions as Json[]).map((a) => a.action_id));
  expect(actions('confirmed').sort()).toEqual(actions('finalized').sort());
  expect(new Set(actions('finalized')).size).toBe(actions('finalized').length);
  const restActions = (await inject(`/api/v3/actions?account=${A}&include_accounts=true&limit=1000`)) as { actions: Json[] };
  expect(actions('finalized').sort()).toEqual(restActions.actions.map((a) => a.action_id).sort());
  const byId = new Map(restActions.actions.map((a) => [a.action_id, a]));
  for (const n of notes.filter((x) => x.type === 'actions')) {
    for (const a of n.actions as Json[]) expect(a).toEqual(n.finality === 'finalized' ? byId.get(a.action_id) : { ...byId.get(a.action_id), finality: n.finality });
  }
  // account states: one per seqno with a transaction of A, per level; the last one is the account's latest state
  const seqnos = await store.query<{ n: string }>('SELECT uniqExact(mc_block_seqno) AS n FROM transactions FINAL WHERE account = {a:String}', { a: A });
  const states = (fin: string) => notes.filter((n) => n.type === 'account_state_change' && n.finality === fin);
  expect(states('confirmed').length).toBe(Number(seqnos[0].n));
  expect(states('finalized').length).toBe(Number(seqnos[0].n));
  const [latest] = await store.query<{ hash: string; balance: string }>('SELECT hash, toString(balance) AS balance FROM latest_account_states FINAL WHERE account = {a:String}', { a: A });
  const last = states('finalized').at(-1)!;
  expect(last.account).toBe(A);
  expect(last.state).toMatchObject({ hash: hashToBase64(latest.hash), balance: latest.balance, account_status: 'active' });
}

describe('streaming on a live devnet', () => {
  it('every notification has the documented shape', () => {
    const all = [clients.fin!, clients.conf!, clients.ent!].flatMap((c) => c.notes()).concat(clients.pend!.notes(), clients.trace!.notes(), clients.wsA!.notes());
    expect(all.length).toBeGreaterThan(100);
    for (const n of all) Notification.parse(n);
    expect(new Set(all.map((n) => n.type))).toEqual(new Set(['transactions', 'actions', 'trace', 'account_state_change', 'jettons_change']));
  });

  it('the finalized subscriber gets every transaction of the wallet exactly once, with the bodies /api/v3/transactions returns', async () => {
    const notes = clients.fin!.notes();
    expect(notes.every((n) => n.finality === 'finalized')).toBe(true);
    expectOrdered(notes);
    const got = txsOf(notes);
    const expected = await txHashes(A);
    expect(expected.size).toBeGreaterThan(10);
    expect(got.map((t) => t.hash).sort()).toEqual([...expected].sort());
    const rest = (await inject(`/api/v3/transactions?account=${A}&limit=1000`)) as { transactions: Json[]; address_book: Json; metadata: Json };
    const byHash = new Map(rest.transactions.map((t) => [t.hash, t]));
    for (const t of got) expect(t).toEqual(byHash.get(t.hash));
    // the address book and metadata blocks: what the REST layer gives for the same addresses
    for (const n of notes.filter((x) => x.type === 'transactions')) {
      const book = n.address_book as Json;
      expect(Object.keys(book).length).toBeGreaterThan(0);
      await expectBook(book, rest.address_book, n.mc_seqno as number);
      expect(n.metadata).toBeTypeOf('object');
    }
    // each notification carries its trace's normalized external hash; A's own externals are among them
    expect(notes.every((n) => typeof n.trace_external_hash_norm === 'string')).toBe(true);
  });

  it('the newest masterchain block\'s transactions come with it, at both levels, though their trace is still in flight at the tip', async () => {
    const rows = await store.query<{ hash: string; mc: number }>(
      `SELECT t.hash AS hash, t.mc_block_seqno AS mc FROM transactions AS t FINAL JOIN (SELECT trace_id, state FROM traces FINAL) AS r ON r.trace_id = t.trace_id
       WHERE t.account = {a:String} AND r.state = 'pending'`,
      { a: A },
    );
    // the chain ends with a message of A's in flight: its trace never completes
    expect(rows.some((r) => Number(r.mc) === tip)).toBe(true);
    const subscribers: [Json[], string[]][] = [[clients.fin!.notes(), ['finalized']], [clients.conf!.notes(), ['confirmed', 'finalized']], [clients.wsA!.notes(), ['confirmed', 'finalized']]];
    for (const [notes, levels] of subscribers) {
      for (const fin of levels) {
        const at = new Map(notes.filter((n) => n.type === 'transactions' && n.finality === fin).flatMap((n) => (n.transactions as Json[]).map((t) => [t.hash, n.mc_seqno])));
        for (const r of rows) expect(at.get(hashToBase64(r.hash)), `${fin} ${r.hash}`).toBe(Number(r.mc));
      }
    }
  });

  it('... and every action of the wallet exactly once, as /api/v3/actions renders it (with accounts)', async () => {
    const notes = clients.fin!.notes().filter((n) => n.type === 'actions');
    const got = notes.flatMap((n) => n.actions as Json[]);
    const rest = (await inject(`/api/v3/actions?account=${A}&include_accounts=true&limit=1000`)) as { actions: Json[]; address_book: Json };
    expect(rest.actions.length).toBeGreaterThan(5);
    expect(got.map((a) => a.action_id).sort()).toEqual(rest.actions.map((a) => a.action_id).sort());
    const byId = new Map(rest.actions.map((a) => [a.action_id, a]));
    for (const a of got) expect(a).toEqual(byId.get(a.action_id));
    for (const n of notes) await expectBook(n.address_book as Json, rest.address_book, n.mc_seqno as number);
  });

  it('min_finality confirmed (SSE): each transaction and action once as confirmed, then once as finalized, as /api/v3 renders them', async () => {
    await expectBothLevels(clients.conf!.notes());
  });

  it('min_finality confirmed (WebSocket): the same', async () => {
    await expectBothLevels(clients.wsA!.notes());
  });

  it('min_finality pending is answered as toncenter does with nothing pending: confirmed and finalized, never pending', async () => {
    const notes = clients.pend!.notes();
    expect(notes.length).toBeGreaterThan(0);
    expect(new Set(notes.map((n) => n.finality))).toEqual(new Set(['confirmed', 'finalized']));
    expect(notes.some((n) => n.type === 'trace_invalidated')).toBe(false);
    // over the WebSocket too: no transaction twice at a level
    const seen = notes.flatMap((n) => (n.transactions as Json[]).map((t) => `${n.finality} ${t.hash}`));
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('a WebSocket subscribe takes effect: after its answer only the new wallet, and all of it', async () => {
    const pend = clients.pend!;
    expect(switchAck).toBeGreaterThan(0);
    const before = pend.messages.slice(0, switchAck).filter((m) => m.type === 'transactions');
    const after = pend.messages.slice(switchAck + 1).filter((m) => m.type === 'transactions');
    expect(before.length).toBeGreaterThan(0);
    expect(after.length).toBeGreaterThan(0);
    expect(txsOf(before).every((t) => t.account === A)).toBe(true);
    expect(txsOf(after).every((t) => t.account === B)).toBe(true);
    // every transaction of B in a trace finished two seqnos after the switch came, finalized
    const later = await store.query<{ hash: string }>(
      `SELECT t.hash AS hash FROM transactions AS t FINAL JOIN (SELECT trace_id, state, mc_seqno_end FROM traces FINAL) AS r ON r.trace_id = t.trace_id
       WHERE t.account = {b:String} AND r.state != 'pending' AND r.mc_seqno_end > {s:UInt32}`,
      { b: B, s: finalizedAtSwitch + 2 },
    );
    expect(later.length).toBeGreaterThan(0);
    const got = new Set(txsOf(after, 'finalized').map((t) => t.hash));
    for (const r of later) expect(got.has(hashToBase64(r.hash))).toBe(true);
  });

  it('trace subscribers get each trace whole, once per level, as /api/v3/traces renders it', async () => {
    const notes = clients.trace!.notes();
    expect(notes.every((n) => n.type === 'trace')).toBe(true);
    const completed = new Set<string>();
    for (const norm of normsA) {
      const [row] = await store.query<{ trace_id: string; state: string }>(
        "SELECT trace_id, state FROM traces FINAL WHERE coalesce(external_hash_norm, external_hash) = {n:FixedString(64)}",
        { n: norm },
      );
      if (row && row.state !== 'pending') completed.add(hashToBase64(norm));
      const mine = notes.filter((n) => n.trace_external_hash_norm === hashToBase64(norm));
      if (!row || row.state === 'pending') {
        expect(mine).toEqual([]);
        continue;
      }
      expect(mine.map((n) => n.finality)).toEqual(['confirmed', 'finalized']);
      const rest = (await inject(`/api/v3/traces?trace_id=${row.trace_id}&include_actions=true`)) as { traces: Json[]; address_book: Json };
      const fin = mine[1];
      for (const [k, v] of Object.entries(rest.traces[0])) expect(fin[k], k).toEqual(v);
      expect(fin.mc_seqno).toBe(Number(rest.traces[0].mc_seqno_end));
      await expectBook(fin.address_book as Json, rest.address_book, fin.mc_seqno as number);
    }
    expect(completed.size).toBeGreaterThan(0);
  });

  it('jettons_change and account_state_change: one per wallet and seqno, the last as /api/v3 has it', async () => {
    const notes = clients.ent!.notes().filter((n) => n.finality === 'finalized');
    const jettons = notes.filter((n) => n.type === 'jettons_change');
    const [stored] = await store.query<{ n: string }>('SELECT count(DISTINCT address) AS n FROM jetton_wallets FINAL');
    expect(Number(stored.n)).toBeGreaterThan(0);
    const lastOf = new Map<string, Json>();
    for (const n of jettons) lastOf.set((n.jetton as Json).address as string, n);
    expect(lastOf.size).toBe(Number(stored.n));
    for (const [address, n] of lastOf) {
      const rest = (await inject(`/api/v3/jetton/wallets?address=${address}`)) as { jetton_wallets: Json[]; address_book: Json };
      expect(n.jetton).toEqual(rest.jetton_wallets[0]);
      await expectBook(n.address_book as Json, rest.address_book, n.mc_seqno as number);
    }
    const states = notes.filter((n) => n.type === 'account_state_change');
    const [pairs] = await store.query<{ n: string }>('SELECT uniqExact(account, mc_block_seqno) AS n FROM transactions FINAL');
    expect(states.length).toBe(Number(pairs.n));
  });

  it('a stalled client is cut with a reason, without holding back the index or the other subscribers', async () => {
    const hub = streamingHub(app, 'devnet')!;
    // the index reached the tip (h.done) and every other client got everything (the tests above) while it stalled
    expect(hub.stats().cut.slow).toBe(1);
    expect(hub.stats().clients).toBe(6);
    expect(stallBytes).toBeGreaterThan(0);
    const s = clients.stall!;
    let text = '';
    s.setEncoding('utf8');
    s.on('data', (d: string) => (text += d));
    const ended = new Promise<void>((r) => s.once('close', () => r()));
    s.resume();
    await ended;
    expect(text).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(text).toMatch(/event: connected\ndata: \{"status":"subscribed"\}/);
    expect(text).toMatch(/event: error\ndata: \{"error":"slow consumer: \d+ bytes not taken by the client \(limit 262144\); resync from \/api\/v3 and reconnect"\}\n\n/);
  });
});
