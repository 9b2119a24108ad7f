/**
 * ↔ indexer/events/blocks/utils/block_tree_serializer.py: blocks -> action rows, for every block type upstream
 * serialises (ported in full, ahead of the families that build the blocks).
 *
 * Identity (`blockToAction`): action_id = base64(sha256(msg hash of the block's earliest node, base64 — or its tx
 * hash for a tick-tock — + the block type before any renaming)); tx_hashes = the nodes' transactions plus the
 * initiating node's; accounts = the nodes' accounts, source and source_secondary, destination and
 * destination_secondary unless the block is a ghost, and the initiating transaction's account; then each type's
 * filler sets the generic columns and its composite `*_data` column, and may rename the type (stake_deposit, …).
 * `serializeBlocks` turns the top-level blocks into actions, and the children of every type outside `V1_OPS` too
 * (marked with their ancestors), reporting `broken` when a block is.
 */
import { createHash } from 'node:crypto';
import { hashToBase64 } from '../format/index.ts';
import type { TonTransferBlock } from './basic-blocks.ts';
import type * as D from './block-data.ts';
import type { Block } from './core.ts';
import type { ActionType, RenamedBlockType } from './action-types.ts';
import type { ActionRow, Trace } from './model.ts';
import type { EventNode } from './tree.ts';
import { accountRepr, Asset, type AccountId, type Amount } from './ton-utils.ts';
import { commentText } from './messages/common.ts';

/** `_addr`: an account as is, an asset as its jetton address (null for TON). */
function addr(a: D.AddrLike): string | null {
  if (a === null || a === undefined) return null;
  if (a instanceof Asset) return a.jettonAddress;
  return a;
}

/** `_value`: an amount's value. */
function value(a: Amount | undefined): bigint | null {
  return a === undefined ? null : a;
}

/** `x.as_str()` where upstream calls it on a value that must be there (a missing key fails, as upstream's does). */
function asStr(a: AccountId | undefined, what: string): string | null {
  if (a === undefined) throw new Error(`block data has no ${what}`);
  return a;
}

/** Python's `hex(int)`. */
function pyHex(v: bigint | number): string {
  const b = BigInt(v);
  return b < 0n ? '-0x' + (-b).toString(16) : '0x' + b.toString(16);
}

/** The block's earliest node (lowest created lt; the first of equals, as Python's min). */
function rootEventNode(block: Block): EventNode {
  let root = block.eventNodes[0];
  for (const n of block.eventNodes) if (n.getLt() < root.getLt()) root = n;
  return root;
}

export function calcActionId(block: Block): string {
  const root = rootEventNode(block);
  const key = (root.isTickTock ? hashToBase64(root.getTxHash()) : root.message.msgHash) + block.btype;
  return createHash('sha256').update(key, 'utf8').digest('base64');
}

function emptyAction(): Omit<ActionRow, 'action_id' | 'type' | 'trace_id' | 'tx_hashes' | 'start_lt' | 'end_lt' | 'start_utime' | 'end_utime' | 'success' | 'mc_seqno_end' | 'accounts' | 'trace_end_lt' | 'trace_end_utime'> {
  return {
    source: null, source_secondary: null, destination: null, destination_secondary: null,
    asset: null, asset_secondary: null, asset2: null, asset2_secondary: null,
    opcode: null, value: null, amount: null, value_extra_currencies: {},
    parent_action_id: null, ancestor_type: [], parent_gasless_action: null,
    trace_external_hash: null, trace_external_hash_norm: null, trace_mc_seqno_end: null,
  };
}

/** `_base_block_to_action`. */
function baseBlockToAction(block: Block, trace: Trace): ActionRow {
  const txHashes = [...new Set(block.eventNodes.map((n) => n.getTxHash()))];
  let mc: number | null = null;
  let any = false;
  for (const n of block.eventNodes) {
    // an external-out (log) node counts with the transaction that sent it: upstream serialises blocks made of a log
    // alone (tgbtc.py's *_fallback actions), so its get_tx gives that transaction there
    const tx = n.getTx() ?? (n.getType() === 'notification' ? n.message.transaction : null);
    if (tx === null) continue;
    any = true;
    if (tx.mcSeqno !== null && (mc === null || tx.mcSeqno > mc)) mc = tx.mcSeqno;
  }
  if (!any) throw new Error('max() arg is an empty sequence');
  // Object.assign, not a literal opening with a spread: V8 builds that one several times slower
  return Object.assign(emptyAction(), {
    action_id: calcActionId(block),
    type: block.btype,
    trace_id: trace.traceId,
    tx_hashes: txHashes,
    start_lt: block.minLt,
    end_lt: block.maxLt,
    start_utime: block.minUtime,
    end_utime: block.maxUtime,
    success: !block.failed,
    mc_seqno_end: mc,
    accounts: block.eventNodes.map((n) => n.message.transaction.account) as Array<string | null>,
    trace_end_lt: trace.endLt,
    trace_end_utime: trace.endUtime,
  }) as ActionRow;
}

// ---------------------------------------------------------------- fillers, in upstream's order

function fillCallContract(block: Block, a: ActionRow): void {
  const d = block.data as D.CallContractData & { extra_currencies?: Record<string, string> | null };
  a.opcode = (block as Block & { opcode: number | null }).opcode;
  a.value = d.value;
  a.source = d.source;
  a.destination = d.destination;
  a.value_extra_currencies = d.extra_currencies ?? {};
}

function fillTonTransfer(block: Block, a: ActionRow): void {
  const d = block.data as D.TonTransferData;
  a.value = (block as TonTransferBlock).value;
  a.source = d.source;
  a.destination = d.destination;
  a.ton_transfer_data = { content: d.comment !== null ? d.comment.split('\u0000').join('') : null, encrypted: d.encrypted };
  a.value_extra_currencies = d.extra_currencies ?? {};
}

function fillJettonTransfer(block: Block, a: ActionRow): void {
  const d = block.data as D.JettonTransferData;
  a.source = asStr(d.sender, 'sender');
  a.source_secondary = addr(d.sender_wallet);
  a.destination = asStr(d.receiver, 'receiver');
  a.destination_secondary = 'receiver_wallet' in d ? addr(d.receiver_wallet) : null;
  a.amount = d.amount;
  a.asset = d.asset === null || d.asset.isTon ? null : d.asset.jettonAddress;
  let comment: string | null = null;
  if (d.comment !== null) comment = d.encrypted_comment ? d.comment.toString('base64') : commentText(d.comment);
  a.jetton_transfer_data = {
    query_id: d.query_id,
    response_destination: d.response_address,
    forward_amount: d.forward_amount,
    custom_payload: d.custom_payload,
    forward_payload: d.forward_payload,
    comment,
    is_encrypted_comment: d.encrypted_comment,
  };
}

function fillNftTransfer(block: Block, a: ActionRow): void {
  const d = block.data as D.NftTransferData;
  if (d.prev_owner !== undefined && d.prev_owner !== null) a.source = d.prev_owner;
  a.destination = d.new_owner;
  a.asset_secondary = d.nft.address;
  if (d.nft.collection !== null) a.asset = d.nft.collection.address;
  a.nft_transfer_data = {
    query_id: d.query_id,
    is_purchase: d.is_purchase,
    price: 'price' in d && d.is_purchase ? value(d.price) : null,
    nft_item_index: d.nft.index,
    forward_amount: d.forward_amount,
    custom_payload: d.custom_payload,
    forward_payload: d.forward_payload,
    response_destination: d.response_destination,
    marketplace: d.marketplace ?? null,
    marketplace_address: addr(d.marketplace_address ?? null),
    real_prev_owner: addr(d.real_prev_owner ?? null),
    payout_amount: 'payout_amount' in d ? value(d.payout_amount) : null,
    payout_comment_encrypted: d.payout_comment_encrypted ?? null,
    payout_comment_encoded: d.payout_comment_encoded ?? null,
    payout_comment: d.payout_comment ?? null,
    royalty_amount: 'royalty_amount' in d ? value(d.royalty_amount) : null,
  };
  a.nft_listing_data = {
    marketplace_fee_address: 'payout_address' in d ? addr(d.payout_address) : null,
    royalty_address: 'royalty_address' in d ? addr(d.royalty_address) : null,
  };
}

function fillNftPurchase(block: Block, a: ActionRow): void {
  const d = block.data as D.NftPurchaseData;
  if (d.prev_owner !== null && d.prev_owner !== undefined) a.source = addr(d.prev_owner);
  a.destination = addr(d.new_owner);
  a.asset_secondary = addr(d.nft_address);
  a.asset = addr(d.collection_address);
  a.nft_transfer_data = {
    query_id: d.query_id,
    is_purchase: true,
    price: value(d.price),
    nft_item_index: d.nft_index,
    forward_amount: value(d.forward_amount),
    custom_payload: d.custom_payload,
    forward_payload: d.forward_payload,
    response_destination: addr(d.response_destination),
    marketplace: d.marketplace,
    marketplace_address: addr(d.marketplace_address),
    real_prev_owner: addr(d.real_prev_owner),
    payout_amount: value(d.payout_amount),
    payout_comment_encrypted: d.payout_comment_encrypted,
    payout_comment_encoded: d.payout_comment_encoded,
    payout_comment: d.payout_comment,
  };
}

function fillNftDiscovery(block: Block, a: ActionRow): void {
  const d = block.data as D.NftDiscoveryData;
  a.source = addr(d.sender);
  a.asset = addr(d.result_collection);
  a.asset_secondary = addr(d.nft);
  a.nft_transfer_data = { nft_item_index: d.result_index };
}

function fillNftMint(block: Block, a: ActionRow): void {
  const d = block.data as D.NftMintData;
  if (d.source) a.source = d.source;
  a.destination = d.address;
  a.asset_secondary = a.destination;
  a.opcode = d.opcode;
  if (d.collection) a.asset = d.collection;
  a.nft_mint_data = { nft_item_index: d.index };
}

function fillNftPutOnSale(block: Block, a: ActionRow): void {
  const d = block.data as D.NftPutOnSaleData;
  a.source = addr(d.owner);
  a.source_secondary = addr(d.listing_address);
  a.destination = addr(d.sale_address);
  // the Go API reads the listing's marketplace address from destination_secondary (as upstream's serializer put it)
  a.destination_secondary = addr(d.marketplace_address);
  a.nft_transfer_data = { marketplace_address: addr(d.marketplace_address) };
  a.asset = addr(d.nft_collection);
  a.asset_secondary = addr(d.nft_address);
  a.nft_listing_data = {
    nft_item_index: d.nft_index,
    full_price: value(d.full_price),
    marketplace_fee: value(d.marketplace_fee),
    royalty_amount: value(d.royalty_amount),
    marketplace_fee_address: addr(d.marketplace_fee_address),
    marketplace: d.marketplace,
    royalty_address: addr(d.royalty_address),
    mp_fee_factor: null,
    mp_fee_base: null,
    royalty_fee_base: null,
    max_bid: null,
    min_bid: null,
  };
}

function fillSaleUpdate(block: Block, a: ActionRow): void {
  const d = block.data as D.UpdateSaleData;
  a.source = addr(d.sender);
  a.destination = addr(d.sale_contract);
  a.asset_secondary = addr(d.nft_address);
  a.nft_listing_data = { full_price: value(d.new_full_price), royalty_amount: value(d.new_royalty_amount), marketplace_fee: value(d.new_marketplace_fee) };
  a.nft_transfer_data = { marketplace_address: addr(d.marketplace_address) };
  a.accounts.push(a.asset_secondary as string);
}

function fillNftPutOnAuction(block: Block, a: ActionRow): void {
  const d = block.data as D.NftPutOnAuctionData;
  a.source = addr(d.owner);
  a.source_secondary = addr(d.listing_address);
  a.destination = addr(d.auction_address);
  // the Go API reads the listing's marketplace address from destination_secondary (as upstream's serializer put it)
  a.destination_secondary = addr(d.marketplace_address);
  a.asset = addr(d.nft_collection);
  a.asset_secondary = addr(d.nft_address);
  a.nft_transfer_data = { marketplace_address: addr(d.marketplace_address) };
  a.nft_listing_data = {
    nft_item_index: d.nft_index,
    mp_fee_factor: value(d.mp_fee_factor),
    mp_fee_base: value(d.mp_fee_base),
    royalty_fee_base: value(d.royalty_fee_base),
    max_bid: value(d.max_bid),
    min_bid: value(d.min_bid),
    marketplace_fee_address: addr(d.mp_fee_address),
    marketplace: d.marketplace,
    royalty_address: addr(d.royalty_fee_addr),
    full_price: null,
    marketplace_fee: null,
    royalty_amount: null,
  };
}

function swapTransfer(t: D.SwapTransfer): Record<string, unknown> {
  return {
    amount: t.amount,
    source: addr(t.source),
    source_jetton_wallet: addr(t.source_jetton_wallet),
    destination: addr(t.destination),
    destination_jetton_wallet: addr(t.destination_jetton_wallet),
    asset: addr(t.asset),
  };
}

function fillJettonSwap(block: Block, a: ActionRow): void {
  const d = block.data as D.JettonSwapData;
  const incoming = swapTransfer(d.dex_incoming_transfer);
  const outgoing = swapTransfer(d.dex_outgoing_transfer);
  a.asset = incoming.asset as string | null;
  a.asset2 = outgoing.asset as string | null;
  if (d.dex === 'stonfi_v2' || d.dex === 'dedust' || d.dex === 'tonco') {
    if (!('source_asset' in d) || !('destination_asset' in d)) throw new Error(`${d.dex} swap without source/destination asset`);
    a.asset = addr(d.source_asset);
    a.asset2 = addr(d.destination_asset);
  }
  a.source = incoming.source as string | null;
  a.source_secondary = incoming.source_jetton_wallet as string | null;
  a.destination = outgoing.destination as string | null;
  a.destination_secondary = outgoing.destination_jetton_wallet as string | null;
  if (d.destination_wallet !== undefined && d.destination_wallet !== null) a.destination_secondary = addr(d.destination_wallet);
  if (d.destination_asset !== undefined && d.destination_asset !== null) a.asset2 = addr(d.destination_asset);
  const minOut = 'min_out_amount' in d ? value(d.min_out_amount) : null;
  const data: Record<string, unknown> = { dex: d.dex, sender: addr(d.sender), dex_incoming_transfer: incoming, dex_outgoing_transfer: outgoing, min_out_amount: minOut };
  if (d.peer_swaps !== undefined && d.peer_swaps !== null) {
    data.peer_swaps = d.peer_swaps.map((p) => ({
      amount_in: p.in.amount,
      asset_in: p.in.asset.jettonAddress,
      amount_out: p.out.amount,
      asset_out: p.out.asset.jettonAddress,
    }));
  }
  a.jetton_swap_data = data;
}

function fillDexDepositLiquidity(block: Block, a: ActionRow): void {
  const d = block.data as D.DexDepositLiquidityData;
  a.source = addr(d.sender);
  a.destination = addr(d.pool);
  a.dex_deposit_liquidity_data = {
    dex: d.dex,
    amount1: d.amount_1,
    amount2: d.amount_2,
    asset1: addr(d.asset_1),
    asset2: addr(d.asset_2),
    user_jetton_wallet_1: addr(d.sender_wallet_1),
    user_jetton_wallet_2: addr(d.sender_wallet_2),
    lp_tokens_minted: d.lp_tokens_minted,
  };
}

function fillDexWithdrawLiquidity(block: Block, a: ActionRow): void {
  const d = block.data as D.DexWithdrawLiquidityData;
  a.source = addr(d.sender);
  a.source_secondary = addr(d.sender_wallet);
  a.destination = addr(d.pool);
  a.asset = addr(d.asset);
  a.dex_withdraw_liquidity_data = {
    dex: d.dex,
    amount1: d.amount1_out,
    amount2: d.amount2_out,
    asset1_out: addr(d.asset1_out),
    asset2_out: addr(d.asset2_out),
    user_jetton_wallet_1: addr(d.wallet1),
    user_jetton_wallet_2: addr(d.wallet2),
    dex_jetton_wallet_1: addr(d.dex_jetton_wallet_1),
    dex_wallet_1: addr(d.dex_wallet_1),
    dex_wallet_2: addr(d.dex_wallet_2),
    dex_jetton_wallet_2: addr(d.dex_jetton_wallet_2),
    is_refund: d.is_refund,
    lp_tokens_burnt: d.lp_tokens_burnt,
  };
}

function fillToncoWithdrawLiquidity(block: Block, a: ActionRow): void {
  const d = block.data as D.ToncoWithdrawLiquidityData;
  a.type = 'dex_withdraw_liquidity';
  a.source = addr(d.sender);
  a.source_secondary = null; // TONCO positions are NFTs: no LP jetton wallet
  a.destination = addr(d.pool);
  a.asset = null;
  a.dex_withdraw_liquidity_data = {
    dex: 'tonco',
    amount1: d.amount1_out,
    amount2: d.amount2_out,
    asset1_out: addr(d.asset1_out),
    asset2_out: addr(d.asset2_out),
    user_jetton_wallet_1: addr(d.wallet1),
    user_jetton_wallet_2: addr(d.wallet2),
    dex_jetton_wallet_1: addr(d.dex_jetton_wallet_1),
    dex_wallet_1: addr(d.dex_wallet_1),
    dex_wallet_2: addr(d.dex_wallet_2),
    dex_jetton_wallet_2: addr(d.dex_jetton_wallet_2),
    lp_tokens_burnt: d.liquidity_burnt,
    burned_nft_index: d.burned_nft_index,
    burned_nft_address: addr(d.burned_nft_address),
    tick_lower: d.tick_lower,
    tick_upper: d.tick_upper,
  };
}

function fillJettonBurn(block: Block, a: ActionRow): void {
  const d = block.data as D.JettonBurnData;
  a.source = asStr(d.owner, 'owner');
  a.source_secondary = asStr(d.jetton_wallet, 'jetton_wallet');
  a.asset = d.asset.jettonAddress;
  a.amount = d.amount;
}

function fillChangeDnsRecord(block: Block, a: ActionRow): void {
  const d = block.data as D.ChangeDnsRecordData;
  a.source = d.source;
  a.destination = d.destination;
  const v = d.value;
  const data: Record<string, unknown> = { value_schema: v.schema, flags: null, address: null, key: d.key.toString('hex') };
  const s = v.schema;
  if (s === 'DNSNextResolver' || s === 'DNSSmcAddress') data.value = v.address as string | null;
  else if (s === 'DNSAdnlAddress') {
    data.value = (v.address as Buffer).toString('hex');
    data.flags = v.flags ?? null;
  } else if (s === 'DNSStorageAddress') data.value = (v.address as Buffer).toString('hex');
  if (s === 'DNSSmcAddress') data.flags = v.flags ?? null;
  if (s === 'DNSText') data.value = v.dns_text ?? null;
  a.change_dns_record_data = data;
  a.asset = addr(d.collection_address);
}

function fillDeleteDnsRecord(block: Block, a: ActionRow): void {
  const d = block.data as D.DeleteDnsRecordData;
  a.source = d.source;
  a.destination = d.destination;
  a.asset = addr(d.collection_address);
  a.change_dns_record_data = { value_schema: null, flags: null, address: null, key: d.key.toString('hex') };
}

function fillTonstakersDeposit(block: Block, a: ActionRow): void {
  const d = block.data as D.TONStakersDepositData;
  a.type = 'stake_deposit';
  a.source = addr(d.source);
  a.destination = addr(d.pool);
  a.amount = d.value;
  a.asset = addr(d.asset);
  a.staking_data = { provider: 'liquid_staking', tokens_minted: d.tokens_minted ?? null };
}

function fillDnsRenew(block: Block, a: ActionRow): void {
  const d = block.data as D.DnsRenewData;
  a.source = addr(d.source);
  a.destination = addr(d.destination);
  a.asset = addr(d.collection_address);
}

function fillTonstakersWithdrawRequest(block: Block, a: ActionRow): void {
  const d = block.data as D.TONStakersWithdrawRequestData;
  a.source = addr(d.source);
  a.source_secondary = addr(d.tsTON_wallet);
  a.destination = addr(d.pool);
  a.amount = d.tokens_burnt;
  a.type = 'stake_withdrawal_request';
  a.asset = addr(d.asset);
  a.staking_data = { provider: 'liquid_staking', ts_nft: addr(d.minted_nft) };
}

function fillTonstakersWithdraw(block: Block, a: ActionRow): void {
  const d = block.data as D.TONStakersWithdrawData;
  a.source = addr(d.stake_holder);
  a.destination = addr(d.pool);
  a.amount = d.amount;
  a.type = 'stake_withdrawal';
  a.staking_data = { provider: 'liquid_staking', ts_nft: addr(d.burnt_nft), tokens_burnt: d.tokens_burnt };
  a.asset = addr(d.asset);
}

function fillSubscribe(block: Block, a: ActionRow): void {
  const d = block.data as D.SubscriptionData;
  a.source = d.subscriber;
  a.destination = d.beneficiary;
  a.destination_secondary = d.subscription;
  a.amount = d.amount;
}

function fillUnsubscribe(block: Block, a: ActionRow): void {
  const d = block.data as D.UnsubscribeData;
  a.source = d.subscriber;
  a.destination = d.beneficiary;
  a.destination_secondary = d.subscription;
}

function fillElection(block: Block, a: ActionRow): void {
  const d = block.data as D.ElectionData;
  a.source = d.stake_holder;
  a.amount = 'amount' in d ? value(d.amount) : null;
}

function fillAuctionBid(block: Block, a: ActionRow): void {
  const d = block.data as D.AuctionBidData;
  a.source = d.bidder;
  a.destination = d.auction;
  a.asset_secondary = d.nft_address;
  a.asset = addr(d.nft_collection);
  a.nft_transfer_data = { nft_item_index: d.nft_item_index, marketplace: d.auction_type ?? null };
  a.accounts.push(a.asset_secondary as string);
  a.value = d.amount;
}

function fillAuctionOutbid(block: Block, a: ActionRow): void {
  const d = block.data as D.AuctionOutbidData;
  a.source = addr(d.auction_address);
  a.destination = addr(d.bidder);
  a.source_secondary = addr(d.new_bidder);
  a.asset_secondary = addr(d.nft);
  a.asset = addr(d.nft_collection);
  a.nft_transfer_data = { marketplace: d.auction_type };
  a.amount = value(d.amount);
  a.ton_transfer_data = { comment: d.comment };
  a.accounts.push(a.asset_secondary as string);
}

function fillCancelNftTrade(block: Block, a: ActionRow): void {
  const d = block.data as D.NftCancelTradeData;
  a.source = addr(d.owner);
  a.destination = addr(d.trade_contract);
  a.asset_secondary = addr(d.nft_address);
  a.asset = addr(d.nft_collection);
  a.nft_transfer_data = { marketplace_address: addr(d.marketplace_address) };
  a.accounts.push(a.asset_secondary as string);
}

function fillDedustDepositLiquidity(block: Block, a: ActionRow): void {
  const d = block.data as D.DedustDepositLiquidityData;
  a.type = 'dex_deposit_liquidity';
  a.source = addr(d.sender);
  a.destination = addr(d.pool_address);
  a.destination_secondary = addr(d.deposit_contract);
  a.dex_deposit_liquidity_data = {
    dex: d.dex,
    asset1: addr(d.asset_1),
    amount1: d.amount_1,
    asset2: addr(d.asset_2),
    amount2: d.amount_2,
    user_jetton_wallet_1: addr(d.user_jetton_wallet_1),
    user_jetton_wallet_2: addr(d.user_jetton_wallet_2),
    lp_tokens_minted: d.lp_tokens_minted ?? null,
    target_asset_1: addr(d.target_asset_1),
    target_amount_1: d.target_amount_1,
    target_asset_2: addr(d.target_asset_2),
    target_amount_2: d.target_amount_2,
    vault_excesses: (d.vault_excesses ?? []).map(([asset, amount]) => ({ asset: addr(asset), amount })),
  };
}

function fillDedustDepositLiquidityPartial(block: Block, a: ActionRow): void {
  const d = block.data as D.DedustDepositLiquidityData;
  a.type = 'dex_deposit_liquidity';
  a.source = addr(d.sender);
  a.destination_secondary = addr(d.deposit_contract);
  a.dex_deposit_liquidity_data = {
    dex: d.dex,
    asset1: addr(d.asset_1),
    amount1: d.amount_1,
    asset2: addr(d.asset_2),
    amount2: d.amount_2,
    user_jetton_wallet_1: addr(d.user_jetton_wallet_1),
    user_jetton_wallet_2: addr(d.user_jetton_wallet_2),
    lp_tokens_minted: null,
    target_asset_1: addr(d.target_asset_1),
    target_amount_1: d.target_amount_1,
    target_asset_2: addr(d.target_asset_2),
    target_amount_2: d.target_amount_2,
  };
}

/** dedust_v2/liquidity.py's deposit: pool under `pool`, user wallets under `sender_wallet_N`, targets' assets the legs'. */
function fillDedustV2DepositLiquidity(block: Block, a: ActionRow): void {
  const d = block.data as D.DedustV2DepositLiquidityData;
  a.type = 'dex_deposit_liquidity';
  a.source = addr(d.sender);
  a.destination = addr(d.pool);
  a.destination_secondary = addr(d.deposit_contract);
  a.dex_deposit_liquidity_data = {
    dex: d.dex,
    asset1: addr(d.asset_1),
    amount1: d.amount_1,
    asset2: addr(d.asset_2),
    amount2: d.amount_2,
    user_jetton_wallet_1: addr(d.sender_wallet_1),
    user_jetton_wallet_2: addr(d.sender_wallet_2),
    lp_tokens_minted: d.lp_tokens_minted,
    target_asset_1: addr(d.asset_1),
    target_amount_1: d.target_amount_1 ?? null,
    target_asset_2: addr(d.asset_2),
    target_amount_2: d.target_amount_2 ?? null,
    vault_excesses: (d.vault_excesses ?? []).map(([asset, amount]) => ({ asset: addr(asset), amount })),
  };
}

/** A dedust_v2 deposit leg alone: the plain dex_deposit_liquidity columns and the escrow. */
function fillDedustV2DepositLiquidityPartial(block: Block, a: ActionRow): void {
  fillDexDepositLiquidity(block, a);
  a.type = 'dex_deposit_liquidity';
  a.destination_secondary = addr((block.data as D.DedustV2DepositLiquidityData).deposit_contract);
}

/** dedust_v2/claims.py's fee claim: the dex_withdraw_liquidity_data columns, both sides; the type stays. */
function fillDedustV2ClaimFees(block: Block, a: ActionRow): void {
  const d = block.data as D.DedustV2ClaimFeesData;
  a.source = addr(d.sender);
  a.destination = addr(d.pool);
  a.destination_secondary = addr(d.position);
  a.dex_withdraw_liquidity_data = {
    dex: d.dex,
    amount1: d.amount_x,
    amount2: d.amount_y,
    asset1_out: addr(d.asset_x),
    asset2_out: addr(d.asset_y),
    user_jetton_wallet_1: addr(d.user_wallet_x),
    user_jetton_wallet_2: addr(d.user_wallet_y),
    dex_wallet_1: addr(d.dex_wallet_x),
    dex_wallet_2: addr(d.dex_wallet_y),
    dex_jetton_wallet_1: addr(d.dex_jetton_wallet_x),
    dex_jetton_wallet_2: addr(d.dex_jetton_wallet_y),
    is_refund: false,
    lp_tokens_burnt: null,
  };
}

/** dedust_v2/claims.py's reward claim: side 1 of the dex_withdraw_liquidity_data columns; reward_index not kept. */
function fillDedustV2ClaimReward(block: Block, a: ActionRow): void {
  const d = block.data as D.DedustV2ClaimRewardData;
  a.source = addr(d.sender);
  a.destination = addr(d.pool);
  a.destination_secondary = addr(d.position);
  a.dex_withdraw_liquidity_data = {
    dex: d.dex,
    amount1: d.amount,
    amount2: null,
    asset1_out: addr(d.asset),
    asset2_out: null,
    user_jetton_wallet_1: addr(d.user_wallet),
    user_jetton_wallet_2: null,
    dex_wallet_1: addr(d.dex_wallet),
    dex_wallet_2: null,
    dex_jetton_wallet_1: addr(d.dex_jetton_wallet),
    dex_jetton_wallet_2: null,
    is_refund: false,
    lp_tokens_burnt: null,
  };
}

function fillJettonMint(block: Block, a: ActionRow): void {
  const d = block.data as D.JettonMintData;
  a.destination = addr(d.to);
  a.destination_secondary = addr(d.to_jetton_wallet);
  a.asset = d.asset.jettonAddress;
  a.amount = d.amount;
  a.value = d.ton_amount;
}

function fillNominatorPoolDeposit(block: Block, a: ActionRow): void {
  const d = block.data as D.NominatorPoolDepositData;
  a.type = 'stake_deposit';
  a.source = d.source;
  a.destination = d.pool;
  a.amount = d.value;
  a.staking_data = { provider: 'nominator' };
}

function fillNominatorPoolWithdrawRequest(block: Block, a: ActionRow): void {
  const d = block.data as D.NominatorPoolWithdrawRequestData;
  if (d.payout_amount === null) {
    a.type = 'stake_withdrawal_request';
  } else {
    a.type = 'stake_withdrawal';
    a.amount = d.payout_amount;
  }
  a.staking_data = { provider: 'nominator' };
  a.source = d.source;
  a.destination = d.pool;
}

function fillTickTock(block: Block, a: ActionRow): void {
  a.source = addr((block.data as { account: AccountId }).account);
}

function fillEvaaSupply(block: Block, a: ActionRow): void {
  const d = block.data as D.EvaaSupplyData;
  a.source = addr(d.sender);
  a.source_secondary = addr(d.sender_jetton_wallet);
  a.destination = addr(d.recipient);
  a.destination_secondary = addr(d.recipient_contract);
  a.amount = d.amount;
  a.asset = addr(d.asset);
  a.success = d.is_success;
  if (block.failed) a.success = false;
  a.evaa_supply_data = {
    is_ton: d.is_ton,
    asset_id: d.asset_id !== null ? pyHex(d.asset_id) : null,
    master: addr(d.master),
    recipient_jetton_wallet: d.recipient_jetton_wallet ? addr(d.recipient_jetton_wallet) : null,
    master_jetton_wallet: d.master_jetton_wallet ? addr(d.master_jetton_wallet) : null,
  };
}

function fillEvaaWithdraw(block: Block, a: ActionRow): void {
  const d = block.data as D.EvaaWithdrawData;
  a.source = addr(d.owner);
  a.destination = addr(d.recipient);
  a.destination_secondary = addr(d.owner_contract);
  a.amount = d.amount;
  a.asset = addr(d.asset);
  a.success = d.is_success;
  if (block.failed) a.success = false;
  a.evaa_withdraw_data = {
    is_ton: d.is_ton,
    recipient_jetton_wallet: d.recipient_jetton_wallet ? addr(d.recipient_jetton_wallet) : null,
    master_jetton_wallet: d.master_jetton_wallet ? addr(d.master_jetton_wallet) : null,
    fail_reason: d.fail_reason,
    master: addr(d.master),
    asset_id: d.asset_id !== null ? pyHex(d.asset_id) : null,
  };
}

function fillEvaaLiquidate(block: Block, a: ActionRow): void {
  const d = block.data as D.EvaaLiquidateData;
  // upstream renders these with str(): the account's repr (raw, lower-case hex) and the asset id in decimal
  a.source = accountRepr(d.liquidator);
  a.destination = accountRepr(d.borrower);
  a.destination_secondary = d.borrower_contract ? accountRepr(d.borrower_contract) : null;
  a.asset = d.collateral_asset_id === null ? 'None' : d.collateral_asset_id.toString();
  a.amount = d.collateral_amount;
  a.success = d.is_success;
  a.evaa_liquidate_data = {
    asset_id: d.collateral_asset_id !== null ? pyHex(d.collateral_asset_id) : null,
    fail_reason: d.fail_reason,
    debt_amount: d.debt_amount,
  };
}

function fillJvaultStake(block: Block, a: ActionRow): void {
  const d = block.data as D.JVaultStakeData;
  a.source = addr(d.sender);
  a.source_secondary = addr(d.sender_wallet);
  a.asset = addr(d.asset);
  a.destination = addr(d.staking_pool);
  a.amount = d.staked_amount;
  a.jvault_stake_data = { period: d.period, stake_wallet: addr(d.stake_wallet) };
}

function fillJvaultUnstake(block: Block, a: ActionRow): void {
  const d = block.data as D.JVaultUnstakeData;
  a.source = addr(d.sender);
  a.source_secondary = addr(d.stake_wallet);
  a.destination = addr(d.staking_pool);
  a.amount = d.unstaked_amount;
  a.opcode = d.exit_code;
  a.asset = addr(d.asset);
  a.asset2 = addr(d.jvault_asset);
}

function fillJvaultClaim(block: Block, a: ActionRow): void {
  const d = block.data as D.JVaultClaimData;
  a.source = addr(d.sender);
  a.source_secondary = addr(d.stake_wallet);
  a.destination = addr(d.staking_pool);
  a.jvault_claim_data = { claimed_jettons: d.claimed_jettons.map(addr), claimed_amounts: d.claimed_amounts };
}

function fillJvaultUnstakeRequest(block: Block, a: ActionRow): void {
  const d = block.data as D.JVaultUnstakeRequestData;
  a.source = addr(d.sender);
  a.source_secondary = addr(d.stake_wallet);
  a.destination = addr(d.staking_pool);
  a.amount = d.requested_amount;
  a.asset = addr(d.asset);
  a.asset2 = addr(d.jvault_asset);
  a.opcode = d.exit_code;
}

function fillMultisigCreateOrder(block: Block, a: ActionRow): void {
  const d = block.data as D.MultisigCreateOrderData;
  a.source = addr(d.created_by);
  a.destination = addr(d.multisig);
  a.destination_secondary = addr(d.order_contract_address);
  a.multisig_create_order_data = {
    query_id: d.query_id,
    order_seqno: d.order_seqno,
    is_created_by_signer: d.is_created_by_signer,
    is_signed_by_creator: d.creator_approved,
    creator_index: d.creator_index,
    expiration_date: d.expiration_date,
    order_boc: d.order_boc_str,
  };
  a.accounts.push(...d.signers);
}

function fillMultisigApprove(block: Block, a: ActionRow): void {
  const d = block.data as D.MultisigApproveData;
  a.source = addr(d.signer);
  a.destination = addr(d.order);
  a.success = d.success;
  a.multisig_approve_data = { signer_index: d.signer_index, exit_code: d.exit_code };
  a.accounts.push(...d.signers);
}

function fillMultisigExecute(block: Block, a: ActionRow): void {
  const d = block.data as D.MultisigExecuteData;
  a.source = addr(d.order_contract_address);
  a.destination = addr(d.multisig);
  a.success = d.success;
  a.multisig_execute_data = {
    query_id: d.query_id,
    order_seqno: d.order_seqno,
    expiration_date: d.expiration_date,
    approvals_num: d.approvals_num,
    signers_hash: d.signers_hash_str,
    order_boc: d.order_boc_str,
  };
  a.accounts.push(...d.signers);
}

function fillVestingSendMessage(block: Block, a: ActionRow): void {
  const d = block.data as D.VestingSendMessageData;
  a.source = addr(d.sender);
  a.destination = addr(d.vesting);
  a.destination_secondary = addr(d.message_destination);
  a.amount = d.message_value;
  // newer upstream: a message the vesting contract skipped (sent with "ignore errors") is no successful send
  if (d.success !== undefined) a.success = d.success;
  a.vesting_send_message_data = { query_id: d.query_id, message_boc: d.message_boc_str };
}

function fillVestingAddWhitelist(block: Block, a: ActionRow): void {
  const d = block.data as D.VestingAddWhiteListData;
  a.source = addr(d.adder);
  a.destination = addr(d.vesting);
  a.vesting_add_whitelist_data = { query_id: d.query_id, accounts_added: d.accounts_added.map(addr) };
}

function fillToncoDeployPool(block: Block, a: ActionRow): void {
  const d = block.data as D.ToncoDeployPoolData;
  a.success = d.success;
  a.source = addr(d.deployer);
  a.destination = addr(d.router);
  a.destination_secondary = addr(d.pool);
  a.tonco_deploy_pool_data = {
    jetton0_router_wallet: addr(d.jetton0_router_wallet),
    jetton1_router_wallet: addr(d.jetton1_router_wallet),
    jetton0_minter: addr(d.jetton0_minter),
    jetton1_minter: addr(d.jetton1_minter),
    tick_spacing: d.tick_spacing,
    initial_price_x96: d.initial_price_x96,
    protocol_fee: d.protocol_fee,
    lp_fee_base: d.lp_fee_base,
    lp_fee_current: d.lp_fee_current,
    pool_active: d.pool_active,
  };
}

function fillTgbtcMint(block: Block, a: ActionRow): void {
  const d = block.data as D.TgBTCMintData;
  a.type = d.crippled ? 'tgbtc_mint_fallback' : 'tgbtc_mint';
  a.source = addr(d.sender);
  a.destination = addr(d.recipient);
  a.amount = d.amount;
  a.asset = addr(d.asset);
  a.success = d.success;
  a.asset_secondary = d.bitcoin_txid;
  a.source_secondary = addr(d.teleport_contract);
  a.destination_secondary = addr(d.recipient_wallet);
}

function fillTgbtcBurn(block: Block, a: ActionRow): void {
  const d = block.data as D.TgBTCBurnData;
  a.type = d.crippled ? 'tgbtc_burn_fallback' : 'tgbtc_burn';
  a.source = addr(d.sender);
  a.source_secondary = addr(d.jetton_wallet);
  a.destination = addr(d.pegout_address);
  a.amount = d.amount;
  a.asset = addr(d.asset);
}

function fillTgbtcNewKey(block: Block, a: ActionRow): void {
  const d = block.data as D.TgBTCNewKeyData;
  a.type = d.crippled ? 'tgbtc_new_key_fallback' : 'tgbtc_new_key';
  a.source = addr(d.teleport_contract);
  a.source_secondary = d.pubkey;
  a.destination = addr(d.coordinator_contract);
  a.destination_secondary = addr(d.pegout_address);
  a.amount = d.amount;
  a.value = d.timestamp === null ? null : BigInt(d.timestamp);
}

function fillTgbtcDkgLog(block: Block, a: ActionRow): void {
  const d = block.data as D.TgBTCDkgLogData;
  a.type = 'tgbtc_dkg_log_fallback';
  a.source = addr(d.coordinator_contract);
  a.asset = d.internal_pubkey;
  a.value = d.timestamp === null ? null : BigInt(d.timestamp);
}

function fillToncoDepositLiquidity(block: Block, a: ActionRow): void {
  const d = block.data as D.ToncoDepositLiquidityData;
  a.type = 'dex_deposit_liquidity';
  a.source = addr(d.sender);
  a.source_secondary = addr(d.sender_wallet_1 || d.sender_wallet_2);
  a.destination = addr(d.pool);
  a.destination_secondary = addr(d.account_contract);
  const excesses = (d.excesses ?? []).map(([asset, amount]) => ({ asset: addr(asset), amount }));
  // the sides actually deposited, in order (a one-sided deposit fills side 1); upstream's Amount is truthy even at 0
  const sides: Array<[Amount, D.AddrLike]> = [];
  for (const [amt, asset] of [[d.amount_1, d.asset_1], [d.amount_2, d.asset_2]] as Array<[Amount, D.AddrLike]>) if (amt !== null) sides.push([amt, asset]);
  a.dex_deposit_liquidity_data = {
    dex: 'tonco',
    amount1: sides[0]?.[0] ?? null,
    amount2: sides[1]?.[0] ?? null,
    asset1: addr(sides[0]?.[1] ?? null),
    asset2: addr(sides[1]?.[1] ?? null),
    user_jetton_wallet_1: addr(d.sender_wallet_1),
    user_jetton_wallet_2: addr(d.sender_wallet_2),
    lp_tokens_minted: d.lp_tokens_minted ?? null,
    tick_lower: d.tick_lower,
    tick_upper: d.tick_upper,
    nft_index: d.nft_index,
    nft_address: addr(d.nft_address),
    target_amount_1: d.position_amount_1,
    target_amount_2: d.position_amount_2,
    target_asset_1: addr(d.asset_1),
    target_asset_2: addr(d.asset_2),
    vault_excesses: excesses,
  };
}

function fillCoffeeCreateVault(block: Block, a: ActionRow): void {
  const d = block.data as D.CoffeeCreateVaultData;
  a.source = addr(d.sender);
  a.destination = addr(d.vault);
  a.asset = addr(d.asset);
  a.value = d.amount;
}

function fillCoffeeCreatePoolCreator(block: Block, a: ActionRow): void {
  const d = block.data as D.CoffeeCreatePoolCreatorData;
  a.source = addr(d.sender);
  a.source_secondary = addr(d.sender_jetton_wallet);
  a.destination = addr(d.deposit_recipient);
  a.destination_secondary = addr(d.pool_creator_contract);
  a.asset = addr(d.provided_asset);
  a.asset2 = addr(d.pool_params.first);
  a.asset2_secondary = addr(d.pool_params.second);
  a.amount = d.amount;
}

function fillCoffeeCreatePool(block: Block, a: ActionRow): void {
  const d = block.data as D.CoffeeCreatePoolData;
  a.source = addr(d.source);
  a.source_secondary = addr(d.source_jetton_wallet);
  a.amount = d.amount;
  a.asset = addr(d.asset_1);
  a.asset2 = addr(d.asset_2);
  a.destination = addr(d.pool);
  a.destination_secondary = addr(d.pool_creator_contract);
  a.coffee_create_pool_data = {
    amount_1: d.amount_1 ?? null,
    amount_2: d.amount_2 ?? null,
    initiator_1: addr(d.initiator_1),
    initiator_2: addr(d.initiator_2),
    provided_asset: addr(d.provided_asset),
    lp_tokens_minted: d.lp_tokens_minted ?? null,
  };
}

function fillCoffeeMevProtectHoldFunds(block: Block, a: ActionRow): void {
  const d = block.data as D.CoffeeMevProtectHoldFundsData;
  a.source = addr(d.sender);
  a.source_secondary = addr(d.sender_wallet);
  a.destination = addr(d.mev_contract);
  a.destination_secondary = addr(d.mev_contract_wallet);
  a.asset = addr(d.asset);
  a.amount = d.amount;
}

function fillCoffeeStakingDeposit(block: Block, a: ActionRow): void {
  const d = block.data as D.CoffeeStakingDepositData;
  a.source = addr(d.source);
  a.source_secondary = addr(d.user_jetton_wallet);
  a.destination = addr(d.pool);
  a.destination_secondary = addr(d.pool_jetton_wallet);
  a.asset = addr(d.asset);
  a.amount = d.value;
  a.coffee_staking_deposit_data = { minted_item_address: addr(d.minted_item_address), minted_item_index: d.minted_item_index };
}

function fillCoffeeStakingWithdraw(block: Block, a: ActionRow): void {
  const d = block.data as D.CoffeeStakingWithdrawData;
  a.source = addr(d.source);
  a.source_secondary = addr(d.user_jetton_wallet);
  a.destination = addr(d.pool);
  a.destination_secondary = addr(d.pool_jetton_wallet);
  a.asset = addr(d.asset);
  a.amount = d.amount;
  a.coffee_staking_withdraw_data = { nft_address: addr(d.nft_address), nft_index: d.nft_index, points: d.points };
}

function fillCoffeeStakingClaimRewards(block: Block, a: ActionRow): void {
  const d = block.data as D.CoffeeStakingClaimRewardsData;
  // the admin is not stored: always the same highload wallet, and there is no column for it
  a.source = addr(d.pool);
  a.source_secondary = addr(d.pool_jetton_wallet);
  a.destination = addr(d.recipient);
  a.destination_secondary = addr(d.recipient_jetton_wallet);
  a.asset = addr(d.asset);
  a.amount = d.amount;
}

function fillCocoonWorkerPayout(block: Block, a: ActionRow): void {
  const d = block.data as D.CocoonWorkerPayoutData;
  a.source = addr(d.proxy_contract);
  a.source_secondary = addr(d.worker_contract);
  a.destination = addr(d.worker_owner);
  a.amount = d.payout_amount;
  a.cocoon_worker_payout_data = {
    payout_type: d.payout_type, query_id: d.query_id, new_tokens: d.new_tokens, worker_state: d.worker_state, worker_tokens: d.worker_tokens,
  };
}

function fillCocoonProxyPayout(block: Block, a: ActionRow): void {
  const d = block.data as D.CocoonProxyPayoutData;
  a.source = addr(d.proxy_contract);
  a.destination = addr(d.proxy_owner);
  a.destination_secondary = addr(d.excesses_recipient);
  a.cocoon_proxy_payout_data = { query_id: d.query_id };
}

function fillCocoonProxyCharge(block: Block, a: ActionRow): void {
  const d = block.data as D.CocoonChargeData;
  a.source = addr(d.proxy_contract);
  a.destination = addr(d.client_contract);
  a.amount = 0n; // no actual transfer
  a.cocoon_proxy_charge_data = { query_id: d.query_id, new_tokens_used: d.new_tokens_used, expected_address: d.expected_address };
}

function fillCocoonClientTopUp(block: Block, a: ActionRow): void {
  const d = block.data as D.CocoonClientTopUpData;
  a.source = addr(d.sender);
  a.destination = addr(d.client_contract);
  a.destination_secondary = addr(d.proxy_contract);
  a.amount = d.top_up_amount;
  a.cocoon_client_top_up_data = { query_id: d.query_id };
}

function fillCocoonRegisterProxy(block: Block, a: ActionRow): void {
  const d = block.data as D.CocoonRegisterProxyData;
  a.destination = addr(d.root_contract);
  a.cocoon_register_proxy_data = { query_id: d.query_id };
}

function fillCocoonUnregisterProxy(block: Block, a: ActionRow): void {
  const d = block.data as D.CocoonRegisterProxyData;
  a.destination = addr(d.root_contract);
  a.cocoon_unregister_proxy_data = { query_id: d.query_id, seqno: d.seqno ?? null };
}

function fillCocoonClientRegister(block: Block, a: ActionRow): void {
  const d = block.data as D.CocoonClientRegisterData;
  a.source = addr(d.owner);
  a.destination = addr(d.client_contract);
  a.cocoon_client_register_data = { query_id: d.query_id, nonce: d.nonce };
}

function fillCocoonClientChangeSecretHash(block: Block, a: ActionRow): void {
  const d = block.data as D.CocoonClientChangeSecretHashData;
  a.source = addr(d.owner);
  a.destination = addr(d.client_contract);
  a.cocoon_client_change_secret_hash_data = { query_id: d.query_id, new_secret_hash: pyHex(d.new_secret_hash).slice(2) };
}

function fillCocoonClientRequestRefund(block: Block, a: ActionRow): void {
  const d = block.data as D.CocoonClientRequestRefundData;
  a.source = addr(d.owner);
  a.destination = addr(d.client_contract);
  a.cocoon_client_request_refund_data = { query_id: d.query_id, via_wallet: d.via_wallet };
}

/** Newest upstream: the refund's payout (proxy and client contract, the recipient it was paid to, the amount). */
function fillCocoonGrantRefund(block: Block, a: ActionRow): void {
  const d = block.data as D.CocoonGrantRefundData;
  a.source = addr(d.proxy_contract);
  a.source_secondary = addr(d.client_contract);
  a.destination = addr(d.refund_recipient);
  a.amount = d.payout_amount;
  a.cocoon_grant_refund_data = { query_id: d.query_id, new_tokens_used: d.new_tokens_used, expected_address: d.expected_address };
}

/** The new stake is written twice: the row's amount and the composite. */
function fillCocoonClientIncreaseStake(block: Block, a: ActionRow): void {
  const d = block.data as D.CocoonClientIncreaseStakeData;
  a.source = addr(d.owner);
  a.destination = addr(d.client_contract);
  a.amount = d.new_stake;
  a.cocoon_client_increase_stake_data = { query_id: d.query_id, new_stake: d.new_stake };
}

/** The withdrawn amount is written twice: the row's amount and the composite. */
function fillCocoonClientWithdraw(block: Block, a: ActionRow): void {
  const d = block.data as D.CocoonClientWithdrawData;
  a.source = addr(d.owner);
  a.destination = addr(d.client_contract);
  a.amount = d.withdraw_amount;
  a.cocoon_client_withdraw_data = { query_id: d.query_id, withdraw_amount: d.withdraw_amount };
}

function fillLayerzeroSend(d: D.LayerZeroSendData, a: ActionRow): void {
  a.source = addr(d.initiator);
  a.type = 'layerzero_send';
  a.layerzero_send_data = {
    send_request_id: d.send_request_id,
    msglib_manager: d.msglib_manager,
    msglib: d.msglib,
    uln: addr(d.uln),
    native_fee: d.native_fee,
    zro_fee: d.zro_fee,
    endpoint: addr(d.endpoint),
    channel: addr(d.channel),
  };
  a.layerzero_packet_data = { ...d.packet_data };
}

function fillLayerzeroSendTokens(block: Block, a: ActionRow): void {
  const d = block.data as D.LayerZeroSendTokensData;
  a.source_secondary = addr(d.sender_wallet);
  a.destination = addr(d.oapp);
  a.destination_secondary = addr(d.oapp_wallet);
  a.amount = d.amount;
  a.asset = addr(d.asset);
  fillLayerzeroSend(d.layerzero_send_data, a);
  a.type = 'layerzero_send_tokens';
  a.source = addr(d.sender);
}

function fillLayerzeroReceive(block: Block, a: ActionRow): void {
  const d = block.data as D.LayerZeroReceiveData;
  a.source = addr(d.sender);
  a.destination = addr(d.oapp);
  a.destination_secondary = addr(d.channel);
  a.layerzero_packet_data = { ...d.packet_data };
}

function fillLayerzeroCommitPacket(block: Block, a: ActionRow): void {
  const d = block.data as D.LayerZeroCommitPacketData;
  a.source = addr(d.sender);
  a.source_secondary = addr(d.endpoint);
  a.destination = addr(d.uln);
  a.destination_secondary = addr(d.uln_connection);
  a.asset = addr(d.channel);
  a.asset_secondary = addr(d.msglib_connection);
  a.layerzero_packet_data = { ...d.packet_data };
}

function fillLayerzeroDvnVerify(block: Block, a: ActionRow): void {
  const d = block.data as D.LayerZeroDvnVerifyData;
  a.source = addr(d.sender);
  a.layerzero_dvn_verify_data = {
    nonce: d.nonce, status: d.status, dvn: addr(d.dvn), proxy: addr(d.proxy), uln: addr(d.uln), uln_connection: addr(d.uln_connection),
  };
}

function fillDnsRelease(block: Block, a: ActionRow): void {
  const d = block.data as D.DnsReleaseData;
  a.source = addr(d.source);
  a.destination = addr(d.nft_address);
  a.asset = addr(d.nft_collection);
  a.nft_transfer_data = { query_id: d.query_id, nft_item_index: d.nft_index };
  a.value = value(d.value);
}

function fillEthenaWithdrawalRequest(block: Block, a: ActionRow): void {
  const d = block.data as D.EthenaWithdrawalRequestData;
  a.type = 'stake_withdrawal_request';
  a.source = addr(d.source);
  a.source_secondary = addr(d.source_wallet);
  a.destination = addr(d.pool);
  a.asset = addr(d.asset);
  a.amount = d.amount;
  a.staking_data = { provider: 'ethena', tokens_minted: value(d.ts_usde_amount) };
}

function fillEthenaDeposit(block: Block, a: ActionRow): void {
  const d = block.data as D.EthenaDepositData;
  a.type = 'stake_deposit';
  a.source = addr(d.source);
  a.source_secondary = addr(d.user_jetton_wallet);
  a.destination = addr(d.pool);
  a.amount = d.value;
  a.asset = addr(d.asset);
  a.asset2 = addr(d.source_asset);
  a.staking_data = { provider: 'ethena', tokens_minted: value(d.tokens_minted) };
}

/**
 * Newer upstream's change_wallet_key (tgwallet.py) and gasless_request marker: the call_contract columns of data
 * that has no opcode (the Go API of v1.3 has no details case for either).
 */
function fillWalletRequest(block: Block, a: ActionRow): void {
  const d = block.data as { source: AccountId; destination: AccountId; value: Amount };
  a.source = d.source;
  a.destination = d.destination;
  a.value = d.value;
}

/*
 * Hipo (newer upstream staking.py): upstream's serializer for these was not read; its matcher file says all three
 * serialise as the generic staking types, provider-tagged, with the bill SBT as `ts_nft` (joining a deferred
 * request to its settlement, as Tonstakers' request NFT does). The columns follow the Tonstakers fillers.
 */
function fillHipoStakeDeposit(block: Block, a: ActionRow): void {
  const d = block.data as D.HipoStakeDepositData;
  a.type = 'stake_deposit';
  a.source = addr(d.source);
  a.destination = addr(d.pool);
  a.amount = d.value;
  a.asset = addr(d.asset);
  a.staking_data = { provider: 'hipo', tokens_minted: d.tokens_minted, ts_nft: addr(d.bill) };
}

function fillHipoStakeWithdrawalRequest(block: Block, a: ActionRow): void {
  const d = block.data as D.HipoStakeWithdrawalRequestData;
  a.type = 'stake_withdrawal_request';
  a.source = addr(d.source);
  a.source_secondary = addr(d.user_jetton_wallet);
  a.destination = addr(d.pool);
  a.amount = d.tokens_burnt;
  a.asset = addr(d.asset);
  a.staking_data = { provider: 'hipo', ts_nft: addr(d.bill) };
}

function fillHipoStakeWithdrawal(block: Block, a: ActionRow): void {
  const d = block.data as D.HipoStakeWithdrawalData;
  a.type = 'stake_withdrawal';
  a.source = addr(d.source);
  a.destination = addr(d.pool);
  a.amount = d.amount;
  a.asset = addr(d.asset);
  a.staking_data = { provider: 'hipo', ts_nft: addr(d.bill), tokens_burnt: d.tokens_burnt };
}

type Filler = (block: Block, a: ActionRow) => void;

/**
 * Upstream's `match block.btype`, keyed by the action types (action-types.ts) and the block types stored under one
 * of them. `coffee_mev_protect_failed_swap` has a filler upstream but no case: its rows carry only the base columns,
 * as here (and so does any type not listed).
 */
const FILLERS_BY_TYPE = {
  call_contract: fillCallContract,
  contract_deploy: fillCallContract,
  ton_transfer: fillTonTransfer,
  nominator_pool_deposit: fillNominatorPoolDeposit,
  nominator_pool_withdraw_request: fillNominatorPoolWithdrawRequest,
  dedust_deposit_liquidity: fillDedustDepositLiquidity,
  coffee_deposit_liquidity: fillDedustDepositLiquidity,
  dedust_deposit_liquidity_partial: fillDedustDepositLiquidityPartial,
  tonco_deposit_liquidity: fillToncoDepositLiquidity,
  dedust_v2_deposit_liquidity: fillDedustV2DepositLiquidity, // dedust_v2 (newer upstream)
  dedust_v2_deposit_liquidity_partial: fillDedustV2DepositLiquidityPartial,
  dedust_v2_claim_fees: fillDedustV2ClaimFees,
  dedust_v2_claim_reward: fillDedustV2ClaimReward,
  jetton_transfer: fillJettonTransfer,
  nft_transfer: fillNftTransfer,
  nft_mint: fillNftMint,
  nft_put_on_sale: fillNftPutOnSale,
  nft_put_on_auction: fillNftPutOnAuction,
  teleitem_start_auction: fillNftPutOnAuction,
  jetton_burn: fillJettonBurn,
  jetton_mint: fillJettonMint,
  jetton_swap: fillJettonSwap,
  change_dns: fillChangeDnsRecord,
  delete_dns: fillDeleteDnsRecord,
  renew_dns: fillDnsRenew,
  tonstakers_deposit: fillTonstakersDeposit,
  tonstakers_withdraw_request: fillTonstakersWithdrawRequest,
  tonstakers_withdraw: fillTonstakersWithdraw,
  subscribe: fillSubscribe,
  dex_deposit_liquidity: fillDexDepositLiquidity,
  dex_withdraw_liquidity: fillDexWithdrawLiquidity,
  unsubscribe: fillUnsubscribe,
  election_deposit: fillElection,
  election_recover: fillElection,
  auction_bid: fillAuctionBid,
  jvault_unstake: fillJvaultUnstake,
  jvault_stake: fillJvaultStake,
  jvault_claim: fillJvaultClaim,
  jvault_unstake_request: fillJvaultUnstakeRequest,
  ethena_withdrawal_request: fillEthenaWithdrawalRequest,
  ethena_deposit: fillEthenaDeposit,
  hipo_stake_deposit: fillHipoStakeDeposit,
  hipo_stake_withdrawal_request: fillHipoStakeWithdrawalRequest,
  hipo_stake_withdrawal: fillHipoStakeWithdrawal,
  multisig_create_order: fillMultisigCreateOrder,
  multisig_approve: fillMultisigApprove,
  multisig_execute: fillMultisigExecute,
  nft_discovery: fillNftDiscovery,
  evaa_supply: fillEvaaSupply,
  evaa_withdraw: fillEvaaWithdraw,
  evaa_liquidate: fillEvaaLiquidate,
  vesting_send_message: fillVestingSendMessage,
  vesting_add_whitelist: fillVestingAddWhitelist,
  tonco_deploy_pool: fillToncoDeployPool,
  tgbtc_mint: fillTgbtcMint,
  tgbtc_burn: fillTgbtcBurn,
  tgbtc_new_key: fillTgbtcNewKey,
  tgbtc_dkg_log: fillTgbtcDkgLog,
  tick_tock: fillTickTock,
  tonco_withdraw_liquidity: fillToncoWithdrawLiquidity,
  layerzero_send: (b, a) => fillLayerzeroSend(b.data as D.LayerZeroSendData, a),
  layerzero_send_tokens: fillLayerzeroSendTokens,
  layerzero_receive: fillLayerzeroReceive,
  layerzero_commit_packet: fillLayerzeroCommitPacket,
  layerzero_dvn_verify: fillLayerzeroDvnVerify,
  coffee_create_vault: fillCoffeeCreateVault,
  coffee_create_pool_creator: fillCoffeeCreatePoolCreator,
  coffee_create_pool: fillCoffeeCreatePool,
  coffee_mev_protect_hold_funds: fillCoffeeMevProtectHoldFunds,
  coffee_staking_deposit: fillCoffeeStakingDeposit,
  coffee_staking_withdraw: fillCoffeeStakingWithdraw,
  coffee_staking_claim_rewards: fillCoffeeStakingClaimRewards,
  cocoon_worker_payout: fillCocoonWorkerPayout,
  cocoon_proxy_payout: fillCocoonProxyPayout,
  cocoon_proxy_charge: fillCocoonProxyCharge,
  cocoon_client_top_up: fillCocoonClientTopUp,
  cocoon_register_proxy: fillCocoonRegisterProxy,
  cocoon_unregister_proxy: fillCocoonUnregisterProxy,
  cocoon_client_register: fillCocoonClientRegister,
  cocoon_client_change_secret_hash: fillCocoonClientChangeSecretHash,
  cocoon_client_request_refund: fillCocoonClientRequestRefund,
  cocoon_grant_refund: fillCocoonGrantRefund,
  cocoon_client_increase_stake: fillCocoonClientIncreaseStake,
  cocoon_client_withdraw: fillCocoonClientWithdraw,
  nft_purchase: fillNftPurchase,
  dns_purchase: fillNftPurchase,
  auction_outbid: fillAuctionOutbid,
  nft_cancel_sale: fillCancelNftTrade,
  nft_cancel_auction: fillCancelNftTrade,
  nft_finish_auction: fillCancelNftTrade,
  teleitem_cancel_auction: fillCancelNftTrade,
  dns_release: fillDnsRelease,
  nft_update_sale: fillSaleUpdate,
  change_wallet_key: fillWalletRequest,
  gasless_request: fillWalletRequest,
} satisfies Partial<Record<ActionType | RenamedBlockType, Filler>>;
const FILLERS: Readonly<Record<string, Filler>> = FILLERS_BY_TYPE;

/** The block types that have a serializer case. */
export const SERIALIZED_BLOCK_TYPES: ReadonlySet<string> = new Set(Object.keys(FILLERS));

/** `block_to_action`: one block's action row. */
export function blockToAction(block: Block, trace: Trace): ActionRow {
  const a = baseBlockToAction(block, trace);
  a.trace_external_hash = trace.externalHash;
  a.trace_external_hash_norm = trace.externalHashNorm ?? null;
  a.trace_mc_seqno_end = trace.mcSeqnoEnd;
  FILLERS[block.btype]?.(block, a);
  const accounts = a.accounts as Array<string | null>;
  accounts.push(a.source, a.source_secondary);
  if (!block.isGhostBlock) accounts.push(a.destination, a.destination_secondary);
  const txHashes = new Set(a.tx_hashes);
  const init = block.initiatingEventNode;
  if (init !== null) {
    txHashes.add(init.getTxHash());
    if (!init.isTickTock) accounts.push(init.message.transaction.account);
  }
  a.tx_hashes = [...txHashes];
  a.accounts = [...new Set(accounts.filter((x): x is string => x !== null && x !== undefined))];
  return a;
}

/** Types whose child actions are not stored (upstream's `v1_ops`). */
export const V1_OPS: ReadonlySet<string> = new Set([
  'call_contract', 'contract_deploy', 'jetton_burn', 'tick_tock', 'jetton_transfer', 'nft_transfer', 'nft_mint', 'jetton_mint',
  'ton_transfer', 'stake_deposit', 'stake_withdrawal', 'stake_withdrawal_request', 'dex_deposit_liquidity', 'jetton_swap',
  'change_dns', 'delete_dns', 'renew_dns', 'subscribe', 'dex_withdraw_liquidity', 'unsubscribe', 'election_deposit',
  'election_recover', 'auction_bid', 'nominator_pool_deposit', 'nominator_pool_withdraw_request', 'dedust_deposit_liquidity',
  'dedust_deposit_liquidity_partial', 'dedust_v2_deposit_liquidity', 'dedust_v2_deposit_liquidity_partial', 'tonstakers_deposit', 'tonstakers_withdraw_request', 'tonstakers_withdraw',
  'ethena_withdrawal_request', 'ethena_deposit', 'tonco_deposit_liquidity', 'tonco_withdraw_liquidity', 'coffee_deposit_liquidity',
  // newer upstream
  'change_wallet_key', 'gasless_request',
]);

export class DuplicateActionError extends Error {}

/**
 * `serialize_blocks`: an action per block (not the root, empty blocks, external call_contracts); for a block
 * type outside V1_OPS, its children's actions too (contract deploys left out, a child with the parent's id
 * skipped), each listing the parent's type among its ancestors. A child id met twice fails, as upstream.
 */
export function serializeBlocks(blocks: Block[], trace: Trace, parentActionId: string | null = null, serializeChildActions = true): { actions: ActionRow[]; state: 'ok' | 'broken' } {
  const res = serializeRows(blocks, trace, parentActionId, serializeChildActions);
  linkGaslessActions(res.rows);
  return { actions: res.rows.map((r) => r.action), state: res.state };
}

type SerializedRow = { block: Block; action: ActionRow };

/**
 * Newer upstream: every action that comes straight from a relayed request names the request's gasless_request
 * marker (`parent_gasless_action`): an action whose earliest node is the request itself (a composite a matcher
 * built over it; not the marker, not the bare call) and one whose earliest node the request sent. Deeper actions
 * are the wallet's own steps; a marker under another relayed request names that one's.
 */
function linkGaslessActions(rows: SerializedRow[]): void {
  const markers = new Map<EventNode, string>();
  for (const r of rows) if (r.block.btype === 'gasless_request') markers.set(rootEventNode(r.block), r.action.action_id);
  if (markers.size === 0) return;
  for (const r of rows) {
    const node = rootEventNode(r.block);
    const own = r.block.btype !== 'gasless_request' && r.block.btype !== 'call_contract' ? markers.get(node) : undefined;
    r.action.parent_gasless_action = own ?? (node.parent !== null ? markers.get(node.parent) : undefined) ?? null;
  }
}

function serializeRows(blocks: Block[], trace: Trace, parentActionId: string | null, serializeChildActions: boolean): { rows: SerializedRow[]; state: 'ok' | 'broken' } {
  const rows: SerializedRow[] = [];
  const ids: string[] = [];
  let state: 'ok' | 'broken' = 'ok';
  for (const block of blocks) {
    if (block.btype === 'root') continue;
    if (block.btype === 'call_contract' && block.eventNodes[0].message.destination === null) continue;
    if (block.btype === 'empty') continue;
    if (block.btype === 'call_contract' && block.eventNodes[0].message.source === null) continue;
    if (block.broken) state = 'broken';
    const action = blockToAction(block, trace);
    if (parentActionId !== null && action.action_id === parentActionId) continue;
    action.parent_action_id = parentActionId;
    ids.push(action.action_id);
    rows.push({ block, action });
    if (serializeChildActions && !V1_OPS.has(block.btype)) {
      const child = serializeRows(block.childrenBlocks, trace, action.action_id, serializeChildActions);
      for (const cr of child.rows) {
        const ca = cr.action;
        if (ca.type === 'contract_deploy') continue;
        ca.ancestor_type = [...new Set([...(ca.ancestor_type ?? []), block.btype])];
        if (ids.includes(ca.action_id)) throw new DuplicateActionError(`Duplicate action id ${ca.action_id} in trace ${trace.traceId}`);
        ids.push(ca.action_id);
        rows.push(cr);
      }
      if (child.state !== 'ok') state = child.state;
    }
  }
  return { rows, state };
}

/** `create_unknown_action`: one action over the whole trace (its id is the trace id). */
export function createUnknownAction(trace: Trace): ActionRow {
  const txs = trace.transactions;
  return Object.assign(emptyAction(), {
    action_id: hashToBase64(trace.traceId),
    type: 'unknown',
    trace_id: trace.traceId,
    tx_hashes: txs.map((t) => t.hash),
    start_lt: trace.startLt,
    end_lt: trace.endLt,
    start_utime: trace.startUtime,
    end_utime: trace.endUtime,
    success: !txs.some((t) => t.aborted),
    mc_seqno_end: trace.mcSeqnoEnd,
    accounts: [...new Set(txs.map((t) => t.account))],
    trace_end_lt: trace.endLt,
    trace_end_utime: trace.endUtime,
    trace_external_hash: trace.externalHash,
    trace_mc_seqno_end: trace.mcSeqnoEnd,
  }) as ActionRow;
}
