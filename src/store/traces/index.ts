/**
 * The traces stage's part of the store: the context it reads before each batch (account states, entity rows, message
 * bodies, contract codes), its saved state (the assembler, with the seqno it has folded up to), and its write.
 */
export { readContractCodes, readFullData, readJettonWallets, readLatestRows, readMessageBodies, readMultisigOrders, readNftItems, readSales, readStates, type AccountSnapshot, type KnownJettonWallet, type KnownMultisigOrder, type KnownNftItem, type KnownSale, type StoreContextRows, type StoredBody } from './context.ts';
export { loadTracesState, saveTracesState, tracesResumePoint, TRACES_STATE_NAME } from './state.ts';
export { tracesWriteProgress, writeFetchedCode, writeTracesBatch, type TableRows, type TracesWrite, type TracesWriteProgress } from './write.ts';
