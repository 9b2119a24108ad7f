/** Opcodes of the messages the matchers recognise (TEP-74, TEP-62, DEX and protocol docs). */
export const OP = {
  textComment: 0x00000000,
  encryptedComment: 0x2167da4b,
  excesses: 0xd53276db,
  // TEP-74 jettons
  jettonTransfer: 0x0f8a7ea5,
  jettonInternalTransfer: 0x178d4519,
  jettonNotify: 0x7362d09c,
  jettonBurn: 0x595f07bc,
  jettonBurnNotification: 0x7bdd97de,
  jettonMint: 0x642b7d07,
  jettonMintMinter: 0x00000015,
  // TEP-62 NFT
  nftTransfer: 0x5fcc3d14,
  nftOwnershipAssigned: 0x05138d91,
  nftGetStaticData: 0x2fcb26a2,
  nftReportStaticData: 0x8b771735,
  // STON.fi v1
  stonfiSwap: 0x25938561,
  stonfiPaymentRequest: 0xf93bb43f,
  stonfiProvideLp: 0xfcf9e58f,
  // STON.fi v2
  stonfiV2Swap: 0x6664de2a,
  stonfiV2PayTo: 0x657b54f5,
  stonfiV2PayVault: 0x63381632,
  // DeDust
  dedustSwapNative: 0xea06185d,
  dedustSwapJetton: 0xe3a0d482,
  dedustSwapInternal: 0x61ee542d,
  dedustPayout: 0x474f86cf,
  dedustPayoutFromPool: 0xad4eb6f5,
  dedustSwapPeer: 0x72aca8aa,
  dedustSwapEvent: 0x9c610de3,
  dedustDepositLiquidityNative: 0xd55e4686,
  dedustDepositLiquidityJetton: 0x40e108d6,
  dedustDepositLiquidityInternal: 0x21cfe02b,
  dedustDepositEvent: 0xb544f4a4,
  // Tonstakers
  tonstakersDeposit: 0x47d54391,
  tonstakersPayoutMint: 0x1674b0a0,
  tonstakersWithdraw: 0x319b0cdc,
  // elector
  electorNewStake: 0x4e73744b,
  electorNewStakeOk: 0xf374484c,
  electorRecover: 0x47657424,
  electorRecoverOk: 0xf96f7324,
  // DNS
  changeDnsRecord: 0x4eb1f0f9,
  // subscriptions
  subscriptionPayment: 0x73756273,
  subscriptionRequest: 0x706c7567,
  subscriptionDestruct: 0x64737472,
} as const;
