// Shared imports and fixture helpers of the store suites (tests read only test/fixtures/).
import { copyFileSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { MIGRATIONS_DIR } from '../../src/store/client/clickhouse-dir.ts';

export { loadMigrations, migrate, openClient, openStore, type StoreClient } from '../../src/store/client/index.ts';
export { splitStatements as splitStatementsForTest } from '../../src/store/client/migrate.ts';

export const FIXTURES = new URL('../fixtures/', import.meta.url).pathname;

/** A migrations directory under `dir` holding the repository's migrations up to `version`: a store as that version left it. */
export function migrationsUpTo(dir: string, version: number): string {
  const out = join(dir, `migrations-${String(version).padStart(4, '0')}/`);
  mkdirSync(out, { recursive: true });
  for (const f of readdirSync(MIGRATIONS_DIR)) if (/^\d{4}_.*\.sql$/.test(f) && Number(f.slice(0, 4)) <= version) copyFileSync(MIGRATIONS_DIR + f, out + f);
  return out;
}

/** Every full block BoC under test/fixtures/blocks (proofs excluded), sorted by path. */
export function fixtureBlockFiles(): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const f of readdirSync(d).sort()) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) {
        if (f !== 'proofs') walk(p);
      } else if (f.endsWith('.boc') && !f.endsWith('.proof.boc')) out.push(p);
    }
  };
  walk(join(FIXTURES, 'blocks'));
  return out;
}

export interface TxIndexEntry {
  network: string;
  block: string;
  block_seqno: number;
  wc: number;
  shard: string;
  block_root_hash: string;
  account: string;
  lt: string;
  now: number;
  hash: string;
  desc: string;
  in_type: string | null;
  in_value: string | null;
  aborted: boolean;
  orig: string;
  end: string;
  compute: { skipped?: string; success?: boolean; exit?: number } | null;
  bounce_phase: string | null;
}

export function txIndex(): TxIndexEntry[] {
  return JSON.parse(readFileSync(join(FIXTURES, 'blocks/tx-index.json'), 'utf8')) as TxIndexEntry[];
}
