/**
 * The API served by several processes (`start --api-workers N`, src/api/cluster.ts), all real processes:
 *   - a worker's store proxy against a real primary (a chdb store in this test process): statements with bigint and
 *     tuple parameters answered as the primary's client answers them, engine errors with their class and code, every
 *     write refused (by the worker, by the primary's keyword check, by the engine's readonly), one limiter;
 *   - `start --api-workers 2` on a devnet: both workers answer, the same bodies as `--api-workers 1` on the same store,
 *     an anonymous rate limit that holds across workers, a worker killed with SIGKILL replaced, SIGTERM stopping all.
 */
import cluster from 'node:cluster';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey, MemoryRateLimiter, startApiWorkers } from '../../src/api/index.ts';
import { openStore } from '../../src/store/index.ts';
import { generateDevnet } from '../../src/devnet/generate/index.ts';
import { loadChainDir } from '../../src/devnet/chain/index.ts';
import { startLiteServer, writeLiteServerJson, type LiteServer } from '../../src/devnet/liteserver/index.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('an API worker and its primary over IPC', { timeout: 300_000 }, () => {
  it('statements run on the primary, errors keep their fields, writes are refused, limits are one set', async () => {
    const data = mkdtempSync(join(tmpdir(), 'tg-api-ipc-'));
    const store = await openStore({ dataDir: data, pointReads: 'tables' });
    try {
      await store.command('CREATE TABLE probe (k String, v String) ENGINE = MergeTree ORDER BY k');
      await store.command("INSERT INTO probe VALUES ('probe', 'primary')");
      const reports: Record<string, { ok: boolean; value?: unknown; name?: string; message?: string; clickhouseCode?: number; code?: string }>[] = [];
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
      // parameters cross the channel whole: a UInt64 above 2^53 and a tuple of a string and a UInt64 max
      expect(r.params).toEqual({ ok: true, value: [{ n: (2n ** 63n + 5n).toString(), t: [['a', (2n ** 64n - 1n).toString()]] }] });
      expect(r.rows).toEqual({ ok: true, value: [{ v: 'primary' }] });
      // the engine's error as the primary's client threw it: what mapDbError reads
      expect(r.missing).toMatchObject({ ok: false, name: 'ChdbQueryError', clickhouseCode: 60, code: 'CHDB_QUERY' });
      // writes: the primary's keyword check, the engine's readonly (DDL, file()), the worker's own refusal
      expect(r.insert).toMatchObject({ ok: false, name: 'ReadOnlyQueryError' });
      expect(r.hiddenInsert).toMatchObject({ ok: false, name: 'ReadOnlyQueryError' });
      expect(r.ddl).toMatchObject({ ok: false, name: 'ReadOnlyQueryError' });
      expect(r.fileRead).toMatchObject({ ok: false, clickhouseCode: 164 });
      expect(r.settingsOverride).toEqual({ ok: true, value: [{ name: 'readonly', value: '1' }] });
      expect(r.command).toMatchObject({ ok: false, message: expect.stringMatching(/does not write/) });
      expect(r.insertRows).toMatchObject({ ok: false, message: expect.stringMatching(/does not write/) });
      // the limiter is the primary's: a bucket of one token at 0.01 rps admits the first take only
      expect((r.takes as unknown as { ok: boolean }[]).map((t) => t.ok)).toEqual([true, false]);
      expect(await store.query('SELECT v FROM probe ORDER BY v')).toEqual([{ v: 'primary' }]);
    } finally {
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

  function start(workers: number, port: number): { child: ChildProcess; log: () => string; exited: Promise<number | null> } {
    const args = ['start', '--config', join(dir, 'liteserver.json'), '--data', data, '--from-seqno', '1', '--port', String(port), '--host', '127.0.0.1', '--keys', keys, '--api-workers', String(workers)];
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'ton-gateway.js'), ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
      // the primary's limiter, not Redis: the buckets this test counts are its alone
      env: { ...process.env, CLICKHOUSE_URL: '', REDIS_URL: '', LOG_FORMAT: 'json', LOG_LEVEL: 'info' },
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
