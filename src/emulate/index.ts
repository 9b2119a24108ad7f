/**
 * Emulated traces (issue 33): an external message run as a whole trace in the TVM emulator against the newest
 * indexed state, in the store's row forms, held as pending until the chain confirms or invalidates it. See README.md.
 */
export { emulateTrace, EmulationFailed, EmulationRejected, LT_ALIGN, MAX_TRACE_DEPTH, MAX_TRACE_TXS, noneShardAccount, outMessageCells, type EmulatedTrace, type EmulatedTx, type EmulateOptions, type EmulationState } from './trace.ts';
export { emulatedRows, type EmulatedRows } from './rows.ts';
export { compareTraces, type TraceComparison } from './compare.ts';
export { DEFAULT_PENDING_BOUNDS, pendingRows, PendingTraces, type PendingBounds, type PendingEntry, type PendingRows } from './pending.ts';
export { EmulationBusy, EmulationService, type EmulationServiceOptions, type EmulationStats, type FeedSource, type PendingEvent, type PendingListener } from './service.ts';
