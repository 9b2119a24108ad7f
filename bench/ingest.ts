/**
 * npm run bench:ingest [-- DIR] [--blocks N] [--bulk N] [--prefetch N] [--workers N]
 * Indexes a generated devnet chain end to end: a local liteserver (`ton-gateway devnet serve DIR` in its own
 * process, as a real liteserver is another machine; real ADNL socket) -> LiteserverPool -> follower ->
 * in-process bus -> decode -> store (chdb in a temp dir) -> traces -> checkpoint.
 * Prints transactions/s and blocks/s, the time split per stage and the CPU time of this process. `--workers`: the traces
 * stage's classifier threads (as `start` / `index` take it; default as theirs), printed with their classification time.
 * The bus is the embedded default (MemoryBus, capacity 256; BENCH_BUS_CAPACITY=N to try another). DIR defaults
 * to data/bench-devnet, generated on first use (`ton-gateway devnet generate`; slow: it runs the TVM emulator).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { monitorEventLoopDelay, PerformanceObserver, constants as perfConstants } from 'node:perf_hooks';
import { runIndexer, newStats } from '../pipelines/index.ts';
import { MemoryBus } from '../src/bus/index.ts';
import { LiteserverPool, loadLiteservers } from '../src/source/index.ts';
import { openStore } from '../src/store/client/index.ts';
import { DEFAULT_CLASSIFY_WORKERS } from '../pipelines/index.ts';
import { stealSeconds, stealSince, threadCpuSeconds, threadCpuSince } from './steal.ts';
import { processCpuSeconds } from './process-cpu.ts';

const args = process.argv.slice(2);
const opt = (name: string, def: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : def;
};
const dir = args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--')) ?? 'data/bench-devnet';

if (!existsSync(join(dir, 'chain.json'))) {
  const blocks = opt('--blocks', '64');
  const bulk = opt('--bulk', '64');
  console.log(`generating ${dir} (--blocks ${blocks} --bulk ${bulk}); this runs the TVM emulator and takes a while...`);
  execFileSync(process.execPath, ['bin/ton-gateway.js', 'devnet', 'generate', dir, '--blocks', blocks, '--bulk', bulk, '--fanout', '4', '--states', 'last'], { stdio: 'inherit' });
}

const t0 = performance.now();
const server = spawn(process.execPath, ['bin/ton-gateway.js', 'devnet', 'serve', dir, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
const lines = createInterface({ input: server.stdout! });
const [ready] = (await Promise.race([once(lines, 'line'), once(server, 'exit').then(() => { throw new Error('devnet serve exited'); })])) as [string];
const mcTip = Number(/masterchain \d+\.\.(\d+)/.exec(ready)?.[1]);
console.log(`${ready}\n(ready in ${((performance.now() - t0) / 1000).toFixed(1)} s)`);

const data = mkdtempSync(join(tmpdir(), 'tg-bench-ingest-'));
const store = await openStore({ dataDir: data });
// where the store's time goes: every statement counted and timed by kind (the stages await these)
const sql = { query: { n: 0, ms: 0 }, insert: { n: 0, ms: 0, rows: 0 } };
// wall time with at least one statement call in flight (an insert's Native encoding, on the JS thread, included):
// near the run's length, the engine's statement queue is what the pipeline waits for
const inFlight = { n: 0, since: 0, busyMs: 0 };
const timed = <A extends unknown[], R>(fn: (...a: A) => Promise<R>, acc: { n: number; ms: number }) => async (...a: A) => {
  const t = performance.now();
  if (inFlight.n++ === 0) inFlight.since = t;
  try {
    return await fn(...a);
  } finally {
    const end = performance.now();
    acc.n++;
    acc.ms += end - t;
    if (--inFlight.n === 0) inFlight.busyMs += end - inFlight.since;
  }
};
const byQuery = new Map<string, { n: number; ms: number }>();
const query = timed(store.query.bind(store), sql.query);
store.query = (async (text: string, ...rest: unknown[]) => {
  const t = performance.now();
  try {
    return await (query as (...a: unknown[]) => Promise<unknown>)(text, ...rest);
  } finally {
    const key = text.replace(/\s+/g, ' ').slice(0, 90);
    const e = byQuery.get(key) ?? { n: 0, ms: 0 };
    e.n++;
    e.ms += performance.now() - t;
    byQuery.set(key, e);
  }
}) as typeof store.query;
const insertFormatted = timed(store.insertFormatted.bind(store), sql.insert);
store.insertFormatted = (table, body, format, columns) => {
  sql.insert.rows += body.length ? body.split('\n').length - 1 : 0;
  return insertFormatted(table, body, format, columns);
};
const insertRows = timed(store.insertRows.bind(store), sql.insert);
store.insertRows = (table, rows, columns) => {
  sql.insert.rows += rows.length;
  return insertRows(table, rows, columns);
};
const pool = new LiteserverPool(loadLiteservers({ configPath: join(dir, 'liteserver.json') }), { timeoutMs: 30_000, concurrency: 64 });
await pool.start();
const bus = process.env.BENCH_BUS_CAPACITY ? new MemoryBus({ capacity: Number(process.env.BENCH_BUS_CAPACITY) }) : new MemoryBus();
const stats = newStats();
const start = performance.now();
const cpu0 = process.cpuUsage();
// the engine's own process (src/engine), whose CPU is not this process's
const enginePid = store.engine?.pid;
const engineCpu0 = enginePid ? (processCpuSeconds(enginePid) || 0) : 0;
const steal0 = stealSeconds();
const busy0 = inFlight.busyMs;
const threads0 = threadCpuSeconds();
// the JS thread's GC pauses by kind (the concurrent marking on helper threads is in "CPU by thread")
const gc = { minor: { n: 0, ms: 0 }, major: { n: 0, ms: 0 } };
const gcObserver = new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    const kind = (e as unknown as { detail?: { kind?: number } }).detail?.kind === perfConstants.NODE_PERFORMANCE_GC_MINOR ? gc.minor : gc.major;
    kind.n++;
    kind.ms += e.duration;
  }
});
gcObserver.observe({ entryTypes: ['gc'] });
// how long the JS thread ran without coming back to its event loop: a statement that ends meanwhile waits that long
// before the next one is sent
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();
const timeline = process.env.BENCH_TIMELINE
  ? setInterval(() => console.log(`${((performance.now() - start) / 1000).toFixed(1)}s fetched ${stats.blocksFetched} stored ${stats.blocksStored} cp ${stats.checkpoint}`), 500)
  : null;
const classifyWorkers = Number(opt('--workers', String(DEFAULT_CLASSIFY_WORKERS())));
const h = await runIndexer({ bus, source: pool, store, fromSeqno: 1, untilSeqno: mcTip, prefetch: Number(opt('--prefetch', '32')), stats, classifyWorkers });
await h.done;
const secs = (performance.now() - start) / 1000;
const cpu = process.cpuUsage(cpu0);
const engineCpu = enginePid ? (processCpuSeconds(enginePid) || 0) - engineCpu0 : 0;
const steal = stealSince(steal0);
const busyMs = inFlight.busyMs - busy0 + (inFlight.n > 0 ? performance.now() - inFlight.since : 0);
const threads = threadCpuSince(threads0);
gcObserver.disconnect();
loopDelay.disable();
const tracesMs = h.traces?.stats.ms ?? 0;
const tracesSplit = h.traces?.stats.split;
const classify = h.traces?.stats.classify;
if (timeline) clearInterval(timeline);
await h.stop();
await bus.close();
await pool.close();
const [{ n }] = await store.query<{ n: string }>('SELECT count() AS n FROM transactions FINAL');
// the engine's own counters: what its threads spent the run on (merges, reads, inserts)
const events = await store.query<{ event: string; value: string }>(
  `SELECT event, value FROM system.events WHERE event IN ('Merge', 'MergedRows', 'MergeTotalMilliseconds', 'SelectedRows', 'SelectedParts',
     'InsertedRows', 'InsertQuery', 'SelectQuery', 'OSCPUVirtualTimeMicroseconds', 'UserTimeMicroseconds') ORDER BY event`,
);
await store.close();
server.kill('SIGTERM');
await once(server, 'exit');
rmSync(data, { recursive: true, force: true });

const ms = stats.stageMs;
console.log(`indexed mc 1..${mcTip}: ${stats.blocksStored} blocks, ${stats.txStored} transactions (${n} rows in the store) in ${secs.toFixed(2)} s`);
console.log(`end to end: ${(stats.txStored / secs).toFixed(0)} tx/s, ${(stats.blocksStored / secs).toFixed(1)} blocks/s`);
console.log(
  `stage time (handler busy time; stages overlap): fetch+verify ${(ms.fetch / 1000).toFixed(2)} s, decode ${(ms.decode / 1000).toFixed(2)} s, store ${(ms.store / 1000).toFixed(2)} s, traces ${(tracesMs / 1000).toFixed(2)} s, checkpoint ${(ms.checkpoint / 1000).toFixed(2)} s (waits included)`,
);
if (tracesSplit) {
  const s = (x: number) => (x / 1000).toFixed(2);
  console.log(`traces stage: reading context ${s(tracesSplit.prefetchMs)} s, processing ${s(tracesSplit.processMs)} s (its own reads included), writing ${s(tracesSplit.writeMs)} s`);
}
if (classify) {
  const s = (x: number) => (x / 1000).toFixed(2);
  const where = classify.workers ? `${classify.workers} worker thread${classify.workers > 1 ? 's' : ''} (--workers ${classify.workers})` : 'the traces stage\'s thread (--workers 0)';
  console.log(
    `classification on ${where}: ${classify.traces} traces in ${classify.batches} batches, ${s(classify.ms)} s classifying${classify.workers ? ' (summed over the workers)' : ''}, the stage waited ${s(classify.waitMs)} s for results (classification and entity states)`,
  );
  const d = classify.derive;
  console.log(
    `entity-state derivation on ${where}: ${d.accounts} accounts of ${d.batches} seqnos${classify.workers ? ` in ${d.jobs} messages` : ''}, ${s(d.ms)} s deriving (interfaces, get-methods)${classify.workers ? ' (summed over the workers)' : ''}`,
  );
}
console.log(
  `store statements: ${sql.insert.n} inserts (${sql.insert.rows} rows, ${(sql.insert.ms / 1000).toFixed(1)} s), ` +
    `${sql.query.n} queries (${(sql.query.ms / 1000).toFixed(1)} s); per masterchain block ${(sql.insert.n / mcTip).toFixed(1)} inserts, ${(sql.query.n / mcTip).toFixed(1)} queries`,
);
const ms1 = (ns: number) => (ns / 1e6).toFixed(0);
console.log(`event loop delay: mean ${ms1(loopDelay.mean)} ms, p99 ${ms1(loopDelay.percentile(99))} ms, max ${ms1(loopDelay.max)} ms`);
console.log(`store busy (at least one statement in flight): ${(busyMs / 1000).toFixed(1)} s of ${secs.toFixed(1)} s`);
if (process.env.BENCH_SQL_DETAIL) {
  for (const [k, v] of [...byQuery].sort((a, b) => b[1].ms - a[1].ms).slice(0, 12)) console.log(`  ${(v.ms / 1000).toFixed(2).padStart(6)} s ${String(v.n).padStart(5)}x  ${k}`);
  console.log(`  engine counters: ${events.map((e) => `${e.event} ${Number(e.value).toLocaleString('en')}`).join(', ')}`);
}
console.log(`decodes: ${h.decodes.decoded} (${h.decodes.parsedReused} reused ingest's parse), ${h.decodes.shared} shared between decode and traces`);
const ownCpu = (cpu.user + cpu.system) / 1e6;
console.log(
  `CPU: indexer process ${ownCpu.toFixed(1)} s, engine process ${engineCpu.toFixed(1)} s, together ${(ownCpu + engineCpu).toFixed(1)} s ` +
    `(${(stats.txStored / (ownCpu + engineCpu)).toFixed(0)} tx per CPU-second, ${(((ownCpu + engineCpu) * 1000) / stats.txStored).toFixed(2)} ms per transaction)`,
);
console.log(`CPU by thread: ${threads}`);
console.log(`GC pauses of the JS thread: minor ${(gc.minor.ms / 1000).toFixed(1)} s (${gc.minor.n}), major and incremental ${(gc.major.ms / 1000).toFixed(1)} s (${gc.major.n})`);
console.log(`steal (CPU time the VM lost to other guests, all CPUs) during the run: ${steal}`);

