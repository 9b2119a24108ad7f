/**
 * An emulated trace against the trace the chain made of the same external message, transaction by transaction and
 * action by action, both in the store's row forms (documents and action rows). Pure.
 *
 * Transactions are matched by position in the tree: the roots by the external message (same hash), then each
 * transaction's out messages in order, the child of each being the transaction that consumed it. What cannot be
 * equal is not compared: the emulation runs in no block, so its lt, utime, block ids and what derives from them
 * differ (transaction and message hashes, prev_trans_*, state hashes, created_lt / created_at, the storage fee of
 * the seconds between, the balances after it, mc_block_seqno); everything the contracts decided is compared:
 * account, statuses, phases (compute success, exit code, gas used, skip reason; action result, messages created,
 * forward fees; bounce), and per out message its destination, value, opcode, body, init state, bounce flags.
 * Actions: same count and, in order, the same type, success and details but their transaction and lt / utime fields.
 */
import { parseTxDoc } from '../decode/index.ts';
import type { Row } from '../util/index.ts';

/** Transaction fields the contracts decide (TX_FIELDS, src/decode/docs.ts, less what time and place give). */
const TX_COMPARED = [
  'account', 'orig_status', 'end_status', 'descr', 'aborted', 'destroyed', 'credit_first', 'compute_skipped', 'skipped_reason',
  'compute_success', 'compute_msg_state_used', 'compute_account_activated', 'compute_gas_fees', 'compute_gas_used', 'compute_gas_limit',
  'compute_gas_credit', 'compute_mode', 'compute_exit_code', 'compute_exit_arg', 'compute_vm_steps', 'action_success', 'action_valid',
  'action_no_funds', 'action_status_change', 'action_total_fwd_fees', 'action_total_action_fees', 'action_result_code', 'action_result_arg',
  'action_tot_actions', 'action_spec_actions', 'action_skipped_actions', 'action_msgs_created', 'action_tot_msg_size_cells',
  'action_tot_msg_size_bits', 'bounce', 'credit',
] as const;
/** Message fields the sender decided (MSG_FIELDS less hashes, created_lt / created_at). */
const MSG_COMPARED = ['message_type', 'source', 'destination', 'value', 'value_extra_currencies', 'fwd_fee', 'opcode', 'bounce', 'bounced', 'body_hash', 'init_state_hash'] as const;
/** Action row fields that name transactions, times or the trace (ActionRow, src/actions): the rest is compared. */
const ACTION_SKIPPED = new Set([
  'action_id', 'trace_id', 'tx_hashes', 'start_lt', 'end_lt', 'start_utime', 'end_utime', 'trace_end_lt', 'trace_end_utime', 'trace_mc_seqno_end',
  'mc_seqno_end', 'trace_external_hash', 'trace_external_hash_norm', 'parent_action_id', 'parent_gasless_action',
]);

export interface TraceComparison {
  equal: boolean;
  /** what differs, one line each (empty when equal) */
  differences: string[];
  /** transactions matched */
  matched: number;
}

interface Tx {
  tx: Row;
  inHash: string | null;
  outs: Row[];
}

function txsOf(docs: readonly string[]): Tx[] {
  return docs.map((text) => {
    const d = parseTxDoc(text);
    const inMsg = d.msgs.find((m) => m.direction === 'in') ?? null;
    const outs = d.msgs.filter((m) => m.direction === 'out').sort((a, b) => (BigInt(String(a.created_lt ?? 0)) < BigInt(String(b.created_lt ?? 0)) ? -1 : 1));
    return { tx: d.tx, inHash: inMsg ? String(inMsg.msg_hash) : null, outs };
  });
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Compares an emulated trace with the indexed one (documents of every transaction of each; actions as rows). */
export function compareTraces(
  emulated: { externalHash: string; docs: readonly string[]; actions: readonly { row: Row }[] },
  indexed: { docs: readonly string[]; actions: readonly { row: Row }[] },
): TraceComparison {
  const diffs: string[] = [];
  const e = txsOf(emulated.docs);
  const r = txsOf(indexed.docs);
  const rByIn = new Map(r.filter((t) => t.inHash).map((t) => [t.inHash!, t]));
  const eByIn = new Map(e.filter((t) => t.inHash).map((t) => [t.inHash!, t]));
  const ext = emulated.externalHash.toLowerCase();
  let matched = 0;
  const walk = (a: Tx | undefined, b: Tx | undefined, path: string) => {
    if (!a || !b) {
      diffs.push(`${path}: ${!a && !b ? 'in neither trace' : a ? 'emulated, not on chain' : 'on chain, not emulated'}`);
      return;
    }
    matched++;
    for (const f of TX_COMPARED) if (!same(a.tx[f], b.tx[f])) diffs.push(`${path}: ${f} ${JSON.stringify(a.tx[f])} emulated, ${JSON.stringify(b.tx[f])} on chain`);
    if (a.outs.length !== b.outs.length) {
      diffs.push(`${path}: ${a.outs.length} out messages emulated, ${b.outs.length} on chain`);
      return;
    }
    a.outs.forEach((m, i) => {
      const n = b.outs[i];
      for (const f of MSG_COMPARED) if (!same(m[f], n[f])) diffs.push(`${path}.out[${i}]: ${f} ${JSON.stringify(m[f])} emulated, ${JSON.stringify(n[f])} on chain`);
      if (m.message_type !== 'int') return;
      walk(eByIn.get(String(m.msg_hash)), rByIn.get(String(n.msg_hash)), `${path}.${i}`);
    });
  };
  walk(eByIn.get(ext), rByIn.get(ext), 'root');
  if (matched !== e.length) diffs.push(`${e.length - matched} emulated transactions are not in the emulated tree`);
  if (matched !== r.length) diffs.push(`${r.length} transactions on chain, ${matched} matched`);
  const ea = emulated.actions.map((a) => a.row);
  const ra = indexed.actions.map((a) => a.row);
  if (ea.length !== ra.length) diffs.push(`${ea.length} actions emulated, ${ra.length} on chain`);
  else {
    const order = (rows: Row[]) => [...rows].sort((x, y) => (String(x.type) < String(y.type) ? -1 : String(x.type) > String(y.type) ? 1 : 0));
    const [es, rs] = [order(ea), order(ra)];
    es.forEach((a, i) => {
      const b = rs[i];
      for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
        if (ACTION_SKIPPED.has(k)) continue;
        if (!same(a[k], b[k])) diffs.push(`action ${i} (${String(a.type)}): ${k} ${JSON.stringify(a[k])} emulated, ${JSON.stringify(b[k])} on chain`);
      }
    });
  }
  return { equal: diffs.length === 0, differences: diffs, matched };
}
