/**
 * Action row -> the API v3 `details` of its type, as toncenter's Go API renders its action rows (ton-index-go
 * `parse/actions.go` ParseRawAction: generic columns and the type's composite `*_data` column -> `details`).
 * Lt and amounts render as decimal strings, addresses in raw upper-case form; render.ts renders the whole Action.
 * A type the Go API has no case for (`unknown` among them) gets `{"error": "unsupported action type: '<t>'"}`.
 * Field names of the types no fixture covers follow the Go structs' fields (see README.md, known limits).
 */
import { commentText, loadSnakeBytes } from './messages/common.ts';
import type { ActionRow } from './model.ts';
import { cellFromBoc } from '../contracts/index.ts';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** bigint -> decimal string, recursively (API v3 never emits 64-bit values as JSON numbers). */
export function toJson(v: unknown): Json {
  if (v === undefined || v === null) return null;
  if (typeof v === 'bigint') return v.toString();
  if (Buffer.isBuffer(v)) return v.toString('base64');
  if (Array.isArray(v)) return v.map(toJson);
  if (typeof v === 'object') {
    const o: { [k: string]: Json } = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) o[k] = toJson(x);
    return o;
  }
  return v as Json;
}

const opHex = (op: number | null): string | null => (op === null ? null : '0x' + (op >>> 0).toString(16).padStart(8, '0'));

/** The Go structs' `omitempty` fields: left out when null. */
function omitNull(o: Record<string, unknown>, ...keys: string[]): Record<string, unknown> {
  for (const k of keys) if (o[k] === null || o[k] === undefined) delete o[k];
  return o;
}
function col(r: ActionRow, name: string): Record<string, unknown> {
  return (r[name as `${string}_data`] as Record<string, unknown> | null | undefined) ?? {};
}

/** ParseCommentFromPayload: a text (op 0) or encrypted (0x2167da4b) comment in a forward payload BoC. */
function commentFromPayload(b64: unknown): { comment: string; encrypted: boolean } | null {
  if (typeof b64 !== 'string') return null;
  const c = cellFromBoc(b64);
  if (!c) return null;
  try {
    const s = c.beginParse(true);
    if (s.remainingBits < 32) return null;
    const op = s.loadUint(32) >>> 0;
    if (op === 0) return { comment: commentText(loadSnakeBytes(s)), encrypted: false };
    if (op === 0x2167da4b) return { comment: loadSnakeBytes(s).toString('base64'), encrypted: true };
    return null;
  } catch {
    return null;
  }
}

const swapTransfer = (t: unknown) => {
  const x = (t ?? {}) as Record<string, unknown>;
  return { asset: x.asset ?? null, source: x.source ?? null, destination: x.destination ?? null, source_jetton_wallet: x.source_jetton_wallet ?? null, destination_jetton_wallet: x.destination_jetton_wallet ?? null, amount: x.amount ?? null };
};
/**
 * A field the Go struct types as an integer (`*uint64`, `*int32`, `*int64`: a JSON number, not a string). Rendered
 * as a number while that is exact; a value beyond 2^53 stays a decimal string rather than lose digits.
 */
function jsonInt(v: unknown): number | string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString();
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return jsonInt(BigInt(v));
  return null;
}
const packet = (r: ActionRow) => {
  const p = col(r, 'layerzero_packet_data');
  return {
    src_oapp: p.src_oapp ?? null, dst_oapp: p.dst_oapp ?? null, src_eid: jsonInt(p.src_eid), dst_eid: jsonInt(p.dst_eid), nonce: jsonInt(p.nonce),
    guid: p.guid ?? null, message: p.message ?? null,
  };
};
const lzSend = (r: ActionRow) => {
  const s = col(r, 'layerzero_send_data');
  return {
    send_request_id: jsonInt(s.send_request_id), msglib_manager: s.msglib_manager ?? null, msglib: s.msglib ?? null, uln: s.uln ?? null,
    native_fee: jsonInt(s.native_fee), zro_fee: jsonInt(s.zro_fee), endpoint: s.endpoint ?? null, channel: s.channel ?? null,
  };
};

/** EVAA's asset ids (sha256 of the asset's name) of the mainnet assets the Go API knows (`ParseEvaaAssetId`). */
const EVAA_TON_ASSET_ID = '0x1a4219fe5e60d63af2a3cc7dce6fec69b45c6b5718497a6148e7c232ac87bd8a';
const EVAA_ASSET_ID_MAP_MAINNET: Readonly<Record<string, string>> = {
  '0xb387968236197958ca4ac55e9b5be38e688c7631af84c86756431f49a878ef33': '0:729C13B6DF2C07CBF0A06AB63D34AF454F3D320EC1BCD8FB5C6D24D0806A17C2',
  '0x83d916c68510802104d1f75aa6ce30eb1e477aede0d380eee2188e0e56581fc6': '0:7E30FC2B7751BA58A3642F3FD59D5E96A810DDD78D8A310BFE8353BEF10500DF',
  '0x495668e908644f30322b997de8faaafc21f05aa52f8982f042dac1fe0b4d09d0': '0:CD872FA7C5816052ACDF5332260443FAEC9AACC8C21CCA4D92E7F47034D11892',
  '0x3313e2f57ba870af34480350c789b0987d15b43a53172bfce294de21e7d724e7': '0:BDF3FA8098D129B54B4F73B5BAC5D1E1FD91EB054169C3916DFC8CCD536D1000',
  '0xca9006bd3fb03d355daeeff93b24be90afaa6e3ca0073ff5720f8a852c933278': '0:B113A994B5024A16719F69139328EB759596C38A25F59028B146FECDC3621DFE',
  '0xe025e6a575f174da6d62577c1fe204ccaa5d1e47c55c6b20c67daee56c357b60': '0:3E5FFCA8DDFCF36C36C9FF46F31562AAB51B9914845AD6C26CBDE649D58A5588',
  '0x9c77a4d798a8f500dcfb877a07227c4ca9d6782504cdc7ce2ad0051e5641c032': '0:8D636010DD90D8C0902AC7F9F397D8BD5E177F131EE2CCA24CE894F15D19CEEA',
  '0x6bfa124cc1343d14ba57ded299f6f514f5f26777099e3c378922ce4081ecbf91': '0:AEA78C710AE94270DC263A870CF47B4360F53CC5ED38E3DB502E9E9AFB904B11',
  '0xe08b1f092e7240fb61bf8249d71aa635102acdd50122138105c35dd2896b5331': '0:FE72F474373E97032441BDB873F9A6D3AD10BAB08E6DBC7BEFA5E42B695F5400',
  '0x70930360b81e5f4ef2e06d2bf64978b44d4b87fb85d78788e001cdf8812d13d1': '0:AFC49CB8786F21C87045B19EDE78FC6B46C51048513F8E9A6D44060199C1BF0C',
  '0x8be3365cabaa6a0f90d2e64f03fa78268c135fe0b0758b576b447e9b2068d75d': '0:2F956143C461769579BAEF2E32CC2D7BC18283F40D20BB03E432CD603AC33FFC',
  '0xb372eaca5210612d285f3fdd30e87a0c3a443f1bb7578e16da72563241997ca1': '0:1F1798F724C2296652E6002BFB51BED11FB5A689532E5788AF7203581EF367A8',
  '0xb8a51f42ccbb912d973e58a22dda26decc7dfc83718c325c24432045ad78dc5a': '0:E8CB571401B1AADB9DEFC1FA0F72A4A5A0E0D5016903067891D763C91541E72B',
  '0xc585bac25948a5feea8f2a9e052eb45995882b15dfb784b37cd271cc163f3aea': '0:5EE20B5240CC4CE51A4C60BAF8C9D358EF617C26463E89C6571B534972C8EEF1',
  '0xd9496f9b279a4e26c49eb65d5c47c79b6dfdea16c9baefa9158a7dfbbbcac04a': '0:086FA2A675F74347B08DD4606A549B8FDB98829CB282BC1949D3B12FBAED9DCC',
  '0x4a4bae807cc87355de2ead44b21a739d9d35e9bba9a217f5cc9c0108197ad137': '0:D0E545323C7ACB7102653C073377F7E3C67F122EB94D430A250739F109D4A57D',
};

/** `ParseEvaaAssetId` (mainnet): TON is known without a master; a listed id names its jetton master. */
function parseEvaaAssetId(assetId: string): [string | null, boolean] {
  if (assetId === EVAA_TON_ASSET_ID) return [null, true];
  const master = EVAA_ASSET_ID_MAP_MAINNET[assetId];
  return master !== undefined ? [master, true] : [null, false];
}

/** One action type's `details` (a case of ParseRawAction), before JSON rendering: bigints stay bigints here. */
type Detail = (r: ActionRow) => Record<string, unknown>;

/** election_deposit, election_recover */
const electionDetails: Detail = (r) => omitNull({ stake_holder: r.source, amount: r.amount }, 'amount');

/** calls, TON transfers, subscriptions, elections, tick-tock */
const CALL_DETAILS: Readonly<Record<string, Detail>> = {
  call_contract: (r) => omitNull({ opcode: opHex(r.opcode), source: r.source, destination: r.destination, value: r.value, extra_currencies: r.value_extra_currencies }, 'opcode'),
  contract_deploy: (r) => omitNull({ opcode: opHex(r.opcode), source: r.source, destination: r.destination, value: r.value }, 'opcode'),
  ton_transfer: (r) => {
    const t = col(r, 'ton_transfer_data');
    return { source: r.source, destination: r.destination, value: r.value, value_extra_currencies: r.value_extra_currencies, comment: t.content ?? null, encrypted: t.encrypted ?? null };
  },
  tick_tock: () => ({}),
  election_deposit: electionDetails,
  election_recover: electionDetails,
  subscribe: (r) => omitNull({ subscriber: r.source, beneficiary: r.destination, subscription: r.destination_secondary, amount: r.amount }, 'beneficiary'),
  unsubscribe: (r) => omitNull({ subscriber: r.source, beneficiary: r.destination, subscription: r.destination_secondary, amount: r.amount }, 'beneficiary', 'amount'),
};

/** jettons */
const JETTON_DETAILS: Readonly<Record<string, Detail>> = {
  jetton_transfer: (r) => {
    const t = col(r, 'jetton_transfer_data');
    return {
      asset: r.asset, sender: r.source, sender_jetton_wallet: r.source_secondary, receiver: r.destination,
      receiver_jetton_wallet: r.destination_secondary, amount: r.amount, comment: t.comment ?? null,
      is_encrypted_comment: t.is_encrypted_comment ?? null, query_id: t.query_id ?? null, response_destination: t.response_destination ?? null,
      custom_payload: t.custom_payload ?? null, forward_payload: t.forward_payload ?? null, forward_amount: t.forward_amount ?? null,
    };
  },
  jetton_burn: (r) => ({ owner: r.source, owner_jetton_wallet: r.source_secondary, asset: r.asset, amount: r.amount }),
  jetton_mint: (r) => ({ asset: r.asset, amount: r.amount, ton_amount: r.value, receiver: r.destination, receiver_jetton_wallet: r.destination_secondary }),
};

/** DEX swaps and liquidity (DeDust, STON.fi, TONCO, ...) */
const DEX_DETAILS: Readonly<Record<string, Detail>> = {
  jetton_swap: (r) => {
    const s = col(r, 'jetton_swap_data');
    const peers = (s.peer_swaps as Array<Record<string, unknown>> | undefined) ?? [];
    const out: Record<string, unknown> = {
      dex: s.dex ?? null, sender: r.source, asset_in: r.asset, asset_out: r.asset2,
      dex_incoming_transfer: swapTransfer(s.dex_incoming_transfer), dex_outgoing_transfer: swapTransfer(s.dex_outgoing_transfer),
      peer_swaps: peers.map((p) => ({ asset_in: p.asset_in ?? null, amount_in: p.amount_in ?? null, asset_out: p.asset_out ?? null, amount_out: p.amount_out ?? null })),
    };
    // min_out_amount is shown for TONCO and DeDust v2 only (the Go API's rule, v1.3)
    if (s.dex === 'tonco' || s.dex === 'dedust_v2') out.min_out_amount = s.min_out_amount ?? null;
    return out;
  },
  dex_deposit_liquidity: (r) => {
    const x = col(r, 'dex_deposit_liquidity_data');
    const excesses = (x.vault_excesses as Array<Record<string, unknown>> | undefined) ?? [];
    return {
      dex: x.dex ?? null, source: r.source, pool: r.destination,
      // DeDust deposits go through a deposit contract; the others straight to the pool
      destination_liquidity: x.dex === 'dedust' ? r.destination_secondary : r.destination,
      asset_1: x.asset1 ?? null, asset_2: x.asset2 ?? null, amount_1: x.amount1 ?? null, amount_2: x.amount2 ?? null,
      user_jetton_wallet_1: x.user_jetton_wallet_1 ?? null, user_jetton_wallet_2: x.user_jetton_wallet_2 ?? null,
      lp_tokens_minted: x.lp_tokens_minted ?? null,
      target_amount_1: x.target_amount_1 ?? null, target_asset_1: x.target_asset_1 ?? null,
      target_amount_2: x.target_amount_2 ?? null, target_asset_2: x.target_asset_2 ?? null,
      tick_lower: x.tick_lower ?? null, tick_upper: x.tick_upper ?? null, nft_index: x.nft_index ?? null, nft_address: x.nft_address ?? null,
      vault_excesses: excesses.map((e) => ({ asset: e.asset ?? null, amount: e.amount ?? null })),
    };
  },
  dex_withdraw_liquidity: (r) => {
    const x = col(r, 'dex_withdraw_liquidity_data');
    return {
      source: r.source, dex: x.dex ?? null, pool: r.destination, destination_liquidity: r.destination,
      asset_1: x.asset1_out ?? null, asset_2: x.asset2_out ?? null, amount_1: x.amount1 ?? null, amount_2: x.amount2 ?? null,
      user_jetton_wallet_1: x.user_jetton_wallet_1 ?? null, user_jetton_wallet_2: x.user_jetton_wallet_2 ?? null,
      lp_tokens_burnt: x.lp_tokens_burnt ?? null, is_refund: null,
      burnt_nft_index: x.burned_nft_index ?? null, burnt_nft_address: x.burned_nft_address ?? null,
      tick_lower: x.tick_lower ?? null, tick_upper: x.tick_upper ?? null,
    };
  },
  // v1.3's ActionDetailsDedustV2ClaimFees / ...ClaimReward, read from the dex_withdraw_liquidity_data columns
  dedust_v2_claim_fees: (r) => {
    const w = col(r, 'dex_withdraw_liquidity_data');
    return {
      dex: w.dex ?? null, source: r.source, pool: r.destination, position: r.destination_secondary, asset_1: w.asset1_out ?? null,
      asset_2: w.asset2_out ?? null, amount_1: w.amount1 ?? null, amount_2: w.amount2 ?? null, user_jetton_wallet_1: w.user_jetton_wallet_1 ?? null,
      user_jetton_wallet_2: w.user_jetton_wallet_2 ?? null, dex_jetton_wallet_1: w.dex_jetton_wallet_1 ?? null, dex_jetton_wallet_2: w.dex_jetton_wallet_2 ?? null,
    };
  },
  dedust_v2_claim_reward: (r) => {
    const w = col(r, 'dex_withdraw_liquidity_data');
    return {
      dex: w.dex ?? null, source: r.source, pool: r.destination, position: r.destination_secondary, asset: w.asset1_out ?? null,
      amount: w.amount1 ?? null, user_jetton_wallet: w.user_jetton_wallet_1 ?? null, dex_jetton_wallet: w.dex_jetton_wallet_1 ?? null,
    };
  },
  tonco_deploy_pool: (r) => {
    const t = col(r, 'tonco_deploy_pool_data');
    return {
      source: r.source, pool: r.destination_secondary, router: r.destination,
      router_jetton_wallet_1: t.jetton0_router_wallet ?? null, router_jetton_wallet_2: t.jetton1_router_wallet ?? null,
      jetton_minter_1: t.jetton0_minter ?? null, jetton_minter_2: t.jetton1_minter ?? null, tick_spacing: t.tick_spacing ?? null,
      initial_price_x96: t.initial_price_x96 ?? null, protocol_fee: t.protocol_fee ?? null, lp_fee_base: t.lp_fee_base ?? null,
      lp_fee_current: t.lp_fee_current ?? null, pool_active: t.pool_active ?? null,
    };
  },
};

/** nft_transfer, nft_purchase */
const nftTransferDetails: Detail = (r) => {
  const n = col(r, 'nft_transfer_data');
  const l = col(r, 'nft_listing_data');
  const purchase = n.is_purchase === true || r.type === 'nft_purchase';
  const c = n.forward_payload !== null && n.forward_payload !== undefined ? commentFromPayload(n.forward_payload) : null;
  return omitNull({
    nft_collection: r.asset, nft_item: r.asset_secondary, nft_item_index: n.nft_item_index ?? null, old_owner: r.source, new_owner: r.destination,
    is_purchase: n.is_purchase ?? null, price: n.price ?? null, query_id: n.query_id ?? null, response_destination: n.response_destination ?? null,
    custom_payload: n.custom_payload ?? null, forward_payload: n.forward_payload ?? null, forward_amount: n.forward_amount ?? null,
    comment: c ? c.comment : null, is_encrypted_comment: c ? c.encrypted : null,
    // the Go API names the marketplace from its address list; the classifier's own name stands in here
    marketplace: purchase ? (n.marketplace ?? null) : null,
    real_old_owner: n.real_prev_owner ?? null, marketplace_address: n.marketplace_address ?? null,
    payout_amount: n.payout_amount ?? null, payout_comment: n.payout_comment ?? null,
    payout_comment_encoded: n.payout_comment_encoded ?? null, payout_comment_encrypted: n.payout_comment_encrypted ?? null,
    royalty_amount: n.royalty_amount ?? null,
    payout_address: r.type === 'nft_purchase' ? (n.real_prev_owner ?? null) : (l.marketplace_fee_address ?? null),
    royalty_address: r.type === 'nft_purchase' ? null : (l.royalty_address ?? null),
  }, 'old_owner', 'price');
};

/** nft_put_on_auction, teleitem_start_auction */
const nftAuctionDetails: Detail = (r) => {
  const l = col(r, 'nft_listing_data');
  return {
    nft_collection: r.asset, nft_item: r.asset_secondary, nft_item_index: l.nft_item_index ?? null, owner: r.source, listing_address: r.source_secondary,
    auction_address: r.destination, marketplace_address: r.destination_secondary, marketplace: l.marketplace ?? null,
    marketplace_fee_factor: l.mp_fee_factor ?? null, marketplace_fee_base: l.mp_fee_base ?? null, royalty_fee_base: l.royalty_fee_base ?? null,
    max_bid: l.max_bid ?? null, min_bid: l.min_bid ?? null, marketplace_fee_address: l.marketplace_fee_address ?? null, royalty_address: l.royalty_address ?? null,
  };
};

/** nft_cancel_auction, teleitem_cancel_auction, nft_finish_auction */
const nftAuctionEndDetails: Detail = (r) => {
  const n = col(r, 'nft_transfer_data');
  return { owner: r.source, auction_address: r.destination, nft_item: r.asset_secondary, nft_collection: r.asset, marketplace_address: n.marketplace_address ?? null, marketplace: n.marketplace ?? null };
};

/** NFTs: mints, transfers and purchases, sales and auctions */
const NFT_DETAILS: Readonly<Record<string, Detail>> = {
  nft_mint: (r) => omitNull({ owner: r.source, nft_collection: r.asset, nft_item: r.asset_secondary, nft_item_index: col(r, 'nft_mint_data').nft_item_index ?? null }, 'owner'),
  nft_transfer: nftTransferDetails,
  nft_purchase: nftTransferDetails,
  nft_discovery: (r) => ({ source: r.source, nft_item: r.asset_secondary, nft_collection: r.asset, nft_item_index: col(r, 'nft_transfer_data').nft_item_index ?? null }),
  nft_put_on_sale: (r) => {
    const l = col(r, 'nft_listing_data');
    const n = col(r, 'nft_transfer_data');
    return {
      nft_collection: r.asset, nft_item: r.asset_secondary, nft_item_index: l.nft_item_index ?? null, owner: r.source, listing_address: r.source_secondary,
      sale_address: r.destination, marketplace_address: r.destination_secondary, marketplace: l.marketplace ?? (n.marketplace ?? null),
      full_price: l.full_price ?? null, marketplace_fee: l.marketplace_fee ?? null, royalty_amount: l.royalty_amount ?? null,
      marketplace_fee_address: l.marketplace_fee_address ?? null, royalty_address: l.royalty_address ?? null,
    };
  },
  nft_update_sale: (r) => {
    const n = col(r, 'nft_transfer_data');
    const l = col(r, 'nft_listing_data');
    return {
      source: r.source, sale_contract: r.destination, nft_address: r.asset_secondary, marketplace_address: n.marketplace_address ?? null,
      full_price: l.full_price ?? null, marketplace_fee: l.marketplace_fee ?? null, royalty_amount: l.royalty_amount ?? null, marketplace: n.marketplace ?? null,
    };
  },
  nft_cancel_sale: (r) => {
    const n = col(r, 'nft_transfer_data');
    return { owner: r.source, sale_address: r.destination, nft_item: r.asset_secondary, nft_collection: r.asset, marketplace_address: n.marketplace_address ?? null, marketplace: n.marketplace ?? null };
  },
  nft_put_on_auction: nftAuctionDetails,
  teleitem_start_auction: nftAuctionDetails,
  auction_bid: (r) => ({ bidder: r.source, auction: r.destination, amount: r.value, nft_item: r.asset_secondary, nft_collection: r.asset, nft_item_index: col(r, 'nft_transfer_data').nft_item_index ?? null }),
  auction_outbid: (r) => {
    const n = col(r, 'nft_transfer_data');
    return omitNull({
      auction_address: r.source, bidder: r.destination, new_bidder: r.source_secondary, nft_item: r.asset_secondary, nft_collection: r.asset,
      amount: r.amount, comment: col(r, 'ton_transfer_data').comment ?? null, marketplace: n.marketplace ?? null,
    }, 'comment', 'marketplace');
  },
  nft_cancel_auction: nftAuctionEndDetails,
  teleitem_cancel_auction: nftAuctionEndDetails,
  nft_finish_auction: nftAuctionEndDetails,
};

/** TON DNS */
const DNS_DETAILS: Readonly<Record<string, Detail>> = {
  change_dns: (r) => {
    const x = col(r, 'change_dns_record_data');
    const schema = (x.value_schema as string | null | undefined) ?? null;
    const v = x.value ?? null;
    return {
      key: x.key ?? null,
      value: {
        sum_type: schema,
        dns_smc_address: schema === 'DNSSmcAddress' ? v : null,
        dns_adnl_address: schema === 'DNSAdnlAddress' ? v : null,
        dns_text: null,
        dns_next_resolver_address: schema === 'DNSNextResolver' ? v : null,
        // the Go API puts a DNSText value into dns_storage_address
        dns_storage_address: schema === 'DNSStorageAddress' || schema === 'DNSText' ? v : null,
        flags: x.flags ?? null,
      },
      source: r.source, asset: r.destination, nft_collection: r.asset,
    };
  },
  delete_dns: (r) => ({ hash: col(r, 'change_dns_record_data').key ?? null, asset: r.destination, source: r.source, nft_collection: r.asset }),
  renew_dns: (r) => ({ asset: r.destination, source: r.source, nft_collection: r.asset }),
  dns_purchase: (r) => {
    const n = col(r, 'nft_transfer_data');
    return { nft_collection: r.asset, nft_item: r.asset_secondary, nft_item_index: n.nft_item_index ?? null, new_owner: r.destination, price: n.price ?? null, query_id: n.query_id ?? null, payout_amount: n.payout_amount ?? null };
  },
  dns_release: (r) => {
    const n = col(r, 'nft_transfer_data');
    return { query_id: n.query_id ?? null, source: r.source, nft_item: r.destination, nft_collection: r.asset, nft_item_index: n.nft_item_index ?? null, value: r.value };
  },
};

/** jvault_unstake, jvault_unstake_request */
const jvaultUnstakeDetails: Detail = (r) => ({ source: r.source, stake_wallet: r.source_secondary, pool: r.destination, amount: r.amount, exit_code: r.opcode, asset: r.asset, staking_asset: r.asset2 });

/** liquid staking and JVault */
const STAKING_DETAILS: Readonly<Record<string, Detail>> = {
  stake_deposit: (r) => {
    const s = col(r, 'staking_data');
    const out: Record<string, unknown> = { provider: s.provider ?? null, stake_holder: r.source, pool: r.destination, amount: r.amount, tokens_minted: s.tokens_minted ?? null, asset: r.asset };
    if (s.provider === 'ethena') out.source_asset = r.asset2;
    return out;
  },
  stake_withdrawal: (r) => {
    const s = col(r, 'staking_data');
    return { provider: s.provider ?? null, stake_holder: r.source, pool: r.destination, amount: r.amount, payout_nft: s.ts_nft ?? null, tokens_burnt: s.tokens_burnt ?? null, asset: r.asset };
  },
  stake_withdrawal_request: (r) => {
    const s = col(r, 'staking_data');
    const out: Record<string, unknown> = { provider: s.provider ?? null, stake_holder: r.source, pool: r.destination, payout_nft: s.ts_nft ?? null, asset: r.asset, tokens_burnt: null };
    if (s.provider === 'tonstakers') out.tokens_burnt = r.amount;
    else if (s.provider === 'ethena') out.tokens_minted = s.tokens_minted ?? null;
    return omitNull(out, 'tokens_minted');
  },
  jvault_claim: (r) => {
    const j = col(r, 'jvault_claim_data');
    const jettons = (j.claimed_jettons as unknown[] | undefined) ?? [];
    const amounts = (j.claimed_amounts as unknown[] | undefined) ?? [];
    const rewards = jettons.length === amounts.length ? jettons.map((jetton, i) => ({ jetton, amount: amounts[i] })) : [];
    return { claimed_rewards: rewards, source: r.source, stake_wallet: r.source_secondary, pool: r.destination };
  },
  jvault_stake: (r) => {
    const j = col(r, 'jvault_stake_data');
    return {
      period: j.period ?? null, minted_stake_jettons: j.minted_stake_jettons ?? null, stake_wallet: j.stake_wallet ?? null, source: r.source,
      source_jetton_wallet: r.source_secondary, asset: r.asset, pool: r.destination, amount: r.amount,
    };
  },
  jvault_unstake: jvaultUnstakeDetails,
  jvault_unstake_request: jvaultUnstakeDetails,
};

/** multisig orders and vesting wallets */
const MULTISIG_DETAILS: Readonly<Record<string, Detail>> = {
  multisig_create_order: (r) => {
    const x = col(r, 'multisig_create_order_data');
    return {
      query_id: x.query_id ?? null, order_seqno: x.order_seqno ?? null, is_created_by_signer: x.is_created_by_signer ?? null,
      is_signed_by_creator: x.is_signed_by_creator ?? null, creator_index: x.creator_index ?? null, expiration_date: x.expiration_date ?? null,
      order_boc: x.order_boc ?? null, source: r.source, destination: r.destination, destination_order: r.destination_secondary,
    };
  },
  multisig_approve: (r) => {
    const x = col(r, 'multisig_approve_data');
    return { signer_index: x.signer_index ?? null, exit_code: x.exit_code ?? null, source: r.source, destination: r.destination };
  },
  multisig_execute: (r) => {
    const x = col(r, 'multisig_execute_data');
    return {
      query_id: x.query_id ?? null, order_seqno: x.order_seqno ?? null, expiration_date: x.expiration_date ?? null, approvals_num: x.approvals_num ?? null,
      signers_hash: x.signers_hash ?? null, order_boc: x.order_boc ?? null, source: r.source, destination: r.destination,
    };
  },
  vesting_send_message: (r) => {
    const x = col(r, 'vesting_send_message_data');
    return { query_id: x.query_id ?? null, message_boc: x.message_boc ?? null, source: r.source, vesting: r.destination, destination: r.destination_secondary, amount: r.amount };
  },
  vesting_add_whitelist: (r) => {
    const x = col(r, 'vesting_add_whitelist_data');
    return { query_id: x.query_id ?? null, accounts_added: x.accounts_added ?? [], source: r.source, vesting: r.destination };
  },
};

/** EVAA lending */
const EVAA_DETAILS: Readonly<Record<string, Detail>> = {
  evaa_supply: (r) => {
    const e = col(r, 'evaa_supply_data');
    return {
      // the Go API reads it from the composite, which upstream's serializer never fills (the wallet is source_wallet)
      sender_jetton_wallet: e.sender_jetton_wallet ?? null, recipient_jetton_wallet: e.recipient_jetton_wallet ?? null, master_jetton_wallet: e.master_jetton_wallet ?? null,
      master: e.master ?? null, asset_id: e.asset_id ?? null, is_ton: e.is_ton ?? null, source: r.source, source_wallet: r.source_secondary,
      recipient: r.destination, recipient_contract: r.destination_secondary, asset: r.asset, amount: r.amount,
    };
  },
  evaa_withdraw: (r) => {
    const e = col(r, 'evaa_withdraw_data');
    return {
      recipient_jetton_wallet: e.recipient_jetton_wallet ?? null, master_jetton_wallet: e.master_jetton_wallet ?? null, master: e.master ?? null,
      fail_reason: e.fail_reason ?? null, asset_id: e.asset_id ?? null, source: r.source, recipient: r.destination,
      owner_contract: r.destination_secondary, asset: r.asset, amount: r.amount,
    };
  },
  evaa_liquidate: (r) => {
    const e = col(r, 'evaa_liquidate_data');
    const assetId = typeof e.asset_id === 'string' ? e.asset_id : null;
    const [asset, known] = assetId !== null ? parseEvaaAssetId(assetId) : [null, false];
    return {
      fail_reason: e.fail_reason ?? null, debt_amount: e.debt_amount ?? null, source: r.source, borrower: r.destination,
      borrower_contract: r.destination_secondary, collateral: r.asset, asset_id: assetId, amount: r.amount,
      asset, is_known_asset: known,
    };
  },
};

/** tgbtc_mint, tgbtc_mint_fallback */
const tgbtcMintDetails: Detail = (r) => ({ source: r.source, destination: r.destination, amount: r.amount, asset: r.asset, bitcoin_tx_id: r.asset_secondary, destination_wallet: r.destination_secondary });

/** tgbtc_burn, tgbtc_burn_fallback */
const tgbtcBurnDetails: Detail = (r) => ({ source: r.source, source_wallet: r.source_secondary, destination: r.destination, amount: r.amount, asset: r.asset });

/** tgbtc_new_key, tgbtc_new_key_fallback */
const tgbtcNewKeyDetails: Detail = (r) => ({ source: r.source, pubkey: r.source_secondary, coordinator: r.destination, pegout: r.destination_secondary, amount: r.amount, asset: r.asset });

/** tgBTC (each with its fallback) */
const TGBTC_DETAILS: Readonly<Record<string, Detail>> = {
  tgbtc_mint: tgbtcMintDetails,
  tgbtc_mint_fallback: tgbtcMintDetails,
  tgbtc_burn: tgbtcBurnDetails,
  tgbtc_burn_fallback: tgbtcBurnDetails,
  tgbtc_new_key: tgbtcNewKeyDetails,
  tgbtc_new_key_fallback: tgbtcNewKeyDetails,
  tgbtc_dkg_log_fallback: (r) => ({ coordinator: r.source, pubkey: r.asset, timestamp: r.value }),
};

/** Coffee DEX pools, staking, MEV protection and vaults */
const COFFEE_DETAILS: Readonly<Record<string, Detail>> = {
  coffee_create_pool: (r) => {
    const c = col(r, 'coffee_create_pool_data');
    return {
      source: r.source, source_jetton_wallet: r.source_secondary, initiator_1: c.initiator_1 ?? null, initiator_2: c.initiator_2 ?? null,
      provided_asset: c.provided_asset ?? null, amount: r.amount, pool: r.destination, asset_1: r.asset, asset_2: r.asset2,
      amount_1: c.amount_1 ?? null, amount_2: c.amount_2 ?? null, lp_tokens_minted: c.lp_tokens_minted ?? null, pool_creator_contract: r.destination_secondary,
    };
  },
  coffee_create_pool_creator: (r) => ({
    source: r.source, source_jetton_wallet: r.source_secondary, deposit_recipient: r.destination, pool_creator_contract: r.destination_secondary,
    // the Go API reads provided_asset from coffee_create_pool_data, which this type does not fill
    provided_asset: col(r, 'coffee_create_pool_data').provided_asset ?? null, asset_1: r.asset, asset_2: r.asset2, amount: r.amount,
  }),
  coffee_staking_deposit: (r) => {
    const c = col(r, 'coffee_staking_deposit_data');
    return {
      source: r.source, source_jetton_wallet: r.source_secondary, pool: r.destination, pool_jetton_wallet: r.destination_secondary, asset: r.asset,
      amount: r.amount, minted_item_address: c.minted_item_address ?? null, minted_item_index: c.minted_item_index ?? null,
    };
  },
  coffee_staking_withdraw: (r) => {
    const c = col(r, 'coffee_staking_withdraw_data');
    return {
      source: r.source, source_jetton_wallet: r.source_secondary, pool: r.destination, pool_jetton_wallet: r.destination_secondary, asset: r.asset,
      amount: r.amount, nft_address: c.nft_address ?? null, nft_index: c.nft_index ?? null, points: c.points ?? null,
    };
  },
  coffee_staking_claim_rewards: (r) => ({ pool: r.source, pool_jetton_wallet: r.source_secondary, recipient: r.destination, recipient_jetton_wallet: r.destination_secondary, asset: r.asset, amount: r.amount }),
  coffee_mev_protect_hold_funds: (r) => ({ source: r.source, source_jetton_wallet: r.source_secondary, mev_contract: r.destination, mev_contract_jetton_wallet: r.destination_secondary, asset: r.asset, amount: r.amount }),
  coffee_create_vault: (r) => ({ source: r.source, vault: r.destination, asset: r.asset, value: r.value }),
};

/** LayerZero */
const LAYERZERO_DETAILS: Readonly<Record<string, Detail>> = {
  layerzero_send: (r) => ({ initiator: r.source, layerzero_send_data: lzSend(r), layerzero_packet_data: packet(r) }),
  layerzero_send_tokens: (r) => ({
    sender: r.source, sender_wallet: r.source_secondary, oapp: r.destination, oapp_wallet: r.destination_secondary, asset: r.asset, amount: r.amount,
    layerzero_send_data: lzSend(r), layerzero_packet_data: packet(r),
  }),
  layerzero_receive: (r) => ({ sender: r.source, oapp: r.destination, channel: r.destination_secondary, layerzero_packet_data: packet(r) }),
  layerzero_commit_packet: (r) => ({
    sender: r.source, endpoint: r.source_secondary, uln: r.destination, uln_connection: r.destination_secondary, channel: r.asset,
    msglib_connection: r.asset_secondary, layerzero_packet_data: packet(r),
  }),
  layerzero_dvn_verify: (r) => {
    const v = col(r, 'layerzero_dvn_verify_data');
    return { initiator: r.source, nonce: jsonInt(v.nonce), status: v.status ?? null, dvn: v.dvn ?? null, proxy: v.proxy ?? null, uln: v.uln ?? null, uln_connection: v.uln_connection ?? null };
  },
};

/** Cocoon */
const COCOON_DETAILS: Readonly<Record<string, Detail>> = {
  cocoon_worker_payout: (r) => {
    const c = col(r, 'cocoon_worker_payout_data');
    return {
      payout_type: c.payout_type ?? null, query_id: c.query_id ?? null, new_tokens: c.new_tokens ?? null, worker_state: jsonInt(c.worker_state),
      worker_tokens: c.worker_tokens ?? null, source: r.source, destination: r.destination, amount: r.amount,
    };
  },
  cocoon_proxy_payout: (r) => ({ query_id: col(r, 'cocoon_proxy_payout_data').query_id ?? null, source: r.source, destination: r.destination }),
  cocoon_proxy_charge: (r) => {
    const c = col(r, 'cocoon_proxy_charge_data');
    return { query_id: c.query_id ?? null, new_tokens_used: c.new_tokens_used ?? null, expected_address: c.expected_address ?? null, source: r.source, destination: r.destination };
  },
  cocoon_client_top_up: (r) => ({ query_id: col(r, 'cocoon_client_top_up_data').query_id ?? null, source: r.source, destination: r.destination, amount: r.amount }),
  cocoon_register_proxy: (r) => ({ query_id: col(r, 'cocoon_register_proxy_data').query_id ?? null, destination: r.destination }),
  cocoon_unregister_proxy: (r) => {
    const c = col(r, 'cocoon_unregister_proxy_data');
    return { query_id: c.query_id ?? null, seqno: jsonInt(c.seqno), destination: r.destination };
  },
  cocoon_client_register: (r) => {
    const c = col(r, 'cocoon_client_register_data');
    return { query_id: c.query_id ?? null, nonce: c.nonce ?? null, source: r.source, destination: r.destination };
  },
  cocoon_client_change_secret_hash: (r) => {
    const c = col(r, 'cocoon_client_change_secret_hash_data');
    return { query_id: c.query_id ?? null, new_secret_hash: c.new_secret_hash ?? null, source: r.source, destination: r.destination };
  },
  cocoon_client_request_refund: (r) => {
    const c = col(r, 'cocoon_client_request_refund_data');
    return { query_id: c.query_id ?? null, via_wallet: c.via_wallet ?? null, source: r.source, destination: r.destination };
  },
  cocoon_grant_refund: (r) => {
    const c = col(r, 'cocoon_grant_refund_data');
    return { query_id: c.query_id ?? null, new_tokens_used: c.new_tokens_used ?? null, expected_address: c.expected_address ?? null, source: r.source, destination: r.destination, amount: r.amount };
  },
  cocoon_client_increase_stake: (r) => {
    const c = col(r, 'cocoon_client_increase_stake_data');
    return { query_id: c.query_id ?? null, new_stake: c.new_stake ?? null, source: r.source, destination: r.destination, amount: r.amount };
  },
  cocoon_client_withdraw: (r) => {
    const c = col(r, 'cocoon_client_withdraw_data');
    return { query_id: c.query_id ?? null, withdraw_amount: c.withdraw_amount ?? null, source: r.source, destination: r.destination, amount: r.amount };
  },
};

/**
 * ParseRawAction's switch as a table: every action type the Go API renders, and its `details`. A type not in it
 * (`unknown` among them) renders the Go API's error object.
 */
const DETAILS: ReadonlyMap<string, Detail> = new Map(
  Object.entries({ ...CALL_DETAILS, ...JETTON_DETAILS, ...DEX_DETAILS, ...NFT_DETAILS, ...DNS_DETAILS, ...STAKING_DETAILS, ...MULTISIG_DETAILS, ...EVAA_DETAILS, ...TGBTC_DETAILS, ...COFFEE_DETAILS, ...LAYERZERO_DETAILS, ...COCOON_DETAILS }),
);

/** The `details` object of one action type (before JSON rendering: bigints stay bigints here). */
function rawDetails(r: ActionRow): Record<string, unknown> {
  const detail = DETAILS.get(r.type);
  return detail ? detail(r) : { error: `unsupported action type: '${r.type}'` };
}

/** The `details` object of one action type, rendered for JSON (amounts and 64-bit ids as decimal strings). */
export function actionDetails(r: ActionRow): Record<string, unknown> {
  return toJson(rawDetails(r)) as Record<string, unknown>;
}
