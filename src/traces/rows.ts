/**
 * Traces and actions -> rows of the `traces`, `trace_transactions`, `actions` and `action_accounts` tables
 * (clickhouse/0002_traces_entities.sql). Pure; the stage inserts them.
 */
import { actionDetails, toJson, type ActionRow } from '../actions/index.ts';
import type { Row } from '../store/index.ts';
import { parseHash } from '../format/index.ts';
import type { TraceEdge } from './assembler.ts';

export interface TraceTables {
  traces: Row[];
  trace_transactions: Row[];
  actions: Row[];
  action_accounts: Row[];
}

export const TRACE_TABLES = ['trace_transactions', 'actions', 'action_accounts', 'traces'] as const;


export function traceTransactionRows(edges: TraceEdge[], accountOf: ReadonlyMap<string, { account: string; lt: bigint }>): Row[] {
  return edges.map((e) => {
    const tx = accountOf.get(e.tx_hash)!;
    return { trace_id: e.trace_id, lt: tx.lt, account: tx.account, hash: e.tx_hash };
  });
}

export function actionRows(a: ActionRow): { action: Row; accounts: Row[] } {
  // stored as lower-case hex like every hash; the classifier gives action ids in base64
  const id = parseHash(a.action_id, 'action_id');
  const action: Row = {
    trace_id: a.trace_id,
    action_id: id,
    type: a.type,
    start_lt: a.start_lt,
    end_lt: a.end_lt,
    start_utime: a.start_utime,
    end_utime: a.end_utime,
    trace_end_lt: a.trace_end_lt,
    trace_end_utime: a.trace_end_utime,
    trace_mc_seqno_end: a.trace_mc_seqno_end ?? a.mc_seqno_end ?? 0,
    trace_external_hash: a.trace_external_hash,
    trace_external_hash_norm: a.trace_external_hash_norm,
    tx_hashes: a.tx_hashes,
    success: a.success,
    source: a.source,
    source_secondary: a.source_secondary,
    destination: a.destination,
    destination_secondary: a.destination_secondary,
    asset: a.asset,
    asset_secondary: a.asset_secondary,
    asset2: a.asset2,
    asset2_secondary: a.asset2_secondary,
    opcode: a.opcode === null ? null : a.opcode | 0,
    value: a.value,
    amount: a.amount,
    value_extra_currencies: a.value_extra_currencies,
    parent_action_id: a.parent_action_id ? parseHash(a.parent_action_id, 'parent_action_id') : null,
    ancestor_type: a.ancestor_type,
    // API v3 `details` of the action's type (reference §4.3), rendered once here so reads only parse it
    details: JSON.stringify(toJson(actionDetails(a))),
  };
  const accounts = a.accounts.map((account) => ({
    account,
    trace_end_lt: a.trace_end_lt,
    trace_id: a.trace_id,
    action_end_lt: a.end_lt,
    action_id: id,
    trace_end_utime: a.trace_end_utime,
    action_end_utime: a.end_utime,
  }));
  return { action, accounts };
}
