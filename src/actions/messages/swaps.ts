/**
 * ↔ indexer/events/blocks/messages/swaps.py: STON.fi v1 / v2, DeDust and TONCO message layouts (pTON's transfer
 * too). Each constructor reads its layout from the body slice and fails where upstream's does (a short body, a
 * bad address); the matchers rely on that failure. Upstream's quirks are kept: `StonfiSwapV2.opcode` is the
 * pay-to opcode (0x657b54f5) although the class reads a swap body (the address selectors use it so).
 */
import { Address, Cell, type ExternalAddress, type Slice } from '@ton/core';
import { Asset } from '../ton-utils.ts';
import { loadAddress, toBocCrc } from './common.ts';

type Addr = Address | ExternalAddress | null;

/** `to_str(is_user_friendly=False).upper()` of an address, '' when it is not an internal one (upstream's guard). */
function rawOrEmpty(a: Addr): string {
  return a instanceof Address ? `${a.workChain}:${a.hash.toString('hex').toUpperCase()}` : '';
}

/** pytoniq `Cell.to_slice()` / `Slice.one_from_boc`: a fresh slice over the cell. */
const sliceOf = (c: Cell): Slice => c.beginParse(true);

/** DeDust `Asset`: native$0000 | jetton$0001 workchain_id:int8 address:bits256 (read as upstream: kind uint4, wc uint8). */
export function loadDedustAsset(s: Slice): Asset {
  const kind = s.loadUint(4);
  if (kind === 0) return new Asset(true);
  const wc = s.loadUint(8);
  const hash = s.loadBuffer(32);
  return new Asset(false, `${wc}:${hash.toString('hex').toUpperCase()}`);
}

/** STON.fi v1 swap#25938561 (router -> pool). */
export class StonfiSwapMessage {
  static readonly opcode = 0x25938561;
  queryId: bigint;
  fromUserAddress: Addr;
  tokenWallet: Addr;
  amount: bigint;
  minOut: bigint;
  hasRef: boolean;
  fromRealUser: Addr;
  refAddress: Addr = null;

  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.fromUserAddress = loadAddress(s);
    this.tokenWallet = loadAddress(s);
    this.amount = s.loadCoins();
    this.minOut = s.loadCoins();
    this.hasRef = s.loadBit();
    const ref = sliceOf(s.loadRef());
    this.fromRealUser = loadAddress(ref);
    if (this.hasRef) this.refAddress = loadAddress(ref);
  }
}

/** STON.fi v1 pay_to#f93bb43f (pool -> router). */
export class StonfiPaymentRequest {
  static readonly opcode = 0xf93bb43f;
  queryId: bigint;
  owner: Addr;
  exitCode: number;
  amount0Out: bigint;
  token0Out: Addr;
  amount1Out: bigint;
  token1Out: Addr;

  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.owner = loadAddress(s);
    this.exitCode = s.loadUint(32) >>> 0;
    const ref = sliceOf(s.loadRef());
    this.amount0Out = ref.loadCoins();
    this.token0Out = loadAddress(ref);
    this.amount1Out = ref.loadCoins();
    this.token1Out = loadAddress(ref);
  }
}

/**
 * pTON ton_transfer#01f3835d query_id:uint64 ton_amount:Coins refund_address:MsgAddress
 *   forward_payload:(Either Cell ^Cell): the payload is the Maybe ref, else (refs left) the rest of the body.
 */
export class PTonTransfer {
  static readonly opcode = 0x01f3835d;
  queryId: bigint;
  tonAmount: bigint;
  refundAddress: Addr;
  forwardPayload: Cell | null;

  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.tonAmount = s.loadCoins();
    this.refundAddress = loadAddress(s);
    this.forwardPayload = s.loadMaybeRef();
    if (!this.forwardPayload && s.remainingRefs > 0) this.forwardPayload = s.asCell();
  }
}

/** STON.fi v2 pay_to#657b54f5 (pool -> router); upstream's class has no opcode attribute. */
export class StonfiV2PayTo {
  queryId: bigint;
  toAddress: Addr;
  excessesAddress: Addr;
  originalCaller: Addr;
  exitCode: number;
  customPayload: Cell | null;
  fwdTonAmount: bigint;
  amount0Out: bigint;
  token0Address: Addr;
  amount1Out: bigint;
  token1Address: Addr;

  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.toAddress = loadAddress(s);
    this.excessesAddress = loadAddress(s);
    this.originalCaller = loadAddress(s);
    this.exitCode = s.loadUint(32) >>> 0;
    this.customPayload = s.loadMaybeRef();
    const info = sliceOf(s.loadRef());
    this.fwdTonAmount = info.loadCoins();
    this.amount0Out = info.loadCoins();
    this.token0Address = loadAddress(info);
    this.amount1Out = info.loadCoins();
    this.token1Address = loadAddress(info);
  }
}

/** DeDust swap notification (pool -> external out, the swap event) #9c610de3. */
export class DedustSwapNotification {
  static readonly opcode = 0x9c610de3;
  assetIn: Asset;
  assetOut: Asset;
  amountIn: bigint;
  amountOut: bigint;
  senderAddress: Addr;
  refAddress: Addr;
  reserve0: bigint;
  reserve1: bigint;

  constructor(s: Slice) {
    s.loadUint(32);
    this.assetIn = loadDedustAsset(s);
    this.assetOut = loadDedustAsset(s);
    this.amountIn = s.loadCoins();
    this.amountOut = s.loadCoins();
    const ref = sliceOf(s.loadRef());
    this.senderAddress = loadAddress(ref);
    this.refAddress = loadAddress(ref);
    this.reserve0 = ref.loadCoins();
    this.reserve1 = ref.loadCoins();
  }
}

/** DeDust payout#474f86cf (vault -> user, TON). */
export class DedustPayout {
  static readonly opcode = 0x474f86cf;
  queryId: bigint;
  proof: Cell;
  amount: bigint;

  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.proof = s.loadRef();
    this.amount = s.loadCoins();
  }
}

/** DeDust payout_from_pool#ad4eb6f5 (pool -> vault). */
export class DedustPayoutFromPool {
  static readonly opcode = 0xad4eb6f5;
  queryId: bigint;
  proof: Cell;
  amount: bigint;

  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.proof = s.loadRef();
    this.amount = s.loadCoins();
  }
}

export const DedustSwapPeer = { opcode: 0x72aca8aa } as const;
export const DedustSwapExternal = { opcode: 0x61ee542d } as const;
export const DedustSwap = { opcode: 0xea06185d } as const;
export const DedustSwapPayload = { opcode: 0xe3a0d482 } as const;

/** STON.fi v2 swap body (its ops 0x6664de2a); `opcode` is upstream's (the pay-to one). */
export class StonfiSwapV2 {
  static readonly opcode = 0x657b54f5;
  queryId: bigint;
  fromUser: Addr;
  leftAmount: bigint;
  rightAmount: bigint;
  transferredOp: number;
  tokenWallet1: Addr;
  refundAddress: Addr;
  excessesAddress: Addr;
  txDeadline: bigint;
  minOut: bigint;
  receiver: Addr;
  fwdGas: bigint;
  /** BoC (crc32c) of the custom payload */
  customPayload: Buffer | null = null;
  refundFwdGas: bigint;
  refundPayload: Buffer | null = null;
  refFee: number;
  refAddress: Addr;

  constructor(s: Slice) {
    s.skip(32);
    this.queryId = s.loadUintBig(64);
    this.fromUser = loadAddress(s);
    this.leftAmount = s.loadCoins();
    this.rightAmount = s.loadCoins();
    const dex = sliceOf(s.loadRef());
    this.transferredOp = dex.loadUint(32) >>> 0;
    this.tokenWallet1 = loadAddress(dex);
    this.refundAddress = loadAddress(dex);
    this.excessesAddress = loadAddress(dex);
    this.txDeadline = dex.loadUintBig(64);
    const body = sliceOf(dex.loadRef());
    this.minOut = body.loadCoins();
    this.receiver = loadAddress(body);
    this.fwdGas = body.loadCoins();
    const custom = body.loadMaybeRef();
    if (custom) this.customPayload = toBocCrc(custom);
    this.refundFwdGas = body.loadCoins();
    const refund = body.loadMaybeRef();
    if (refund) this.refundPayload = toBocCrc(refund);
    this.refFee = body.loadUint(16);
    this.refAddress = loadAddress(body);
  }

  /** The pool wallets of the route: the first hop's, then each cross-swap's from the custom payload chain. */
  getPoolAccountsRecursive(): string[] {
    const accounts = [rawOrEmpty(this.tokenWallet1)];
    if (this.customPayload === null) return accounts;
    let current = sliceOf(cellOf(this.customPayload));
    for (;;) {
      const sumType = current.loadUint(32) >>> 0;
      if (sumType !== 0x6664de2a && sumType !== 0x69cf1a5b) break;
      accounts.push(rawOrEmpty(loadAddress(current)));
      if (current.remainingRefs === 0) break;
      const cross = sliceOf(current.loadRef());
      cross.loadCoins(); // min_out
      cross.loadCoins();
      if (cross.remainingRefs === 0) break;
      const custom = cross.loadMaybeRef();
      if (!custom) break;
      current = sliceOf(custom);
    }
    return accounts;
  }
}

function cellOf(boc: Buffer): Cell {
  return Cell.fromBoc(boc)[0];
}

// ---------------------------------------------------------------- TONCO (router, position NFT, pool, account)

/** ROUTERV3_CREATE_POOL#2e3034ef */
export class ToncoRouterV3CreatePool {
  static readonly opcode = 0x2e3034ef;
  queryId: bigint;
  jettonWallet0: Addr;
  jettonWallet1: Addr;
  tickSpacing: number;
  initialPriceX96: bigint;
  protocolFee: number;
  lpFeeBase: number;
  lpFeeCurrent: number;
  nftv3Content: Cell;
  nftv3itemContent: Cell;
  jetton0Minter: Addr;
  jetton1Minter: Addr;
  controllerAddr: Addr;

  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.jettonWallet0 = loadAddress(s);
    this.jettonWallet1 = loadAddress(s);
    this.tickSpacing = s.loadInt(24);
    this.initialPriceX96 = s.loadUintBig(160);
    this.protocolFee = s.loadUint(16);
    this.lpFeeBase = s.loadUint(16);
    this.lpFeeCurrent = s.loadUint(16);
    this.nftv3Content = s.loadRef();
    this.nftv3itemContent = s.loadRef();
    const minter = sliceOf(s.loadRef());
    this.jetton0Minter = loadAddress(minter);
    this.jetton1Minter = loadAddress(minter);
    this.controllerAddr = loadAddress(minter);
  }
}

/**
 * ROUTERV3_PAY_TO#a1daa96d query_id:uint64 reciever0:MsgAddress reciever1:MsgAddress exit_code:uint32 seqno:uint64
 *   coinsinfo_cell:(Maybe ^[amount0 jetton0_address amount1 jetton1_address])
 *   (exit_code = 200)?(indexer_swap_info_cell:(Maybe ^…)) (exit_code = 201)?(indexer_burn_info_cell:(Maybe ^…))
 */
export class ToncoRouterV3PayTo {
  static readonly opcode = 0xa1daa96d;
  queryId: bigint;
  receiver0: Addr;
  receiver1: Addr;
  exitCode: number;
  seqno: bigint;
  amount0: bigint | null = null;
  jetton0Address: Addr = null;
  amount1: bigint | null = null;
  jetton1Address: Addr = null;
  liquidity: bigint | null = null;
  priceSqrt: bigint | null = null;
  tickSwap: number | null = null;
  feeGrowthGlobal0x128: bigint | null = null;
  feeGrowthGlobal1x128: bigint | null = null;
  hasSwapInfo = false;
  nftIndex: bigint | null = null;
  liquidityBurned: bigint | null = null;
  tickLower: number | null = null;
  tickUpper: number | null = null;
  tickBurn: number | null = null;
  hasBurnInfo = false;

  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.receiver0 = loadAddress(s);
    this.receiver1 = loadAddress(s);
    this.exitCode = s.loadUint(32) >>> 0;
    this.seqno = s.loadUintBig(64);
    const coins = s.loadMaybeRef();
    if (coins) {
      const c = sliceOf(coins);
      this.amount0 = c.loadCoins();
      this.jetton0Address = loadAddress(c);
      this.amount1 = c.loadCoins();
      this.jetton1Address = loadAddress(c);
    }
    if (this.exitCode === 200) {
      this.hasSwapInfo = true;
      const info = s.loadMaybeRef();
      if (info) {
        const i = sliceOf(info);
        this.liquidity = i.loadUintBig(128);
        this.priceSqrt = i.loadUintBig(160);
        this.tickSwap = i.loadInt(24);
        this.feeGrowthGlobal0x128 = i.loadIntBig(256);
        this.feeGrowthGlobal1x128 = i.loadIntBig(256);
      }
    }
    if (this.exitCode === 201) {
      this.hasBurnInfo = true;
      const info = s.loadMaybeRef();
      if (info) {
        const i = sliceOf(info);
        this.nftIndex = i.loadUintBig(64);
        this.liquidityBurned = i.loadUintBig(128);
        this.tickLower = i.loadInt(24);
        this.tickUpper = i.loadInt(24);
        this.tickBurn = i.loadInt(24);
      }
    }
  }

  getJettonWallets(): string[] {
    const out: string[] = [];
    if (this.jetton0Address instanceof Address) out.push(rawOrEmpty(this.jetton0Address));
    if (this.jetton1Address instanceof Address) out.push(rawOrEmpty(this.jetton1Address));
    return out;
  }
}

/** ROUTERV3_RESET_GAS#42a0fb43 */
export class ToncoResetGas {
  static readonly opcode = 0x42a0fb43;
  queryId: bigint;
  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
  }
}

/** POSITIONNFTV3_POSITION_INIT#d5ecca2a */
export class ToncoPositionNftV3PositionInit {
  static readonly opcode = 0xd5ecca2a;
  queryId: bigint;
  userAddress: Addr;
  liquidity: bigint;
  tickLower: number;
  tickUpper: number;
  feeGrowthInside0LastX128: bigint;
  feeGrowthInside1LastX128: bigint;
  nftIndex: bigint;
  jetton0Amount: bigint;
  jetton1Amount: bigint;
  tick: number;

  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.userAddress = loadAddress(s);
    this.liquidity = s.loadUintBig(128);
    this.tickLower = s.loadInt(24);
    this.tickUpper = s.loadInt(24);
    const fee = sliceOf(s.loadRef());
    this.feeGrowthInside0LastX128 = fee.loadUintBig(256);
    this.feeGrowthInside1LastX128 = fee.loadUintBig(256);
    this.nftIndex = fee.loadUintBig(64);
    this.jetton0Amount = fee.loadCoins();
    this.jetton1Amount = fee.loadCoins();
    this.tick = fee.loadInt(24);
  }
}

/** POSITIONNFTV3_POSITION_BURN#46ca335a */
export class ToncoPositionNftV3PositionBurn {
  static readonly opcode = 0x46ca335a;
  queryId: bigint;
  nftOwner: Addr;
  liquidityToBurn: bigint;
  tickLower: number;
  tickUpper: number;
  feeGrowthInside0LastX128: bigint;
  feeGrowthInside1LastX128: bigint;

  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.nftOwner = loadAddress(s);
    this.liquidityToBurn = s.loadUintBig(128);
    this.tickLower = s.loadInt(24);
    this.tickUpper = s.loadInt(24);
    const fee = sliceOf(s.loadRef());
    this.feeGrowthInside0LastX128 = fee.loadUintBig(256);
    this.feeGrowthInside1LastX128 = fee.loadUintBig(256);
  }
}

/** POOLV3_INIT#441c39ed */
export class ToncoPoolV3Init {
  static readonly opcode = 0x441c39ed;
  queryId: bigint;
  fromAdmin: boolean;
  hasAdmin: boolean;
  adminAddr: Addr;
  hasController: boolean;
  controllerAddr: Addr;
  setSpacing: boolean;
  tickSpacing: number;
  setPrice: boolean;
  initialPriceX96: bigint;
  setActive: boolean;
  poolActive: boolean;
  protocolFee: number;
  lpFeeBase: number;
  lpFeeCurrent: number;
  nftv3Content: Cell;
  nftv3itemContent: Cell;
  jetton0Minter: Addr = null;
  jetton1Minter: Addr = null;

  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.fromAdmin = s.loadBit();
    this.hasAdmin = s.loadBit();
    this.adminAddr = loadAddress(s);
    this.hasController = s.loadBit();
    this.controllerAddr = loadAddress(s);
    this.setSpacing = s.loadBit();
    this.tickSpacing = s.loadInt(24);
    this.setPrice = s.loadBit();
    this.initialPriceX96 = s.loadUintBig(160);
    this.setActive = s.loadBit();
    this.poolActive = s.loadBit();
    this.protocolFee = s.loadUint(16);
    this.lpFeeBase = s.loadUint(16);
    this.lpFeeCurrent = s.loadUint(16);
    this.nftv3Content = s.loadRef();
    this.nftv3itemContent = s.loadRef();
    const minter = s.loadMaybeRef();
    if (minter) {
      const m = sliceOf(minter);
      this.jetton0Minter = loadAddress(m);
      this.jetton1Minter = loadAddress(m);
    }
  }
}

/** POOLV3_LOCK#b1b0b7e2 / POOLV3_UNLOCK#4e737e4d */
export const ToncoPoolV3Lock = { opcode: 0xb1b0b7e2 } as const;
export const ToncoPoolV3Unlock = { opcode: 0x4e737e4d } as const;

/** POOLV3_MINT#b2c1b6e3 */
export class ToncoPoolV3Mint {
  static readonly opcode = 0xb2c1b6e3;
  queryId: bigint;
  ownerAddr: Addr;
  amount0: bigint;
  amount1: bigint;
  enough0: bigint;
  enough1: bigint;
  liquidity: bigint;
  tickLower: number;
  tickUpper: number;

  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.ownerAddr = loadAddress(s);
    this.amount0 = s.loadCoins();
    this.amount1 = s.loadCoins();
    this.enough0 = s.loadCoins();
    this.enough1 = s.loadCoins();
    this.liquidity = s.loadUintBig(128);
    this.tickLower = s.loadInt(24);
    this.tickUpper = s.loadInt(24);
  }
}

/** POOLV3_MINT (and refund)#81702ef8 */
export class ToncoPoolV3MinAndRefund {
  static readonly opcode = 0x81702ef8;
  queryId: bigint;
  amount0Funded: bigint;
  amount1Funded: bigint;
  recipient: Addr;
  liquidity: bigint;
  tickLower: number;
  tickUpper: number;

  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.amount0Funded = s.loadCoins();
    this.amount1Funded = s.loadCoins();
    this.recipient = loadAddress(s);
    this.liquidity = s.loadUintBig(128);
    this.tickLower = s.loadInt(24);
    this.tickUpper = s.loadInt(24);
  }
}

/** POOLV3_BURN#d73ac09d */
export class ToncoPoolV3Burn {
  static readonly opcode = 0xd73ac09d;
  queryId: bigint;
  recipient: Addr;
  burnedIndex: bigint;
  liquidity: bigint;
  tickLower: number;
  tickUpper: number;
  liquidityToBurn: bigint;

  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.recipient = loadAddress(s);
    this.burnedIndex = s.loadUintBig(64);
    this.liquidity = s.loadUintBig(128);
    this.tickLower = s.loadInt(24);
    this.tickUpper = s.loadInt(24);
    this.liquidityToBurn = s.loadUintBig(128);
    const oldFee = sliceOf(s.loadRef());
    oldFee.loadUintBig(256);
    oldFee.loadUintBig(256);
    const newFee = sliceOf(s.loadRef());
    newFee.loadUintBig(256);
    newFee.loadUintBig(256);
  }
}

/** POOLV3_SET_FEE#6bdcbeb8 */
export const ToncoPoolV3SetFee = { opcode: 0x6bdcbeb8 } as const;

/** POOLV3_FUND_ACCOUNT#4468de77 (the message to the account contract) */
export class ToncoPoolV3FundAccount {
  static readonly opcode = 0x4468de77;
  queryId: bigint;
  ownerAddr: Addr;
  amount0: bigint;
  amount1: bigint;
  enough0: bigint;
  enough1: bigint;
  liquidity: bigint;
  tickLower: number;
  tickUpper: number;

  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.ownerAddr = loadAddress(s);
    this.amount0 = s.loadCoins();
    this.amount1 = s.loadCoins();
    this.enough0 = s.loadCoins();
    this.enough1 = s.loadCoins();
    this.liquidity = s.loadUintBig(128);
    this.tickLower = s.loadInt(24);
    this.tickUpper = s.loadInt(24);
  }
}

/** POOLV3_START_BURN#530b5f2c */
export class ToncoPoolV3StartBurn {
  static readonly opcode = 0x530b5f2c;
  queryId: bigint;
  burnedIndex: bigint;
  liquidityToBurn: bigint;
  tickLower: number;
  tickUpper: number;

  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.burnedIndex = s.loadUintBig(64);
    this.liquidityToBurn = s.loadUintBig(128);
    this.tickLower = s.loadInt(24);
    this.tickUpper = s.loadInt(24);
  }
}

/** POOLV3_SWAP#a7fb58f8 (router -> pool) */
export class ToncoPoolV3Swap {
  static readonly opcode = 0xa7fb58f8;
  queryId: bigint;
  ownerAddress: Addr;
  sourceWallet: Addr;
  amount: bigint;
  sqrtPriceLimitX96: bigint;
  minOutAmount: bigint;
  targetAddress: Addr;
  okForwardAmount: bigint;
  okForwardPayload: Cell | null;
  retForwardAmount: bigint;
  retForwardPayload: Cell | null;

  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.ownerAddress = loadAddress(s);
    this.sourceWallet = loadAddress(s);
    const params = sliceOf(s.loadRef());
    this.amount = params.loadCoins();
    this.sqrtPriceLimitX96 = params.loadUintBig(160);
    this.minOutAmount = params.loadCoins();
    const payloads = sliceOf(s.loadRef());
    this.targetAddress = loadAddress(payloads);
    this.okForwardAmount = payloads.loadCoins();
    this.okForwardPayload = payloads.loadMaybeRef();
    this.retForwardAmount = payloads.loadCoins();
    this.retForwardPayload = payloads.loadMaybeRef();
  }
}

/**
 * The swap request TONCO's SDK puts in a transfer's forward payload (same opcode as POOLV3_SWAP, another layout):
 * op:uint32 target_router_jwallet:MsgAddress price_limit_sqrt:uint160 min_out:Coins recipient:MsgAddress
 * payload:(Maybe ^Cell) — a multi-hop route nests the next request in `payload`.
 */
export class ToncoPoolV3SwapPayload {
  static readonly payloadOpcode = 0xa7fb58f8;
  targetRouterJwallet: Addr;
  priceLimitSqrt: bigint;
  minOutAmount: bigint;
  recipient: Addr;
  payload: Cell | null;

  constructor(s: Slice) {
    s.loadUint(32);
    this.targetRouterJwallet = loadAddress(s);
    this.priceLimitSqrt = s.loadUintBig(160);
    this.minOutAmount = s.loadCoins();
    this.recipient = loadAddress(s);
    this.payload = s.loadMaybeRef();
  }

  getTargetWalletsAndAmountsRecursive(): Array<[string, bigint]> {
    const out: Array<[string, bigint]> = [];
    if (this.targetRouterJwallet instanceof Address) out.push([rawOrEmpty(this.targetRouterJwallet), this.minOutAmount]);
    if (this.payload) {
      try {
        const inner = sliceOf(this.payload);
        if (inner.preloadUint(32) >>> 0 === ToncoPoolV3SwapPayload.payloadOpcode) out.push(...new ToncoPoolV3SwapPayload(inner).getTargetWalletsAndAmountsRecursive());
      } catch {
        // a nested payload that does not read ends the route
      }
    }
    return out;
  }

  getTargetWalletsRecursive(): Set<string> {
    return new Set(this.getTargetWalletsAndAmountsRecursive().map(([w]) => w));
  }
}

/**
 * The liquidity provision request in a transfer's forward payload: op:uint32 (0x4468de77) other_jetton_wallet:MsgAddress
 * amount0:Coins amount1:Coins … (upstream reads no further).
 */
export class ToncoPoolV3FundAccountPayload {
  static readonly payloadOpcode = 0x4468de77;
  otherJettonWallet: Addr;
  amount0: bigint;
  amount1: bigint;

  constructor(s: Slice) {
    s.loadUint(32);
    this.otherJettonWallet = loadAddress(s);
    this.amount0 = s.loadCoins();
    this.amount1 = s.loadCoins();
  }

  getOtherJettonWallet(): string {
    if (!(this.otherJettonWallet instanceof Address)) throw new Error('other_jetton_wallet is not an Address');
    return rawOrEmpty(this.otherJettonWallet);
  }
}

/** ACCOUNTV3_ADD_LIQUIDITY#3ebe5431 */
export class ToncoAccountV3AddLiquidity {
  static readonly opcode = 0x3ebe5431;
  queryId: bigint;
  newAmount0: bigint;
  newAmount1: bigint;
  newEnough0: bigint;
  newEnough1: bigint;
  liquidity: bigint;
  tickLower: number;
  tickUpper: number;

  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.newAmount0 = s.loadCoins();
    this.newAmount1 = s.loadCoins();
    this.newEnough0 = s.loadCoins();
    this.newEnough1 = s.loadCoins();
    this.liquidity = s.loadUintBig(128);
    this.tickLower = s.loadInt(24);
    this.tickUpper = s.loadInt(24);
  }
}

/** ACCOUNTV3_REFUND_ME#0bf3f447 */
export const ToncoAccountV3RefundMe = { opcode: 0x0bf3f447 } as const;
