/**
 * npm run bench:stream [-- DIR] [--clients 1000] [--transport ws|sse] [--live MS] [--wallets K] [--blocks N] [--bulk N]
 *
 * The streaming API under 1,000 concurrent subscribers (bench/stream-clients.ts, a process of their own), each
 * subscribed to the K busiest wallets of a generated devnet (transactions and actions, min_finality confirmed).
 *
 * 1. Live: `devnet serve DIR --live MS` (its own process) releases a masterchain block every MS ms; this process indexes
 *    it (ingest -> decode -> store -> traces -> checkpoint into chdb) and serves the gateway. Per notification received:
 *    - added latency at each level: confirmed = received - the seqno's content published by the traces stage (processed,
 *      before its write); finalized = received - the checkpoint that made it final published (every row written);
 *    - end to end: received - the seqno's blocks fetched and verified by ingest (its marker on the bus).
 * 2. Saturation: the feed events of the live run replayed at once into a fresh gateway on the same store, to the same
 *    number of subscribers: notifications per second delivered, bounded by this machine and not by the chain.
 * Prints the load average and the VM's steal time next to the figures (the machine is shared).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface, type Interface } from 'node:readline';
import type { AddressInfo } from 'node:net';
import { TOPICS, type FeedEvent } from '../schemas/bus/index.ts';
import { runIndexer } from '../pipelines/index.ts';
import { buildGateway, KeyStore, streamingHub } from '../src/api/index.ts';
import { MemoryBus } from '../src/bus/index.ts';
import { toRawUpper } from '../src/format/index.ts';
import { LiteserverPool, loadLiteservers } from '../src/source/index.ts';
import { openStore, type StoreClient } from '../src/store/client/index.ts';
import { InProcessFeed, NotificationPublisher } from '../src/feed/index.ts';
import { stealSeconds, stealSince } from './steal.ts';

const args = process.argv.slice(2);
const opt = (name: string, def: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : def;
};
const dir = args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--')) ?? 'data/bench-stream-devnet';
const clients = Number(opt('--clients', '1000'));
const transport = opt('--transport', 'ws');
const liveMs = opt('--live', '1000');
const walletCount = Number(opt('--wallets', '4'));
const now = () => performance.timeOrigin + performance.now();

if (!existsSync(join(dir, 'chain.json'))) {
  const blocks = opt('--blocks', '40');
  const bulk = opt('--bulk', '16');
  console.log(`generating ${dir} (--blocks ${blocks} --bulk ${bulk}); this runs the TVM emulator and takes a while...`);
  execFileSync(process.execPath, ['bin/ton-gateway.js', 'devnet', 'generate', dir, '--blocks', blocks, '--bulk', bulk, '--fanout', '4', '--states', 'last'], { stdio: 'inherit' });
}
const chain = JSON.parse(readFileSync(join(dir, 'chain.json'), 'utf8')) as { blocks: { workchain: number; seqno: number }[]; transactions: { account: string }[] };
const tip = Math.max(...chain.blocks.filter((b) => b.workchain === -1).map((b) => b.seqno));
const perAccount = new Map<string, number>();
for (const t of chain.transactions) perAccount.set(toRawUpper(t.account), (perAccount.get(toRawUpper(t.account)) ?? 0) + 1);
const wallets = [...perAccount].filter(([a]) => a.startsWith('0:')).sort((a, b) => b[1] - a[1]).slice(0, walletCount);
const subscription = { types: ['transactions', 'actions'], addresses: wallets.map(([a]) => a), min_finality: 'confirmed' };
console.log(`devnet ${dir}: ${tip} masterchain blocks, ${chain.transactions.length} transactions; ${clients} ${transport} subscribers to ${wallets.length} wallets (${wallets.map(([, n]) => n).join(', ')} transactions)`);

const gatewayOf = async (store: StoreClient, feed: InProcessFeed) => {
  const app = await buildGateway({
    networks: [{ name: 'devnet', testnet: true, services: { store, feed } }],
    keys: new KeyStore({ anonymous: { rps: 1_000_000 } }),
    streaming: { limits: { anonymousConnections: clients + 10 } },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, base: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/streaming/v2` };
};

interface Report {
  count: number;
  got: Record<string, Record<number, number[]>>;
}

async function startClients(base: string): Promise<{ child: ChildProcess; lines: Interface; count: () => number; report: () => Promise<Report> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/stream-clients.ts', base, String(clients), transport, JSON.stringify(subscription)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  let count = 0;
  let reported: ((r: Report) => void) | null = null;
  const ready = new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`clients exited with ${code}`)));
    lines.on('line', (l) => {
      if (l === 'ready') resolve();
      else if (l.startsWith('count ')) count = Number(l.slice(6));
      else if (l.startsWith('{')) reported?.(JSON.parse(l) as Report);
    });
  });
  await ready;
  return {
    child,
    lines,
    count: () => count,
    report: () =>
      new Promise<Report>((resolve) => {
        reported = resolve;
        child.stdin!.write('report\n');
      }),
  };
}

const pct = (xs: number[], p: number) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const ms = (x: number) => (Number.isFinite(x) ? `${x.toFixed(1)} ms` : 'n/a');
const sleep = (t: number) => new Promise((r) => setTimeout(r, t));
const until = async (cond: () => boolean, what: string, limitMs = 600_000) => {
  const end = Date.now() + limitMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
};

const steal0 = stealSeconds();
const load0 = loadavg()[0];
const data = mkdtempSync(join(tmpdir(), 'tg-bench-stream-'));
const store = await openStore({ dataDir: data });
const feed = new InProcessFeed();
const captured: FeedEvent[] = [];
// the times the levels start from, per seqno
const fetchedAt = new Map<number, number>();
const contentAt = new Map<number, number>();
const finalAt = new Map<number, number>();
await feed.subscribe((e) => {
  captured.push(e);
  if (e.kind === 'seqno') {
    if (!contentAt.has(e.mc_seqno)) contentAt.set(e.mc_seqno, e.at);
  } else for (const s of contentAt.keys()) if (s <= e.mc_seqno && !finalAt.has(s)) finalAt.set(s, e.at);
});
const live = await gatewayOf(store, feed);
const c1 = await startClients(live.base);
console.log(`phase 1 (live, one block every ${liveMs} ms): ${clients} subscribers connected`);

const server = spawn(process.execPath, ['bin/ton-gateway.js', 'devnet', 'serve', dir, '--port', '0', '--live', liveMs], { stdio: ['ignore', 'pipe', 'inherit'] });
await once(createInterface({ input: server.stdout! }), 'line');
const pool = new LiteserverPool(loadLiteservers({ configPath: join(dir, 'liteserver.json') }), { timeoutMs: 30_000 });
await pool.start();
const bus = new MemoryBus();
await bus.subscribe(TOPICS.mcComplete, async (batch) => {
  for (const d of batch) fetchedAt.set((d.value as { mc_seqno: number }).mc_seqno, now());
}, { group: 'bench' });
const t1 = now();
const h = await runIndexer({ bus, source: pool, store, fromSeqno: 1, untilSeqno: tip, notifications: new NotificationPublisher(feed, { store }) });
await h.done;
const hub = streamingHub(live.app, 'devnet')!;
await until(() => hub.stats().finalizedUpTo >= tip, 'the last checkpoint');
await hub.idle();
const sent = hub.stats().delivered;
await until(() => c1.count() >= sent, 'the subscribers caught up');
const r1 = await c1.report();
const t1end = now();
const lat: Record<string, number[]> = { confirmed: [], finalized: [], 'confirmed end to end': [], 'finalized end to end': [] };
let first = Infinity;
let last = 0;
for (const fin of ['confirmed', 'finalized'] as const) {
  for (const [s, times] of Object.entries(r1.got[fin])) {
    const from = (fin === 'confirmed' ? contentAt : finalAt).get(Number(s));
    const fetched = fetchedAt.get(Number(s));
    for (const t of times) {
      if (from !== undefined) lat[fin].push(t - from);
      if (fetched !== undefined) lat[`${fin} end to end`].push(t - fetched);
      first = Math.min(first, t);
      last = Math.max(last, t);
    }
  }
}
console.log(`phase 1: ${r1.count} notifications received of ${sent} sent, ${(r1.count / ((last - first) / 1000)).toFixed(0)}/s over the chain's ${((last - first) / 1000).toFixed(1)} s (bounded by the chain's pace); run ${((t1end - t1) / 1000).toFixed(1)} s`);
for (const [k, xs] of Object.entries(lat)) console.log(`  ${k.padEnd(22)} p50 ${ms(pct(xs, 50))}  p99 ${ms(pct(xs, 99))}  (${xs.length} notifications)`);
await h.stop();
c1.child.kill();
await live.app.close();
server.kill();
await pool.close();
await bus.close();

// phase 2: the same events at once, into a fresh gateway (its hub has seen nothing) on the same store
const feed2 = new InProcessFeed();
const sat = await gatewayOf(store, feed2);
const c2 = await startClients(sat.base);
const expected = r1.count;
const t2 = now();
feed2.publish(captured);
await until(() => c2.count() >= expected, `${expected} notifications`);
const r2 = await c2.report();
let last2 = 0;
for (const fin of Object.values(r2.got)) for (const times of Object.values(fin)) for (const t of times) last2 = Math.max(last2, t);
console.log(`phase 2 (saturation): ${r2.count} notifications to ${clients} subscribers in ${((last2 - t2) / 1000).toFixed(2)} s: ${(r2.count / ((last2 - t2) / 1000)).toFixed(0)} notifications/s (${captured.length} feed events replayed at once)`);
c2.child.kill();
await sat.app.close();
await store.close();
rmSync(data, { recursive: true, force: true });
console.log(`machine: load average ${load0.toFixed(1)} at start, ${loadavg()[0].toFixed(1)} at end; steal ${stealSince(steal0)} over the run`);
process.exit(0);
