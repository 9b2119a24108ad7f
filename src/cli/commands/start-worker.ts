/**
 * An HTTP worker of `start --api-workers N` (N >= 2), forked by the primary with the same command line: API v2 over
 * its own liteserver pool, API v3 over the store opened read-only (a client of the same engine as the primary, the
 * key-value store read beside the primary's writer), the streaming API over the primary's feed relayed, rate limits in
 * Redis (REDIS_URL) or in the primary.
 */
import { openClient, storeConfigFromEnv } from '../../store/client/index.ts';
import {
  apiWorkerSlot,
  buildGateway,
  LiteNode,
  PrimaryChannel,
  PrimaryRateLimiter,
  prepareApiWorker,
  primaryStoreInfo,
  RedisRateLimiter,
  workerListening,
  type RateLimiter,
} from '../../api/index.ts';
import { LiteserverPool, loadLiteservers } from '../../source/index.ts';
import { CliError } from '../command.ts';
import { exitIfStuck, exitWhenDone } from '../exit.ts';
import { cliLogger } from '../logger.ts';
import type { IndexArgs } from './index-chain.ts';
import { loadKeyStore } from '../key-store.ts';

/** The serving options of `start` (parsed there). */
export interface ServeArgs {
  port: number;
  host: string;
  keysPath?: string;
  /** HTTP processes: 1 (or 0) serves from the indexer's process; N >= 2 forks N workers. */
  apiWorkers: number;
  rest: string[];
}

export async function runApiWorker(serve: ServeArgs, args: IndexArgs): Promise<number> {
  const slot = apiWorkerSlot();
  const log = cliLogger().child({ apiWorker: slot });
  const keys = loadKeyStore(serve.keysPath);
  const info = primaryStoreInfo();
  // the primary opened (and filled) the key-value store before it forked: here a reader beside its writer
  let store;
  try {
    store = await openClient({ ...storeConfigFromEnv(args.dataDir), readonly: true, pointReads: info.pointReads, log: (line) => log.warn(line) });
  } catch (err) {
    throw new CliError(`cannot open the store: ${(err as Error).message.split('\n')[0]}`);
  }
  // the IPC with the primary, for limits (without Redis), the feed and /metrics
  const primary = new PrimaryChannel();
  const redisUrl = process.env.REDIS_URL || undefined;
  const limiter: RateLimiter = redisUrl ? new RedisRateLimiter(redisUrl) : new PrimaryRateLimiter(primary);
  const pool = new LiteserverPool(loadLiteservers({ network: args.network, configPath: args.configPath }), { logger: log });
  pool.start().catch((e: Error) => log.warn({ err: e.message }, 'no liteserver answers yet: API v2 answers 504 until one does'));
  const feed = args.traces ? primary.relayedFeed((err) => log.error({ err }, 'streaming: a feed handler failed')) : undefined;
  const app = await buildGateway({
    networks: [{ name: args.network, testnet: args.network === 'testnet', services: { node: LiteNode.fromPool(pool), store, ...(feed ? { feed } : {}) } }],
    keys,
    limiter,
    metricsText: { contentType: 'text/plain; version=0.0.4; charset=utf-8', text: () => primary.metrics() },
    headers: { 'x-api-worker': String(slot), 'x-api-worker-pid': String(process.pid) },
    logger: { level: process.env.LOG_LEVEL ?? 'warn' },
  });
  try {
    await prepareApiWorker();
    await app.listen({ port: serve.port, host: serve.host });
    const address = app.server.address();
    workerListening(typeof address === 'object' && address ? address.port : serve.port);
    await new Promise<void>((resolve) => {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
      // the primary gone (killed): nothing answers statements or limits any more
      process.once('disconnect', () => resolve());
    });
    return 0;
  } catch (e) {
    throw new CliError(`cannot listen on ${serve.host}:${serve.port}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  } finally {
    exitIfStuck();
    await app.close();
    await pool.close();
    await store.close();
    exitWhenDone();
  }
}
