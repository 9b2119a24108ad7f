/**
 * `ton-gateway start`: the main job. Indexes a network (ingest -> decode -> store -> traces) and serves the
 * HTTP APIs from the same process, sharing one liteserver pool and one store (chdb allows one process per
 * data directory, so the API cannot be a second process on the embedded store).
 */
import pino from 'pino';
import { CliError, optionValue, portOption, type Command } from '../command.ts';
import { metricsRegistry, runIndexer } from '../../../pipelines/index.ts';
import { buildGateway } from '../../api/gateway.ts';
import { KeyConfigError, KeyStore } from '../../api/auth/index.ts';
import { LiteNode } from '../../api/v2/index.ts';
import { createBus } from '../../bus/index.ts';
import { FanoutSink, InProcessFeed, KafkaNotificationSink, NotificationPublisher, type NotificationSink } from '../../streaming/index.ts';
import { loadLiteservers, LiteserverPool, NetworkConfigError, NoLiteserverError } from '../../source/index.ts';
import { openIndexerStore, parseIndexArgs, startProgress } from './index-chain.ts';
import { METADATA_USAGE, startMetadataFetcher, takeMetadataArgs } from '../metadata-args.ts';

interface ServeArgs {
  port: number;
  host: string;
  keysPath?: string;
  rest: string[];
}

function splitServeArgs(argv: string[]): ServeArgs {
  const out: ServeArgs = { port: 8080, host: '0.0.0.0', rest: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => optionValue(a, argv[++i]);
    if (a === '--port') out.port = portOption(argv[++i]);
    else if (a === '--host') out.host = val();
    else if (a === '--keys') out.keysPath = val();
    else out.rest.push(a);
  }
  return out;
}

export const startCommand: Command = {
  name: 'start',
  summary: 'index a network and serve the APIs (the main job; embedded chdb + in-process bus by default)',
  usage: [
    'Usage: ton-gateway start [--network mainnet|testnet] [--config PATH] [--from-seqno N] [--until-seqno N]',
    '                         [--data DIR] [--port 8080] [--host 0.0.0.0] [--keys FILE]',
    '',
    'Follows the network from its liteservers (from the checkpoint, else the tip), stores blocks,',
    'transactions, messages, account states, traces and actions, and serves /api/v3 (indexed), /api/v2',
    '(liteservers), the streaming API (/api/streaming/v2/sse and /ws), /healthcheck and /metrics.',
    'Options are those of `index` and `serve`.',
    '',
    'No liteserver reachable? `npm run demo` runs the same against a local devnet.',
    '',
    ...METADATA_USAGE,
  ].join('\n'),
  async run(argv) {
    const { metadata, rest } = takeMetadataArgs(argv);
    const serve = splitServeArgs(rest);
    const args = parseIndexArgs(serve.rest);
    const log = pino({ level: process.env.LOG_LEVEL ?? 'info' }, pino.destination(2));
    let keys: KeyStore;
    try {
      keys = serve.keysPath ? KeyStore.fromFile(serve.keysPath) : new KeyStore();
    } catch (e) {
      if (e instanceof KeyConfigError) throw new CliError(e.message);
      throw e;
    }
    let endpoints;
    try {
      endpoints = loadLiteservers({ network: args.network, configPath: args.configPath });
    } catch (err) {
      if (err instanceof NetworkConfigError) throw new CliError(err.message);
      throw err;
    }
    const store = await openIndexerStore(args.dataDir);
    const pool = new LiteserverPool(endpoints, { logger: log });
    const bus = createBus({ brokers: process.env.KAFKA_BROKERS });
    // the streaming API's feed: in-process to this process's API (and on Kafka for `serve` processes, with brokers)
    const feed = new InProcessFeed((err) => log.error({ err }, 'streaming: a feed handler failed'));
    const brokers = (process.env.KAFKA_BROKERS ?? '').split(',').map((b) => b.trim()).filter(Boolean);
    const kafkaSink = brokers.length ? new KafkaNotificationSink({ brokers }) : undefined;
    const sink: NotificationSink = kafkaSink ? new FanoutSink([feed, kafkaSink]) : feed;
    let stopProgress: (() => void) | null = null;
    let app: Awaited<ReturnType<typeof buildGateway>> | null = null;
    const stopMetadata = startMetadataFetcher(store, metadata, log);
    try {
      try {
        await pool.start();
      } catch (err) {
        if (err instanceof NoLiteserverError) throw new CliError(err.message);
        throw err;
      }
      const notifications = args.traces ? new NotificationPublisher(sink, { store, logger: log }) : undefined;
      // the API first: its streaming hub is subscribed to the feed before the first seqno is processed
      app = await buildGateway({
        networks: [{ name: args.network, testnet: args.network === 'testnet', services: { node: LiteNode.fromPool(pool), store, ...(notifications ? { feed } : {}) } }],
        keys,
        metrics: metricsRegistry,
        logger: { level: process.env.LOG_LEVEL ?? 'warn' },
      });
      try {
        await app.listen({ port: serve.port, host: serve.host });
      } catch (e) {
        throw new CliError(`cannot listen on ${serve.host}:${serve.port}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      }
      const h = await runIndexer({ bus, source: pool, store, traces: args.traces, fromSeqno: args.fromSeqno, untilSeqno: args.untilSeqno, prefetch: args.prefetch, logger: log, notifications });
      log.info({ from: h.fromSeqno, until: args.untilSeqno ?? 'tip, forever', store: store.location, api: `http://${serve.host}:${serve.port}/api/v3/` }, 'indexing and serving');
      if (h.fromSeqno !== null) stopProgress = startProgress(h.stats, { from: h.fromSeqno, until: args.untilSeqno, log });
      const stopped = new Promise<void>((resolve) => {
        process.once('SIGINT', () => resolve());
        process.once('SIGTERM', () => resolve());
      });
      // With --until-seqno the index finishes but the API keeps serving until a signal.
      h.done.catch((err: Error) => log.error({ err: err.message.split('\n')[0] }, 'indexing stopped; the API keeps serving what is stored'));
      await stopped;
      stopProgress?.();
      stopProgress = null;
      await h.stop();
      return 0;
    } finally {
      stopProgress?.();
      setTimeout(() => process.exit(0), 10_000).unref();
      await app?.close();
      await stopMetadata();
      await bus.close();
      await kafkaSink?.close();
      await pool.close();
      await store.close();
    }
  },
};
