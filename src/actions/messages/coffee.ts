/**
 * ↔ indexer/events/blocks/messages/coffee.py: swap.coffee DEX layouts (swaps, pools, liquidity, vaults, MEV
 * protection) and its staking messages (read by staking.py). Each constructor reads its layout and fails where
 * upstream's does; `load_coffee_asset` refuses the extra-currency asset as upstream does.
 */
import type { Address, Cell, ExternalAddress, Slice } from '@ton/core';
import { Asset } from '../ton-utils.ts';
import { loadAddress } from './common.ts';

type Addr = Address | ExternalAddress | null;

/** native$00 | jetton$01 chain:uint8 hash:uint256 | extra$10 id:uint32 (refused, as upstream) */
export function loadCoffeeAsset(s: Slice): Asset {
  const tag = s.loadUint(2);
  if (tag === 0b00) return new Asset(true);
  if (tag === 0b01) {
    const chain = s.loadUint(8);
    const hash = s.loadBuffer(32);
    return new Asset(false, `${chain}:${hash.toString('hex').toUpperCase()}`);
  }
  if (tag === 0b10) throw new Error('Extra asset type not supported');
  throw new Error(`Invalid asset tag: ${tag}`);
}

/** notification_data_single receiver:MsgAddressInt fwd_gas:Coins payload:^Cell */
export class NotificationDataSingle {
  receiver: Addr;
  fwdGas: bigint;
  payload: Cell;
  constructor(s: Slice) {
    this.receiver = loadAddress(s);
    this.fwdGas = s.loadCoins();
    this.payload = s.loadRef();
  }
}

/** notification_data on_success:(Maybe ^NotificationDataSingle) on_failure:(Maybe ^NotificationDataSingle) */
export class NotificationData {
  onSuccess: NotificationDataSingle | null = null;
  onFailure: NotificationDataSingle | null = null;
  constructor(s: Slice) {
    const ok = s.loadMaybeRef();
    if (ok) this.onSuccess = new NotificationDataSingle(ok.beginParse(true));
    const fail = s.loadMaybeRef();
    if (fail) this.onFailure = new NotificationDataSingle(fail.beginParse(true));
  }
}

/** swap_params deadline:uint32 recipient referral notification_data:(Maybe ^NotificationData) */
export class SwapParams {
  deadline: number;
  recipient: Addr;
  referral: Addr;
  notificationData: NotificationData | null = null;
  constructor(s: Slice) {
    this.deadline = s.loadUint(32);
    this.recipient = loadAddress(s);
    this.referral = loadAddress(s);
    const n = s.loadMaybeRef();
    if (n) this.notificationData = new NotificationData(n.beginParse(true));
  }
}

/** swap_step_params pool_address_hash:uint256 min_output_amount:Coins next:(Maybe ^SwapStepParams) */
export class SwapStepParams {
  poolAddressHash: bigint;
  minOutputAmount: bigint;
  next: SwapStepParams | null = null;
  constructor(s: Slice) {
    this.poolAddressHash = s.loadUintBig(256);
    this.minOutputAmount = s.loadCoins();
    const n = s.loadMaybeRef();
    if (n) this.next = new SwapStepParams(n.beginParse(true));
  }
}

/**
 * swap_step_internal_params previous_amount:Coins previous_asset_hint:(Maybe Asset) min_output_amount:Coins
 *   next:(Maybe ^SwapStepParams) (the hint read as upstream reads it: a Maybe ref holding the asset)
 */
export class SwapStepInternalParams {
  previousAmount: bigint;
  previousAssetHint: Asset | null = null;
  minOutputAmount: bigint;
  next: SwapStepParams | null = null;
  constructor(s: Slice) {
    this.previousAmount = s.loadCoins();
    const hint = s.loadMaybeRef();
    if (hint) this.previousAssetHint = loadCoffeeAsset(hint.beginParse(true));
    this.minOutputAmount = s.loadCoins();
    const n = s.loadMaybeRef();
    if (n) this.next = new SwapStepParams(n.beginParse(true));
  }
}

/** public_pool_creation_params recipient use_recipient_on_failure:int1 notification_data:(Maybe ^Cell) */
export class PublicPoolCreationParams {
  recipient: Addr;
  useRecipientOnFailure: boolean;
  notificationData: NotificationData | null = null;
  constructor(s: Slice) {
    this.recipient = loadAddress(s);
    this.useRecipientOnFailure = s.loadBit();
    const n = s.loadMaybeRef();
    if (n) this.notificationData = new NotificationData(n.beginParse(true));
  }
}

/** private_pool_creation_params is_active:uint1 extra_settings:(Maybe ^Cell) */
export class PrivatePoolCreationParams {
  isActive: boolean;
  extraSettings: Cell | null;
  constructor(s: Slice) {
    this.isActive = s.loadBit();
    this.extraSettings = s.loadMaybeRef();
  }
}

export class PoolCreationParams {
  public: PublicPoolCreationParams;
  private: PrivatePoolCreationParams;
  constructor(s: Slice) {
    this.public = new PublicPoolCreationParams(s);
    this.private = new PrivatePoolCreationParams(s);
  }
}

/** pool_params first:Asset second:Asset amm:AMM(3 bits) amm_settings:(Maybe ^Cell) */
export class PoolParams {
  first: Asset;
  second: Asset;
  amm: 'constant_product' | 'curve_fi_stable' | 'unknown';
  ammSettings: Cell | null;
  constructor(s: Slice) {
    this.first = loadCoffeeAsset(s);
    this.second = loadCoffeeAsset(s);
    const tag = s.loadUint(3);
    this.amm = tag === 0 ? 'constant_product' : tag === 1 ? 'curve_fi_stable' : 'unknown';
    this.ammSettings = s.loadMaybeRef();
  }
}

/** DepositLiquidityCondition: none$00 | lp_quantity$01 | reserves_ratio$10 | complex$11 */
export class DepositLiquidityCondition {
  tag: number;
  kind: 'none' | 'lp_quantity' | 'reserves_ratio' | 'complex';
  minLpAmount: bigint | null = null;
  denominator: number | null = null;
  minNominator: number | null = null;
  maxNominator: number | null = null;
  constructor(s: Slice) {
    this.tag = s.loadUint(2);
    const ratio = () => {
      this.denominator = s.loadUint(16);
      this.minNominator = s.loadUint(16);
      this.maxNominator = s.loadUint(16);
    };
    if (this.tag === 0b00) this.kind = 'none';
    else if (this.tag === 0b01) {
      this.kind = 'lp_quantity';
      this.minLpAmount = s.loadCoins();
    } else if (this.tag === 0b10) {
      this.kind = 'reserves_ratio';
      ratio();
    } else {
      this.kind = 'complex';
      this.minLpAmount = s.loadCoins();
      ratio();
    }
  }
}

/** deposit_liquidity_params_trimmed recipient:MsgAddressInt use_recipient_on_failure:int1 */
export class DepositLiquidityParamsTrimmed {
  recipient: Addr;
  useRecipientOnFailure: boolean;
  constructor(s: Slice) {
    this.recipient = loadAddress(s);
    this.useRecipientOnFailure = s.loadBit();
  }
}

/** deposit_liquidity_params params pool_params (read inline, as upstream reads them) */
export class DepositLiquidityParams {
  params: DepositLiquidityParamsTrimmed;
  poolParams: PoolParams;
  constructor(s: Slice) {
    this.params = new DepositLiquidityParamsTrimmed(s);
    this.poolParams = new PoolParams(s);
  }
}

/** WithdrawLiquidityCondition: none$00 | assets_quantity$01 | reserves_ratio$10 | complex$11 */
export class WithdrawLiquidityCondition {
  tag: number;
  kind: 'none' | 'assets_quantity' | 'reserves_ratio' | 'complex';
  minFirstAmount: bigint | null = null;
  minSecondAmount: bigint | null = null;
  denominator: number | null = null;
  minNominator: number | null = null;
  maxNominator: number | null = null;
  constructor(s: Slice) {
    this.tag = s.loadUint(2);
    const amounts = () => {
      this.minFirstAmount = s.loadCoins();
      this.minSecondAmount = s.loadCoins();
    };
    const ratio = () => {
      this.denominator = s.loadUint(16);
      this.minNominator = s.loadUint(16);
      this.maxNominator = s.loadUint(16);
    };
    if (this.tag === 0b00) this.kind = 'none';
    else if (this.tag === 0b01) {
      this.kind = 'assets_quantity';
      amounts();
    } else if (this.tag === 0b10) {
      this.kind = 'reserves_ratio';
      ratio();
    } else {
      this.kind = 'complex';
      amounts();
      ratio();
    }
  }
}

export class WithdrawLiquidityParams {
  useRecipientOnFailure: boolean;
  deadline: number;
  condition: WithdrawLiquidityCondition;
  extraSettings: Cell | null;
  onSuccess: Cell | null;
  constructor(s: Slice) {
    this.useRecipientOnFailure = s.loadBit();
    this.deadline = s.loadUint(32);
    this.condition = new WithdrawLiquidityCondition(s);
    this.extraSettings = s.loadMaybeRef();
    this.onSuccess = s.loadMaybeRef();
  }
}

/** pool_reserves input_reserve:Coins output_reserve:Coins */
export class PoolReserves {
  inputReserve: bigint;
  outputReserve: bigint;
  constructor(s: Slice) {
    this.inputReserve = s.loadCoins();
    this.outputReserve = s.loadCoins();
  }
}

/** pool_update_params flags:(## 2) protocol_fee:flags.0?uint16 lp_fee:flags.0?uint16 is_active:flags.1?uint1 */
export class PoolUpdateParams {
  protocolFee: number | null = null;
  lpFee: number | null = null;
  isActive: boolean | null = null;
  constructor(s: Slice) {
    const first = s.loadBit();
    const second = s.loadBit();
    if (first) {
      this.protocolFee = s.loadUint(16);
      this.lpFee = s.loadUint(16);
    }
    if (second) this.isActive = s.loadBit();
  }
}

export class ContractUpdate {
  code: Cell | null;
  data: Cell | null;
  constructor(s: Slice) {
    this.code = s.loadMaybeRef();
    this.data = s.loadMaybeRef();
  }
}

// ---------------------------------------------------------------- messages

const skipOp = (s: Slice) => s.loadUint(32);

/** swap_native#c0ffee00 query_id:uint64 amount:Coins _:SwapStepParams params:^SwapParams */
export class CoffeeSwapNative {
  static readonly opcode = 0xc0ffee00;
  queryId: bigint;
  amount: bigint;
  params: SwapParams;
  stepParams: SwapStepParams;
  constructor(s: Slice) {
    skipOp(s);
    this.queryId = s.loadUintBig(64);
    this.amount = s.loadCoins();
    // upstream reads the ref before the inline step params
    this.params = new SwapParams(s.loadRef().beginParse(true));
    this.stepParams = new SwapStepParams(s);
  }
}

/** swap_jetton#c0ffee10 _:SwapStepParams params:^SwapParams (upstream keeps only the SwapParams) */
export class CoffeeSwapJetton {
  static readonly opcode = 0xc0ffee10;
  params: SwapParams;
  constructor(s: Slice) {
    skipOp(s);
    new SwapStepParams(s);
    this.params = new SwapParams(s.loadRef().beginParse(true));
  }
}

/** swap_extra#c0ffee01 query_id:uint64 _:SwapStepParams params:^SwapParams */
export class CoffeeSwapExtra {
  static readonly opcode = 0xc0ffee01;
  queryId: bigint;
  stepParams: SwapStepParams;
  params: SwapParams;
  constructor(s: Slice) {
    skipOp(s);
    this.queryId = s.loadUintBig(64);
    this.stepParams = new SwapStepParams(s);
    this.params = new SwapParams(s.loadRef().beginParse(true));
  }
}

/** swap_successful_event#c0ffee30 query_id input:Asset input_amount output_amount reserves (inline, as upstream reads it) */
export class CoffeeSwapSuccessfulEvent {
  static readonly opcode = 0xc0ffee30;
  queryId: bigint;
  input: Asset;
  inputAmount: bigint;
  outputAmount: bigint;
  reserves: PoolReserves;
  constructor(s: Slice) {
    skipOp(s);
    this.queryId = s.loadUintBig(64);
    this.input = loadCoffeeAsset(s);
    this.inputAmount = s.loadCoins();
    this.outputAmount = s.loadCoins();
    this.reserves = new PoolReserves(s);
  }
}

/** swap_failed_event#c0ffee31 query_id input:Asset input_amount reserves:(Maybe ^PoolReserves) */
export class CoffeeSwapFailedEvent {
  static readonly opcode = 0xc0ffee31;
  queryId: bigint;
  input: Asset;
  inputAmount: bigint;
  reserves: PoolReserves | null = null;
  constructor(s: Slice) {
    skipOp(s);
    this.queryId = s.loadUintBig(64);
    this.input = loadCoffeeAsset(s);
    this.inputAmount = s.loadCoins();
    const r = s.loadMaybeRef();
    if (r) this.reserves = new PoolReserves(r.beginParse(true));
  }
}

/** create_pool_native#c0ffee02 query_id amount params:PoolParams creation_params:PoolCreationParams */
export class CoffeeCreatePoolNative {
  static readonly opcode = 0xc0ffee02;
  queryId: bigint;
  amount: bigint;
  params: PoolParams;
  creationParams: PoolCreationParams;
  constructor(s: Slice) {
    skipOp(s);
    this.queryId = s.loadUintBig(64);
    this.amount = s.loadCoins();
    this.params = new PoolParams(s);
    this.creationParams = new PoolCreationParams(s);
  }
}

/** create_pool_jetton#c0ffee11 params:PoolParams creation_params:PoolCreationParams */
export class CoffeeCreatePoolJetton {
  static readonly opcode = 0xc0ffee11;
  params: PoolParams;
  creationParams: PoolCreationParams;
  constructor(s: Slice) {
    skipOp(s);
    this.params = new PoolParams(s);
    this.creationParams = new PoolCreationParams(s);
  }
}

/** create_pool_extra#c0ffee03 query_id params:PoolParams creation_params:PoolCreationParams */
export class CoffeeCreatePoolExtra {
  static readonly opcode = 0xc0ffee03;
  queryId: bigint;
  params: PoolParams;
  creationParams: PoolCreationParams;
  constructor(s: Slice) {
    skipOp(s);
    this.queryId = s.loadUintBig(64);
    this.params = new PoolParams(s);
    this.creationParams = new PoolCreationParams(s);
  }
}

/** deposit_liquidity_native#c0ffee04 query_id amount params:DepositLiquidityParams */
export class CoffeeDepositLiquidityNative {
  static readonly opcode = 0xc0ffee04;
  queryId: bigint;
  amount: bigint;
  params: DepositLiquidityParams;
  constructor(s: Slice) {
    skipOp(s);
    this.queryId = s.loadUintBig(64);
    this.amount = s.loadCoins();
    this.params = new DepositLiquidityParams(s);
  }
}

/** deposit_liquidity_jetton#c0ffee12 params:DepositLiquidityParams */
export class CoffeeDepositLiquidityJetton {
  static readonly opcode = 0xc0ffee12;
  params: DepositLiquidityParams;
  constructor(s: Slice) {
    skipOp(s);
    this.params = new DepositLiquidityParams(s);
  }
}

/** deposit_liquidity_extra#c0ffee05 query_id params:DepositLiquidityParams */
export class CoffeeDepositLiquidityExtra {
  static readonly opcode = 0xc0ffee05;
  queryId: bigint;
  params: DepositLiquidityParams;
  constructor(s: Slice) {
    skipOp(s);
    this.queryId = s.loadUintBig(64);
    this.params = new DepositLiquidityParams(s);
  }
}

/** deposit_liquidity_successful_event#c0ffee33 query_id amount1 amount2 lp_amount total_supply reserves */
export class CoffeeDepositLiquiditySuccessfulEvent {
  static readonly opcode = 0xc0ffee33;
  queryId: bigint;
  amount1: bigint;
  amount2: bigint;
  lpAmount: bigint;
  totalSupply: PoolReserves;
  reserves: PoolReserves;
  constructor(s: Slice) {
    skipOp(s);
    this.queryId = s.loadUintBig(64);
    this.amount1 = s.loadCoins();
    this.amount2 = s.loadCoins();
    this.lpAmount = s.loadCoins();
    this.totalSupply = new PoolReserves(s);
    this.reserves = new PoolReserves(s);
  }
}

/** deposit_liquidity_failed_event#c0ffee34 query_id amount1 amount2 min_lp_amount total_supply:Coins reserves */
export class CoffeeDepositLiquidityFailedEvent {
  static readonly opcode = 0xc0ffee34;
  queryId: bigint;
  amount1: bigint;
  amount2: bigint;
  minLpAmount: bigint;
  totalSupply: bigint;
  reserves: PoolReserves;
  constructor(s: Slice) {
    skipOp(s);
    this.queryId = s.loadUintBig(64);
    this.amount1 = s.loadCoins();
    this.amount2 = s.loadCoins();
    this.minLpAmount = s.loadCoins();
    this.totalSupply = s.loadCoins();
    this.reserves = new PoolReserves(s);
  }
}

/** liquidity_withdrawal_event#c0ffee35 query_id amount1 amount2 lp_amount total_supply reserves */
export class CoffeeLiquidityWithdrawalEvent {
  static readonly opcode = 0xc0ffee35;
  queryId: bigint;
  amount1: bigint;
  amount2: bigint;
  lpAmount: bigint;
  totalSupply: PoolReserves;
  reserves: PoolReserves;
  constructor(s: Slice) {
    skipOp(s);
    this.queryId = s.loadUintBig(64);
    this.amount1 = s.loadCoins();
    this.amount2 = s.loadCoins();
    this.lpAmount = s.loadCoins();
    this.totalSupply = new PoolReserves(s);
    this.reserves = new PoolReserves(s);
  }
}

/** withdraw_deposit#c0ffee07 query_id */
export class CoffeeWithdrawDeposit {
  static readonly opcode = 0xc0ffee07;
  queryId: bigint;
  constructor(s: Slice) {
    skipOp(s);
    this.queryId = s.loadUintBig(64);
  }
}

/** burn#595f07bc as upstream reads it for a liquidity withdrawal (amount as uint16: upstream's layout) */
export class CoffeeBurn {
  static readonly opcode = 0x595f07bc;
  queryId: bigint;
  amount: number;
  responseDestination: Addr;
  customPayload: Cell | null;
  constructor(s: Slice) {
    skipOp(s);
    this.queryId = s.loadUintBig(64);
    this.amount = s.loadUint(16);
    this.responseDestination = loadAddress(s);
    this.customPayload = s.loadMaybeRef();
  }
}

/** payout#c0ffee32 query_id */
export class CoffeePayout {
  static readonly opcode = 0xc0ffee32;
  queryId: bigint;
  constructor(s: Slice) {
    skipOp(s);
    this.queryId = s.loadUintBig(64);
  }
}

/** create_vault#c0ffee06 query_id asset:Asset */
export class CoffeeCreateVault {
  static readonly opcode = 0xc0ffee06;
  queryId: bigint;
  asset: Asset;
  constructor(s: Slice) {
    skipOp(s);
    this.queryId = s.loadUintBig(64);
    this.asset = loadCoffeeAsset(s);
  }
}

/** notification#c0ffee36 query_id body:^Cell */
export class CoffeeNotification {
  static readonly opcode = 0xc0ffee36;
  queryId: bigint;
  body: Cell;
  constructor(s: Slice) {
    skipOp(s);
    this.queryId = s.loadUintBig(64);
    this.body = s.loadRef();
  }
}

/** swap_internal#c0ffee20 query_id _:SwapStepInternalParams params:^SwapParams proof:^Cell */
export class CoffeeSwapInternal {
  static readonly opcode = 0xc0ffee20;
  queryId: bigint;
  stepParams: SwapStepInternalParams;
  params: SwapParams;
  proof: Cell;
  constructor(s: Slice) {
    skipOp(s);
    this.queryId = s.loadUintBig(64);
    this.stepParams = new SwapStepInternalParams(s);
    this.params = new SwapParams(s.loadRef().beginParse(true));
    this.proof = s.loadRef();
  }
}

/** payout_internal#c0ffee21 query_id recipient amount notification_data:(Maybe ^NotificationDataSingle) proof:(Maybe ^Cell) */
export class CoffeePayoutInternal {
  static readonly opcode = 0xc0ffee21;
  queryId: bigint;
  recipient: Addr;
  amount: bigint;
  notificationData: NotificationDataSingle | null = null;
  proof: Cell | null;
  constructor(s: Slice) {
    skipOp(s);
    this.queryId = s.loadUintBig(64);
    this.recipient = loadAddress(s);
    this.amount = s.loadCoins();
    const n = s.loadMaybeRef();
    if (n) this.notificationData = new NotificationDataSingle(n.beginParse(true));
    this.proof = s.loadMaybeRef();
  }
}

/** deploy#c0ffee22 (read as upstream: a query_id, then code, data, Maybe action) */
export class CoffeeDeploy {
  static readonly opcode = 0xc0ffee22;
  queryId: bigint;
  code: Cell;
  data: Cell;
  action: Cell | null;
  constructor(s: Slice) {
    skipOp(s);
    this.queryId = s.loadUintBig(64);
    this.code = s.loadRef();
    this.data = s.loadRef();
    this.action = s.loadMaybeRef();
  }
}

/** create_pool_creator_request#c0ffee23 query_id amount params:PoolParams creation_params sender proof:^Cell */
export class CoffeeCreatePoolCreatorRequest {
  static readonly opcode = 0xc0ffee23;
  queryId: bigint;
  amount: bigint;
  params: PoolParams;
  creationParams: PoolCreationParams;
  sender: Addr;
  proof: Cell;
  constructor(s: Slice) {
    skipOp(s);
    this.queryId = s.loadUintBig(64);
    this.amount = s.loadCoins();
    this.params = new PoolParams(s);
    this.creationParams = new PoolCreationParams(s);
    this.sender = loadAddress(s);
    this.proof = s.loadRef();
  }
}

/** create_pool_creator_internal#c0ffee24 query_id asset:Asset amount creation_params */
export class CoffeeCreatePoolCreatorInternal {
  static readonly opcode = 0xc0ffee24;
  queryId: bigint;
  asset: Asset;
  amount: bigint;
  creationParams: PoolCreationParams;
  constructor(s: Slice) {
    skipOp(s);
    this.queryId = s.loadUintBig(64);
    this.asset = loadCoffeeAsset(s);
    this.amount = s.loadCoins();
    this.creationParams = new PoolCreationParams(s);
  }
}

/** create_pool_request#c0ffee25 query_id amount1 amount2 tx_initiator creation_params:^PoolCreationParams proof:^Cell */
export class CoffeeCreatePoolRequest {
  static readonly opcode = 0xc0ffee25;
  queryId: bigint;
  amount1: bigint;
  amount2: bigint;
  txInitiator: Addr;
  creationParams: PoolCreationParams;
  proof: Cell;
  constructor(s: Slice) {
    skipOp(s);
    this.queryId = s.loadUintBig(64);
    this.amount1 = s.loadCoins();
    this.amount2 = s.loadCoins();
    this.txInitiator = loadAddress(s);
    this.creationParams = new PoolCreationParams(s.loadRef().beginParse(true));
    this.proof = s.loadRef();
  }
}

/** create_pool_internal#c0ffee26 query_id amount1 amount2 tx_initiator recipient use_recipient_on_failure extra_settings notification_data */
export class CoffeeCreatePoolInternal {
  static readonly opcode = 0xc0ffee26;
  queryId: bigint;
  amount1: bigint;
  amount2: bigint;
  txInitiator: Addr;
  recipient: Addr;
  useRecipientOnFailure: boolean;
  extraSettings: Cell | null;
  notificationData: NotificationData | null = null;
  constructor(s: Slice) {
    skipOp(s);
    this.queryId = s.loadUintBig(64);
    this.amount1 = s.loadCoins();
    this.amount2 = s.loadCoins();
    this.txInitiator = loadAddress(s);
    this.recipient = loadAddress(s);
    this.useRecipientOnFailure = s.loadBit();
    this.extraSettings = s.loadMaybeRef();
    const n = s.loadMaybeRef();
    if (n) this.notificationData = new NotificationData(n.beginParse(true));
  }
}

/** create_liquidity_depository_request#c0ffee27 query_id amount params:^Trimmed pool_params:^PoolParams sender proof:^Cell */
export class CoffeeCreateLiquidityDepositoryRequest {
  static readonly opcode = 0xc0ffee27;
  queryId: bigint;
  amount: bigint;
  params: DepositLiquidityParamsTrimmed;
  poolParams: PoolParams;
  sender: Addr;
  proof: Cell;
  constructor(s: Slice) {
    skipOp(s);
    this.queryId = s.loadUintBig(64);
    this.amount = s.loadCoins();
    this.params = new DepositLiquidityParamsTrimmed(s.loadRef().beginParse(true));
    this.poolParams = new PoolParams(s.loadRef().beginParse(true));
    this.sender = loadAddress(s);
    this.proof = s.loadRef();
  }
}

/** create_liquidity_depository_internal#c0ffee28 query_id asset:Asset amount params:^Trimmed */
export class CoffeeCreateLiquidityDepositoryInternal {
  static readonly opcode = 0xc0ffee28;
  queryId: bigint;
  asset: Asset;
  amount: bigint;
  params: DepositLiquidityParamsTrimmed;
  constructor(s: Slice) {
    skipOp(s);
    this.queryId = s.loadUintBig(64);
    this.asset = loadCoffeeAsset(s);
    this.amount = s.loadCoins();
    this.params = new DepositLiquidityParamsTrimmed(s.loadRef().beginParse(true));
  }
}

/** deposit_liquidity_internal#c0ffee29 query_id amount1 amount2 tx_initiator params:^Trimmed proof:^Cell */
export class CoffeeDepositLiquidityInternal {
  static readonly opcode = 0xc0ffee29;
  queryId: bigint;
  amount1: bigint;
  amount2: bigint;
  txInitiator: Addr;
  params: DepositLiquidityParamsTrimmed;
  proof: Cell;
  constructor(s: Slice) {
    skipOp(s);
    this.queryId = s.loadUintBig(64);
    this.amount1 = s.loadCoins();
    this.amount2 = s.loadCoins();
    this.txInitiator = loadAddress(s);
    this.params = new DepositLiquidityParamsTrimmed(s.loadRef().beginParse(true));
    this.proof = s.loadRef();
  }
}

/** create_vault_internal#c0ffee2a query_id */
export class CoffeeCreateVaultInternal {
  static readonly opcode = 0xc0ffee2a;
  queryId: bigint;
  constructor(s: Slice) {
    skipOp(s);
    this.queryId = s.loadUintBig(64);
  }
}

/** update_pool_internal#c0ffee2b query_id excesses_receiver params:^PoolUpdateParams */
export class CoffeeUpdatePoolInternal {
  static readonly opcode = 0xc0ffee2b;
  queryId: bigint;
  excessesReceiver: Addr;
  params: PoolUpdateParams;
  constructor(s: Slice) {
    skipOp(s);
    this.queryId = s.loadUintBig(64);
    this.excessesReceiver = loadAddress(s);
    this.params = new PoolUpdateParams(s.loadRef().beginParse(true));
  }
}

/** activate_vault_internal#c0ffee2c query_id wallet */
export class CoffeeActivateVaultInternal {
  static readonly opcode = 0xc0ffee2c;
  queryId: bigint;
  wallet: Addr;
  constructor(s: Slice) {
    skipOp(s);
    this.queryId = s.loadUintBig(64);
    this.wallet = loadAddress(s);
  }
}

/** withdraw_internal#c0ffee2d query_id asset:Asset amount receiver */
export class CoffeeWithdrawInternal {
  static readonly opcode = 0xc0ffee2d;
  queryId: bigint;
  asset: Asset;
  amount: bigint;
  receiver: Addr;
  constructor(s: Slice) {
    skipOp(s);
    this.queryId = s.loadUintBig(64);
    this.asset = loadCoffeeAsset(s);
    this.amount = s.loadCoins();
    this.receiver = loadAddress(s);
  }
}

/** update_contract_internal#c0ffee2e query_id excesses_receiver _:ContractUpdate */
export class CoffeeUpdateContractInternal {
  static readonly opcode = 0xc0ffee2e;
  queryId: bigint;
  excessesReceiver: Addr;
  contractUpdate: ContractUpdate;
  constructor(s: Slice) {
    skipOp(s);
    this.queryId = s.loadUintBig(64);
    this.excessesReceiver = loadAddress(s);
    this.contractUpdate = new ContractUpdate(s);
  }
}

/** mev_protect_hold_funds#6bc79e7e query_id */
export class CoffeeMevProtectHoldFunds {
  static readonly opcode = 0x6bc79e7e;
  queryId: bigint;
  constructor(s: Slice) {
    skipOp(s);
    this.queryId = s.loadUintBig(64);
  }
}

/** service_fee#c0ffeea0 */
export class CoffeeServiceFee {
  static readonly opcode = 0xc0ffeea0;
  constructor(s: Slice) {
    skipOp(s);
  }
}

/** mev_protect_failed_swap#ee51ce51 query_id recipient */
export class CoffeeMevProtectFailedSwap {
  static readonly opcode = 0xee51ce51;
  queryId: bigint;
  recipient: Addr;
  constructor(s: Slice) {
    skipOp(s);
    this.queryId = s.loadUintBig(64);
    this.recipient = loadAddress(s);
  }
}

// ---------------------------------------------------------------- staking (read by staking.py)

export class CoffeeStakingAssetData {
  wallet: Addr;
  amount: bigint;
  constructor(s: Slice) {
    this.wallet = loadAddress(s);
    this.amount = s.loadCoins();
  }
}

export class CoffeeStakingPositionData {
  userPoints: bigint;
  additionalPoints: bigint;
  startTimestamp: bigint;
  endTimestamp: bigint;
  periodId: number;
  constructor(s: Slice) {
    this.userPoints = s.loadCoins();
    this.additionalPoints = s.loadCoins();
    this.startTimestamp = s.loadUintBig(64);
    this.endTimestamp = s.loadUintBig(64);
    this.periodId = s.loadUint(32);
  }
}

export class CoffeeStakingForwardData {
  gas: bigint;
  payload: Cell;
  constructor(s: Slice) {
    this.gas = s.loadCoins();
    this.payload = s.loadRef();
  }
}

/** staking_lock#0c0ffede period_id:uint32 (a forward payload) */
export class CoffeeStakingLock {
  static readonly opcode = 0x0c0ffede;
  periodId: number;
  constructor(s: Slice) {
    skipOp(s);
    this.periodId = s.loadUint(32);
  }
}

/** staking_deposit#f9471134 query_id sender jetton_amount from_user period_id:uint32 */
export class CoffeeStakingDeposit {
  static readonly opcode = 0xf9471134;
  queryId: bigint;
  sender: Addr;
  jettonAmount: bigint;
  fromUser: Addr;
  periodId: number;
  constructor(s: Slice) {
    skipOp(s);
    this.queryId = s.loadUintBig(64);
    this.sender = loadAddress(s);
    this.jettonAmount = s.loadCoins();
    this.fromUser = loadAddress(s);
    this.periodId = s.loadUint(32);
  }
}

/** staking_initialize#be5a7595 query_id owner jetton_data:^… position_data:^… periods:^Cell */
export class CoffeeStakingInitialize {
  static readonly opcode = 0xbe5a7595;
  queryId: bigint;
  owner: Addr;
  jettonData: CoffeeStakingAssetData;
  positionData: CoffeeStakingPositionData;
  periods: Cell;
  constructor(s: Slice) {
    skipOp(s);
    this.queryId = s.loadUintBig(64);
    this.owner = loadAddress(s);
    this.jettonData = new CoffeeStakingAssetData(s.loadRef().beginParse(true));
    this.positionData = new CoffeeStakingPositionData(s.loadRef().beginParse(true));
    this.periods = s.loadRef();
  }
}

/** staking_claim_rewards#b30c7310 query_id jetton_wallet jetton_amount receiver payload:(Maybe ^ForwardData) */
export class CoffeeStakingClaimRewards {
  static readonly opcode = 0xb30c7310;
  queryId: bigint;
  jettonWallet: Addr;
  jettonAmount: bigint;
  receiver: Addr;
  payload: CoffeeStakingForwardData | null = null;
  constructor(s: Slice) {
    skipOp(s);
    this.queryId = s.loadUintBig(64);
    this.jettonWallet = loadAddress(s);
    this.jettonAmount = s.loadCoins();
    this.receiver = loadAddress(s);
    const p = s.loadMaybeRef();
    if (p) this.payload = new CoffeeStakingForwardData(p.beginParse(true));
  }
}

/** staking_position_withdraw_1#cb03bfaf query_id */
export class CoffeeStakingPositionWithdraw1 {
  static readonly opcode = 0xcb03bfaf;
  queryId: bigint;
  constructor(s: Slice) {
    skipOp(s);
    this.queryId = s.loadUintBig(64);
  }
}

/** staking_position_withdraw_2#cb03bfaf query_id nft_id:uint64 owner points jetton_data:^[wallet amount] */
export class CoffeeStakingPositionWithdraw2 {
  static readonly opcode = 0xcb03bfaf;
  queryId: bigint;
  nftId: bigint;
  owner: Addr;
  points: bigint;
  jettonWallet: Addr;
  jettonAmount: bigint;
  constructor(s: Slice) {
    skipOp(s);
    this.queryId = s.loadUintBig(64);
    this.nftId = s.loadUintBig(64);
    this.owner = loadAddress(s);
    this.points = s.loadCoins();
    const j = s.loadRef().beginParse(true);
    this.jettonWallet = loadAddress(j);
    this.jettonAmount = j.loadCoins();
  }
}

/** staking_position_withdraw_3#cb03bfaf query_id jetton_wallet jetton_amount owner */
export class CoffeeStakingPositionWithdraw3 {
  static readonly opcode = 0xcb03bfaf;
  queryId: bigint;
  jettonWallet: Addr;
  jettonAmount: bigint;
  owner: Addr;
  constructor(s: Slice) {
    skipOp(s);
    this.queryId = s.loadUintBig(64);
    this.jettonWallet = loadAddress(s);
    this.jettonAmount = s.loadCoins();
    this.owner = loadAddress(s);
  }
}

/** staking_update_rewards#0a9577f0 query_id jetton_wallet jetton_amount duration:uint64 */
export class CoffeeStakingUpdateRewards {
  static readonly opcode = 0x0a9577f0;
  queryId: bigint;
  jettonWallet: Addr;
  jettonAmount: bigint;
  duration: bigint;
  constructor(s: Slice) {
    skipOp(s);
    this.queryId = s.loadUintBig(64);
    this.jettonWallet = loadAddress(s);
    this.jettonAmount = s.loadCoins();
    this.duration = s.loadUintBig(64);
  }
}

/** staking_rewards_updated#0a9577f0 query_id jetton_wallet duration:uint64 finish_at:uint64 rewards_rate:Coins */
export class CoffeeStakingRewardsUpdated {
  static readonly opcode = 0x0a9577f0;
  queryId: bigint;
  jettonWallet: Addr;
  duration: bigint;
  finishAt: bigint;
  rewardsRate: bigint;
  constructor(s: Slice) {
    skipOp(s);
    this.queryId = s.loadUintBig(64);
    this.jettonWallet = loadAddress(s);
    this.duration = s.loadUintBig(64);
    this.finishAt = s.loadUintBig(64);
    this.rewardsRate = s.loadCoins();
  }
}
