/** Opening the store from a CLI command: a locked data directory or an unreachable server is one line, no stack. */
import { CliError } from './command.ts';
import { DataDirLockedError, openStore, storeConfigFromEnv, type StoreClient } from '../store/index.ts';

/**
 * `lockedHint` is appended to the "in use by pid N" line (e.g. what to do about the other process). `readonly`:
 * the engine refuses every write (and no migration runs: that is a write too).
 */
export async function openStoreOrExplain(dataDir: string | undefined, lockedHint?: string, opts: { readonly?: boolean } = {}): Promise<StoreClient> {
  try {
    return await openStore({ ...storeConfigFromEnv(dataDir), ...(opts.readonly ? { readonly: true, migrate: false } : {}) });
  } catch (err) {
    if (err instanceof DataDirLockedError) throw new CliError(lockedHint ? `${err.message}: ${lockedHint}` : err.message);
    throw new CliError(`cannot open the store: ${(err as Error).message.split('\n')[0]}`);
  }
}
