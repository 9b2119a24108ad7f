/**
 * Action rows -> rows of the `actions` and `action_accounts` tables (clickhouse/0002_traces_entities.sql): what the
 * traces stage writes, and what API v3 reads back and renders (api.ts renderAction). Pure.
 */
import { parseHash } from '../format/index.ts';
import { actionDetails, toJson } from './details.ts';
import type { Row } from '../util/index.ts';
import type { ActionRow } from './model.ts';

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
    parent_gasless_action: a.parent_gasless_action ? parseHash(a.parent_gasless_action, 'parent_gasless_action') : null,
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
