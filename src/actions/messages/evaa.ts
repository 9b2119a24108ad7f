/**
 * ↔ indexer/events/blocks/messages/evaa.py: EVAA lending protocol messages (schema.tlb of the EVAA contracts as
 * upstream reads it). Messages to a user contract start with a user header (see `loadUserHeader`), not the
 * opcode: the caller reads the header first. Amounts are uint64, asset ids uint256.
 */
import type { Address, Cell, ExternalAddress, Slice } from '@ton/core';
import { loadAddress } from './common.ts';

type Addr = Address | ExternalAddress | null;

/** sha256("TON"): the asset id of TON */
export const TON_ASSET_ID = 0x1a4219fe5e60d63af2a3cc7dce6fec69b45c6b5718497a6148e7c232ac87bd8an;

export const EVAA_ACTION_COMMENTS: readonly string[] = ['EVAA liquidation.', 'EVAA supply.', 'EVAA withdraw.'];

/** `load_user_header`: user_version:Coins upgrade_info:(Maybe ^Cell) upgrade_exec:uint2 */
export function loadUserHeader(s: Slice): void {
  s.loadCoins();
  s.loadMaybeRef();
  s.loadUint(2);
}

/** pytoniq `load_int(2) != 0` (BoolExtended) */
const boolExtended = (s: Slice): boolean => s.loadInt(2) !== 0;

/** supply_master#00000001 query_id include_user_code:BoolExtended supply_amount:uint64 recipient_address … */
export class EvaaSupplyMaster {
  static readonly opcode = 0x1;
  queryId: bigint;
  includeUserCode: boolean;
  supplyAmount: bigint;
  recipientAddress: Addr;
  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.includeUserCode = boolExtended(s);
    this.supplyAmount = s.loadUintBig(64);
    this.recipientAddress = loadAddress(s);
  }
}

/** The supply_master a jetton transfer carries as its forward payload: no query_id, the opcode asserted. */
export class EvaaSupplyJettonForwardMessage {
  static readonly opcode = 0x1;
  includeUserCode: boolean;
  recipientAddress: Addr;
  forwardAmount: bigint | null = null;
  customResponsePayload: Cell | null = null;
  constructor(s: Slice) {
    const op = s.loadUint(32);
    if (op !== EvaaSupplyJettonForwardMessage.opcode) throw new Error(`AssertionError: Invalid opcode: ${op}`);
    this.includeUserCode = boolExtended(s);
    this.recipientAddress = loadAddress(s);
    if (s.remainingBits > 0) {
      this.forwardAmount = s.loadUintBig(64);
      this.customResponsePayload = s.loadRef();
    }
  }
}

/** supply_user#00000011 query_id asset_id:uint256 supply_amount_current:uint64 … (after the user header) */
export class EvaaSupplyUser {
  static readonly opcode = 0x11;
  queryId: bigint;
  assetId: bigint;
  supplyAmountCurrent: bigint;
  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.assetId = s.loadUintBig(256);
    this.supplyAmountCurrent = s.loadUintBig(64);
  }
}

/** supply_success#0000011a query_id owner_address asset_id:uint256 amount_supplied:uint64 … */
export class EvaaSupplySuccess {
  static readonly opcode = 0x11a;
  queryId: bigint;
  ownerAddress: Addr;
  assetId: bigint;
  amountSupplied: bigint;
  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.ownerAddress = loadAddress(s);
    this.assetId = s.loadUintBig(256);
    this.amountSupplied = s.loadUintBig(64);
  }
}

export const EvaaSupplyFail = { opcode: 0x11f } as const;

/** withdraw_master#00000002 query_id asset_id:uint256 amount:uint64 recipient_addr … */
export class EvaaWithdrawMaster {
  static readonly opcode = 0x2;
  queryId: bigint;
  assetId: bigint;
  amount: bigint;
  recipientAddress: Addr;
  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.assetId = s.loadUintBig(256);
    this.amount = s.loadUintBig(64);
    this.recipientAddress = loadAddress(s);
  }
}

export const EvaaWithdrawUser = { opcode: 0x21 } as const;

/** withdraw_collateralized#00000211 query_id owner_address asset_id:uint256 withdraw_amount_current:uint64 … */
export class EvaaWithdrawCollateralized {
  static readonly opcode = 0x211;
  queryId: bigint;
  ownerAddress: Addr;
  assetId: bigint;
  withdrawAmountCurrent: bigint;
  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.ownerAddress = loadAddress(s);
    this.assetId = s.loadUintBig(256);
    this.withdrawAmountCurrent = s.loadUintBig(64);
  }
}

/** withdraw_success#0000211a: the payout to the recipient and the user contract's update use the same opcode */
export const EvaaWithdrawSuccess = { opcode: 0x211a } as const;
export const EvaaWithdrawFail = { opcode: 0x211f } as const;
/** The master failed later (no funds): user contract -> user, after withdraw_fail. */
export const EvaaWithdrawNoFundsExcess = { opcode: 0x211fe8, reason: 'withdraw_no_funds_excess' } as const;

/** The user contract refused the withdrawal: one opcode per reason. */
export class EvaaWithdrawFailExcess {
  static readonly opcodes: readonly number[] = [0x21e6, 0x21e7, 0x21e8, 0x21ec];
  opcode: number;
  reason: string;
  constructor(s: Slice) {
    const op = s.loadUint(32) >>> 0;
    this.opcode = op;
    if (op === 0x21e6) this.reason = 'withdraw_locked_excess';
    else if (op === 0x21e7) this.reason = 'withdraw_not_collateralized_excess';
    else if (op === 0x21e8) this.reason = 'withdraw_missing_prices_excess';
    else if (op === 0x21ec) this.reason = 'withdraw_execution_crashed';
    else throw new Error(`Unknown withdraw fail opcode: ${op}`);
  }
}

/**
 * liquidate_master#00000003 query_id borrower_address liquidator_address collateral_asset_id:uint256
 *   min_collateral_amount:uint64 include_user_code:BoolExtended liquidate_incoming_amount:uint64 …
 */
export class EvaaLiquidateMaster {
  static readonly opcode = 0x3;
  queryId: bigint;
  borrowerAddress: Addr;
  liquidatorAddress: Addr;
  collateralAssetId: bigint;
  liquidateIncomingAmount: bigint;
  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.borrowerAddress = loadAddress(s);
    this.liquidatorAddress = loadAddress(s);
    this.collateralAssetId = s.loadUintBig(256);
    s.loadUintBig(64);
    s.loadInt(2);
    this.liquidateIncomingAmount = s.loadUintBig(64);
  }
}

export const EvaaLiquidateUser = { opcode: 0x31 } as const;

/**
 * liquidate_satisfied#00000311 query_id owner_address liquidator_address transferred_asset_id:uint256
 *   ^[ delta_loan_principal:int64 liquidatable_amount:uint64 protocol_gift:uint64 new_user_loan_principal:int64
 *      collateral_asset_id:uint256 delta_collateral_principal:int64 collateral_reward:uint64 … ]
 */
export class EvaaLiquidateSatisfied {
  static readonly opcode = 0x311;
  queryId: bigint;
  ownerAddress: Addr;
  liquidatorAddress: Addr;
  transferredAssetId: bigint;
  liquidatableAmount: bigint;
  collateralAssetId: bigint;
  collateralReward: bigint;
  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.ownerAddress = loadAddress(s);
    this.liquidatorAddress = loadAddress(s);
    this.transferredAssetId = s.loadUintBig(256);
    const r = s.loadRef().beginParse();
    r.loadIntBig(64);
    this.liquidatableAmount = r.loadUintBig(64);
    r.loadUintBig(64);
    r.loadIntBig(64);
    this.collateralAssetId = r.loadUintBig(256);
    r.loadIntBig(64);
    this.collateralReward = r.loadUintBig(64);
    if (r.remainingBits > 0) {
      r.loadUintBig(64);
      r.loadIntBig(64);
      r.loadUintBig(64);
      r.loadRef();
    }
  }
}

/** liquidation errors of liquidate-message.fc */
const LIQUIDATION_ERRORS: Record<number, string> = {
  0xe001: 'master_liquidating_too_much',
  0xe002: 'user_withdraw_in_progress',
  0xe003: 'not_liquidatable',
  0xe004: 'execution_crashed',
  0xe005: 'min_collateral_not_satisfied',
  0xe006: 'user_not_enough_collateral',
  0xe007: 'user_liquidating_too_much',
  0xe008: 'master_not_enough_liquidity',
  0xe009: 'liquidation_prices_missing',
};

/** `EvaaLiquidationError`: the error opcode after an unsatisfied liquidation's fields; 'parse_error' when absent. */
export function liquidationErrorReason(s: Slice): string {
  try {
    const code = s.loadUint(32) >>> 0;
    return LIQUIDATION_ERRORS[code] ?? 'unknown';
  } catch {
    return 'parse_error';
  }
}

/**
 * liquidate_unsatisfied#0000031f query_id owner_address liquidator_address transferred_asset_id:uint256
 *   ^[ transferred_amount:uint64 collateral_asset_id:uint256 min_collateral_amount:uint64 forward_ton_amount:uint64
 *      custom_response_payload:^Cell error:LiquidationError ]
 */
export class EvaaLiquidateUnsatisfied {
  static readonly opcode = 0x31f;
  queryId: bigint;
  ownerAddress: Addr;
  liquidatorAddress: Addr;
  transferredAssetId: bigint;
  private readonly errorSlice: Slice;
  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.ownerAddress = loadAddress(s);
    this.liquidatorAddress = loadAddress(s);
    this.transferredAssetId = s.loadUintBig(256);
    const r = s.loadRef().beginParse();
    r.loadUintBig(64);
    r.loadUintBig(256);
    r.loadUintBig(64);
    r.loadUintBig(64);
    r.loadRef();
    this.errorSlice = r;
  }

  errorReason(): string {
    return liquidationErrorReason(this.errorSlice);
  }
}

export const EvaaLiquidateSuccess = { opcode: 0x311a } as const;
export const EvaaLiquidateFail = { opcode: 0x311f } as const;
export const EvaaLiquidateSuccessReport = { opcode: 0x311d } as const;
