/** Opening the store from a CLI command: a locked data directory or an unreachable engine is one line, no stack. */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CliError } from './command.ts';
import { readEngineState, enginePaths } from '../engine/index.ts';
import { DataDirLockedError, openStore, storeConfigFromEnv, type StoreClient } from '../store/client/index.ts';

/**
 * `lockedHint` is appended to the "in use by pid N" line (e.g. what to do about the other process). `readonly`:
 * the engine refuses every write, no writer lock is taken (a running gateway keeps writing) and no migration runs
 * (that is a write too). `log`: lines about the engine this process starts or restarts.
 */
export async function openStoreOrExplain(
  dataDir: string | undefined,
  lockedHint?: string,
  opts: { readonly?: boolean; lock?: boolean; migrate?: boolean; pointReads?: 'kv' | 'tables'; log?: (line: string) => void } = {},
): Promise<StoreClient> {
  try {
    return await openStore({ ...storeConfigFromEnv(dataDir), ...(opts.readonly ? { readonly: true, migrate: false } : { migrate: opts.migrate }), lock: opts.lock, pointReads: opts.pointReads, log: opts.log });
  } catch (err) {
    if (err instanceof DataDirLockedError) throw new CliError(lockedHint ? `${err.message}: ${lockedHint}` : err.message);
    throw new CliError(`cannot open the store: ${(err as Error).message.split('\n')[0]}`);
  }
}

/** Where `npm run demo` keeps its store (src/cli/commands/demo.ts). */
const DEMO_STORE = join('data', 'demo-store');

function indexedSomething(dir: string): boolean {
  return existsSync(join(dir, 'kv', 'data.mdb'));
}

/**
 * The data directory a reading command (`sql`, `status`, `export`) uses without `--data`: TON_GATEWAY_DATA or
 * `./data`, as the indexer's default. When that one has neither a running engine nor anything indexed while the
 * demo's store (`./data/demo-store`) has, the demo's: a newcomer who ran `npm run demo` reads what it indexed. Told on
 * stderr when so.
 */
export function readerDataDir(given: string | undefined, say: (line: string) => void): string | undefined {
  if (given !== undefined || process.env.CLICKHOUSE_URL) return given;
  const dflt = process.env.TON_GATEWAY_DATA ?? './data';
  const running = (dir: string) => readEngineState(enginePaths(dir)) !== null;
  if (running(dflt) || indexedSomething(dflt) || resolve(dflt) === resolve(DEMO_STORE)) return undefined;
  if (running(DEMO_STORE) || indexedSomething(DEMO_STORE)) {
    say(`reading the demo's store in ${DEMO_STORE} (${dflt} holds nothing indexed; --data DIR to choose)`);
    return DEMO_STORE;
  }
  return undefined;
}
