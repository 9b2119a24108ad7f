/**
 * The API served by several processes (`start --api-workers N`, src/api/cluster.ts), all real processes:
 *   - a worker beside a real primary (a store in this test process): the worker's own read-only client of the same
 *     engine answers statements with bigint and tuple parameters, engine errors keep their code, every write is
 *     refused by the engine (its `reader` user) or by the client, one limiter;
 *   - `start --api-workers 2` on a devnet: both workers answer, the same bodies as `--api-workers 1` on the same store,
 *     an anonymous rate limit that holds across workers, a worker killed with SIGKILL replaced, SIGTERM stopping all;
 *   - `--api-workers auto`: one worker per core (the log, the primary's child processes, the pids that answer, the
 *     `ton_api_workers` gauge), and one process when the primary is pinned to one core (taskset);
 *   - /metrics answered by a worker with the primary's registry (the indexer's checkpoint), not a worker's own;
 *   - with REDIS_URL the workers take their limits from Redis (one bucket for all of them and for any other process
 *     sharing that Redis), the primary holding none (runs when REDIS_URL points at a Redis, as test/api-v2 does).
 */
import cluster from 'node:cluster';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey, MemoryRateLimiter, RedisRateLimiter, startApiWorkers } from '../../src/api/index.ts';
import { openStore } from '../../src/store/client/index.ts';
import { generateDevnet } from '../../src/devnet/generate/index.ts';
import { loadChainDir } from '../../src/devnet/chain/index.ts';
import { startLiteServer, writeLiteServerJson, type LiteServer } from '../../src/devnet/liteserver/index.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('an API worker beside its primary', { timeout: 300_000 }, () => {
  it('statements run on the same engine, read-only; errors keep their code; limits are one set', async () => {
    const data = mkdtempSync(join(tmpdir(), 'tg-api-ipc-'));
    const store = await openStore({ dataDir: data });
    process.env.TG_PROBE_DATA = data;
    try {
      await store.command('CREATE TABLE probe (k String, v String) ENGINE = MergeTree ORDER BY k');
      await store.command("INSERT INTO probe VALUES ('probe', 'primary')");
      const reports: Record<string, { ok: boolean; value?: unknown; name?: string; message?: string; code?: string }>[] = [];
      const onMessage = (_w: unknown, m: { tg?: string; report?: (typeof reports)[number] }) => m?.tg === 'probe' && reports.push(m.report!);
      cluster.on('message', onMessage);
      const workers = await startApiWorkers({
        count: 1,
        store,
        limiter: new MemoryRateLimiter(),
        log: silent,
        exec: { file: join(import.meta.dirname, 'fixtures', 'api-worker-probe.ts'), execArgv: ['--import', 'tsx'] },
      });
      await workers.stop();
      cluster.off('message', onMessage);
      expect(reports).toHaveLength(1);
      const r = reports[0];
      // parameters bound by the engine: a UInt64 above 2^53 and a tuple of a string and a UInt64 max
      expect(r.params).toEqual({ ok: true, value: [{ n: (2n ** 63n + 5n).toString(), t: [['a', (2n ** 64n - 1n).toString()]] }] });
      // the primary's rows, through the primary's engine
      expect(r.rows).toEqual({ ok: true, value: [{ v: 'primary' }] });
      // the engine's error with its code: what mapDbError reads
      expect(r.missing).toMatchObject({ ok: false, code: '60', message: expect.stringMatching(/no_such_table/) });
      // writes: the engine's reader user (grants of SELECT only, readonly = 2), the client's own refusal
      expect(r.command).toMatchObject({ ok: false, message: expect.stringMatching(/Not enough privileges.*INSERT/) });
      expect(r.ddl).toMatchObject({ ok: false, message: expect.stringMatching(/Not enough privileges.*CREATE TABLE/) });
      expect(r.fileRead).toMatchObject({ ok: false, message: expect.stringMatching(/Not enough privileges.*READ ON FILE/) });
      expect(r.settingsOverride).toMatchObject({ ok: false, message: expect.stringMatching(/Cannot modify 'readonly' setting in readonly mode/) });
      expect(r.insertRows).toMatchObject({ ok: false, message: expect.stringMatching(/read-only/) });
      // the primary's key-value store, opened read-only beside its writer
      expect(r.pointReads).toBe('kv');
      // the limiter is the primary's: a bucket of one token at 0.01 rps admits the first take only
      expect((r.takes as unknown as { ok: boolean }[]).map((t) => t.ok)).toEqual([true, false]);
      expect(await store.query('SELECT v FROM probe ORDER BY v')).toEqual([{ v: 'primary' }]);
    } finally {
      delete process.env.TG_PROBE_DATA;
      await store.close();
      rmSync(data, { recursive: true, force: true });
    }
  });
});

interface Answer {
  status: number;
  worker: string | undefined;
  pid: string | undefined;
  body: string;
}

/** One request on a connection of its own (node:cluster hands connections to the workers in turn). */
function get(port: number, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, worker: res.headers['x-api-worker'] as string | undefined, pid: res.headers['x-api-worker-pid'] as string | undefined, body }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

const until = async <T>(what: string, f: () => Promise<T | null | undefined>, tries = 600): Promise<T> => {
  for (let i = 0; i < tries; i++) {
    const v = await f().catch((e: Error) => {
      if (e.message.startsWith('start exited')) throw e;
      return null;
    });
    if (v !== null && v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`gave up waiting: ${what}`);
};

/**
 * The processes whose parent is `pid` (from /proc: the 4th field of stat, after the command's parenthesis), other
 * than the embedded engine it started for its store (`ton-gateway engine ... --for-clients`, src/engine).
 */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const engine = readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0').includes('--for-clients');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid && !engine) out.push(Number(d));
    } catch {
      // the process ended between the listing and the read
    }
  }
  return out.sort((a, b) => a - b);
}

/** The first JSON log record of `start` with this message. */
function logRecord<T>(log: string, msg: string): T | undefined {
  for (const line of log.split('\n')) {
    if (!line.startsWith('{')) continue;
    const rec = JSON.parse(line) as { msg?: string };
    if (rec.msg === msg) return rec as T;
  }
  return undefined;
}

/** A sample's value in Prometheus text (unlabelled), or undefined. */
const sampleOf = (text: string, name: string): number | undefined => {
  const m = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
  return m ? Number(m[1]) : undefined;
};

const hasTaskset = spawnSync('taskset', ['-c', '0', 'true']).status === 0;
const REDIS_URL = process.env.REDIS_URL || undefined;

const KEY = 'api-workers-test-key';
const withKey = { 'X-API-Key': KEY };

describe('start --api-workers on a devnet', { timeout: 600_000 }, () => {
  let dir: string;
  let ls: LiteServer;
  let tip: number;
  let data: string;
  let keys: string;
  let paths: string[] = [];
  const single = new Map<string, string>();

  /** `start` on the devnet; `env` over the defaults (REDIS_URL empty), `pin` a taskset CPU list for the primary (and so its workers). */
  function start(
    workers: number | 'auto',
    port: number,
    opts: { env?: Record<string, string>; pin?: string } = {},
  ): { child: ChildProcess; log: () => string; exited: Promise<number | null> } {
    const args = ['start', '--config', join(dir, 'liteserver.json'), '--data', data, '--from-seqno', '1', '--port', String(port), '--host', '127.0.0.1', '--keys', keys, '--api-workers', String(workers)];
    const argv = [process.execPath, join(ROOT, 'bin', 'ton-gateway.js'), ...args];
    if (opts.pin) argv.unshift('taskset', '-c', opts.pin);
    const child = spawn(argv[0], argv.slice(1), {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
      // the primary's limiter unless a test gives REDIS_URL: the buckets a test counts are its alone
      env: { ...process.env, CLICKHOUSE_URL: '', REDIS_URL: '', LOG_FORMAT: 'json', LOG_LEVEL: 'info', ...opts.env },
    });
    let log = '';
    child.stderr!.on('data', (d) => (log += String(d)));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    return { child, log: () => log, exited };
  }

  /** Waits until the API answers with the whole devnet behind the checkpoint. */
  const indexed = (port: number) =>
    until('the devnet indexed', async () => {
      const r = await get(port, '/api/v3/indexStatus', withKey);
      return r.status === 200 && (JSON.parse(r.body) as { checkpoint_mc_seqno: number | null }).checkpoint_mc_seqno === tip ? r : null;
    });

  /**
   * Waits until `start` serves with every worker listening and the devnet indexed. The API answers before that (on a
   * store already indexed, the first worker to listen answers while the others start): the log line 'indexing and
   * serving' comes once they all listen.
   */
  async function serving(p: ReturnType<typeof start>, port: number): Promise<void> {
    await until('start serving', async () => {
      if (p.child.exitCode !== null) throw new Error(`start exited: ${p.log().slice(-2000)}`);
      return logRecord(p.log(), 'indexing and serving') ? true : null;
    });
    await indexed(port);
  }

  /** Runs `body` against a `start`, stops it (exit 0 expected), and prints its log when something failed. */
  async function withStart(workers: number | 'auto', opts: Parameters<typeof start>[2], body: (p: ReturnType<typeof start>, port: number) => Promise<void>): Promise<void> {
    const port = await freePort();
    const p = start(workers, port, opts);
    let stopped = false;
    try {
      await serving(p, port);
      await body(p, port);
      expect(await stop(p)).toBe(0);
      stopped = true;
    } catch (e) {
      console.error(`start --api-workers ${workers}: ${p.log().slice(-3000)}`);
      throw e;
    } finally {
      if (!stopped) p.child.kill('SIGKILL');
    }
  }

  async function stop(p: ReturnType<typeof start>): Promise<number | null> {
    p.child.kill('SIGTERM');
    const code = await Promise.race([p.exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 30_000))]);
    if (code === 'hung') {
      p.child.kill('SIGKILL');
      throw new Error(`start did not stop on SIGTERM: ${p.log().slice(-2000)}`);
    }
    return code;
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tg-api-workers-net-'));
    await generateDevnet(dir, { seed: 'api-workers', blocks: 6, bulkWallets: 2, bulkFanout: 2 });
    const chain = loadChainDir(dir);
    ls = await startLiteServer({ source: chain, key: Buffer.alloc(32, 52), host: '127.0.0.1' });
    writeLiteServerJson(dir, { host: '127.0.0.1', port: ls.port, publicKey: ls.publicKey });
    const blocks = (JSON.parse(readFileSync(join(dir, 'chain.json'), 'utf8')) as { blocks: { workchain: number; seqno: number }[] }).blocks;
    tip = Math.max(...blocks.filter((b) => b.workchain === -1).map((b) => b.seqno));
    data = mkdtempSync(join(tmpdir(), 'tg-api-workers-data-'));
    keys = join(dir, 'keys.json');
    // anonymous callers: one token, refilled once in 100 s (a limit counted, not timed); the test's own key: no limit to speak of
    writeFileSync(keys, JSON.stringify({ anonymous: { rps: 0.01 }, plans: { test: { rps: 100_000 } }, keys: [{ sha256: hashApiKey(KEY), plan: 'test' }] }));

    // one process first: the bodies the workers must give
    const port = await freePort();
    const one = start(1, port);
    try {
      await indexed(port);
      const list = JSON.parse((await get(port, '/api/v3/transactions?limit=20&sort=desc', withKey)).body) as {
        transactions: { hash: string; account: string; trace_id: string | null; in_msg: { hash: string } | null }[];
      };
      expect(list.transactions.length).toBeGreaterThan(3);
      const e = encodeURIComponent;
      paths = ['/api/v3/masterchainInfo', '/api/v3/blocks?limit=5', '/api/v3/transactions?limit=20&sort=desc'];
      for (const t of list.transactions.slice(0, 4)) {
        paths.push(
          `/api/v3/transactions?hash=${e(t.hash)}`,
          `/api/v3/transactions?account=${e(t.account)}&limit=5`,
          `/api/v3/accountStates?address=${e(t.account)}`,
          `/api/v3/walletStates?address=${e(t.account)}`,
          `/api/v3/addressBook?address=${e(t.account)}`,
          `/api/v3/jetton/transfers?owner_address=${e(t.account)}&limit=5`,
        );
        if (t.in_msg) paths.push(`/api/v3/messages?msg_hash=${e(t.in_msg.hash)}`);
        if (t.trace_id) paths.push(`/api/v3/traces?trace_id=${e(t.trace_id)}`);
      }
      // point reads of every kind are among them
      for (const kind of ['/messages?msg_hash=', '/traces?trace_id=', '/transactions?hash=', '/accountStates?']) expect(paths.some((p) => p.includes(kind)), kind).toBe(true);
      for (const p of paths) {
        const r = await get(port, p, withKey);
        expect(r.status, `${p}: ${r.body}`).toBe(200);
        // one process: no worker header
        expect(r.worker).toBeUndefined();
        single.set(p, r.body);
      }
    } finally {
      expect(await stop(one)).toBe(0);
    }
  }, 600_000);

  afterAll(async () => {
    await ls?.close();
    for (const d of [dir, data]) if (d) rmSync(d, { recursive: true, force: true });
  });

  it('two workers answer, with the bodies of one process; the anonymous limit holds across them; a killed worker is replaced; SIGTERM stops all', async () => {
    const port = await freePort();
    const two = start(2, port);
    let stopped = false;
    try {
      await indexed(port);
      // a worker forked late (a loaded machine) listens a while after the other answers: wait until both have
      // answered once (round-robin only shares among listening workers), then check every path
      const ready = new Set<string>();
      await until('both workers answer', async () => {
        const r = await get(port, '/api/v3/masterchainInfo', withKey);
        if (r.status === 200 && r.worker) ready.add(r.worker);
        return ready.size === 2 ? true : null;
      });
      // both workers answer, each path the same body as the single process gave
      const seen = new Map<string, string>();
      for (let round = 0; round < 2; round++) {
        for (const p of paths) {
          const r = await get(port, p, withKey);
          expect(r.status, `${p}: ${r.body}`).toBe(200);
          expect(r.body, p).toBe(single.get(p));
          seen.set(r.worker!, r.pid!);
        }
      }
      expect([...seen.keys()].sort()).toEqual(['0', '1']);
      expect(new Set(seen.values()).size).toBe(2);

      // anonymous callers: one bucket of one token for every worker, not one per worker
      const t0 = Date.now();
      const answers: Answer[] = [];
      for (let i = 0; i < 10; i++) answers.push(await get(port, '/api/v3/masterchainInfo'));
      const elapsedS = (Date.now() - t0) / 1000;
      const refused = answers.filter((a) => a.status === 429);
      const admitted = answers.filter((a) => a.status === 200);
      expect(new Set(answers.map((a) => a.worker))).toEqual(new Set(['0', '1']));
      expect(new Set(refused.map((a) => a.worker))).toEqual(new Set(['0', '1']));
      // the one token, plus what 0.01 rps refilled while the requests went (none unless they took 100 s)
      expect(admitted.length).toBeGreaterThanOrEqual(1);
      expect(admitted.length).toBeLessThanOrEqual(1 + Math.floor(elapsedS * 0.01));
      expect(admitted.length + refused.length).toBe(10);

      // a worker killed is forked again, in its slot, and answers
      const victim = Number(seen.get('0'));
      process.kill(victim, 'SIGKILL');
      await until('the worker replaced', async () => (/API worker died; forking another/.test(two.log()) ? true : null));
      const replacement = await until('the new worker answers', async () => {
        const r = await get(port, '/api/v3/masterchainInfo', withKey);
        return r.status === 200 && r.worker === '0' && r.pid !== String(victim) ? r.pid : null;
      });
      expect(Number(replacement)).not.toBe(victim);
      expect(() => process.kill(victim, 0)).toThrow();

      // SIGTERM on the primary: the workers stop, then the indexer; exit 0
      const pids = [Number(replacement), Number(seen.get('1'))];
      expect(await stop(two)).toBe(0);
      stopped = true;
      for (const pid of pids) expect(() => process.kill(pid, 0), `worker ${pid} still runs`).toThrow();
    } finally {
      if (!stopped) two.child.kill('SIGKILL');
    }
  });

  it('--api-workers auto forks one worker per core: the log, the process tree, the pids that answer and ton_api_workers agree', async () => {
    const cores = availableParallelism();
    await withStart('auto', {}, async (p, port) => {
      const primary = p.child.pid!;
      expect(logRecord<{ apiWorkers: number }>(p.log(), 'indexing and serving')?.apiWorkers).toBe(cores);
      if (cores < 2) {
        // auto on one core: the primary serves, as --api-workers 1
        expect(logRecord(p.log(), 'API workers listening')).toBeUndefined();
        expect((await get(port, '/api/v3/masterchainInfo', withKey)).worker).toBeUndefined();
        return;
      }
      const listening = logRecord<{ workers: number; pids: number[] }>(p.log(), 'API workers listening');
      expect(listening?.workers).toBe(cores);
      const pids = [...listening!.pids].sort((a, b) => a - b);
      expect(pids).toHaveLength(cores);
      // the primary's children are its workers, no more and no fewer
      expect(childrenOf(primary)).toEqual(pids);
      // each of them answers (connections go to the workers in turn), and no other process does
      const seen = new Map<string, string>();
      for (let i = 0; i < 20 * cores && seen.size < cores; i++) {
        const r = await get(port, '/api/v3/masterchainInfo', withKey);
        expect(r.status).toBe(200);
        seen.set(r.worker!, r.pid!);
      }
      expect([...seen.keys()].sort()).toEqual(Array.from({ length: cores }, (_, i) => String(i)).sort());
      expect([...seen.values()].map(Number).sort((a, b) => a - b)).toEqual(pids);
      // the primary's registry counts them
      expect(sampleOf((await get(port, '/metrics')).body, 'ton_api_workers')).toBe(cores);
      // a restart on this indexed store stores nothing new: the checkpoint gauge must come from the stored checkpoint
      await until('the stored checkpoint in /metrics after a restart', async () => sampleOf((await get(port, '/metrics')).body, 'ton_ingest_checkpoint_mc_seqno') === tip || null, 60);
    });
  });

  it.skipIf(!hasTaskset || availableParallelism() < 2)('--api-workers auto on a primary pinned to one core: no workers, the primary serves', async () => {
    await withStart('auto', { pin: '0' }, async (p, port) => {
      expect(logRecord<{ apiWorkers: number }>(p.log(), 'indexing and serving')?.apiWorkers).toBe(1);
      expect(logRecord(p.log(), 'API workers listening')).toBeUndefined();
      expect(childrenOf(p.child.pid!)).toEqual([]);
      const r = await get(port, '/api/v3/masterchainInfo', withKey);
      expect(r.status).toBe(200);
      expect(r.worker).toBeUndefined();
    });
  });

  it("/metrics answered by a worker is the primary's registry: the indexer's checkpoint and stored blocks, the workers counted", async () => {
    // a store of its own, indexed by this primary: its counters count what it stored (a restart on an indexed store
    // stores nothing new)
    const savedData = data;
    data = mkdtempSync(join(tmpdir(), 'tg-api-workers-metrics-'));
    try {
      await withStart(2, {}, async (p, port) => {
        const workerPids = childrenOf(p.child.pid!);
        expect(workerPids).toHaveLength(2);
        // the gauge follows the checkpoint a moment after the store shows it: waited for, never reached by a worker's
        // own registry (it loads the same modules but never indexes: checkpoint 0, no blocks)
        const first = await until('the checkpoint in /metrics', async () => {
          const r = await get(port, '/metrics');
          return sampleOf(r.body, 'ton_ingest_checkpoint_mc_seqno') === tip ? r : null;
        }, 120);
        const answers = [first, await get(port, '/metrics'), await get(port, '/metrics')];
        for (const r of answers) {
          expect(r.status).toBe(200);
          // answered by a worker, not by the primary (which serves no HTTP with workers)
          expect(workerPids).toContain(Number(r.pid));
          expect(sampleOf(r.body, 'ton_ingest_checkpoint_mc_seqno')).toBe(tip);
          expect(sampleOf(r.body, 'ton_ingest_blocks_stored_total')).toBeGreaterThan(0);
          expect(sampleOf(r.body, 'ton_ingest_transactions_stored_total')).toBeGreaterThan(0);
          expect(sampleOf(r.body, 'ton_api_workers')).toBe(2);
        }
        expect(new Set(answers.map((r) => r.worker)).size).toBe(2);
      });
    } finally {
      rmSync(data, { recursive: true, force: true });
      data = savedData;
    }
  });

  it.skipIf(!REDIS_URL)('with REDIS_URL the workers take limits from Redis: one bucket for every worker and any other process sharing it', async () => {
    // a database of its own: the anonymous bucket of 127.0.0.1 is not another test's
    const url = new URL(REDIS_URL!);
    url.pathname = '/9';
    const redis = new Redis(url.toString(), { maxRetriesPerRequest: 2 });
    const other = new RedisRateLimiter(url.toString());
    const bucket = 'ton-gateway:rl:ip:127.0.0.1';
    try {
      await withStart(2, { env: { REDIS_URL: url.toString() } }, async (_p, port) => {
        const anonymous = async (n: number) => {
          const out: Answer[] = [];
          for (let i = 0; i < n; i++) out.push(await get(port, '/api/v3/masterchainInfo'));
          // a limiter missing in the primary would answer 500: only admitted or refused
          for (const a of out) expect([200, 429], a.body).toContain(a.status);
          return out;
        };
        // one token at 0.01 rps: what a run of requests refills is counted, not timed
        const refill = (t0: number) => Math.floor(((Date.now() - t0) / 1000) * 0.01);
        await redis.del(bucket);
        let t0 = Date.now();
        const first = await anonymous(10);
        const admitted = first.filter((a) => a.status === 200).length;
        expect(admitted).toBeGreaterThanOrEqual(1);
        expect(admitted).toBeLessThanOrEqual(1 + refill(t0));
        expect(new Set(first.map((a) => a.worker))).toEqual(new Set(['0', '1']));
        expect(new Set(first.filter((a) => a.status === 429).map((a) => a.worker))).toEqual(new Set(['0', '1']));
        // the bucket is in Redis (the key the limiter writes)
        expect(await redis.exists(bucket)).toBe(1);
        // the bucket refilled in Redis: the workers admit again (a limiter of their own or the primary's would not)
        await redis.del(bucket);
        t0 = Date.now();
        const again = await anonymous(4);
        expect(again.filter((a) => a.status === 200).length).toBe(1 + Math.min(3, refill(t0)));
        // another process sharing the Redis takes the token: the workers refuse
        await redis.del(bucket);
        expect((await other.take('ip:127.0.0.1', 0.01)).ok).toBe(true);
        t0 = Date.now();
        const taken = await anonymous(4);
        expect(taken.filter((a) => a.status === 200).length).toBe(Math.min(4, refill(t0)));
      });
    } finally {
      await other.close();
      await redis.del(bucket);
      redis.disconnect();
    }
  });

  it('the streaming API in each worker gets the primary feed relayed', async () => {
    // the same chain, its masterchain released after the subscribers connected
    const chain = loadChainDir(dir, { visibleMc: 2 });
    const live = await startLiteServer({ source: chain, key: Buffer.alloc(32, 53), host: '127.0.0.1' });
    const liveDir = mkdtempSync(join(tmpdir(), 'tg-api-workers-live-'));
    // the devnet's config (its validator section: the root ingest verifies from) naming this liteserver
    writeFileSync(join(liveDir, 'liteserver.json'), readFileSync(join(dir, 'liteserver.json')));
    writeLiteServerJson(liveDir, { host: '127.0.0.1', port: live.port, publicKey: live.publicKey });
    const savedDir = dir;
    const savedData = data;
    const subs: { worker: string | undefined; text: () => string; close: () => void }[] = [];
    let p: ReturnType<typeof start> | null = null;
    try {
      writeFileSync(join(liveDir, 'keys.json'), readFileSync(keys));
      dir = liveDir;
      data = mkdtempSync(join(tmpdir(), 'tg-api-workers-live-data-'));
      const port = await freePort();
      p = start(2, port);
      await until('the first blocks indexed', async () => {
        if (p!.child.exitCode !== null) throw new Error(`start exited: ${p!.log().slice(-2000)}`);
        const r = await get(port, '/api/v3/indexStatus', withKey);
        return r.status === 200 && (JSON.parse(r.body) as { checkpoint_mc_seqno: number | null }).checkpoint_mc_seqno !== null ? true : null;
      });
      const txs = (JSON.parse(readFileSync(join(savedDir, 'chain.json'), 'utf8')) as { transactions: { account: string }[] }).transactions;
      const addresses = [...new Set(txs.map((t) => t.account))].slice(0, 20);
      const body = JSON.stringify({ types: ['transactions'], addresses });
      // subscribers on connections of their own until both workers hold some
      for (let i = 0; i < 6 && new Set(subs.map((s) => s.worker)).size < 2; i++) {
        subs.push(
          await new Promise((resolve, reject) => {
            const req = request(
              { host: '127.0.0.1', port, path: '/api/streaming/v2/sse', method: 'POST', agent: false, headers: { ...withKey, 'content-type': 'application/json', accept: 'text/event-stream' } },
              (res) => {
                let text = '';
                res.setEncoding('utf8');
                res.on('data', (d) => (text += d));
                res.on('error', () => undefined);
                resolve({ worker: res.headers['x-api-worker'] as string | undefined, text: () => text, close: () => req.destroy() });
              },
            );
            req.on('error', reject);
            req.end(body);
          }),
        );
      }
      expect(new Set(subs.map((s) => s.worker))).toEqual(new Set(['0', '1']));
      chain.setVisible(chain.masterchainLength);
      // every subscriber, on either worker, gets notifications of the blocks indexed since
      await until('notifications on every subscriber', async () => (subs.every((s) => /event: event\ndata: \{/.test(s.text())) ? true : null), 1200);
      for (const s of subs) expect(s.text(), `worker ${s.worker}`).toMatch(/"type":"transactions"/);
      expect(await stop(p)).toBe(0);
      p = null;
    } finally {
      for (const s of subs) s.close();
      const code = p ? await stop(p) : 0;
      if (code !== 0) console.error(p?.log().slice(-4000));
      await live.close();
      rmSync(data, { recursive: true, force: true });
      rmSync(liveDir, { recursive: true, force: true });
      dir = savedDir;
      data = savedData;
    }
  });
});
