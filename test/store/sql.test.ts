import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertReadOnly, openStore, ReadOnlyQueryError, runReadOnlySql, type StoreClient } from '../../src/store/index.ts';

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
