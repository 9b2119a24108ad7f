/**
 * The data each block type carries, as the serializer (serializer.ts ↔ block_tree_serializer.py) reads it:
 * upstream's dict keys / dataclass attributes, same names. A family port builds its blocks with these (and may
 * add fields of its own). Accounts are `AccountId` (raw upper-case, null for none), amounts `Amount` (bigint),
 * assets `Asset`; fields marked optional are the ones upstream reads with `in` / `.get`.
 */
import type { AccountId, Amount, Asset } from './ton-utils.ts';

export type { CallContractData, ContractDeployData, TonTransferData } from './basic-blocks.ts';

/** An address-like datum `_addr` accepts: an account or an asset (its jetton address). */
export type AddrLike = AccountId | Asset | undefined;

// ---------------------------------------------------------------- jettons.py (dicts)

export interface JettonTransferData {
  has_internal_transfer: boolean;
  sender: AccountId;
  sender_wallet: AccountId;
  receiver: AccountId;
  receiver_wallet?: AccountId;
  response_address: AccountId;
  forward_amount: Amount;
  desired_forward_amount?: Amount;
  query_id: bigint;
  asset: Asset | null;
  amount: Amount;
  desired_amount?: Amount;
  /** base64 BoC */
  forward_payload: string | null;
  /** base64 BoC */
  custom_payload: string | null;
  comment: Buffer | null;
  encrypted_comment: boolean;
  payload_opcode: string | null;
  stonfi_swap_body: unknown;
}

export interface JettonBurnData {
  owner: AccountId;
  jetton_wallet: AccountId;
  amount: Amount;
  asset: Asset;
}

export interface JettonMintData {
  to: AccountId;
  to_jetton_wallet: AccountId;
  amount: Amount;
  ton_amount: Amount;
  asset: Asset;
}

// ---------------------------------------------------------------- nft.py

/** nft_transfer (dict) */
export interface NftTransferData {
  prev_owner?: AccountId;
  new_owner: AccountId;
  /** `_get_nft_data`: `exists` false when the repository does not know the item; Fragment items carry name and type */
  nft: { address: AccountId; index: bigint | null; collection: { address: AccountId } | null; exists?: boolean; name?: string; type?: string; meta?: unknown };
  query_id: bigint | null;
  is_purchase: boolean;
  price?: Amount;
  forward_amount: Amount;
  custom_payload: string | null;
  forward_payload: string | null;
  response_destination: AccountId;
  marketplace?: string | null;
  real_prev_owner?: AddrLike;
  marketplace_address?: AddrLike;
  payout_amount?: Amount;
  payout_comment_encrypted?: boolean | null;
  payout_comment_encoded?: boolean | null;
  payout_comment?: string | null;
  royalty_amount?: Amount;
  payout_address?: AddrLike;
  royalty_address?: AddrLike;
}

/** nft_purchase / dns_purchase (dataclass NftPurchaseData) */
export interface NftPurchaseData {
  prev_owner: AddrLike;
  new_owner: AddrLike;
  nft_address: AddrLike;
  collection_address: AddrLike;
  query_id: bigint | null;
  price: Amount;
  nft_index: bigint | null;
  forward_amount: Amount;
  custom_payload: string | null;
  forward_payload: string | null;
  response_destination: AddrLike;
  marketplace: string | null;
  marketplace_address: AddrLike;
  real_prev_owner: AddrLike;
  payout_amount: Amount;
  payout_comment_encrypted: boolean | null;
  payout_comment_encoded: boolean | null;
  payout_comment: string | null;
}

export interface NftDiscoveryData {
  sender: AddrLike;
  result_collection: AddrLike;
  nft: AddrLike;
  result_index: bigint | null;
  query_id?: bigint | null;
}

/** nft_mint (dict) */
export interface NftMintData {
  source: AccountId;
  address: AccountId;
  opcode: number | null;
  collection: AccountId;
  index: bigint | null;
}

// ---------------------------------------------------------------- auction.py (dataclasses)

export interface NftPutOnSaleData {
  owner: AddrLike;
  listing_address: AddrLike;
  sale_address: AddrLike;
  marketplace_address: AddrLike;
  nft_collection: AddrLike;
  nft_address: AddrLike;
  nft_index: bigint | null;
  full_price: Amount;
  marketplace_fee: Amount;
  royalty_amount: Amount;
  marketplace_fee_address: AddrLike;
  marketplace: string | null;
  royalty_address: AddrLike;
}

export interface UpdateSaleData {
  sender: AddrLike;
  sale_contract: AddrLike;
  nft_address: AddrLike;
  new_full_price: Amount;
  new_royalty_amount: Amount;
  new_marketplace_fee: Amount;
  marketplace_address: AddrLike;
}

export interface NftPutOnAuctionData {
  owner: AddrLike;
  listing_address: AddrLike;
  auction_address: AddrLike;
  nft_collection: AddrLike;
  nft_address: AddrLike;
  marketplace_address: AddrLike;
  nft_index: bigint | null;
  mp_fee_factor: Amount;
  mp_fee_base: Amount;
  royalty_fee_base: Amount;
  max_bid: Amount;
  min_bid: Amount;
  mp_fee_address: AddrLike;
  marketplace: string | null;
  royalty_fee_addr: AddrLike;
}

/** auction_bid (dict) */
export interface AuctionBidData {
  bidder: AccountId;
  auction: AccountId;
  nft_address: AccountId;
  nft_collection: AddrLike;
  nft_item_index: bigint | null;
  auction_type?: string | null;
  amount: Amount;
}

export interface AuctionOutbidData {
  auction_address: AddrLike;
  bidder: AddrLike;
  new_bidder: AddrLike;
  nft: AddrLike;
  nft_collection: AddrLike;
  auction_type: string | null;
  amount: Amount;
  comment: string | null;
}

/** nft_cancel_sale / nft_cancel_auction / nft_finish_auction / teleitem_cancel_auction */
export interface NftCancelTradeData {
  owner: AddrLike;
  trade_contract: AddrLike;
  nft_address: AddrLike;
  nft_collection: AddrLike;
  /** not in upstream's dataclass (the Go API reads the column, which stays null) */
  marketplace_address?: AddrLike;
}

export interface DnsReleaseData {
  source: AddrLike;
  nft_address: AddrLike;
  nft_collection: AddrLike;
  query_id: bigint | null;
  nft_index: bigint | null;
  value: Amount;
}

// ---------------------------------------------------------------- swaps.py / liquidity.py

export interface SwapTransfer {
  amount: Amount;
  source: AddrLike;
  source_jetton_wallet: AddrLike;
  destination: AddrLike;
  destination_jetton_wallet: AddrLike;
  asset: AddrLike;
}

/** jetton_swap (dict) */
export interface JettonSwapData {
  dex: string;
  sender: AddrLike;
  dex_incoming_transfer: SwapTransfer;
  dex_outgoing_transfer: SwapTransfer;
  source_asset?: AddrLike;
  destination_asset?: AddrLike;
  destination_wallet?: AddrLike;
  min_out_amount?: Amount;
  peer_swaps?: Array<{ in: { amount: Amount; asset: Asset }; out: { amount: Amount; asset: Asset } }> | null;
}

/** dex_deposit_liquidity (dict) */
export interface DexDepositLiquidityData {
  sender: AddrLike;
  pool: AddrLike;
  dex: string;
  amount_1: Amount;
  amount_2: Amount;
  asset_1: AddrLike;
  asset_2: AddrLike;
  sender_wallet_1: AddrLike;
  sender_wallet_2: AddrLike;
  lp_tokens_minted: Amount;
}

/** dex_withdraw_liquidity (dict) */
export interface DexWithdrawLiquidityData {
  sender: AddrLike;
  sender_wallet: AddrLike;
  pool: AddrLike;
  asset: AddrLike;
  dex: string;
  amount1_out: Amount;
  amount2_out: Amount;
  asset1_out: AddrLike;
  asset2_out: AddrLike;
  wallet1: AddrLike;
  wallet2: AddrLike;
  dex_jetton_wallet_1: AddrLike;
  dex_wallet_1: AddrLike;
  dex_wallet_2: AddrLike;
  dex_jetton_wallet_2: AddrLike;
  is_refund: boolean;
  lp_tokens_burnt: Amount;
}

export interface ToncoWithdrawLiquidityData {
  sender: AddrLike;
  pool: AddrLike;
  amount1_out: Amount;
  amount2_out: Amount;
  asset1_out: AddrLike;
  asset2_out: AddrLike;
  wallet1: AddrLike;
  wallet2: AddrLike;
  dex_jetton_wallet_1: AddrLike;
  dex_wallet_1: AddrLike;
  dex_wallet_2: AddrLike;
  dex_jetton_wallet_2: AddrLike;
  liquidity_burnt: Amount;
  burned_nft_index: bigint | null;
  burned_nft_address: AddrLike;
  tick_lower: bigint | number | null;
  tick_upper: bigint | number | null;
}

/** dedust_deposit_liquidity / coffee_deposit_liquidity / dedust_deposit_liquidity_partial (dicts) */
export interface DedustDepositLiquidityData {
  sender: AddrLike;
  pool_address?: AddrLike;
  deposit_contract: AddrLike;
  vault_excesses?: Array<[AddrLike, Amount]>;
  dex: string;
  asset_1: AddrLike;
  amount_1: Amount;
  asset_2: AddrLike;
  amount_2: Amount;
  user_jetton_wallet_1: AddrLike;
  user_jetton_wallet_2: AddrLike;
  lp_tokens_minted?: Amount;
  target_asset_1: AddrLike;
  target_amount_1: Amount;
  target_asset_2: AddrLike;
  target_amount_2: Amount;
}

/** dedust_v2_deposit_liquidity and its _partial (newer upstream's dedust_v2/liquidity.py; no targets in a partial) */
export interface DedustV2DepositLiquidityData {
  dex: string;
  sender: AddrLike;
  pool: AddrLike;
  deposit_contract: AddrLike;
  amount_1: Amount;
  asset_1: AddrLike;
  sender_wallet_1: AddrLike;
  amount_2: Amount;
  asset_2: AddrLike;
  sender_wallet_2: AddrLike;
  target_amount_1?: Amount;
  target_amount_2?: Amount;
  lp_tokens_minted: Amount;
  vault_excesses?: Array<[AddrLike, Amount]>;
}

/** dedust_v2_claim_fees (dedust_v2/claims.py) */
export interface DedustV2ClaimFeesData {
  dex: string;
  sender: AddrLike;
  pool: AddrLike;
  position: AddrLike;
  owner: AddrLike;
  amount_x: Amount;
  amount_y: Amount;
  asset_x: AddrLike;
  asset_y: AddrLike;
  user_wallet_x: AddrLike;
  user_wallet_y: AddrLike;
  dex_wallet_x: AddrLike;
  dex_wallet_y: AddrLike;
  dex_jetton_wallet_x: AddrLike;
  dex_jetton_wallet_y: AddrLike;
}

/** dedust_v2_claim_reward (dedust_v2/claims.py) */
export interface DedustV2ClaimRewardData {
  dex: string;
  sender: AddrLike;
  pool: AddrLike;
  position: AddrLike;
  owner: AddrLike;
  reward_index: number;
  amount: Amount;
  asset: AddrLike;
  user_wallet: AddrLike;
  dex_wallet: AddrLike;
  dex_jetton_wallet: AddrLike;
}

export interface ToncoDepositLiquidityData {
  sender: AddrLike;
  sender_wallet_1: AddrLike;
  sender_wallet_2: AddrLike;
  pool: AddrLike;
  account_contract: AddrLike;
  excesses: Array<[AddrLike, Amount]> | null;
  amount_1: Amount;
  asset_1: AddrLike;
  amount_2: Amount;
  asset_2: AddrLike;
  lp_tokens_minted: Amount;
  tick_lower: bigint | number | null;
  tick_upper: bigint | number | null;
  nft_index: bigint | null;
  nft_address: AddrLike;
  position_amount_1: Amount;
  position_amount_2: Amount;
}

export interface ToncoDeployPoolData {
  success: boolean;
  deployer: AddrLike;
  router: AddrLike;
  pool: AddrLike;
  jetton0_router_wallet: AddrLike;
  jetton1_router_wallet: AddrLike;
  jetton0_minter: AddrLike;
  jetton1_minter: AddrLike;
  tick_spacing: bigint | number | null;
  initial_price_x96: bigint | null;
  protocol_fee: bigint | number | null;
  lp_fee_base: bigint | number | null;
  lp_fee_current: bigint | number | null;
  pool_active: boolean | null;
}

export interface CoffeeCreateVaultData {
  sender: AddrLike;
  vault: AddrLike;
  asset: AddrLike;
  amount: Amount;
}

export interface CoffeeCreatePoolCreatorData {
  sender: AddrLike;
  sender_jetton_wallet: AddrLike;
  deposit_recipient: AddrLike;
  pool_creator_contract: AddrLike;
  provided_asset: AddrLike;
  pool_params: { first: AddrLike; second: AddrLike };
  amount: Amount;
}

export interface CoffeeCreatePoolData {
  source: AddrLike;
  source_jetton_wallet: AddrLike;
  amount: Amount;
  asset_1: AddrLike;
  asset_2: AddrLike;
  pool: AddrLike;
  pool_creator_contract: AddrLike;
  amount_1: Amount;
  amount_2: Amount;
  initiator_1: AddrLike;
  initiator_2: AddrLike;
  provided_asset: AddrLike;
  lp_tokens_minted: Amount;
}

/** coffee_mev_protect_hold_funds (dict) */
export interface CoffeeMevProtectHoldFundsData {
  sender: AddrLike;
  sender_wallet: AddrLike;
  mev_contract: AddrLike;
  mev_contract_wallet: AddrLike;
  asset: AddrLike;
  amount: Amount;
}

// ---------------------------------------------------------------- staking.py / ethena_staking.py

export interface TONStakersDepositData {
  source: AddrLike;
  user_jetton_wallet: AddrLike;
  pool: AddrLike;
  value: Amount;
  asset: AddrLike;
  tokens_minted: Amount;
}

export interface TONStakersWithdrawRequestData {
  source: AddrLike;
  tsTON_wallet: AddrLike;
  pool: AddrLike;
  tokens_burnt: Amount;
  asset: AddrLike;
  minted_nft: AddrLike;
}

export interface TONStakersWithdrawData {
  stake_holder: AddrLike;
  pool: AddrLike;
  amount: Amount;
  burnt_nft: AddrLike;
  tokens_burnt: Amount;
  asset: AddrLike;
}

export interface NominatorPoolDepositData {
  source: AccountId;
  pool: AccountId;
  value: Amount;
}

export interface NominatorPoolWithdrawRequestData {
  source: AccountId;
  pool: AccountId;
  payout_amount: Amount;
}

export interface CoffeeStakingDepositData {
  source: AddrLike;
  user_jetton_wallet: AddrLike;
  pool: AddrLike;
  pool_jetton_wallet: AddrLike;
  asset: AddrLike;
  value: Amount;
  minted_item_address: AddrLike;
  minted_item_index: bigint | null;
}

export interface CoffeeStakingWithdrawData {
  source: AddrLike;
  user_jetton_wallet: AddrLike;
  pool: AddrLike;
  pool_jetton_wallet: AddrLike;
  asset: AddrLike;
  amount: Amount;
  nft_address: AddrLike;
  nft_index: bigint | null;
  points: bigint | null;
}

export interface CoffeeStakingClaimRewardsData {
  /** the highload wallet that asked for the claim (not serialised) */
  admin: AddrLike;
  pool: AddrLike;
  pool_jetton_wallet: AddrLike;
  recipient: AddrLike;
  recipient_jetton_wallet: AddrLike;
  asset: AddrLike;
  amount: Amount;
}

export interface EthenaWithdrawalRequestData {
  source: AddrLike;
  source_wallet: AddrLike;
  receiver_wallet: AddrLike;
  pool: AddrLike;
  asset: AddrLike;
  amount: Amount;
  ts_usde_amount: Amount;
}

export interface EthenaDepositData {
  source: AddrLike;
  user_jetton_wallet: AddrLike;
  pool: AddrLike;
  value: Amount;
  asset: AddrLike;
  source_asset: AddrLike;
  tokens_minted: Amount;
}

/** hipo_stake_deposit (newer upstream staking.py); `value` is none on the round-end settlement of a deferred deposit */
export interface HipoStakeDepositData {
  source: AddrLike;
  pool: AddrLike;
  user_jetton_wallet: AddrLike;
  value: Amount;
  tokens_minted: Amount;
  asset: AddrLike;
  /** the bill SBT of a deferred deposit */
  bill: AddrLike;
}

export interface HipoStakeWithdrawalRequestData {
  source: AddrLike;
  pool: AddrLike;
  user_jetton_wallet: AddrLike;
  tokens_burnt: Amount;
  asset: AddrLike;
  bill: AddrLike;
  /** a request re-minted at round end: the bill that burned (not serialised) */
  previous_bill?: AddrLike;
}

/** `amount` is none when the unstake was rolled back (the block is then failed) */
export interface HipoStakeWithdrawalData {
  source: AddrLike;
  pool: AddrLike;
  user_jetton_wallet: AddrLike;
  amount: Amount;
  tokens_burnt: Amount;
  asset: AddrLike;
  bill: AddrLike;
}

// ---------------------------------------------------------------- dns.py, subscriptions.py, elections.py (dicts)

export interface ChangeDnsRecordData {
  source: AccountId;
  destination: AccountId;
  /** `schema`: DNSNextResolver / DNSSmcAddress (address: AccountId), DNSAdnlAddress / DNSStorageAddress (address: bytes), DNSText (dns_text) */
  value: { schema: string | null; address?: AccountId | Buffer | null; flags?: number | bigint | null; dns_text?: string | null };
  key: Buffer;
  collection_address: AddrLike;
}

export interface DeleteDnsRecordData {
  source: AccountId;
  destination: AccountId;
  key: Buffer;
  collection_address: AddrLike;
}

export interface DnsRenewData {
  source: AddrLike;
  destination: AddrLike;
  collection_address: AddrLike;
}

export interface SubscriptionData {
  subscriber: AccountId;
  beneficiary: AccountId;
  subscription: AccountId;
  amount: Amount;
}

export interface UnsubscribeData {
  subscriber: AccountId;
  beneficiary: AccountId;
  subscription: AccountId;
}

export interface ElectionData {
  stake_holder: AccountId;
  amount?: Amount;
}

// ---------------------------------------------------------------- evaa.py, jvault.py, multisig.py, vesting.py

export interface EvaaSupplyData {
  sender: AddrLike;
  sender_jetton_wallet: AddrLike;
  recipient: AddrLike;
  recipient_contract: AddrLike;
  amount: bigint | null;
  asset: AddrLike;
  is_success: boolean;
  is_ton: boolean;
  asset_id: bigint | null;
  master: AddrLike;
  recipient_jetton_wallet: AddrLike;
  master_jetton_wallet: AddrLike;
}

export interface EvaaWithdrawData {
  owner: AddrLike;
  recipient: AddrLike;
  owner_contract: AddrLike;
  amount: bigint | null;
  asset: AddrLike;
  is_success: boolean;
  is_ton: boolean;
  recipient_jetton_wallet: AddrLike;
  master_jetton_wallet: AddrLike;
  fail_reason: string | null;
  master: AddrLike;
  asset_id: bigint | null;
}

export interface EvaaLiquidateData {
  liquidator: AccountId;
  borrower: AccountId;
  borrower_contract: AccountId;
  collateral_asset_id: bigint | null;
  collateral_amount: bigint | null;
  is_success: boolean;
  fail_reason: string | null;
  /** the debt's asset id (TON's for a TON liquidation; upstream keeps the jetton wallet for a jetton one); not serialised */
  debt_asset_id?: bigint | string | null;
  debt_amount: bigint | null;
}

export interface JVaultStakeData {
  sender: AddrLike;
  sender_wallet: AddrLike;
  asset: AddrLike;
  staking_pool: AddrLike;
  staked_amount: bigint | null;
  period: bigint | number | null;
  stake_wallet: AddrLike;
}

export interface JVaultUnstakeData {
  sender: AddrLike;
  stake_wallet: AddrLike;
  staking_pool: AddrLike;
  unstaked_amount: bigint | null;
  exit_code: number | null;
  asset: AddrLike;
  jvault_asset: AddrLike;
}

export interface JVaultClaimData {
  sender: AddrLike;
  stake_wallet: AddrLike;
  staking_pool: AddrLike;
  claimed_jettons: AddrLike[];
  claimed_amounts: bigint[];
}

export interface JVaultUnstakeRequestData {
  sender: AddrLike;
  stake_wallet: AddrLike;
  staking_pool: AddrLike;
  requested_amount: bigint | null;
  asset: AddrLike;
  jvault_asset: AddrLike;
  exit_code: number | null;
}

export interface MultisigCreateOrderData {
  created_by: AddrLike;
  multisig: AddrLike;
  order_contract_address: AddrLike;
  query_id: bigint | null;
  order_seqno: bigint | null;
  is_created_by_signer: boolean | null;
  creator_approved: boolean | null;
  creator_index: bigint | number | null;
  expiration_date: bigint | number | null;
  order_boc_str: string | null;
  signers: string[];
}

export interface MultisigApproveData {
  signer: AddrLike;
  order: AddrLike;
  success: boolean;
  signer_index: bigint | number | null;
  exit_code: number | null;
  signers: string[];
}

export interface MultisigExecuteData {
  order_contract_address: AddrLike;
  multisig: AddrLike;
  success: boolean;
  query_id: bigint | null;
  order_seqno: bigint | null;
  expiration_date: bigint | number | null;
  approvals_num: bigint | number | null;
  signers_hash_str: string | null;
  order_boc_str: string | null;
  signers: string[];
}

export interface VestingSendMessageData {
  sender: AddrLike;
  vesting: AddrLike;
  message_destination: AddrLike;
  message_value: Amount;
  query_id: bigint | null;
  message_boc_str: string | null;
  /** newer upstream: whether the vesting transaction really sent the message */
  success?: boolean;
}

export interface VestingAddWhiteListData {
  adder: AddrLike;
  vesting: AddrLike;
  query_id: bigint | null;
  accounts_added: AddrLike[];
}

// ---------------------------------------------------------------- tgbtc.py

export interface TgBTCMintData {
  crippled: boolean;
  sender: AddrLike;
  recipient: AddrLike;
  amount: bigint | null;
  asset: AddrLike;
  success: boolean;
  bitcoin_txid: string | null;
  teleport_contract: AddrLike;
  recipient_wallet: AddrLike;
}

export interface TgBTCBurnData {
  crippled: boolean;
  sender: AddrLike;
  jetton_wallet: AddrLike;
  pegout_address: AddrLike;
  amount: Amount;
  asset: AddrLike;
}

export interface TgBTCNewKeyData {
  crippled: boolean;
  teleport_contract: AddrLike;
  pubkey: string | null;
  coordinator_contract: AddrLike;
  pegout_address: AddrLike;
  amount: bigint | null;
  timestamp: bigint | number | null;
}

export interface TgBTCDkgLogData {
  coordinator_contract: AddrLike;
  internal_pubkey: string | null;
  timestamp: bigint | number | null;
}

// ---------------------------------------------------------------- layerzero.py

export interface LayerZeroPacketData {
  src_oapp: string | null;
  dst_oapp: string | null;
  src_eid: bigint | number | null;
  dst_eid: bigint | number | null;
  nonce: bigint | number | null;
  guid: string | null;
  message: string | null;
}

export interface LayerZeroSendData {
  initiator: AddrLike;
  send_request_id: bigint | number | null;
  msglib_manager: string | null;
  msglib: string | null;
  uln: AddrLike;
  native_fee: bigint | null;
  zro_fee: bigint | null;
  endpoint: AddrLike;
  channel: AddrLike;
  packet_data: LayerZeroPacketData;
}

export interface LayerZeroSendTokensData {
  sender: AddrLike;
  sender_wallet: AddrLike;
  oapp: AddrLike;
  oapp_wallet: AddrLike;
  amount: Amount;
  asset: AddrLike;
  layerzero_send_data: LayerZeroSendData;
}

export interface LayerZeroReceiveData {
  sender: AddrLike;
  oapp: AddrLike;
  channel: AddrLike;
  packet_data: LayerZeroPacketData;
}

export interface LayerZeroCommitPacketData {
  sender: AddrLike;
  endpoint: AddrLike;
  uln: AddrLike;
  uln_connection: AddrLike;
  channel: AddrLike;
  msglib_connection: AddrLike;
  packet_data: LayerZeroPacketData;
}

export interface LayerZeroDvnVerifyData {
  sender: AddrLike;
  nonce: bigint | number | null;
  status: string | null;
  dvn: AddrLike;
  proxy: AddrLike;
  uln: AddrLike;
  uln_connection: AddrLike;
}

// ---------------------------------------------------------------- cocoon.py

export interface CocoonWorkerPayoutData {
  proxy_contract: AddrLike;
  worker_contract: AddrLike;
  worker_owner: AddrLike;
  payout_amount: Amount;
  payout_type: string | null;
  query_id: bigint | null;
  new_tokens: bigint | null;
  expected_address: string | null;
  worker_state: bigint | number | null;
  worker_tokens: bigint | null;
}

export interface CocoonProxyPayoutData {
  proxy_contract: AddrLike;
  proxy_owner: AddrLike;
  excesses_recipient: AddrLike;
  query_id: bigint | null;
}

export interface CocoonChargeData {
  proxy_contract: AddrLike;
  client_contract: AddrLike;
  query_id: bigint | null;
  new_tokens_used: bigint | null;
  expected_address: string | null;
}

/** cocoon_grant_refund: the proxy's grant, paid out to the refund recipient */
export interface CocoonGrantRefundData {
  proxy_contract: AddrLike;
  client_contract: AddrLike;
  refund_recipient: AddrLike;
  query_id: bigint | null;
  new_tokens_used: bigint | null;
  expected_address: string | null;
  payout_amount: Amount;
}

export interface CocoonClientTopUpData {
  sender: AddrLike;
  client_contract: AddrLike;
  proxy_contract: AddrLike;
  top_up_amount: Amount;
  query_id: bigint | null;
}

export interface CocoonRegisterProxyData {
  root_contract: AddrLike;
  query_id: bigint | null;
  seqno?: bigint | number | null;
}

export interface CocoonClientRegisterData {
  owner: AddrLike;
  client_contract: AddrLike;
  query_id: bigint | null;
  nonce: bigint | null;
}

export interface CocoonClientChangeSecretHashData {
  owner: AddrLike;
  client_contract: AddrLike;
  query_id: bigint | null;
  new_secret_hash: bigint;
}

export interface CocoonClientRequestRefundData {
  owner: AddrLike;
  client_contract: AddrLike;
  query_id: bigint | null;
  via_wallet: boolean | null;
}

/** cocoon_client_increase_stake (newer upstream) */
export interface CocoonClientIncreaseStakeData {
  owner: AddrLike;
  client_contract: AddrLike;
  query_id: bigint | null;
  new_stake: Amount;
}

/** cocoon_client_withdraw (newer upstream): the amount comes from the refund granted in the client's request */
export interface CocoonClientWithdrawData {
  owner: AddrLike;
  client_contract: AddrLike;
  query_id: bigint | null;
  withdraw_amount: Amount;
}
