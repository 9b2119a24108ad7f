// A temp chdb store per describe block, shared by the suites that need a real engine.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { openStore, type StoreClient, type StoreConfig } from '../../src/store/index.ts';

/**
 * A fresh migrated chdb store in a temp dir for the enclosing describe block: opened before its tests,
 * closed and removed after. Read `ref.store` inside tests (it is set once beforeAll ran).
 */
export function tempStore(prefix: string, config: Omit<StoreConfig, 'dataDir'> = {}): { readonly dir: string; readonly store: StoreClient } {
  const ref = { dir: mkdtempSync(join(tmpdir(), prefix)), store: undefined as unknown as StoreClient };
  beforeAll(async () => {
    ref.store = await openStore({ ...config, dataDir: ref.dir });
  });
  afterAll(async () => {
    await ref.store?.close();
    rmSync(ref.dir, { recursive: true, force: true });
  });
  return ref;
}

/** Records the SQL of every `store.query` call from now until `restore()`. */
export function recordQueries(store: StoreClient): { readonly sql: string[]; restore(): void } {
  const query = store.query;
  const sql: string[] = [];
  store.query = ((text: string, ...rest: unknown[]) => {
    sql.push(text);
    return (query as (...a: unknown[]) => ReturnType<StoreClient['query']>).call(store, text, ...rest);
  }) as StoreClient['query'];
  return {
    sql,
    restore() {
      store.query = query;
    },
  };
}
