/**
 * Family matchers in priority order (the first to claim a node wins; later ones may absorb the block
 * types they list). The order follows the reference classifier's where it matters.
 */
import type { Family } from '../family.ts';
import { auctionBidFamily } from './auction-bid.ts';
import { cocoonFamily } from './cocoon.ts';
import { coffeeSwapFamily } from './coffee.ts';
import { coffeeCreatePoolFamily, coffeeLiquidityFamily, coffeeWithdrawFamily } from './coffee-liquidity.ts';
import { dedustSwapFamily } from './dedust.ts';
import { dedustLiquidityFamily } from './dedust-liquidity.ts';
import { dnsFamily } from './dns.ts';
import { electionsFamily } from './elections.ts';
import { ethenaFamily } from './ethena.ts';
import { evaaFamily } from './evaa.ts';
import { jettonBurnFamily, jettonMintFamily } from './jetton-mint-burn.ts';
import { jettonTransferFamily } from './jetton-transfer.ts';
import { jvaultFamily } from './jvault.ts';
import { layerzeroFamily } from './layerzero.ts';
import { multisigFamily } from './multisig.ts';
import { nftMintFamily, nftPurchaseFamily, nftTransferFamily } from './nft.ts';
import { nominatorPoolFamily } from './nominator-pool.ts';
import { tonstakersFamily } from './staking.ts';
import { stonfiSwapFamily } from './stonfi.ts';
import { stonfiV2SwapFamily } from './stonfi-v2.ts';
import { subscriptionsFamily } from './subscriptions.ts';
import { tgbtcFamily } from './tgbtc.ts';
import { toncoDeployPoolFamily, toncoSwapFamily } from './tonco.ts';
import { toncoDepositLiquidityFamily } from './tonco-liquidity.ts';
import { vestingFamily } from './vesting.ts';

export const FAMILIES: readonly Family[] = [
  nftMintFamily,
  jettonTransferFamily,
  jettonBurnFamily,
  tonstakersFamily,
  dedustLiquidityFamily,
  vestingFamily,
  multisigFamily,
  nominatorPoolFamily,
  dedustSwapFamily,
  stonfiSwapFamily,
  stonfiV2SwapFamily,
  toncoSwapFamily,
  toncoDeployPoolFamily,
  coffeeSwapFamily,
  coffeeLiquidityFamily,
  coffeeWithdrawFamily,
  coffeeCreatePoolFamily,
  nftPurchaseFamily,
  nftTransferFamily,
  dnsFamily,
  electionsFamily,
  subscriptionsFamily,
  auctionBidFamily,
  jettonMintFamily,
  ethenaFamily,
  jvaultFamily,
  evaaFamily,
  tgbtcFamily,
  toncoDepositLiquidityFamily,
  layerzeroFamily,
  cocoonFamily,
];
