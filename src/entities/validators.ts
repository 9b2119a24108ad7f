/**
 * Validator events and cycles (API v3 validators/events, validators/cycles; ton-indexer v1.3's worker,
 * StakingEventProcessor.h), from what a block carries:
 * - events (`parse_validator_event`): a new_stake the elector accepted or rejected (its answer in the same transaction,
 *   matched by query id; a query id 0 without an answer counts as accepted), a recover_stake request, and the
 *   elector's recover answers, each from a transaction whose compute phase succeeded;
 * - cycles (`parse_validator_cycle`, `fill_validator_cycle_params`), on key blocks: the validator sets of config 34,
 *   36 and 32 (the first of each utime_since), with config 15 / 16 / 17 of the same block.
 * What the elector's whole data gives (a cycle's election_id and total_stake, a member's stake, elections and their
 * participants, complaints) is elector.ts's: its get-methods on its state from a liteserver.
 */
import { Cell, type Slice } from '@ton/core';
import { cycleParams, ELECTOR_OP, ELECTOR_STAKE_FEE, opAndQuery, parseNewStakeRest, readValidatorSet } from '../contracts/index.ts';
import type { Row } from '../util/index.ts';
import type { BlockConfig, MessageRow, TransactionRow } from '../ton/index.ts';

function bodyOf(m: MessageRow | null | undefined): Slice | null {
  if (!m?.body_boc) return null;
  try {
    return Cell.fromBase64(m.body_boc).beginParse();
  } catch {
    return null;
  }
}

/** An ordinary or tick-tock transaction, not aborted, whose VM compute phase succeeded (the worker's transaction_compute_success). */
function computeSucceeded(tx: TransactionRow): boolean {
  const d = tx.description;
  if (d.type !== 'ord' && d.type !== 'tick_tock') return false;
  return d.aborted !== true && d.compute_ph?.skipped === false && d.compute_ph.success === true;
}

interface EventFields {
  event_type: 'stake_accepted' | 'stake_rejected' | 'recover_requested' | 'stake_recovered' | 'recover_failed';
  stake_holder_address: string;
  validator_pubkey: string | null;
  adnl_addr: string | null;
  election_id: number | null;
  query_id: bigint | null;
  amount: bigint;
  reason: number | null;
}

/** The transaction's validator event, if any (`elector`: config param 1, raw). */
export function validatorEventOf(tx: TransactionRow, elector: string): EventFields | null {
  const msg = tx.in_msg;
  const body = bodyOf(msg);
  if (!msg || !body || msg.source === null) return null;
  const head = opAndQuery(body);
  if (!head) return null;
  if (!computeSucceeded(tx)) return null;
  const value = msg.value ?? 0n;
  const source = msg.source;
  if (tx.account === elector && head.op === ELECTOR_OP.newStake) {
    const rest = parseNewStakeRest(body);
    if (!rest) return null;
    const stake = value > ELECTOR_STAKE_FEE ? value - ELECTOR_STAKE_FEE : 0n;
    for (const out of tx.out_msgs) {
      const ob = bodyOf(out);
      const oh = ob && opAndQuery(ob);
      if (!oh || (oh.op !== ELECTOR_OP.newStakeOk && oh.op !== ELECTOR_OP.newStakeError) || oh.queryId !== head.queryId) continue;
      const accepted = oh.op === ELECTOR_OP.newStakeOk;
      const reason = !accepted && ob.remainingBits >= 32 ? ob.loadInt(32) : null;
      return {
        event_type: accepted ? 'stake_accepted' : 'stake_rejected', stake_holder_address: source, validator_pubkey: rest.pubkey, adnl_addr: rest.adnl,
        election_id: rest.stakeAt, query_id: oh.queryId, amount: accepted ? stake : (out.value ?? 0n), reason,
      };
    }
    if (head.queryId !== 0n) return null;
    return { event_type: 'stake_accepted', stake_holder_address: source, validator_pubkey: rest.pubkey, adnl_addr: rest.adnl, election_id: rest.stakeAt, query_id: 0n, amount: stake, reason: null };
  }
  const plain = (event_type: EventFields['event_type'], holder: string): EventFields => ({
    event_type, stake_holder_address: holder, validator_pubkey: null, adnl_addr: null, election_id: null, query_id: head.queryId, amount: value, reason: null,
  });
  if (tx.account === elector && head.op === ELECTOR_OP.recoverStake) return plain('recover_requested', source);
  if (source !== elector) return null;
  if (head.op === ELECTOR_OP.recoverStakeOk) return plain('stake_recovered', tx.account);
  if (head.op === ELECTOR_OP.recoverStakeError) return plain('recover_failed', tx.account);
  return null;
}

/** validator_events rows of a batch's transactions. */
export function validatorEventRows(txs: readonly { tx: TransactionRow; mcSeqno: number }[], elector: string | null): Row[] {
  if (!elector) return [];
  const rows: Row[] = [];
  for (const { tx, mcSeqno } of txs) {
    const e = validatorEventOf(tx, elector);
    if (e) rows.push({ tx_hash: tx.hash, tx_lt: tx.lt, tx_now: tx.now, mc_seqno: mcSeqno, ...e });
  }
  return rows;
}

/** A config param cell of a key block (null: absent or not readable). */
export function blockConfigParam(config: BlockConfig, id: number): Cell | null {
  const p = config.params.find((x) => x.id === id);
  if (!p) return null;
  try {
    return Cell.fromBase64(p.boc);
  } catch {
    return null;
  }
}

/**
 * validator_cycles and validator_cycle_members rows of a key block: one snapshot per validator set (34, 36, 32; the
 * first of each utime_since), tagged with the block's seqno (`source_mc_seqno`), as the worker writes them.
 */
export function validatorCycleRows(param: (id: number) => Cell | null, mcSeqno: number): { cycles: Row[]; members: Row[] } {
  const cycles: Row[] = [];
  const members: Row[] = [];
  const seen = new Set<number>();
  const params = cycleParams(param);
  for (const id of [34, 36, 32]) {
    const c = param(id);
    if (!c) continue;
    let set;
    try {
      set = readValidatorSet(c);
    } catch {
      continue; // the worker logs "Failed to parse validator cycle config" and goes on
    }
    if (seen.has(set.utime_since)) continue;
    seen.add(set.utime_since);
    cycles.push({
      utime_since: set.utime_since, utime_until: set.utime_until, total: set.total, main: set.main, total_weight: set.total_weight,
      election_id: null, total_stake: null, source_mc_seqno: mcSeqno, ...params,
    });
    set.members.forEach((m, i) => {
      members.push({ utime_since: set.utime_since, validator_index: i, validator_pubkey: m.pubkey, adnl_addr: m.adnl, weight: m.weight, stake: null, source_mc_seqno: mcSeqno });
    });
  }
  return { cycles, members };
}

/** The elector's address a key block's config names (param 1), raw; null when absent. */
export function electorOf(config: BlockConfig): string | null {
  return config.elector_address;
}

