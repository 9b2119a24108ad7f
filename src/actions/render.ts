/**
 * A stored action row (action-rows.ts writes it to `actions`; API v3 reads it back) -> the API v3 `Action`, as
 * toncenter's Go API renders its rows: hashes as standard base64, lt as decimal strings, the `details` rendered
 * at write time (api.ts), `call_contract` / `ton_transfer` carrying extra currencies renamed
 * `extra_currency_transfer`. The one renderer: API v3 serves it, and `toApiAction` renders a classified action
 * through the same stored row.
 */
import { hashToBase64 } from '../format/index.ts';
import type { Row } from '../util/index.ts';
import { actionRows } from './action-rows.ts';
import type { ActionRow } from './model.ts';

export interface ApiAction {
  trace_id: string | null;
  action_id: string | null;
  start_lt: string | null;
  end_lt: string | null;
  start_utime: number | null;
  end_utime: number | null;
  trace_end_lt: string | null;
  trace_end_utime: number | null;
  trace_mc_seqno_end: number | null;
  transactions: string[];
  success: boolean | null;
  type: string;
  details: Record<string, unknown>;
  finality: 'finalized';
  /** newer upstream: the gasless_request action this one comes straight from (left out otherwise) */
  parent_gasless_action?: string;
  trace_external_hash?: string;
  trace_external_hash_norm?: string;
  accounts?: string[];
  transactions_full?: unknown[];
}

/** A stored hash (64 hex digits) in standard base64; anything else is null. */
function b64(h: unknown): string | null {
  return typeof h === 'string' && h.length === 64 && !/[^0-9a-fA-F]/.test(h) ? hashToBase64(h) : null;
}
const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** The stored `details` JSON text as an object ({} when it is not one). */
function storedDetails(v: unknown): Record<string, unknown> {
  try {
    const d = JSON.parse(String(v || '{}')) as unknown;
    return d && typeof d === 'object' && !Array.isArray(d) ? (d as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * One stored `actions` row as API v3 serves it. `accounts`: the action's accounts (from `action_accounts`);
 * `transactionsFull`: the rendered transactions of `include_transactions`.
 */
export function renderAction(r: Row, opts: { accounts?: string[]; transactionsFull?: unknown[] } = {}): ApiAction {
  const extraCur = r.value_extra_currencies && Object.keys(r.value_extra_currencies as object).length > 0;
  const type = (r.type === 'ton_transfer' || r.type === 'call_contract') && extraCur ? 'extra_currency_transfer' : String(r.type);
  const o: ApiAction = {
    trace_id: b64(r.trace_id),
    action_id: b64(r.action_id),
    start_lt: str(r.start_lt),
    end_lt: str(r.end_lt),
    start_utime: num(r.start_utime),
    end_utime: num(r.end_utime),
    trace_end_lt: str(r.trace_end_lt),
    trace_end_utime: num(r.trace_end_utime),
    trace_mc_seqno_end: num(r.trace_mc_seqno_end),
    transactions: ((r.tx_hashes as string[]) ?? []).map((h) => b64(h)!),
    success: r.success === null || r.success === undefined ? null : Boolean(r.success),
    type,
    details: storedDetails(r.details),
    finality: 'finalized',
  };
  const gasless = b64(r.parent_gasless_action);
  if (gasless) o.parent_gasless_action = gasless;
  const eh = b64(r.trace_external_hash);
  if (eh) o.trace_external_hash = eh;
  const ehn = b64(r.trace_external_hash_norm);
  if (ehn) o.trace_external_hash_norm = ehn;
  if (opts.accounts) o.accounts = opts.accounts;
  if (opts.transactionsFull) o.transactions_full = opts.transactionsFull;
  return o;
}

/** Addresses a stored action names (address_book / metadata keys). */
export function actionAddresses(r: Row): string[] {
  return ['source', 'source_secondary', 'destination', 'destination_secondary', 'asset', 'asset_secondary', 'asset2', 'asset2_secondary']
    .map((k) => r[k])
    .filter((v): v is string => typeof v === 'string');
}

/** A classified action as API v3 serves it: its stored row (what the traces stage writes), rendered. */
export function toApiAction(r: ActionRow, opts: { includeAccounts?: boolean } = {}): ApiAction {
  return renderAction(actionRows(r).action, opts.includeAccounts ? { accounts: [...r.accounts] } : {});
}
