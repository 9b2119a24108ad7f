/**
 * `ton-gateway start`: the main job. Indexes a network (ingest -> decode -> store -> traces) and serves the
 * HTTP APIs. The store is the embedded engine of the data directory (a process of its own, src/engine, started here
 * when none runs) or a ClickHouse server. With `--api-workers 1` (or 0) this process serves HTTP itself, sharing one
 * liteserver pool and one store. With N >= 2 it forks N HTTP workers (node:cluster, one listen port) and serves no
 * HTTP: each worker is a read-only client of the same engine and key-value store, and asks this process over IPC for
 * rate limits and /metrics (src/api/cluster.ts); this process keeps its event loop for the indexer.
 */
import type { DedustPoolList } from '../../actions/index.ts';
import { availableParallelism } from 'node:os';
import { CliError, optionValue, portOption, type Command } from '../command.ts';
import type { Logger } from 'pino';
import { createPipelineMetrics, runIndexer, type IndexerHandle, type PipelineMetrics } from '../../../pipelines/index.ts';
import { buildGateway, isApiWorker, MemoryRateLimiter, startApiWorkers, type ApiWorkers } from '../../api/index.ts';
import { runApiWorker, type ServeArgs } from './start-worker.ts';
import { LiteNode } from '../../api/index.ts';
import { BusConfigError, createBus, kafkaOptionsFromEnv } from '../../bus/index.ts';
import { FollowStalled, loadLiteservers, loadTrustAnchor, networkNameOf, LiteserverPool, NetworkConfigError, NoLiteserverError } from '../../source/index.ts';
import type { StoreClient } from '../../store/client/index.ts';
import { exitIfStuck, exitWhenDone, takeStopSignal } from '../exit.ts';
import { cliLogger } from '../logger.ts';
import { trustedSource } from '../trusted-ingest.ts';
import { FanoutSink, InProcessFeed, KafkaNotificationSink, NotificationPublisher, type NotificationSink } from '../../feed/index.ts';
import { openIndexerStore, parseIndexArgs, startProgress, type IndexArgs } from './index-chain.ts';
import { startMetadataFetcher, takeMetadataArgs } from '../metadata-args.ts';
import { startDedustPools, takeDedustPoolsArgs } from '../dedust-pools-args.ts';
import { loadKeyStore } from '../key-store.ts';


/**
 * `--api-workers` when not given: 1, the indexer's process serves. Workers measured no steady gain on the 2-core
 * development machine (bench/README.md, issue 22), where they share the cores with the indexer and the engine; `auto` asks
 * for one per core (os.availableParallelism()).
 */
export const DEFAULT_API_WORKERS = (): number => 1;

export function splitServeArgs(argv: string[]): ServeArgs {
  const out: ServeArgs = { port: 8080, host: '0.0.0.0', apiWorkers: DEFAULT_API_WORKERS(), rest: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => optionValue(a, argv[++i]);
    if (a === '--port') out.port = portOption(argv[++i]);
    else if (a === '--host') out.host = val();
    else if (a === '--keys') out.keysPath = val();
    else if (a === '--api-workers') {
      const given = val();
      const v = given === 'auto' ? String(availableParallelism()) : given;
      if (!/^\d+$/.test(v) || Number(v) > 256) throw new CliError(`--api-workers: expected a whole number of processes from 0 to 256 or "auto", got "${given}"`);
      out.apiWorkers = Number(v);
    } else out.rest.push(a);
  }
  return out;
}

export const startCommand: Command = {
  async run(argv) {
    const startArgv = argv;
    const { metadata, rest: afterMetadata } = takeMetadataArgs(argv);
    const { dedust, rest } = takeDedustPoolsArgs(afterMetadata);
    const serve = splitServeArgs(rest);
    const args = parseIndexArgs(serve.rest);
    // a forked HTTP worker runs the same command line: it serves, the primary indexes
    if (isApiWorker()) return runApiWorker(serve, args);
    const workers = serve.apiWorkers >= 2 ? serve.apiWorkers : 0;
    const log = cliLogger();
    // taken from the start: a Ctrl-C while the store, liteservers or API start up stops once they are up
    const stopSignal = takeStopSignal();
    const keys = loadKeyStore(serve.keysPath);
    const { endpoints, networkName } = networkOf(args);
    const pool = new LiteserverPool(endpoints, { logger: log });
    // the liteservers are asked while the store opens: with none reachable the one line comes without delay
    const poolReady = pool.start();
    poolReady.catch(() => undefined);
    let store: StoreClient;
    try {
      store = await openIndexerStore(args.dataDir, undefined, (line) => log.warn(line));
    } catch (err) {
      await pool.close();
      exitWhenDone();
      throw err;
    }
    // KAFKA_* settings as for `index`; a consumer that cannot be restarted ends the process (exit 1), for its supervisor
    let bus;
    try {
      bus = exitingBus(log);
    } catch (err) {
      await store.close();
      await pool.close();
      exitWhenDone();
      if (err instanceof BusConfigError) throw new CliError(err.message);
      throw err;
    }
    // the streaming API's feed: in-process to this process's API (and on Kafka for `serve` processes, with brokers)
    const feed = new InProcessFeed((err) => log.error({ err }, 'streaming: a feed handler failed'));
    const kafka = kafkaOptionsFromEnv(process.env);
    const kafkaSink = kafka ? new KafkaNotificationSink({ brokers: kafka.brokers, topicPrefix: kafka.topicPrefix }) : undefined;
    const sink: NotificationSink = kafkaSink ? new FanoutSink([feed, kafkaSink]) : feed;
    let stopProgress: (() => void) | null = null;
    const served: Served = { app: null, apiWorkers: null };
    // with workers: one set of rate-limit buckets for all of them (Redis when configured, else this process's)
    const redisUrl = process.env.REDIS_URL || undefined;
    const stopMetadata = startMetadataFetcher(store, metadata, log);
    const dedustPools = args.traces ? await startDedustPools(dedust, log) : null;
    try {
      try {
        await poolReady;
      } catch (err) {
        if (err instanceof NoLiteserverError) throw new CliError(err.message);
        throw err;
      }
      const source = await trustedSource(pool, store, args, log);
      // this process's metrics: the pipeline counts into them, the API serves them at /metrics
      const metrics = createPipelineMetrics();
      const notifications = args.traces ? new NotificationPublisher(sink, { store, logger: log }) : undefined;
      // the API first: its streaming hub is subscribed to the feed before the first seqno is processed
      const port = await startApi(served, { workers, serve, startArgv, networkName, keys, pool, store, feed, metrics, log, notifications: notifications !== undefined, redisUrl, dedustPools: dedustPools?.list });
      const h = await runIndexer({ bus, source, store, traces: args.traces, fromSeqno: args.fromSeqno, untilSeqno: args.untilSeqno, prefetch: args.prefetch, logger: log, giveUpMs: args.giveUpMs, notifications, classifyWorkers: args.workers, metrics, dedustPools: dedustPools?.list });
      log.info(
        { from: h.fromSeqno, until: h.untilSeqno ?? 'tip, forever', store: store.location, api: `http://${serve.host}:${port}/api/v3/`, apiWorkers: workers || 1 },
        'indexing and serving',
      );
      if (h.fromSeqno !== null) stopProgress = startProgress(h.stats, { from: h.fromSeqno, until: h.untilSeqno, log });
      const failure = await untilStopped(h, stopSignal, log);
      stopProgress?.();
      stopProgress = null;
      // workers first (no request waits on a stopping engine), then the indexer
      await served.apiWorkers?.stop();
      await h.stop();
      if (failure) throw new CliError(`indexing stopped: ${failure}`);
      log.info({ signal: stopSignal.signal(), checkpoint: h.stats.checkpoint }, 'stopped');
      return 0;
    } finally {
      stopProgress?.();
      exitIfStuck();
      await served.app?.close();
      await served.apiWorkers?.stop();
      dedustPools?.stop();
      await stopMetadata();
      await bus.close();
      await kafkaSink?.close();
      await pool.close();
      await store.close();
      exitWhenDone();
    }
  },
};

/** The network's liteservers and name (--network, --config); its trust anchor is checked here too. */
function networkOf(args: IndexArgs): { endpoints: ReturnType<typeof loadLiteservers>; networkName: string } {
  try {
    const endpoints = loadLiteservers({ network: args.network, configPath: args.configPath });
    loadTrustAnchor({ network: args.network, configPath: args.configPath });
    return { endpoints, networkName: networkNameOf({ network: args.network, configPath: args.configPath }) };
  } catch (err) {
    if (err instanceof NetworkConfigError) throw new CliError(err.message);
    throw err;
  }
}

/** KAFKA_* settings as for `index`; a consumer that cannot be restarted ends the process (exit 1), for its supervisor. */
function exitingBus(log: Logger) {
  return createBus({
    env: process.env,
    logger: log,
    onFatal: (err) => {
      log.error({ err: err.message }, 'Kafka consumer lost; exiting');
      process.exit(1);
    },
  });
}

/** What serves HTTP, set as each starts (the caller closes them): this process's gateway, or the workers. */
interface Served {
  app: Awaited<ReturnType<typeof buildGateway>> | null;
  apiWorkers: ApiWorkers | null;
}

/** Starts the API: N workers, or this process listening; resolves with the port it serves on. */
async function startApi(
  served: Served,
  c: {
    workers: number;
    serve: ServeArgs;
    startArgv: string[];
    networkName: string;
    keys: ReturnType<typeof loadKeyStore>;
    pool: LiteserverPool;
    store: StoreClient;
    feed: InProcessFeed;
    metrics: PipelineMetrics;
    log: Logger;
    /** whether the pipeline publishes notifications (the streaming API's feed) */
    notifications: boolean;
    /** with workers: one set of rate-limit buckets for all of them (Redis when configured, else this process's) */
    redisUrl: string | undefined;
    /** the DeDust pool list (`--dedust-pools-api`), for emulated traces' classification */
    dedustPools: DedustPoolList | undefined;
  },
): Promise<number> {
  const { serve, metrics } = c;
  if (c.workers) {
    try {
      served.apiWorkers = await startApiWorkers({
        count: c.workers,
        store: c.store,
        limiter: c.redisUrl ? undefined : new MemoryRateLimiter(),
        feed: c.notifications ? c.feed : undefined,
        metrics: () => metrics.registry.metrics(),
        registry: metrics.registry,
        log: c.log,
        // the workers run `start` with these options whoever called it (`demo` included)
        exec: { file: process.argv[1], args: ['start', ...c.startArgv] },
      });
    } catch (e) {
      throw new CliError(`the API workers did not start: ${(e as Error).message}`);
    }
    return served.apiWorkers.port;
  }
  served.app = await buildGateway({
    networks: [{ name: c.networkName, testnet: c.networkName === 'testnet', services: { node: LiteNode.fromPool(c.pool), store: c.store, ...(c.notifications ? { feed: c.feed } : {}), ...(c.dedustPools ? { dedustPools: c.dedustPools } : {}) } }],
    keys: c.keys,
    metrics: metrics.registry,
    logger: { level: process.env.LOG_LEVEL ?? 'warn' },
  });
  try {
    await served.app.listen({ port: serve.port, host: serve.host });
  } catch (e) {
    throw new CliError(`cannot listen on ${serve.host}:${serve.port}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  return serve.port;
}

/**
 * Until the signal that stops the process (the indexer's end after it is the stop asked for, not a failure), or a
 * range that cannot be finished: then that failure's line. With an end seqno the index finishes but the API keeps
 * serving until a signal; a range that cannot be finished (a block no liteserver gives valid, see --give-up-after)
 * ends the process with an error.
 */
function untilStopped(h: IndexerHandle, stopSignal: ReturnType<typeof takeStopSignal>, log: Logger): Promise<string | null> {
  return new Promise<string | null>((resolve) => {
    stopSignal.onStop(() => resolve(null));
    h.done.catch((err: Error) => {
      const line = err.message.split('\n')[0];
      if (stopSignal.signal()) return;
      if (err instanceof FollowStalled) resolve(line);
      else log.error({ err: line }, 'indexing stopped; the API keeps serving what is stored');
    });
  });
}
