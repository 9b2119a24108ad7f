import type { DedustPoolList } from '../../actions/index.ts';
import type pino from 'pino';
import { CliError, intOption, type Command } from '../command.ts';
import { DEFAULT_CLASSIFY_WORKERS, runIndexer, ROLES, type IndexerHandle, type Role, type PipelineStats } from '../../../pipelines/index.ts';
import { BusConfigError, createBus, kafkaOptionsFromEnv, type Bus } from '../../bus/index.ts';
import { loadLiteservers, LiteserverPool, NetworkConfigError, NoLiteserverError, parseNetwork, type BlockSource, type NetworkName } from '../../source/index.ts';
import type { StoreClient } from '../../store/client/index.ts';
import { openStoreOrExplain } from '../open-store.ts';
import { exitIfStuck, exitWhenDone } from '../exit.ts';
import { cliLogger } from '../logger.ts';
import { trustedSource } from '../trusted-ingest.ts';
import { startMetadataFetcher, takeMetadataArgs } from '../metadata-args.ts';
import { startDedustPools, takeDedustPoolsArgs } from '../dedust-pools-args.ts';
import { KafkaNotificationSink, NotificationPublisher, type PipelineNotifications } from '../../feed/index.ts';

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
  /** With an end seqno: stop (exit 1) once one masterchain seqno failed this long (--give-up-after SEC). */
  giveUpMs: number;
  /** --workers: threads classifying traces and deriving entity states beside the traces stage's fold (0: on its thread) */
  workers: number;
}

/** --give-up-after default: a bounded range whose block no liteserver gives valid for this long fails. */
const GIVE_UP_MS = 120_000;

export function parseIndexArgs(argv: string[]): IndexArgs {
  const out: IndexArgs = { network: 'mainnet', roles: ROLES, traces: true, giveUpMs: GIVE_UP_MS, workers: DEFAULT_CLASSIFY_WORKERS() };
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
    else if (a === '--workers') out.workers = intOption('--workers', argv[++i], 0, 64);
    else if (a === '--give-up-after') out.giveUpMs = intOption('--give-up-after', argv[++i], 1, 86_400) * 1000;
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
/** Blocks behind the tip after which reaching it again is logged again. */
const REARM_BEHIND = 10;

/** What the progress line says about one tick: pure, so the wording is tested. */
export function progressLine(
  stats: Pick<PipelineStats, 'checkpoint' | 'tip' | 'blocksStored' | 'txStored'>,
  opts: { from: number; until?: number },
  rates: { bps: number; tps: number; eta?: string },
): { text: string; atTip: boolean } {
  const cp = stats.checkpoint ?? opts.from - 1;
  const target = opts.until ?? stats.tip;
  // following the tip (no end seqno): everything the network has shown is stored; the rates read 0 until its next block
  const atTip = opts.until === undefined && stats.tip > 0 && cp >= stats.tip;
  const where = atTip ? `mc ${cp}, at the tip: waiting for the next block` : `mc ${cp}/${target}${stats.tip ? ` (tip ${stats.tip})` : ''}  ${rates.bps.toFixed(0)} blocks/s  ${rates.tps.toFixed(0)} tx/s`;
  return { text: `${where}  stored ${stats.blocksStored} blocks ${stats.txStored} tx${rates.eta ? `  ETA ${rates.eta}` : ''}`, atTip };
}

export function startProgress(stats: PipelineStats, opts: { from: number; until?: number; log: pino.Logger }): () => void {
  const tty = process.stderr.isTTY;
  const t0 = Date.now();
  let last = { t: t0, blocks: 0, txs: 0 };
  // logged once when the index reaches the tip, and again only after it fell well behind (a live tip one block
  // ahead between two ticks is following, not falling behind)
  let caughtUpLogged = false;
  const tick = () => {
    const now = Date.now();
    const dt = (now - last.t) / 1000 || 1;
    const bps = (stats.blocksStored - last.blocks) / dt;
    const tps = (stats.txStored - last.txs) / dt;
    last = { t: now, blocks: stats.blocksStored, txs: stats.txStored };
    const cp = stats.checkpoint ?? opts.from - 1;
    const done = cp - opts.from + 1;
    const elapsed = (now - t0) / 1000;
    const rate = done / elapsed;
    const eta = opts.until !== undefined && rate > 0 ? fmtDuration((opts.until - cp) / rate) : undefined;
    const line = progressLine(stats, opts, { bps, tps, eta });
    if (line.atTip && !caughtUpLogged) {
      opts.log.info({ checkpoint: cp, tip: stats.tip }, 'caught up with the network tip');
      caughtUpLogged = true;
    } else if (stats.tip - cp > REARM_BEHIND) caughtUpLogged = false;
    if (tty) {
      process.stderr.write(`\r\x1b[2K${line.text}`);
    } else {
      opts.log.info({ checkpoint: cp, tip: stats.tip, atTip: line.atTip, blocksPerSec: Math.round(bps), txPerSec: Math.round(tps), blocks: stats.blocksStored, txs: stats.txStored, eta }, 'progress');
    }
  };
  const timer = setInterval(tick, tty ? 1000 : 10_000);
  return () => {
    clearInterval(timer);
    tick();
    if (tty) process.stderr.write('\n');
  };
}

/**
 * Opens the store for the indexer; a second indexer on the data directory is told what to do. `roles`: a split
 * layout's process on one machine takes the directory's writer lock only for the roles that run once (ingest, the
 * checkpoint); its store and traces roles are clients of the same engine beside them.
 */
export function openIndexerStore(dataDir: string | undefined, roles?: readonly string[], log?: (line: string) => void): Promise<StoreClient> {
  const lock = roles === undefined || roles.includes('ingest') || roles.includes('checkpoint');
  return openStoreOrExplain(dataDir, 'another ton-gateway (index or start) is running on it; stop it first or use another --data DIR', { lock, log });
}

/** What an `index` process opens for its roles. */
export function indexNeeds(args: IndexArgs): { source: boolean; tracesSource: boolean; store: boolean } {
  const source = args.roles.includes('ingest');
  // the traces stage reads the codes the store lacks from the liteservers (optional for it: none answering only skips them)
  const tracesSource = !source && args.traces && args.roles.includes('traces');
  const store = args.roles.some((r) => r === 'store' || r === 'checkpoint' || r === 'traces') || (source && args.fromSeqno === undefined);
  return { source, tracesSource, store };
}

/**
 * The pipeline of one `index` process, on the parts it opened. The split-layout tests run the documented argv through
 * parseIndexArgs and this, with the parts of the test (one in-process broker, one store), so what they run is what
 * the CLI runs.
 */
export function startIndexer(
  args: IndexArgs,
  parts: { bus: Bus; store?: StoreClient; source?: BlockSource; logger?: pino.Logger; notifications?: PipelineNotifications; dedustPools?: DedustPoolList },
): Promise<IndexerHandle> {
  return runIndexer({ ...parts, roles: args.roles, traces: args.traces, fromSeqno: args.fromSeqno, untilSeqno: args.untilSeqno, prefetch: args.prefetch, giveUpMs: args.giveUpMs, classifyWorkers: args.workers });
}

/** After SIGTERM / SIGINT, the process exits within this long even if a stage does not stop (its work is replayed). */
export const STOP_DEADLINE_MS = 8000;

export const indexCommand: Command = {
  async run(argv) {
    const { metadata, rest: afterMetadata } = takeMetadataArgs(argv);
    const { dedust, rest } = takeDedustPoolsArgs(afterMetadata);
    const args = parseIndexArgs(rest);
    const log = cliLogger();
    const needs = indexNeeds(args);

    // Signals first: a stop during setup (waiting for liteservers, for Kafka's topics) ends the setup too.
    const { stopped, onSignal } = stopOnSignal(log);
    // A Kafka consumer that cannot be restarted: the process exits non-zero (never alive with a dead consumer).
    let fatal!: (err: Error) => void;
    const failed = new Promise<never>((_, reject) => (fatal = reject));
    failed.catch(() => undefined);

    const endpoints = needs.source || needs.tracesSource ? endpointsOf(args) : undefined;
    let bus: Bus;
    try {
      bus = createBus({ env: process.env, logger: log, onFatal: (err) => fatal(err) });
    } catch (err) {
      if (err instanceof BusConfigError) throw new CliError(err.message);
      throw err;
    }
    // The data dir lock first: a second indexer on the same directory stops here, before any connection.
    if (metadata.enabled && !needs.store) throw new CliError('--metadata-fetch writes to the store: run it with a role that opens the store (store or checkpoint)');
    const store = needs.store ? await openIndexerStore(args.dataDir, args.roles, (line) => log.warn(line)) : undefined;
    const pool = endpoints ? new LiteserverPool(endpoints, { logger: log }) : undefined;
    const stopMetadata = store ? startMetadataFetcher(store, metadata, log) : async () => undefined;
    const dedustPools = args.roles.includes('traces') && args.traces ? await startDedustPools(dedust, log) : null;
    // the streaming API's feed: `serve` processes consume it from Kafka (nobody would on the in-process bus)
    const kafka = kafkaOptionsFromEnv(process.env);
    const sink = kafka && args.traces ? new KafkaNotificationSink({ brokers: kafka.brokers, topicPrefix: kafka.topicPrefix }) : undefined;
    try {
      if (pool && !(await liteserversUp(pool, stopped, needs, log))) return 0;
      // ingest follows proved blocks only (trusted-ingest.ts); the traces stage alone reads account states
      const source = pool && needs.source ? await trustedSource(pool, store, args, log) : pool;
      const notifications = sink ? new NotificationPublisher(sink, { store, logger: log }) : undefined;
      const starting = startIndexer(args, { bus, source, store, logger: log, notifications, dedustPools: dedustPools?.list });
      let h: IndexerHandle | null;
      try {
        h = await Promise.race([starting, stopped, failed]);
      } catch (err) {
        throw new CliError(`indexing stopped: ${(err as Error).message.split('\n')[0]}`);
      }
      if (h === null) {
        // stopped during setup: whatever started late is stopped as well
        starting.then((late) => late.stop()).catch(() => undefined);
        return 0;
      }
      let stopProgress: (() => void) | null = null;
      if (h.fromSeqno !== null) {
        log.info({ from: h.fromSeqno, until: h.untilSeqno ?? 'tip, forever', store: store?.location, bus: bus.kind }, 'indexing');
        stopProgress = startProgress(h.stats, { from: h.fromSeqno, until: h.untilSeqno, log });
      } else log.info({ roles: args.roles, until: args.untilSeqno ?? 'forever', store: store?.location, bus: bus.kind }, 'running');
      await untilDone(h, stopped, failed, stopProgress);
      await h.stop();
      if (h.untilSeqno !== undefined && h.stats.checkpoint !== null && h.stats.checkpoint >= h.untilSeqno) log.info({ checkpoint: h.stats.checkpoint }, 'done');
      else log.info({ checkpoint: h.stats.checkpoint }, 'stopped');
      return 0;
    } finally {
      exitIfStuck();
      dedustPools?.stop();
      await stopMetadata();
      await bus.close().catch(() => undefined);
      await sink?.close().catch(() => undefined);
      await pool?.close();
      await store?.close();
      // Everything of ours is closed. What can still hold the event loop is foreign: the lite client's timers of
      // queries a liteserver holds until a block appears (up to the request timeout). They must not delay the exit.
      exitWhenDone(200);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
  },
};

/**
 * Resolves with null on SIGINT / SIGTERM. A stage that cannot stop in time does not keep the process alive: it exits
 * STOP_DEADLINE_MS after the signal, its uncommitted work is replayed.
 */
function stopOnSignal(log: pino.Logger): { stopped: Promise<null>; onSignal: (sig: NodeJS.Signals) => void } {
  let resolveStop!: (v: null) => void;
  const stopped = new Promise<null>((resolve) => (resolveStop = resolve));
  const onSignal = (sig: NodeJS.Signals) => {
    setTimeout(() => {
      log.error({ signal: sig }, `not stopped ${STOP_DEADLINE_MS / 1000} s after ${sig}; exiting`);
      process.exit(1);
    }, STOP_DEADLINE_MS).unref();
    resolveStop(null);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return { stopped, onSignal };
}

function endpointsOf(args: IndexArgs): ReturnType<typeof loadLiteservers> {
  try {
    return loadLiteservers({ network: args.network, configPath: args.configPath });
  } catch (err) {
    if (err instanceof NetworkConfigError) throw new CliError(err.message);
    throw err;
  }
}

/**
 * Waits for a liteserver to answer: false if a signal came first. With none answering, only the traces stage (it
 * reads the codes the store lacks) goes on: the pool keeps trying.
 */
async function liteserversUp(pool: LiteserverPool, stopped: Promise<null>, needs: ReturnType<typeof indexNeeds>, log: pino.Logger): Promise<boolean> {
  try {
    return (await Promise.race([pool.start().then(() => true), stopped])) !== null;
  } catch (err) {
    if (!(err instanceof NoLiteserverError)) throw err;
    if (!needs.tracesSource) throw new CliError(err.message);
    // the pool keeps trying: codes are read once a liteserver answers
    log.warn({ err: err.message }, 'no liteserver answers yet: contract codes the store lacks are skipped until one does');
    return true;
  }
}

/**
 * Until the run is done, a signal, or a consumer that cannot be restarted; then the progress line stops. A failure
 * stops the stages (what they still write is written) and is one line.
 */
async function untilDone(h: IndexerHandle, stopped: Promise<null>, failed: Promise<never>, stopProgress: (() => void) | null): Promise<void> {
  // a role with nothing to do on the in-process bus has no socket or timer of its own: stay alive until a signal
  const keepAlive = setInterval(() => undefined, 1 << 30);
  try {
    await Promise.race([h.done, stopped, failed]);
  } catch (err) {
    // A chain that does not link up (fork, wrong config), a block no liteserver gives valid within
    // --give-up-after, a store that keeps failing, a consumer that cannot be restarted: one line, no stack, exit 1,
    // after what the stages still write.
    stopProgress?.();
    await h.stop().catch(() => undefined);
    throw new CliError(`indexing stopped: ${(err as Error).message.split('\n')[0]}`);
  } finally {
    clearInterval(keepAlive);
  }
  stopProgress?.();
}
