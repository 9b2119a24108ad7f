/**
 * The embedded engine (src/engine): ClickHouse over a data directory in a process of its own, serving its HTTP and
 * native protocols on loopback, found or started by every process that opens the directory's store. Everything here
 * is the real thing: the engine process, its ports, the CLI as a user runs it, a devnet indexed over ADNL.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIndexer } from '../../pipelines/index.ts';
import { MemoryBus } from '../../src/bus/index.ts';
import { loadChainDir, type ChainJson } from '../../src/devnet/chain/index.ts';
import { generateDevnet } from '../../src/devnet/generate/index.ts';
import { startLiteServer, writeLiteServerJson, type LiteServer } from '../../src/devnet/liteserver/index.ts';
import { enginePaths, readEngineState } from '../../src/engine/index.ts';
import { LiteserverPool } from '../../src/source/index.ts';
import { getCheckpoint, openStore, type StoreClient } from '../../src/store/client/index.ts';
import { liveHolder } from '../../src/util/index.ts';
import { expectExactlyOnce } from '../pipeline/devnet-checks.ts';
import { nativeHello } from '../helpers/native-hello.ts';
import { until } from '../helpers/until.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const cli = (...args: string[]) => spawnSync(process.execPath, [join(ROOT, 'bin', 'ton-gateway.js'), ...args], { encoding: 'utf8', cwd: ROOT, env: { ...process.env, CLICKHOUSE_URL: '' } });

/** An HTTP statement to the engine as `user` (no user: as ClickHouse's `default`, no password); status and body. */
async function asUser(port: number, sql: string, user?: string, password?: string): Promise<{ status: number; body: string }> {
  const res = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: sql, headers: user ? { 'X-ClickHouse-User': user, 'X-ClickHouse-Key': password ?? '' } : {} });
  return { status: res.status, body: (await res.text()).trim() };
}

/** Whether a process runs (a zombie, exited and not yet reaped by its parent, does not). */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

const engineGone = (dir: string) => liveHolder(enginePaths(dir).lock) === null && readEngineState(enginePaths(dir)) === null;

describe('the engine of a data directory', { timeout: 300_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'tg-engine-'));
  let store: StoreClient;
  beforeAll(async () => {
    store = await openStore({ dataDir: dir });
    await store.command("INSERT INTO checkpoints (name, mc_seqno) VALUES ('engine-test', 7)");
  });
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('opening the store started it and waited until it answered: one process, loopback, a generated password only its owner reads', async () => {
    const paths = enginePaths(dir);
    const state = readEngineState(paths)!;
    expect(state).not.toBeNull();
    expect(state.pid).not.toBe(process.pid);
    expect(liveHolder(paths.lock)?.pid).toBe(state.pid);
    expect(store.engine).toMatchObject({ pid: state.pid, httpPort: state.http_port, tcpPort: state.tcp_port, host: '127.0.0.1', standalone: false });
    expect(state.version).toMatch(/^26\.\d+\.\d+/);
    expect(statSync(paths.dir).mode & 0o777).toBe(0o700);
    expect(statSync(paths.secret).mode & 0o777).toBe(0o600);
    expect(readFileSync(paths.secret, 'utf8').trim()).toBe(store.engine!.secret);
    // this process's mark: the engine runs while it is there
    expect(existsSync(join(paths.clients, String(process.pid)))).toBe(true);
  });

  it('answers the gateway and reader users with the password, over HTTP and the native protocol; nobody without it', async () => {
    const { httpPort, tcpPort, secret } = store.engine!;
    expect(await asUser(httpPort, "SELECT mc_seqno FROM checkpoints FINAL WHERE name = 'engine-test'", 'gateway', secret)).toEqual({ status: 200, body: '7' });
    expect(await asUser(httpPort, 'SELECT currentUser()', 'reader', secret)).toEqual({ status: 200, body: 'reader' });
    expect((await asUser(httpPort, 'SELECT 1', 'gateway', 'wrong')).body).toMatch(/Authentication failed/);
    // ClickHouse's `default` (no password, as clickhouse-local authenticates its own session): its startup quota is
    // spent, and it has no grant on the store anyway
    for (const sql of ['SELECT count() FROM checkpoints', "INSERT INTO checkpoints (name, mc_seqno) VALUES ('anon', 1)", 'SYSTEM STOP LISTEN HTTP', 'DROP TABLE checkpoints', "SELECT * FROM file('/etc/hostname', 'LineAsString')"]) {
      const r = await asUser(httpPort, sql);
      expect(r.status, sql).not.toBe(200);
      expect(r.body, sql).toMatch(/QUOTA_EXCEEDED|Not enough privileges/);
    }
    expect(await asUser(httpPort, "SELECT count() FROM checkpoints WHERE name = 'anon'", 'gateway', secret)).toEqual({ status: 200, body: '0' });
    // the HTTP listener is still up after the anonymous SYSTEM STOP LISTEN
    expect((await asUser(httpPort, 'SELECT 1', 'gateway', secret)).status).toBe(200);
    // native protocol: the same users. A login that fails is answered by the gate in front of the engine (a failed
    // native login aborts this engine build): the engine lives on, and a new connection is answered
    expect(await nativeHello(tcpPort, 'gateway', secret)).toMatchObject({ hello: expect.stringMatching(/ClickHouse/) });
    expect(await nativeHello(tcpPort, 'reader', secret)).toMatchObject({ hello: expect.stringMatching(/ClickHouse/) });
    for (const [user, password] of [['gateway', 'wrong'], ['nobody', ''], ['default', '']]) {
      expect(await nativeHello(tcpPort, user, password)).toMatchObject({ exception: 516, message: expect.stringMatching(/Authentication failed/) });
    }
    await new Promise((r) => setTimeout(r, 1000));
    expect(() => process.kill(store.engine!.pid, 0)).not.toThrow();
    expect(await nativeHello(tcpPort, 'reader', secret)).toMatchObject({ hello: expect.stringMatching(/ClickHouse/) });
    const fresh = await fetch(`http://127.0.0.1:${httpPort}/`, { method: 'POST', body: 'SELECT 1', headers: { 'X-ClickHouse-User': 'reader', 'X-ClickHouse-Key': secret, Connection: 'close' } });
    expect((await fresh.text()).trim()).toBe('1');
  });

  it('sql, status and engine info in other processes find the running engine and use it (and leave it running)', async () => {
    const before = store.engine!;
    const sql = cli('sql', "SELECT mc_seqno FROM checkpoints FINAL WHERE name = 'engine-test'", '--format', 'CSV', '--data', dir);
    expect(sql.stderr).toBe('');
    expect(sql.stdout).toBe('7\n');
    const status = cli('status', '--data', dir);
    expect(status.status).toBe(0);
    expect(status.stdout).toContain(`engine: ClickHouse ${before.version}, HTTP ${before.url}, native 127.0.0.1:${before.tcpPort}`);
    const info = JSON.parse(cli('engine', 'info', '--data', dir, '--json').stdout) as { pid: number; http: string };
    expect(info).toMatchObject({ pid: before.pid, http: before.url });
    // a second writer is refused with the holder's pid; the engine is unharmed
    const second = cli('migrate', '--data', dir);
    expect(second.status).toBe(1);
    expect(second.stderr.trim()).toBe(`ton-gateway migrate: data directory ${dir} in use by pid ${process.pid}`);
    expect(readEngineState(enginePaths(dir))?.pid).toBe(before.pid);
    expect(await store.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
  });

  it('an empty result says so on stderr, not in the data', () => {
    const r = cli('sql', "SELECT * FROM checkpoints WHERE name = 'nothing'", '--data', dir);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim()).toBe('ton-gateway sql: 0 rows');
    const named = cli('sql', "SELECT name FROM checkpoints WHERE name = 'nothing'", '--format', 'CSVWithNames', '--data', dir);
    expect(named.stdout).toBe('"name"\n');
    expect(named.stderr.trim()).toBe('ton-gateway sql: 0 rows');
  });
});

describe('who stops the engine', { timeout: 300_000 }, () => {
  it('the last process to close stops the engine it started; a reader that came and went does not', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tg-engine-stop-'));
    try {
      const a = await openStore({ dataDir: dir });
      const reader = await openStore({ dataDir: dir, readonly: true, migrate: false });
      expect(reader.engine!.pid).toBe(a.engine!.pid);
      await reader.close();
      // the writer's lease holds it
      expect(await a.query('SELECT 2 AS two')).toEqual([{ two: 2 }]);
      const pid = a.engine!.pid;
      await a.close();
      expect(engineGone(dir)).toBe(true);
      // its lock freed as it exits: the process itself is gone a moment later
      await until(() => !alive(pid), 'the engine process gone', 10_000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an engine started by hand keeps running when the gateway closes; SIGTERM stops it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tg-engine-hand-'));
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'ton-gateway.js'), 'engine', '--data', dir], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr!.on('data', (d) => (err += d));
    const exited = new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
    try {
      await until(() => readEngineState(enginePaths(dir)) !== null, 'the engine started by hand', 60_000);
      expect(readEngineState(enginePaths(dir))).toMatchObject({ pid: child.pid, standalone: true });
      const s = await openStore({ dataDir: dir });
      expect(s.engine).toMatchObject({ pid: child.pid, standalone: true });
      await s.close();
      expect(readEngineState(enginePaths(dir))?.pid).toBe(child.pid);
      child.kill('SIGTERM');
      expect(await exited, err).toBe(0);
      expect(engineGone(dir)).toBe(true);
      expect(err).toMatch(/stopping \(SIGTERM\)/);
    } finally {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('ports', { timeout: 300_000 }, () => {
  let taken: Server;
  let port: number;
  beforeAll(async () => {
    taken = createServer().listen(0, '127.0.0.1');
    await new Promise((r) => taken.once('listening', r));
    port = (taken.address() as { port: number }).port;
  });
  afterAll(() => {
    taken.close();
  });

  it('a chosen port that is taken: one clear line, exit 4, no engine', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tg-engine-port-'));
    try {
      const r = cli('engine', '--data', dir, '--http-port', String(port));
      expect(r.status).toBe(4);
      expect(r.stderr).toContain(`the engine's HTTP port 127.0.0.1:${port} is in use by another program: choose another, or leave it unset to take a free one`);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(engineGone(dir)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the ports of last time are taken again when free, and replaced by free ones when another program took one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tg-engine-reuse-'));
    try {
      const first = await openStore({ dataDir: dir });
      const { httpPort, tcpPort } = first.engine!;
      await first.close();
      // the state of the last run is gone with it; its ports are remembered by the next start
      writeFileSync(enginePaths(dir).state, JSON.stringify({ pid: 1, owner: '1 1 x', http_port: httpPort, tcp_port: tcpPort, host: '127.0.0.1', version: 'x', started_at: '' }));
      const again = await openStore({ dataDir: dir });
      expect(again.engine).toMatchObject({ httpPort, tcpPort });
      await again.close();
      writeFileSync(enginePaths(dir).state, JSON.stringify({ pid: 1, owner: '1 1 x', http_port: port, tcp_port: tcpPort, host: '127.0.0.1', version: 'x', started_at: '' }));
      const moved = await openStore({ dataDir: dir });
      expect(moved.engine!.httpPort).not.toBe(port);
      expect(await moved.query('SELECT 3 AS three')).toEqual([{ three: 3 }]);
      await moved.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a data directory written by the in-process engine of earlier versions', { timeout: 300_000 }, () => {
  it('opens: its tables, rows and key-value store are read as they were, and it is written on', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'tg-engine-legacy-'));
    try {
      const tar = spawnSync('tar', ['xzf', join(ROOT, 'test', 'fixtures', 'stores', 'inprocess-f8cbab7.tgz'), '-C', parent]);
      expect(tar.status).toBe(0);
      const dir = join(parent, 'legacy');
      expect(existsSync(join(dir, 'engine'))).toBe(false);
      // read-only first, as `sql` would meet it
      const sql = cli('sql', 'SELECT count() AS n, uniqExact(account) > 1 AS many FROM transactions FINAL', '--format', 'CSV', '--data', dir);
      expect(sql.stderr).toBe('');
      expect(sql.stdout).toBe('275,1\n');
      const store = await openStore({ dataDir: dir });
      try {
        const [r] = await store.query<{ blocks: string; tx: string; v: string }>(
          'SELECT (SELECT count() FROM blocks FINAL) AS blocks, (SELECT count() FROM transactions FINAL) AS tx, (SELECT max(version) FROM schema_migrations) AS v',
        );
        expect(r).toMatchObject({ blocks: '2', tx: '275' });
        // the migrations written since that version are applied on top
        expect(Number(r.v)).toBeGreaterThanOrEqual(17);
        // a transaction document from the key-value store the in-process writer kept
        const [{ hash }] = await store.query<{ hash: string }>('SELECT hash FROM transactions FINAL ORDER BY lt LIMIT 1');
        expect(store.kv!.db.docs.getKeysCount()).toBe(275);
        expect(hash).toMatch(/^[0-9a-f]{64}$/);
        await store.command("INSERT INTO checkpoints (name, mc_seqno) VALUES ('after-upgrade', 3)");
        expect(await store.query("SELECT mc_seqno FROM checkpoints FINAL WHERE name = 'after-upgrade'")).toEqual([{ mc_seqno: 3 }]);
      } finally {
        await store.close();
      }
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });
});

describe('the engine dies under a running gateway', { timeout: 600_000 }, () => {
  let dir: string;
  let chain: { blocks: ChainJson['blocks']; transactions: { hash: string }[] };
  let tip: number;
  let ls: LiteServer;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tg-engine-devnet-'));
    await generateDevnet(dir, { blocks: 10, bulkWallets: 2, bulkFanout: 2, states: 'last', seed: 30 });
    chain = JSON.parse(readFileSync(join(dir, 'chain.json'), 'utf8'));
    tip = Math.max(...chain.blocks.filter((b) => b.workchain === -1).map((b) => b.seqno));
  }, 600_000);
  afterAll(async () => {
    await ls?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('kill -9 of the engine mid-write: the gateway starts it anew and carries on; every row exactly once', async () => {
    // blocks released one by one, so the kill lands while seqnos are being written
    const source = loadChainDir(dir, { visibleMc: 2 });
    ls = await startLiteServer({ source, key: Buffer.alloc(32, 30), host: '127.0.0.1' });
    const data = mkdtempSync(join(tmpdir(), 'tg-engine-kill-'));
    const pool = new LiteserverPool([{ host: `127.0.0.1:${ls.port}`, publicKey: ls.publicKey }], { timeoutMs: 5000 });
    const lines: string[] = [];
    const store = await openStore({ dataDir: data, log: (l) => lines.push(l) });
    const bus = new MemoryBus();
    try {
      await pool.start();
      const h = await runIndexer({ bus, source: pool, store, fromSeqno: 1, untilSeqno: tip });
      const release = setInterval(() => source.release(), 400);
      const first = store.engine!.pid;
      await until(() => (h.stats.checkpoint ?? 0) >= 2, 'checkpoint 2', 120_000);
      expect(source.lastMasterchain().id.seqno).toBeLessThan(tip);
      process.kill(first, 'SIGKILL');
      await h.done;
      clearInterval(release);
      await h.stop();
      expect(await getCheckpoint(store, 'ingest')).toBe(tip);
      expect(store.engine!.pid).not.toBe(first);
      expect(lines.some((l) => l.includes(`(pid ${first}) is gone; now pid ${store.engine!.pid}`))).toBe(true);
      await expectExactlyOnce(store, chain);
    } finally {
      await bus.close();
      await pool.close();
      await store.close();
      rmSync(data, { recursive: true, force: true });
    }
  });

  it('SIGTERM of `start`: it flushes, stops its engine, exits 0; a restart resumes from the checkpoint', async () => {
    await ls?.close();
    ls = await startLiteServer({ source: loadChainDir(dir), key: Buffer.alloc(32, 31), host: '127.0.0.1' });
    writeLiteServerJson(dir, { host: '127.0.0.1', port: ls.port, publicKey: ls.publicKey });
    const data = mkdtempSync(join(tmpdir(), 'tg-engine-term-'));
    const start = () =>
      spawn(process.execPath, [join(ROOT, 'bin', 'ton-gateway.js'), 'start', '--config', join(dir, 'liteserver.json'), '--from-seqno', '1', '--data', data, '--port', '0', '--host', '127.0.0.1'], {
        cwd: ROOT,
        stdio: ['ignore', 'ignore', 'pipe'],
        env: { ...process.env, CLICKHOUSE_URL: '', LOG_FORMAT: 'json', LOG_LEVEL: 'info' },
      });
    try {
      const child = start();
      let log = '';
      child.stderr!.on('data', (d) => (log += d));
      const exited = new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
      await until(() => readEngineState(enginePaths(data)) !== null || child.exitCode !== null, 'the engine of start', 120_000);
      expect(child.exitCode, log).toBeNull();
      const engine = readEngineState(enginePaths(data))!;
      // read beside it (a reader leaves the writer's engine running) until a few seqnos are durable
      const reader = await openStore({ dataDir: data, readonly: true, migrate: false });
      try {
        // (the tables come with start's migrations, a moment after its engine)
        for (let t = Date.now(); ((await getCheckpoint(reader, 'ingest').catch(() => null)) ?? 0) < 3; ) {
          if (Date.now() - t > 120_000) throw new Error(`no checkpoint 3: ${log.slice(-1000)}`);
          await new Promise((r) => setTimeout(r, 200));
        }
      } finally {
        await reader.close();
      }
      expect(readEngineState(enginePaths(data))?.pid).toBe(engine.pid);
      child.kill('SIGTERM');
      expect(await exited, log.slice(-2000)).toBe(0);
      // the engine went with it: no process holds the directory
      expect(engineGone(data)).toBe(true);
      await until(() => !alive(engine.pid), 'the engine process gone', 10_000);
      expect(log).not.toMatch(/"level":50/);
      const store = await openStore({ dataDir: data });
      try {
        const cp = await getCheckpoint(store, 'ingest');
        expect(cp).not.toBeNull();
        const [n] = await store.query<{ tx: string; dup: string }>('SELECT count() AS tx, count() - uniqExact(hash) AS dup FROM transactions FINAL');
        expect(Number(n.tx)).toBeGreaterThan(0);
        expect(n.dup).toBe('0');
      } finally {
        await store.close();
      }
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  });
});
