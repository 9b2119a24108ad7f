// The off-chain metadata fetcher against a local HTTP server (node:http) and a real chdb store: TEP-64 content read
// from real contract states (the tsTON minter's semi-chain content, Fragment's off-chain collection content), fetched,
// merged, cached in address_metadata with an expiry, rate limited per host (controllable clock), failures recorded as
// invalid (timeout, oversized, not JSON, HTTP errors, private hosts), and read back through API v3 `metadata`.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cell, loadShardAccount } from '@ton/core';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyStore } from '../../src/api/auth/index.ts';
import { buildServer } from '../../src/api/server.ts';
import { v3Group } from '../../src/api/v3/index.ts';
import { takeMetadataArgs } from '../../src/cli/metadata-args.ts';
import { MetadataFetcher, parseContentCell, parseStoredContent, type Candidate, type Clock } from '../../src/metadata/index.ts';
import { fillKvFromStore, openStore, type StoreClient } from '../../src/store/client/index.ts';

const ACCOUNTS = new URL('../fixtures/accounts/', import.meta.url).pathname;

/** A contract's address and the content cell of its data (the data's first ref holding TEP-64 content). */
function contentOf(file: string): { address: string; content: Cell } {
  const sa = loadShardAccount(Cell.fromBoc(readFileSync(join(ACCOUNTS, file)))[0].beginParse());
  const a = sa.account!;
  const st = a.storage.state;
  if (st.type !== 'active' || !st.state.data) throw new Error('not an active contract');
  const content = st.state.data.refs.find((r) => parseContentCell(r)?.uri?.startsWith('https://'))!;
  return { address: `${a.addr.workChain}:${a.addr.hash.toString('hex').toUpperCase()}`, content };
}

const TSTON = 'mainnet-shardaccount-before-block-wc0-71398501-tsTON-jetton-minter-tonstakers.inferred-bdf3fa80.boc';
const FRAGMENT = 'mainnet-shardaccount-before-block-wc0-71398501-telegram-telemint-nft-collection.inferred-f5605a75.boc';

/** Controllable clock: sleeping advances time at once and is recorded. */
class FakeClock implements Clock {
  slept: number[] = [];
  constructor(public t: number) {}
  now() {
    return this.t;
  }
  async sleep(ms: number) {
    this.slept.push(ms);
    this.t += ms;
    await Promise.resolve();
  }
}

// ---------------------------------------------------------------- the local metadata server

const hits = new Map<string, number>();
const docs: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
  // what tonstakers.com/jetton/meta.json and nft.fragment.com/collection/poolfloat.json serve, in their shape
  '/jetton/meta.json': (_q, r) => json(r, { name: 'Tonstakers TON (off-chain)', description: 'Tonstakers liquid staking token', image: 'https://tonstakers.com/jetton/logo.svg', symbol: 'TSTON', decimals: 9, social: ['https://t.me/tonstakers'] }),
  '/collection/poolfloat.json': (_q, r) => json(r, { name: 'Anonymous Telegram Numbers', description: 'These anonymous numbers can be used to create Telegram accounts.', image: 'https://nft.fragment.com/numbers.svg', external_link: 'https://fragment.com/numbers' }),
  '/ipfs/QmYFiVRdXqxv5U1J1T3b5WzSQc8qsbvddxhGvZL2X1UhyM/1.json': (_q, r) => json(r, { name: 'Item #1', image: 'ipfs://QmYFiVRdXqxv5U1J1T3b5WzSQc8qsbvddxhGvZL2X1UhyM/1.png', attributes: [{ trait_type: 'Rarity', value: 'rare' }] }),
  '/big.json': (_q, r) => json(r, { name: 'x'.repeat(4096) }),
  '/big-chunked.json': (_q, r) => {
    r.writeHead(200, { 'content-type': 'application/json' });
    r.write('{"name":"');
    for (let i = 0; i < 8; i++) r.write('y'.repeat(512));
    r.end('"}');
  },
  '/page.html': (_q, r) => {
    r.writeHead(200, { 'content-type': 'text/html' });
    r.end('<html><body>not metadata</body></html>');
  },
  '/array.json': (_q, r) => json(r, [1, 2, 3]),
  '/gone.json': (_q, r) => {
    r.writeHead(404);
    r.end();
  },
  '/flaky.json': (_q, r) => {
    if ((hits.get('/flaky.json') ?? 0) === 1) {
      r.writeHead(503);
      r.end();
    } else json(r, { name: 'Flaky' });
  },
  '/slow.json': () => {
    // never answers: the client's timeout ends it
  },
};

function json(r: ServerResponse, v: unknown) {
  const body = JSON.stringify(v);
  r.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  r.end(body);
}

let server: Server;
let base: string;
let dir: string;
let store: StoreClient;
let app: FastifyInstance;

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const h = docs[path];
    if (h) h(req, res);
    else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  dir = mkdtempSync(join(tmpdir(), 'tg-metadata-'));
  store = await openStore({ dataDir: dir });
  app = buildServer({ networks: [{ name: 'mainnet', testnet: false, services: {} }], keys: new KeyStore({ anonymous: { rps: 1_000_000 } }), groups: [v3Group({ store })] });
  await app.ready();
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await app?.close();
  await store?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const local = (uri: string) => uri.replace(/^https:\/\/[^/]+/, base);
const addr = (n: number) => `0:${n.toString(16).toUpperCase().padStart(64, '0')}`;

async function metadataRow(address: string) {
  const [r] = await store.query<Record<string, unknown>>('SELECT *, toUnixTimestamp64Milli(expires_at) AS exp_ms FROM address_metadata FINAL WHERE address = {a:String}', { a: address });
  return r;
}

describe('TEP-64 content of real contracts', () => {
  it('tsTON minter: semi-chain (on-chain name, symbol, decimals and a uri); Fragment collection: off-chain uri', () => {
    const ts = parseContentCell(contentOf(TSTON).content)!;
    // tsTON is Tonstakers' liquid staking jetton: 9 decimals
    expect(ts.onchain).toMatchObject({ name: 'Tonstakers TON', symbol: 'tsTON', decimals: '9' });
    expect(ts.uri).toMatch(/^https:\/\/tonstakers\.com\//);
    const fr = parseContentCell(contentOf(FRAGMENT).content)!;
    expect(fr.onchain).toEqual({});
    expect(fr.uri).toMatch(/^https:\/\/nft\.fragment\.com\/collection\/.+\.json$/);
    // the content column as the entity stage stores it (JSON of the decoded map), and as a BoC
    expect(parseStoredContent(JSON.stringify({ uri: ts.uri, ...ts.onchain }))).toEqual(ts);
    expect(parseStoredContent(contentOf(FRAGMENT).content.toBoc().toString('base64'))).toEqual(fr);
    expect(parseStoredContent('{}')).toEqual({ uri: null, onchain: {} });
    expect(parseStoredContent('')).toBeNull();
  });
});

describe('fetcher rounds over the store', () => {
  const clock = new FakeClock(Date.parse('2025-06-01T00:00:00Z'));
  let fetcher: MetadataFetcher;
  let tston: { address: string; content: Cell };
  let fragment: { address: string; content: Cell };

  beforeAll(async () => {
    tston = contentOf(TSTON);
    fragment = contentOf(FRAGMENT);
    const ts = parseContentCell(tston.content)!;
    const fr = parseContentCell(fragment.content)!;
    const rows = (table: string, list: Record<string, unknown>[]) => store.insertFormatted(table, list.map((r) => JSON.stringify(r)).join('\n'), 'JSONEachRow');
    await rows('jetton_masters', [{ address: tston.address, total_supply: '1', mintable: true, admin_address: null, jetton_content: JSON.stringify({ uri: local(ts.uri!), ...ts.onchain }), jetton_wallet_code_hash: '0'.repeat(64), code_hash: '0'.repeat(64), data_hash: '0'.repeat(64), last_transaction_lt: '1' }]);
    await rows('nft_collections', [{ address: fragment.address, next_item_index: '0', owner_address: null, collection_content: JSON.stringify({ uri: local(fr.uri!) }), last_transaction_lt: '1', code_hash: '0'.repeat(64), data_hash: '0'.repeat(64) }]);
    await rows('nft_items', [
      { address: addr(1), init: true, index: '1', collection_address: fragment.address, owner_address: null, real_owner: null, content: JSON.stringify({ uri: 'ipfs://QmYFiVRdXqxv5U1J1T3b5WzSQc8qsbvddxhGvZL2X1UhyM/1.json' }), last_transaction_lt: '1', code_hash: '0'.repeat(64), data_hash: '0'.repeat(64) },
      { address: addr(2), init: true, index: '2', collection_address: fragment.address, owner_address: null, real_owner: null, content: '{}', last_transaction_lt: '1', code_hash: '0'.repeat(64), data_hash: '0'.repeat(64) },
      { address: addr(3), init: true, index: '3', collection_address: fragment.address, owner_address: null, real_owner: null, content: JSON.stringify({ name: 'On-chain item', image: 'https://example.org/3.png' }), last_transaction_lt: '1', code_hash: '0'.repeat(64), data_hash: '0'.repeat(64) },
    ]);
    // rows written by SQL reach the key-value store (src/kv) the way an upgraded store's do: filled from ClickHouse
    if (store.kv) await fillKvFromStore(store, store.kv, { tables: ['jetton_masters', 'nft_collections', 'nft_items'] });
    fetcher = new MetadataFetcher(store, { clock, ipfsGateway: base, allowPrivateHosts: true, hostRps: 1000, successTtlMs: 86_400_000 });
  });

  it('fetches, merges semi-chain content (on-chain wins) and writes valid rows with an expiry', async () => {
    const stats = await fetcher.runOnce();
    // the item with empty content ('{}') is not a candidate
    expect(stats).toEqual({ candidates: 4, valid: 4, invalid: 0 });
    const j = await metadataRow(tston.address);
    expect(j).toMatchObject({ type: 'jetton_masters', valid: true, name: 'Tonstakers TON', symbol: 'tsTON', description: 'Tonstakers liquid staking token', image: 'https://tonstakers.com/jetton/logo.svg' });
    expect(JSON.parse(String(j.extra))).toEqual({ decimals: '9', social: ['https://t.me/tonstakers'], uri: local(parseContentCell(tston.content)!.uri!) });
    expect(Number(j.exp_ms)).toBe(clock.now() + 86_400_000);
    expect(await metadataRow(fragment.address)).toMatchObject({ type: 'nft_collections', valid: true, name: 'Anonymous Telegram Numbers', image: 'https://nft.fragment.com/numbers.svg' });
    const item = await metadataRow(addr(1));
    expect(item).toMatchObject({ type: 'nft_items', valid: true, name: 'Item #1' });
    expect(JSON.parse(String(item.extra)).attributes).toEqual([{ trait_type: 'Rarity', value: 'rare' }]);
    // pure on-chain content: written without a request
    expect(await metadataRow(addr(3))).toMatchObject({ valid: true, name: 'On-chain item', image: 'https://example.org/3.png' });
    expect(hits.get('/ipfs/QmYFiVRdXqxv5U1J1T3b5WzSQc8qsbvddxhGvZL2X1UhyM/1.json')).toBe(1);
  });

  it('cache: nothing is fetched again until the row expires', async () => {
    const before = hits.get('/jetton/meta.json');
    expect(await fetcher.runOnce()).toEqual({ candidates: 0, valid: 0, invalid: 0 });
    expect(hits.get('/jetton/meta.json')).toBe(before);
    clock.t += 86_400_000 + 1;
    expect((await fetcher.runOnce()).candidates).toBe(4);
    expect(hits.get('/jetton/meta.json')).toBe(before! + 1);
  });

  it('the API metadata blocks read the rows', async () => {
    const r = await app.inject({ method: 'GET', url: `/api/v3/metadata?address=${tston.address}&address=${fragment.address}&address=${addr(1)}` });
    expect(r.statusCode).toBe(200);
    const body = r.json() as Record<string, { is_indexed: boolean; token_info: Record<string, unknown>[] }>;
    expect(body[tston.address]).toEqual({
      is_indexed: true,
      token_info: [{ type: 'jetton_masters', valid: true, name: 'Tonstakers TON', symbol: 'tsTON', description: 'Tonstakers liquid staking token', image: 'https://tonstakers.com/jetton/logo.svg',
        is_nsfw: false, is_scam: false, extra: { decimals: '9', social: ['https://t.me/tonstakers'], uri: local(parseContentCell(tston.content)!.uri!) } }],
    });
    expect(body[fragment.address].token_info[0]).toMatchObject({ type: 'nft_collections', valid: true, name: 'Anonymous Telegram Numbers' });
    expect(body[addr(1)].token_info[0]).toMatchObject({ type: 'nft_items', valid: true, name: 'Item #1', nft_index: '1' });
  });
});

describe('fetch failures are recorded as invalid', () => {
  const cand = (n: number, uri: string): Candidate => ({ address: addr(n), type: 'nft_items', content: { uri, onchain: {} } });

  it('timeout, oversized (declared and streamed), not JSON, not an object, 404: one request each, valid=false with the reason', async () => {
    const clock = new FakeClock(Date.now());
    const f = new MetadataFetcher(store, { clock, allowPrivateHosts: true, timeoutMs: 300, maxBytes: 1024, retries: 0, failureTtlMs: 3_600_000, hostRps: 1000 });
    const cases: [number, string, RegExp][] = [
      [100, '/slow.json', /^timeout after 300 ms$/],
      [101, '/big.json', /over the 1024-byte limit/],
      [102, '/big-chunked.json', /over the 1024-byte limit/],
      [103, '/page.html', /^not JSON$/],
      [104, '/array.json', /^not a JSON object$/],
      [105, '/gone.json', /^HTTP 404$/],
    ];
    for (const [n, path, reason] of cases) {
      expect(await f.process(cand(n, base + path)), path).toBe(false);
      const row = await metadataRow(addr(n));
      expect(row.valid, path).toBe(false);
      expect(JSON.parse(String(row.extra)).error, path).toMatch(reason);
      expect(Number(row.exp_ms)).toBe(clock.now() + 3_600_000);
      expect(hits.get(path), path).toBe(1);
    }
    const api = await app.inject({ method: 'GET', url: `/api/v3/metadata?address=${addr(101)}` });
    expect(api.json()[addr(101)]).toEqual({ is_indexed: true, token_info: [{ type: 'nft_items', valid: false }] });
  });

  it('a transient failure is retried after a backoff, then succeeds', async () => {
    const clock = new FakeClock(Date.now());
    const f = new MetadataFetcher(store, { clock, allowPrivateHosts: true, retries: 2, backoffMs: 1000, hostRps: 1000 });
    hits.set('/flaky.json', 0);
    expect(await f.process(cand(110, `${base}/flaky.json`))).toBe(true);
    expect(hits.get('/flaky.json')).toBe(2);
    expect(clock.slept).toContain(1000);
    expect(await metadataRow(addr(110))).toMatchObject({ valid: true, name: 'Flaky' });
  });

  it('private hosts are refused unless allowed; unsupported schemes are invalid', async () => {
    const f = new MetadataFetcher(store, { clock: new FakeClock(Date.now()) });
    const before = hits.get('/collection/poolfloat.json');
    expect(await f.process(cand(120, `${base}/collection/poolfloat.json`))).toBe(false);
    expect(JSON.parse(String((await metadataRow(addr(120))).extra)).error).toBe('127.0.0.1 is a private address');
    expect(hits.get('/collection/poolfloat.json')).toBe(before);
    expect(await f.process(cand(121, 'ftp://example.org/meta.json'))).toBe(false);
    expect(JSON.parse(String((await metadataRow(addr(121))).extra)).error).toBe('unsupported URI scheme ftp:');
  });
});

describe('per-host rate limit (controllable clock)', () => {
  it('requests to one host are spaced 1/rps apart; another host is not held up', async () => {
    const clock = new FakeClock(Date.now());
    const f = new MetadataFetcher(store, { clock, allowPrivateHosts: true, hostRps: 2, concurrency: 4 });
    const other = base.replace('127.0.0.1', 'localhost');
    const list: Candidate[] = [
      { address: addr(200), type: 'nft_items', content: { uri: `${base}/jetton/meta.json`, onchain: {} } },
      { address: addr(201), type: 'nft_items', content: { uri: `${base}/collection/poolfloat.json`, onchain: {} } },
      { address: addr(202), type: 'nft_items', content: { uri: `${other}/jetton/meta.json`, onchain: {} } },
      { address: addr(203), type: 'nft_items', content: { uri: `${base}/jetton/meta.json`, onchain: {} } },
    ];
    const results = await Promise.all(list.map((c) => f.process(c)));
    expect(results).toEqual([true, true, true, true]);
    // three requests to 127.0.0.1 at 2/s: the second and third each waited 500 ms; the localhost one did not wait
    expect(clock.slept).toEqual([500, 500]);
  });
});

describe('CLI options', () => {
  it('off by default; --metadata-fetch / env turn it on; values are checked', () => {
    expect(takeMetadataArgs(['--network', 'testnet'], {})).toEqual({ metadata: { enabled: false }, rest: ['--network', 'testnet'] });
    expect(takeMetadataArgs(['--metadata-fetch', '--metadata-rps', '0.5', '--metadata-ipfs-gateway', 'https://gw.example'], {}).metadata)
      .toEqual({ enabled: true, hostRps: 0.5, ipfsGateway: 'https://gw.example' });
    expect(takeMetadataArgs([], { TON_GATEWAY_METADATA_FETCH: '1', TON_GATEWAY_IPFS_GATEWAY: 'http://127.0.0.1:8080' }).metadata)
      .toEqual({ enabled: true, ipfsGateway: 'http://127.0.0.1:8080' });
    expect(() => takeMetadataArgs(['--metadata-rps', '0'], {})).toThrow(/--metadata-rps must be a number/);
    expect(() => takeMetadataArgs(['--metadata-ipfs-gateway', 'ipfs.io'], {})).toThrow(/must be an http\(s\) URL/);
    expect(() => takeMetadataArgs(['--metadata-rps'], {})).toThrow(/needs a value/);
  });
});
