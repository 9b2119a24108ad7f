/**
 * /api/v3/dns/activeAuctions (ton-indexer v1.3, issue 35): DNS item states over the real dns-contract item code (the
 * fixtures'), derived by the entity stage (get_auction_info / get_last_fill_up_time in the emulator), written to a
 * chdb store as the traces stage writes them, read through the route: states, order, cursor, offset, the NFT items
 * and the refusals the reference answers.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Address, beginCell, Cell } from '@ton/core';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entityStateRows } from '../../src/entities/index.ts';
import { openStore, type StoreClient } from '../../src/store/client/index.ts';
import { code, memoryLookup, raw, stateOf } from '../entities/helpers.ts';
import { get, v3App } from './helpers.ts';

const ROOT = Address.parseRaw('0:B774D95EB20543F186C06B371AB88AD704F7E256130CAF96189368A7D0CB6CCF'); // mainnet .ton root
const A = (n: number) => new Address(0, Buffer.alloc(32, n));
const itemCode = code('dns-item.ton4j-dns-example.boc');
const NOW = Math.floor(Date.now() / 1000);

/** A .ton item's data (nft-item.fc): index = hash of its domain, the root, owner, content, domain, auction, last fill-up. */
function itemData(label: string, owner: Address | null, auction: { bidder: Address; amount: bigint; end: number } | null): Cell {
  const domain = beginCell().storeBuffer(Buffer.from(label)).endCell();
  const a = auction ? beginCell().storeAddress(auction.bidder).storeCoins(auction.amount).storeUint(auction.end, 64).endCell() : null;
  return beginCell().storeBuffer(domain.hash()).storeAddress(ROOT).storeAddress(owner).storeRef(beginCell().storeUint(0, 8).storeBit(0).endCell())
    .storeRef(domain).storeMaybeRef(a).storeUint(1_700_000_000, 64).endCell();
}

const X = A(0x70);
const Y = A(0x71);
// items at addresses 0x51.. : two running and one ended auction led by X, one led by Y, one claimed by X
const ITEMS = [
  { n: 0x51, label: 'alpha', owner: null, auction: { bidder: X, amount: 5_000_000_000n, end: NOW + 1000 } },
  { n: 0x52, label: 'bravo', owner: null, auction: { bidder: X, amount: 7_000_000_000n, end: NOW - 1000 } },
  { n: 0x53, label: 'charlie', owner: null, auction: { bidder: X, amount: 9_000_000_000n, end: NOW + 2000 } },
  { n: 0x54, label: 'delta', owner: null, auction: { bidder: Y, amount: 1_000_000_000n, end: NOW + 500 } },
  { n: 0x55, label: 'echo', owner: X, auction: null },
];
const addr = (n: number) => raw(A(n));

let dir: string;
let store: StoreClient;
let app: FastifyInstance;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'api-v3-dns-auctions-'));
  store = await openStore({ dataDir: dir, pointReads: 'both' });
  const states = ITEMS.map((it) => stateOf(addr(it.n), itemCode, itemData(it.label, it.owner, it.auction), { withCode: true }));
  const { tables, stats } = await entityStateRows(states, memoryLookup(new Map()));
  expect(stats).toMatchObject({ rows: 5, failed: 0, incomplete: 0 });
  await store.insertRows('dns_entries', tables.dns_entries);
  // alpha's NFT item and its collection (as the traces stage writes them) for include_nft_items
  const h = '00'.repeat(32);
  await store.insertRows('nft_collections', [{ address: raw(ROOT), next_item_index: 0n, owner_address: null, collection_content: '{}', last_transaction_lt: 1n, code_hash: h, data_hash: h }]);
  await store.insertRows('nft_items', [{ address: addr(0x51), init: true, index: 1n, collection_address: raw(ROOT), owner_address: null, real_owner: null, content: '{"domain":"alpha.ton"}', last_transaction_lt: 1000n, code_hash: h, data_hash: h }]);
  app = await v3App(store, 'tables');
}, 120_000);

afterAll(async () => {
  await app?.close();
  await store?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const auctionsOf = async (url: string) => {
  const r = await get(app, url);
  expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
  return r.body as unknown as { auctions: Record<string, unknown>[]; address_book: Record<string, unknown>; metadata: Record<string, unknown>; next_cursor?: string };
};

describe('dns/activeAuctions', () => {
  it('the auctions a bidder leads, by end time: values from the item code, finished once ended, claimed ones gone', async () => {
    const r = await auctionsOf(`/api/v3/dns/activeAuctions?bidder=${raw(X)}`);
    expect(r.auctions).toEqual([
      { nft_item_address: addr(0x52), domain: 'bravo.ton', max_bid_address: raw(X), max_bid_amount: '7000000000', auction_end_time: String(NOW - 1000), last_fill_up_time: '1700000000', finished: true },
      { nft_item_address: addr(0x51), domain: 'alpha.ton', max_bid_address: raw(X), max_bid_amount: '5000000000', auction_end_time: String(NOW + 1000), last_fill_up_time: '1700000000', finished: false },
      { nft_item_address: addr(0x53), domain: 'charlie.ton', max_bid_address: raw(X), max_bid_amount: '9000000000', auction_end_time: String(NOW + 2000), last_fill_up_time: '1700000000', finished: false },
    ]);
    expect(r.next_cursor).toBeUndefined();
    expect(Object.keys(r.address_book).sort()).toEqual([addr(0x51), addr(0x52), addr(0x53), raw(X)].sort());
    // any address form of the bidder
    expect((await auctionsOf(`/api/v3/dns/activeAuctions?bidder=${encodeURIComponent(X.toString())}`)).auctions).toHaveLength(3);
    expect((await auctionsOf(`/api/v3/dns/activeAuctions?bidder=${raw(Y)}`)).auctions.map((a) => a.domain)).toEqual(['delta.ton']);
    expect((await auctionsOf(`/api/v3/dns/activeAuctions?bidder=${raw(A(0x99))}`)).auctions).toEqual([]);
  });

  it('state won / bidding / all', async () => {
    const domains = async (state: string) => (await auctionsOf(`/api/v3/dns/activeAuctions?bidder=${raw(X)}&state=${state}`)).auctions.map((a) => a.domain);
    expect(await domains('won')).toEqual(['bravo.ton']);
    expect(await domains('bidding')).toEqual(['alpha.ton', 'charlie.ton']);
    expect(await domains('all')).toEqual(['bravo.ton', 'alpha.ton', 'charlie.ton']);
  });

  it('a full page carries next_cursor (the reference\'s: 20-digit end time and item, base64url); after it the rest; offset pages too', async () => {
    const first = await auctionsOf(`/api/v3/dns/activeAuctions?bidder=${raw(X)}&limit=2`);
    expect(first.auctions.map((a) => a.domain)).toEqual(['bravo.ton', 'alpha.ton']);
    expect(Buffer.from(first.next_cursor!, 'base64url').toString()).toBe(`${String(NOW + 1000).padStart(20, '0')}:${addr(0x51)}`);
    expect(first.next_cursor).not.toMatch(/[=+/]/);
    const second = await auctionsOf(`/api/v3/dns/activeAuctions?bidder=${raw(X)}&limit=2&after=${first.next_cursor}`);
    expect(second.auctions.map((a) => a.domain)).toEqual(['charlie.ton']);
    expect(second.next_cursor).toBeUndefined();
    expect((await auctionsOf(`/api/v3/dns/activeAuctions?bidder=${raw(X)}&limit=2&offset=2`)).auctions.map((a) => a.domain)).toEqual(['charlie.ton']);
    // a page exactly full at the end still carries a cursor, whose page is empty
    const exact = await auctionsOf(`/api/v3/dns/activeAuctions?bidder=${raw(X)}&limit=3`);
    expect(exact.next_cursor).toBeDefined();
    expect((await auctionsOf(`/api/v3/dns/activeAuctions?bidder=${raw(X)}&after=${exact.next_cursor}`)).auctions).toEqual([]);
  });

  it('include_nft_items: the item with its collection; metadata for the items and their collections', async () => {
    const r = await auctionsOf(`/api/v3/dns/activeAuctions?bidder=${raw(X)}&state=bidding&include_nft_items=true`);
    const alpha = r.auctions.find((a) => a.domain === 'alpha.ton')!;
    expect(alpha.nft_item).toMatchObject({ address: addr(0x51), index: '1', collection_address: raw(ROOT), content: { domain: 'alpha.ton' }, collection: { address: raw(ROOT) } });
    // an item the store has no row for gets none
    expect(r.auctions.find((a) => a.domain === 'charlie.ton')!.nft_item).toBeUndefined();
    expect((await auctionsOf(`/api/v3/dns/activeAuctions?bidder=${raw(X)}&state=bidding`)).auctions.every((a) => a.nft_item === undefined)).toBe(true);
  });

  it('refusals as the reference words them', async () => {
    const cases: [string, string][] = [
      ['/api/v3/dns/activeAuctions', 'bidder address is required'],
      [`/api/v3/dns/activeAuctions?bidder=${raw(X)}&state=open`, 'state must be one of: all, won, bidding'],
      [`/api/v3/dns/activeAuctions?bidder=${raw(X)}&after=${Buffer.from(`${'0'.repeat(20)}:${addr(0x51)}`).toString('base64url')}&offset=1`, 'use either after or offset, not both'],
      [`/api/v3/dns/activeAuctions?bidder=${raw(X)}&after=abc`, 'invalid after cursor'],
      [`/api/v3/dns/activeAuctions?bidder=${raw(X)}&after=${Buffer.from('12345:0:AB').toString('base64url')}`, 'invalid after cursor'],
      [`/api/v3/dns/activeAuctions?bidder=${raw(X)}&after=${Buffer.from(`${'9'.repeat(20)}:x`).toString('base64url')}`, 'invalid after cursor'],
      [`/api/v3/dns/activeAuctions?bidder=${raw(X)}&limit=1001`, 'invalid limit: 1001 is above the maximum 1000'],
      ['/api/v3/dns/activeAuctions?bidder=nope', 'invalid bidder: "nope" is not an address (raw wc:hex or user-friendly base64)'],
    ];
    for (const [url, error] of cases) {
      const r = await get(app, url);
      expect(r.status, url).toBe(422);
      expect(r.body.error, url).toBe(error);
    }
    // offset 0 with after is fine, as there (only a positive offset conflicts)
    expect((await get(app, `/api/v3/dns/activeAuctions?bidder=${raw(X)}&after=${Buffer.from(`${'0'.repeat(20)}:${addr(0x51)}`).toString('base64url')}&offset=0`)).status).toBe(200);
  });
});
