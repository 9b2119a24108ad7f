import pino from 'pino';
import { CliError, type Command } from '../command.ts';
import { runIndexer, ROLES, type Role, type PipelineStats } from '../../../pipelines/index.ts';
import { createBus } from '../../bus/index.ts';
import { loadLiteservers, LiteserverPool, NetworkConfigError, NoLiteserverError, parseNetwork, type NetworkName } from '../../source/index.ts';
import type { StoreClient } from '../../store/index.ts';
import { openStoreOrExplain } from '../open-store.ts';
import { KafkaNotificationSink, NotificationPublisher } from '../../streaming/index.ts';
import { METADATA_USAGE, startMetadataFetcher, takeMetadataArgs } from '../metadata-args.ts';

function intArg(name: string, v: string | undefined): number {
  if (v === undefined || !/^\d+$/.test(v) || Number(v) > 0xffffffff) throw new CliError(`${name} must be a masterchain seqno (a non-negative integer), got "${v ?? ''}"`);
  return Number(v);
}

export interface IndexArgs {
  network: NetworkName;
  configPath?: string;
  fromSeqno?: number;
  untilSeqno?: number;
  dataDir?: string;
  roles: Role[];
  prefetch?: number;
  /** false with --no-traces: no traces stage; decode writes transactions and messages itself */
  traces: boolean;
}

export function parseIndexArgs(argv: string[]): IndexArgs {
  const out: IndexArgs = { network: 'mainnet', roles: ROLES, traces: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--network') {
      try {
        out.network = parseNetwork(argv[++i] ?? '');
      } catch (err) {
        throw new CliError((err as Error).message);
      }
    } else if (a === '--config') {
      out.configPath = argv[++i];
      if (!out.configPath) throw new CliError('--config needs a path to a global config JSON (e.g. DIR/liteserver.json)');
    } else if (a === '--from-seqno') out.fromSeqno = intArg('--from-seqno', argv[++i]);
    else if (a === '--until-seqno') out.untilSeqno = intArg('--until-seqno', argv[++i]);
    else if (a === '--prefetch') out.prefetch = intArg('--prefetch', argv[++i]);
    else if (a === '--data') {
      out.dataDir = argv[++i];
      if (!out.dataDir) throw new CliError('--data needs a directory');
    } else if (a === '--roles') {
      const list = (argv[++i] ?? '').split(',').filter(Boolean);
      const bad = list.find((r) => !(ROLES as string[]).includes(r));
      if (list.length === 0 || bad) throw new CliError(`--roles takes a comma list of ${ROLES.join(', ')}${bad ? `, got "${bad}"` : ''}`);
      out.roles = list as Role[];
    } else if (a === '--no-traces') out.traces = false;
    else throw new CliError(`unknown option "${a}" (see --help)`);
  }
  if (out.fromSeqno !== undefined && out.untilSeqno !== undefined && out.untilSeqno < out.fromSeqno) {
    throw new CliError(`--until-seqno ${out.untilSeqno} is below --from-seqno ${out.fromSeqno}`);
  }
  if (!out.traces && out.roles.includes('traces') && out.roles !== ROLES) throw new CliError('--no-traces and --roles traces contradict each other');
  if (out.fromSeqno === 0) throw new CliError('--from-seqno 0 is the zero state, not a block: start at 1');
  return out;
}

function fmtDuration(s: number): string {
  if (!Number.isFinite(s) || s < 0) return '?';
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = Math.floor(s % 60);
  return h ? `${h}h${String(m).padStart(2, '0')}m` : m ? `${m}m${String(sec).padStart(2, '0')}s` : `${sec}s`;
}

/** Progress: one rewritten line on a TTY, a structured log line every 10 s otherwise. */
export function startProgress(stats: PipelineStats, opts: { from: number; until?: number; log: pino.Logger }): () => void {
  const tty = process.stderr.isTTY;
  const t0 = Date.now();
  let last = { t: t0, blocks: 0, txs: 0 };
  const tick = () => {
    const now = Date.now();
    const dt = (now - last.t) / 1000 || 1;
    const bps = (stats.blocksStored - last.blocks) / dt;
    const tps = (stats.txStored - last.txs) / dt;
    last = { t: now, blocks: stats.blocksStored, txs: stats.txStored };
    const cp = stats.checkpoint ?? opts.from - 1;
    const target = opts.until ?? stats.tip;
    const done = cp - opts.from + 1;
    const elapsed = (now - t0) / 1000;
    const rate = done / elapsed;
    const eta = opts.until !== undefined && rate > 0 ? fmtDuration((opts.until - cp) / rate) : undefined;
    if (tty) {
      process.stderr.write(
        `\r\x1b[2Kmc ${cp}/${target}${stats.tip ? ` (tip ${stats.tip})` : ''}  ${bps.toFixed(0)} blocks/s  ${tps.toFixed(0)} tx/s  stored ${stats.blocksStored} blocks ${stats.txStored} tx${eta ? `  ETA ${eta}` : ''}`,
      );
    } else {
      opts.log.info({ checkpoint: cp, tip: stats.tip, blocksPerSec: Math.round(bps), txPerSec: Math.round(tps), blocks: stats.blocksStored, txs: stats.txStored, eta }, 'progress');
    }
  };
  const timer = setInterval(tick, tty ? 1000 : 10_000);
  return () => {
    clearInterval(timer);
    tick();
    if (tty) process.stderr.write('\n');
  };
}

/** Opens the store for the indexer; a second indexer on the data directory is told what to do. */
export function openIndexerStore(dataDir: string | undefined): Promise<StoreClient> {
  return openStoreOrExplain(dataDir, 'another ton-gateway (index or start) is running on it; stop it first or use another --data DIR');
}

export const indexCommand: Command = {
  name: 'index',
  summary: 'follow a network from its liteservers and keep the store complete',
  usage: [
    'Usage: ton-gateway index [--network mainnet|testnet] [--config PATH] [--from-seqno N] [--until-seqno N] [--data DIR]',
    '',
    'Follows the masterchain, fetches every shard block it commits (hashes verified), decodes and stores',
    'blocks, transactions, messages and account states. Resumes after the last masterchain seqno that is',
    'fully stored (the checkpoint); replays are idempotent. Without --until-seqno it follows the tip forever.',
    '',
    'Options:',
    '  --network NAME     mainnet (default) or testnet: bundled liteserver lists',
    '  --config PATH      a TON global config (or a devnet DIR/liteserver.json) instead of the bundled one',
    '  --from-seqno N     first masterchain seqno (default: checkpoint + 1, else the current tip)',
    '  --until-seqno N    last masterchain seqno (inclusive); stop when it is stored',
    '  --data DIR         data directory (default ./data); CLICKHOUSE_URL selects a ClickHouse server',
    '  --roles LIST       run only some stages: ingest,decode,store,checkpoint,traces (Kafka deployments).',
    '                     ingest and traces use the liteservers of --network / --config: traces reads from',
    '                     them the contract codes neither the blocks nor the store have (jetton masters, NFT',
    '                     collections, ... whose deploy was never indexed); without an answer they are skipped',
    '                     and counted (no_code). Needed by ingest; traces runs without an answering one',
    '  --prefetch N       masterchain blocks fetched ahead (default 16)',
    '  --no-traces        no traces/actions stage: decode writes transactions and messages itself. In a split',
    '                     (Kafka) deployment give it to every decode and checkpoint process, or run a traces role',
    '',
    ...METADATA_USAGE,
    '',
    'Environment: KAFKA_BROKERS=host:9092,... puts the stages on Kafka instead of the in-process bus; the traces',
    'and checkpoint roles then publish the streaming API\'s notifications on its topic (ton.notifications) for `serve`.',
  ].join('\n'),
  async run(argv) {
    const { metadata, rest } = takeMetadataArgs(argv);
    const args = parseIndexArgs(rest);
    const log = pino({ level: process.env.LOG_LEVEL ?? 'info' }, pino.destination(2));
    const needsSource = args.roles.includes('ingest');
    // the traces stage reads the codes the store lacks from the liteservers (optional for it: none answering only skips them)
    const tracesOnly = !needsSource && args.traces && args.roles.includes('traces');
    const needsStore = args.roles.some((r) => r === 'store' || r === 'checkpoint' || r === 'traces') || (needsSource && args.fromSeqno === undefined);

    let endpoints;
    if (needsSource || tracesOnly) {
      try {
        endpoints = loadLiteservers({ network: args.network, configPath: args.configPath });
      } catch (err) {
        if (err instanceof NetworkConfigError) throw new CliError(err.message);
        throw err;
      }
    }
    // The data dir lock first: a second indexer on the same directory stops here, before any connection.
    if (metadata.enabled && !needsStore) throw new CliError('--metadata-fetch writes to the store: run it with a role that opens the store (store or checkpoint)');
    const store = needsStore ? await openIndexerStore(args.dataDir) : undefined;
    const pool = endpoints ? new LiteserverPool(endpoints, { logger: log }) : undefined;
    const bus = createBus({ brokers: process.env.KAFKA_BROKERS });
    let stopProgress: (() => void) | null = null;
    const stopMetadata = store ? startMetadataFetcher(store, metadata, log) : async () => undefined;
    // the streaming API's feed: `serve` processes consume it from Kafka (nobody would on the in-process bus)
    const brokers = (process.env.KAFKA_BROKERS ?? '').split(',').map((b) => b.trim()).filter(Boolean);
    const sink = brokers.length && args.traces ? new KafkaNotificationSink({ brokers }) : undefined;
    try {
      if (pool) {
        try {
          await pool.start();
        } catch (err) {
          if (!(err instanceof NoLiteserverError)) throw err;
          if (!tracesOnly) throw new CliError(err.message);
          // the pool keeps trying: codes are read once a liteserver answers
          log.warn({ err: err.message }, 'no liteserver answers yet: contract codes the store lacks are skipped until one does');
        }
      }
      const notifications = sink ? new NotificationPublisher(sink, { store, logger: log }) : undefined;
      const h = await runIndexer({ bus, source: pool, store, roles: args.roles, traces: args.traces, fromSeqno: args.fromSeqno, untilSeqno: args.untilSeqno, prefetch: args.prefetch, logger: log, notifications });
      if (h.fromSeqno !== null) {
        log.info({ from: h.fromSeqno, until: args.untilSeqno ?? 'tip, forever', store: store?.location, bus: bus.kind }, 'indexing');
        stopProgress = startProgress(h.stats, { from: h.fromSeqno, until: args.untilSeqno, log });
      }
      const stopped = new Promise<void>((resolve) => {
        process.once('SIGINT', () => resolve());
        process.once('SIGTERM', () => resolve());
      });
      try {
        await Promise.race([h.done, stopped]);
      } catch (err) {
        // A chain that does not link up (fork, wrong config) or a store that keeps failing: one line, no stack.
        throw new CliError(`indexing stopped: ${(err as Error).message.split('\n')[0]}`);
      }
      stopProgress?.();
      stopProgress = null;
      await h.stop();
      if (args.untilSeqno !== undefined && h.stats.checkpoint !== null) log.info({ checkpoint: h.stats.checkpoint }, 'done');
      return 0;
    } finally {
      stopProgress?.();
      await stopMetadata();
      await bus.close();
      await sink?.close();
      await pool?.close();
      await store?.close();
    }
  },
};
