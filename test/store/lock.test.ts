import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMigrations, openStore } from '../../src/store/client/index.ts';
import { tempStore } from '../helpers/store.ts';

const ROOT = new URL('../../', import.meta.url).pathname;

function cli(...args: string[]) {
  return spawnSync(process.execPath, [join(ROOT, 'bin/ton-gateway.js'), ...args], { encoding: 'utf8', cwd: ROOT, env: { ...process.env, CLICKHOUSE_URL: '' } });
}

describe('data directory lock', { timeout: 300_000 }, () => {
  const ref = tempStore('tg-store-lock-');

  it('writes our pid, start time and boot id into DIR/store.lock', () => {
    const start = readFileSync(`/proc/${process.pid}/stat`, 'utf8').split(') ')[1].split(' ')[19];
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    expect(readFileSync(join(ref.dir, 'store.lock'), 'utf8')).toBe(`${process.pid} ${start} ${boot}`);
  });

  it('a second writer on the same dir gets "data directory DIR in use by pid N", not a crash', () => {
    const r = cli('migrate', '--data', ref.dir);
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toBe(`ton-gateway migrate: data directory ${ref.dir} in use by pid ${process.pid}`);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('a reader (sql) on the same dir runs beside the writer, on its engine', async () => {
    await ref.store.command("INSERT INTO checkpoints (name, mc_seqno) VALUES ('lock-test', 41)");
    const r = cli('sql', "SELECT toUInt32(mc_seqno + 1) AS x FROM checkpoints FINAL WHERE name = 'lock-test'", '--data', ref.dir);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout.trim())).toEqual({ x: 42 });
    // it used this process's engine, which still answers (the reader did not stop it)
    expect(await ref.store.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
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
    const r = cli('migrate', '--data', stale);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^applied 0001_/);
    // released on exit
    expect(existsSync(join(stale, 'store.lock'))).toBe(false);
  });

  // Issue 21, hole 13: after a crash the pid in the lock was reused by an unrelated live process, which blocked start-up.
  describe('a lock naming a live process that is not its holder (pid reuse) is taken over', () => {
    let other: ChildProcess;
    beforeAll(() => {
      other = spawn('sleep', ['600'], { stdio: 'ignore' });
    });
    afterAll(() => {
      other.kill('SIGKILL');
    });
    const takeOver = (lock: string, mtime?: Date) => {
      writeFileSync(join(stale, 'store.lock'), lock);
      if (mtime) utimesSync(join(stale, 'store.lock'), mtime, mtime);
      const r = cli('migrate', '--data', stale);
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expect(r.stdout).toMatch(/up to date/);
      expect(existsSync(join(stale, 'store.lock'))).toBe(false);
    };
    const startOf = (pid: number) => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[19];
    const boot = () => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();

    it('another start time than the one recorded', () => {
      expect(startOf(other.pid!)).toMatch(/^\d+$/);
      takeOver(`${other.pid} ${Number(startOf(other.pid!)) - 1000} ${boot()}`);
    });

    it('a lock from another boot', () => {
      takeOver(`${other.pid} ${startOf(other.pid!)} 00000000-0000-0000-0000-000000000000`);
    });

    it('a pid-only lock (the older format) written before the process started', () => {
      takeOver(String(other.pid), new Date(Date.now() - 3_600_000));
    });

    it('is refused while the recorded process is the one running', () => {
      writeFileSync(join(stale, 'store.lock'), `${other.pid} ${startOf(other.pid!)} ${boot()}`);
      const r = cli('migrate', '--data', stale);
      expect(r.status).toBe(1);
      expect(r.stderr.trim()).toBe(`ton-gateway migrate: data directory ${stale} in use by pid ${other.pid}`);
      rmSync(join(stale, 'store.lock'));
    });
  });
});
