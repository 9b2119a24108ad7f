/** Field-by-field comparison of decoded rows with @ton/core (the independent reference). */
import { Cell, loadTransaction, type Message, type Transaction } from '@ton/core';
import { expect } from 'vitest';
import type { MessageRow, TransactionRow } from '../../src/ton/index.ts';


function extra(d: { other?: { keys(): number[]; get(k: number): bigint | undefined } | null } | undefined): Record<string, bigint> | null {
  const o = d?.other;
  if (!o || o.keys().length === 0) return null;
  const r: Record<string, bigint> = {};
  for (const k of o.keys()) r[String(k)] = o.get(k)!;
  return r;
}

function rawOf(a: { workChain: number; hash: Buffer }): string {
  return `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;
}

function compareMessage(m: MessageRow, r: Message): void {
  const info = r.info;
  if (info.type === 'internal') {
    expect(m.message_type).toBe('int');
    expect(m.source).toBe(rawOf(info.src));
    expect(m.destination).toBe(rawOf(info.dest));
    expect(m.value).toBe(info.value.coins);
    expect(m.value_extra_currencies).toEqual(extra(info.value));
    // @ton/core reads the field after `value` as ihrFee; from global version 12 it is extra_flags (the other is 0)
    expect(m.ihr_fee! + m.extra_flags!).toBe(info.ihrFee);
    expect(m.ihr_fee === 0n || m.extra_flags === 0n).toBe(true);
    expect(m.fwd_fee).toBe(info.forwardFee);
    expect(m.created_lt).toBe(info.createdLt);
    expect(m.created_at).toBe(info.createdAt);
    expect(m.bounce).toBe(info.bounce);
    expect(m.bounced).toBe(info.bounced);
    expect(m.ihr_disabled).toBe(info.ihrDisabled);
    expect(m.import_fee).toBeNull();
  } else if (info.type === 'external-in') {
    expect(m.message_type).toBe('ext_in');
    expect(m.source).toBeNull();
    expect(m.destination).toBe(rawOf(info.dest));
    expect(m.import_fee).toBe(info.importFee);
    expect([m.ihr_fee, m.extra_flags]).toEqual([null, null]);
    expect(m.source_external).toBe(info.src ? `${info.src.bits}:${info.src.value.toString(16).toUpperCase().padStart(Math.ceil(info.src.bits / 8) * 2, '0')}` : null);
    expect(m.hash_norm).toMatch(/^[0-9a-f]{64}$/);
  } else {
    expect(m.message_type).toBe('ext_out');
    expect(m.source).toBe(rawOf(info.src));
    expect(m.destination).toBeNull();
    expect([m.ihr_fee, m.extra_flags]).toEqual([null, null]);
    expect(m.created_lt).toBe(info.createdLt);
    expect(m.created_at).toBe(info.createdAt);
  }
  expect(m.body_hash).toBe(r.body.hash().toString('hex'));
  expect(Cell.fromBase64(m.body_boc).hash().toString('hex')).toBe(m.body_hash);
  const bs = r.body.beginParse(true);
  expect(m.opcode).toBe(bs.remainingBits >= 32 ? bs.loadInt(32) : null);
  if (r.init) {
    expect(m.init_state_hash).toMatch(/^[0-9a-f]{64}$/);
    const init = Cell.fromBase64(m.init_state_boc!);
    expect(init.hash().toString('hex')).toBe(m.init_state_hash);
    expect(init.refs.length).toBe((r.init.code ? 1 : 0) + (r.init.data ? 1 : 0) + (r.init.libraries && r.init.libraries.size > 0 ? 1 : 0));
    if (r.init.code) expect(init.refs[0].hash().equals(r.init.code.hash())).toBe(true);
  } else {
    expect(m.init_state_hash).toBeNull();
  }
}

const STATUS: Record<string, string> = { uninitialized: 'uninit', frozen: 'frozen', active: 'active', 'non-existing': 'nonexist' };
const SKIP: Record<string, string> = { 'no-state': 'no_state', 'bad-state': 'bad_state', 'no-gas': 'no_gas' };
const BOUNCE: Record<string, string> = { 'negative-funds': 'negfunds', 'no-funds': 'nofunds', ok: 'ok' };
const DESCR: Record<string, string> = {
  generic: 'ord',
  storage: 'storage',
  'tick-tock': 'tick_tock',
  'split-prepare': 'split_prepare',
  'split-install': 'split_install',
  'merge-prepare': 'merge_prepare',
  'merge-install': 'merge_install',
};

/** Compare one decoded transaction with @ton/core's loadTransaction of the same cell. */
export function compareWithTonCore(t: TransactionRow, txCell: Cell): void {
  const r: Transaction = loadTransaction(txCell.beginParse());
  expect(t.hash).toBe(txCell.hash().toString('hex'));
  expect(t.account.split(':')[1]).toBe(r.address.toString(16).toUpperCase().padStart(64, '0'));
  expect(t.lt).toBe(r.lt);
  expect(t.now).toBe(r.now);
  expect(t.prev_trans_hash).toBe(r.prevTransactionHash.toString(16).padStart(64, '0'));
  expect(t.prev_trans_lt).toBe(r.prevTransactionLt);
  expect(t.outmsg_cnt).toBe(r.outMessagesCount);
  expect(t.orig_status).toBe(STATUS[r.oldStatus]);
  expect(t.end_status).toBe(STATUS[r.endStatus]);
  expect(t.total_fees).toBe(r.totalFees.coins);
  expect(t.total_fees_extra_currencies).toEqual(extra(r.totalFees));
  expect(t.account_state_hash_before).toBe(r.stateUpdate.oldHash.toString('hex'));
  expect(t.account_state_hash_after).toBe(r.stateUpdate.newHash.toString('hex'));
  // messages
  if (r.inMessage) {
    expect(t.in_msg).not.toBeNull();
    expect(t.in_msg!.msg_hash).toBe(txCell.refs[0].refs[0].hash().toString('hex'));
    compareMessage(t.in_msg!, r.inMessage);
  } else {
    expect(t.in_msg).toBeNull();
  }
  const outs = r.outMessages.keys().sort((a, b) => a - b).map((k) => r.outMessages.get(k)!);
  expect(t.out_msgs.length).toBe(outs.length);
  t.out_msgs.forEach((m, i) => compareMessage(m, outs[i]));
  // description
  const d = t.description;
  const rd = r.description;
  expect(d.type).toBe(DESCR[rd.type]);
  const cmpStorage = (a: TransactionRow['description']['storage_ph'], b: { storageFeesCollected: bigint; storageFeesDue?: bigint | null; statusChange: string } | null | undefined) => {
    if (!b) return expect(a).toBeUndefined();
    expect(a).toEqual({ storage_fees_collected: b.storageFeesCollected, storage_fees_due: b.storageFeesDue ?? null, status_change: b.statusChange });
  };
  if ('storagePhase' in rd) cmpStorage(d.storage_ph, rd.storagePhase);
  if ('creditPhase' in rd) {
    if (!rd.creditPhase) expect(d.credit_ph).toBeUndefined();
    else expect(d.credit_ph).toEqual({ due_fees_collected: rd.creditPhase.dueFeesColelcted ?? null, credit: rd.creditPhase.credit.coins, credit_extra_currencies: extra(rd.creditPhase.credit) });
  }
  if ('computePhase' in rd) {
    const c = rd.computePhase;
    if (c.type === 'skipped') {
      expect(d.compute_ph).toEqual({ skipped: true, reason: SKIP[c.reason] });
    } else {
      expect(d.compute_ph).toEqual({
        skipped: false,
        success: c.success,
        msg_state_used: c.messageStateUsed,
        account_activated: c.accountActivated,
        gas_fees: c.gasFees,
        gas_used: c.gasUsed,
        gas_limit: c.gasLimit,
        gas_credit: c.gasCredit ?? null,
        mode: c.mode,
        exit_code: c.exitCode,
        exit_arg: c.exitArg ?? null,
        vm_steps: c.vmSteps,
        vm_init_state_hash: c.vmInitStateHash.toString(16).padStart(64, '0'),
        vm_final_state_hash: c.vmFinalStateHash.toString(16).padStart(64, '0'),
      });
    }
  }
  if ('actionPhase' in rd) {
    const a = rd.actionPhase;
    if (!a) expect(d.action).toBeUndefined();
    else
      expect(d.action).toEqual({
        success: a.success,
        valid: a.valid,
        no_funds: a.noFunds,
        status_change: a.statusChange,
        total_fwd_fees: a.totalFwdFees ?? null,
        total_action_fees: a.totalActionFees ?? null,
        result_code: a.resultCode,
        result_arg: a.resultArg ?? null,
        tot_actions: a.totalActions,
        spec_actions: a.specActions,
        skipped_actions: a.skippedActions,
        msgs_created: a.messagesCreated,
        action_list_hash: a.actionListHash.toString(16).padStart(64, '0'),
        tot_msg_size: { cells: a.totalMessageSize.cells, bits: a.totalMessageSize.bits },
      });
  }
  if ('bouncePhase' in rd) {
    const b = rd.bouncePhase;
    if (!b) expect(d.bounce).toBeUndefined();
    else if (b.type === 'negative-funds') expect(d.bounce).toEqual({ type: 'negfunds' });
    else if (b.type === 'no-funds') expect(d.bounce).toEqual({ type: BOUNCE[b.type], msg_size: { cells: b.messageSize.cells, bits: b.messageSize.bits }, req_fwd_fees: b.requiredForwardFees });
    else expect(d.bounce).toEqual({ type: 'ok', msg_size: { cells: b.messageSize.cells, bits: b.messageSize.bits }, msg_fees: b.messageFees, fwd_fees: b.forwardFees });
  }
  if ('aborted' in rd) expect(d.aborted).toBe(rd.aborted);
  if ('destroyed' in rd) expect(d.destroyed).toBe(rd.destroyed);
  if ('creditFirst' in rd) expect(d.credit_first).toBe(rd.creditFirst);
  if ('isTock' in rd) expect(d.is_tock).toBe(rd.isTock);
  if ('installed' in rd) expect(d.installed).toBe(rd.installed);
}

