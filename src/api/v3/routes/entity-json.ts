/** The JSON of entity-table rows as /jetton, /nft, /dns, /multisig and /vesting render them (reference §2.5-2.8). */
import { parseOrderActions } from '../../../contracts/index.ts';
import type { Row } from '../db.ts';
import { decodeMessageBody } from '../decode/index.ts';
import type { NftItemsWithRefs } from '../queries/nfts.ts';
import { b64, num, str } from '../render.ts';

/** decoded_forward_payload / decoded_custom_payload: the payload cell decoded as /decode does (null: nothing matches). */
function decodedPayload(boc: unknown): Record<string, unknown> | null {
  return typeof boc === 'string' && boc ? decodeMessageBody(boc) : null;
}

function json(v: unknown): Record<string, unknown> {
  if (typeof v !== 'string' || v === '') return {};
  try {
    const o = JSON.parse(v) as unknown;
    return o && typeof o === 'object' && !Array.isArray(o) ? (o as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** A `jetton_wallets` row as /jetton/wallets renders it (the streaming API's `jettons_change` too). */
export function jettonWalletJson(r: Row): Record<string, unknown> {
  const o: Record<string, unknown> = {
    address: r.address, balance: str(r.balance), owner: r.owner, jetton: r.jetton, last_transaction_lt: str(r.last_transaction_lt),
    code_hash: b64(r.code_hash), data_hash: b64(r.data_hash),
  };
  if (r.mintless_amount !== null && r.mintless_amount !== undefined && r.mintless_is_claimed === false) {
    o.mintless_info = { amount: str(r.mintless_amount), start_from: num(r.mintless_start_from) ?? 0, expire_at: num(r.mintless_expire_at) ?? 0, custom_payload_api_uri: [] };
  }
  return o;
}

export function jettonMasterJson(r: Row) {
  return {
    address: r.address, total_supply: str(r.total_supply), mintable: Boolean(r.mintable), admin_address: str(r.admin_address),
    jetton_content: json(r.jetton_content), jetton_wallet_code_hash: b64(r.jetton_wallet_code_hash), code_hash: b64(r.code_hash),
    data_hash: b64(r.data_hash), last_transaction_lt: str(r.last_transaction_lt),
  };
}

export function jettonTransferJson(r: Row) {
  return {
    query_id: str(r.query_id), source: r.source, destination: r.destination, amount: str(r.amount), source_wallet: r.jetton_wallet_address,
    jetton_master: r.jetton_master_address, transaction_hash: b64(r.tx_hash), transaction_lt: str(r.tx_lt), transaction_now: num(r.tx_now),
    transaction_aborted: Boolean(r.tx_aborted), response_destination: str(r.response_destination), custom_payload: str(r.custom_payload),
    decoded_custom_payload: decodedPayload(r.custom_payload), forward_ton_amount: str(r.forward_ton_amount), forward_payload: str(r.forward_payload),
    decoded_forward_payload: decodedPayload(r.forward_payload), trace_id: b64(r.trace_id),
  };
}

export function jettonBurnJson(r: Row) {
  return {
    query_id: str(r.query_id), owner: r.owner, jetton_wallet: r.jetton_wallet_address, jetton_master: r.jetton_master_address,
    transaction_hash: b64(r.tx_hash), transaction_lt: str(r.tx_lt), transaction_now: num(r.tx_now), transaction_aborted: Boolean(r.tx_aborted),
    amount: str(r.amount), response_destination: str(r.response_destination), custom_payload: str(r.custom_payload), decoded_custom_payload: decodedPayload(r.custom_payload),
    trace_id: b64(r.trace_id),
  };
}

export function nftCollectionJson(r: Row) {
  return {
    address: r.address, owner_address: str(r.owner_address), last_transaction_lt: str(r.last_transaction_lt),
    next_item_index: str(r.next_item_index), collection_content: json(r.collection_content), data_hash: b64(r.data_hash), code_hash: b64(r.code_hash),
  };
}

/** An NFT item with its collection and, when a sale contract holds it, the sale and the real owner. */
export function nftItemJson(r: Row, refs: Omit<NftItemsWithRefs, 'items'>): Record<string, unknown> {
  const collection = refs.collections.get(r.collection_address as string);
  const o: Record<string, unknown> = {
    address: r.address, init: Boolean(r.init), index: str(r.index), collection_address: str(r.collection_address), owner_address: str(r.owner_address),
    content: json(r.content), last_transaction_lt: str(r.last_transaction_lt), code_hash: b64(r.code_hash), data_hash: b64(r.data_hash),
    collection: collection ? nftCollectionJson(collection) : null, on_sale: false,
  };
  const sale = refs.sales.get(r.address as string);
  if (sale) {
    o.on_sale = true;
    o[sale.type === 'getgems_auction' ? 'auction_contract_address' : 'sale_contract_address'] = sale.address;
    if (typeof sale.nft_owner_address === 'string') o.real_owner = sale.nft_owner_address;
  } else if (r.real_owner !== null && r.real_owner !== undefined && r.real_owner !== r.owner_address) {
    o.on_sale = true;
    o.real_owner = r.real_owner;
  }
  return o;
}

export function nftSaleJson(r: Row, item: Record<string, unknown> | undefined): Record<string, unknown> {
  const o: Record<string, unknown> = { type: r.type, address: r.address };
  const opt = { nft_address: str(r.nft_address), nft_owner_address: str(r.nft_owner_address), marketplace_address: str(r.marketplace_address),
    created_at: num(r.created_at), last_transaction_lt: str(r.last_transaction_lt), code_hash: b64(r.code_hash), data_hash: b64(r.data_hash) };
  for (const [k, v] of Object.entries(opt)) if (v !== null) o[k] = v;
  o.details = json(r.details);
  if (item) o.nft_item = item;
  return o;
}

export function nftTransferJson(r: Row) {
  return {
    query_id: str(r.query_id), nft_address: r.nft_item_address, nft_collection: str(r.nft_collection_address), transaction_hash: b64(r.tx_hash),
    transaction_lt: str(r.tx_lt), transaction_now: num(r.tx_now), transaction_aborted: Boolean(r.tx_aborted), old_owner: r.old_owner, new_owner: r.new_owner,
    response_destination: str(r.response_destination), custom_payload: str(r.custom_payload), decoded_custom_payload: decodedPayload(r.custom_payload),
    forward_amount: str(r.forward_amount), forward_payload: str(r.forward_payload), decoded_forward_payload: decodedPayload(r.forward_payload), trace_id: b64(r.trace_id),
  };
}

export function dnsRecordJson(r: Row) {
  return {
    nft_item_address: r.nft_item_address, nft_item_owner: str(r.nft_item_owner), domain: r.domain, dns_next_resolver: str(r.dns_next_resolver),
    dns_wallet: str(r.dns_wallet), dns_site_adnl: str(r.dns_site_adnl), dns_storage_bag_id: str(r.dns_storage_bag_id),
  };
}

/** A DNS auction (reference DNSAuction): `finished` once its end time is not after `now`. */
export function dnsAuctionJson(r: Row, now: number): Record<string, unknown> {
  return {
    nft_item_address: r.nft_item_address, domain: r.domain, max_bid_address: str(r.max_bid_address), max_bid_amount: str(r.max_bid_amount),
    auction_end_time: str(r.auction_end_time), last_fill_up_time: str(r.last_fill_up_time), finished: BigInt(r.auction_end_time as string) <= BigInt(now),
  };
}

/** A multisig order; `parse`: with its actions decoded from order_boc. */
export function orderJson(r: Row, parse = false) {
  return {
    address: r.address, multisig_address: r.multisig_address, order_seqno: str(r.order_seqno), threshold: num(r.threshold),
    sent_for_execution: r.sent_for_execution === null ? null : Boolean(r.sent_for_execution), approvals_mask: str(r.approvals_mask),
    approvals_num: num(r.approvals_num), expiration_date: num(r.expiration_date), order_boc: str(r.order_boc), signers: (r.signers as string[]) ?? [],
    last_transaction_lt: str(r.last_transaction_lt), code_hash: b64(r.code_hash), data_hash: b64(r.data_hash),
    actions: parse ? parseOrderActions(str(r.order_boc)) : [],
  };
}

/** A multisig wallet with its orders (null: not asked for). */
export function multisigJson(r: Row, orders: Row[] | null) {
  return {
    address: r.address, next_order_seqno: str(r.next_order_seqno), threshold: num(r.threshold), signers: r.signers ?? [], proposers: r.proposers ?? [],
    last_transaction_lt: str(r.last_transaction_lt), code_hash: b64(r.code_hash), data_hash: b64(r.data_hash),
    orders: orders === null ? null : orders.filter((o) => o.multisig_address === r.address).map((o) => orderJson(o)),
  };
}

export function vestingJson(r: Row) {
  return {
    address: r.address, start_time: num(r.vesting_start_time), total_duration: num(r.vesting_total_duration), unlock_period: num(r.unlock_period),
    cliff_duration: num(r.cliff_duration), sender_address: r.vesting_sender_address, owner_address: r.owner_address, total_amount: str(r.vesting_total_amount),
    whitelist: (r.whitelist as string[]) ?? [],
  };
}
