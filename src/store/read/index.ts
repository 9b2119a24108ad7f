/**
 * The store's reads the API and the stages share: lookups by key, the API's point reads over ClickHouse tables (the
 * key-value store's are src/kv's), how far the index is (`indexStatus`), the read-only `sql` command's guard, and
 * `export` (a table's range or a read-only query, written by the engine to a file or an S3-compatible object).
 */
export * from './read.ts';
export { forgetNonEmptyTables, tablePointReads, type Query as PointQuery } from './table-point-reads.ts';
export { indexStatus, indexStatusDetail, type IndexStatus, type IndexStatusDetail } from './status.ts';
export { assertReadOnly, canonicalReadOnly, ReadOnlyQueryError, runReadOnlySql, SQL_FORMATS } from './sql.ts';
export { EXPORT_FORMATS, EXPORT_TABLES, ExportError, queryExportStatement, runExport, s3ObjectUrl, tableExportStatement, type ExportFormat, type ExportRange, type ExportTarget } from './export.ts';
