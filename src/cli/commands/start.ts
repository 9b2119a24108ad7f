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
import { loadLiteservers, LiteserverPool, NetworkConfigError, NoLiteserverError } from '../../source/index.ts';
import { openIndexerStore, parseIndexArgs, startProgress } from './index-chain.ts';
import { startMetadataFetcher, takeMetadataArgs } from '../metadata-args.ts';

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
      const h = await runIndexer({ bus, source: pool, store, traces: args.traces, fromSeqno: args.fromSeqno, untilSeqno: args.untilSeqno, prefetch: args.prefetch, logger: log });
      app = await buildGateway({
        networks: [{ name: args.network, testnet: args.network === 'testnet', services: { node: LiteNode.fromPool(pool), store } }],
        keys,
        metrics: metricsRegistry,
        logger: { level: process.env.LOG_LEVEL ?? 'warn' },
      });
      try {
        await app.listen({ port: serve.port, host: serve.host });
      } catch (e) {
        throw new CliError(`cannot listen on ${serve.host}:${serve.port}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      }
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
      await pool.close();
      await store.close();
    }
  },
};
