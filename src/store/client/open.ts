/** Opening a store: the client, then the pending migrations (and, embedded, the key-value store's fill between them). */
import { openClient } from './client.ts';
import { MIGRATIONS_DIR } from './clickhouse-dir.ts';
import { prepareKv } from './kv-fill.ts';
import { migrate } from './migrate.ts';
import type { StoreClient, StoreConfig } from './store-client.ts';

/** The migration that drops the RocksDB point-read tables where the key-value store replaces them: it is filled first. */
const KV_TABLES_DROPPED = 17;

/**
 * Opens the store and applies pending migrations (run at every start; a no-op when up to date). An embedded store's
 * key-value store is filled from ClickHouse first when it lacks rows (kv-fill.ts), before the migration that drops
 * the tables it reads them from. `log`: progress of that fill.
 */
export async function openStore(config: StoreConfig & { migrate?: boolean; log?: (msg: string) => void } = {}): Promise<StoreClient> {
  const store = await openClient(config);
  try {
    if (config.migrate !== false) await migrate(store, MIGRATIONS_DIR, { below: KV_TABLES_DROPPED });
    if (store.kv && !store.readonly) await prepareKv(store, store.kv, config.log);
    if (config.migrate !== false) await migrate(store);
  } catch (err) {
    await store.close();
    throw err;
  }
  return store;
}
