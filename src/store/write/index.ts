/** The block writer: the rows src/decode makes, into ClickHouse (and the key-value store) idempotently, in bounded batches. */
export { firstLine, storedBlocks, StoreWriter, type FlushStats, type WriterOptions } from './writer.ts';
