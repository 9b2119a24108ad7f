/**
 * The decode stage: decoded blocks -> the rows of every store table (pure: no I/O) and the transactions' documents;
 * the one decode per block a process shares between its stages. pipelines/stages.ts wires it to the bus; the traces
 * stage builds its traced rows (transactions and messages with their trace_id) here too. See README.md.
 */
export { appendBlockRows, BLOCK_TABLES, blockToRows, emptyRows, shardToBigint, statesBeforeRows, TRACED_TABLES, type BlockTable, type BlockToRowsOptions, type StoreRows } from './rows.ts';
export { blockDocRows, contentHashes, parseTxDoc, PriorStates, stringifyTxDoc, TxDocCache, type TxDoc } from './docs.ts';
export { rowsOfMessage } from './message.ts';
export { SharedDecode, type SharedDecodeStats } from './shared.ts';
