// nft.py: mint, transfer (plain, GetGems sale / auction purchase, paid by a contract), GetGems purchase, discovery and
// Fragment purchases, every branch of the matchers. Real traces where the fixtures have the case (GetGems sale and
// Fragment purchases); otherwise traces built around real message bodies (fixture traces, real blocks), with the
// interface records a matcher asks for; get_static_data / report_static_data are written from their TL-B (no real
// body in the fixtures).
import { Address, beginCell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { classifyTrace, toApiAction, type ActionRow } from '../../src/actions/index.ts';
import type { AccountInterfaces, Trace } from '../../src/actions/model.ts';
import { blockBody, loadTrace, traceBody } from './fixture-bodies.ts';
import { addr, buildTrace, type TxSpec } from './trace-builder.ts';

const GETGEMS = 'mG5NGg-37hpz1Vgs5KvDo0HKgtQKCnMbmGEpdApY5Ls=.json';
const FRAGMENT = 'aMUaDa0Ml9lnk7KzHKpkW1UK6FPyYod2qotieVVWMd8=.json';

const TRANSFER = traceBody(GETGEMS, 0x5fcc3d14); // new_owner 0:B9A7…, response 0:B9A7…, forward 0.03 TON
const OWNERSHIP = traceBody(GETGEMS, 0x05138d91); // prev_owner 0:CE0F… (the sale), empty inline payload
const EXCESS = traceBody(GETGEMS, 0xd53276db);
const OWNERSHIP_BID = traceBody(FRAGMENT, 0x05138d91); // Fragment: payload = teleitem bid info, bid 111 TON
const FILL_UP = traceBody(FRAGMENT, 0x370fec51);
const TELEMINT_DEPLOY = blockBody('mainnet/mainnet-wc0-8000000000000000-71398501.boc', 0x299a3e15);

const BUYER = '0:B9A7DCE19431B56044254C69858E8DC11FEC5C0761DED415E386FBE4B4E116F5'; // TRANSFER's new owner
const SALE = '0:CE0F98F6992B7CABE64489E9A9F0CDDDA848F1D9223E5C1B4EF0A1FDE5605C4F'; // OWNERSHIP's prev owner
const ITEM = addr(0, '1a'), COLLECTION = addr(0, '2b'), SELLER = addr(0, '3c'), MARKET = addr(0, '4d'), AUCTION = addr(0, '5e'), PAYER = addr(0, '6f');

const item = (extra: Record<string, unknown> = {}): AccountInterfaces => ({
  raw: { NftItem: { address: ITEM, init: true, index: 7, collection_address: COLLECTION, owner_address: BUYER, content: { uri: 'https://example.org/7.json' }, ...extra } },
});
const sale = (nftOwner = SELLER): AccountInterfaces => ({
  raw: { NftSale: { address: SALE, is_complete: true, marketplace_address: MARKET, nft_address: ITEM, nft_owner_address: nftOwner, full_price: 1_350_000_000 } },
});
const auction = (): AccountInterfaces => ({ raw: { NftAuction: { address: AUCTION, mp_addr: MARKET, nft_addr: ITEM, nft_owner: SELLER, last_bid: 2_000_000_000 } } });

const typesOf = (t: Trace) => classifyTrace(t).actions.map((a) => a.type).sort();
const only = (t: Trace, type: string): ActionRow => {
  const found = classifyTrace(t).actions.filter((a) => a.type === type);
  expect(found, type).toHaveLength(1);
  return found[0];
};
const transferData = (a: ActionRow) => a.nft_transfer_data as Record<string, unknown>;

/** item -> buyer (ownership_assigned) and -> buyer (excesses) */
const itemOut = (): TxSpec[] => [{ account: BUYER, from: ITEM, body: OWNERSHIP }, { account: BUYER, from: ITEM, body: EXCESS }];

describe('nft_transfer', () => {
  it('a plain transfer: previous owner from ownership_assigned, item index and collection from its record', () => {
    const t = buildTrace(
      { account: SELLER, from: null, out: [{ account: ITEM, from: SELLER, body: TRANSFER, out: itemOut() }] },
      { interfaces: { [ITEM]: item() } },
    );
    expect(typesOf(t)).toEqual(['nft_transfer']);
    const a = only(t, 'nft_transfer');
    expect(a).toMatchObject({ source: SALE, destination: BUYER, asset: COLLECTION, asset_secondary: ITEM, success: true });
    expect(transferData(a)).toMatchObject({ is_purchase: false, price: null, nft_item_index: 7n, forward_amount: 30_000_000n, response_destination: BUYER, query_id: 0n, marketplace: null });
    expect(transferData(a).forward_payload).toBe('te6cckEBAQEAAgAAAEysuc0=');
    // transfer, ownership_assigned and excesses, and the seller's external
    expect(a.tx_hashes).toHaveLength(4);
    const api = toApiAction(a);
    expect(api.details).toMatchObject({ old_owner: SALE, new_owner: BUYER, nft_item: ITEM, nft_collection: COLLECTION, nft_item_index: '7', is_purchase: false, marketplace: null });
    expect(api.details).not.toHaveProperty('price'); // omitempty
  });

  it('without ownership_assigned the sender is the previous owner', () => {
    const t = buildTrace({ account: SELLER, from: null, out: [{ account: ITEM, from: SELLER, body: TRANSFER }] }, { interfaces: { [ITEM]: item() } });
    expect(only(t, 'nft_transfer').source).toBe(SELLER);
  });

  it('an item the repository does not know is no NFT transfer (the matcher builds nothing)', () => {
    const t = buildTrace({ account: SELLER, from: null, out: [{ account: ITEM, from: SELLER, body: TRANSFER, out: itemOut() }] });
    expect(typesOf(t)).toEqual(['call_contract', 'call_contract', 'call_contract']);
  });

  it('a failed transfer is a failed action', () => {
    const t = buildTrace({ account: SELLER, from: null, out: [{ account: ITEM, from: SELLER, body: TRANSFER, aborted: true }] }, { interfaces: { [ITEM]: item() } });
    expect(only(t, 'nft_transfer').success).toBe(false);
  });

  it('an item without metadata fails the match (upstream tests `"uri" in None`)', () => {
    const t = buildTrace({ account: SELLER, from: null, out: [{ account: ITEM, from: SELLER, body: TRANSFER }] }, { interfaces: { [ITEM]: item({ content: null }) } });
    expect(typesOf(t)).toEqual(['call_contract']);
  });
});

describe('GetGems purchases (nft_transfer is_purchase, nft_purchase)', () => {
  it('the real sale: transfer marked as purchase, the purchase with the seller\'s payout', () => {
    const res = classifyTrace(loadTrace(GETGEMS));
    const purchase = res.actions.find((a) => a.type === 'nft_purchase')!;
    const transfer = res.actions.find((a) => a.type === 'nft_transfer')!;
    expect(transfer.parent_action_id).toBe(purchase.action_id); // the transfer is the purchase's child
    expect(transferData(purchase)).toMatchObject({ price: 1_350_000_000n, payout_amount: 1_372_369_010n, marketplace: 'getgems', is_purchase: true });
    const api = toApiAction(purchase).details;
    // the Go API names the seller as the payout address of a purchase
    expect(api).toMatchObject({ payout_address: '0:0D57780F9ABF651ACF690E6F37B2F8F9C61C4131A3968C5A555A18811CD2E7E4', royalty_address: null, marketplace: 'getgems', price: '1350000000' });
  });

  /** buyer -> sale (payment) -> item (transfer) -> buyer, and sale -> seller (payout) */
  function saleTrace(opts: { payment?: Partial<TxSpec>; payout?: boolean; interfaces?: Record<string, AccountInterfaces> } = {}): Trace {
    const out: TxSpec[] = [{ account: ITEM, from: SALE, body: TRANSFER, out: itemOut() }];
    if (opts.payout !== false) out.push({ account: SELLER, from: SALE, value: 1_300_000_000n });
    return buildTrace(
      { account: BUYER, from: null, out: [{ account: SALE, from: BUYER, value: 1_400_000_000n, out, ...opts.payment }] },
      { interfaces: opts.interfaces ?? { [ITEM]: item(), [SALE]: sale() } },
    );
  }

  it('a payment to the sale contract makes the transfer a purchase at the sale\'s price', () => {
    const t = saleTrace();
    expect(typesOf(t)).toEqual(['nft_purchase', 'nft_transfer', 'ton_transfer']);
    const a = only(t, 'nft_transfer');
    expect(transferData(a)).toMatchObject({ is_purchase: true, price: 1_350_000_000n, marketplace: 'getgems', marketplace_address: MARKET, real_prev_owner: SELLER });
    const p = only(t, 'nft_purchase');
    expect(p).toMatchObject({ source: SALE, destination: BUYER, asset: COLLECTION, asset_secondary: ITEM });
    expect(transferData(p)).toMatchObject({ payout_amount: 1_300_000_000n, payout_comment: null, real_prev_owner: SELLER });
    expect(p.accounts).toContain(SELLER);
  });

  it('no payout to the seller: a purchasing transfer, no purchase block', () => {
    expect(typesOf(saleTrace({ payout: false }))).toEqual(['nft_transfer']);
  });

  it('the buyer being the sale\'s owner is no purchase', () => {
    const t = saleTrace({ interfaces: { [ITEM]: item(), [SALE]: sale(BUYER) } });
    expect(transferData(only(t, 'nft_transfer')).is_purchase).toBe(false);
  });

  it('a sale record for another item is no purchase', () => {
    const other = sale();
    (other.raw!.NftSale as Record<string, unknown>).nft_address = addr(0, '99');
    expect(transferData(only(saleTrace({ interfaces: { [ITEM]: item(), [SALE]: other } }), 'nft_transfer')).is_purchase).toBe(false);
  });

  // v1.3 nft.py `_try_get_nft_purchase_data`: a sale purchase only when the previous block is a TON transfer the new
  // owner sent; any call to the sale (the sale's own op 2 buy, a contract paying on the buyer's behalf) is no purchase
  it('paid by a call (the buyer\'s op 2 buy, or a contract on the buyer\'s behalf): a plain transfer, no purchase', () => {
    for (const from of [BUYER, PAYER]) {
      const t = saleTrace({ payment: { from, body: beginCell().storeUint(2, 32).storeUint(1, 64).endCell() } });
      expect(transferData(only(t, 'nft_transfer')).is_purchase).toBe(false);
      expect(typesOf(t)).not.toContain('nft_purchase');
    }
  });

  it('a TON transfer to the sale from someone other than the new owner: no purchase', () => {
    const t = saleTrace({ payment: { from: PAYER } });
    expect(transferData(only(t, 'nft_transfer')).is_purchase).toBe(false);
    expect(typesOf(t)).not.toContain('nft_purchase');
  });

  it('the account sending the item is neither a known sale nor auction: a plain transfer', () => {
    expect(transferData(only(saleTrace({ interfaces: { [ITEM]: item() } }), 'nft_transfer')).is_purchase).toBe(false);
  });

  /** bidder -> auction (final bid, or a "finish" comment) -> item (transfer), auction -> seller (payout) */
  function auctionTrace(comment: string | null): Trace {
    const body = comment === null ? undefined : beginCell().storeUint(0, 32).storeStringTail(comment).endCell();
    return buildTrace(
      { account: BUYER, from: null, out: [{ account: AUCTION, from: BUYER, body, value: 2_000_000_000n, out: [{ account: ITEM, from: AUCTION, body: TRANSFER, out: itemOut() }, { account: SELLER, from: AUCTION, value: 1_900_000_000n }] }] },
      { interfaces: { [ITEM]: item(), [AUCTION]: auction() } },
    );
  }

  it('an auction won by the last bid: purchase at the last bid, the bid merged into the transfer', () => {
    const t = auctionTrace(null);
    const a = only(t, 'nft_transfer');
    expect(transferData(a)).toMatchObject({ is_purchase: true, price: 2_000_000_000n, marketplace_address: MARKET, real_prev_owner: SELLER });
    expect(typesOf(t)).toEqual(['nft_purchase', 'nft_transfer', 'ton_transfer']);
  });

  it('an auction finished by a "finish" message: the purchase goes through a proxy and the finish is its own action', () => {
    const t = auctionTrace('finish');
    const res = classifyTrace(t);
    const types = res.actions.map((a) => a.type).sort();
    // the finish and the purchase are outside upstream's v1 types: their children are stored too (the finish message,
    // the transfer and the payout)
    expect(types).toEqual(['nft_finish_auction', 'nft_purchase', 'nft_transfer', 'ton_transfer', 'ton_transfer']);
    const fin = res.actions.find((a) => a.type === 'nft_finish_auction')!;
    expect(fin).toMatchObject({ source: BUYER, destination: AUCTION, asset_secondary: ITEM, asset: COLLECTION });
    // the finish message is not part of the transfer: the item's, the buyer's two and the auction's (initiating) txs
    const tr = res.actions.find((a) => a.type === 'nft_transfer')!;
    expect(tr.tx_hashes).toHaveLength(4);
    expect(only(auctionTrace(null), 'nft_transfer').tx_hashes).toHaveLength(5);
  });
});

describe('nft_discovery', () => {
  const GET = beginCell().storeUint(0x2fcb26a2, 32).storeUint(5, 64).endCell();
  const REPORT = beginCell().storeUint(0x8b771735, 32).storeUint(5, 64).storeUint(42, 256).storeAddress(null).endCell();
  const reportWithCollection = beginCell().storeUint(0x8b771735, 32).storeUint(5, 64).storeUint(42, 256);

  it('get_static_data answered by report_static_data: the collection and index the item reports', () => {
    const report = reportWithCollection.storeAddress(Address.parseRaw(COLLECTION)).endCell();
    const t = buildTrace({ account: PAYER, from: null, out: [{ account: ITEM, from: PAYER, body: GET, out: [{ account: PAYER, from: ITEM, body: report }] }] });
    const a = only(t, 'nft_discovery');
    expect(a).toMatchObject({ source: PAYER, asset: COLLECTION, asset_secondary: ITEM });
    expect(a.nft_transfer_data).toEqual({ nft_item_index: 42n });
    expect(toApiAction(a).details).toEqual({ source: PAYER, nft_item: ITEM, nft_collection: COLLECTION, nft_item_index: '42' });
  });

  it('an item without a collection reports none', () => {
    const t = buildTrace({ account: PAYER, from: null, out: [{ account: ITEM, from: PAYER, body: GET, out: [{ account: PAYER, from: ITEM, body: REPORT }] }] });
    expect(only(t, 'nft_discovery').asset).toBeNull();
  });

  it('no report: no discovery', () => {
    const t = buildTrace({ account: PAYER, from: null, out: [{ account: ITEM, from: PAYER, body: GET }] });
    expect(typesOf(t)).toEqual(['call_contract']);
  });
});

describe('Fragment (Telegram item) purchases', () => {
  it('the real purchase: the bid\'s price, royalty (first fill-up) and seller payout', () => {
    const a = classifyTrace(loadTrace(FRAGMENT)).actions.find((x) => x.type === 'nft_transfer')!;
    expect(transferData(a)).toMatchObject({ is_purchase: true, price: 111_000_000_000n, marketplace: 'fragment', real_prev_owner: null, payout_amount: 105_430_430_142n, royalty_amount: 5_549_000_000n });
    expect(a.nft_listing_data).toMatchObject({
      marketplace_fee_address: '0:C21FABD3D0CBD5A746C160D8E838DA6481BE7534C3CD3895C54161B9E17A0802',
      royalty_address: '0:408DA3B28B6C065A593E10391269BAAA9C5F8CAEBC0C69D9F0AABBAB2A99256B',
    });
  });

  const teleitem = (): AccountInterfaces => item({ content: { uri: 'https://nft.fragment.com/username/durov.json' } });

  it('a bid from an external with one fill-up: the payout, no royalty', () => {
    const t = buildTrace(
      { account: ITEM, from: null, body: beginCell().storeUint(0xdeadbeef, 32).endCell(), out: [{ account: BUYER, from: ITEM, body: OWNERSHIP_BID }, { account: SELLER, from: ITEM, body: FILL_UP, value: 100n }] },
      { interfaces: { [ITEM]: teleitem() } },
    );
    const d = transferData(only(t, 'nft_transfer'));
    expect(d).toMatchObject({ is_purchase: true, payout_amount: 100n, royalty_amount: null });
    expect(only(t, 'nft_transfer').nft_listing_data).toMatchObject({ marketplace_fee_address: SELLER, royalty_address: null });
  });

  it('an item just minted (telemint deploy before it) is no purchase', () => {
    const t = buildTrace(
      { account: PAYER, from: null, out: [{ account: ITEM, from: PAYER, body: TELEMINT_DEPLOY, out: [{ account: BUYER, from: ITEM, body: OWNERSHIP_BID }] }] },
      { interfaces: { [ITEM]: teleitem() } },
    );
    const d = transferData(only(t, 'nft_transfer'));
    expect(d.is_purchase).toBe(false);
    expect(d.marketplace).toBe('fragment');
  });

  it('an ownership_assigned without bid info is a plain transfer; an unknown item builds nothing', () => {
    const plain = buildTrace({ account: PAYER, from: null, out: [{ account: ITEM, from: PAYER, value: 5n, out: [{ account: BUYER, from: ITEM, body: OWNERSHIP }] }] }, { interfaces: { [ITEM]: item() } });
    const d = transferData(only(plain, 'nft_transfer'));
    expect(d).toMatchObject({ is_purchase: false, price: null });
    expect(only(plain, 'nft_transfer').source).toBe(SALE);
    const unknown = buildTrace({ account: PAYER, from: null, out: [{ account: ITEM, from: PAYER, value: 5n, out: [{ account: BUYER, from: ITEM, body: OWNERSHIP }] }] });
    expect(typesOf(unknown)).not.toContain('nft_transfer');
  });
});

describe('nft_mint', () => {
  const deployItem = (interfaces: Record<string, AccountInterfaces>) =>
    buildTrace({ account: COLLECTION, from: null, out: [{ account: ITEM, from: COLLECTION, origStatus: 'uninit', endStatus: 'active', body: beginCell().storeUint(1, 64).endCell() }] }, { interfaces });

  it('a deployed account the repository knows as an item: index and collection', () => {
    const a = only(deployItem({ [ITEM]: item() }), 'nft_mint');
    expect(a).toMatchObject({ source: COLLECTION, destination: ITEM, asset_secondary: ITEM, asset: COLLECTION });
    expect(a.nft_mint_data).toEqual({ nft_item_index: 7n });
    expect(toApiAction(a).details).toEqual({ owner: COLLECTION, nft_item: ITEM, nft_collection: COLLECTION, nft_item_index: '7' });
  });

  it('a deployment of anything else is no mint', () => {
    expect(typesOf(deployItem({}))).not.toContain('nft_mint');
  });
});
