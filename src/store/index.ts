/**
 * The ClickHouse store: one @clickhouse/client to the embedded engine of a data directory (src/engine, files under
 * `<dataDir>/clickhouse`) or to a ClickHouse server (CLICKHOUSE_URL), versioned migrations, the idempotent block
 * writer and lookups.
 */
import { openClient, type StoreClient, type StoreConfig } from './client.ts';
import { prepareKv } from './kv-fill.ts';
import { migrate } from './migrate.ts';
import { MIGRATIONS_DIR } from './clickhouse-dir.ts';

/** The migration that drops the RocksDB point-read tables where the key-value store replaces them: it is filled first. */
const KV_TABLES_DROPPED = 17;

export { openClient, storeConfigFromEnv, type PointReadsMode, type QueryParams, type StoreClient, type StoreConfig } from './client.ts';
export { fillKvFromStore, prepareKv, VISIBLE_CHECKPOINT, type KvFillResult } from './kv-fill.ts';
export { DataDirLockedError, lockDataDir } from './lock.ts';
export { loadMigrations, migrate, type MigrateResult } from './migrate.ts';
export { MIGRATIONS_DIR } from './clickhouse-dir.ts';
export { encodeCompact, encodeJsonLines, type InsertFormat } from './encode.ts';
export { firstLine, getCheckpoint, setCheckpoint, storedBlocks, StoreWriter, type FlushStats, type WriterOptions } from './writer.ts';
export { assertReadOnly, ReadOnlyQueryError, runReadOnlySql, SQL_FORMATS } from './sql.ts';
export { dedupRows, duplicateReport, nextIntentVersion, openIntents, recordIntent, tableIdentity, withoutStored, type TableDuplicates } from './replay.ts';
export * from './read.ts';
export { indexStatus, indexStatusDetail, INGEST_CHECKPOINT, type IndexStatus, type IndexStatusDetail } from './status.ts';
export { readContractCodes, readFullData, readJettonWallets, readLatestRows, readMessageBodies, readMultisigOrders, readNftItems, readSales, readStates, type AccountSnapshot, type KnownJettonWallet, type KnownMultisigOrder, type KnownNftItem, type KnownSale, type StoreContextRows, type StoredBody } from './trace-context-reads.ts';
export { loadTracesState, saveTracesState, tracesResumePoint, TRACES_STATE_NAME } from './assembler-state.ts';
export { tracesWriteProgress, writeFetchedCode, writeTracesBatch, type TableRows, type TracesWrite, type TracesWriteProgress } from './traces-write.ts';
export { loadTrustedBlocks, readIngestState, saveTrustedBlocks, storedMcBlock, writeIngestState, type IngestRange, type IngestStall, type IngestState, type StoredBlockId } from './ingest-state.ts';

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
export { forgetNonEmptyTables, tablePointReads, type Query as PointQuery } from './point-reads.ts';
