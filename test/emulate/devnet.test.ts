// Emulated traces end to end on a live devnet (issue 33): the devnet liteserver over ADNL serves a chain that grows
// round by round and includes what is sent to it, the whole pipeline indexes it into a chdb store, and the gateway
// emulates every external message sent through it (sendBoc, sendBocReturnHash, jsonRPC, /api/v3/message) as a whole
// trace against the newest indexed state. What the gateway said before the chain (pendingTraces, pendingActions,
// pendingTransactions, streaming `pending`) is checked against what the chain then did, as /api/v3 serves it.
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Address, Cell, loadMessage, toNano } from '@ton/core';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIndexer, type IndexerHandle } from '../../pipelines/index.ts';
import { KeyStore } from '../../src/api/auth/index.ts';
import { buildGateway } from '../../src/api/gateway.ts';
import { LiteNode, normalizedHash } from '../../src/api/v2/index.ts';
import { MemoryBus } from '../../src/bus/index.ts';
import { LiveChain } from '../../src/devnet/chain/index.ts';
import { comment, createDevnet, walletExternal, type LiveDevnet, type Wallet } from '../../src/devnet/generate/index.ts';
import { jettonMintBody, jettonMinterInit, jettonTransferBody, jettonWalletAddress } from '../../src/devnet/generate/contracts.ts';
import { startLiteServer, type LiteServer } from '../../src/devnet/liteserver/index.ts';
import { compareTraces, EmulationService, type PendingEvent } from '../../src/emulate/index.ts';
import { emulatedPending, liteserverState, renderEmulated } from '../../src/api/emulate/index.ts';
import { Db } from '../../src/api/v3/index.ts';
import { LiteserverPool } from '../../src/source/index.ts';
import { parseTxDoc, stringifyTxDoc, type TxDoc } from '../../src/decode/index.ts';
import { openStore, type StoreClient } from '../../src/store/client/index.ts';
import { InProcessFeed, NotificationPublisher } from '../../src/feed/index.ts';
import { until } from '../helpers/until.ts';
import { openWs, type WsClient } from '../streaming/clients.ts';

type Json = Record<string, unknown>;

const START = Math.floor(Date.now() / 1000) - 3600;
const VALID_UNTIL = START + 10_000_000;
let live: LiveDevnet;
let chain: LiveChain;
let ls: LiteServer;
let data: string;
let store: StoreClient;
let pool: LiteserverPool;
let app: FastifyInstance;
let h: IndexerHandle;
let feed: InProcessFeed;
let service: EmulationService;
let finalized = 0;
let wsUrl: string;
const events: PendingEvent[] = [];
/** the completed traces the indexer published, by norm (what the service compared against) */
const completed = new Map<string, { docs: string[]; actions: { row: Json }[] }>();
let alice: Wallet;
let bob: Wallet;
let carol: Wallet;
let minter: Address;

const raw = (a: Address) => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;
const b64 = (hex: string) => Buffer.from(hex, 'hex').toString('base64');

async function get(url: string): Promise<Json> {
  const r = await app.inject({ method: 'GET', url });
  expect(r.statusCode, `${url}: ${r.body.slice(0, 300)}`).toBe(200);
  return r.json() as Json;
}

async function post(url: string, payload: unknown) {
  const r = await app.inject({ method: 'POST', url, payload: payload as Json });
  return { status: r.statusCode, body: r.json() as Json };
}

/** One round of the chain, then waits until the index finalized it. */
async function round(): Promise<number> {
  const mc = await chain.produce();
  const seqno = mc!.id.seqno;
  await until(() => finalized >= seqno, `seqno ${seqno} finalized`, 120_000);
  return seqno;
}

/** Sends a message to the chain directly (another wallet app), bypassing the gateway. */
function direct(msg: Cell): void {
  live.sendMessage(msg.toBoc());
}

beforeAll(async () => {
  live = await createDevnet({ seed: 'emulate-devnet', startTime: START });
  const zs = live.devnet.zeroState.mc.ref;
  chain = new LiveChain(live, { globalId: live.devnet.globalId, zeroState: { workchain: -1, rootHash: zs.rootHash, fileHash: zs.fileHash } });
  ({ alice, bob, carol } = live.scenarios);
  // wallets deployed, a jetton minter deployed by carol, 1000 jettons minted to alice: before the index starts
  direct(walletExternal(alice, [{ to: bob.address, value: toNano('0.1'), bounce: false, body: comment('deploy alice') }], VALID_UNTIL, true));
  direct(walletExternal(bob, [{ to: alice.address, value: toNano('0.1'), bounce: false, body: comment('deploy bob') }], VALID_UNTIL, true));
  const minterInit = jettonMinterInit(carol.address, 'https://devnet.example/jetton/emulate.json');
  minter = live.devnet.addressOf(minterInit);
  direct(walletExternal(carol, [{ to: minter, value: toNano('0.5'), bounce: false, init: minterInit }], VALID_UNTIL, true));
  await chain.produce();
  await chain.produce();
  direct(walletExternal(carol, [{ to: minter, value: toNano('0.3'), bounce: true, body: jettonMintBody(1n, alice.address, toNano('0.2'), 1000_000_000_000n, carol.address, toNano('0.01'), null) }], VALID_UNTIL));
  for (let i = 0; i < 4; i++) await chain.produce();

  ls = await startLiteServer({ source: chain, key: Buffer.alloc(32, 33), host: '127.0.0.1', port: 0 });
  data = mkdtempSync(join(tmpdir(), 'tg-emulate-data-'));
  store = await openStore({ dataDir: data });
  pool = new LiteserverPool([{ host: `127.0.0.1:${ls.port}`, publicKey: ls.publicKey }], { timeoutMs: 10_000 });
  await pool.start();
  feed = new InProcessFeed();
  await feed.subscribe((e) => {
    if (e.kind === 'finalized') finalized = Math.max(finalized, e.mc_seqno);
    else for (const t of e.traces) if (t.complete) completed.set(t.norm, { docs: [...t.earlier, ...t.docs], actions: t.actions });
  });
  const networks = [{ name: 'devnet', testnet: true, services: { node: LiteNode.fromPool(pool), store, feed } as Record<string, unknown> }];
  app = await buildGateway({
    networks,
    keys: new KeyStore({ anonymous: { rps: 1_000_000 } }),
    streaming: { limits: { anonymousConnections: 50 } },
    // small bounds, so that this chain passes them: a trace not on chain within 3 seqnos is invalidated
    emulation: { maxQueued: 3, bounds: { maxSeqnos: 3, maxTraces: 4, maxMs: 600_000 } },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  wsUrl = `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/streaming/v2/ws`;
  service = networks[0].services.emulation as EmulationService;
  service.on((e) => events.push(e));
  const publisher = new NotificationPublisher(feed, { store });
  h = await runIndexer({ bus: new MemoryBus(), source: pool, store, fromSeqno: 1, notifications: publisher });
  h.done.catch(() => undefined); // following the chain: stopped in afterAll, its ingest ends aborted
  await until(() => finalized >= chain.lastMasterchain().id.seqno, 'the first rounds indexed', 300_000);
}, 600_000);

afterAll(async () => {
  await h?.stop();
  await app?.close();
  await pool?.close();
  await ls?.close();
  await store?.close();
  if (data) rmSync(data, { recursive: true, force: true });
}, 120_000);

/** What the contracts decided in a rendered transaction: no hashes, lt, times, states or storage fees (they cannot match). */
function decided(t: Json): Json {
  const d = t.description as Json;
  const compute = d.compute_ph as Json;
  const action = (d.action as Json | undefined) ?? null;
  const msg = (m: Json | null) =>
    m && {
      source: m.source, destination: m.destination, value: m.value, fwd_fee: m.fwd_fee, opcode: m.opcode, bounce: m.bounce, bounced: m.bounced,
      body: (m.message_content as Json | null)?.hash, decoded: (m.message_content as Json | null)?.decoded, init_state: (m.init_state as Json | null)?.hash ?? null,
    };
  return {
    account: t.account, orig_status: t.orig_status, end_status: t.end_status, aborted: d.aborted, destroyed: d.destroyed, credit_first: d.credit_first,
    credit: (d.credit_ph as Json | undefined)?.credit ?? null,
    compute: { ...compute },
    action: action && { ...action, action_list_hash: undefined },
    bounce: d.bounce ?? null,
    in_msg: msg(t.in_msg as Json | null),
    out_msgs: (t.out_msgs as Json[]).map(msg),
  };
}

/** The transactions of a rendered trace in tree order (root, then each transaction's children by out-message order). */
function treeOrder(trace: Json): Json[] {
  const txs = trace.transactions as Record<string, Json>;
  const byIn = new Map(Object.values(txs).map((t) => [(t.in_msg as Json).hash as string, t]));
  const root = Object.values(txs).find((t) => (t.in_msg as Json).source === null)!;
  const out: Json[] = [];
  const walk = (t: Json) => {
    out.push(t);
    for (const m of t.out_msgs as Json[]) {
      const c = byIn.get(m.hash as string);
      if (c) walk(c);
    }
  };
  walk(root);
  return out;
}

const actionShape = (a: Json) => ({ type: a.type, success: a.success, details: a.details, accounts: a.accounts });

/**
 * Sends `msg` through `how`, checks the pending trace the gateway serves right after, produces rounds until the
 * chain's trace is finalized, and compares them; returns both.
 */
async function sendAndCompare(msg: Cell, how: 'sendBoc' | 'sendBocReturnHash' | 'message' | 'jsonRPC', txCount: number) {
  const boc = msg.toBoc().toString('base64');
  const hash = msg.hash().toString('hex');
  const norm = normalizedHash(loadMessage(msg.beginParse())).toString('hex');
  const sender = raw(loadMessage(msg.beginParse()).info.dest as Address);
  const ws: WsClient = await openWs(wsUrl);
  expect(await ws.request({ operation: 'subscribe', id: 's', types: ['transactions', 'actions', 'trace'], addresses: [sender], trace_external_hash_norms: [norm], min_finality: 'pending' })).toEqual({ id: 's', status: 'subscribed' });
  const sent =
    how === 'message'
      ? await post('/api/v3/message', { boc })
      : how === 'jsonRPC'
        ? await post('/api/v2/jsonRPC', { jsonrpc: '2.0', id: 1, method: 'sendBoc', params: { boc } })
        : await post(`/api/v2/${how}`, { boc });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);

  // before the chain: the emulated trace, its actions and transactions
  const pending = (await get(`/api/v3/pendingTraces?ext_msg_hash=${hash}`)).traces as Json[];
  expect(pending).toHaveLength(1);
  const p = pending[0];
  expect(p.trace_id).toBeNull();
  expect(p.external_hash).toBe(b64(hash));
  expect(p.trace_info).toMatchObject({ trace_state: 'pending', transactions: txCount, classification_state: 'ok' });
  const ptx = Object.values(p.transactions as Record<string, Json>);
  expect(ptx).toHaveLength(txCount);
  for (const t of ptx) expect(t).toMatchObject({ emulated: true, finality: 'pending', trace_external_hash: b64(norm) });
  const byAccount = (await get(`/api/v3/pendingTraces?account=${sender}`)).traces as Json[];
  expect(byAccount.map((t) => t.external_hash)).toContain(b64(hash));
  const pendingActions = (await get(`/api/v3/pendingActions?ext_msg_hash=${hash}`)).actions as Json[];
  expect(pendingActions.length).toBeGreaterThan(0);
  for (const a of pendingActions) expect(a.finality).toBe('pending');
  const pendingTxs = (await get(`/api/v3/pendingTransactions?account=${sender}`)).transactions as Json[];
  expect(pendingTxs.filter((t) => t.emulated && (t.in_msg as Json).hash === b64(hash))).toHaveLength(1);
  // the streaming subscriber got it at the pending level
  await until(() => ws.notes().some((n) => n.type === 'trace' && n.finality === 'pending'), 'a pending trace notification', 30_000);

  // the chain: rounds until the trace is indexed and finalized
  const confirmedBefore = events.filter((e) => e.kind === 'confirmed').length;
  for (let i = 0; i < txCount + 2 && !events.some((e) => (e.kind === 'confirmed' || e.kind === 'invalidated') && e.norm === norm); i++) await round();
  await until(() => events.some((e) => (e.kind === 'confirmed' || e.kind === 'invalidated') && e.norm === norm), 'the emulated trace confirmed or invalidated', 60_000);
  const fate = events.find((e) => (e.kind === 'confirmed' || e.kind === 'invalidated') && e.norm === norm)!;
  expect(fate.kind === 'invalidated' ? fate.reason : fate.kind).toBe('confirmed');
  expect(events.filter((e) => e.kind === 'confirmed').length).toBe(confirmedBefore + 1);
  await round(); // the seqno that finalizes the last one's notifications
  const indexed = (await get(`/api/v3/traces?msg_hash=${hash}&include_actions=true`)).traces as Json[];
  expect(indexed).toHaveLength(1);
  const r = indexed[0];
  expect(r.trace_info).toMatchObject({ trace_state: 'complete', transactions: txCount });

  // transaction by transaction, in tree order: everything the contracts decided is equal
  const [pe, re] = [treeOrder(p), treeOrder(r)];
  expect(pe).toHaveLength(txCount);
  expect(pe.map(decided)).toEqual(re.map(decided));
  // the external message is the same message
  expect((pe[0].in_msg as Json).hash).toBe((re[0].in_msg as Json).hash);
  // and so are the actions
  const indexedActions = (await get(`/api/v3/actions?trace_id=${encodeURIComponent(String(r.trace_id))}&include_accounts=true`)).actions as Json[];
  const pendingWithAccounts = pendingActions.map((a) => ({ ...a, accounts: undefined }));
  expect(pendingWithAccounts.map(actionShape)).toEqual(indexedActions.map((a) => ({ ...actionShape(a), accounts: undefined })));
  expect((p.actions as Json[]).map(actionShape)).toEqual((r.actions as Json[]).map(actionShape));
  // gone from the pending lists
  expect((await get(`/api/v3/pendingTraces?ext_msg_hash=${hash}`)).traces).toEqual([]);

  // streaming: pending, then confirmed and finalized, never invalidated
  await until(() => ws.notes().some((n) => n.type === 'trace' && n.finality === 'finalized'), 'a finalized trace notification', 60_000);
  const levels = ws.notes().filter((n) => n.type === 'trace').map((n) => n.finality);
  expect(levels).toEqual(['pending', 'confirmed', 'finalized']);
  expect(ws.notes().some((n) => n.type === 'trace_invalidated')).toBe(false);
  const pendTxNote = ws.notes().find((n) => n.type === 'transactions' && n.finality === 'pending')!;
  for (const t of pendTxNote.transactions as Json[]) expect(t).toMatchObject({ emulated: true, finality: 'pending' });
  ws.ws.close();
  return { pending: p, indexed: r };
}

describe('emulated traces of the messages sent', () => {
  it('a TON transfer through sendBocReturnHash: the pending trace is the trace the chain makes', async () => {
    const msg = walletExternal(alice, [{ to: bob.address, value: toNano('1.5'), bounce: true, body: comment('pending, then confirmed') }], VALID_UNTIL);
    const { pending } = await sendAndCompare(msg, 'sendBocReturnHash', 2);
    expect((pending.actions as Json[]).map((a) => a.type)).toEqual(['ton_transfer']);
    // what was compared: the emulated rows against the chain's, equal; a changed exit code or value is a difference
    const norm = normalizedHash(loadMessage(msg.beginParse())).toString('hex');
    const rows = events.flatMap((e) => (e.kind === 'pending' && e.entry.rows.norm === norm ? [e.entry.rows] : []))[0];
    const onChain = completed.get(norm)!;
    expect(compareTraces(rows, onChain)).toMatchObject({ equal: true, differences: [], matched: 2 });
    const edit = (docs: string[], f: (d: TxDoc) => void) => docs.map((text) => {
      const d = structuredClone(parseTxDoc(text)) as TxDoc;
      f(d);
      return stringifyTxDoc(d);
    });
    const exit = compareTraces(rows, { ...onChain, docs: edit(onChain.docs, (d) => { if (d.tx.account === raw(bob.address)) d.tx.compute_exit_code = 9; }) });
    expect(exit.equal).toBe(false);
    expect(exit.differences).toEqual(['root.0: compute_exit_code 0 emulated, 9 on chain']);
    const value = compareTraces(rows, { ...onChain, docs: edit(onChain.docs, (d) => { for (const m of d.msgs) if (m.direction === 'out') m.value = '1'; }) });
    expect(value.differences).toContain('root.out[0]: value "1500000000" emulated, "1" on chain');
    const fewer = compareTraces(rows, { ...onChain, actions: [] });
    expect(fewer.differences).toEqual(['1 actions emulated, 0 on chain']);
  }, 300_000);

  it('a jetton transfer through sendBoc: 5 transactions across 4 accounts, and the jetton_transfer action', async () => {
    const aliceJetton = jettonWalletAddress(alice.address, minter);
    const msg = walletExternal(alice, [{ to: aliceJetton, value: toNano('0.3'), bounce: true, body: jettonTransferBody(9n, 25_000_000_000n, bob.address, alice.address, toNano('0.05'), comment('jettons, pending')) }], VALID_UNTIL);
    const { pending } = await sendAndCompare(msg, 'sendBoc', 5);
    const types = (pending.actions as Json[]).map((a) => a.type);
    expect(types).toContain('jetton_transfer');
    const jt = (pending.actions as Json[]).find((a) => a.type === 'jetton_transfer')!;
    expect(jt.details).toMatchObject({ amount: '25000000000', comment: 'jettons, pending' });
  }, 300_000);

  it('through jsonRPC and /api/v3/message too', async () => {
    await sendAndCompare(walletExternal(bob, [{ to: alice.address, value: toNano('0.2'), bounce: true, body: comment('via jsonRPC') }], VALID_UNTIL), 'jsonRPC', 2);
    await sendAndCompare(walletExternal(bob, [{ to: carol.address, value: toNano('0.2'), bounce: true, body: comment('via v3 message') }], VALID_UNTIL), 'message', 2);
  }, 600_000);

  it('POST /api/emulate/v1/emulateTrace: upstream EmulateTraceResponse, nothing sent', async () => {
    const seqno = alice.seqno;
    const aliceJetton = jettonWalletAddress(alice.address, minter);
    const msg = walletExternal(alice, [{ to: aliceJetton, value: toNano('0.3'), bounce: true, body: jettonTransferBody(10n, 1_000_000_000n, carol.address, alice.address, toNano('0.05'), null) }], VALID_UNTIL);
    alice.seqno = seqno; // not sent
    const boc = msg.toBoc().toString('base64');
    const r = await post('/api/emulate/v1/emulateTrace', { boc, with_actions: true, include_code_data: true, include_address_book: true, include_metadata: true });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const b = r.body;
    expect(Object.keys(b).sort()).toEqual(['actions', 'address_book', 'code_cells', 'data_cells', 'is_incomplete', 'mc_block_seqno', 'metadata', 'rand_seed', 'trace', 'transactions']);
    expect(b.mc_block_seqno).toBe(finalized);
    expect(b.is_incomplete).toBe(false);
    expect(Buffer.from(String(b.rand_seed), 'base64')).toHaveLength(32);
    const txs = b.transactions as Record<string, Json>;
    expect(Object.keys(txs)).toHaveLength(5);
    const tree = b.trace as Json;
    expect(tree.in_msg_hash).toBe(b64(msg.hash().toString('hex')));
    expect(txs[String(tree.tx_hash)]).toMatchObject({ account: raw(alice.address), emulated: true });
    const count = (n: Json): number => 1 + (n.children as Json[]).reduce((a, c) => a + count(c), 0);
    expect(count(tree)).toBe(5);
    expect((b.actions as Json[]).map((a) => a.type)).toContain('jetton_transfer');
    // the end states' code and data, by hash (base64): every transaction's account_state_after names one of them
    for (const t of Object.values(txs)) {
      const after = t.account_state_after as Json;
      if (after.code_hash) expect(b.code_cells as Json).toHaveProperty([String(after.code_hash)]);
      if (after.data_hash) expect(b.data_cells as Json).toHaveProperty([String(after.data_hash)]);
    }
    expect(b.address_book as Json).toHaveProperty([raw(alice.address)]);
    // nothing was sent or held
    expect(service.find({ hashes: [msg.hash().toString('hex')] })).toEqual([]);
    // without the options: no actions, book or metadata; the code and data cells still (the reference writes them always)
    const bare = await post('/api/emulate/v1/emulateTrace', { boc });
    expect(Object.keys(bare.body).sort()).toEqual(['code_cells', 'data_cells', 'is_incomplete', 'mc_block_seqno', 'rand_seed', 'trace', 'transactions']);
    expect(bare.body.code_cells).toEqual(b.code_cells);
    // at a given masterchain block of the index, and one it does not have
    expect((await post('/api/emulate/v1/emulateTrace', { boc, mc_block_seqno: finalized - 1 })).body.mc_block_seqno).toBe(finalized - 1);
    expect(await post('/api/emulate/v1/emulateTrace', { boc, mc_block_seqno: 9_999_999 })).toEqual({ status: 404, body: { error: 'masterchain block 9999999 is not in the index' } });
    // bad input: 400 naming it, in the reference's envelope
    expect(await post('/api/emulate/v1/emulateTrace', {})).toEqual({ status: 400, body: { error: 'invalid request: boc is required' } });
    expect(await post('/api/emulate/v1/emulateTrace', { boc: 'not base64!' })).toEqual({ status: 400, body: { error: 'invalid request: invalid boc: not standard base64' } });
    expect(await post('/api/emulate/v1/emulateTrace', { boc, with_actions: 'yes' })).toEqual({ status: 400, body: { error: 'invalid request: with_actions must be a boolean' } });
    expect(await post('/api/emulate/v1/emulateTrace', { boc, bogus: 1 })).toEqual({ status: 400, body: { error: 'invalid request: unknown field "bogus"' } });
    const empty = new Cell().toBoc().toString('base64');
    expect(await post('/api/emulate/v1/emulateTrace', { boc: empty })).toEqual({ status: 400, body: { error: 'invalid request: invalid boc: the root cell is not a Message' } });
  }, 120_000);

  it('the bounds: a trace cut by the transaction or the depth bound is served incomplete, its rest pending, unclassified', async () => {
    const seqno = alice.seqno;
    const msg = walletExternal(alice, [{ to: jettonWalletAddress(alice.address, minter), value: toNano('0.3'), bounce: true, body: jettonTransferBody(11n, 1_000_000_000n, carol.address, alice.address, toNano('0.05'), null) }], VALID_UNTIL);
    alice.seqno = seqno; // not sent
    const state = liteserverState(store, LiteNode.fromPool(pool));
    const full = await new EmulationService({ store, state }).emulate(msg);
    expect(full.txs).toHaveLength(5);
    expect(full.limitExceeded).toBe(false);
    const byTxs = await new EmulationService({ store, state, maxTxs: 3 }).emulate(msg);
    const byDepth = await new EmulationService({ store, state, maxDepth: 2 }).emulate(msg);
    // breadth first: the first 3 of the full trace; depth 2: the wallet and its jetton wallet
    expect(byTxs.txs.map((t) => t.account)).toEqual(full.txs.slice(0, 3).map((t) => t.account));
    expect(byDepth.txs.map((t) => t.account)).toEqual([raw(alice.address), raw(jettonWalletAddress(alice.address, minter))]);
    for (const cut of [byTxs, byDepth]) {
      expect(cut.limitExceeded).toBe(true);
      expect(cut.actions).toEqual([]);
      expect(cut.trace).toMatchObject({ state: 'pending' });
      expect(Number(cut.trace.pending_edges)).toBeGreaterThan(0);
      const r = await renderEmulated(new Db(store), cut);
      expect(r.trace).toMatchObject({ is_incomplete: true, trace_id: null, trace_info: { trace_state: 'pending', classification_state: 'unclassified', transactions: cut.txs.length } });
    }
  }, 120_000);

  it('without a feed (a serve process with no Kafka): the store\'s complete trace takes a pending one off the lists', async () => {
    const lone = new EmulationService({ store, state: liteserverState(store, LiteNode.fromPool(pool)) });
    const pend = emulatedPending(lone);
    const msg = walletExternal(bob, [{ to: carol.address, value: toNano('0.05'), bounce: true, body: comment('no feed here') }], VALID_UNTIL);
    expect(lone.track(await lone.emulate(msg))).not.toBeNull();
    const q = { hashes: [msg.hash().toString('hex')] };
    const pg = { limit: 10, offset: 0, dir: 'DESC' as const };
    expect((await pend.page(new Db(store), q, pg, new Set())).rendered).toHaveLength(1);
    direct(msg);
    await round();
    await round();
    expect(((await get(`/api/v3/traces?msg_hash=${msg.hash().toString('hex')}`)).traces as Json[])[0].trace_info).toMatchObject({ trace_state: 'complete' });
    const after = await pend.page(new Db(store), q, pg, new Set());
    expect(after.rendered).toEqual([]);
    expect(after.rest).toEqual(pg);
    // still held by the service (without a feed only the bounds end it), but served no more
    expect(lone.pending.size).toBe(1);
  }, 120_000);

  it('a message its account rejects: no pending trace, and the sender is told why', async () => {
    // alice's seqno already used (a replay): her wallet throws 33
    alice.seqno--;
    const msg = walletExternal(alice, [{ to: bob.address, value: toNano('1'), bounce: true, body: comment('replayed') }], VALID_UNTIL);
    const res = await post('/api/v2/sendBocReturnHash', { boc: msg.toBoc().toString('base64') });
    expect(res.status).toBe(500);
    // the liteserver's refusal (the devnet checks as a full node does) and the emulation's, each with the exit code
    expect(String(res.body.error)).toMatch(/^LITE_SERVER_UNKNOWN: cannot apply external message to current state : External message was not accepted\n.*exitcode=33.*\(exit code 33: /s);
    expect(String(res.body.error)).toMatch(/emulation: the external message is not accepted by its account: .*\(exit code 33\)/);
    expect((await get(`/api/v3/pendingTraces?ext_msg_hash=${msg.hash().toString('hex')}`)).traces).toEqual([]);
    expect(service.find({ hashes: [msg.hash().toString('hex')] })).toEqual([]);
    // the emulation API says it as it is: the caller's message, refused (422), nothing sent
    const emu = await post('/api/emulate/v1/emulateTrace', { boc: msg.toBoc().toString('base64') });
    expect(emu.status).toBe(422);
    expect(String(emu.body.error)).toMatch(/not accepted by its account.*exit code 33/);
  }, 120_000);

  it('a message replaced by a conflicting one ends in trace_invalidated', async () => {
    // the same seqno twice: one sent elsewhere first (it is the one included), the other through the gateway
    const seqno = alice.seqno;
    const first = walletExternal(alice, [{ to: carol.address, value: toNano('0.3'), bounce: true, body: comment('sent elsewhere first') }], VALID_UNTIL);
    alice.seqno = seqno;
    const second = walletExternal(alice, [{ to: bob.address, value: toNano('0.4'), bounce: true, body: comment('replaced') }], VALID_UNTIL);
    const norm = normalizedHash(loadMessage(second.beginParse())).toString('hex');
    const ws = await openWs(wsUrl);
    expect(await ws.request({ operation: 'subscribe', id: 's', types: ['transactions', 'actions'], addresses: [raw(alice.address)], min_finality: 'pending' })).toEqual({ id: 's', status: 'subscribed' });
    direct(first);
    expect((await post('/api/v2/sendBoc', { boc: second.toBoc().toString('base64') })).status).toBe(200);
    expect(service.find({ hashes: [norm] })).toHaveLength(1);
    await until(() => ws.notes().some((n) => n.type === 'transactions' && n.finality === 'pending'), 'the pending notification', 30_000);
    for (let i = 0; i < 6 && !events.some((e) => e.kind === 'invalidated' && e.norm === norm); i++) await round();
    const inv = events.find((e) => e.kind === 'invalidated' && e.norm === norm);
    expect(inv && inv.kind === 'invalidated' && inv.reason).toMatch(/no trace of the message on chain within 3 masterchain blocks/);
    await until(() => ws.notes().some((n) => n.type === 'trace_invalidated'), 'trace_invalidated', 30_000);
    expect(ws.notes().filter((n) => n.type === 'trace_invalidated')).toEqual([{ type: 'trace_invalidated', trace_external_hash_norm: b64(norm) }]);
    // the chain made the other message's trace, and the replaced one left the pending lists
    expect(((await get(`/api/v3/traces?msg_hash=${first.hash().toString('hex')}`)).traces as Json[]).length).toBe(1);
    expect((await get(`/api/v3/pendingTraces?ext_msg_hash=${second.hash().toString('hex')}`)).traces).toEqual([]);
    ws.ws.close();
  }, 300_000);

  it('a flood is bounded: 429 past the queue, at most maxTraces held, the rest invalidated', async () => {
    const seqno = bob.seqno;
    const msgs = Array.from({ length: 12 }, (_, i) => {
      bob.seqno = seqno;
      return walletExternal(bob, [{ to: alice.address, value: toNano('0.01'), bounce: true, body: comment(`flood ${i}`) }], VALID_UNTIL);
    });
    const before = events.filter((e) => e.kind === 'invalidated').length;
    const res = await Promise.all(msgs.map((m) => post('/api/v2/sendBoc', { boc: m.toBoc().toString('base64') })));
    const codes = res.map((r) => r.status);
    expect(codes.filter((c) => c === 429).length).toBeGreaterThan(0);
    expect(codes.filter((c) => c === 200).length).toBeGreaterThan(0);
    expect(codes.every((c) => c === 200 || c === 429)).toBe(true);
    for (const r of res.filter((x) => x.status === 429)) expect(String(r.body.error)).toMatch(/too many messages being emulated \(3 running or waiting\)/);
    expect(service.stats().queued).toBe(0);
    expect(service.pending.size).toBeLessThanOrEqual(4);
    // the accepted beyond the bound were dropped and told so
    const accepted = codes.filter((c) => c === 200).length;
    const dropped = events.filter((e) => e.kind === 'invalidated').length - before;
    expect(dropped).toBe(Math.max(0, accepted - 4));
    bob.seqno = seqno + 1;
    // the emulation API is bounded the same way
    const flood = await Promise.all(Array.from({ length: 10 }, () => post('/api/emulate/v1/emulateTrace', { boc: msgs[0].toBoc().toString('base64') })));
    expect(flood.filter((r) => r.status === 429).length).toBeGreaterThan(0);
    expect(flood.every((r) => r.status === 200 || r.status === 429)).toBe(true);
  }, 300_000);
});
