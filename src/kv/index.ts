/**
 * The key-value store of point reads (issue 22): LMDB under `<data dir>/kv`, written by the embedded store's writers
 * in the same batch as their ClickHouse rows and visible up to the checkpoint; read by every API process.
 */
export { Kv, KV_DBS, KV_FORMAT, type KvDbName, type KvOptions } from './kv.ts';
export { factKey, METADATA_TYPES, MIRRORED_TABLES, mirrorRows, type MirrorInput } from './mirror.ts';
export { kvPointReads } from './reads.ts';
export type { FactRow, LtPage, MessageTx, PointReads, TraceTx, TxKeyRow } from './point-reads.ts';
export { kvListReads, type ActionsKeyCursor, type ActionsPage, type ListReads } from './lists.ts';
export { LIST_TABLES, LISTS_MARK } from './lists-mirror.ts';
