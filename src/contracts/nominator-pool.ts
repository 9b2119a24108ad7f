/**
 * The official nominator pool's data (ton-blockchain/nominator-pool, code hash 9a3ec14b…), read as ton-indexer v1.3's
 * worker reads it (ton-index-worker/tondb-scanner/src/smc-interfaces/NominatorPool.cpp `parse_storage`, the
 * `NominatorPoolStorage` scheme of tokens.tlb). Pure: the data cell in, a record out.
 *
 *   nominator_pool_storage#_ state:uint8 nominators_count:uint16 stake_amount_sent:Grams validator_amount:Grams
 *     config:^NominatorPoolConfig nominators:(HashmapE 256 Nominator) withdraw_requests:(HashmapE 256 Unit)
 *     stake_at:uint32 saved_validator_set_hash:uint256 validator_set_changes_count:uint8
 *     validator_set_change_time:uint32 stake_held_for:uint32
 *     config_proposal_votings:(HashmapE 256 NominatorPoolProposalVotes) = NominatorPoolStorage;
 *   config#_ validator_address:uint256 validator_reward_share:uint16 max_nominators_count:uint16
 *     min_validator_stake:Grams min_nominator_stake:Grams = NominatorPoolConfig;
 *   nominator#_ amount:Grams pending_deposit_amount:Grams = Nominator;
 */
import { Dictionary, type Cell, type Slice } from '@ton/core';

/** The worker's nominator_pool::CODE_HASH (lower-case hex). */
export const NOMINATOR_POOL_CODE_HASH_HEX = '9a3ec14bc098f6b44064c305222caea2800f17dda85ee6a8198a7095ede10dcf';

/** The worker's NOMINATOR_POOL_VALIDATOR_DEPOSIT / _WITHDRAWAL (the validator's ops to its pool). */
export const NOMINATOR_POOL_OP = { validatorDeposit: 4, validatorWithdrawal: 5 } as const;

export interface PoolNominator {
  /** raw `0:HEX` (upper-case): the worker's nominator addresses are workchain 0 */
  address: string;
  amount: bigint;
  pendingDepositAmount: bigint;
}

export interface NominatorPoolStorage {
  state: number;
  nominatorsCount: number;
  stakeAmountSent: bigint;
  validatorAmount: bigint;
  stakeAt: number;
  /** raw `-1:HEX` (upper-case) */
  validatorAddress: string;
  validatorRewardShare: number;
  maxNominatorsCount: number;
  minValidatorStake: bigint;
  minNominatorStake: bigint;
  /** in key order, as the worker's dictionary walk lists them */
  nominators: PoolNominator[];
  /** raw `0:HEX` of the nominators that asked to withdraw */
  withdrawRequests: string[];
}

const hex256 = (k: bigint) => k.toString(16).padStart(64, '0').toUpperCase();

/** A HashmapE 256's keys and values in key order (the worker's `vm::Dictionary` iteration). */
function dictEntries(root: Cell | null): { key: bigint; value: Slice }[] {
  if (!root) return [];
  const d = Dictionary.loadDirect(Dictionary.Keys.BigUint(256), { serialize: () => undefined, parse: (s: Slice) => s }, root);
  return [...d.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map((key) => ({ key, value: d.get(key)! }));
}

/**
 * `parse_storage`: throws where the worker's returns an error (the storage or its config does not unpack); a
 * nominator entry whose balances do not parse is skipped, as the worker skips it.
 */
export function parseNominatorPoolStorage(data: Cell): NominatorPoolStorage {
  const s = data.beginParse();
  const state = s.loadUint(8);
  const nominatorsCount = s.loadUint(16);
  const stakeAmountSent = s.loadCoins();
  const validatorAmount = s.loadCoins();
  const configCell = s.loadRef();
  const nominatorsRoot = s.loadMaybeRef();
  const withdrawRoot = s.loadMaybeRef();
  const stakeAt = s.loadUint(32);
  s.skip(256 + 8 + 32 + 32);
  s.loadMaybeRef(); // config_proposal_votings
  // cell_unpack: the whole cell, nothing left
  if (s.remainingBits !== 0 || s.remainingRefs !== 0) throw new Error('Failed to unpack NominatorPoolStorage');
  const c = configCell.beginParse();
  const validatorAddress = hex256(c.loadUintBig(256));
  const validatorRewardShare = c.loadUint(16);
  const maxNominatorsCount = c.loadUint(16);
  const minValidatorStake = c.loadCoins();
  const minNominatorStake = c.loadCoins();
  if (c.remainingBits !== 0 || c.remainingRefs !== 0) throw new Error('Failed to unpack NominatorPoolConfig');
  const nominators: PoolNominator[] = [];
  for (const { key, value } of dictEntries(nominatorsRoot)) {
    try {
      const amount = value.loadCoins();
      const pendingDepositAmount = value.loadCoins();
      nominators.push({ address: `0:${hex256(key)}`, amount, pendingDepositAmount });
    } catch {
      // "failed to unpack nominator pool entry": skipped
    }
  }
  const withdrawRequests = dictEntries(withdrawRoot).map(({ key }) => `0:${hex256(key)}`);
  return {
    state, nominatorsCount, stakeAmountSent, validatorAmount, stakeAt, validatorAddress: `-1:${validatorAddress}`, validatorRewardShare,
    maxNominatorsCount, minValidatorStake, minNominatorStake, nominators, withdrawRequests,
  };
}
