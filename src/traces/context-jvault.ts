/**
 * The accounts a jVault unstake's records reach beyond its trace (toncenter's interface repository gathers them with
 * an extra-data callback): the stake wallet's data names its staking pool; the pool's data names its lock wallet,
 * whose jetton is the staked asset (families/jvault.ts `extract_jvault_assets`). A refused unstake never reaches the
 * pool, so the pool and the lock wallet are accounts of no transaction of the trace: the context loads them from
 * the store (their latest states, the lock wallet's `jetton_wallets` row) and gives the pool's data as a `data_boc`
 * record, as toncenter's repository does.
 *
 * The layouts are the matchers' own (families/jvault.ts): the stake wallet's data starts with the pool's address, the
 * pool's data holds the lock wallet after `init:Bool index:uint32 collection owner`. Only the data's root cell is
 * read, which a block always carries for an account it changed.
 */
import { Cell } from '@ton/core';
import { DATA_BOC_REQUEST_OPCODES } from '../actions/index.ts';
import { poolLockWallet } from '../actions/index.ts';
import { addrStr } from '../actions/index.ts';
import type { ContextMessage } from './context-dedust.ts';

/** Accounts whose data a jVault matcher reads (address-selectors.ts): the destinations of the requesting messages. */
export function dataRequestAccounts(messages: Iterable<ContextMessage>): Set<string> {
  const out = new Set<string>();
  for (const m of messages) if (m.destination !== null && m.opcode !== null && DATA_BOC_REQUEST_OPCODES.has(m.opcode >>> 0)) out.add(m.destination);
  return out;
}

/** The staking pool a stake wallet's data names (its first address), or null. */
export function stakeWalletPool(dataBoc: string | null | undefined): string | null {
  if (!dataBoc) return null;
  try {
    const a = addrStr(Cell.fromBase64(dataBoc).beginParse(true).loadAddressAny());
    return a || null;
  } catch {
    return null;
  }
}

/** The lock wallet a staking pool's data names, or null. */
export function poolLockWalletOf(dataBoc: string | null | undefined): string | null {
  if (!dataBoc) return null;
  try {
    return poolLockWallet({ data_boc: dataBoc }) || null;
  } catch {
    return null;
  }
}

/**
 * The pools and lock wallets the stake wallets among `accounts` lead to (`data`: an account's data as the context
 * holds it). `accounts` are the stake wallets asked for; a pool or lock wallet whose data is not there is left out.
 */
export function jvaultReach(stakeWallets: Iterable<string>, data: (account: string) => string | null | undefined): { pools: Map<string, string>; lockWallets: Set<string> } {
  const pools = new Map<string, string>();
  const lockWallets = new Set<string>();
  for (const w of stakeWallets) {
    const pool = stakeWalletPool(data(w));
    if (!pool) continue;
    const poolData = data(pool);
    if (!poolData) continue;
    pools.set(pool, poolData);
    const lock = poolLockWalletOf(poolData);
    if (lock) lockWallets.add(lock);
  }
  return { pools, lockWallets };
}
