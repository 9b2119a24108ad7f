// Migration 0015 (jetton_wallets_kv, address_metadata_kv): a store written at 0014 gets each wallet's and each
// (address, type)'s newest row; later writes replace a row only when as new or newer (ties: the row written last),
// so a replay or a late block never takes a balance or metadata back; applying the migration again changes nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMigrations, migrate, migrationsUpTo, openClient, type StoreClient } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'tg-store-0015-'));

const wallet = (address: string, lt: number, balance: number) => ({ address, balance: BigInt(balance), owner: '0:O', jetton: '0:M', last_transaction_lt: BigInt(lt) });
const meta = (address: string, type: string, at: string, name: string) => ({ address, type, valid: true, name, extra: '{}', updated_at: `2026-01-01 00:00:${at}.000` });

describe('migration 0015 on a store written at 0014', () => {
  let store: StoreClient;
  const wallets = () => store.query('SELECT address, last_transaction_lt, balance FROM jetton_wallets_kv ORDER BY address');
  const metas = () => store.query('SELECT key, address, toString(type) AS type, name FROM address_metadata_kv ORDER BY key');
  const sources = async () => [
    await store.query('SELECT address, last_transaction_lt, balance FROM jetton_wallets FINAL ORDER BY address'),
    await store.query("SELECT concat(address, '/', toString(type)) AS key, address, toString(type) AS type, name FROM address_metadata FINAL ORDER BY key"),
  ];

  beforeAll(async () => {
    store = await openClient({ dataDir: join(dir, 'data') });
    expect((await migrate(store, migrationsUpTo(dir, 14))).current).toBe(14);
    await store.insertRows('jetton_wallets', [wallet('0:A', 5, 50), wallet('0:B', 3, 30)]);
    await store.insertRows('jetton_wallets', [wallet('0:A', 7, 70)]);
    await store.insertRows('address_metadata', [meta('0:M', 'jetton_masters', '01', 'old'), meta('0:M', 'nft_collections', '01', 'coll')]);
    await store.insertRows('address_metadata', [meta('0:M', 'jetton_masters', '02', 'new')]);
  });
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('copies each wallet and (address, type) at its newest', async () => {
    // (and the later migrations)
    expect((await migrate(store)).applied.map((m) => m.version)[0]).toBe(15);
    expect(await wallets()).toEqual([
      { address: '0:A', last_transaction_lt: '7', balance: '70' },
      { address: '0:B', last_transaction_lt: '3', balance: '30' },
    ]);
    expect(await metas()).toEqual([
      { key: '0:M/jetton_masters', address: '0:M', type: 'jetton_masters', name: 'new' },
      { key: '0:M/nft_collections', address: '0:M', type: 'nft_collections', name: 'coll' },
    ]);
    expect([await wallets(), await metas()]).toEqual(await sources());
  });

  it('applied again whole (a crash before it was recorded), changes nothing', async () => {
    const before = [await wallets(), await metas()];
    for (const stmt of loadMigrations().find((m) => m.version === 15)!.statements) await store.command(stmt);
    expect([await wallets(), await metas()]).toEqual(before);
  });

  it('later writes: newer replaces, older does not, ties go to the row written last, in one insert or across inserts', async () => {
    // a replayed older wallet row, a newer one, and two rows of one version in one insert
    await store.insertRows('jetton_wallets', [wallet('0:A', 6, 60), wallet('0:B', 4, 40), wallet('0:C', 9, 1), wallet('0:C', 9, 2)]);
    expect(await wallets()).toEqual([
      { address: '0:A', last_transaction_lt: '7', balance: '70' },
      { address: '0:B', last_transaction_lt: '4', balance: '40' },
      { address: '0:C', last_transaction_lt: '9', balance: '2' },
    ]);
    await store.insertRows('jetton_wallets', [wallet('0:C', 9, 3)]);
    expect((await wallets())[2]).toEqual({ address: '0:C', last_transaction_lt: '9', balance: '3' });
    await store.insertRows('address_metadata', [meta('0:M', 'jetton_masters', '01', 'replayed'), meta('0:M', 'nft_collections', '03', 'refreshed')]);
    expect((await metas()).map((m) => m.name)).toEqual(['new', 'refreshed']);
    expect([await wallets(), await metas()]).toEqual(await sources());
  });
});
