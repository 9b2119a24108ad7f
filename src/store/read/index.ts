/**
 * The store's reads the API and the stages share: lookups by key, the API's point reads over ClickHouse tables (the
 * key-value store's are src/kv's), how far the index is (`indexStatus`), and the read-only `sql` command's guard.
 */
export * from './read.ts';
export { forgetNonEmptyTables, tablePointReads, type Query as PointQuery } from './table-point-reads.ts';
export { indexStatus, indexStatusDetail, type IndexStatus, type IndexStatusDetail } from './status.ts';
export { assertReadOnly, ReadOnlyQueryError, runReadOnlySql, SQL_FORMATS } from './sql.ts';
