/**
 * The API served by several processes (`start --api-workers N`, issue 22). The primary keeps the indexer and the
 * key-value store's writer; N HTTP workers (node:cluster, sharing the listen port) each open the store themselves:
 * read-only, as clients of the same engine (the embedded engine's `reader` user, or the ClickHouse server), with the
 * key-value store opened read-only for point reads. Their statements run in the engine side by side with the
 * indexer's, not queued behind them in the primary. Over the cluster's IPC channel:
 *   - rate limits are taken from the primary's one limiter (unless the workers share Redis), so the buckets are
 *     global, not one per worker;
 *   - the notification feed is relayed to every worker, whose streaming hub consumes an in-process feed;
 *   - /metrics answers the primary's registry (the pipeline's metrics live there), which counts the workers alive
 *     (`ton_api_workers`).
 */
import cluster, { type Worker } from 'node:cluster';
import { randomUUID } from 'node:crypto';
import { Gauge, type Registry } from 'prom-client';
import type { PointReadsMode, StoreClient } from '../store/client/index.ts';
import { InProcessFeed, type FeedEvent, type FeedHandler, type NotificationFeed } from '../feed/index.ts';
import type { RateLimiter, TakeResult } from './auth/index.ts';

/** The environment variables a worker reads its slot (0..N-1) and the primary's store from. */
const SLOT_ENV = 'TON_GATEWAY_API_WORKER';
const STORE_ENV = 'TON_GATEWAY_API_STORE';

/** What a worker needs of the primary's store beyond its command line (data dir) and environment (a server): where point reads go. */
export interface PrimaryStoreInfo {
  pointReads: PointReadsMode;
}

type ToPrimary =
  | { tg: 'rl'; id: string; key: string; rps: number; cost: number; prepaid: number }
  | { tg: 'metrics'; id: string }
  | { tg: 'ready'; port: number };

interface WireError {
  name: string;
  message: string;
  clickhouseCode?: number;
  code?: string;
}

type ToWorker = { tg: 'r'; id: string; ok: true; value: unknown } | { tg: 'r'; id: string; ok: false; error: WireError } | { tg: 'feed'; event: FeedEvent };

const isMessage = (m: unknown): m is { tg: string } => typeof m === 'object' && m !== null && typeof (m as { tg?: unknown }).tg === 'string';

function wireError(err: unknown): WireError {
  const e = err as { name?: unknown; message?: unknown; clickhouseCode?: unknown; code?: unknown };
  return {
    name: typeof e?.name === 'string' ? e.name : 'Error',
    message: typeof e?.message === 'string' ? e.message : String(err),
    ...(typeof e?.clickhouseCode === 'number' ? { clickhouseCode: e.clickhouseCode } : {}),
    ...(typeof e?.code === 'string' ? { code: e.code } : {}),
  };
}

/** An error as the primary's client threw it: same name, message, clickhouseCode and code. */
export class PrimaryError extends Error {
  readonly clickhouseCode?: number;
  readonly code?: string;
  constructor(w: WireError) {
    super(w.message);
    this.name = w.name;
    if (w.clickhouseCode !== undefined) this.clickhouseCode = w.clickhouseCode;
    if (w.code !== undefined) this.code = w.code;
  }
}

// ------------------------------------------------------------------------------------------------ primary

const WORKERS_GAUGE = 'ton_api_workers';

export interface ApiWorkersOptions {
  count: number;
  /** The primary's store: workers open the same one, read-only. */
  store: StoreClient;
  /** The limiter workers take from (omit when they share Redis themselves). */
  limiter?: RateLimiter;
  /** The feed relayed to every worker. */
  feed?: NotificationFeed;
  /** /metrics text of the primary. */
  metrics?: () => Promise<string>;
  /** The primary's registry: `ton_api_workers` (workers alive) is added to it. */
  registry?: Registry;
  log: { info(o: object, msg: string): void; warn(o: object, msg: string): void; error(o: object, msg: string): void };
  /** The worker's script and node options; default: this process's command line (the worker finds itself by isApiWorker). */
  exec?: { file: string; execArgv?: string[]; args?: string[] };
}

export interface ApiWorkers {
  /** The workers' process ids now. */
  pids(): number[];
  /** The port the workers listen on (known once ready). */
  readonly port: number;
  /** SIGTERM to every worker; resolves when all have exited (SIGKILL after 10 s). */
  stop(): Promise<void>;
}

/**
 * Forks `count` HTTP workers running this process's command line (they find themselves by `cluster.isWorker`) and
 * serves their requests; resolves once every worker listens. A worker that dies later is forked again.
 */
export async function startApiWorkers(opts: ApiWorkersOptions): Promise<ApiWorkers> {
  cluster.setupPrimary({ serialization: 'advanced', ...(opts.exec ? { exec: opts.exec.file, execArgv: opts.exec.execArgv ?? process.execArgv, args: opts.exec.args ?? [] } : {}) });
  const slots = new Map<number, Worker>();
  let stopping = false;
  let port = 0;
  let feedSub: { close(): Promise<void> } | null = null;
  let initial: { resolve: () => void; reject: (e: Error) => void; waiting: Set<number> } | null = null;

  const reply = (w: Worker, m: ToWorker) => {
    if (w.isConnected()) w.send(m, undefined, () => undefined);
  };
  const answer = (w: Worker, id: string, p: Promise<unknown>) =>
    p.then(
      (value) => reply(w, { tg: 'r', id, ok: true, value }),
      (err: unknown) => reply(w, { tg: 'r', id, ok: false, error: wireError(err) }),
    );

  const onMessage = (slot: number, w: Worker, m: unknown) => {
    if (!isMessage(m)) return;
    const msg = m as ToPrimary;
    if (msg.tg === 'rl') {
      const limiter = opts.limiter;
      answer(w, msg.id, limiter ? limiter.take(msg.key, msg.rps, msg.cost, msg.prepaid) : Promise.reject(new Error('no limiter in the primary')));
    } else if (msg.tg === 'metrics') {
      answer(w, msg.id, opts.metrics ? opts.metrics() : Promise.resolve(''));
    } else if (msg.tg === 'ready') {
      port = msg.port;
      initial?.waiting.delete(slot);
      if (initial && initial.waiting.size === 0) initial.resolve();
    }
  };

  const fork = (slot: number) => {
    const info: PrimaryStoreInfo = { pointReads: opts.store.pointReads };
    const w = cluster.fork({ [SLOT_ENV]: String(slot), [STORE_ENV]: JSON.stringify(info) });
    slots.set(slot, w);
    w.on('message', (m: unknown) => onMessage(slot, w, m));
    w.on('exit', (code, signal) => {
      if (slots.get(slot) === w) slots.delete(slot);
      if (stopping) return;
      if (initial) {
        initial.reject(new Error(`API worker ${slot} exited before it listened (${signal ?? `code ${code}`})`));
        return;
      }
      opts.log.warn({ worker: slot, pid: w.process.pid, code, signal }, 'API worker died; forking another');
      // a second's pause: a worker that dies at once (a broken host, no memory) does not spin the primary
      setTimeout(() => stopping || fork(slot), 1000).unref();
    });
  };

  const ready = new Promise<void>((resolve, reject) => {
    initial = { resolve, reject, waiting: new Set(Array.from({ length: opts.count }, (_, i) => i)) };
  });
  for (let slot = 0; slot < opts.count; slot++) fork(slot);

  const stop = async () => {
    stopping = true;
    await feedSub?.close();
    const exits = [...slots.values()].map(
      (w) =>
        new Promise<void>((resolve) => {
          if (w.isDead()) return resolve();
          const kill = setTimeout(() => w.process.kill('SIGKILL'), 10_000);
          w.once('exit', () => {
            clearTimeout(kill);
            resolve();
          });
          w.process.kill('SIGTERM');
        }),
    );
    await Promise.all(exits);
  };

  try {
    await ready;
  } catch (err) {
    await stop();
    throw err;
  } finally {
    initial = null;
  }
  if (opts.feed) {
    feedSub = await opts.feed.subscribe((event) => {
      for (const w of slots.values()) reply(w, { tg: 'feed', event });
    });
  }
  if (opts.registry) {
    // a registry outlives one set of workers (a test starts several): the gauge reads the latest set
    opts.registry.removeSingleMetric(WORKERS_GAUGE);
    new Gauge({
      name: WORKERS_GAUGE,
      help: 'HTTP worker processes of the API (start --api-workers) alive now',
      registers: [opts.registry],
      collect() {
        this.set([...slots.values()].filter((w) => !w.isDead()).length);
      },
    });
  }
  opts.log.info({ workers: opts.count, pids: [...slots.values()].map((w) => w.process.pid) }, 'API workers listening');
  return {
    pids: () => [...slots.values()].map((w) => w.process.pid!).filter((p) => p !== undefined),
    get port() {
      return port;
    },
    stop,
  };
}

// ------------------------------------------------------------------------------------------------ worker

/** Whether this process is an API worker forked by startApiWorkers. */
export function isApiWorker(): boolean {
  return cluster.isWorker && process.env[SLOT_ENV] !== undefined;
}

/** This worker's slot (0..N-1; a re-forked worker takes the slot of the one it replaces). */
export function apiWorkerSlot(): number {
  return Number(process.env[SLOT_ENV]);
}

type Request = ToPrimary extends infer M ? (M extends { id: string } ? Omit<M, 'id'> : never) : never;

/**
 * A worker's side of the IPC with the primary: requests and their answers, the relayed feed. Made once where the
 * worker starts and passed to what asks the primary (PrimaryRateLimiter, the /metrics text, the streaming feed).
 * Request ids carry the channel's own prefix, so a second channel in one process never takes another's answers.
 */
export class PrimaryChannel {
  private readonly prefix = `${process.pid}.${randomUUID().slice(0, 8)}.`;
  private nextId = 0;
  private readonly pending = new Map<string, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private readonly feeds = new Set<InProcessFeed>();
  private listening = false;

  private listen(): void {
    if (this.listening) return;
    this.listening = true;
    process.on('message', (m: unknown) => {
      if (!isMessage(m)) return;
      const msg = m as ToWorker;
      if (msg.tg === 'r') {
        const p = this.pending.get(msg.id);
        if (!p) return;
        this.pending.delete(msg.id);
        if (msg.ok) p.resolve(msg.value);
        else p.reject(new PrimaryError(msg.error));
      } else if (msg.tg === 'feed') {
        for (const f of this.feeds) f.publish([msg.event]);
      }
    });
    // the primary gone: nothing answers statements or limits any more
    process.on('disconnect', () => {
      for (const p of this.pending.values()) p.reject(new Error('the primary process closed the channel'));
      this.pending.clear();
    });
  }

  ask<T>(m: Request): Promise<T> {
    this.listen();
    if (!process.send || !process.connected) return Promise.reject(new Error('the primary process closed the channel'));
    const id = `${this.prefix}${++this.nextId}`;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      process.send!({ ...m, id }, undefined, undefined, (err: Error | null) => {
        if (err && this.pending.delete(id)) reject(err);
      });
    });
  }

  /** The primary's notification feed, relayed: an in-process feed fed by the primary's messages. */
  relayedFeed(onHandlerError?: (err: unknown) => void): NotificationFeed {
    this.listen();
    const feed = new InProcessFeed(onHandlerError);
    this.feeds.add(feed);
    return {
      subscribe: (h: FeedHandler) => feed.subscribe(h),
      close: async () => void this.feeds.delete(feed),
    };
  }

  /** The primary's /metrics text. */
  metrics(): Promise<string> {
    return this.ask<string>({ tg: 'metrics' });
  }
}

/** The primary's store as it told this worker. */
export function primaryStoreInfo(): PrimaryStoreInfo {
  return JSON.parse(process.env[STORE_ENV] ?? 'null') as PrimaryStoreInfo;
}

/**
 * Work an API worker does once, before it listens: parsing the body decoder's TL-B schemes and opcode names took
 * 350-550 ms (bench/README.md, API workers), which the first request decoding a body would otherwise wait for, in
 * every worker and every replacement.
 */
export async function prepareApiWorker(): Promise<void> {
  // loaded here, as the gateway loads API v3: not at all where no store is configured
  const { decodeOpcode } = await import('./v3/index.ts');
  decodeOpcode(0);
}

/** Tells the primary this worker listens (on `port`). */
export function workerListening(port: number): void {
  process.send?.({ tg: 'ready', port } satisfies ToPrimary);
}

/** Rate limits taken from the primary's limiter: one set of buckets for every worker. */
export class PrimaryRateLimiter implements RateLimiter {
  constructor(private readonly channel: PrimaryChannel) {}
  take(key: string, rps: number, cost = 1, prepaid = 0): Promise<TakeResult> {
    return this.channel.ask<TakeResult>({ tg: 'rl', key, rps, cost, prepaid });
  }
}
