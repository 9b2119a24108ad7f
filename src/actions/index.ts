/**
 * Public API of the actions stage.
 *
 * - `classifyTrace(trace)` -> `{ actions: ActionRow[], blocks }`: every completed trace yields at least one
 *   action (generic call_contract / ton_transfer / unknown when nothing matches).
 * - `toApiAction(row)` renders a row as the API v3 `Action` JSON (details per type).
 * - `traceFromToncenterJson(doc)` builds the trace model from toncenter's JSON layout;
 *   build `Trace` directly from decoder rows (see model.ts) for our own pipeline.
 */
export type { AccountInterfaces, ActionRow, Trace, TraceMessage, TraceNode, TraceTransaction } from './model.ts';
export { classifyTrace, type Classification, type ClassifyOptions } from './classify.ts';
export { toApiAction, actionDetails, toJson, type ApiAction } from './api.ts';
export { traceFromToncenterJson, parseJsonExact, TraceFormatError } from './adapters/toncenter-json.ts';
export { FAMILIES } from './families/index.ts';
export type { Family } from './family.ts';
