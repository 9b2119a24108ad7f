/** API keys for start, its HTTP workers and serve: a keys file, inline plans, or none; a bad one is one CLI line. */
import { KeyConfigError, KeyStore } from '../api/index.ts';
import { CliError } from './command.ts';

export function loadKeyStore(spec: string | Record<string, unknown> | undefined): KeyStore {
  try {
    return spec === undefined ? new KeyStore() : typeof spec === 'string' ? KeyStore.fromFile(spec) : new KeyStore(spec as never);
  } catch (e) {
    if (e instanceof KeyConfigError) throw new CliError(e.message);
    throw e;
  }
}
