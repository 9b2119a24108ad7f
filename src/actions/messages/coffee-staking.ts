/**
 * ↔ the staking layouts of indexer/events/blocks/messages/coffee.py (read by staking.py); the file's swap and
 * liquidity layouts belong to swaps.py / liquidity.py. The three position-withdraw steps share one opcode.
 */
import type { Address, ExternalAddress, Slice } from '@ton/core';
import { loadAddress } from './common.ts';

type Addr = Address | ExternalAddress | null;

/** staking_deposit#f9471134 (pool call after the jetton notification; only its opcode is read) */
export const CoffeeStakingDeposit = { opcode: 0xf9471134 } as const;

/** staking_position_withdraw_1#cb03bfaf query_id:uint64 */
export class CoffeeStakingPositionWithdraw1 {
  static readonly opcode = 0xcb03bfaf;
  queryId: bigint;
  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
  }
}

/** staking_position_withdraw_2#cb03bfaf query_id nft_id:uint64 owner points:Coins jetton_data:^[wallet amount:Coins] */
export class CoffeeStakingPositionWithdraw2 {
  static readonly opcode = 0xcb03bfaf;
  queryId: bigint;
  nftId: bigint;
  owner: Addr;
  points: bigint;
  jettonWallet: Addr;
  jettonAmount: bigint;
  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.nftId = s.loadUintBig(64);
    this.owner = loadAddress(s);
    this.points = s.loadCoins();
    const j = s.loadRef().beginParse();
    this.jettonWallet = loadAddress(j);
    this.jettonAmount = j.loadCoins();
  }
}

/** staking_position_withdraw_3#cb03bfaf query_id jetton_wallet jetton_amount:Coins owner */
export class CoffeeStakingPositionWithdraw3 {
  static readonly opcode = 0xcb03bfaf;
  queryId: bigint;
  jettonWallet: Addr;
  jettonAmount: bigint;
  owner: Addr;
  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.jettonWallet = loadAddress(s);
    this.jettonAmount = s.loadCoins();
    this.owner = loadAddress(s);
  }
}

/** staking_claim_rewards#b30c7310 query_id jetton_wallet jetton_amount:Coins receiver payload:(Maybe ^ForwardData) */
export class CoffeeStakingClaimRewards {
  static readonly opcode = 0xb30c7310;
  queryId: bigint;
  jettonWallet: Addr;
  jettonAmount: bigint;
  receiver: Addr;
  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.jettonWallet = loadAddress(s);
    this.jettonAmount = s.loadCoins();
    this.receiver = loadAddress(s);
    // forward data: gas:Coins payload:^Cell (read as upstream reads it, so a short one fails the same way)
    const p = s.loadMaybeRef();
    if (p) {
      const f = p.beginParse();
      f.loadCoins();
      f.loadRef();
    }
  }
}
