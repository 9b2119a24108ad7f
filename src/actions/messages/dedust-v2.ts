/**
 * ↔ indexer/events/blocks/messages/dedust_v2.py (newer upstream): DeDust CPMM V2 layouts. Each reader checks its
 * opcode (upstream asserts it) and reads the fields upstream reads; `Q120X120` is a VarUInteger 32 (5-bit length).
 */
import type { Address, Cell, Slice } from '@ton/core';

function op(s: Slice, opcode: number, name: string): void {
  const got = s.loadUint(32) >>> 0;
  if (got !== opcode) throw new Error(`AssertionError: ${name} opcode 0x${got.toString(16)}`);
}

/** pay_native#a5a7cbf8 query_id:uint64 amount:Coins payment_payload:^Cell payout_config:^ExtendedPayoutConfig */
export class DedustV2PayNative {
  static readonly opcode = 0xa5a7cbf8;
  queryId: bigint;
  amount: bigint;
  paymentPayload: Cell;
  payoutConfig: Cell;
  /** the payment payload's operation (swap, deposit, fund reward) */
  paymentPayloadOpcode: number;

  constructor(s: Slice) {
    op(s, DedustV2PayNative.opcode, 'PayNative');
    this.queryId = s.loadUintBig(64);
    this.amount = s.loadCoins();
    this.paymentPayload = s.loadRef();
    this.payoutConfig = s.loadRef();
    this.paymentPayloadOpcode = this.paymentPayload.beginParse().loadUint(32) >>> 0;
  }
}

/** pay_jetton#cbc33949 payment_payload:^Cell payout_config:^ExtendedPayoutConfig (a jetton transfer's forward payload) */
export class DedustV2PayJetton {
  static readonly opcode = 0xcbc33949;
  paymentPayload: Cell;
  payoutConfig: Cell;
  paymentPayloadOpcode: number;

  constructor(s: Slice) {
    op(s, DedustV2PayJetton.opcode, 'PayJetton');
    this.paymentPayload = s.loadRef();
    this.payoutConfig = s.loadRef();
    this.paymentPayloadOpcode = this.paymentPayload.beginParse().loadUint(32) >>> 0;
  }
}

/** payout#3216ca09 query_id:uint64 amount:Coins exit_code:int32 payload:(Maybe ^Cell): the pool's TON payout or refund */
export class DedustV2PayoutMessage {
  static readonly opcode = 0x3216ca09;
  queryId: bigint;
  amount: bigint;
  exitCode: number;
  payload: Cell | null;

  constructor(s: Slice) {
    op(s, DedustV2PayoutMessage.opcode, 'PayoutMessage');
    this.queryId = s.loadUintBig(64);
    this.amount = s.loadCoins();
    this.exitCode = s.loadInt(32);
    this.payload = s.loadMaybeRef();
  }
}

/** swap#c442500f minimal_amount_out:Coins deadline:uint40 next:(Maybe ^SwapStep) partner:(Maybe ..) referrer:(Maybe ..) */
export class DedustV2SwapPayload {
  static readonly opcode = 0xc442500f;
  minimalAmountOut: bigint;
  deadline: number;
  next: Cell | null;
  partnerId: bigint | null = null;
  partnerFeeBps: number | null = null;
  referrerId: bigint | null = null;
  referrerFeeBps: number | null = null;

  constructor(s: Slice) {
    op(s, DedustV2SwapPayload.opcode, 'SwapPayload');
    this.minimalAmountOut = s.loadCoins();
    this.deadline = s.loadUint(40);
    this.next = s.loadMaybeRef();
    if (s.loadBit()) {
      this.partnerId = s.loadUintBig(256);
      this.partnerFeeBps = s.loadUint(16);
    }
    if (s.loadBit()) {
      this.referrerId = s.loadUintBig(256);
      this.referrerFeeBps = s.loadUint(16);
    }
  }
}

/** _ pool:MsgAddressInt minimal_amount_out:Coins deadline:uint40 next:(Maybe ^SwapStep) = SwapStep (no opcode) */
export class DedustV2SwapStep {
  pool: Address;
  minimalAmountOut: bigint;
  deadline: number;
  next: Cell | null;

  constructor(s: Slice) {
    this.pool = s.loadAddress();
    this.minimalAmountOut = s.loadCoins();
    this.deadline = s.loadUint(40);
    this.next = s.loadMaybeRef();
  }
}

/** swap#78e79ba4 x_to_y:Bool amount_in:Coins amount_out:Coins initiator recipient next_state:^Cell fees:^Cell (pool log) */
export class DedustV2SwapEvent {
  static readonly opcode = 0x78e79ba4;
  xToY: boolean;
  amountIn: bigint;
  amountOut: bigint;
  initiator: Address;
  recipient: Address;

  constructor(s: Slice) {
    op(s, DedustV2SwapEvent.opcode, 'SwapEvent');
    this.xToY = s.loadBit();
    this.amountIn = s.loadCoins();
    this.amountOut = s.loadCoins();
    this.initiator = s.loadAddress();
    this.recipient = s.loadAddress();
    s.loadRef();
    s.loadRef();
  }
}

/** withdraw#20b5ef89 query_id liquidity:Coins minimal_x_out minimal_y_out auto_claim_fees:Bool payout_config:^Cell */
export class DedustV2Withdraw {
  static readonly opcode = 0x20b5ef89;
  queryId: bigint;
  liquidity: bigint;
  minimalXOut: bigint;
  minimalYOut: bigint;
  autoClaimFees: boolean;

  constructor(s: Slice) {
    op(s, DedustV2Withdraw.opcode, 'Withdraw');
    this.queryId = s.loadUintBig(64);
    this.liquidity = s.loadCoins();
    this.minimalXOut = s.loadCoins();
    this.minimalYOut = s.loadCoins();
    this.autoClaimFees = s.loadBit();
    s.loadRef();
  }
}

/** withdraw_liquidity#bc1531a9 (pool -> position) */
export const DedustV2WithdrawLiquidity = { opcode: 0xbc1531a9 } as const;
/** exit_liquidity#f6f6a3aa (position -> pool) */
export const DedustV2ExitLiquidity = { opcode: 0xf6f6a3aa } as const;

/** withdrawal#c0d77b54 liquidity:Coins amount_x_out:Coins amount_y_out:Coins initiator recipient next_state:^Cell (pool log) */
export class DedustV2WithdrawalEvent {
  static readonly opcode = 0xc0d77b54;
  liquidity: bigint;
  amountXOut: bigint;
  amountYOut: bigint;

  constructor(s: Slice) {
    op(s, DedustV2WithdrawalEvent.opcode, 'WithdrawalEvent');
    this.liquidity = s.loadCoins();
    this.amountXOut = s.loadCoins();
    this.amountYOut = s.loadCoins();
    s.loadAddress();
    s.loadAddress();
    s.loadRef();
  }
}

/** deposit#c9a015da amount_x:Coins amount_y:Coins minimal_liquidity:Coins locked_liquidity_share:uint16 (payment payload) */
export class DedustV2DepositPayload {
  static readonly opcode = 0xc9a015da;
  amountX: bigint;
  amountY: bigint;

  constructor(s: Slice) {
    op(s, DedustV2DepositPayload.opcode, 'DepositPayload');
    this.amountX = s.loadCoins();
    this.amountY = s.loadCoins();
    s.loadCoins();
    s.loadUint(16);
  }
}

/** credit_asset#dc5ddba1 query_id:uint64 is_x:Bool amount:Coins (pool -> deposit escrow) */
export class DedustV2CreditAsset {
  static readonly opcode = 0xdc5ddba1;
  queryId: bigint;
  isX: boolean;
  amount: bigint;

  constructor(s: Slice) {
    op(s, DedustV2CreditAsset.opcode, 'CreditAsset');
    this.queryId = s.loadUintBig(64);
    this.isX = s.loadBit();
    this.amount = s.loadCoins();
  }
}

/** join_liquidity#25251ee0 query_id:uint64 config:^Cell amount_x:Coins amount_y:Coins initiator:MsgAddressInt (escrow -> pool) */
export class DedustV2JoinLiquidity {
  static readonly opcode = 0x25251ee0;
  queryId: bigint;
  amountX: bigint;
  amountY: bigint;
  initiator: Address;

  constructor(s: Slice) {
    op(s, DedustV2JoinLiquidity.opcode, 'JoinLiquidity');
    this.queryId = s.loadUintBig(64);
    s.loadRef();
    this.amountX = s.loadCoins();
    this.amountY = s.loadCoins();
    this.initiator = s.loadAddress();
  }
}

/** deposit#35df2e12 amount_x_in:Coins amount_y_in:Coins liquidity:Coins initiator recipient next_state:^Cell (pool log) */
export class DedustV2DepositEvent {
  static readonly opcode = 0x35df2e12;
  amountXIn: bigint;
  amountYIn: bigint;
  liquidity: bigint;

  constructor(s: Slice) {
    op(s, DedustV2DepositEvent.opcode, 'DepositEvent');
    this.amountXIn = s.loadCoins();
    this.amountYIn = s.loadCoins();
    this.liquidity = s.loadCoins();
    s.loadAddress();
    s.loadAddress();
    s.loadRef();
  }
}

/** credit_liquidity#855afcbd (pool -> position) */
export const DedustV2CreditLiquidity = { opcode: 0x855afcbd } as const;
/** claim_position_fees#5652f1df query_id excesses_to (user -> pool) */
export const DedustV2ClaimPositionFees = { opcode: 0x5652f1df } as const;
/** claim_available_fees#25f19752 (pool -> position) */
export const DedustV2ClaimAvailableFees = { opcode: 0x25f19752 } as const;

/** payout_position_fees#29ff1bcf query_id:uint64 x_fees:Coins y_fees:Coins owner excesses_to (position -> pool) */
export class DedustV2PayoutPositionFees {
  static readonly opcode = 0x29ff1bcf;
  queryId: bigint;
  xFees: bigint;
  yFees: bigint;
  owner: Address;

  constructor(s: Slice) {
    op(s, DedustV2PayoutPositionFees.opcode, 'PayoutPositionFees');
    this.queryId = s.loadUintBig(64);
    this.xFees = s.loadCoins();
    this.yFees = s.loadCoins();
    this.owner = s.loadAddress();
    s.loadAddress();
  }
}

/** claim_reward#909fdb65 query_id:uint64 reward_index:uint2 excesses_to (user -> pool) */
export class DedustV2ClaimReward {
  static readonly opcode = 0x909fdb65;
  queryId: bigint;
  rewardIndex: number;

  constructor(s: Slice) {
    op(s, DedustV2ClaimReward.opcode, 'ClaimReward');
    this.queryId = s.loadUintBig(64);
    this.rewardIndex = s.loadUint(2);
    s.loadAddress();
  }
}

/** claim_position_reward#2e0cccba (pool -> position) */
export const DedustV2ClaimPositionReward = { opcode: 0x2e0cccba } as const;

/** payout_reward#9e17fbbe query_id:uint64 amount:Coins reward_index:uint2 owner excesses_to (position -> pool) */
export class DedustV2PayoutReward {
  static readonly opcode = 0x9e17fbbe;
  queryId: bigint;
  amount: bigint;
  rewardIndex: number;
  owner: Address;

  constructor(s: Slice) {
    op(s, DedustV2PayoutReward.opcode, 'PayoutReward');
    this.queryId = s.loadUintBig(64);
    this.amount = s.loadCoins();
    this.rewardIndex = s.loadUint(2);
    this.owner = s.loadAddress();
    s.loadAddress();
  }
}
