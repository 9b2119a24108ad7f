/**
 * Vesting wallets -> `vesting_contracts` rows, from their exact layout (src/contracts/vesting.ts). The parameters
 * never change after deploy, so blocks after the deploy prune them: they come from the previous row; so do
 * whitelist entries in pruned parts of the dictionary (the contract only adds entries).
 */
import { parseVestingData } from '../contracts/index.ts';
import { stateColumns, type EntityRow, type FamilyInput } from './family.ts';

const PARAM_COLUMNS = ['vesting_start_time', 'vesting_total_duration', 'unlock_period', 'cliff_duration', 'vesting_total_amount', 'vesting_sender_address', 'owner_address'];

export function readVesting({ state, data }: FamilyInput): EntityRow | null {
  const d = parseVestingData(data);
  if (!d) return null;
  const p = d.params;
  const unknown = p ? [] : PARAM_COLUMNS;
  return {
    table: 'vesting_contracts',
    row: {
      address: state.account,
      vesting_start_time: p ? Number(p.startTime) : 0,
      vesting_total_duration: p?.totalDuration ?? 0,
      unlock_period: p?.unlockPeriod ?? 0,
      cliff_duration: p?.cliffDuration ?? 0,
      vesting_total_amount: p?.totalAmount ?? 0n,
      vesting_sender_address: p?.sender ?? '',
      owner_address: p?.owner ?? '',
      whitelist: d.whitelist.list,
      ...stateColumns(state),
    },
    unknown,
    // the contract only ever adds to its whitelist: entries in pruned parts are the previous row's
    union: d.whitelist.complete ? [] : ['whitelist'],
  };
}
