/**
 * Parameters the reference (ton-index-go) parses that a toncenter client sends, each asserted by its effect;
 * offset never wraps; prototype names are no parameters; x_debug_request logs the statements; the legacy
 * group's runGetMethod in the reference's stack format. One gateway (API v2 + v3) over a devnet chain: blocks
 * imported into chdb, the liteserver serving the same chain for the node layer; entity rows the traces stage
 * would write are inserted directly where a sort needs several of them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { Address, beginCell, Cell, loadMessage } from '@ton/core';
import type { FastifyInstance } from 'fastify';
import type { LiteSingleEngine } from 'ton-lite-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as S from '../../schemas/api/v3/entities.ts';
import { KeyStore } from '../../src/api/auth/index.ts';
import { buildGateway } from '../../src/api/gateway.ts';
import { LiteNode } from '../../src/api/v2/index.ts';
import { fromV2Stack, toV2Stack } from '../../src/api/v3/routes/legacy.ts';
import { loadChainDir } from '../../src/devnet/chain/index.ts';
import { generateDevnet, walletExternal, comment, type GenerateResult } from '../../src/devnet/generate/index.ts';
import { jettonWalletAddress } from '../../src/devnet/generate/contracts.ts';
import { readServerKeyFile, startLiteServer, type LiteServer } from '../../src/devnet/liteserver/index.ts';
import { importBlocks } from '../../pipelines/index.ts';
import { openStore, type StoreClient } from '../../src/store/client/index.ts';
import { decodeBlock } from '../../src/ton/index.ts';
import { connectEngine } from '../api-v2/helpers.ts';
import { get } from './helpers.ts';

let dir: string;
let storeDir: string;
let gen: GenerateResult;
let store: StoreClient;
let server: LiteServer;
let engine: LiteSingleEngine;
let app: FastifyInstance;
const logLines: Record<string, unknown>[] = [];

const raw = (a: Address) => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;
const b64 = (hex: string) => Buffer.from(hex, 'hex').toString('base64');
const A = (n: number) => `0:${n.toString(16).padStart(64, '0').toUpperCase()}`;
const H = (n: number) => n.toString(16).padStart(64, '0');

async function insert(table: string, rows: Record<string, unknown>[]): Promise<void> {
  await store.insertFormatted(table, rows.map((r) => JSON.stringify(r)).join('\n'), 'JSONEachRow');
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'api-v3-params-chain-'));
  storeDir = mkdtempSync(join(tmpdir(), 'api-v3-params-store-'));
  gen = await generateDevnet(dir, { seed: 'v3-params', blocks: 16, bulkWallets: 2, splitAt: null, mergeAt: null });
  store = await openStore({ dataDir: storeDir });
  await importBlocks(store, gen.devnet.blocks.map((b) => decodeBlock(b.boc)));
  server = await startLiteServer({ source: loadChainDir(dir), key: readServerKeyFile(dir)!, port: 0 });
  engine = await connectEngine(server.port, server.publicKey);
  const stream = new Writable({
    write(chunk, _enc, cb) {
      for (const line of String(chunk).split('\n').filter(Boolean)) logLines.push(JSON.parse(line) as Record<string, unknown>);
      cb();
    },
  });
  app = await buildGateway({
    networks: [{ name: 'devnet', testnet: true, services: { node: LiteNode.fromEngine(engine, { timeoutMs: 10_000 }), store } }],
    keys: new KeyStore({ anonymous: { rps: 1_000_000 } }),
    logger: { level: 'info', stream },
  });
  await app.ready();
  // entity rows as the traces stage writes them (addresses raw upper-case), several per list to sort
  const hash = H(0);
  await insert('jetton_masters', [3, 1, 2].map((n) => ({ address: A(0x100 + n), total_supply: '1', mintable: true, admin_address: A(0x900), jetton_content: '{}', jetton_wallet_code_hash: hash, code_hash: hash, data_hash: hash, last_transaction_lt: n })));
  await insert('nft_collections', [2, 3, 1].map((n) => ({ address: A(0x200 + n), next_item_index: '3', owner_address: A(0x900), collection_content: '{}', last_transaction_lt: n, code_hash: hash, data_hash: hash })));
  await insert('nft_items', [1, 2, 3].map((n) => ({ address: A(0x300 + 4 - n), init: true, index: String(n), collection_address: A(0x201), owner_address: A(0x901), content: '{}', last_transaction_lt: 10 * ((n * 7) % 5), code_hash: hash, data_hash: hash })));
  await insert('dns_entries', ['ccc.ton', 'a.ton', 'bb.ton'].map((domain, i) => ({ nft_item_address: A(0x400 + i), nft_item_owner: A(0x902), domain, dns_wallet: A(0x902), last_transaction_lt: i })));
  await insert('vesting_contracts', [2, 1, 3].map((n) => ({ address: A(0x500 + n), vesting_start_time: 1, vesting_total_duration: 2, unlock_period: 1, cliff_duration: 0, vesting_total_amount: '5', vesting_sender_address: A(0x903), owner_address: A(0x904), whitelist: [], last_transaction_lt: n, code_hash: hash, data_hash: hash })));
  await insert('nft_sales', [1, 2, 3].map((n) => ({ address: A(0x600 + n), type: 'getgems_sale', nft_address: A(0x700 + n), nft_owner_address: A(0x905), details: '{}', last_transaction_lt: n, code_hash: hash, data_hash: hash })));
  // five ton_transfer actions over two traces (trace_end_lt 100 and 200), to page through with the cursor
  await insert('actions', [[0xa1, 100, 10], [0xa1, 100, 20], [0xa2, 200, 30], [0xa2, 200, 40], [0xa2, 200, 50]].map(([trace, end, actionEnd], i) => ({
    trace_id: H(trace), action_id: H(0xc00 + i), type: 'ton_transfer', start_lt: actionEnd, end_lt: actionEnd, start_utime: actionEnd, end_utime: actionEnd,
    trace_end_lt: end, trace_end_utime: end, trace_mc_seqno_end: 1, trace_external_hash: H(trace), tx_hashes: [H(0xd00 + i)], success: true,
    source: A(0x910), destination: A(0x911), value: '1', value_extra_currencies: {}, ancestor_type: [], details: '{}',
  })));
  await insert('jetton_burns', [[1, 0x906], [2, 0x907], [3, 0x906]].map(([n, owner]) => ({ tx_hash: H(0xb00 + n), tx_lt: n, tx_now: n, tx_aborted: false, mc_seqno: 1, query_id: n, owner: A(owner), jetton_wallet_address: A(0x908), jetton_master_address: A(0x101), amount: '7' })));
}, 600_000);

afterAll(async () => {
  await app?.close();
  engine?.close();
  await server?.close();
  await store?.close();
  for (const d of [dir, storeDir]) if (d) rmSync(d, { recursive: true, force: true });
});

const list = async (url: string, key: string) => {
  const r = await get(app, url);
  expect(r.status, `${url}: ${JSON.stringify(r.body).slice(0, 200)}`).toBe(200);
  return r.body[key] as Record<string, unknown>[];
};

describe('offset never wraps at 2^32 (issue 21, hole 7)', () => {
  it('above the reference int32 bound: 422 naming offset, on every paged route; at the bound: an empty page', async () => {
    for (const url of ['/api/v3/transactions', '/api/v3/blocks', '/api/v3/messages', '/api/v3/jetton/masters', '/api/v3/nft/items', '/api/v3/actions', '/api/v3/traces', '/api/v3/topAccountsByBalance', '/api/v3/masterchainBlockShards?seqno=2&x=', '/api/v3/multisig/wallets?address=0:' + '11'.repeat(32)]) {
      const sep = url.includes('?') ? '&' : '?';
      const u = url.replace('&x=', '');
      for (const off of ['4294967297', '2147483648', '99999999999999999999']) {
        const r = await get(app, `${u}${sep}offset=${off}`);
        expect(r.status, `${u} offset=${off}`).toBe(422);
        expect(r.body.error).toBe(`invalid offset: ${off} is above the maximum 2147483647`);
      }
    }
    const r = await get(app, '/api/v3/transactions?offset=2147483647');
    expect(r.status).toBe(200);
    expect(r.body.transactions).toEqual([]);
    const one = await list('/api/v3/transactions?limit=1&offset=1&sort=asc', 'transactions');
    expect(one).toHaveLength(1);
  });
});

describe('prototype names are no parameters (issue 21, hole 8)', () => {
  for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
    it(name, async () => {
      for (const url of ['/api/v3/transactions', '/api/v3/masterchainInfo', '/api/v3/jetton/masters', `/api/v3/addressInformation?address=${raw(gen.scenarios.alice.address)}`]) {
        const sep = url.includes('?') ? '&' : '?';
        const r = await get(app, `${url}${sep}${name}=1`);
        expect(r.status, `${url} ${name}`).toBe(422);
        expect(r.body.error).toMatch(new RegExp(`^unknown parameter: "${name.replace(/_/g, '_')}"`));
      }
      if (name === '__proto__') return; // a JSON body with __proto__ is refused by the body parser itself
      for (const [url, body] of [
        ['/api/v3/runGetMethod', { address: raw(gen.scenarios.alice.address), method: 'seqno', stack: [] }],
        ['/api/v3/estimateFee', { address: raw(gen.scenarios.alice.address), body: Cell.EMPTY.toBoc().toString('base64') }],
        ['/api/v3/message', { boc: Cell.EMPTY.toBoc().toString('base64') }],
      ] as const) {
        const r = await app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ ...body, [name]: 1 }) });
        expect(r.statusCode, `${url} ${name}`).toBe(422);
        expect(r.json().error).toBe(`unknown parameter: ${name}`);
      }
      const dec = await app.inject({ method: 'POST', url: '/api/v3/decode', headers: { 'content-type': 'application/json' }, payload: `{"opcodes":["0x0f8a7ea5"],"${name}":1}` });
      expect(dec.statusCode).toBe(422);
      expect(dec.json().error).toContain(name);
    });
  }
});

describe('x_debug_request', () => {
  it('logs the statements of that request (query or header), and only of that request', async () => {
    const before = logLines.length;
    const quiet = await get(app, '/api/v3/blocks?limit=1');
    expect(quiet.status).toBe(200);
    expect(logLines.slice(before).some((l) => l.msg === 'x_debug_request statement')).toBe(false);
    const r = await get(app, '/api/v3/blocks?limit=1&x_debug_request=true');
    expect(r.status).toBe(200);
    const lines = logLines.slice(before).filter((l) => l.msg === 'x_debug_request statement');
    expect(lines.length).toBeGreaterThan(0);
    expect(String(lines[0].sql)).toMatch(/^SELECT \* FROM blocks/);
    const n = logLines.length;
    expect((await get(app, '/api/v3/masterchainInfo', { 'X-Debug-Request': '1' })).status).toBe(200);
    expect(logLines.slice(n).filter((l) => l.msg === 'x_debug_request statement').length).toBeGreaterThan(0);
    expect((await get(app, '/api/v3/blocks?x_debug_request=maybe')).status).toBe(422);
  });
});

describe('sort where the reference parses it', () => {
  it('masterchainBlockShards: gen_utime (then workchain, shard, seqno) in the direction given', async () => {
    const seqno = Number((await store.query<{ s: number }>("SELECT mc_block_seqno AS s FROM blocks FINAL GROUP BY s HAVING count() > 1 ORDER BY s DESC LIMIT 1"))[0].s);
    const asc = await list(`/api/v3/masterchainBlockShards?seqno=${seqno}&sort=asc`, 'blocks');
    const desc = await list(`/api/v3/masterchainBlockShards?seqno=${seqno}&sort=desc`, 'blocks');
    expect(asc.length).toBeGreaterThan(1);
    expect(desc).toEqual([...asc].reverse());
    const key = (b: Record<string, unknown>) => [Number(b.gen_utime), b.workchain as number];
    for (let i = 1; i < asc.length; i++) expect(key(asc[i - 1]) <= key(asc[i]) || key(asc[i - 1])[0] < key(asc[i])[0]).toBe(true);
    expect((await get(app, `/api/v3/masterchainBlockShards?seqno=${seqno}&sort=up`)).status).toBe(422);
  });

  it('topAccountsByBalance: smallest first with sort=asc', async () => {
    const desc = (await get(app, '/api/v3/topAccountsByBalance?limit=1000')).body as unknown as { balance: string }[];
    const asc = (await get(app, '/api/v3/topAccountsByBalance?limit=1000&sort=asc')).body as unknown as { balance: string }[];
    const bal = (l: { balance: string }[]) => l.map((x) => BigInt(x.balance));
    expect(bal(desc)).toEqual([...bal(desc)].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0)));
    expect(bal(asc)).toEqual([...bal(desc)].reverse());
    expect(bal(asc)[0]).toBeLessThan(bal(asc).at(-1)!);
  });

  it('jetton/masters, nft/collections, vesting: by address in the direction given', async () => {
    const masters = (await list('/api/v3/jetton/masters?admin_address=' + A(0x900), 'jetton_masters')).map((m) => m.address);
    expect(masters).toEqual([A(0x101), A(0x102), A(0x103)]);
    expect((await list('/api/v3/jetton/masters?sort=desc&admin_address=' + A(0x900), 'jetton_masters')).map((m) => m.address)).toEqual([A(0x103), A(0x102), A(0x101)]);
    expect((await list('/api/v3/nft/collections?sort=desc&owner_address=' + A(0x900), 'nft_collections')).map((m) => m.address)).toEqual([A(0x203), A(0x202), A(0x201)]);
    expect((await list('/api/v3/nft/collections?owner_address=' + A(0x900), 'nft_collections')).map((m) => m.address)).toEqual([A(0x201), A(0x202), A(0x203)]);
    expect((await list('/api/v3/vesting?sort=desc&wallet_address=' + A(0x904), 'vesting_contracts')).map((m) => m.address)).toEqual([A(0x503), A(0x502), A(0x501)]);
    expect((await list('/api/v3/vesting?wallet_address=' + A(0x904), 'vesting_contracts')).map((m) => m.address)).toEqual([A(0x501), A(0x502), A(0x503)]);
  });

  it('nft/items: the order key in the direction given; by last transaction lt newest first unless sort=asc', async () => {
    const idx = (l: Record<string, unknown>[]) => l.map((i) => i.index);
    expect(idx(await list(`/api/v3/nft/items?collection_address=${A(0x201)}`, 'nft_items'))).toEqual(['1', '2', '3']);
    expect(idx(await list(`/api/v3/nft/items?collection_address=${A(0x201)}&sort=desc`, 'nft_items'))).toEqual(['3', '2', '1']);
    // last_transaction_lt: index 1 -> 20, 2 -> 40, 3 -> 10
    expect(idx(await list(`/api/v3/nft/items?collection_address=${A(0x201)}&sort_by_last_transaction_lt=true`, 'nft_items'))).toEqual(['2', '1', '3']);
    expect(idx(await list(`/api/v3/nft/items?collection_address=${A(0x201)}&sort_by_last_transaction_lt=true&sort=asc`, 'nft_items'))).toEqual(['3', '1', '2']);
  });

  it('dns/records: by domain length then domain, in the direction given', async () => {
    expect((await list(`/api/v3/dns/records?wallet=${A(0x902)}`, 'records')).map((r) => r.domain)).toEqual(['a.ton', 'bb.ton', 'ccc.ton']);
    expect((await list(`/api/v3/dns/records?wallet=${A(0x902)}&sort=desc`, 'records')).map((r) => r.domain)).toEqual(['ccc.ton', 'bb.ton', 'a.ton']);
  });

  it('nft/sales pages with limit / offset and sorts by address', async () => {
    const q = [1, 2, 3].map((n) => `address=${A(0x600 + n)}`).join('&');
    expect((await list(`/api/v3/nft/sales?${q}`, 'nft_sales')).map((s) => s.address)).toEqual([A(0x601), A(0x602), A(0x603)]);
    expect((await list(`/api/v3/nft/sales?${q}&sort=desc&limit=2`, 'nft_sales')).map((s) => s.address)).toEqual([A(0x603), A(0x602)]);
    expect((await list(`/api/v3/nft/sales?${q}&limit=1&offset=1`, 'nft_sales')).map((s) => s.address)).toEqual([A(0x602)]);
  });
});

describe('transactions and transactionsByMessage: the reference TransactionsRequest', () => {
  interface MsgRow {
    msg_hash: string;
    source: string | null;
    destination: string | null;
    tx_hash: string;
    tx_lt: string;
    direction: string;
  }
  const internal = async () => {
    const rows = await store.query<MsgRow>("SELECT msg_hash, source, destination, tx_hash, tx_lt, toString(direction) AS direction FROM messages FINAL WHERE message_type = 'int' ORDER BY tx_lt LIMIT 2 BY msg_hash");
    const byHash = new Map<string, MsgRow[]>();
    for (const r of rows) byHash.set(r.msg_hash, [...(byHash.get(r.msg_hash) ?? []), r]);
    return [...byHash.values()].find((l) => l.length === 2)!;
  };

  it('msg_hash finds sender and receiver; direction, source, destination narrow to the same message; sort orders by lt', async () => {
    const pair = await internal();
    const out = pair.find((r) => r.direction === 'out')!;
    const inn = pair.find((r) => r.direction === 'in')!;
    const hashes = (l: Record<string, unknown>[]) => l.map((t) => t.hash);
    const both = await list(`/api/v3/transactionsByMessage?msg_hash=${out.msg_hash}&sort=asc`, 'transactions');
    expect(hashes(both)).toEqual([b64(out.tx_hash), b64(inn.tx_hash)]);
    expect(hashes(await list(`/api/v3/transactionsByMessage?msg_hash=${out.msg_hash}`, 'transactions'))).toEqual([b64(inn.tx_hash), b64(out.tx_hash)]);
    expect(hashes(await list(`/api/v3/transactionsByMessage?msg_hash=${out.msg_hash}&direction=in`, 'transactions'))).toEqual([b64(inn.tx_hash)]);
    expect(hashes(await list(`/api/v3/transactionsByMessage?msg_hash=${out.msg_hash}&source=${out.source}&destination=${out.destination}`, 'transactions'))).toHaveLength(2);
    expect(await list(`/api/v3/transactionsByMessage?msg_hash=${out.msg_hash}&source=${out.destination}`, 'transactions')).toEqual([]);
    expect(await list(`/api/v3/transactionsByMessage?msg_hash=${out.msg_hash}&destination=${out.source}`, 'transactions')).toEqual([]);
    // the same filters on /transactions (the reference serves both from one request type)
    expect(hashes(await list(`/api/v3/transactions?msg_hash=${out.msg_hash}&direction=out`, 'transactions'))).toEqual([b64(out.tx_hash)]);
    const dirOnly = await get(app, '/api/v3/transactions?direction=in');
    expect(dirOnly.status).toBe(422);
    expect(dirOnly.body.error).toBe('direction can be specified only with msg_hash or opcode');
    expect((await get(app, '/api/v3/transactionsByMessage?direction=in')).body.error).toBe('at least one of msg_hash, body_hash, opcode should be specified');
  });

  it('exclude_externals / only_externals: whether the matched message is an external-in one', async () => {
    const ext = (await store.query<MsgRow>("SELECT msg_hash, tx_hash, body_hash FROM messages FINAL WHERE message_type = 'ext_in' ORDER BY tx_lt LIMIT 1"))[0] as MsgRow & { body_hash: string };
    const pair = await internal();
    const hashes = (l: Record<string, unknown>[]) => l.map((t) => t.hash);
    expect(hashes(await list(`/api/v3/transactionsByMessage?msg_hash=${ext.msg_hash}&only_externals=true`, 'transactions'))).toEqual([b64(ext.tx_hash)]);
    expect(await list(`/api/v3/transactionsByMessage?msg_hash=${ext.msg_hash}&exclude_externals=true`, 'transactions')).toEqual([]);
    expect(await list(`/api/v3/transactionsByMessage?msg_hash=${pair[0].msg_hash}&only_externals=1`, 'transactions')).toEqual([]);
    expect(await list(`/api/v3/transactionsByMessage?msg_hash=${pair[0].msg_hash}&exclude_externals=1`, 'transactions')).toHaveLength(2);
    // by body hash: every transaction whose external-in message carried that body
    expect(hashes(await list(`/api/v3/transactionsByMessage?body_hash=${ext.body_hash}&only_externals=true`, 'transactions'))).toContain(b64(ext.tx_hash));
    expect((await get(app, `/api/v3/transactionsByMessage?msg_hash=${ext.msg_hash}&only_externals=true&exclude_externals=true`)).status).toBe(422);
  });

  it('root_hash / file_hash: the transactions of that block', async () => {
    const blk = (await store.query<{ workchain: number; shard: string; seqno: number; root_hash: string; file_hash: string; n: string }>(
      'SELECT workchain, toString(shard) AS shard, seqno, root_hash, file_hash, tx_count AS n FROM blocks FINAL WHERE workchain = 0 AND tx_count > 1 ORDER BY seqno LIMIT 1',
    ))[0];
    const expected = (await list(`/api/v3/transactions?workchain=0&shard=${BigInt(blk.shard).toString(16).padStart(16, '0')}&seqno=${blk.seqno}&limit=1000`, 'transactions')).map((t) => t.hash);
    expect(expected.length).toBe(Number(blk.n));
    expect((await list(`/api/v3/transactions?root_hash=${blk.root_hash}&limit=1000`, 'transactions')).map((t) => t.hash)).toEqual(expected);
    expect((await list(`/api/v3/transactions?file_hash=${encodeURIComponent(b64(blk.file_hash))}&limit=1000`, 'transactions')).map((t) => t.hash)).toEqual(expected);
    expect(await list(`/api/v3/transactions?root_hash=${H(0xdead)}`, 'transactions')).toEqual([]);
    // exclude_account is a condition of the page: full pages
    const first = expected[0];
    const firstAccount = (await list(`/api/v3/transactions?hash=${encodeURIComponent(first as string)}`, 'transactions'))[0].account as string;
    const rest = await list(`/api/v3/transactions?root_hash=${blk.root_hash}&exclude_account=${firstAccount}&limit=1000`, 'transactions');
    expect(rest.every((t) => t.account !== firstAccount)).toBe(true);
  });
});

describe('messages: the legacy hash and msg_hash together', () => {
  it('are refused as the reference refuses them', async () => {
    const h = H(0x77);
    const r = await get(app, `/api/v3/messages?hash=${h}&msg_hash=${h}`);
    expect(r.body).toEqual({ code: 422, error: 'cannot use both legacy and new message hashes' });
    expect((await get(app, `/api/v3/messages?hash=${h}`)).status).toBe(200);
  });
});

describe('actions cursor (the reference newer than the pinned commit)', () => {
  it('a full page carries next_cursor; the next page starts strictly after it, in either direction', async () => {
    const ids = (r: { body: Record<string, unknown> }) => (r.body.actions as { action_id: string }[]).map((x) => Buffer.from(x.action_id, 'base64').toString('hex'));
    const all = (await get(app, '/api/v3/actions?action_type=ton_transfer&limit=100')).body.actions as unknown[];
    expect(all).toHaveLength(5);
    for (const sort of ['desc', 'asc']) {
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 5; page++) {
        const r = await get(app, `/api/v3/actions?action_type=ton_transfer&limit=2&sort=${sort}${cursor ? `&cursor=${cursor}` : ''}`);
        expect(r.status).toBe(200);
        seen.push(...ids(r));
        cursor = r.body.next_cursor as string | undefined;
        if (!cursor) break;
      }
      const expected = [0, 1, 2, 3, 4].map((i) => H(0xc00 + i));
      // trace_end_lt, then trace_id, end_lt, action_id
      expect(seen).toEqual(sort === 'asc' ? expected : [...expected].reverse());
    }
    const first = await get(app, '/api/v3/actions?action_type=ton_transfer&limit=2');
    const cur = first.body.next_cursor as string;
    expect((await get(app, `/api/v3/actions?action_type=ton_transfer&limit=2&cursor=${cur}&offset=2`)).body.error).toBe('cursor cannot be combined with offset');
    expect((await get(app, `/api/v3/actions?action_type=ton_transfer&limit=2&cursor=${cur}&sort=asc`)).body.error).toMatch(/^invalid cursor: it was made for another sort/);
    expect((await get(app, '/api/v3/actions?action_type=ton_transfer&cursor=nonsense')).body).toEqual({ code: 422, error: 'invalid cursor' });
    // a page that is not full has no cursor
    expect((await get(app, '/api/v3/actions?action_type=ton_transfer&limit=100')).body.next_cursor).toBeUndefined();
  });
});

describe('walletStates code_hash / include_boc, jetton/burns owner_address', () => {
  it('code_hash keeps the wallets running that code; include_boc is accepted and changes nothing there', async () => {
    const { alice, bob } = gen.scenarios;
    const q = `address=${raw(alice.address)}&address=${raw(bob.address)}`;
    const all = S.WalletStatesResponse.parse((await get(app, `/api/v3/walletStates?${q}`)).body);
    expect(all.wallets).toHaveLength(2);
    const v4 = all.wallets.find((w) => w.wallet_type === 'wallet v4 r2')!;
    const only = S.WalletStatesResponse.parse((await get(app, `/api/v3/walletStates?${q}&code_hash=${encodeURIComponent(v4.code_hash!)}`)).body);
    expect(only.wallets.map((w) => w.address)).toEqual([raw(alice.address)]);
    const noBoc = await get(app, `/api/v3/walletStates?${q}&include_boc=false`);
    expect(noBoc.body.wallets).toEqual(all.wallets);
  });

  it('jetton/burns: owner_address filters the burner; address is its alias when owner_address is absent', async () => {
    const lts = async (u: string) => (await list(u, 'jetton_burns')).map((b) => b.transaction_lt);
    expect(await lts(`/api/v3/jetton/burns?owner_address=${A(0x906)}`)).toEqual(['3', '1']);
    expect(await lts(`/api/v3/jetton/burns?address=${A(0x907)}`)).toEqual(['2']);
    expect(await lts(`/api/v3/jetton/burns?owner_address=${A(0x906)}&address=${A(0x907)}&sort=asc`)).toEqual(['1', '3']);
    expect(await lts(`/api/v3/jetton/burns?owner_address=${A(0x906)}&owner_address=${A(0x907)}`)).toEqual(['3', '2', '1']);
  });
});

describe('legacy group: runGetMethod as the reference proxy (v3 stack both ways), estimateFee', () => {
  const post = (url: string, payload: unknown) => app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(payload) });

  it('num, cell and slice arguments; answers {gas_used, exit_code, stack} with 0x numbers, cells, lists', async () => {
    const { alice, bob } = gen.scenarios;
    const seqno = await post('/api/v3/runGetMethod', { address: raw(alice.address), method: 'seqno', stack: [] });
    expect(seqno.statusCode).toBe(200);
    const body = seqno.json() as { gas_used: number; exit_code: number; stack: unknown[] };
    expect(Object.keys(body)).toEqual(['gas_used', 'exit_code', 'stack']);
    expect(body).toMatchObject({ exit_code: 0, stack: [{ type: 'num', value: '0x' + alice.seqno.toString(16) }] });
    expect(body.gas_used).toBeGreaterThan(0);
    const { jettonMinter, nftCollection, nftItem } = gen.scenarios.cycles[0];
    const owner = beginCell().storeAddress(bob.address).endCell().toBoc().toString('base64');
    const wa = (await post('/api/v3/runGetMethod', { address: raw(jettonMinter), method: 'get_wallet_address', stack: [{ type: 'slice', value: owner }] })).json() as { stack: { type: string; value: string }[] };
    expect(wa.stack[0].type).toBe('cell');
    expect(Cell.fromBase64(wa.stack[0].value).beginParse().loadAddress().equals(jettonWalletAddress(bob.address, jettonMinter))).toBe(true);
    // numbers as JSON numbers or hex strings
    for (const value of [0, '0x0', '0']) {
      const byIndex = (await post('/api/v3/runGetMethod', { address: raw(nftCollection), method: 'get_nft_address_by_index', stack: [{ type: 'num', value }] })).json() as { stack: { value: string }[] };
      expect(Cell.fromBase64(byIndex.stack[0].value).beginParse().loadAddress().equals(nftItem)).toBe(true);
    }
    // get_nft_content(index, individual content cell): a cell argument
    const content = (await post('/api/v3/runGetMethod', { address: raw(nftCollection), method: 'get_nft_content', stack: [{ type: 'num', value: '0x0' }, { type: 'cell', value: beginCell().storeStringTail('x.json').endCell().toBoc().toString('base64') }] })).json() as { exit_code: number; stack: { type: string }[] };
    expect(content.exit_code).toBe(0);
    expect(content.stack[0].type).toBe('cell');
    // v5r1 get_extensions: no extensions is TVM null, which tonlib lists as an empty list
    const ext = (await post('/api/v3/runGetMethod', { address: raw(bob.address), method: 'get_extensions', stack: [] })).json() as { stack: unknown[] };
    expect(ext.stack).toEqual([{ type: 'list', value: [] }]);
  });

  it('every branch of the conversion, both ways', () => {
    expect(toV2Stack([{ type: 'num', value: '0x12a' }, { type: 'num', value: 7 }, { type: 'cell', value: 'te6' }, { type: 'slice', value: 'te6' }])).toEqual([['num', '0x12a'], ['num', 7], ['tvm.Cell', 'te6'], ['tvm.Slice', 'te6']]);
    expect(() => toV2Stack([{ type: 'tuple', value: '[]' }])).toThrow(/unsupported stack parameter type: "tuple"/);
    expect(() => toV2Stack([{ type: 'cell', value: 5 }])).toThrow(/a cell is a base64 BoC string/);
    const num = (n: string) => ({ '@type': 'tvm.stackEntryNumber', number: { '@type': 'tvm.numberDecimal', number: n } });
    expect(
      fromV2Stack([
        ['num', '-0x5'],
        ['cell', { bytes: 'AAA=', object: {} }],
        ['tuple', { '@type': 'tvm.tuple', elements: [num('-31'), num('0'), { '@type': 'tvm.stackEntrySlice', slice: { '@type': 'tvm.slice', bytes: 'BBB=' } }, { '@type': 'tvm.stackEntryCell', cell: { '@type': 'tvm.cell', bytes: 'CCC=' } }] }],
        ['list', { '@type': 'tvm.list', elements: [{ '@type': 'tvm.stackEntryTuple', tuple: { '@type': 'tvm.tuple', elements: [num('255')] } }, { '@type': 'tvm.stackEntryList', list: { '@type': 'tvm.list', elements: [] } }] }],
      ]),
    ).toEqual([
      { type: 'num', value: '-0x5' },
      { type: 'cell', value: 'AAA=' },
      { type: 'tuple', value: [{ type: 'num', value: '-0x1f' }, { type: 'num', value: '0x0' }, { type: 'slice', value: 'BBB=' }, { type: 'cell', value: 'CCC=' }] },
      { type: 'list', value: [{ type: 'tuple', value: [{ type: 'num', value: '0xff' }] }, { type: 'list', value: [] }] },
    ]);
    expect(() => fromV2Stack([['builder', { bytes: 'AAA=' }]])).toThrow('unsupported stack entry type: builder');
    expect(() => fromV2Stack([['tuple', { elements: [num('NaN')] }]])).toThrow(/failed to parse decimal NaN/);
  });

  it('refusals name what is wrong; the v2 status passes through', async () => {
    const alice = raw(gen.scenarios.alice.address);
    const tuple = await post('/api/v3/runGetMethod', { address: alice, method: 'seqno', stack: [{ type: 'tuple', value: 'x' }] });
    expect(tuple.statusCode).toBe(422);
    expect(tuple.json().error).toBe('invalid request body field stack.0.type: unsupported stack parameter type: "tuple" (num, cell or slice)');
    const legacyShape = await post('/api/v3/runGetMethod', { address: alice, method: 'seqno', stack: [['num', '1']] });
    expect(legacyShape.statusCode).toBe(422);
    const noMethod = await post('/api/v3/runGetMethod', { address: alice, stack: [] });
    expect(noMethod.statusCode).toBe(422);
    expect(noMethod.json().error).toMatch(/^invalid request body field method: /);
    const badNum = await post('/api/v3/runGetMethod', { address: alice, method: 'seqno', stack: [{ type: 'num', value: 'zz' }] });
    expect(badNum.statusCode).toBe(422);
    expect(badNum.json().error).toMatch(/^failed to parse stack: stack\[0\]: cannot parse number/);
    const wc = await post('/api/v3/runGetMethod', { address: `1:${'ab'.repeat(32)}`, method: 'seqno' });
    expect(wc.statusCode).toBe(422);
    expect((await post('/api/v3/runGetMethod', [1, 2])).statusCode).toBe(422);
  });

  it('estimateFee: a BoC without root cell is 422 (was 500); ignore_chksig absent is false, as the reference reads it', async () => {
    const alice = raw(gen.scenarios.alice.address);
    const empty = await post('/api/v3/estimateFee', { address: alice, body: 'te6ccgAA' });
    expect(empty.statusCode).toBe(422);
    expect(empty.json()).toEqual({ code: 422, error: 'failed to parse body: expected one root cell, got 0' });
    // a transfer signed with the wrong key: checked by default, estimated when ignore_chksig is true
    const w = gen.scenarios.alice;
    const forged = loadMessage(walletExternal({ ...w, keyPair: { ...w.keyPair, secretKey: Buffer.alloc(64, 2) } }, [{ to: gen.scenarios.bob.address, value: 1n, bounce: false, body: comment('fee') }], 2_000_000_000).beginParse());
    const body = forged.body.toBoc().toString('base64');
    const checked = await post('/api/v3/estimateFee', { address: alice, body });
    // the account refusing the caller's message is the caller's to fix (issue 35: was a 500)
    expect(checked.statusCode).toBe(422);
    expect(checked.json().error).toMatch(/^the external message would be rejected: .*exit code 35/);
    const ignored = await post('/api/v3/estimateFee', { address: alice, body, ignore_chksig: true });
    expect(ignored.statusCode).toBe(200);
    const fees = (ignored.json() as { source_fees: Record<string, unknown> }).source_fees;
    expect(typeof fees.gas_fee).toBe('number');
    expect(fees.gas_fee as number).toBeGreaterThan(0);
  });
});

describe('bad input (issue 35)', () => {
  const post = (url: string, payload: unknown) => app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(payload) });
  // a BoC cut short: @ton/core's parser fails with its own offsets ("Index 24 > 24 is out of bounds")
  const cut = () => {
    const boc = beginCell().storeUint(7, 32).storeRef(beginCell().storeUint(9, 64).endCell()).endCell().toBoc();
    return boc.subarray(0, boc.length - 3).toString('base64');
  };
  const OWN = 'not a valid bag of cells (the bytes do not parse as a serialized BoC)';

  it('estimateFee of a message the account refuses before its contract runs (it cannot pay the import): 422 with the emulator\'s text, v2 and v3', async () => {
    const nobody = `0:${'ab'.repeat(32)}`;
    const body = Cell.EMPTY.toBoc().toString('base64');
    const v3 = await post('/api/v3/estimateFee', { address: nobody, body });
    expect(v3.statusCode).toBe(422);
    expect(v3.json().error).toMatch(/^the external message would be rejected: .*inbound external message rejected by account/);
    const v2 = await post('/api/v2/estimateFee', { address: nobody, body });
    expect(v2.statusCode).toBe(422);
    expect(v2.json()).toMatchObject({ ok: false, code: 422 });
    expect(v2.json().error).toBe(v3.json().error);
  });

  it('a BoC that does not parse: 422 naming the parameter in our words, on every route that takes one (v2 and v3)', async () => {
    const alice = raw(gen.scenarios.alice.address);
    const junk = cut();
    const cases: [string, unknown, string][] = [
      ['/api/v3/estimateFee', { address: alice, body: junk }, 'body'],
      ['/api/v3/estimateFee', { address: alice, body: Cell.EMPTY.toBoc().toString('base64'), init_code: junk }, 'init_code'],
      ['/api/v3/estimateFee', { address: alice, body: Cell.EMPTY.toBoc().toString('base64'), init_data: junk }, 'init_data'],
      ['/api/v3/message', { boc: junk }, 'boc'],
      ['/api/v2/estimateFee', { address: alice, body: junk }, 'body'],
      ['/api/v2/sendBoc', { boc: junk }, 'boc'],
      ['/api/v2/sendBocReturnHash', { boc: junk }, 'boc'],
      ['/api/v2/sendQuery', { address: alice, body: junk }, 'body'],
    ];
    for (const [url, payload, param] of cases) {
      const r = await post(url, payload);
      expect(r.statusCode, `${url} ${param}`).toBe(422);
      expect(r.json().error, url).toBe(`failed to parse ${param}: ${OWN}`);
      expect(r.json().error).not.toMatch(/Index|out of bounds/);
    }
    // sendBocReturnHashNoError answers its failures as 400 (ton-http-api-cpp), with the same words
    const noErr = await post('/api/v2/sendBocReturnHashNoError', { boc: junk });
    expect(noErr.statusCode).toBe(400);
    expect(noErr.json().error).toBe(`failed to parse boc: ${OWN}`);
    // get-method stacks (v2 and the v3 legacy proxy) name the stack
    const stack = await post('/api/v2/runGetMethod', { address: alice, method: 'seqno', stack: [['tvm.Cell', junk]] });
    expect(stack.statusCode).toBe(422);
    expect(stack.json().error).toMatch(/^failed to parse stack: /);
    expect(stack.json().error).not.toMatch(/Index|out of bounds/);
    const v3stack = await post('/api/v3/runGetMethod', { address: alice, method: 'seqno', stack: [{ type: 'cell', value: junk }] });
    expect(v3stack.statusCode).toBe(422);
    expect(v3stack.json().error).not.toMatch(/Index|out of bounds/);
  });

  it('x_timeout / X-Timeout of 0: 422 naming it (was 504 on every route); an unknown route stays 404', async () => {
    for (const url of ['/api/v3/transactions?x_timeout=0', '/api/v3/masterchainInfo?x_timeout=0', '/api/v3/blocks?limit=1&x_timeout=0']) {
      const r = await get(app, url);
      expect(r.status, url).toBe(422);
      expect(r.body.error).toBe('invalid x_timeout: must be a positive number of milliseconds');
    }
    const h = await get(app, '/api/v3/transactions', { 'x-timeout': '0' });
    expect(h.status).toBe(422);
    expect(h.body.error).toBe('invalid X-Timeout header: must be a positive number of milliseconds');
    expect((await get(app, '/api/v3/transactions?x_timeout=-5')).body.error).toBe('invalid x_timeout: "-5" is not an unsigned 32-bit integer');
    expect((await get(app, '/api/v3/noSuchRoute?x_timeout=0')).status).toBe(404);
    expect((await get(app, '/api/v3/transactions?limit=1&x_timeout=1')).status).not.toBe(422);
    expect((await get(app, '/api/v3/transactions?limit=1&x_timeout=3000')).status).toBe(200);
  });
});

describe('newer reference parameters (issue 35)', () => {
  it('comma-separated addresses and hashes read as the parameter repeated (#421); other lists are not split', async () => {
    const rows = await store.query<{ account: string; hash: string }>('SELECT account, hash FROM transactions FINAL ORDER BY lt LIMIT 40');
    const accounts = [...new Set(rows.map((r) => r.account))].slice(0, 2);
    expect(accounts).toHaveLength(2);
    const hashes = (l: Record<string, unknown>[]) => l.map((t) => t.hash);
    const repeated = await list(`/api/v3/transactions?account=${accounts[0]}&account=${accounts[1]}&limit=1000`, 'transactions');
    expect(repeated.length).toBeGreaterThan(1);
    expect(hashes(await list(`/api/v3/transactions?account=${accounts.join(',')}&limit=1000`, 'transactions'))).toEqual(hashes(repeated));
    // empty items are skipped; user-friendly forms split too
    const friendly = Address.parseRaw(accounts[1]).toString();
    expect(hashes(await list(`/api/v3/transactions?account=${accounts[0]},,${encodeURIComponent(friendly)},&limit=1000`, 'transactions'))).toEqual(hashes(repeated));
    const two = rows.slice(0, 2).map((r) => r.hash);
    const byHash = await list(`/api/v3/transactions?hash=${two.join(',')}`, 'transactions');
    expect(byHash.map((t) => Buffer.from(String(t.hash), 'base64').toString('hex')).sort()).toEqual([...two].sort());
    // commas only would be the reference's empty values (they match nothing): refused rather than read as no filter
    const none = await get(app, '/api/v3/transactions?account=,');
    expect(none.status).toBe(422);
    expect(none.body.error).toBe('invalid account: no value between the commas');
    // a bad item is named
    const badItem = await get(app, `/api/v3/transactions?account=${accounts[0]},nope`);
    expect(badItem.status).toBe(422);
    expect(badItem.body.error).toMatch(/^invalid account: "nope" is not an address/);
    // action_type is a list of strings: not split (the reference's string converter takes "a,b" whole, and its
    // character check then refuses the comma)
    const joined = await get(app, '/api/v3/actions?action_type=ton_transfer,call_contract');
    expect(joined.status).toBe(422);
    expect(joined.body.error).toBe('action_type contains invalid characters');
    expect((await list('/api/v3/actions?action_type=ton_transfer', 'actions')).length).toBeGreaterThan(0);
  });

  it('opcode matches the message on either side; direction narrows it (the reference no longer forces in)', async () => {
    const m = (await store.query<{ opcode: number; n: string }>(
      "SELECT opcode, count() AS n FROM messages FINAL WHERE message_type = 'int' AND opcode IS NOT NULL AND opcode != 0 GROUP BY opcode HAVING countIf(direction = 'out') > 0 AND countIf(direction = 'in') > 0 ORDER BY opcode LIMIT 1",
    ))[0];
    expect(m).toBeDefined();
    const op = `0x${(m.opcode >>> 0).toString(16).padStart(8, '0')}`;
    const expectedBoth = (await store.query<{ tx_hash: string }>(`SELECT DISTINCT tx_hash FROM messages FINAL WHERE opcode = ${m.opcode}`)).map((r) => r.tx_hash).sort();
    const expectedOut = (await store.query<{ tx_hash: string }>(`SELECT DISTINCT tx_hash FROM messages FINAL WHERE opcode = ${m.opcode} AND direction = 'out'`)).map((r) => r.tx_hash).sort();
    const hex = (l: Record<string, unknown>[]) => l.map((t) => Buffer.from(String(t.hash), 'base64').toString('hex')).sort();
    expect(hex(await list(`/api/v3/transactions?opcode=${op}&limit=1000`, 'transactions'))).toEqual(expectedBoth);
    expect(hex(await list(`/api/v3/transactionsByMessage?opcode=${op}&limit=1000`, 'transactions'))).toEqual(expectedBoth);
    expect(hex(await list(`/api/v3/transactions?opcode=${op}&direction=out&limit=1000`, 'transactions'))).toEqual(expectedOut);
    expect(expectedOut.length).toBeLessThan(expectedBoth.length);
  });
});
