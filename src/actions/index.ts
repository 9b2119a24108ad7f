/**
 * Public API of the actions stage (a port of toncenter's classifier; see README.md and PORTING.md).
 *
 * - `classifyTrace(trace)` -> `{ actions: ActionRow[], blocks, state }`: every trace but a lone tick-tock yields
 *   at least one action (the basic blocks' or `unknown` when nothing matched or matching failed).
 * - `toApiAction(row)` renders a row as the API v3 `Action` JSON (details per type, as toncenter's Go API).
 * - `traceFromToncenterJson(doc)` builds the trace model from toncenter's JSON layout;
 *   build `Trace` directly from decoder rows (src/traces/to-trace.ts) for our own pipeline.
 */
export type { AccountInterfaces, AccountStateSnapshot, ActionRow, Trace, TraceMessage, TraceTransaction } from './model.ts';
export { classifyTrace, type Classification } from './classify.ts';
export { actionDetails, toJson } from './details.ts';
export { actionRows } from './action-rows.ts';
export { actionAddresses, renderAction, toApiAction, type ApiAction } from './render.ts';
export { ACTION_TYPES, actionTypesOf, expandActionTypes, RENAMED_BLOCK_TYPES, type ActionType, type ActionTypeVersion, type RenamedBlockType } from './action-types.ts';
export { traceFromToncenterJson, parseJsonExact, TraceFormatError } from './adapters/toncenter-json.ts';
export { MATCHER_ORDER } from './matcher-order.ts';
export { FAMILY_MATCHERS } from './families/index.ts';
export { DedustPoolList, fetchDedustPools, initDedustPools, refreshDedustPools, UPDATE_INTERVAL_S, type DedustPoolAssets } from './dedust-pools.ts';
export { DATA_BOC_REQUEST_OPCODES } from './address-selectors.ts';
export { poolLockWallet } from './families/jvault.ts';
export { addrStr } from './messages/common.ts';
