// A temp chdb store per describe block, shared by the suites that need a real engine.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { LiteserverPool } from '../../src/source/index.ts';
import { openStore, type StoreClient, type StoreConfig } from '../../src/store/client/index.ts';
import { createTracesContext, type TracesContext } from '../../src/traces/index.ts';

/**
 * A fresh migrated chdb store in a temp dir for the enclosing describe block: opened before its tests,
 * closed and removed after, with a traces-stage context of its own (`ref.traces`, src/traces/stage-context.ts).
 * Read `ref.store` / `ref.traces` inside tests (they are set once beforeAll ran).
 */
export function tempStore(prefix: string, config: Omit<StoreConfig, 'dataDir'> = {}): { readonly dir: string; readonly store: StoreClient; readonly traces: TracesContext } {
  const ref = { dir: mkdtempSync(join(tmpdir(), prefix)), store: undefined as unknown as StoreClient, traces: undefined as unknown as TracesContext };
  beforeAll(async () => {
    ref.store = await openStore({ ...config, dataDir: ref.dir });
    ref.traces = createTracesContext({ store: ref.store });
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

/**
 * A fresh store in a temp dir and a liteserver pool on `ls` (a devnet liteserver) for one test body; both closed and
 * the dir removed after it.
 */
export async function withStoreAndPool<T>(
  ls: { port: number; publicKey: Buffer },
  prefix: string,
  fn: (store: StoreClient, pool: LiteserverPool) => Promise<T>,
): Promise<T> {
  const data = mkdtempSync(join(tmpdir(), prefix));
  const store = await openStore({ dataDir: data });
  const pool = new LiteserverPool([{ host: `127.0.0.1:${ls.port}`, publicKey: ls.publicKey }], { timeoutMs: 5000 });
  try {
    await pool.start();
    return await fn(store, pool);
  } finally {
    await pool.close();
    await store.close();
    rmSync(data, { recursive: true, force: true });
  }
}
