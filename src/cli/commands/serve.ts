/**
 * `ton-gateway serve`: the HTTP APIs. API v2 (node layer) over each network's liteservers; API v3
 * (indexed) for networks with a store. Networks are told apart by path prefix: the first at `/`, the
 * others at `/<name>` (e.g. `/testnet/api/v2/...`), or `base_path` in the config.
 *
 * The store, as every command takes it: CLICKHOUSE_URL (and CLICKHOUSE_USER / PASSWORD / DATABASE), or `--data DIR`
 * (the embedded engine of a directory another process indexes), or `networks[].store` in the config. It is opened
 * read-only (the engine refuses every write) unless --metadata-fetch writes metadata into it.
 */
import { readFileSync } from 'node:fs';
import pino from 'pino';
import { z } from 'zod';
import YAML from 'yaml';
import { CliError, optionValue, portOption, type Command } from '../command.ts';
import type { NetworkContext } from '../../api/index.ts';
import { buildGateway } from '../../api/index.ts';
import { createPipelineMetrics } from '../../../pipelines/metrics.ts';
import { MemoryRateLimiter, parseTrustedProxies, RedisRateLimiter, type RateLimiter } from '../../api/index.ts';
import { LiteNode } from '../../api/index.ts';
import { LiteserverPool, loadLiteservers, NetworkConfigError, parseNetwork, type NetworkName } from '../../source/index.ts';
import { startMetadataFetcher, takeMetadataArgs, type MetadataArgs } from '../metadata-args.ts';
import { KafkaNotificationFeed } from '../../feed/index.ts';
import { BusConfigError, kafkaOptionsFromEnv } from '../../bus/index.ts';
import { loadKeyStore } from '../key-store.ts';
import type { StoreConfig } from '../../store/client/index.ts';

const networkSchema = z
  .object({
    name: z.string().regex(/^[a-z][a-z0-9-]*$/, 'lower-case letters, digits and dashes'),
    /** "bundled" (mainnet/testnet config shipped with ton-gateway) or a path to a global config / devnet liteserver.json. */
    liteservers: z.string().default('bundled'),
    archival_liteservers: z.string().optional(),
    testnet: z.boolean().optional(),
    base_path: z.string().regex(/^(\/[a-z0-9-]+)*$/, 'like /testnet or empty').optional(),
    timeout_ms: z.number().int().positive().optional(),
    /** Store of the indexed API v3 (ClickHouse server URL or embedded data dir); omit to serve v2 only. */
    store: z.object({ url: z.string().optional(), data_dir: z.string().optional(), user: z.string().optional(), password: z.string().optional(), database: z.string().optional() }).strict().optional(),
  })
  .strict();

const configSchema = z
  .object({
    host: z.string().default('0.0.0.0'),
    port: z.number().int().min(0).max(65535).default(8080),
    /** Reverse proxies in front of the gateway (addresses, CIDRs, loopback/linklocal/uniquelocal); false: none. */
    trust_proxy: z
      .union([z.boolean(), z.array(z.string())])
      .default(false)
      .superRefine((v, ctx) => {
        try {
          parseTrustedProxies(v);
        } catch (e) {
          ctx.addIssue({ code: 'custom', message: (e as Error).message.replace(/^trust_proxy: /, '') });
        }
      }),
    /** Path to the keys file, or the keys config inline (see src/api/auth/keys.ts). */
    keys: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
    redis_url: z.string().optional(),
    networks: z.array(networkSchema).min(1).default([{ name: 'mainnet', liteservers: 'bundled' }]),
  })
  .strict();

export type ServeConfig = z.output<typeof configSchema>;

/** A serve config as read from its file (JSON or YAML, parsed); a CliError names the first bad field. */
export function parseServeConfig(json: unknown, path = 'config'): ServeConfig {
  const r = configSchema.safeParse(json ?? {});
  if (!r.success) {
    const i = r.error.issues[0];
    throw new CliError(`${path}: ${i.path.join('.') || '(root)'}: ${i.message}`);
  }
  return r.data;
}

function readConfig(path: string): ServeConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new CliError(`cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  let json: unknown;
  try {
    json = /\.ya?ml$/i.test(path) ? YAML.parse(text) : JSON.parse(text);
  } catch (e) {
    throw new CliError(`${path} is not valid ${/\.ya?ml$/i.test(path) ? 'YAML' : 'JSON'}: ${(e as Error).message}`);
  }
  return parseServeConfig(json, path);
}

function endpointsOf(spec: string, name: string) {
  try {
    if (spec === 'bundled') return loadLiteservers({ network: parseNetwork(name) as NetworkName });
    return loadLiteservers({ configPath: spec });
  } catch (e) {
    if (e instanceof NetworkConfigError) throw new CliError(`network ${name}: ${e.message}`);
    throw e;
  }
}

/** `serve`'s own options (after --metadata-fetch and its kin are taken). */
interface ServeOptions {
  configPath?: string;
  port?: number;
  host?: string;
  network?: string;
  keysPath?: string;
  dataDir?: string;
  /** --hash-key: print the hash of this key and exit */
  hashKey?: string;
}

function parseServeArgv(argv: string[]): ServeOptions {
  const o: ServeOptions = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => optionValue(a, argv[++i]);
    if (a === '--config') o.configPath = val();
    else if (a === '--port') o.port = portOption(argv[++i]);
    else if (a === '--host') o.host = val();
    else if (a === '--network') o.network = val();
    else if (a === '--keys') o.keysPath = val();
    else if (a === '--data') o.dataDir = val();
    else if (a === '--hash-key') {
      // printed at once, as it comes: the options after it are not read
      o.hashKey = val();
      return o;
    } else throw new CliError(`unknown option "${a}" (see --help)`);
  }
  return o;
}

/** What the served networks hold open, closed at shutdown. */
interface Opened {
  pools: LiteserverPool[];
  networks: NetworkContext[];
  stores: { close(): Promise<void> }[];
  feeds: KafkaNotificationFeed[];
  metadataStops: (() => Promise<void>)[];
}

/**
 * Each network of the config: its liteserver pools (and archival ones), and where it has a store (its own, or the
 * environment's / --data for a single network), the store, the metadata fetcher and, with Kafka, the streaming feed.
 */
async function openNetworks(config: ServeConfig, envStore: StoreConfig | null, implicit: boolean, metadata: MetadataArgs, log: pino.Logger): Promise<Opened> {
  const opened: Opened = { pools: [], networks: [], stores: [], feeds: [], metadataStops: [] };
  let kafka;
  try {
    kafka = kafkaOptionsFromEnv(process.env);
  } catch (err) {
    if (err instanceof BusConfigError) throw new CliError(err.message);
    throw err;
  }
  for (const n of config.networks) {
    const pool = new LiteserverPool(endpointsOf(n.liteservers, n.name), { timeoutMs: n.timeout_ms ?? 10_000 });
    opened.pools.push(pool);
    const archival = n.archival_liteservers ? new LiteserverPool(endpointsOf(n.archival_liteservers, n.name), { timeoutMs: n.timeout_ms ?? 10_000 }) : undefined;
    if (archival) opened.pools.push(archival);
    const node = LiteNode.fromPool(pool, { archivalPool: archival, timeoutMs: n.timeout_ms ?? 10_000 });
    const services: Record<string, unknown> = { node };
    const storeConfig: StoreConfig | null = n.store
      ? { url: n.store.url, dataDir: n.store.data_dir, user: n.store.user, password: n.store.password, database: n.store.database }
      : implicit
        ? envStore
        : null;
    if (storeConfig) {
      const { openStore } = await import('../../store/client/index.ts');
      let store;
      try {
        // the API reads; the metadata fetcher alone writes (address_metadata)
        store = await openStore({ ...storeConfig, migrate: false, ...(metadata.enabled ? {} : { readonly: true, pointReads: 'kv' as const }) });
      } catch (err) {
        throw new CliError(`network ${n.name}: cannot open the store: ${(err as Error).message.split('\n')[0]}`);
      }
      opened.stores.push(store);
      services.store = store;
      opened.metadataStops.push(startMetadataFetcher(store, metadata, log.child({ network: n.name })));
      if (kafka) {
        const feed = new KafkaNotificationFeed({ brokers: kafka.brokers, topicPrefix: kafka.topicPrefix, onInvalid: (err) => log.warn({ err: (err as Error).message, network: n.name }, 'streaming: a feed message does not parse') });
        opened.feeds.push(feed);
        services.feed = feed;
      }
    }
    opened.networks.push({ name: n.name, testnet: n.testnet ?? n.name !== 'mainnet', basePath: n.base_path, services });
  }
  return opened;
}

export const serveCommand: Command = {
  async run(argvAll) {
    const { metadata, rest: argv } = takeMetadataArgs(argvAll);
    const { configPath, port, host, network, keysPath, dataDir, hashKey } = parseServeArgv(argv);
    if (hashKey !== undefined) {
      const { hashApiKey } = await import('../../api/index.ts');
      console.log(hashApiKey(hashKey));
      return 0;
    }
    const config: ServeConfig = configPath ? readConfig(configPath) : configSchema.parse({ networks: [{ name: network ?? 'mainnet' }] });
    if (configPath && network) throw new CliError('--network applies without --config only; list networks in the config');
    if (configPath && dataDir) throw new CliError('--data applies without --config only; give the network a store in the config (networks[].store.data_dir)');
    // the environment's store (CLICKHOUSE_URL) or --data, for the one network served without a config, or for a config
    // of one network that names none (a config of several networks gives each its own)
    const implicit = config.networks.length === 1 && (Boolean(process.env.CLICKHOUSE_URL) || dataDir !== undefined);
    // the store module (the ClickHouse client) loads only where a network has a store
    const envStore = implicit ? (await import('../../store/client/index.ts')).storeConfigFromEnv(dataDir) : null;
    const keys = loadKeyStore(keysPath ?? (config.keys as string | Record<string, unknown> | undefined));
    const limiter: RateLimiter = config.redis_url ? new RedisRateLimiter(config.redis_url) : new MemoryRateLimiter();

    const log = pino({ level: process.env.LOG_LEVEL ?? 'info' }, pino.destination(2));
    const { pools, networks, stores, feeds, metadataStops } = await openNetworks(config, envStore, implicit, metadata, log);
    if (metadata.enabled && stores.length === 0) {
      await Promise.all(metadataStops.map((stop) => stop()));
      throw new CliError('--metadata-fetch writes to a store: give a network a store (networks[].store in --config)');
    }
    await Promise.all(
      pools.map((p) =>
        p.start().catch((e: Error) => {
          console.error(`ton-gateway serve: ${e.message} (serving anyway; node calls answer 504 until a liteserver answers)`);
        }),
      ),
    );
    const app = await buildGateway({ networks, keys, limiter, trustProxy: parseTrustedProxies(config.trust_proxy), logger: { level: process.env.LOG_LEVEL ?? 'info' }, metrics: createPipelineMetrics().registry });
    const listenPort = port ?? config.port;
    const listenHost = host ?? config.host;
    try {
      await app.listen({ port: listenPort, host: listenHost });
    } catch (e) {
      throw new CliError(`cannot listen on ${listenHost}:${listenPort}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    const bases = networks.map((n, i) => `${n.name} at ${n.basePath ?? (i === 0 ? '' : `/${n.name}`)}/api/v2`);
    console.log(`ton-gateway serve: listening on ${listenHost}:${listenPort}; ${bases.join(', ')}`);
    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    // Shutdown must not hang on a stuck client connection or liteserver query.
    setTimeout(() => {
      console.error('ton-gateway serve: shutdown took over 10 s, exiting');
      process.exit(0);
    }, 10_000).unref();
    await app.close();
    await Promise.all(feeds.map((f) => f.close()));
    await Promise.all(metadataStops.map((stop) => stop()));
    await Promise.all(pools.map((p) => p.close()));
    await Promise.all(stores.map((s) => s.close()));
    return 0;
  },
};
