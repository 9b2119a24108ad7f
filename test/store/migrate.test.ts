import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMigrations, migrate, openClient, splitStatementsForTest, type StoreClient } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'tg-store-migrate-'));

async function schemaSnapshot(store: StoreClient) {
  return store.query<{ table: string; name: string; type: string }>(
    `SELECT table, name, type FROM system.columns WHERE database = currentDatabase() ORDER BY table, position`,
  );
}

describe('migrations', () => {
  let store: StoreClient;
  beforeAll(async () => {
    store = await openClient({ dataDir: dir });
  });
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('apply every migration from an empty store', async () => {
    const files = loadMigrations();
    expect(files.slice(0, 2).map((m) => `${m.version}_${m.name}`)).toEqual(['1_core', '2_traces_entities']);
    const versions = files.map((m) => m.version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    const res = await migrate(store);
    expect(res.applied.map((m) => `${m.version}_${m.name}`)).toEqual(files.map((m) => `${m.version}_${m.name}`));
    expect(res.current).toBe(versions[versions.length - 1]);
    const tables = (await store.query<{ name: string }>(`SELECT name FROM system.tables WHERE database = currentDatabase() ORDER BY name`)).map((r) => r.name);
    for (const t of ['blocks', 'transactions', 'transactions_by_hash', 'transactions_by_lt', 'messages', 'message_hashes', 'message_contents',
      'account_states', 'latest_account_states', 'contract_code', 'traces', 'actions', 'jetton_transfers', 'nft_items', 'dns_entries',
      'multisig', 'multisig_orders', 'vesting_contracts', 'address_metadata', 'ingested_blocks', 'checkpoints', 'schema_migrations']) {
      expect(tables).toContain(t);
    }
    const engines = await store.query<{ engine: string; sorting_key: string }>(
      `SELECT engine, sorting_key FROM system.tables WHERE database = currentDatabase() AND name = 'latest_account_states'`,
    );
    expect(engines[0]).toEqual({ engine: 'ReplacingMergeTree', sorting_key: 'account' });
  });

  it('a second run applies nothing and changes nothing', async () => {
    const before = await schemaSnapshot(store);
    const recorded = await store.query('SELECT version, name, checksum FROM schema_migrations ORDER BY version');
    const res = await migrate(store);
    expect(res.applied).toEqual([]);
    expect(await schemaSnapshot(store)).toEqual(before);
    expect(await store.query('SELECT version, name, checksum FROM schema_migrations ORDER BY version')).toEqual(recorded);
    expect(recorded).toHaveLength(loadMigrations().length);
  });

  it('amounts and lt columns are wide enough (nothing lossy)', async () => {
    const cols = await store.query<{ name: string; type: string }>(
      `SELECT name, type FROM system.columns WHERE database = currentDatabase() AND table = 'transactions' AND name IN ('lt','total_fees','compute_gas_fees','hash')`,
    );
    expect(Object.fromEntries(cols.map((c) => [c.name, c.type]))).toEqual({
      lt: 'UInt64',
      hash: 'FixedString(64)',
      total_fees: 'UInt128',
      compute_gas_fees: 'Nullable(UInt128)',
    });
  });

  it('splits statements on ";" at line end and drops comment lines', () => {
    expect(splitStatementsForTest('-- c;\nCREATE A (x);\n\nCREATE B;')).toEqual(['CREATE A (x)', 'CREATE B']);
  });
});
