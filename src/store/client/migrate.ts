import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import type { StoreClient } from './store-client.ts';
import { MIGRATIONS_DIR } from './clickhouse-dir.ts';

export interface Migration {
  version: number;
  name: string;
  checksum: string;
  statements: string[];
  /**
   * Which stores it applies to, from a first line `-- applies to: kv`: `kv`, only stores whose point reads are the
   * key-value store alone (src/store/client/client.ts PointReadsMode); `all` otherwise. A migration that does not apply is
   * not recorded, so a store opened later in that mode gets it.
   */
  appliesTo: 'all' | 'kv';
}

function appliesTo(text: string): 'all' | 'kv' {
  const m = /^--\s*applies to:\s*(\S+)\s*$/m.exec(text.split('\n', 1)[0]);
  if (!m) return 'all';
  if (m[1] !== 'kv') throw new Error(`unknown "applies to: ${m[1]}" in a migration`);
  return 'kv';
}

/** Splits a migration file into statements (`;` at end of line); `--` comment lines are dropped. */
export function splitStatements(sql: string): string[] {
  const lines = sql.split('\n').filter((l) => !l.trim().startsWith('--'));
  return lines
    .join('\n')
    .split(/;\s*(?:\n|$)/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

export function loadMigrations(dir = MIGRATIONS_DIR): Migration[] {
  const out: Migration[] = [];
  for (const file of readdirSync(dir).sort()) {
    const m = /^(\d{4})_([a-z0-9_]+)\.sql$/.exec(file);
    if (!m) continue;
    const text = readFileSync(dir + file, 'utf8');
    out.push({
      version: Number(m[1]),
      name: m[2],
      checksum: createHash('sha256').update(text).digest('hex'),
      statements: splitStatements(text),
      appliesTo: appliesTo(text),
    });
  }
  const seen = new Set<number>();
  for (const m of out) {
    if (seen.has(m.version)) throw new Error(`two migrations with version ${m.version} in ${dir}`);
    seen.add(m.version);
  }
  return out;
}

export interface MigrateResult {
  applied: { version: number; name: string }[];
  current: number;
}

/**
 * Applies pending migrations in version order and records each in `schema_migrations` (`below`: only those of
 * lower versions). Statements are idempotent (IF NOT EXISTS), so a run interrupted mid-file is re-applied whole.
 */
export async function migrate(store: StoreClient, dir = MIGRATIONS_DIR, opts: { below?: number } = {}): Promise<MigrateResult> {
  await store.command(
    `CREATE TABLE IF NOT EXISTS schema_migrations
     (version UInt32, name String, checksum String, applied_at DateTime64(3) DEFAULT now64(3))
     ENGINE = ReplacingMergeTree ORDER BY version`,
  );
  const rows = await store.query<{ version: number; checksum: string; name: string }>(
    'SELECT version, name, checksum FROM schema_migrations FINAL ORDER BY version',
  );
  const done = new Map(rows.map((r) => [Number(r.version), r]));
  const applied: MigrateResult['applied'] = [];
  for (const m of loadMigrations(dir)) {
    if (opts.below !== undefined && m.version >= opts.below) break;
    if (m.appliesTo === 'kv' && store.pointReads !== 'kv') continue;
    const prev = done.get(m.version);
    if (prev) {
      if (prev.checksum !== m.checksum) {
        throw new Error(
          `migration ${String(m.version).padStart(4, '0')}_${m.name} was changed after it was applied; add a new migration instead`,
        );
      }
      continue;
    }
    for (const stmt of m.statements) await store.command(stmt);
    await store.command(
      'INSERT INTO schema_migrations (version, name, checksum) VALUES ({v:UInt32}, {n:String}, {c:String})',
      { v: m.version, n: m.name, c: m.checksum },
    );
    applied.push({ version: m.version, name: m.name });
  }
  const all = loadMigrations(dir);
  return { applied, current: all.length ? all[all.length - 1].version : 0 };
}
