/**
 * ↔ indexer/events/blocks/messages/liquidity.py: DeDust deposit layouts, STON.fi v2 provide_liquidity, and the
 * TONCO layouts (upstream repeats them here; ours live in swaps.ts and are re-exported). Also the transfer
 * notification's fields, which newer upstream reads through `JettonNotify(body)` (its messages/jettons.py).
 */
import type { Address, Cell, ExternalAddress, Slice } from '@ton/core';
import type { Asset } from '../ton-utils.ts';
import { loadAddress } from './common.ts';
import { loadDedustAsset } from './swaps.ts';

export {
  ToncoAccountV3AddLiquidity, ToncoPoolV3Burn, ToncoPoolV3FundAccount, ToncoPoolV3FundAccountPayload, ToncoPoolV3Init,
  ToncoPoolV3MinAndRefund, ToncoPoolV3Mint, ToncoPoolV3StartBurn, ToncoPositionNftV3PositionBurn, ToncoPositionNftV3PositionInit,
  ToncoRouterV3CreatePool,
} from './swaps.ts';

type Addr = Address | ExternalAddress | null;

function expectOp(s: Slice, opcode: number): void {
  if (s.loadUint(32) >>> 0 !== opcode) throw new Error(`not a 0x${opcode.toString(16)} body`);
}

/**
 * deposit_liquidity#d55e4686 query_id:uint64 amount:Coins pool_params:(pool_type:uint1 asset0 asset1)
 *   params:^[min_lp_amount asset0_target_balance asset1_target_balance] … (TON deposit to the native vault)
 */
export class DedustDepositTONToVault {
  static readonly opcode = 0xd55e4686;
  queryId: bigint;
  amount: bigint;
  poolType: 'volatile' | 'stable';
  asset0: Asset;
  asset1: Asset;
  asset0TargetBalance: bigint;
  asset1TargetBalance: bigint;

  constructor(s: Slice) {
    expectOp(s, DedustDepositTONToVault.opcode);
    this.queryId = s.loadUintBig(64);
    this.amount = s.loadCoins();
    this.poolType = s.loadBit() ? 'stable' : 'volatile';
    this.asset0 = loadDedustAsset(s);
    this.asset1 = loadDedustAsset(s);
    const params = s.loadRef().beginParse(true);
    params.loadCoins(); // min_lp_amount
    this.asset0TargetBalance = params.loadCoins();
    this.asset1TargetBalance = params.loadCoins();
  }
}

/** deposit_liquidity#40e108d6 pool_params min_lp_amount asset0_target_balance asset1_target_balance … (forward payload) */
export class DedustDepositLiquidityJettonForwardPayload {
  static readonly opcode = 0x40e108d6;
  poolType: 'volatile' | 'stable';
  asset0: Asset;
  asset1: Asset;
  asset0TargetBalance: bigint;
  asset1TargetBalance: bigint;

  constructor(s: Slice) {
    expectOp(s, DedustDepositLiquidityJettonForwardPayload.opcode);
    this.poolType = s.loadBit() ? 'stable' : 'volatile';
    this.asset0 = loadDedustAsset(s);
    this.asset1 = loadDedustAsset(s);
    s.loadCoins(); // min_lp_amount
    this.asset0TargetBalance = s.loadCoins();
    this.asset1TargetBalance = s.loadCoins();
  }
}

export const DedustDeployLiquidityFactory = { opcode: 0x9b3aa3fa } as const;
export const DedustAskLiquidityFactory = { opcode: 0xf04ec526 } as const;
export const DedustDeployDepositContract = { opcode: 0x9b3aa3fa } as const;
export const DedustTopUpLiquidityDepositContract = { opcode: 0x54240fe5 } as const;
export const DedustDestroyLiquidityDepositContract = { opcode: 0xaae79256 } as const;
export const DedustReturnExcessFromVault = { opcode: 0x6b0b787f } as const;
/** The pool's refusal of a deposit (upstream writes the opcode inline). */
export const DedustDepositRejected = { opcode: 0xe1a36cd4 } as const;

/** deposit_liquidity#b56b9598 query_id proof:^Cell owner_addr min_lp_amount ^[asset0 amount0 asset1 amount1] … (deposit -> pool) */
export class DedustDepositLiquidityToPool {
  static readonly opcode = 0xb56b9598;
  queryId: bigint;
  proof: Cell;
  ownerAddr: Addr;
  minLpAmount: bigint;
  asset0: Asset;
  asset0Amount: bigint;
  asset1: Asset;
  asset1Amount: bigint;
  fulfillPayload: Cell | null;
  rejectPayload: Cell | null;

  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.proof = s.loadRef();
    this.ownerAddr = loadAddress(s);
    this.minLpAmount = s.loadCoins();
    const f = s.loadRef().beginParse(true);
    this.asset0 = loadDedustAsset(f);
    this.asset0Amount = f.loadCoins();
    this.asset1 = loadDedustAsset(f);
    this.asset1Amount = f.loadCoins();
    this.fulfillPayload = s.loadMaybeRef();
    this.rejectPayload = s.loadMaybeRef();
  }
}

/** STON.fi v2 provide_lp#37c096df query_id:uint64 from_user:MsgAddress amount1:Coins amount2:Coins … */
export class StonfiV2ProvideLiquidity {
  static readonly opcode = 0x37c096df;
  queryId: bigint;
  fromUser: Addr;
  amount1: bigint;
  amount2: bigint;

  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.fromUser = loadAddress(s);
    this.amount1 = s.loadCoins();
    this.amount2 = s.loadCoins();
  }
}

/**
 * transfer_notification#7362d09c query_id:uint64 amount:(VarUInteger 16) sender:MsgAddress
 *   forward_payload:(Either Cell ^Cell): upstream's `JettonNotify(body)` fields (`jetton_amount`, `from_user`,
 *   `forward_payload_cell`); the inline payload is the rest of the body, none when it is empty.
 */
export class JettonNotifyBody {
  static readonly opcode = 0x7362d09c;
  queryId: bigint;
  jettonAmount: bigint;
  fromUser: Addr;
  forwardPayloadCell: Cell | null;

  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.jettonAmount = s.loadCoins();
    this.fromUser = loadAddress(s);
    if (s.remainingBits === 0 && s.remainingRefs === 0) {
      this.forwardPayloadCell = null;
    } else if (s.loadBit()) {
      this.forwardPayloadCell = s.loadRef();
    } else {
      this.forwardPayloadCell = s.remainingBits > 0 || s.remainingRefs > 0 ? s.asCell() : null;
    }
  }
}
