// Migration 0014 (address_facts_kv): a store written at 0013 gets a fact per row of each entity table and per
// (address, type) of address_metadata; later inserts into any of them add their facts through the views; applying
// the migration again changes nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMigrations, migrate, migrationsUpTo, openClient, type StoreClient } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'tg-store-0014-'));
const Z = '0'.repeat(64);

const rowsOf = (address: string) => ({
  jetton_masters: { address, total_supply: 1n, mintable: true, jetton_content: '', jetton_wallet_code_hash: Z, code_hash: Z, data_hash: Z, last_transaction_lt: 1n },
  jetton_wallets: { address, balance: 5n, owner: '0:O', jetton: '0:M', last_transaction_lt: 1n },
  nft_collections: { address, next_item_index: 1n, collection_content: '', last_transaction_lt: 1n, code_hash: Z, data_hash: Z },
  nft_items: { address, init: true, index: 42n, content: '', last_transaction_lt: 1n, code_hash: Z, data_hash: Z },
  multisig: { address, signers: [], proposers: [], last_transaction_lt: 1n, code_hash: Z, data_hash: Z },
  multisig_orders: { address, multisig_address: '0:M', signers: [], last_transaction_lt: 1n, code_hash: Z, data_hash: Z },
  vesting_contracts: {
    address, vesting_start_time: 0, vesting_total_duration: 0, unlock_period: 0, cliff_duration: 0, vesting_total_amount: 0n,
    vesting_sender_address: '0:S', owner_address: '0:O', whitelist: [], last_transaction_lt: 1n, code_hash: Z, data_hash: Z,
  },
});
const TABLES = Object.keys(rowsOf('')) as (keyof ReturnType<typeof rowsOf>)[];
const dns = (item: string, owner: string, wallet: string) => ({ nft_item_address: item, nft_item_owner: owner, domain: 'x.ton', dns_wallet: wallet, last_transaction_lt: 1n });
const metadata = (address: string, type: string) => ({ address, type, valid: true, name: 'N', extra: '{}', updated_at: '2026-01-01 00:00:00.000' });

describe('migration 0014 on a store written at 0013', () => {
  let store: StoreClient;
  const facts = () => store.query<{ key: string; address: string; fact: string; value: string | null }>('SELECT key, address, toString(fact) AS fact, value FROM address_facts_kv ORDER BY key');

  beforeAll(async () => {
    store = await openClient({ dataDir: join(dir, 'data'), pointReads: 'tables' });
    expect((await migrate(store, migrationsUpTo(dir, 13))).current).toBe(13);
    // one address per entity table (named after it), a version written twice, and metadata of two types
    for (const t of TABLES) await store.insertRows(t, [rowsOf(`0:${t}`)[t]]);
    await store.insertRows('jetton_wallets', [{ ...rowsOf('0:jetton_wallets').jetton_wallets, balance: 9n, last_transaction_lt: 2n }]);
    await store.insertRows('address_metadata', [metadata('0:jetton_masters', 'jetton_masters'), metadata('0:nft_items', 'nft_items')]);
    // a DNS item's wallet it owns is a fact; one owned by another is not
    await store.insertRows('dns_entries', [dns('0:item1', '0:dns', '0:dns'), dns('0:item2', '0:other', '0:notdns')]);
  });
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives every stored entity row and metadata type its fact, an NFT item its index', async () => {
    // (and the later migrations)
    expect((await migrate(store)).applied.map((m) => m.version)[0]).toBe(14);
    const expected = [
      ...TABLES.map((t) => ({ key: `0:${t}/${t}`, address: `0:${t}`, fact: t, value: t === 'nft_items' ? '42' : null })),
      { key: '0:jetton_masters/address_metadata:jetton_masters', address: '0:jetton_masters', fact: 'address_metadata:jetton_masters', value: null },
      { key: '0:nft_items/address_metadata:nft_items', address: '0:nft_items', fact: 'address_metadata:nft_items', value: null },
      { key: '0:dns/dns_entries', address: '0:dns', fact: 'dns_entries', value: null },
    ].sort((a, b) => (a.key < b.key ? -1 : 1));
    expect(await facts()).toEqual(expected);
  });

  it('applied again whole (a crash before it was recorded), changes nothing', async () => {
    const before = await facts();
    for (const stmt of loadMigrations().find((m) => m.version === 14)!.statements) await store.command(stmt);
    expect(await facts()).toEqual(before);
  });

  it('later inserts into each source add their facts; writing a row again adds nothing', async () => {
    const n = (await facts()).length;
    for (const t of TABLES) await store.insertRows(t, [rowsOf(`0:new_${t}`)[t]]);
    await store.insertRows('address_metadata', [metadata('0:new_nft_collections', 'nft_collections')]);
    await store.insertRows('jetton_wallets', [rowsOf('0:jetton_wallets').jetton_wallets]);
    // the item that named another's wallet now belongs to it
    await store.insertRows('dns_entries', [{ ...dns('0:item2', '0:notdns', '0:notdns'), last_transaction_lt: 2n }]);
    const after = await facts();
    expect(after.length).toBe(n + TABLES.length + 2);
    expect(after).toContainEqual({ key: '0:notdns/dns_entries', address: '0:notdns', fact: 'dns_entries', value: null });
    for (const t of TABLES) expect(after).toContainEqual({ key: `0:new_${t}/${t}`, address: `0:new_${t}`, fact: t, value: t === 'nft_items' ? '42' : null });
    expect(after).toContainEqual({ key: '0:new_nft_collections/address_metadata:nft_collections', address: '0:new_nft_collections', fact: 'address_metadata:nft_collections', value: null });
  });
});
