/** API v3 staking/nominatorPools/* responses (ton-index-go v1.3 models/staking.go). */
import { z } from 'zod';
import { AddressBook } from './entities.ts';

const s = z.string();
const n = z.number();
const b = z.boolean();

export const NominatorPoolInfo = z.object({
  stake_amount_sent: s, validator_amount: s, validator_address: s, validator_reward_share: n, state: n, nominators_count: n,
  max_nominators_count: n, min_validator_stake: s, min_nominator_stake: s,
  active_nominators: z.array(z.object({ address: s, balance: s, pending_balance: s })), address_book: AddressBook,
});
export const NominatorPoolsResponse = z.object({ nominator_pools: z.array(z.object({ pool_address: s, balance: s, pending_balance: s })), address_book: AddressBook });
export const NominatorPoolEventsResponse = z.object({
  start_utime: n.optional(), end_utime: n.optional(),
  events: z.array(z.object({
    tx_hash: s, tx_lt: s, utime: n, pool_address: s, nominator_address: s, type: s, amount: s, balance_delta: s, pending_balance_delta: s,
    balance_before: s, balance_after: s, pending_balance_before: s, pending_balance_after: s, withdraw_request_before: b, withdraw_request_after: b,
  })),
  address_book: AddressBook,
});
export const NominatorRewardsResponse = z.object({
  start_utime: n.optional(), end_utime: n.optional(), total_on_page: s,
  rewards: z.array(z.object({ utime: n, reward: s, stake_before: s, tx_hash: s, tx_lt: s })), address_book: AddressBook,
});
export const NominatorPoolValidatorEventsResponse = z.object({
  start_utime: n.optional(), end_utime: n.optional(),
  events: z.array(z.object({
    tx_hash: s, tx_lt: s, utime: n, pool_address: s, validator_address: s, type: s, amount: s, balance_delta: s, balance_before: s, balance_after: s,
    query_id: s.optional(), cycle_start: n.optional(), validator_reward_share: n,
  })),
  address_book: AddressBook,
});
export const NominatorPoolValidatorRewardsResponse = z.object({
  start_utime: n.optional(), end_utime: n.optional(), total_on_page: s,
  rewards: z.array(z.object({ utime: n, reward: s, balance_before: s, tx_hash: s, tx_lt: s, cycle_start: n.optional(), query_id: s.optional() })),
  address_book: AddressBook,
});
