// The address book's interfaces and the metadata block read what an address is from its facts (the key-value
// store, src/kv; address_facts_kv on ClickHouse's tables, clickhouse/0014): one address per entity table, metadata
// of several types, a jetton wallet whose master is not asked for, the same answers from both read paths, and the
// statements each block costs on the tables (none on the key-value store).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as S from '../../schemas/api/v3/entities.ts';
import type { StoreClient } from '../../src/store/client/index.ts';
import { recordQueries } from '../helpers/store.ts';
import { get, openFixture, type Fixture } from './helpers.ts';

const Z = '0'.repeat(64);
const A = (c: string) => `0:${c.repeat(64)}`;
const addr = {
  master: A('1'),
  wallet: A('2'),
  otherMaster: A('3'),
  collection: A('4'),
  item: A('5'),
  multisig: A('6'),
  order: A('7'),
  vesting: A('8'),
  plain: A('9'),
};
const meta = (address: string, type: string, valid: boolean, name: string) => ({
  address, type, valid, name: valid ? name : null, symbol: valid ? 'SYM' : null, extra: '{"decimals":"9"}', updated_at: '2026-01-01 00:00:00.000',
});

async function seed(store: StoreClient) {
  const master = (address: string) => ({ address, total_supply: 1n, mintable: true, jetton_content: '', jetton_wallet_code_hash: Z, code_hash: Z, data_hash: Z, last_transaction_lt: 1n });
  await store.insertRows('jetton_masters', [master(addr.master), master(addr.otherMaster)]);
  // the wallet's balance changes: the metadata block shows the newest version
  await store.insertRows('jetton_wallets', [{ address: addr.wallet, balance: 5n, owner: addr.plain, jetton: addr.otherMaster, last_transaction_lt: 1n }]);
  await store.insertRows('jetton_wallets', [{ address: addr.wallet, balance: 7n, owner: addr.plain, jetton: addr.otherMaster, last_transaction_lt: 2n }]);
  await store.insertRows('nft_collections', [{ address: addr.collection, next_item_index: 1n, collection_content: '', last_transaction_lt: 1n, code_hash: Z, data_hash: Z }]);
  await store.insertRows('nft_items', [{ address: addr.item, init: true, index: 42n, collection_address: addr.collection, content: '', last_transaction_lt: 1n, code_hash: Z, data_hash: Z }]);
  await store.insertRows('multisig', [{ address: addr.multisig, signers: [], proposers: [], last_transaction_lt: 1n, code_hash: Z, data_hash: Z }]);
  await store.insertRows('multisig_orders', [{ address: addr.order, multisig_address: addr.multisig, signers: [], last_transaction_lt: 1n, code_hash: Z, data_hash: Z }]);
  await store.insertRows('vesting_contracts', [{
    address: addr.vesting, vesting_start_time: 0, vesting_total_duration: 0, unlock_period: 0, cliff_duration: 0, vesting_total_amount: 0n,
    vesting_sender_address: addr.plain, owner_address: addr.plain, whitelist: [], last_transaction_lt: 1n, code_hash: Z, data_hash: Z,
  }]);
  // DNS: the plain address is the wallet of two items it owns (the shorter domain is shown); an item naming the
  // multisig wallet is owned by someone else, so that wallet has no domain
  const dns = (item: string, domain: string, owner: string, wallet: string) => ({ nft_item_address: item, nft_item_owner: owner, domain, dns_wallet: wallet, last_transaction_lt: 1n });
  await store.insertRows('dns_entries', [dns(A('a'), 'longer-name.ton', addr.plain, addr.plain), dns(A('b'), 'plain.ton', addr.plain, addr.plain), dns(A('c'), 'other.ton', addr.vesting, addr.multisig)]);
  await store.insertRows('address_metadata', [
    meta(addr.master, 'jetton_masters', true, 'First'),
    meta(addr.otherMaster, 'jetton_masters', true, 'Other'),
    meta(addr.collection, 'nft_collections', false, ''),
    // a wallet-type row is not shown: the wallet's own entry comes from jetton_wallets
    meta(addr.wallet, 'jetton_wallets', true, 'ignored'),
  ]);
}

describe('address book and metadata from address_facts_kv', () => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await openFixture({ extra: seed });
  });
  afterAll(async () => {
    await fx?.close();
  });
  const query = (path: string, keys: string[]) => `/api/v3/${path}?${keys.map((a) => `address=${encodeURIComponent(a)}`).join('&')}`;

  it('interfaces: one per entity table, none for a plain address; domains of DNS wallets', async () => {
    const r = await get(fx.app, query('addressBook', Object.values(addr)));
    expect(r.status).toBe(200);
    const book = S.AddressBook.parse(r.body);
    expect(Object.fromEntries(Object.entries(addr).map(([k, a]) => [k, book[a].domain]))).toMatchObject({ plain: 'plain.ton', multisig: null, wallet: null });
    expect(Object.fromEntries(Object.entries(addr).map(([k, a]) => [k, book[a].interfaces]))).toEqual({
      master: ['jetton_master'],
      wallet: ['jetton_wallet'],
      otherMaster: ['jetton_master'],
      collection: ['nft_collection'],
      item: ['nft_item'],
      multisig: ['multisig_v2'],
      order: ['multisig_order_v2'],
      vesting: ['lockup_vesting'],
      plain: [],
    });
  });

  it('metadata: token info of masters, collections and items, the wallet with its master, nothing for the others', async () => {
    const r = await get(fx.app, query('metadata', [addr.master, addr.wallet, addr.collection, addr.item, addr.multisig, addr.plain]));
    expect(r.status).toBe(200);
    const tokenMeta = { valid: true, symbol: 'SYM', is_nsfw: false, is_scam: false, extra: { decimals: '9' } };
    expect(S.Metadata.parse(r.body)).toEqual({
      [addr.master]: { is_indexed: true, token_info: [{ type: 'jetton_masters', name: 'First', ...tokenMeta }] },
      [addr.wallet]: { is_indexed: true, token_info: [{ type: 'jetton_wallets', valid: true, extra: { owner: addr.plain, jetton: addr.otherMaster, balance: '7' } }] },
      [addr.otherMaster]: { is_indexed: true, token_info: [{ type: 'jetton_masters', name: 'Other', ...tokenMeta }] },
      [addr.collection]: { is_indexed: true, token_info: [{ type: 'nft_collections', valid: false }] },
      [addr.item]: { is_indexed: false, token_info: [{ type: 'nft_items', nft_index: '42' }] },
    });
  });

  it('both read paths answer the same; the key-value store sends no statement', async () => {
    const urls = [
      query('addressBook', Object.values(addr)),
      query('metadata', Object.values(addr)),
      query('metadata', [addr.wallet]),
      query('addressBook', [addr.item, addr.plain]),
      query('jetton/wallets', [addr.wallet]),
    ];
    for (const u of urls) {
      const rec = recordQueries(fx.store);
      let kv;
      try {
        kv = await get(fx.app, u);
      } finally {
        rec.restore();
      }
      expect(kv.status, u).toBe(200);
      // only the list (jetton/wallets) is a statement; the book and metadata are key-value reads
      expect(rec.sql.filter((q) => !/^SELECT \* FROM jetton_wallets FINAL /.test(q)), u).toEqual([]);
      expect((await get(fx.tablesApp, u)).body, u).toEqual(kv.body);
    }
  });

  it('statements on the tables: a plain address costs the metadata block one get; the entity tables are read only for what the facts name', async () => {
    const statementsOf = async (url: string) => {
      const rec = recordQueries(fx.store);
      try {
        expect((await get(fx.tablesApp, url)).status).toBe(200);
      } finally {
        rec.restore();
      }
      // (which entity tables hold rows is cached for seconds, so that statement may or may not be among them)
      return rec.sql.filter((q) => !/FROM system\.parts/.test(q));
    };
    const plain = await statementsOf(query('metadata', [addr.plain]));
    expect(plain).toHaveLength(1);
    expect(plain[0]).toMatch(/FROM address_facts_kv/);
    const wallet = await statementsOf(query('metadata', [addr.wallet]));
    expect(wallet.map((s) => s.match(/FROM (\w+)/)![1])).toEqual(['address_facts_kv', 'jetton_wallets', 'address_facts_kv', 'address_metadata']);
    // the book: code hashes and facts (RocksDB gets, sent together); dns_entries only for a DNS wallet
    const from = (sql: string[]) => sql.map((s) => s.match(/FROM (\w+)/)![1]);
    const book = await statementsOf(query('addressBook', [addr.item, addr.multisig]));
    expect(from(book).sort()).toEqual(['address_facts_kv', 'latest_account_states_kv']);
    for (const q of book) expect(q).not.toMatch(/FROM (jetton|nft|multisig|vesting|dns)/);
    const named = await statementsOf(query('addressBook', [addr.item, addr.plain]));
    expect(from(named.slice(0, 2)).sort()).toEqual(['address_facts_kv', 'latest_account_states_kv']);
    expect(from(named.slice(2))).toEqual(['dns_entries']);
  });

  it('a response with both blocks (tables): the book reads the facts the metadata block uses, which asks for none again', async () => {
    const rec = recordQueries(fx.store);
    let r;
    try {
      r = await get(fx.tablesApp, query('jetton/wallets', [addr.wallet]));
    } finally {
      rec.restore();
    }
    expect(r.status).toBe(200);
    const sql = rec.sql.filter((q) => !/FROM system\.parts/.test(q));
    // the wallet, its owner and its master are in the book, with their facts: one get in all
    expect(sql.filter((q) => /FROM address_facts_kv/.test(q))).toHaveLength(1);
    const from = sql.map((s) => s.match(/FROM (\w+)/)![1]);
    expect([from[0], ...from.slice(1, 3).sort(), ...from.slice(3)]).toEqual(['jetton_wallets', 'address_facts_kv', 'latest_account_states_kv', 'dns_entries', 'jetton_wallets', 'address_metadata']);
    expect(Object.keys(r.body.metadata as object).sort()).toEqual([addr.wallet, addr.otherMaster].sort());
    const book = S.AddressBook.parse(r.body.address_book);
    expect([book[addr.wallet].interfaces, book[addr.otherMaster].interfaces, book[addr.plain].interfaces]).toEqual([['jetton_wallet'], ['jetton_master'], []]);
  });
});
