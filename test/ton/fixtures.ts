/** Fixture discovery shared by the ton decoder suites (reads only test/fixtures/). */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export const FIXTURES = join(import.meta.dirname, '..', 'fixtures');

export interface ManifestRow {
  file: string;
  kind: string;
  network: string;
  workchain?: number;
  shard?: string;
  seqno?: number;
  root_hash?: string;
  tx_count?: number;
  key_block?: boolean;
  after_merge?: boolean;
  gen_utime?: number;
  start_lt?: string;
  end_lt?: string;
  global_id?: number;
}

export const manifest: ManifestRow[] = JSON.parse(readFileSync(join(FIXTURES, 'manifest.json'), 'utf8'));

export function read(rel: string): Buffer {
  return readFileSync(join(FIXTURES, rel));
}

/** Every `blocks/<net>/*.boc` whose MANIFEST kind is "full block". */
export function fullBlocks(): ManifestRow[] {
  const rows: ManifestRow[] = [];
  for (const net of ['mainnet', 'testnet', 'localnet']) {
    for (const f of readdirSync(join(FIXTURES, 'blocks', net)).sort()) {
      const rel = `blocks/${net}/${f}`;
      const row = manifest.find((r) => r.file === rel);
      if (!row) throw new Error(`${rel} missing from manifest.json`);
      if ((row.kind ?? '').startsWith('full block')) rows.push(row);
    }
  }
  return rows;
}

export function listDir(rel: string, ext = '.boc'): string[] {
  return readdirSync(join(FIXTURES, rel))
    .filter((f) => f.endsWith(ext))
    .sort()
    .map((f) => `${rel}/${f}`);
}
