/** Ingest's bookkeeping in the store: the masterchain blocks it trusts, the range it was asked for, where it is stalled. */
export { loadTrustedBlocks, readIngestState, saveTrustedBlocks, storedMcBlock, writeIngestState, nextIngestVersion, type IngestRange, type IngestStall, type IngestState, type StoredBlockId } from './state.ts';
