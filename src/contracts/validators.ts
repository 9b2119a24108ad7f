/**
 * Elector messages and the validator-set config params, as ton-indexer v1.3's worker reads them
 * (ton-index-worker/tondb-scanner/src/StakingEventProcessor.h, `parse_validator_event`, `fill_validator_cycle_params`,
 * `parse_validator_cycle`). Pure: cells in, records out.
 */
import type { Cell, Slice } from '@ton/core';
import { loadValidatorSet } from '../proofs/index.ts';

/** elector-code.fc opcodes (the worker's ELECTOR_* constants). */
export const ELECTOR_OP = {
  newStake: 0x4e73744b,
  newStakeOk: 0xf374484c,
  newStakeError: 0xee6f454c,
  recoverStake: 0x47657424,
  recoverStakeOk: 0xf96f7324,
  recoverStakeError: 0xfffffffe,
  /** the config contract's answers to the elector's validator set (the worker's ELECTOR_CONFIG_SET_OK / _ERROR) */
  configSetOk: 0xee764f4b,
  configSetError: 0xee764f6f,
  newComplaint: 0x52674370,
  voteComplaint: 0x56744370,
} as const;

/** The elector keeps 1 TON of each stake (process_new_stake): the worker reports value - 1 TON, at least 0. */
export const ELECTOR_STAKE_FEE = 1_000_000_000n;

/** op:uint32 query_id:uint64 of a body of at least 96 bits; null for shorter ones. */
export function opAndQuery(s: Slice): { op: number; queryId: bigint } | null {
  if (s.remainingBits < 96) return null;
  return { op: s.loadUint(32), queryId: s.loadUintBig(64) };
}

/**
 * The rest of new_stake after op and query id: `validator_pubkey:bits256 stake_at:uint32 max_factor:uint32
 * adnl_addr:bits256 ^signature`; null when the bits are too few (the worker's "Invalid elector new_stake body").
 * Keys and ADNL addresses in upper-case hex, as the worker's `to_hex()` prints them.
 */
export function parseNewStakeRest(s: Slice): { pubkey: string; stakeAt: number; adnl: string } | null {
  if (s.remainingBits < 256 + 32 + 32 + 256) return null;
  const pubkey = s.loadBuffer(32).toString('hex').toUpperCase();
  const stakeAt = s.loadUint(32);
  s.skip(32);
  const adnl = s.loadBuffer(32).toString('hex').toUpperCase();
  return { pubkey, stakeAt, adnl };
}

/** Validation parameters of a cycle (config params 15, 16, 17); zero where a param is absent or does not unpack, as the worker. */
export interface CycleParams {
  validators_elected_for: number;
  elections_start_before: number;
  elections_end_before: number;
  stake_held_for: number;
  max_validators: number;
  max_main_validators: number;
  min_validators: number;
  min_stake: bigint;
  max_stake: bigint;
  min_total_stake: bigint;
  max_stake_factor: number;
}

/** A cell read whole by `read`, or null when it does not (the generated unpackers' `cell_unpack`: every bit, every ref). */
function whole<T>(c: Cell | null, read: (s: Slice) => T): T | null {
  if (!c) return null;
  try {
    const s = c.beginParse();
    const v = read(s);
    return s.remainingBits === 0 && s.remainingRefs === 0 ? v : null;
  } catch {
    return null;
  }
}

export function cycleParams(param: (id: number) => Cell | null): CycleParams {
  // _ validators_elected_for:uint32 elections_start_before:uint32 elections_end_before:uint32 stake_held_for:uint32 = ConfigParam 15;
  const p15 = whole(param(15), (s) => [s.loadUint(32), s.loadUint(32), s.loadUint(32), s.loadUint(32)]);
  // _ max_validators:(## 16) max_main_validators:(## 16) min_validators:(## 16)
  //   { max_validators >= max_main_validators } { max_main_validators >= min_validators } { min_validators >= 1 } = ConfigParam 16;
  const p16 = whole(param(16), (s) => {
    const v = [s.loadUint(16), s.loadUint(16), s.loadUint(16)];
    if (!(v[0] >= v[1] && v[1] >= v[2] && v[2] >= 1)) throw new Error('ConfigParam 16 constraints');
    return v;
  });
  // _ min_stake:Grams max_stake:Grams min_total_stake:Grams max_stake_factor:uint32 = ConfigParam 17;
  const p17 = whole(param(17), (s) => ({ min: s.loadCoins(), max: s.loadCoins(), total: s.loadCoins(), factor: s.loadUint(32) }));
  return {
    validators_elected_for: p15?.[0] ?? 0,
    elections_start_before: p15?.[1] ?? 0,
    elections_end_before: p15?.[2] ?? 0,
    stake_held_for: p15?.[3] ?? 0,
    max_validators: p16?.[0] ?? 0,
    max_main_validators: p16?.[1] ?? 0,
    min_validators: p16?.[2] ?? 0,
    min_stake: p17?.min ?? 0n,
    max_stake: p17?.max ?? 0n,
    min_total_stake: p17?.total ?? 0n,
    max_stake_factor: p17?.factor ?? 0,
  };
}

export interface ValidatorCycleSet {
  utime_since: number;
  utime_until: number;
  total: number;
  main: number;
  total_weight: bigint;
  /** in validator index order: public key and ADNL address upper-case hex (zeros for validator#53, which has none) */
  members: { pubkey: string; adnl: string; weight: bigint }[];
}

/** A validator set (config 32 / 34 / 36); throws when the cell is not one. */
export function readValidatorSet(c: Cell): ValidatorCycleSet {
  const v = loadValidatorSet(c);
  return {
    utime_since: v.utimeSince,
    utime_until: v.utimeUntil,
    total: v.total,
    main: v.main,
    total_weight: v.totalWeight,
    members: v.list.map((d) => ({
      pubkey: d.publicKey.toString('hex').toUpperCase(),
      adnl: (d.adnlAddr ?? Buffer.alloc(32)).toString('hex').toUpperCase(),
      weight: d.weight,
    })),
  };
}
