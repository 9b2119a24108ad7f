/**
 * Vesting wallets (ton-blockchain/vesting-contract, contracts/vesting_wallet.fc), read by their exact layout:
 *
 *   seqno:uint32 subwallet_id:uint32 public_key:uint256 whitelist:(HashmapE 264 Bool) params:^VestingParams
 *   VestingParams: vesting_start_time:uint64 vesting_total_duration:uint32 unlock_period:uint32 cliff_duration:uint32
 *                  vesting_total_amount:Coins vesting_sender_address:MsgAddress owner_address:MsgAddress
 *
 * the same values get_vesting_data / get_whitelist return (whitelist keys are `wc:int8 hash:uint256`). The
 * parameters never change after deploy, so blocks after the deploy prune them: they come from the previous row;
 * so do whitelist entries in pruned parts of the dictionary (the contract only adds entries).
 */
import { Dictionary, type Cell, type DictionaryValue } from '@ton/core';
import { exactly, loadRawAddress, readableKeys, whole } from './layout.ts';

const SKIP: DictionaryValue<null> = {
  serialize() {
    throw new Error('read-only');
  },
  parse: () => null,
};

export interface VestingParams {
  startTime: bigint;
  totalDuration: number;
  unlockPeriod: number;
  cliffDuration: number;
  totalAmount: bigint;
  sender: string | null;
  owner: string | null;
}

export interface VestingData {
  /** whitelisted addresses the block carries (all of them when `complete`) */
  whitelist: { list: string[]; complete: boolean };
  /** null when the block pruned the parameters cell */
  params: VestingParams | null;
}

const keyAddress = (k: bigint) => `${BigInt.asIntN(8, k >> 256n)}:${(k & ((1n << 256n) - 1n)).toString(16).padStart(64, '0').toUpperCase()}`;

/** Whitelisted addresses the block carries; `complete` false when parts of the dictionary are pruned. */
function whitelistOf(root: Cell | null): { list: string[]; complete: boolean } {
  if (!root) return { list: [], complete: true };
  if (whole(root)) return { list: Dictionary.loadDirect(Dictionary.Keys.BigUint(264), SKIP, root).keys().map(keyAddress).sort(), complete: true };
  const r = readableKeys(root, 264);
  return { list: r.keys.map(keyAddress).sort(), complete: r.complete };
}

export function parseVestingParams(cell: Cell): VestingParams | null {
  if (!whole(cell)) return null;
  return exactly(cell, (s) => ({
    startTime: s.loadUintBig(64),
    totalDuration: s.loadUint(32),
    unlockPeriod: s.loadUint(32),
    cliffDuration: s.loadUint(32),
    totalAmount: s.loadCoins(),
    sender: loadRawAddress(s),
    owner: loadRawAddress(s),
  }));
}

export function parseVestingData(data: Cell): VestingData | null {
  return exactly(data, (s) => {
    s.skip(32 + 32 + 256);
    const whitelist = whitelistOf(s.loadMaybeRef());
    const params = s.loadRef();
    if (whole(params) && !parseVestingParams(params)) throw new Error('not the vesting parameters layout');
    return { whitelist, params: parseVestingParams(params) };
  });
}
