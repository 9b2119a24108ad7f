/**
 * The store's client and what every other part of the store stands on: one @clickhouse/client to the embedded engine
 * of a data directory (src/engine, files under `<dataDir>/clickhouse`) or to a ClickHouse server (CLICKHOUSE_URL), the
 * data directory's lock, versioned migrations and the key-value store's fill (`openStore` runs them), inserts (Native
 * and JSON formats), the replay check that keeps a replayed write from storing rows twice, checkpoints.
 */
export { openStore } from './open.ts';
export { openClient, storeConfigFromEnv, type PointReadsMode, type QueryParams, type StoreClient, type StoreConfig } from './client.ts';
export { fillKvFromStore, prepareKv, type KvFillResult } from './kv-fill.ts';
export { DataDirLockedError, lockDataDir } from './lock.ts';
export { loadMigrations, migrate, type MigrateResult } from './migrate.ts';
export { MIGRATIONS_DIR } from './clickhouse-dir.ts';
export { encodeCompact, encodeJsonLines, type InsertFormat } from './encode.ts';
export { encodeNative, RowEncodeError } from './native.ts';
export { clearIntent, dedupRows, duplicateReport, nextIntentVersion, openIntents, recordIntent, tableIdentity, withoutStored, type TableDuplicates } from './replay.ts';
export { getCheckpoint, INGEST_CHECKPOINT, setCheckpoint } from './checkpoint.ts';
