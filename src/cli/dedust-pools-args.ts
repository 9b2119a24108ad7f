/**
 * `--dedust-pools-api` (and `--dedust-pools-file`), shared by `start` and `index`: upstream's DeDust pool list
 * (https://api.dedust.io/v2/pools, src/actions/dedust-pools.ts, toncenter's utils/dedust_pools.py) as a fallback for
 * the pools whose assets the chain has not told the traces stage (src/traces/context-dedust.ts). Off by default: the
 * chain gives a pool's assets exactly once it has swapped (or was deployed) in the indexed range; the list covers a
 * pool seen first in a refused swap, at the price of trusting a third-party HTTP API. Loaded at start (else from the
 * file it was last saved to), refreshed every 120 s as upstream does; a list that cannot be loaded is a warning, never
 * a stop: the chain's records do not need it.
 */
import type pino from 'pino';
import { writeFileSync } from 'node:fs';
import { DedustPoolList, fetchDedustPools, initDedustPools, UPDATE_INTERVAL_S } from '../actions/index.ts';
import { CliError, optionValue } from './command.ts';

export interface DedustPoolsArgs {
  enabled: boolean;
  /** where the last good list is saved, and read from when the API does not answer */
  file?: string;
}

const TRUE = new Set(['1', 'true', 'yes', 'on']);

/** Takes the DeDust list options out of `argv` (the rest goes to the command's own parser); env gives defaults. */
export function takeDedustPoolsArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): { dedust: DedustPoolsArgs; rest: string[] } {
  const dedust: DedustPoolsArgs = { enabled: TRUE.has((env.TON_GATEWAY_DEDUST_POOLS_API ?? '').trim().toLowerCase()) };
  if (env.TON_GATEWAY_DEDUST_POOLS_FILE) dedust.file = env.TON_GATEWAY_DEDUST_POOLS_FILE;
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--dedust-pools-api') dedust.enabled = true;
    else if (a === '--dedust-pools-file') dedust.file = optionValue(a, argv[++i]);
    else rest.push(a);
  }
  if (dedust.file !== undefined && !dedust.enabled) throw new CliError('--dedust-pools-file goes with --dedust-pools-api (the list is off without it)');
  return { dedust, rest };
}

/**
 * The list the traces stage's classifier falls back on (`runIndexer({ dedustPools })`): loaded when enabled and kept
 * fresh (`stop` ends that), else empty.
 */
export async function startDedustPools(args: DedustPoolsArgs, log: pino.Logger, opts: { url?: string; intervalMs?: number } = {}): Promise<{ list: DedustPoolList; stop: () => void }> {
  const list = new DedustPoolList();
  if (!args.enabled) return { list, stop: () => undefined };
  const l = log.child({ component: 'dedust-pools' });
  try {
    const n = await initDedustPools(list, { url: opts.url, fallbackFile: args.file });
    l.info({ pools: n }, 'DeDust pool list loaded (a fallback for pools the chain has not told)');
  } catch (e) {
    l.warn({ err: (e as Error).message }, 'DeDust pool list not loaded: pools the chain has not told stay unknown until a refresh loads it');
  }
  let stopped = false;
  const timer = setInterval(() => {
    fetchDedustPools(opts.url).then(
      ({ raw, pools }) => {
        // a refresh still running when stopped changes nothing
        if (stopped) return;
        list.set(pools);
        if (args.file) writeFileSync(args.file, JSON.stringify(raw));
      },
      (e: Error) => l.warn({ err: e.message }, 'DeDust pool list refresh failed; the last list stays'),
    );
  }, opts.intervalMs ?? UPDATE_INTERVAL_S * 1000);
  timer.unref();
  return {
    list,
    stop: () => {
      stopped = true;
      clearInterval(timer);
    },
  };
}
