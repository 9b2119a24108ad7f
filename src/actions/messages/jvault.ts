/**
 * ↔ indexer/events/blocks/messages/jvault.py: JVault staking layouts. `unstake_request`'s opcode (0x0168d4b7) is
 * newer upstream's (its jvault.mch); its body is read as `unstake_jettons`' (query_id, jettons_to_unstake), the
 * fields upstream's matcher reads.
 */
import { Dictionary, type Address, type Slice } from '@ton/core';

/** `(HashmapE 267 Bit)` keyed by MsgAddressStd: the addresses, in key order. */
export function loadAddressList(s: Slice): Address[] {
  const dict = s.loadDict(Dictionary.Keys.Address(), Dictionary.Values.BitString(1));
  return dict.keys();
}

/** receive_jettons#d68a4ac1 query_id min_deposit max_deposit unstake_commission:uint16 unstake_fee whitelist received_jettons */
export class JVaultReceiveJettons {
  static readonly opcode = 0xd68a4ac1;
  queryId: bigint;
  minDeposit: bigint;
  maxDeposit: bigint;
  unstakeCommission: number;
  unstakeFee: bigint;
  whitelist: Address[];
  receivedJettons: bigint;

  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.minDeposit = s.loadCoins();
    this.maxDeposit = s.loadCoins();
    this.unstakeCommission = s.loadUint(16);
    this.unstakeFee = s.loadCoins();
    this.whitelist = loadAddressList(s);
    this.receivedJettons = s.loadCoins();
  }
}

/** unstake_jettons#499a9262 query_id:uint64 jettons_to_unstake:Coins force_unstake:Bool */
export class JVaultUnstakeJettons {
  static readonly opcode = 0x499a9262;
  queryId: bigint;
  jettonsToUnstake: bigint;

  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.jettonsToUnstake = s.loadCoins();
  }
}

/** unstake_request#0168d4b7 query_id:uint64 jettons_to_unstake:Coins … */
export class JVaultUnstakeRequest {
  static readonly opcode = 0x0168d4b7;
  queryId: bigint;
  jettonsToUnstake: bigint;

  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.jettonsToUnstake = s.loadCoins();
  }
}

/** claim_rewards_msg#78d9f109 query_id jettons_to_claim:(HashmapE 267 Bit) */
export class JVaultClaim {
  static readonly opcode = 0x78d9f109;
  queryId: bigint;
  jettonsToClaim: Address[];

  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.jettonsToClaim = loadAddressList(s);
  }
}

export const JVaultSendClaimedRewards = { opcode: 0x44bc1fe3 } as const;
export const JVaultRequestUpdateRewards = { opcode: 0xf5c5baa3 } as const;
export const JVaultUpdateRewards = { opcode: 0xae9307ce } as const;
export const JVaultRequestUpdateReferrer = { opcode: 0x55c35b40 } as const;
export const JVaultUpdateReferrer = { opcode: 0x076ee4e0 } as const;
export const JVaultSetData = { opcode: 0x383411ea } as const;
/** the stake's cancellation (upstream writes it inline) */
export const JVaultStakeCancel = { opcode: 0x9eada1d9 } as const;
