/**
 * The split (Kafka) layout of docker/README.md: role workers as separate members of the bus, on a generated devnet
 * served over ADNL. One test per layout: the documented one; decoders killed and restarted mid-chain; a decoder
 * started late; the store worker killed. Each checks every block and transaction once, the traces stage's output
 * equal to the embedded run's, and the checkpoint at the tip.
 *
 * Without KAFKA_BROKERS the workers run in this process, each on its own client of one in-process broker that
 * models Kafka (src/bus/memory.ts kafkaModel: groups, rebalances, session timeouts, kill -9 as a client that stops
 * without committing and leaves its group only when its session expires), through the same argv, parse and wiring
 * as the CLI (parseIndexArgs, startIndexer), sharing one store (as processes share a ClickHouse server). That proves
 * the stages' logic under those semantics, and that no handler blocks (no member of a live worker is ever removed).
 * It cannot prove what only separate processes on a real broker show: kafkajs's own behaviour (its crash and restart
 * paths, metadata propagation, real rebalance timing), a kill landing in the middle of an insert, SIGTERM of each
 * process (sigterm.test.ts does that on the in-process bus). With KAFKA_BROKERS set the same tests run the same argv
 * as real processes on the broker (`node bin/ton-gateway.js ...`), kill -9 included.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIndexer, type IndexerHandle } from '../../pipelines/index.ts';
import { TOPICS } from '../../schemas/bus/index.ts';
import { indexNeeds, parseIndexArgs, startIndexer } from '../../src/cli/commands/index-chain.ts';
import { kafkaModel, MemoryBus } from '../../src/bus/index.ts';
import { loadChainDir, type MemoryChain } from '../../src/devnet/chain/index.ts';
import { generateDevnet } from '../../src/devnet/generate/index.ts';
import { startLiteServer, writeLiteServerJson, type LiteServer } from '../../src/devnet/liteserver/index.ts';
import { LiteserverPool } from '../../src/source/index.ts';
import { getCheckpoint, openStore, type StoreClient, type StoreConfig } from '../../src/store/client/index.ts';
import { testServer as fileServer } from '../helpers/server.ts';
import { until } from '../helpers/until.ts';
import { checkStore, physicalCounts, tracesSnapshot, type DevnetChain } from './devnet-checks.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const testServer = fileServer();
const KAFKA = !!process.env.KAFKA_BROKERS;
/** The model's session timeout; on Kafka the broker's minimum (group.min.session.timeout.ms, 6 s by default). */
const SESSION_MS = KAFKA ? 6000 : 5000;

/**
 * The documented layout on one machine (docker/README.md, "Split layout on one machine"): the argv of each process.
 * The README's commands say `--network mainnet`; here `--config` names the devnet's liteserver.
 */
function layout(o: { config: string; data: string; tip: number }) {
  return {
    init: ['kafka', 'init'],
    // one process for the roles that open the store: embedded chdb allows one process per data directory
    store: ['index', '--config', o.config, '--roles', 'store,checkpoint,traces', '--data', o.data, '--until-seqno', String(o.tip)],
    decode: ['index', '--roles', 'decode'],
    ingest: ['index', '--config', o.config, '--roles', 'ingest', '--from-seqno', '1', '--until-seqno', String(o.tip)],
    /** Following the tip on one machine: ingest in the store process, so that it resumes from the checkpoint. */
    storeWithIngest: ['index', '--config', o.config, '--roles', 'ingest,store,checkpoint,traces', '--data', o.data, '--from-seqno', '1', '--until-seqno', String(o.tip)],
    /** On several machines (docker/README.md, "Split layout on several machines", compose.yml): a ClickHouse server. */
    servers: {
      migrate: ['migrate'],
      /** The API process, exactly as docker/README.md runs it (its v2 liteservers are mainnet's: v3 is what is checked). */
      serve: ['serve', '--network', 'mainnet'],
      ingest: ['index', '--config', o.config, '--roles', 'ingest,checkpoint', '--from-seqno', '1', '--until-seqno', String(o.tip)],
      traces: ['index', '--config', o.config, '--roles', 'traces'],
      store: ['index', '--roles', 'store'],
    },
  };
}

let dir: string;
let chain: DevnetChain;
let tip: number;
let reference: Record<string, string[]>;

/** A running worker of the layout. */
interface Worker {
  argv: string[];
  /** Settles when the worker finished by itself (its --until-seqno reached); never for a decoder. */
  done: Promise<void>;
  /** kill -9 */
  kill(): Promise<void>;
  /** SIGTERM; resolves once it stopped (on Kafka: asserts exit 0 within 10 s) */
  stop(): Promise<void>;
}

/** Where the workers run: in this process on the Kafka model, or as processes on the broker of KAFKA_BROKERS. */
interface Runner {
  start(argv: string[]): Promise<Worker>;
  /** The checkpoint seqno the store worker has reached, where it can be seen (in-process only). */
  checkpoint(): number | null;
  /** Members removed by the session timeout, where it can be seen (in-process only). */
  expired(): { group: string; killed: boolean }[] | null;
  /** The store, once every worker is gone. */
  store(): Promise<StoreClient>;
  close(): Promise<void>;
}

function inProcessRunner(data: string, pool: LiteserverPool, server: StoreConfig | null): Runner {
  const broker = new MemoryBus(kafkaModel({ sessionTimeoutMs: SESSION_MS }));
  let store: StoreClient | null = null;
  const handles: IndexerHandle[] = [];
  const open = async () => (store ??= await openStore(server ?? { dataDir: data }));
  return {
    async start(argv) {
      const bus = broker.connect();
      if (argv[0] === 'kafka' || argv[0] === 'migrate') {
        if (argv[0] === 'kafka') await bus.ensureTopics(Object.values(TOPICS));
        else await open(); // openStore applies the migrations
        return { argv, done: Promise.resolve(), kill: async () => undefined, stop: () => bus.close() };
      }
      const args = parseIndexArgs(argv.slice(1));
      const needs = indexNeeds(args);
      const h = await startIndexer(args, { bus, store: needs.store ? await open() : undefined, source: needs.source || needs.tracesSource ? pool : undefined });
      handles.push(h);
      let gone = false;
      return {
        argv,
        done: h.done,
        kill: async () => {
          gone = true;
          bus.kill();
          // what is still running in JS (a handler, a write) finishes, as if the kill landed just after it; nothing it
          // acknowledges counts
          await h.stop();
        },
        stop: async () => {
          if (gone) return;
          gone = true;
          await h.stop();
          await bus.close();
        },
      };
    },
    checkpoint: () => Math.max(-1, ...handles.map((h) => h.stats.checkpoint ?? -1)),
    expired: () => broker.stats.sessionsExpired.map((e) => ({ group: e.group, killed: e.killed })),
    store: open,
    close: async () => {
      await broker.close();
      if (server && store) await store.command(`DROP DATABASE IF EXISTS ${server.database}`);
      await store?.close();
    },
  };
}

function processRunner(data: string, server: StoreConfig | null): Runner {
  const id = randomUUID().slice(0, 8);
  const env: NodeJS.ProcessEnv = { ...process.env, KAFKA_TOPIC_PREFIX: `split-${id}.`, KAFKA_SESSION_TIMEOUT_MS: String(SESSION_MS), LOG_LEVEL: 'warn' };
  // the one-machine layout uses the embedded engine of --data; the several-machines one a database of its own on the server
  if (server) Object.assign(env, serverEnv(server));
  else delete env.CLICKHOUSE_URL;
  const children = new Set<ChildProcess>();
  let store: StoreClient | null = null;
  return {
    async start(argv) {
      const child = spawn(process.execPath, [join(ROOT, 'bin', 'ton-gateway.js'), ...argv], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
      children.add(child);
      let err = '';
      child.stderr!.on('data', (d) => (err = (err + d).slice(-4000)));
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      void exited.then(() => children.delete(child));
      const done = exited.then((code) => {
        if (code !== 0) throw new Error(`${argv.join(' ')} exited ${code}: ${err}`);
      });
      done.catch(() => undefined);
      return {
        argv,
        done,
        kill: async () => {
          child.kill('SIGKILL');
          await exited;
        },
        stop: async () => {
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.kill('SIGTERM');
          const code = await Promise.race([exited, new Promise<'late'>((r) => setTimeout(() => r('late'), 10_000))]);
          if (code === 'late') child.kill('SIGKILL');
          expect(code, `${argv.join(' ')} after SIGTERM: ${err}`).toBe(0);
        },
      };
    },
    checkpoint: () => null,
    expired: () => null,
    store: async () => (store ??= await openStore(server ?? { dataDir: data })),
    close: async () => {
      for (const c of children) c.kill('SIGKILL');
      if (server && store) await store.command(`DROP DATABASE IF EXISTS ${server.database}`);
      await store?.close();
    },
  };
}

/** The environment that points a process at `store` (CLICKHOUSE_*), as docker/README.md sets it on every machine. */
function serverEnv(store: StoreConfig): NodeJS.ProcessEnv {
  return { CLICKHOUSE_URL: store.url, CLICKHOUSE_USER: store.user ?? '', CLICKHOUSE_PASSWORD: store.password ?? '', CLICKHOUSE_DATABASE: store.database };
}

/**
 * The API process of the layout (`serve`, as written, a process of its own with the layout's environment): API v3 answers
 * from the server's store, every transaction of the chain once.
 */
async function checkServe(argv: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'ton-gateway.js'), ...argv, '--port', String(port), '--host', '127.0.0.1'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env, LOG_LEVEL: 'warn' },
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
  try {
    await until(() => /listening on/.test(out) || child.exitCode !== null, 'serve listening', 120_000);
    expect(child.exitCode, out).toBeNull();
    const r = await fetch(`http://127.0.0.1:${port}/api/v3/transactions?limit=1000&sort=asc`);
    expect(r.status, out).toBe(200);
    const body = (await r.json()) as { transactions: { hash: string }[] };
    const hashes = body.transactions.map((t) => Buffer.from(t.hash, 'base64').toString('hex'));
    expect(new Set(hashes).size).toBe(hashes.length);
    expect(hashes.sort()).toEqual(chain.transactions.map((t) => t.hash).sort());
    // (an anonymous caller gets one request a second)
    await new Promise((res) => setTimeout(res, 1100));
    const st = await fetch(`http://127.0.0.1:${port}/api/v3/indexStatus`);
    expect(st.status).toBe(200);
    expect(((await st.json()) as { checkpoint_mc_seqno: number }).checkpoint_mc_seqno).toBe(tip);
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
}

/** A liteserver for one test: the whole chain, or (live) only the first masterchain blocks until released. */
async function serve(live: boolean): Promise<{ ls: LiteServer; config: string; chain: MemoryChain; pool: LiteserverPool; cfgDir: string }> {
  const c = loadChainDir(dir, live ? { visibleMc: 2 } : {});
  const ls = await startLiteServer({ source: c, key: Buffer.alloc(32, live ? 21 : 22), host: '127.0.0.1' });
  const cfgDir = mkdtempSync(join(tmpdir(), 'tg-split-cfg-'));
  writeLiteServerJson(cfgDir, { host: '127.0.0.1', port: ls.port, publicKey: ls.publicKey });
  const pool = new LiteserverPool([{ host: `127.0.0.1:${ls.port}`, publicKey: ls.publicKey }], { timeoutMs: 5000 });
  await pool.start();
  return { ls, config: join(cfgDir, 'liteserver.json'), chain: c, pool, cfgDir };
}

/** Releases masterchain blocks of a live chain up to `seqno`, one every 100 ms (ingest follows them as they come). */
async function releaseUpTo(c: MemoryChain, seqno: number): Promise<void> {
  while (c.lastMasterchain().id.seqno < seqno && c.release()) await new Promise((r) => setTimeout(r, 100));
}

/** Runs one layout scenario with fresh parts and checks the result. */
async function scenario(
  name: string,
  opts: { live: boolean; server?: boolean; /** groups whose members a kill removed (seen in-process) */ killed?: string[] },
  body: (r: Runner, l: ReturnType<typeof layout>, c: MemoryChain) => Promise<Worker[]>,
): Promise<void> {
  const data = mkdtempSync(join(tmpdir(), `tg-split-${name}-`));
  mkdirSync(data, { recursive: true });
  const s = await serve(opts.live);
  const t = opts.server ? await testServer() : null;
  const serverStore: StoreConfig | null = t ? { url: t.url, user: t.user, password: t.password, database: `split_${randomUUID().slice(0, 8)}` } : null;
  const runner = KAFKA ? processRunner(data, serverStore) : inProcessRunner(data, s.pool, serverStore);
  try {
    const workers = await body(runner, layout({ config: s.config, data, tip }), s.chain);
    for (const w of workers) await w.stop();
    // no handler blocks: the only members the session timeout removed are those of killed workers
    const expired = runner.expired();
    if (expired) {
      expect(expired.filter((e) => !e.killed)).toEqual([]);
      // the kills did take members out of their groups (their partitions went to the others)
      expect([...new Set(expired.map((e) => e.group))].sort()).toEqual([...(opts.killed ?? [])].sort());
    }
    const store = await runner.store();
    expect(await getCheckpoint(store, 'ingest')).toBe(tip);
    await checkStore(store, chain);
    expect(await tracesSnapshot(store)).toEqual(reference);
    console.log(`split layout "${name}" (${KAFKA ? 'Kafka, processes' : 'in-process Kafka model'}): plain count() vs FINAL`, JSON.stringify(await physicalCounts(store)));
    if (serverStore) await checkServe(layout({ config: s.config, data, tip }).servers.serve, serverEnv(serverStore));
  } finally {
    await runner.close();
    await s.pool.close();
    await s.ls.close();
    rmSync(s.cfgDir, { recursive: true, force: true });
    rmSync(data, { recursive: true, force: true });
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tg-split-devnet-'));
  await generateDevnet(dir, { blocks: 12, bulkWallets: 2, bulkFanout: 2, states: 'last', seed: 7 });
  chain = JSON.parse(readFileSync(join(dir, 'chain.json'), 'utf8'));
  tip = Math.max(...chain.blocks.filter((b) => b.workchain === -1).map((b) => b.seqno));
  // the embedded run, every stage in one process: what the split layouts must equal
  const s = await serve(false);
  const data = mkdtempSync(join(tmpdir(), 'tg-split-embedded-'));
  const store = await openStore({ dataDir: data });
  const bus = new MemoryBus();
  try {
    const h = await runIndexer({ bus, source: s.pool, store, fromSeqno: 1, untilSeqno: tip });
    await h.done;
    await h.stop();
    await checkStore(store, chain);
    reference = await tracesSnapshot(store);
    expect(reference.traces.length).toBeGreaterThan(0);
    expect(reference.actions.length).toBeGreaterThan(0);
  } finally {
    await bus.close();
    await store.close();
    await s.pool.close();
    await s.ls.close();
    rmSync(s.cfgDir, { recursive: true, force: true });
    rmSync(data, { recursive: true, force: true });
  }
}, 600_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe(`split layout (${KAFKA ? 'Kafka: processes on KAFKA_BROKERS' : 'in-process Kafka model; set KAFKA_BROKERS for real processes on a broker'})`, () => {
  it('the documented layout: kafka init; store, checkpoint and traces in one process; two decoders; ingest', async () => {
    await scenario('documented', { live: false }, async (r, l) => {
      const init = await r.start(l.init);
      await init.done;
      const store = await r.start(l.store);
      const decoders = [await r.start(l.decode), await r.start(l.decode)];
      const ingest = await r.start(l.ingest);
      await ingest.done;
      await store.done;
      return [ingest, ...decoders, store];
    });
  }, 300_000);

  it('every worker started at once on an empty bus (no kafka init); both decoders killed mid-chain and restarted', async () => {
    await scenario('decoders-killed', { live: true, killed: ['decode'] }, async (r, l, c) => {
      // any start order: each role creates the topics it needs, the others wait for them
      const [store, d1, d2, ingest] = await Promise.all([r.start(l.store), r.start(l.decode), r.start(l.decode), r.start(l.ingest)]);
      await releaseUpTo(c, Math.floor(tip / 3));
      if (r.checkpoint() !== null) await until(() => r.checkpoint()! >= 2, 'checkpoint 2 before the kill');
      await d1.kill();
      await d2.kill();
      // a supervisor restarts them; the dead members keep their partitions until their sessions expire
      const [d3, d4] = [await r.start(l.decode), await r.start(l.decode)];
      await releaseUpTo(c, tip);
      await ingest.done;
      await store.done;
      return [ingest, d3, d4, store];
    });
  }, 300_000);

  it('a decoder started late: the checkpoint waits without blocking a handler past the session timeout, then reaches the tip', async () => {
    await scenario('decoder-late', { live: false }, async (r, l) => {
      const store = await r.start(l.store);
      const ingest = await r.start(l.ingest);
      await ingest.done;
      // no decoder yet: nothing reaches the store's blocks, the checkpoint waits longer than a session
      await new Promise((res) => setTimeout(res, SESSION_MS * 1.5));
      if (r.checkpoint() !== null) expect(r.checkpoint()).toBeLessThan(1);
      const decoders = [await r.start(l.decode), await r.start(l.decode)];
      await store.done;
      return [ingest, ...decoders, store];
    });
  }, 300_000);

  it('the store worker (store, checkpoint, traces) killed mid-chain and restarted on the same data', async () => {
    await scenario('store-killed', { live: true, killed: ['store', 'checkpoint', 'traces', 'traces.markers'] }, async (r, l, c) => {
      const first = await r.start(l.store);
      const decoders = [await r.start(l.decode), await r.start(l.decode)];
      const ingest = await r.start(l.ingest);
      await releaseUpTo(c, Math.floor(tip / 3));
      if (r.checkpoint() !== null) await until(() => r.checkpoint()! >= 2, 'checkpoint 2 before the kill');
      await first.kill();
      await releaseUpTo(c, Math.floor((2 * tip) / 3));
      const second = await r.start(l.store);
      await releaseUpTo(c, tip);
      await ingest.done;
      await second.done;
      return [ingest, ...decoders, second];
    });
  }, 300_000);

  it('one machine, ingest in the store process (to resume from the checkpoint); two decoders', async () => {
    await scenario('store-with-ingest', { live: false }, async (r, l) => {
      const decoders = [await r.start(l.decode), await r.start(l.decode)];
      const store = await r.start(l.storeWithIngest);
      await store.done;
      return [...decoders, store];
    });
  }, 300_000);

  // A ClickHouse server: CLICKHOUSE_URL, else the project's engine serving as one (test/helpers/server.ts); serve checked last.
  it('the several-machines layout: ingest and checkpoint; traces; store; two decoders; serve (a ClickHouse server)', async () => {
    await scenario('servers', { live: false, server: true }, async (r, l) => {
      await (await r.start(l.servers.migrate)).done;
      await (await r.start(l.init)).done;
      const workers = [await r.start(l.servers.store), await r.start(l.servers.traces), await r.start(l.decode), await r.start(l.decode)];
      const ingest = await r.start(l.servers.ingest);
      await ingest.done;
      return [ingest, ...workers];
    });
  }, 300_000);
});
