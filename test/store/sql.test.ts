import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertReadOnly, ReadOnlyQueryError, runReadOnlySql } from '../../src/store/read/index.ts';
import { openStore, type StoreClient } from '../../src/store/client/index.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'tg-store-sql-'));

describe('read-only sql', { timeout: 300_000 }, () => {
  let store: StoreClient;
  beforeAll(async () => {
    store = await openStore({ dataDir: dir });
    await store.command("INSERT INTO checkpoints (name, mc_seqno) VALUES ('ingest', 7)");
  });
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs SELECT in the requested format', async () => {
    expect(await runReadOnlySql(store, "SELECT name, mc_seqno FROM checkpoints FINAL WHERE name = 'ingest'")).toBe('{"name":"ingest","mc_seqno":7}\n');
    expect(await runReadOnlySql(store, 'SELECT 1 AS a, 2 AS b', 'CSV')).toBe('1,2\n');
    expect(await runReadOnlySql(store, "WITH 5 AS x SELECT x * 2 AS y")).toBe('{"y":10}\n');
    expect(await runReadOnlySql(store, 'SHOW TABLES LIKE \'checkpoints\'', 'CSV')).toBe('"checkpoints"\n');
    expect(await runReadOnlySql(store, 'SELECT toUInt64(18446744073709551615) AS big')).toBe('{"big":"18446744073709551615"}\n');
  });

  it('refuses writes up front with a clear error', () => {
    for (const q of ["INSERT INTO checkpoints (name) VALUES ('x')", 'DROP TABLE blocks', '  alter table blocks delete where 1', 'TRUNCATE blocks', '/* hi */ OPTIMIZE TABLE blocks', '']) {
      expect(() => assertReadOnly(q), q).toThrow(ReadOnlyQueryError);
    }
    expect(() => assertReadOnly('DROP TABLE blocks')).toThrow('only read queries are allowed (SELECT, SHOW, DESCRIBE, EXPLAIN, WITH); got DROP');
    expect(() => assertReadOnly('-- comment\n select 1')).not.toThrow();
  });

  it('the engine refuses writes hidden behind a read keyword (readonly=1)', async () => {
    await expect(runReadOnlySql(store, "SELECT 1; INSERT INTO checkpoints (name) VALUES ('x')")).rejects.toThrow('give one statement only');
    expect(await runReadOnlySql(store, "SELECT ';' AS s; ", 'CSV')).toBe('";"\n');
    await expect(runReadOnlySql(store, 'SELECT 1 SETTINGS readonly = 0')).rejects.toThrow(ReadOnlyQueryError);
    const [row] = await store.query<{ n: string }>("SELECT count() AS n FROM checkpoints WHERE name = 'x'");
    expect(row.n).toBe('0');
  });

  it('the CLI prints rows and refuses writes with exit code 1', async () => {
    await store.close(); // the child process needs the data dir
    const run = (...a: string[]) => spawnSync(process.execPath, [join(ROOT, 'bin/ton-gateway.js'), 'sql', ...a, '--data', dir], { encoding: 'utf8', env: { ...process.env, CLICKHOUSE_URL: '' } });
    const ok = run("SELECT mc_seqno FROM checkpoints FINAL WHERE name = 'ingest'", '--format', 'CSV');
    expect(ok.stderr).toBe('');
    expect(ok.stdout).toBe('7\n');
    const bad = run('DELETE FROM checkpoints WHERE 1');
    expect(bad.status).toBe(1);
    expect(bad.stderr.trim()).toBe('ton-gateway sql: only read queries are allowed (SELECT, SHOW, DESCRIBE, EXPLAIN, WITH); got DELETE');
    const fmt = run('SELECT 1', '--format', 'XML');
    expect(fmt.status).toBe(1);
    expect(fmt.stderr).toMatch(/unknown format "XML"/);
    store = await openStore({ dataDir: dir });
  });
});

// Issue 21, hole 1: every payload below escaped the text checks before (the `$$` string hid the `;` from the
// splitter, and the per-statement SETTINGS readonly only covered the last statement; chdb wrote INTO OUTFILE).
describe('read-only sql: escapes', { timeout: 300_000 }, () => {
  const data = mkdtempSync(join(tmpdir(), 'tg-store-sql-esc-'));
  const out = join(data, 'outfile.txt');
  const escapes: [string, RegExp][] = [
    ["SELECT $$'$$; DROP TABLE blocks; SELECT $$'$$", /give one statement only/],
    ["SELECT 1; DROP TABLE blocks", /give one statement only/],
    ["SELECT 1 /* ; */; -- x\n DROP TABLE blocks", /give one statement only/],
    [`SELECT 1 INTO OUTFILE '${out}'`, /INTO OUTFILE is refused/],
    [`select * from blocks into   outfile $$${out}$$ truncate format CSV`, /INTO OUTFILE is refused/],
    ["SELECT file('/etc/hostname')", /file\(\) function is refused/],
    ['SELECT `file`(\'/etc/hostname\')', /file\(\) function is refused/],
    ["SELECT * FROM file('/etc/hostname', 'LineAsString')", /file\(\) function is refused/],
    ["SELECT * FROM url('http://127.0.0.1:9/', 'LineAsString')", /read-only/],
    ["SELECT * FROM remote('127.0.0.1:9', system.one)", /read-only/],
    ["SELECT * FROM s3('http://127.0.0.1:9/bucket/x.csv', 'LineAsString')", /read-only/],
    ["SELECT * FROM executable('ls', 'LineAsString', 'x String')", /read-only/],
    ["SELECT * FROM sqlite('/tmp/x.db', 't')", /read-only/],
    ['SELECT 1 SETTINGS readonly = 0', /read-only/],
    ['KILL QUERY WHERE 1', /only read queries are allowed/],
    ['WITH 1 AS x SELECT x; DROP TABLE blocks', /give one statement only/],
  ];
  const cli = (...a: string[]) => spawnSync(process.execPath, [join(ROOT, 'bin/ton-gateway.js'), 'sql', ...a, '--data', data], { encoding: 'utf8', env: { ...process.env, CLICKHOUSE_URL: '' } });

  beforeAll(async () => {
    const s = await openStore({ dataDir: data });
    await s.command("INSERT INTO checkpoints (name, mc_seqno) VALUES ('ingest', 9)");
    await s.close();
  });
  afterAll(() => rmSync(data, { recursive: true, force: true }));

  it('refuses every payload, on a writable store and on a read-only one, and the store is as it was', async () => {
    for (const readonly of [false, true]) {
      const s = await openStore({ dataDir: data, readonly, migrate: false });
      try {
        let escaped = 0;
        for (const [q, why] of escapes) {
          const r = await runReadOnlySql(s, q, 'CSV').then(
            (text) => ({ ok: true, text }),
            (err: Error) => ({ ok: false, text: err.message, named: err instanceof ReadOnlyQueryError }),
          );
          if (r.ok) escaped++;
          expect(r, q).toMatchObject({ ok: false, named: true });
          expect(r.text, q).toMatch(why);
        }
        expect(escaped).toBe(0);
        expect(await runReadOnlySql(s, "SELECT (SELECT count() FROM system.tables WHERE database = currentDatabase() AND name = 'blocks') AS blocks, (SELECT mc_seqno FROM checkpoints FINAL WHERE name = 'ingest') AS cp", 'CSV')).toBe('1,9\n');
        // a string or a quoted name that merely spells a refused word is fine
        expect(await runReadOnlySql(s, "SELECT 'INTO OUTFILE' AS `file`, $$a;b$$ AS s", 'CSV')).toBe('"INTO OUTFILE","a;b"\n');
      } finally {
        await s.close();
      }
    }
    expect(existsSync(out)).toBe(false);
  });

  it('the CLI refuses the reported payloads with one line, exit code 1', () => {
    for (const [q, why] of [escapes[0], escapes[3], escapes[5]]) {
      const r = cli(q);
      expect(r.status, `${q}: ${r.stdout}`).toBe(1);
      expect(r.stderr, q).toMatch(why);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(existsSync(out)).toBe(false);
    const ok = cli("SELECT count() FROM system.tables WHERE database = currentDatabase() AND name = 'blocks'", '--format', 'CSV');
    expect(ok.stderr).toBe('');
    expect(ok.stdout).toBe('1\n');
  });

  it('the engine itself is read-only for the sql command (no statement of the process can write)', async () => {
    const ro = await openStore({ dataDir: data, readonly: true, migrate: false });
    try {
      // past every text check: straight to the engine, through both of the client's paths
      // the engine's `reader` user: grants of SELECT only (DDL, inserts, files refused), readonly = 2 (it may set
      // settings, never `readonly` itself)
      await expect(ro.command('DROP TABLE blocks')).rejects.toThrow(/Not enough privileges.*DROP TABLE/i);
      await expect(ro.queryText("INSERT INTO checkpoints (name, mc_seqno) VALUES ('x', 1)", 'CSV')).rejects.toThrow(/Not enough privileges.*INSERT/i);
      await expect(ro.command('SET readonly = 0')).rejects.toThrow(/readonly/i);
      await expect(ro.queryText("SELECT * FROM file('/etc/hostname', 'LineAsString')", 'CSV')).rejects.toThrow(/Not enough privileges.*READ ON FILE/i);
      await expect(ro.insertRows('checkpoints', [{ name: 'x', mc_seqno: 1 }])).rejects.toThrow(/read-only/);
      expect(await ro.queryText("SELECT getSetting('readonly') AS r, currentUser() AS u, (SELECT count() FROM system.tables WHERE database = currentDatabase() AND name = 'blocks') AS b", 'CSV')).toBe('2,"reader",1\n');
    } finally {
      await ro.close();
    }
  });
});
