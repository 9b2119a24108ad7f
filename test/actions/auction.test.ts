// auction.py: bids and outbids (GetGems auctions, Fragment and .ton DNS items), GetGems listings (fixed price and
// auction, their terms read from the StateInit that deploys the sale, by the sale's code version), cancel / finish,
// Telegram item auctions, .ton DNS purchases and releases, sale updates; every branch of the matchers. No fixture trace
// has these, so the traces are built around real bodies (Telegram start/cancel auction and teleitem_ok, the sale
// update and fill-ups from real blocks and traces, NFT transfers and ownership_assigned from the GetGems trace) and the
// real GetGems contract codes; bodies no fixture has are written from their TL-B (noted where they are).
import { Address, beginCell, storeStateInit, type Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { classifyTrace, toApiAction, type ActionRow } from '../../src/actions/index.ts';
import type { AccountInterfaces, Trace } from '../../src/actions/model.ts';
import { blockBody, fixtureCode, traceBody } from './fixture-bodies.ts';
import { addr, buildTrace, type TxSpec } from './trace-builder.ts';

const GETGEMS = 'mG5NGg-37hpz1Vgs5KvDo0HKgtQKCnMbmGEpdApY5Ls=.json';
const FRAGMENT = 'aMUaDa0Ml9lnk7KzHKpkW1UK6FPyYod2qotieVVWMd8=.json';
const TRANSFER_TO_LISTING = traceBody(GETGEMS, 0x5fcc3d14); // new_owner 0:B9A7… (here: the listing contract)
const OWNERSHIP = traceBody(GETGEMS, 0x05138d91); // prev_owner 0:CE0F… (here: the item's owner)
const FILL_UP = traceBody(FRAGMENT, 0x370fec51); // query_id 42799341000003
const START_AUCTION = blockBody('mainnet/mainnet-wc0-8000000000000000-40484416.boc', 0x487a8e81);
const TELEITEM_OK = blockBody('mainnet/mainnet-wc0-8000000000000000-40484416.boc', 0xa37a0983);
const CANCEL_AUCTION = blockBody('mainnet/mainnet-wc0-8000000000000000-40484438.boc', 0x371638ae);
const SALE_UPDATE = blockBody('mainnet/mainnet-wc0-a000000000000000-54302208.boc', 0x6c6c2080); // new price 99 TON

const LISTING = '0:B9A7DCE19431B56044254C69858E8DC11FEC5C0761DED415E386FBE4B4E116F5';
const OWNER = '0:CE0F98F6992B7CABE64489E9A9F0CDDDA848F1D9223E5C1B4EF0A1FDE5605C4F';
const ITEM = addr(0, '1a'), COLLECTION = addr(0, '2b'), SALE = addr(0, '3c'), MARKET = addr(0, '4d'), BIDDER = addr(0, '5e'), PREV_BIDDER = addr(0, '6f');
const FEE = addr(0, '7a'), ROYALTY = addr(0, '8b');
const DNS_COLLECTION = '0:B774D95EB20543F186C06B371AB88AD704F7E256130CAF96189368A7D0CB6CCF';
const a = (raw: string) => Address.parseRaw(raw);

const itemRec = (content: unknown = { uri: 'https://example.org/1.json' }, collection = COLLECTION): AccountInterfaces => ({
  raw: { NftItem: { address: ITEM, init: true, index: 3, collection_address: collection, owner_address: OWNER, content } },
});
const FRAGMENT_ITEM = itemRec({ uri: 'https://nft.fragment.com/username/durov.json' });
const comment = (text: string) => beginCell().storeUint(0, 32).storeStringTail(text).endCell();
/** transfer#5fcc3d14 (TL-B): the listing contract sending the item on to the sale */
const transferTo = (newOwner: string): Cell =>
  beginCell().storeUint(0x5fcc3d14, 32).storeUint(0, 64).storeAddress(a(newOwner)).storeAddress(a(OWNER)).storeBit(false).storeCoins(1n).storeBit(false).endCell();

const typesOf = (t: Trace) => classifyTrace(t).actions.map((x) => x.type).sort();
const only = (t: Trace, type: string): ActionRow => {
  const found = classifyTrace(t).actions.filter((x) => x.type === type);
  expect(found, type).toHaveLength(1);
  return found[0];
};

describe('auction_bid / auction_outbid', () => {
  const auctionRec = (): AccountInterfaces => ({ raw: { NftAuction: { address: SALE, mp_addr: MARKET, nft_addr: ITEM, nft_owner: OWNER, last_bid: 1 } } });
  const OUTBID = comment('Your bid has been outbid by another user. Get your bid back at getgems.io');

  function bidTrace(opts: { to?: string; bid?: Cell; refunds?: TxSpec[]; interfaces?: Record<string, AccountInterfaces>; deploy?: boolean } = {}): Trace {
    const to = opts.to ?? SALE;
    return buildTrace(
      { account: BIDDER, from: null, out: [{ account: to, from: BIDDER, value: 5_000_000_000n, body: opts.bid, out: opts.refunds ?? [], ...(opts.deploy ? { origStatus: 'uninit', endStatus: 'active' } : {}) }] },
      { interfaces: opts.interfaces ?? { [SALE]: auctionRec(), [ITEM]: itemRec() } },
    );
  }

  it('a bid to a GetGems auction, and the refund of the outbid bidder', () => {
    const t = bidTrace({ refunds: [{ account: PREV_BIDDER, from: SALE, value: 4_000_000_000n, body: OUTBID }] });
    // the outbid is outside upstream's v1 types: its refund is stored as its child
    expect(typesOf(t)).toEqual(['auction_bid', 'auction_outbid', 'ton_transfer']);
    const bid = only(t, 'auction_bid');
    expect(bid).toMatchObject({ source: BIDDER, destination: SALE, asset_secondary: ITEM, asset: COLLECTION, value: 5_000_000_000n });
    expect(bid.nft_transfer_data).toEqual({ nft_item_index: 3n, marketplace: 'getgems' });
    expect(bid.accounts).toContain(ITEM);
    const out = only(t, 'auction_outbid');
    expect(out).toMatchObject({ source: SALE, destination: PREV_BIDDER, source_secondary: BIDDER, asset_secondary: ITEM, asset: COLLECTION, amount: 4_000_000_000n });
    expect(toApiAction(out).details).toEqual({
      auction_address: SALE, bidder: PREV_BIDDER, new_bidder: BIDDER, nft_item: ITEM, nft_collection: COLLECTION, amount: '4000000000',
      comment: 'Your bid has been outbid by another user. Get your bid back at getgems.io', marketplace: 'getgems',
    });
  });

  it('two refunds: no outbid (one only, against false positives); a refund without the text: none', () => {
    const two = bidTrace({ refunds: [{ account: PREV_BIDDER, from: SALE, body: OUTBID }, { account: ROYALTY, from: SALE, body: OUTBID }] });
    expect(typesOf(two)).toEqual(['auction_bid', 'ton_transfer', 'ton_transfer']);
    const other = bidTrace({ refunds: [{ account: PREV_BIDDER, from: SALE, body: comment('thanks') }] });
    expect(typesOf(other)).toEqual(['auction_bid', 'ton_transfer']);
  });

  it('an auction whose item the repository does not know: a bid without index and collection', () => {
    const bid = only(bidTrace({ interfaces: { [SALE]: auctionRec() } }), 'auction_bid');
    expect(bid.asset).toBeNull();
    expect(bid.nft_transfer_data).toEqual({ nft_item_index: null, marketplace: 'getgems' });
  });

  it('no bid: a transfer deploying the contract, a "cancel"/"finish"/"stop" comment, an account that is no auction', () => {
    expect(typesOf(bidTrace({ deploy: true }))).not.toContain('auction_bid');
    for (const c of ['cancel', 'finish', 'stop']) expect(typesOf(bidTrace({ bid: comment(c) }))).toEqual(['ton_transfer']);
    expect(typesOf(bidTrace({ interfaces: {} }))).toEqual(['ton_transfer']);
  });

  it('a bid on a Fragment item, outbid by its notification (0x557cea20)', () => {
    const notify = beginCell().storeUint(0x557cea20, 32).storeUint(0, 64).endCell(); // TL-B: op::outbid_notification query_id
    const t = bidTrace({ to: ITEM, refunds: [{ account: PREV_BIDDER, from: ITEM, body: notify, value: 3n }], interfaces: { [ITEM]: FRAGMENT_ITEM } });
    expect(typesOf(t)).toEqual(['auction_bid', 'auction_outbid', 'call_contract']);
    expect(only(t, 'auction_bid')).toMatchObject({ destination: ITEM, asset_secondary: ITEM, asset: COLLECTION });
    expect(only(t, 'auction_bid').nft_transfer_data).toEqual({ nft_item_index: 3n, marketplace: 'fragment' });
    const out = only(t, 'auction_outbid');
    expect(out).toMatchObject({ amount: 3n });
    expect(toApiAction(out).details).not.toHaveProperty('comment'); // omitempty
  });

  it('a .ton DNS item counts only with its outbid notification; other items never', () => {
    const notify = beginCell().storeUint(0x557cea20, 32).storeUint(0, 64).endCell();
    const dns = { [ITEM]: itemRec({}, DNS_COLLECTION) };
    expect(typesOf(bidTrace({ to: ITEM, interfaces: dns }))).toEqual(['ton_transfer']);
    expect(typesOf(bidTrace({ to: ITEM, interfaces: dns, refunds: [{ account: PREV_BIDDER, from: ITEM, body: notify }] }))).toEqual(['auction_bid', 'auction_outbid', 'call_contract']);
    expect(typesOf(bidTrace({ to: ITEM, interfaces: { [ITEM]: itemRec() } }))).toEqual(['ton_transfer']);
  });
});

describe('nft_put_on_sale / nft_put_on_auction', () => {
  const v3r3 = fixtureCode('getgems-nft-fixprice-sale-v3r3.boc');
  const v4r1 = fixtureCode('getgems-nft-fixprice-sale-v4r1.boc');
  const auctionV3r3 = fixtureCode('getgems-nft-auction-v3r3.boc');

  /** GetGems fix-price sale v2-v3r3 data (nft-fixprice-sale-v3r3.fc): is_complete created_at marketplace nft owner price ^fees */
  const saleV3Data = () => beginCell().storeBit(false).storeUint(1_700_000_000, 32).storeAddress(a(MARKET)).storeAddress(a(ITEM)).storeAddress(a(OWNER)).storeCoins(10_000_000_000n)
    .storeRef(beginCell().storeAddress(a(FEE)).storeCoins(500_000_000n).storeAddress(a(ROYALTY)).storeCoins(700_000_000n)).endCell();
  /** v4r1 (nft-fixprice-sale-v4r1.fc): is_complete marketplace owner price sold_at query_id ^(fee address, royalty address, fee %, royalty %) */
  const saleV4Data = () => beginCell().storeBit(false).storeAddress(a(MARKET)).storeAddress(a(OWNER)).storeCoins(10_000_000_000n).storeUint(0, 32).storeUint(0, 64)
    .storeRef(beginCell().storeAddress(a(FEE)).storeAddress(a(ROYALTY)).storeUint(5000, 17).storeUint(7000, 17)).endCell();
  /** auction v3r3 (nft-auction-v3r3.func): end? canceled? last_member last_bid last_bid_at end_time nft_owner query_id fees ^fee addrs ^constants */
  const auctionV3r3Data = () => beginCell().storeBit(false).storeBit(false).storeAddress(null).storeCoins(0n).storeUint(0, 32).storeUint(1_800_000_000, 32).storeAddress(a(OWNER)).storeUint(0, 64)
    .storeUint(5, 32).storeUint(100, 32).storeUint(7, 32).storeUint(100, 32)
    .storeRef(beginCell().storeAddress(a(FEE)).storeAddress(a(ROYALTY)))
    .storeRef(beginCell().storeAddress(a(MARKET)).storeCoins(1_000_000_000n).storeCoins(50_000_000_000n).storeCoins(100_000_000n).storeUint(300, 32)).endCell();

  const init = (code: Cell, data: Cell) => beginCell().store(storeStateInit({ code, data })).endCell();

  /** owner -> item (transfer to the listing) -> listing (ownership) -> [sale deploy, item (transfer to the sale) -> sale] */
  function listingTrace(stateInit: Cell | null, interfaces: Record<string, AccountInterfaces>): Trace {
    return buildTrace(
      {
        account: OWNER, from: null, out: [{
          account: ITEM, from: OWNER, body: TRANSFER_TO_LISTING, out: [{
            account: LISTING, from: ITEM, body: OWNERSHIP, out: [
              { account: SALE, from: LISTING, value: 50_000_000n, origStatus: 'uninit', endStatus: 'active', ...(stateInit ? { init: stateInit } : {}) },
              { account: ITEM, from: LISTING, body: transferTo(SALE), out: [{ account: SALE, from: ITEM, body: OWNERSHIP }] },
            ],
          }],
        }],
      },
      { interfaces: { [ITEM]: itemRec(), ...interfaces } },
    );
  }
  const saleRec = (codeHash: string, royalty: number | null = 700_000_000): AccountInterfaces => ({
    raw: { NftSale: { address: SALE, is_complete: false, marketplace_address: MARKET, nft_address: ITEM, nft_owner_address: OWNER, full_price: 10_000_000_000, royalty_amount: royalty, code_hash: codeHash } },
  });

  it('a fix-price sale (v3r3): price, fees and royalty from the sale\'s StateInit, the owner from its record', () => {
    const t = listingTrace(init(v3r3.code, saleV3Data()), { [SALE]: saleRec(v3r3.hashB64) });
    // the listing's parts are its children (outside upstream's v1 types); the sale's deployment is lifted to the top
    expect(typesOf(t)).toEqual(['contract_deploy', 'nft_put_on_sale', 'nft_transfer', 'nft_transfer', 'ton_transfer']);
    const s = only(t, 'nft_put_on_sale');
    expect(s).toMatchObject({ source: OWNER, source_secondary: LISTING, destination: SALE, destination_secondary: MARKET, asset: COLLECTION, asset_secondary: ITEM });
    expect(s.nft_listing_data).toMatchObject({ nft_item_index: 3n, full_price: 10_000_000_000n, marketplace_fee: 500_000_000n, royalty_amount: 700_000_000n, marketplace_fee_address: FEE, royalty_address: ROYALTY, marketplace: 'getgems' });
    expect(toApiAction(s).details).toMatchObject({ owner: OWNER, listing_address: LISTING, sale_address: SALE, marketplace_address: MARKET, full_price: '10000000000', marketplace: 'getgems' });
  });

  it('a v4r1 sale: no fee amount in its data; its record\'s royalty makes upstream fail (int(None)), none gives no royalty', () => {
    expect(typesOf(listingTrace(init(v4r1.code, saleV4Data()), { [SALE]: saleRec(v4r1.hashB64) }))).not.toContain('nft_put_on_sale');
    const s = only(listingTrace(init(v4r1.code, saleV4Data()), { [SALE]: saleRec(v4r1.hashB64, null) }), 'nft_put_on_sale');
    expect(s.nft_listing_data).toMatchObject({ full_price: 10_000_000_000n, marketplace_fee: null, royalty_amount: null, marketplace_fee_address: FEE, royalty_address: ROYALTY });
  });

  it('a sale record that does not match the listing (other owner), or a StateInit that does not read: no listing', () => {
    const other = saleRec(v3r3.hashB64);
    (other.raw!.NftSale as Record<string, unknown>).nft_owner_address = BIDDER;
    expect(typesOf(listingTrace(init(v3r3.code, saleV3Data()), { [SALE]: other }))).not.toContain('nft_put_on_sale');
    expect(typesOf(listingTrace(null, { [SALE]: saleRec(v3r3.hashB64) }))).not.toContain('nft_put_on_sale');
    expect(typesOf(listingTrace(init(v3r3.code, beginCell().endCell()), { [SALE]: saleRec(v3r3.hashB64) }))).not.toContain('nft_put_on_sale');
  });

  it('an auction (v3r3): its bids and fees from the StateInit, the marketplace from the record', () => {
    const rec: AccountInterfaces = { raw: { NftAuction: { address: SALE, mp_addr: MARKET, nft_addr: ITEM, nft_owner: OWNER, last_bid: 0, code_hash: auctionV3r3.hashB64 } } };
    const s = only(listingTrace(init(auctionV3r3.code, auctionV3r3Data()), { [SALE]: rec }), 'nft_put_on_auction');
    expect(s).toMatchObject({ source: OWNER, source_secondary: LISTING, destination: SALE, destination_secondary: MARKET });
    expect(s.nft_listing_data).toMatchObject({ mp_fee_factor: 5n, mp_fee_base: 100n, royalty_fee_base: 100n, min_bid: 1_000_000_000n, max_bid: 50_000_000_000n, marketplace_fee_address: FEE, royalty_address: ROYALTY, marketplace: 'getgems' });
    expect(toApiAction(s).details).toMatchObject({ auction_address: SALE, marketplace_address: MARKET, marketplace_fee_factor: '5', min_bid: '1000000000', max_bid: '50000000000' });
  });

  it('neither a sale nor an auction record: the transfers stay transfers', () => {
    expect(typesOf(listingTrace(init(v3r3.code, saleV3Data()), {}))).toEqual(['contract_deploy', 'nft_transfer', 'nft_transfer', 'ton_transfer']);
  });
});

describe('cancel and finish', () => {
  const saleRec = (nft = ITEM): AccountInterfaces => ({ raw: { NftSale: { address: SALE, is_complete: false, marketplace_address: MARKET, nft_address: nft, nft_owner_address: OWNER, full_price: 1 } } });
  const auctionRec = (): AccountInterfaces => ({ raw: { NftAuction: { address: SALE, mp_addr: MARKET, nft_addr: ITEM, nft_owner: OWNER, last_bid: 0 } } });
  /** owner -> trade contract (the trigger) -> item (transfer back to the owner) -> owner */
  const back = (trigger: Partial<TxSpec>, interfaces: Record<string, AccountInterfaces>) =>
    buildTrace({ account: OWNER, from: null, out: [{ account: SALE, from: OWNER, ...trigger, out: [{ account: ITEM, from: SALE, body: transferTo(OWNER), out: [{ account: OWNER, from: ITEM, body: OWNERSHIP }] }] }] }, { interfaces: { [ITEM]: itemRec(), ...interfaces } });
  const CANCEL_SALE = beginCell().storeUint(3, 32).storeUint(0, 64).endCell(); // TL-B: GetGems sale cancel op 3

  it('a sale cancelled by op 3: the cancel, the returning transfer its own action', () => {
    const t = back({ body: CANCEL_SALE }, { [SALE]: saleRec() });
    expect(typesOf(t)).toEqual(['call_contract', 'nft_cancel_sale', 'nft_transfer']);
    const c = only(t, 'nft_cancel_sale');
    expect(c).toMatchObject({ source: OWNER, destination: SALE, asset_secondary: ITEM, asset: COLLECTION });
    expect(toApiAction(c).details).toEqual({ owner: OWNER, sale_address: SALE, nft_item: ITEM, nft_collection: COLLECTION, marketplace_address: null, marketplace: null });
    // a record for another item, or none: no cancel
    expect(typesOf(back({ body: CANCEL_SALE }, { [SALE]: saleRec(addr(0, '99')) }))).not.toContain('nft_cancel_sale');
    expect(typesOf(back({ body: CANCEL_SALE }, {}))).not.toContain('nft_cancel_sale');
  });

  it('an auction cancelled by comment or opcode; "finish"/"stop" without a sale finishes it', () => {
    // (each with its trigger as its child action)
    expect(typesOf(back({ body: comment('cancel') }, { [SALE]: auctionRec() }))).toEqual(['nft_cancel_auction', 'nft_transfer', 'ton_transfer']);
    expect(typesOf(back({ body: beginCell().storeUint(0x5616c572, 32).endCell() }, { [SALE]: auctionRec() }))).toEqual(['call_contract', 'nft_cancel_auction', 'nft_transfer']);
    expect(typesOf(back({ body: comment('stop') }, { [SALE]: auctionRec() }))).toEqual(['nft_finish_auction', 'nft_transfer', 'ton_transfer']);
    expect(typesOf(back({ body: beginCell().storeUint(0xb95616b6, 32).endCell() }, { [SALE]: auctionRec() }))).toEqual(['call_contract', 'nft_finish_auction', 'nft_transfer']);
    // no auction record
    expect(typesOf(back({ body: comment('cancel') }, {}))).not.toContain('nft_cancel_auction');
  });
});

describe('Telegram item auctions', () => {
  const start = (interfaces: Record<string, AccountInterfaces>, aborted = false) =>
    buildTrace({ account: OWNER, from: null, out: [{ account: ITEM, from: OWNER, body: START_AUCTION, aborted, out: aborted ? [] : [{ account: OWNER, from: ITEM, body: TELEITEM_OK }] }] }, { interfaces });

  it('teleitem_start_auction: the real request\'s bids and beneficiary', () => {
    const t = start({ [ITEM]: FRAGMENT_ITEM });
    expect(typesOf(t)).toEqual(['call_contract', 'call_contract', 'teleitem_start_auction']);
    const s = only(t, 'teleitem_start_auction');
    expect(s).toMatchObject({ source: OWNER, destination: ITEM, asset_secondary: ITEM, asset: COLLECTION, source_secondary: null, success: true });
    expect(s.nft_listing_data).toMatchObject({ min_bid: 8_000_000_000n, max_bid: 0n, mp_fee_factor: 0n, mp_fee_base: 0n, royalty_fee_base: 0n, marketplace: 'fragment', royalty_address: null });
    expect((s.nft_listing_data as Record<string, unknown>).marketplace_fee_address).toBe(Address.parse('EQBl6x0pLpm-UUwMFzzRyPpm-waKGYXjRVNf22dXle6MjOBJ').toRawString().toUpperCase());
    expect(only(start({ [ITEM]: FRAGMENT_ITEM }, true), 'teleitem_start_auction').success).toBe(false);
    // not a Telegram item, or unknown
    expect(typesOf(start({ [ITEM]: itemRec() }))).toEqual(['call_contract', 'call_contract']);
    expect(typesOf(start({}))).toEqual(['call_contract', 'call_contract']);
  });

  it('teleitem_cancel_auction (the real request)', () => {
    const t = buildTrace({ account: OWNER, from: null, out: [{ account: ITEM, from: OWNER, body: CANCEL_AUCTION, out: [{ account: OWNER, from: ITEM, body: TELEITEM_OK }] }] }, { interfaces: { [ITEM]: FRAGMENT_ITEM } });
    const c = only(t, 'teleitem_cancel_auction');
    expect(c).toMatchObject({ source: OWNER, destination: ITEM, asset_secondary: ITEM, asset: COLLECTION, success: true });
    expect(toApiAction(c).details).toMatchObject({ owner: OWNER, auction_address: ITEM, nft_item: ITEM });
  });
});

describe('.ton DNS purchase and release', () => {
  const dnsItem = itemRec({}, DNS_COLLECTION);
  /** winner -> item (a call) -> collection (fill_up) */
  const purchase = (call: Partial<TxSpec>, interfaces: Record<string, AccountInterfaces>) =>
    buildTrace({ account: BIDDER, from: null, out: [{ account: ITEM, from: BIDDER, ...call, out: [{ account: DNS_COLLECTION, from: ITEM, body: FILL_UP, value: 7_000_000_000n }] }] }, { interfaces });
  const CALL = beginCell().storeUint(0x2fcb26a2, 32).storeUint(0, 64).endCell();

  it('the item\'s fill-up after a call: the caller bought it at the fill-up\'s value', () => {
    const p = only(purchase({ body: CALL }, { [ITEM]: dnsItem }), 'dns_purchase');
    expect(p).toMatchObject({ destination: BIDDER, asset: DNS_COLLECTION, asset_secondary: ITEM, source: null });
    expect(p.nft_transfer_data).toMatchObject({ query_id: 42799341000003n, price: 7_000_000_000n, payout_amount: 7_000_000_000n, nft_item_index: 3n, is_purchase: true });
    expect(toApiAction(p).details).toEqual({ nft_collection: DNS_COLLECTION, nft_item: ITEM, nft_item_index: '3', new_owner: BIDDER, price: '7000000000', query_id: '42799341000003', payout_amount: '7000000000' });
  });

  it('not after a call (a plain transfer), or not a .ton DNS item: no purchase', () => {
    expect(typesOf(purchase({ value: 5n }, { [ITEM]: dnsItem }))).not.toContain('dns_purchase');
    expect(typesOf(purchase({ body: CALL }, { [ITEM]: itemRec() }))).not.toContain('dns_purchase');
  });

  it('dns_balance_release to a .ton DNS item', () => {
    const release = beginCell().storeUint(0x4ed14b65, 32).storeUint(13, 64).endCell(); // TL-B: op::dns_balance_release query_id
    const t = (interfaces: Record<string, AccountInterfaces>) => buildTrace({ account: OWNER, from: null, out: [{ account: ITEM, from: OWNER, body: release, value: 1_000_000_000n }] }, { interfaces });
    const r = only(t({ [ITEM]: dnsItem }), 'dns_release');
    expect(r).toMatchObject({ source: OWNER, destination: ITEM, asset: DNS_COLLECTION, value: 1_000_000_000n });
    expect(r.nft_transfer_data).toEqual({ query_id: 13n, nft_item_index: 3n });
    expect(typesOf(t({ [ITEM]: itemRec() }))).toEqual(['call_contract']);
  });
});

describe('nft_update_sale', () => {
  it('the real price update to a known sale', () => {
    const t = (interfaces: Record<string, AccountInterfaces>) => buildTrace({ account: OWNER, from: null, out: [{ account: SALE, from: OWNER, body: SALE_UPDATE }] }, { interfaces });
    const rec: AccountInterfaces = { raw: { NftSale: { address: SALE, is_complete: false, marketplace_address: MARKET, nft_address: ITEM, nft_owner_address: OWNER, full_price: 1 } } };
    const u = only(t({ [SALE]: rec }), 'nft_update_sale');
    expect(u).toMatchObject({ source: OWNER, destination: SALE, asset_secondary: ITEM });
    expect(u.nft_listing_data).toEqual({ full_price: 99_000_000_000n, royalty_amount: 0n, marketplace_fee: 0n });
    expect(toApiAction(u).details).toMatchObject({ sale_contract: SALE, nft_address: ITEM, marketplace_address: MARKET, full_price: '99000000000' });
    expect(typesOf(t({}))).toEqual(['call_contract']);
  });
});
