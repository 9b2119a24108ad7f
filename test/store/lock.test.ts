import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadMigrations, openStore } from '../../src/store/index.ts';
import { tempStore } from '../helpers/store.ts';

const ROOT = new URL('../../', import.meta.url).pathname;

function cli(...args: string[]) {
  return spawnSync(process.execPath, [join(ROOT, 'bin/ton-gateway.js'), ...args], { encoding: 'utf8', cwd: ROOT, env: { ...process.env, CLICKHOUSE_URL: '' } });
}

describe('data directory lock', { timeout: 300_000 }, () => {
  const ref = tempStore('tg-store-lock-');

  it('writes our pid into DIR/store.lock', () => {
    expect(readFileSync(join(ref.dir, 'store.lock'), 'utf8')).toBe(String(process.pid));
  });

  it('a second process on the same dir gets "data directory DIR in use by pid N", not a crash', () => {
    const r = cli('sql', 'SELECT 1', '--data', ref.dir);
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toBe(`ton-gateway sql: data directory ${ref.dir} in use by pid ${process.pid}`);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('the same process may open the dir again (one engine per process)', async () => {
    const again = await openStore({ dataDir: ref.dir, migrate: false });
    const [row] = await again.query<{ n: string }>('SELECT count() AS n FROM schema_migrations FINAL');
    expect(Number(row.n)).toBe(loadMigrations().length);
    await again.close();
    // closing the inner handle keeps the lock for the outer one
    expect(existsSync(join(ref.dir, 'store.lock'))).toBe(true);
  });
});

describe('stale lock', { timeout: 300_000 }, () => {
  const stale = mkdtempSync(join(tmpdir(), 'tg-store-stale-'));
  afterAll(() => rmSync(stale, { recursive: true, force: true }));

  it('a lock left by a dead pid is taken over', () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const deadPid = Number(dead.stdout);
    expect(deadPid).toBeGreaterThan(0);
    writeFileSync(join(stale, 'store.lock'), String(deadPid));
    const r = cli('sql', 'SELECT 40 + 2 AS x', '--data', stale);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout.trim())).toEqual({ x: 42 });
    // released on exit
    expect(existsSync(join(stale, 'store.lock'))).toBe(false);
  });
});
