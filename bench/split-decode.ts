/**
 * `npm run bench:split-decode`: the decode stage's throughput with 1 and 2 decode workers (BENCH_WORKERS=1,2,4 for
 * others) on the in-process Kafka model. The broker (MemoryBus with kafkaModel: groups, rebalances, sessions) runs
 * in the main thread; each decode worker runs in its own worker thread, as its own member of group `decode`, and
 * runs the real `startDecodeStage` over a Bus that forwards its calls to a client of that broker (structured clone
 * over a MessagePort in place of Kafka's network and JSON). The decoded messages are counted and dropped in the main
 * thread (the store stage is not measured here).
 *
 * Raw blocks: the full fixture blocks (test/fixtures), repeated BENCH_COPIES times (default 12), keyed as by ingest
 * (workchain:shard) with the copy number mod 16 appended, as 16 shards would: the group's 8 partitions then all carry
 * work. Prints, per worker count, blocks/s and tx/s of the stage (wall clock, from the first publish to the last
 * decoded message), the cores the process used (its CPU seconds over the wall time) and transactions per CPU second,
 * each thread's event-loop utilisation, and the machine's steal time (a shared VM). On a loaded machine the workers
 * get fewer cores than they ask for: read the throughput against the cores used.
 * Benchmarks print figures; tests never assert timings.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { isMainThread, parentPort, Worker, workerData, type MessagePort } from 'node:worker_threads';
import { startDecodeStage } from '../pipelines/index.ts';
import { TOPICS, type RawBlockMessage } from '../schemas/bus/index.ts';
import { kafkaModel, MemoryBus, type BatchHandler, type Bus, type BusMessage, type Delivery, type SubscribeOptions, type Subscription } from '../src/bus/index.ts';
import { decodeBlock } from '../src/ton/index.ts';
import { stealSeconds, stealSince } from './steal.ts';

type ToWorker = { t: 'batch'; sub: number; batch: number; deliveries: Omit<Delivery, 'hold'>[] } | { t: 'reply'; req: number; error?: string } | { t: 'stop' };
type ToMain =
  | { t: 'subscribe'; req: number; sub: number; topic: string; opts: Pick<SubscribeOptions, 'group' | 'maxBatch' | 'lingerMs' | 'retryMs'> }
  | { t: 'publish'; req: number; topic: string; messages: BusMessage[] }
  | { t: 'ensure'; req: number; topics: string[] }
  | { t: 'ack'; batch: number; error?: string }
  | { t: 'ready' }
  | { t: 'stopped'; elu: number; cpu: number };

/** CPU seconds of the calling thread (Linux: /proc/thread-self/stat, utime + stime in 1/100 s); 0 elsewhere. */
function threadCpu(): number {
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return 0;
  }
}

/** The worker side: a Bus whose calls go to the broker in the main thread. */
class ForwardingBus implements Bus {
  readonly kind = 'memory' as const;
  private nextReq = 1;
  private nextSub = 1;
  private readonly pending = new Map<number, { resolve: () => void; reject: (e: Error) => void }>();
  private readonly handlers = new Map<number, BatchHandler<unknown>>();
  constructor(private readonly port: MessagePort) {
    port.on('message', (m: ToWorker) => {
      if (m.t === 'reply') {
        const p = this.pending.get(m.req)!;
        this.pending.delete(m.req);
        if (m.error) p.reject(new Error(m.error));
        else p.resolve();
      } else if (m.t === 'batch') {
        const deliveries = m.deliveries.map((d) => ({
          ...d,
          hold: (): (() => void) => {
            throw new Error('the decode stage holds nothing');
          },
        }));
        this.handlers
          .get(m.sub)!(deliveries)
          .then(
            () => port.postMessage({ t: 'ack', batch: m.batch } satisfies ToMain),
            (err: Error) => port.postMessage({ t: 'ack', batch: m.batch, error: err.message } satisfies ToMain),
          );
      }
    });
  }
  private call(msg: ToMain & { req: number }): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.set(msg.req, { resolve, reject });
      this.port.postMessage(msg);
    });
  }
  ensureTopics(topics: string[]): Promise<void> {
    return this.call({ t: 'ensure', req: this.nextReq++, topics });
  }
  publish<T>(topic: string, messages: BusMessage<T>[]): Promise<void> {
    return this.call({ t: 'publish', req: this.nextReq++, topic, messages });
  }
  async subscribe<T>(topic: string, handler: BatchHandler<T>, opts: SubscribeOptions): Promise<Subscription> {
    const sub = this.nextSub++;
    this.handlers.set(sub, handler as BatchHandler<unknown>);
    await this.call({ t: 'subscribe', req: this.nextReq++, sub, topic, opts: { group: opts.group, maxBatch: opts.maxBatch, lingerMs: opts.lingerMs, retryMs: opts.retryMs } });
    return { close: async () => undefined, pause: () => undefined, resume: () => undefined };
  }
  async close(): Promise<void> {}
}

if (!isMainThread) {
  const port = parentPort!;
  const bus = new ForwardingBus(port);
  await startDecodeStage(bus, { maxBatch: 64, tracesWriteRows: true });
  const cpu0 = threadCpu();
  const elu0 = performance.eventLoopUtilization();
  port.postMessage({ t: 'ready' } satisfies ToMain);
  port.on('message', (m: ToWorker) => {
    if (m.t === 'stop') port.postMessage({ t: 'stopped', elu: performance.eventLoopUtilization(elu0).utilization, cpu: threadCpu() - cpu0 } satisfies ToMain);
  });
  void workerData;
} else {
  const FIX = join(import.meta.dirname, '..', 'test', 'fixtures');
  const manifest: { file: string; kind?: string }[] = JSON.parse(readFileSync(join(FIX, 'manifest.json'), 'utf8'));
  const blocks = manifest
    .filter((r) => (r.kind ?? '').startsWith('full block'))
    .map((r) => {
      const bytes = readFileSync(join(FIX, r.file));
      const d = decodeBlock(bytes);
      const id = { workchain: d.id.workchain, shard: d.id.shard.toUpperCase(), seqno: d.id.seqno, root_hash: d.id.root_hash, file_hash: d.id.file_hash };
      return { id, boc: bytes.toString('base64'), txs: d.transactions.length };
    });
  const copies = Number(process.env.BENCH_COPIES ?? 12);
  const counts = (process.env.BENCH_WORKERS ?? '1,2').split(',').map(Number);
  const raw: BusMessage<RawBlockMessage>[] = [];
  let txTotal = 0;
  for (let c = 0; c < copies; c++) {
    for (const b of blocks) {
      // the same strings for every copy: memory stays that of one set
      raw.push({ key: `${b.id.workchain}:${b.id.shard}:${c % 16}`, value: { mc_seqno: b.id.workchain === -1 ? b.id.seqno : 1, id: b.id, boc: b.boc } });
      txTotal += b.txs;
    }
  }
  console.log(`decode stage on the in-process Kafka model: ${blocks.length} fixture blocks x ${copies} = ${raw.length} raw blocks, ${txTotal} transactions; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);

  const run = async (n: number) => {
    const broker = new MemoryBus(kafkaModel({ sessionTimeoutMs: 30_000, partitions: 8, topicCreateMs: 0 }));
    await broker.ensureTopics(Object.values(TOPICS));
    let decoded = 0;
    let t1 = 0;
    let allDone!: () => void;
    const finished = new Promise<void>((r) => (allDone = r));
    const workers: Worker[] = [];
    const elus: number[] = [];
    const cpus: number[] = [];
    const ready: Promise<void>[] = [];
    for (let i = 0; i < n; i++) {
      // the worker loads this file through tsx, as bin/ton-gateway.js loads the sources
      const boot = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((m) => { m.register(); return import(${JSON.stringify(import.meta.url)}); })`;
      const w = new Worker(boot, { eval: true, execArgv: [] });
      workers.push(w);
      const client = broker.connect();
      const acks = new Map<number, (err?: string) => void>();
      let nextBatch = 1;
      ready.push(
        new Promise<void>((resolveReady) => {
          w.on('message', (m: ToMain) => {
            if (m.t === 'ready') resolveReady();
            else if (m.t === 'ack') {
              acks.get(m.batch)!(m.error);
              acks.delete(m.batch);
            } else if (m.t === 'stopped') {
              elus[i] = m.elu;
              cpus[i] = m.cpu;
            }
            else if (m.t === 'publish') {
              if (m.topic === TOPICS.decodedBlocks) {
                decoded += m.messages.length;
                if (decoded >= raw.length && !t1) {
                  t1 = performance.now();
                  allDone();
                }
                w.postMessage({ t: 'reply', req: m.req } satisfies ToWorker);
              } else client.publish(m.topic, m.messages).then(() => w.postMessage({ t: 'reply', req: m.req } satisfies ToWorker));
            } else if (m.t === 'ensure') client.ensureTopics(m.topics).then(() => w.postMessage({ t: 'reply', req: m.req } satisfies ToWorker));
            else if (m.t === 'subscribe') {
              client
                .subscribe(
                  m.topic,
                  (batch) =>
                    new Promise<void>((resolve, reject) => {
                      const id = nextBatch++;
                      acks.set(id, (err) => (err ? reject(new Error(err)) : resolve()));
                      w.postMessage({ t: 'batch', sub: m.sub, batch: id, deliveries: batch.map(({ hold: _hold, ...d }) => d) } satisfies ToWorker);
                    }),
                  m.opts,
                )
                .then(() => w.postMessage({ t: 'reply', req: m.req } satisfies ToWorker));
            }
          });
        }),
      );
    }
    await Promise.all(ready);
    const elu0 = performance.eventLoopUtilization();
    const steal0 = stealSeconds();
    const cpu0 = process.cpuUsage();
    const mainCpu0 = threadCpu();
    const t0 = performance.now();
    await broker.publish(TOPICS.rawBlocks, raw);
    await finished;
    const mainElu = performance.eventLoopUtilization(elu0).utilization;
    const cpu = process.cpuUsage(cpu0);
    const mainCpu = threadCpu() - mainCpu0;
    const steal = stealSince(steal0);
    await Promise.all(
      workers.map(
        (w) =>
          new Promise<void>((r) => {
            const onStopped = (m: ToMain) => {
              if (m.t !== 'stopped') return;
              w.off('message', onStopped);
              r();
            };
            w.on('message', onStopped);
            w.postMessage({ t: 'stop' } satisfies ToWorker);
          }),
      ),
    );
    await Promise.all(workers.map((w) => w.terminate()));
    await broker.close();
    const secs = (t1 - t0) / 1000;
    // CPU of the whole process (every thread): the cores the run got, and transactions per CPU second
    const cpuSecs = (cpu.user + cpu.system) / 1e6;
    const workerCpu = cpus.reduce((a, b) => a + b, 0);
    return { n, secs, bps: raw.length / secs, tps: txTotal / secs, mainElu, elus, steal, cores: cpuSecs / secs, tpc: txTotal / cpuSecs, cpus, mainCpu, tpw: txTotal / workerCpu };
  };

  const results = [];
  for (const n of counts) {
    const r = await run(n);
    results.push(r);
    console.log(
      `${n} decode worker${n > 1 ? 's' : ' '}: ${r.secs.toFixed(2)} s  ${r.bps.toFixed(0)} blocks/s  ${r.tps.toFixed(0)} tx/s  ` +
        `cores used ${r.cores.toFixed(2)}, ${r.tpc.toFixed(0)} tx per CPU second` +
        `  (thread CPU: main ${r.mainCpu.toFixed(1)} s, workers ${r.cpus.map((c) => `${c.toFixed(1)} s`).join(' ')}: ${r.tpw.toFixed(0)} tx per worker CPU second;` +
        ` event loop busy: main ${(r.mainElu * 100).toFixed(0)}%, workers ${r.elus.map((e) => `${(e * 100).toFixed(0)}%`).join(' ')}; steal ${r.steal})`,
    );
  }
  const base = results[0];
  for (const r of results.slice(1)) console.log(`${r.n} workers vs ${base.n}: ${(r.tps / base.tps).toFixed(2)}x the throughput on ${(r.cores / base.cores).toFixed(2)}x the cores`);
  console.log(`load average after: ${loadavg().map((l) => l.toFixed(2)).join(' ')} (other processes compete for the same cores)`);
}
