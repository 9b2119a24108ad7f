/**
 * Nominator pool events and the pool's row (API v3 staking/nominatorPools/*; ton-indexer v1.3's worker,
 * StakingEventProcessor.h `build_nominator_pool_events`, `build_nominator_pool_validator_event`,
 * `build_nominator_snapshots`, `is_recover_stake_ok`, and BlockInterfacesDetector's NominatorPoolData). Pure: the
 * pool's parsed storage before and after one of its transactions (nominator-pool-replay.ts reads them) in, rows out.
 */
import { Cell } from '@ton/core';
import { NOMINATOR_POOL_OP, type NominatorPoolStorage } from '../contracts/index.ts';
import type { Row } from '../util/index.ts';
import type { TransactionRow } from '../ton/index.ts';

/** The worker's nominator_pool::ELECTOR_ADDRESS and RECOVER_STAKE_OK_OPCODE (the reward / penalty message). */
const ELECTOR = '-1:3333333333333333333333333333333333333333333333333333333333333333';
const RECOVER_STAKE_OK = 0xf96f7324;

interface Snapshot {
  amount: bigint;
  pending: bigint;
  withdrawRequested: boolean;
}

const ZERO: Snapshot = { amount: 0n, pending: 0n, withdrawRequested: false };
const abs = (v: bigint) => (v < 0n ? -v : v);

/** `build_nominator_snapshots`: each nominator's balances and withdraw flag, keyed by raw address (ordered, as std::map). */
function snapshots(s: NominatorPoolStorage): Map<string, Snapshot> {
  const out = new Map<string, Snapshot>();
  for (const n of s.nominators) out.set(n.address, { amount: n.amount, pending: n.pendingDepositAmount, withdrawRequested: false });
  for (const a of s.withdrawRequests) out.set(a, { ...(out.get(a) ?? ZERO), withdrawRequested: true });
  return out;
}

function bodyOf(tx: TransactionRow): import('@ton/core').Slice | null {
  if (!tx.in_msg?.body_boc) return null;
  try {
    return Cell.fromBase64(tx.in_msg.body_boc).beginParse();
  } catch {
    return null;
  }
}

/** `is_recover_stake_ok`: the elector's recover_stake_ok with a value, run by an ordinary transaction that succeeded. */
export function isRecoverStakeOk(tx: TransactionRow): boolean {
  const b = bodyOf(tx);
  if (!b || b.remainingBits < 32 || b.preloadUint(32) !== RECOVER_STAKE_OK) return false;
  if (tx.in_msg?.source?.toUpperCase() !== ELECTOR) return false;
  if (tx.in_msg.value === null || tx.in_msg.value === undefined) return false;
  const d = tx.description;
  if (d.type !== 'ord' || d.aborted === true) return false;
  return d.compute_ph?.skipped === false && d.compute_ph.success === true;
}

/** `parse_nominator_pool_message_header`: op, and the query id when 64 more bits follow. */
function header(tx: TransactionRow): { op: number; queryId: bigint | null } | null {
  const b = bodyOf(tx);
  if (!b || b.remainingBits < 32) return null;
  const op = b.loadUint(32);
  return { op, queryId: b.remainingBits >= 64 ? b.loadUintBig(64) : null };
}

interface TxOf {
  tx: TransactionRow;
  mcSeqno: number;
  traceId: string | null;
}

/** `build_nominator_pool_events`: the nominators' deposits, withdrawals, requests, rewards and activations. */
export function nominatorPoolEventRows(t: TxOf, before: NominatorPoolStorage, after: NominatorPoolStorage): Row[] {
  const b = snapshots(before);
  const a = snapshots(after);
  // std::map keeps the nominators in address order; every nominator of the after-state is walked too
  const keys = [...new Set([...b.keys(), ...a.keys()])].sort();
  const reward = isRecoverStakeOk(t.tx);
  const rows: Row[] = [];
  const event = (nominator: string, type: string, amount: bigint, balanceDelta: bigint, pendingDelta: bigint, x: Snapshot, y: Snapshot) => {
    rows.push({
      tx_hash: t.tx.hash, tx_lt: t.tx.lt, tx_now: t.tx.now, mc_seqno: t.mcSeqno, trace_id: t.traceId, pool_address: t.tx.account.toUpperCase(),
      nominator_address: nominator, event_index: rows.length, event_type: type, amount, balance_delta: balanceDelta, pending_balance_delta: pendingDelta,
      balance_before: x.amount, balance_after: y.amount, pending_balance_before: x.pending, pending_balance_after: y.pending,
      withdraw_request_before: x.withdrawRequested, withdraw_request_after: y.withdrawRequested,
    });
  };
  for (const k of keys) {
    const x = b.get(k) ?? ZERO;
    const y = a.get(k) ?? ZERO;
    const balanceDelta = y.amount - x.amount;
    const pendingDelta = y.pending - x.pending;
    const total = balanceDelta + pendingDelta;
    if (reward) {
      // a reward / penalty lands in the balance; a pending deposit turning active is its own event after it
      const rewarded: Snapshot = { ...x, amount: x.amount + total };
      if (total !== 0n) event(k, 'reward', total, total, 0n, x, rewarded);
      if (pendingDelta < 0n) event(k, 'pending_deposit_activation', abs(pendingDelta), abs(pendingDelta), pendingDelta, rewarded, y);
    } else {
      if (total > 0n) event(k, 'deposit', total, balanceDelta, pendingDelta, x, y);
      else if (total < 0n) event(k, 'withdrawal', abs(total), balanceDelta, pendingDelta, x, y);
      if (!x.withdrawRequested && y.withdrawRequested) event(k, 'withdrawal_request', 0n, 0n, 0n, x, y);
    }
  }
  return rows;
}

/** `build_nominator_pool_validator_event`: the validator's reward / penalty, deposit or withdrawal; null when none. */
export function nominatorPoolValidatorEventRow(t: TxOf, before: NominatorPoolStorage, after: NominatorPoolStorage): Row | null {
  const delta = after.validatorAmount - before.validatorAmount;
  if (delta === 0n) return null;
  const reward = isRecoverStakeOk(t.tx);
  const h = header(t.tx);
  let type: string;
  if (reward) type = delta > 0n ? 'reward' : 'penalty';
  else if (h?.op === NOMINATOR_POOL_OP.validatorDeposit) type = 'deposit';
  else if (h?.op === NOMINATOR_POOL_OP.validatorWithdrawal) type = 'withdrawal';
  else return null;
  return {
    tx_hash: t.tx.hash, tx_lt: t.tx.lt, tx_now: t.tx.now, mc_seqno: t.mcSeqno, pool_address: t.tx.account.toUpperCase(),
    validator_address: before.validatorAddress, event_type: type, amount: abs(delta), balance_delta: delta,
    balance_before: before.validatorAmount, balance_after: after.validatorAmount, query_id: h?.queryId ?? null,
    cycle_start: reward && before.stakeAt !== 0 ? before.stakeAt : null, validator_reward_share: before.validatorRewardShare,
  };
}

/** The pool's `nominator_pools` row from its state at the end of a block (NominatorPoolData; active_nominators as the worker's JSON). */
export function nominatorPoolRow(address: string, s: NominatorPoolStorage, lastLt: bigint, codeHash: string, dataHash: string): Row {
  return {
    address: address.toUpperCase(), state: s.state, nominators_count: s.nominatorsCount, stake_amount_sent: s.stakeAmountSent, validator_amount: s.validatorAmount,
    validator_address: s.validatorAddress, validator_reward_share: s.validatorRewardShare, max_nominators_count: s.maxNominatorsCount,
    min_validator_stake: s.minValidatorStake, min_nominator_stake: s.minNominatorStake,
    active_nominators: JSON.stringify(s.nominators.map((n) => ({ address: n.address, balance: n.amount.toString(), pending_balance: n.pendingDepositAmount.toString() }))),
    nominator_addresses: s.nominators.map((n) => n.address),
    last_transaction_lt: lastLt, code_hash: codeHash.toLowerCase(), data_hash: dataHash.toLowerCase(),
  };
}
