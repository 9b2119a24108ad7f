/**
 * ↔ indexer/events/blocks/messages/staking.py: Tonstakers and nominator-pool opcodes, the Tonstakers NFT burn
 * notification, and (newer upstream) Hipo's message layouts, from Hipo's contracts/schema.tlb as upstream reads
 * them. Each constructor fails where upstream's does (a short body, an addr_var address).
 */
import type { Address, ExternalAddress, Slice } from '@ton/core';
import { loadAddress } from './common.ts';

type Addr = Address | ExternalAddress | null;

export const TONStakersDepositRequest = { opcode: 0x47d54391 } as const;
export const TONStakersWithdrawRequest = { opcode: 0x319b0cdc } as const;
/** The pool mints jettons and request NFTs with the same opcode; which one depends on the request above it. */
export const TONStakersMintJettons = { opcode: 0x1674b0a0 } as const;
export const TONStakersMintNFT = { opcode: 0x1674b0a0 } as const;
export const TONStakersInitNFT = { opcode: 0x132f9a45 } as const;
export const TONStakersNftBurn = { opcode: 0xf127fe4e } as const;
/** Payout after the request NFT is burnt. */
export const TONStakersDistributedAsset = { opcode: 0xdb3b8abd } as const;
export const TONStakersPoolWithdrawal = { opcode: 0x0a77535c } as const;
/** The pool's "start asset distribution" call, which upstream's pool-address walk stops at. */
export const TONStakersStartDistribution = { opcode: 0x1140a64f } as const;
export const NominatorPoolProcessWithdrawRequests = { opcode: 0x00000002 } as const;

/** burn_notification#ed58b0b2 query_id:uint64 amount:Coins owner:MsgAddress */
export class TONStakersNftBurnNotification {
  static readonly opcode = 0xed58b0b2;
  queryId: bigint;
  amount: bigint;
  owner: Addr;

  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.amount = s.loadCoins();
    this.owner = loadAddress(s);
  }
}

// ---------------------------------------------------------------- Hipo (newer upstream)

/** The treasury never changes (user wallets and the jetton parent may be upgraded); matchers key on it. */
export const HIPO_TREASURY_ADDRESS = '0:8BC991CFE177BC7E9721433EFA3BEFD199485A55CFFD040A06C89AF026B71BCF';
export const HIPO_PARENT_ADDRESS = '0:CF76AF318C0872B58A9F1925FC29C156211782B9FB01F56760D292E56123BF87';

function op(s: Slice): bigint {
  s.loadUint(32);
  return s.loadUintBig(64);
}

/** deposit_coins#3d3761a6 query_id owner:MsgAddress coins:Coins ownership_assigned_amount:Coins referrer:MsgAddress */
export class HipoDepositCoins {
  static readonly opcode = 0x3d3761a6;
  queryId: bigint;
  owner: Addr;
  coins: bigint;
  ownershipAssignedAmount: bigint;
  referrer: Addr;
  constructor(s: Slice) {
    this.queryId = op(s);
    this.owner = loadAddress(s);
    this.coins = s.loadCoins();
    this.ownershipAssignedAmount = s.loadCoins();
    this.referrer = loadAddress(s);
  }
}

/** proxy_tokens_minted#5be57626 / tokens_minted#5445efee: query_id tokens:Coins coins:Coins owner round_since:uint32 */
class HipoTokensMintedLayout {
  queryId: bigint;
  tokens: bigint;
  coins: bigint;
  owner: Addr;
  roundSince: number;
  constructor(s: Slice) {
    this.queryId = op(s);
    this.tokens = s.loadCoins();
    this.coins = s.loadCoins();
    this.owner = loadAddress(s);
    this.roundSince = s.loadUint(32);
  }
}
export class HipoProxyTokensMinted extends HipoTokensMintedLayout {
  static readonly opcode = 0x5be57626;
}
export class HipoTokensMinted extends HipoTokensMintedLayout {
  static readonly opcode = 0x5445efee;
}

/** proxy_save_coins#47daa10f / save_coins#4cce0e74: query_id coins:Coins owner round_since:uint32 */
class HipoSaveCoinsLayout {
  queryId: bigint;
  coins: bigint;
  owner: Addr;
  roundSince: number;
  constructor(s: Slice) {
    this.queryId = op(s);
    this.coins = s.loadCoins();
    this.owner = loadAddress(s);
    this.roundSince = s.loadUint(32);
  }
}
export class HipoProxySaveCoins extends HipoSaveCoinsLayout {
  static readonly opcode = 0x47daa10f;
}
export class HipoSaveCoins extends HipoSaveCoinsLayout {
  static readonly opcode = 0x4cce0e74;
}

/** mint_bill#4b2d7871 / assign_bill#3275dfc2: query_id amount:Coins unstake:Bool owner parent ownership_assigned_amount:Coins */
class HipoBillLayout {
  queryId: bigint;
  amount: bigint;
  unstake: boolean;
  owner: Addr;
  parent: Addr;
  ownershipAssignedAmount: bigint;
  constructor(s: Slice) {
    this.queryId = op(s);
    this.amount = s.loadCoins();
    this.unstake = s.loadBit();
    this.owner = loadAddress(s);
    this.parent = loadAddress(s);
    this.ownershipAssignedAmount = s.loadCoins();
  }
}
export class HipoMintBill extends HipoBillLayout {
  static readonly opcode = 0x4b2d7871;
}
export class HipoAssignBill extends HipoBillLayout {
  static readonly opcode = 0x3275dfc2;
}

/** proxy_reserve_tokens#688b0213 / reserve_tokens#386a358b: query_id tokens:Coins owner mode:uint4 ownership_assigned_amount:Coins */
class HipoReserveTokensLayout {
  queryId: bigint;
  tokens: bigint;
  owner: Addr;
  mode: number;
  ownershipAssignedAmount: bigint;
  constructor(s: Slice) {
    this.queryId = op(s);
    this.tokens = s.loadCoins();
    this.owner = loadAddress(s);
    this.mode = s.loadUint(4);
    this.ownershipAssignedAmount = s.loadCoins();
  }
}
export class HipoProxyReserveTokens extends HipoReserveTokensLayout {
  static readonly opcode = 0x688b0213;
}
export class HipoReserveTokens extends HipoReserveTokensLayout {
  static readonly opcode = 0x386a358b;
}

/** proxy_tokens_burned#4476fde0 query_id tokens:Coins coins:Coins owner */
export class HipoProxyTokensBurned {
  static readonly opcode = 0x4476fde0;
  queryId: bigint;
  tokens: bigint;
  coins: bigint;
  owner: Addr;
  constructor(s: Slice) {
    this.queryId = op(s);
    this.tokens = s.loadCoins();
    this.coins = s.loadCoins();
    this.owner = loadAddress(s);
  }
}

/** tokens_burned#5b512e25 / withdrawal_notification#f0fa223b: query_id tokens:Coins coins:Coins */
export const HipoTokensBurned = { opcode: 0x5b512e25 } as const;
export const HipoWithdrawalNotification = { opcode: 0xf0fa223b } as const;

/** proxy_rollback_unstake#32b67194 query_id tokens:Coins owner */
export class HipoProxyRollbackUnstake {
  static readonly opcode = 0x32b67194;
  queryId: bigint;
  tokens: bigint;
  owner: Addr;
  constructor(s: Slice) {
    this.queryId = op(s);
    this.tokens = s.loadCoins();
    this.owner = loadAddress(s);
  }
}

export const HipoRollbackUnstake = { opcode: 0x1b77fd1a } as const;
export const HipoBurnBill = { opcode: 0x6f89f5e3 } as const;
export const HipoBillBurned = { opcode: 0x840f6369 } as const;

/** mint_tokens#42684479 / burn_tokens#7cffe1ee (bill collection -> treasury): query_id amount:Coins owner parent round_since:uint32 */
class HipoRoundEndLayout {
  queryId: bigint;
  amount: bigint;
  owner: Addr;
  parent: Addr;
  roundSince: number;
  constructor(s: Slice) {
    this.queryId = op(s);
    this.amount = s.loadCoins();
    this.owner = loadAddress(s);
    this.parent = loadAddress(s);
    this.roundSince = s.loadUint(32);
  }
}
/** `coins` is the amount field. */
export class HipoMintTokens extends HipoRoundEndLayout {
  static readonly opcode = 0x42684479;
}
/** `tokens` is the amount field. */
export class HipoBurnTokens extends HipoRoundEndLayout {
  static readonly opcode = 0x7cffe1ee;
}
