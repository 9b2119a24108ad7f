/**
 * ↔ the `matchers` / `matchers_for_failed_externals` / `trace_post_processors` lists of
 * indexer/events/event_processing.py: upstream's order, by upstream's class and function names. Complete: a
 * name no family exports yet (families/index.ts) is skipped, so porting a family never touches this file.
 * Each matcher is offered every top-level block, in this order; the first to take a block wins it.
 */
export const MATCHER_ORDER: readonly string[] = [
  'NftMintBlockMatcher', // nft.py
  'TONStakersDelayedWithdrawalMatcher', // staking.py
  'DedustDepositBlockMatcher', // liquidity.py
  'DedustDepositFirstAssetBlockMatcher', // liquidity.py
  'TONStakersDepositMatcher', // staking.py
  'TONStakersWithdrawMatcher', // staking.py
  // newer upstream's Hipo (staking.py; its place in upstream's list was not read: the unstake must come before
  // JettonBurnBlockMatcher, as its own comment says, the others take messages no other matcher claims)
  'HipoUnstakeMatcher', // staking.py
  'HipoDepositMatcher', // staking.py
  'HipoCommentDepositMatcher', // staking.py
  'HipoRoundEndDepositMatcher', // staking.py
  'HipoRoundEndWithdrawalMatcher', // staking.py
  'MultisigCreateOrderBlockMatcher', // multisig.py
  'MultisigApproveBlockMatcher', // multisig.py
  'MultisigExecuteBlockMatcher', // multisig.py
  'VestingSendMessageBlockMatcher', // vesting.py
  'VestingAddWhiteListBlockMatcher', // vesting.py
  'NominatorPoolDepositMatcher', // staking.py
  'NominatorPoolWithdrawRequestMatcher', // staking.py
  'NominatorPoolWithdrawMatcher', // staking.py
  'JettonTransferBlockMatcher', // jettons.py
  'PTonTransferMatcher', // jettons.py
  'DedustWithdrawBlockMatcher', // liquidity.py
  'JettonBurnBlockMatcher', // jettons.py
  'DedustSwapBlockMatcher', // swaps.py
  // newer upstream: `*dedust_v2.matchers()` right after the DeDust swap matcher
  'DedustV2SwapBlockMatcher', // dedust_v2/swaps.py
  'DedustV2FailedSwapBlockMatcher', // dedust_v2/swaps.py
  'DedustV2WithdrawBlockMatcher', // dedust_v2/liquidity.py
  'DedustV2DepositBlockMatcher', // dedust_v2/liquidity.py
  'DedustV2RejectedDepositBlockMatcher', // dedust_v2/liquidity.py
  'DedustV2DepositPartialBlockMatcher', // dedust_v2/liquidity.py
  'DedustV2ClaimFeesBlockMatcher', // dedust_v2/claims.py
  'DedustV2ClaimRewardBlockMatcher', // dedust_v2/claims.py
  'StonfiSwapBlockMatcher', // swaps.py
  'StonfiV2SwapBlockMatcher', // swaps.py
  'ToncoSwapBlockMatcher', // swaps.py
  'DnsReleaseMatcher', // auction.py
  'DnsPurchaseMatcher', // auction.py
  'UpdateSaleMatcher', // auction.py
  'NftTransferBlockMatcher', // nft.py
  'TelegramNftPurchaseBlockMatcher', // nft.py
  'GetgemsNftPurchaseBlockMatcher', // nft.py
  'NftPutOnSaleBlockMatcher', // auction.py
  'TeleitemStartAuctionMatcher', // auction.py
  'TeleitemCancelAuctionMatcher', // auction.py
  'NftDiscoveryBlockMatcher', // nft.py
  'ChangeDnsRecordMatcher', // dns.py
  'ElectionDepositStakeBlockMatcher', // elections.py
  'ElectionRecoverStakeBlockMatcher', // elections.py
  'SubscriptionBlockMatcher', // subscriptions.py
  'UnsubscribeBlockMatcher', // subscriptions.py
  'AuctionBidMatcher', // auction.py
  'AuctionOutbidMatcher', // auction.py
  'NftCancelSaleMatcher', // auction.py
  'NftFinishAuctionMatcher', // auction.py
  'NftCancelAuctionMatcher', // auction.py
  'EthenaWithdrawalRequestBlockMatcher', // ethena_staking.py
  'JettonMintBlockMatcher', // jettons.py
  'EthenaDepositBlockMatcher', // ethena_staking.py
  'StonfiV2ProvideLiquidityMatcher', // liquidity.py
  'StonfiV2WithdrawLiquidityMatcher', // liquidity.py
  'JVaultStakeBlockMatcher', // jvault.py
  'JVaultUnstakeBlockMatcher', // jvault.py
  'JVaultClaimBlockMatcher', // jvault.py
  'JVaultUnstakeRequestBlockMatcher', // jvault.py
  'EvaaSupplyBlockMatcher', // evaa.py
  'EvaaWithdrawBlockMatcher', // evaa.py
  'EvaaLiquidateBlockMatcher', // evaa.py
  'TgBTCMintBlockMatcher', // tgbtc.py
  'TgBTCBurnBlockMatcher', // tgbtc.py
  'TgBTCNewKeyBlockMatcher', // tgbtc.py
  'TgBTCMintLogOnlyMatcher', // tgbtc.py
  'TgBTCBurnLogOnlyMatcher', // tgbtc.py
  'TgBTCNewKeyLogOnlyMatcher', // tgbtc.py
  'TgBTCDkgLogOnlyMatcher', // tgbtc.py
  'ToncoDepositLiquidityMatcher', // liquidity.py
  'ToncoDeployPoolBlockMatcher', // liquidity.py
  'ToncoWithdrawLiquidityMatcher', // liquidity.py
  'CoffeeDepositLiquidityMatcher', // liquidity.py
  'CoffeeSwapBlockMatcher', // swaps.py
  'CoffeeWithdrawLiquidityMatcher', // liquidity.py
  'CoffeeCreateVaultMatcher', // liquidity.py
  'CoffeeCreatePoolCreatorMatcher', // liquidity.py
  'CoffeeCreatePoolMatcher', // liquidity.py
  'CoffeeMevProtectHoldFundsMatcher', // liquidity.py
  'CoffeeMevProtectFailedSwapMatcher', // liquidity.py
  'CoffeeStakingDepositMatcher', // staking.py
  'CoffeeStakingWithdrawMatcher', // staking.py
  'CoffeeStakingClaimRewardsMatcher', // staking.py
  'LayerZeroSendMatcher', // layerzero.py
  'LayerZeroSendTokensMatcher', // layerzero.py
  'LayerZeroReceiveMatcher', // layerzero.py
  'LayerZeroCommitPacketMatcher', // layerzero.py
  'LayerZeroDvnVerifyMatcher', // layerzero.py
  'CocoonWorkerPayoutMatcher', // cocoon.py
  'CocoonProxyPayoutMatcher', // cocoon.py
  'CocoonProxyChargeMatcher', // cocoon.py
  'CocoonClientTopUpMatcher', // cocoon.py
  'CocoonRegisterProxyMatcher', // cocoon.py
  'CocoonUnregisterProxyMatcher', // cocoon.py
  'CocoonClientRegisterMatcher', // cocoon.py
  'CocoonClientChangeSecretHashMatcher', // cocoon.py
  'CocoonClientRequestRefundMatcher', // cocoon.py
  'CocoonGrantRefundMatcher', // cocoon.py
  // newer upstream (cocoon.mch lists them after the grant refund)
  'CocoonClientIncreaseStakeMatcher', // cocoon.py
  'CocoonClientWithdrawMatcher', // cocoon.py
  // newer upstream (tgwallet.py): last, as upstream's tg_wallet.mch says the production list has it
  'ChangeWalletKeyMatcher', // tgwallet.py
];

/** Matchers offered the ghost blocks of a failed wallet external (`matchers_for_failed_externals`). */
export const FAILED_EXTERNAL_MATCHER_ORDER: readonly string[] = ['FallbackJettonTransferBlockMatcher'];

/**
 * `trace_post_processors`, run over the block list after matching; `unwind_deployments` and newer upstream's
 * `unwind_gasless_requests` are the engine's (processing.ts).
 */
export const POST_PROCESSOR_ORDER: readonly string[] = ['post_process_dedust_liquidity', 'post_process_dedust_v2_liquidity', 'unwind_deployments', 'unwind_gasless_requests'];
