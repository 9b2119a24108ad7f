/**
 * ↔ indexer/events/blocks/auction.py (newer upstream, the version with outbids, cancellations, Telegram item auctions,
 * .ton DNS purchases and releases and sale updates): auction bids (GetGems auctions, Fragment and .ton DNS items),
 * the outbid refund, GetGems listings (fixed price and auction, read from the StateInit that deploys the sale), their
 * cancellation, finish and price update, Telegram item auctions started and cancelled, .ton DNS purchases (the
 * auction's payout after the winning bid) and balance releases.
 *
 * Upstream's quirks kept:
 * - the bid matcher builds the bid block but returns the transfer it merged (the bid still replaces it in the graph);
 * - the cancel / finish blocks merge only the triggering message, the returned item's transfer stays a block of its own;
 * - a GetGems sale listed with a v4r1 contract whose record has a royalty amount fails (`int(None)` upstream);
 * - an outbid needs exactly one refund: two candidates build nothing.
 */
import { BlockTypeMatcher, BlockMatcher, ContractMatcher, GenericMatcher } from '../matchers.ts';
import { CallContractBlock, TonTransferBlock } from '../basic-blocks.ts';
import type { AuctionBidData, AuctionOutbidData, DnsReleaseData, NftCancelTradeData, NftPurchaseData, NftPutOnAuctionData, NftPutOnSaleData, UpdateSaleData } from '../block-data.ts';
import { getLabeled } from '../block-utils.ts';
import { interfaceRepository } from '../context.ts';
import { Block } from '../core.ts';
import type { NftItemRecord } from '../interfaces.ts';
import { labeled } from '../labels.ts';
import { addrAccount } from '../messages/common.ts';
import { getAuctionData, getSaleData, SaleUpdateMessage } from '../messages/getgems.ts';
import { AuctionFillUp, DnsReleaseBalance, TeleitemStartAuction } from '../messages/nft.ts';
import { accountId, type AccountId } from '../ton-utils.ts';
import { NftPurchaseBlock, NftTransferBlock } from './nft.ts';

/** Code hash of the .ton DNS items and the .ton DNS collection. */
export const DNS_CODE_HASH = 'i1/8nr/TkGTY1fVuRlnIJrt1k5I/XKSHKL5NYK9vUfk=';
export const DNS_COLLECTION = '0:B774D95EB20543F186C06B371AB88AD704F7E256130CAF96189368A7D0CB6CCF';

/** The DNS auction's outbid refund (op::outbid_notification of dns-contract). */
const DNS_OUTBID_OPCODE = 0x557cea20;
const TELEITEM_OK_OPCODE = 0xa37a0983;
const TELEITEM_CANCEL_AUCTION_OPCODE = 0x371638ae;
const SALE_CANCEL_OPCODE = 0x3;
const AUCTION_CANCEL_OPCODE = 0x5616c572;
const AUCTION_FINISH_OPCODE = 0x20c9eb18;
const AUCTION_STOP_OPCODE = 0xb95616b6;

export class AuctionBid extends Block<AuctionBidData> {
  constructor(data: AuctionBidData) {
    super('auction_bid', [], data);
  }
}

export class AuctionOutbidBlock extends Block<AuctionOutbidData> {
  constructor(data: AuctionOutbidData) {
    super('auction_outbid', [], data);
  }
}

export class NftPutOnSaleBlock extends Block<NftPutOnSaleData> {
  constructor(data: NftPutOnSaleData) {
    super('nft_put_on_sale', [], data);
  }
}

export class NftPutOnAuctionBlock extends Block<NftPutOnAuctionData> {
  constructor(data: NftPutOnAuctionData) {
    super('nft_put_on_auction', [], data);
  }
}

export class NftCancelSaleBlock extends Block<NftCancelTradeData> {
  constructor(data: NftCancelTradeData) {
    super('nft_cancel_sale', [], data);
  }
}

export class NftCancelAuctionBlock extends Block<NftCancelTradeData> {
  constructor(data: NftCancelTradeData) {
    super('nft_cancel_auction', [], data);
  }
}

export class NftFinishAuctionBlock extends Block<NftCancelTradeData> {
  constructor(data: NftCancelTradeData) {
    super('nft_finish_auction', [], data);
  }
}

export class TeleitemStartAuctionBlock extends Block<NftPutOnAuctionData> {
  constructor(data: NftPutOnAuctionData) {
    super('teleitem_start_auction', [], data);
  }
}

export class TeleitemCancelAuctionBlock extends Block<NftCancelTradeData> {
  constructor(data: NftCancelTradeData) {
    super('teleitem_cancel_auction', [], data);
  }
}

export class DnsPurchaseBlock extends Block<NftPurchaseData> {
  constructor(data: NftPurchaseData) {
    super('dns_purchase', [], data);
  }
}

export class DnsReleaseBlock extends Block<DnsReleaseData> {
  constructor(data: DnsReleaseData) {
    super('dns_release', [], data);
  }
}

export class UpdateSaleBlock extends Block<UpdateSaleData> {
  constructor(data: UpdateSaleData) {
    super('nft_update_sale', [], data);
  }
}

type J = Record<string, unknown>;

/** `_is_teleitem`: the item's metadata lives on nft.fragment.com (a record without metadata is not one). */
export function isTeleitem(item: NftItemRecord | J): boolean {
  const content = item.content as J | null | undefined;
  if (content === null || content === undefined || typeof content !== 'object') return false;
  if (!('uri' in content)) return false;
  if (typeof content.uri !== 'string') throw new TypeError(`argument of type '${content.uri === null ? 'NoneType' : typeof content.uri}' is not iterable`);
  return content.uri.includes('https://nft.fragment.com');
}

/** `_is_dns_item`: a .ton DNS item by its code hash or its collection. */
export function isDnsItem(item: NftItemRecord): boolean {
  return item.code_hash === DNS_CODE_HASH || item.collection_address === DNS_COLLECTION;
}

/**
 * AccountId's `==` against a plain address string: normalised forms compared, an address that does not parse is
 * unequal; against None it fails (upstream reads `None.address`).
 */
function accEqStr(a: AccountId, s: string | null): boolean {
  if (s === null) throw new TypeError("'NoneType' object has no attribute 'address'");
  try {
    return a === accountId(s);
  } catch {
    return false;
  }
}

/** The StateInit BoC the block's message carried (upstream's `get_message().init_state.body`; none fails). */
function initStateOf(block: Block): string {
  const m = block.getMessage();
  const init = m.direction === 'in' ? m.transaction.inMsg?.initState : null;
  if (!init) throw new TypeError("'NoneType' object has no attribute 'body'");
  return init;
}

const comment = (b: Block): string | null => (b instanceof TonTransferBlock ? b.comment : null);

/** A TON transfer to a GetGems auction, a Fragment item or (with its outbid refund) a .ton DNS item. */
export class AuctionBidMatcher extends BlockMatcher {
  constructor() {
    super({ childMatcher: null, includeExcess: false });
  }

  override testSelf(block: Block): boolean {
    return block instanceof TonTransferBlock;
  }

  override buildBlock(block: Block, _otherBlocks: Block[]): Block[] {
    const msg = block.eventNodes[0].message;
    const repo = interfaceRepository(block);
    const interfaces = repo.getInterfaces(msg.destination);
    if (block.contractDeployments.size > 0) return [];
    const c = comment(block);
    if (c === 'cancel' || c === 'finish' || c === 'stop') return [];
    let data: AuctionBidData;
    if ('NftAuction' in interfaces) {
      const auction = interfaces.NftAuction as J;
      if (!('nft_addr' in auction)) throw new Error("KeyError: 'nft_addr'");
      const nftAddress = accountId(auction.nft_addr as string | null);
      const item = repo.getNftItem(nftAddress);
      data = {
        amount: msg.value, bidder: accountId(msg.source), auction: accountId(msg.destination), nft_address: nftAddress,
        nft_item_index: null, nft_collection: null, auction_type: 'getgems',
      };
      if (item !== null) {
        data.nft_item_index = item.index;
        data.nft_collection = accountId(item.collection_address);
      }
    } else {
      const item = 'NftItem' in interfaces ? repo.getNftItem(msg.destination) : null;
      if (item === null || !(isTeleitem(item) || isDnsItem(item))) return [];
      if (isDnsItem(item)) {
        const hasOutbid = block.nextBlocks.some((b) => b instanceof CallContractBlock && b.opcode === DNS_OUTBID_OPCODE);
        if (!hasOutbid) return [];
      }
      data = {
        amount: msg.value, bidder: accountId(msg.source), auction: accountId(msg.destination), nft_address: accountId(msg.destination),
        nft_collection: item.collection_address !== null ? accountId(item.collection_address) : null,
        nft_item_index: item.index, auction_type: 'fragment',
      };
    }
    const bid = new AuctionBid(data);
    bid.mergeBlocks([block]);
    // upstream returns the transfer, not the bid (the bid replaced it in the graph all the same)
    return [block];
  }
}

/** The refund of the previous bidder a bid causes: "outbid" comment (GetGems) or the DNS outbid notification. */
export class AuctionOutbidMatcher extends BlockMatcher {
  constructor() {
    super({ childMatcher: null, includeExcess: false });
  }

  override testSelf(block: Block): boolean {
    return block instanceof AuctionBid;
  }

  override buildBlock(block: Block, _otherBlocks: Block[]): Block[] {
    const bid = block.data as AuctionBidData;
    let data: AuctionOutbidData | null = null;
    let include: Block[] = [];
    if (bid.auction_type === 'getgems') {
      let refund: TonTransferBlock | null = null;
      for (const b of block.nextBlocks) {
        if (!(b instanceof TonTransferBlock) || bid.auction !== accountId(b.getMessage().source)) continue;
        if (b.comment === null) throw new TypeError("argument of type 'NoneType' is not iterable");
        if (!b.comment.includes('Your bid has been outbid by another user')) continue;
        // only one refund, to avoid false positives
        if (refund !== null) return [];
        refund = b;
      }
      if (refund === null) return [];
      include = [refund];
      data = {
        auction_address: bid.auction, nft: bid.nft_address, nft_collection: bid.nft_collection, bidder: accountId(refund.getMessage().destination),
        new_bidder: bid.bidder, amount: refund.value, comment: refund.comment, auction_type: 'getgems',
      };
    } else if (bid.auction_type === 'fragment') {
      let refund: CallContractBlock | null = null;
      for (const b of block.nextBlocks) {
        if (b instanceof CallContractBlock && bid.auction === accountId(b.getMessage().source) && b.opcode === DNS_OUTBID_OPCODE) {
          if (refund !== null) return [];
          refund = b;
        }
      }
      if (refund === null) return [];
      include = [refund];
      data = {
        auction_address: bid.auction, nft: bid.nft_address, nft_collection: bid.nft_collection, bidder: accountId(refund.getMessage().destination),
        new_bidder: bid.bidder, amount: refund.getMessage().value, comment: null, auction_type: 'fragment',
      };
    }
    // an unknown auction type merges nothing, which fails (as upstream's merge of an empty list)
    if (data === null) throw new Error('auction outbid without an auction type');
    const newBlock = new AuctionOutbidBlock(data);
    newBlock.mergeBlocks(include);
    return [newBlock];
  }
}

const nftOf = (b: NftTransferBlock) => b.data.nft;
const collectionOf = (b: NftTransferBlock): AccountId => (b.data.nft.collection !== null ? b.data.nft.collection.address : null);

/**
 * An NFT sent to a GetGems listing contract, which deploys the sale (or auction) contract and sends the item to it.
 * The listing's terms come from the sale contract's StateInit, its owner and marketplace from the sale record.
 */
export class NftPutOnSaleBlockMatcher extends BlockMatcher {
  constructor() {
    const saleInit = new GenericMatcher((b) => (b.btype === 'ton_transfer' || b.btype === 'call_contract') && b.contractDeployments.size > 0);
    super({ childrenMatchers: [labeled('sale_init', saleInit), labeled('transfer_to_sale', new BlockTypeMatcher('nft_transfer'))], includeExcess: false });
  }

  override testSelf(block: Block): boolean {
    return block instanceof NftTransferBlock;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const toListing = block as NftTransferBlock;
    const toSale = getLabeled('transfer_to_sale', otherBlocks, NftTransferBlock)!;
    const saleInit = getLabeled('sale_init', otherBlocks, Block)!;
    if (nftOf(toSale).address !== nftOf(toListing).address) return [];
    const saleAddress = accountId(saleInit.getMessage().destination);
    if (toSale.data.new_owner !== saleAddress) return [];
    const repo = interfaceRepository(block);
    const sale = repo.getNftSale(saleInit.getMessage().destination);
    if (sale !== null) {
      if (!accEqStr(nftOf(toSale).address, sale.nft_address)) throw new Error('assert transfer_to_sale nft == sale nft');
      if (!accEqStr(toListing.data.prev_owner ?? null, sale.nft_owner_address)) throw new Error('assert listing prev_owner == sale owner');
      const saleData = getSaleData(initStateOf(saleInit), sale.code_hash);
      if (saleData === null) throw new Error('Unable to parse sale state init');
      let royaltyAmount: bigint | null = null;
      if (sale.royalty_amount !== null) {
        if (saleData.royaltyAmount === null) throw new TypeError("int() argument must be a string, a bytes-like object or a real number, not 'NoneType'");
        royaltyAmount = saleData.royaltyAmount;
      }
      const data: NftPutOnSaleData = {
        nft_address: nftOf(toSale).address,
        nft_index: nftOf(toSale).index,
        nft_collection: collectionOf(toSale),
        owner: accountId(sale.nft_owner_address),
        listing_address: toListing.data.new_owner,
        sale_address: saleAddress,
        full_price: saleData.fullPrice,
        marketplace_address: addrAccount(saleData.marketplaceAddress),
        marketplace: 'getgems',
        marketplace_fee_address: addrAccount(saleData.marketplaceFeeAddress),
        marketplace_fee: saleData.marketplaceFee,
        royalty_address: addrAccount(saleData.royaltyAddress),
        royalty_amount: royaltyAmount,
      };
      const newBlock = new NftPutOnSaleBlock(data);
      newBlock.mergeBlocks([block, ...otherBlocks]);
      return [newBlock];
    }
    const auction = repo.getNftAuction(saleInit.getMessage().destination);
    if (auction === null) return [];
    if (!accEqStr(nftOf(toSale).address, auction.nft_addr)) throw new Error('assert transfer_to_sale nft == auction nft');
    if (!accEqStr(toListing.data.prev_owner ?? null, auction.nft_owner)) throw new Error('assert listing prev_owner == auction owner');
    const a = getAuctionData(initStateOf(saleInit), auction.code_hash);
    if (a === null) throw new Error('Unable to parse auction state init');
    const n = (v: number | bigint | null): bigint | null => (v === null ? null : BigInt(v));
    const data: NftPutOnAuctionData = {
      nft_address: nftOf(toSale).address,
      nft_index: nftOf(toSale).index,
      nft_collection: collectionOf(toSale),
      owner: accountId(auction.nft_owner),
      listing_address: toListing.data.new_owner,
      auction_address: saleAddress,
      marketplace_address: accountId(auction.mp_addr),
      marketplace: 'getgems',
      mp_fee_address: a.mpFeeAddr ? addrAccount(a.mpFeeAddr) : null,
      mp_fee_factor: n(a.mpFeeFactor),
      mp_fee_base: n(a.mpFeeBase),
      royalty_fee_addr: a.royaltyFeeAddr ? addrAccount(a.royaltyFeeAddr) : null,
      royalty_fee_base: n(a.royaltyFeeBase),
      max_bid: n(a.maxBid),
      min_bid: n(a.minBid),
    };
    const newBlock = new NftPutOnAuctionBlock(data);
    newBlock.mergeBlocks([block, ...otherBlocks]);
    return [newBlock];
  }
}

/** `get_cancel_trade_data`: the trade contract's record must name the returned item. */
function getCancelTradeData(block: Block, returnNft: NftTransferBlock, isSale: boolean): NftCancelTradeData | null {
  const contract = block.getMessage().destination;
  const repo = interfaceRepository(block);
  const expected = isSale ? repo.getNftSale(contract)?.nft_address : repo.getNftAuction(contract)?.nft_addr;
  if (expected === undefined) return null;
  // AccountId against the record's string (None: the comparison fails, as upstream's)
  if (!accEqStr(returnNft.data.nft.address, expected)) return null;
  return { nft_address: returnNft.data.nft.address, nft_collection: returnNft.getNftCollection(), owner: returnNft.data.new_owner, trade_contract: accountId(contract) };
}

/** The sale's cancel (op 3) returning the item to its owner. */
export class NftCancelSaleMatcher extends BlockMatcher {
  constructor() {
    super({ childMatcher: labeled('nft_transfer', new BlockTypeMatcher('nft_transfer')) });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === SALE_CANCEL_OPCODE;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const returnNft = getLabeled('nft_transfer', otherBlocks, NftTransferBlock);
    if (returnNft === null) throw new TypeError("'NoneType' object has no attribute 'data'");
    const data = getCancelTradeData(block, returnNft, true);
    if (data === null) return [];
    const newBlock = new NftCancelSaleBlock(data);
    newBlock.mergeBlocks([block]);
    return [newBlock];
  }
}

const isFinishComment = (c: string | null) => c === 'finish' || c === 'stop';

/** An auction cancelled ("cancel" or op 0x5616c572) or finished / stopped without a buyer, returning the item. */
export class NftCancelAuctionMatcher extends BlockMatcher {
  constructor() {
    super({ childMatcher: labeled('nft_transfer', new BlockTypeMatcher('nft_transfer')) });
  }

  override testSelf(block: Block): boolean {
    if (block instanceof TonTransferBlock && (block.comment === 'cancel' || isFinishComment(block.comment))) return true;
    if (block instanceof CallContractBlock) return block.opcode === AUCTION_CANCEL_OPCODE || block.opcode === AUCTION_FINISH_OPCODE || block.opcode === AUCTION_STOP_OPCODE;
    return false;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const returnNft = getLabeled('nft_transfer', otherBlocks, NftTransferBlock);
    if (returnNft === null) throw new TypeError("'NoneType' object has no attribute 'data'");
    const data = getCancelTradeData(block, returnNft, false);
    if (data === null) return [];
    const isFinish = (block instanceof CallContractBlock && (block.opcode === AUCTION_STOP_OPCODE || block.opcode === AUCTION_FINISH_OPCODE))
      || (block instanceof TonTransferBlock && isFinishComment(block.comment));
    const newBlock = isFinish ? new NftFinishAuctionBlock(data) : new NftCancelAuctionBlock(data);
    newBlock.mergeBlocks([block]);
    return [newBlock];
  }
}

/** An auction finished ("finish"/"stop" or their opcodes) with a sale: the purchase follows it. */
export class NftFinishAuctionMatcher extends BlockMatcher {
  constructor() {
    super({ childMatcher: labeled('nft_purchase', new BlockTypeMatcher('nft_purchase')) });
  }

  override testSelf(block: Block): boolean {
    if (block instanceof TonTransferBlock && isFinishComment(block.comment)) return true;
    if (block instanceof CallContractBlock) return block.opcode === AUCTION_STOP_OPCODE || block.opcode === AUCTION_FINISH_OPCODE;
    return false;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const purchase = getLabeled('nft_purchase', otherBlocks, NftPurchaseBlock);
    if (purchase === null) throw new TypeError("'NoneType' object has no attribute 'data'");
    const contract = block.getMessage().destination;
    const auction = interfaceRepository(block).getNftAuction(contract);
    if (auction === null) return [];
    // NftPurchaseData.nft_address (an AccountId) against the record's string
    if (!accEqStr(purchase.data.nft_address as AccountId, auction.nft_addr)) return [];
    const data: NftCancelTradeData = {
      nft_address: purchase.data.nft_address, nft_collection: purchase.data.collection_address, owner: purchase.data.new_owner, trade_contract: accountId(contract),
    };
    const newBlock = new NftFinishAuctionBlock(data);
    newBlock.mergeBlocks([block]);
    return [newBlock];
  }
}

/** A Telegram item's owner starts its auction (teleitem_start_auction, answered by teleitem_ok). */
export class TeleitemStartAuctionMatcher extends BlockMatcher {
  constructor() {
    super({ childMatcher: labeled('teleitem_ok', new ContractMatcher(TELEITEM_OK_OPCODE, { optional: true })), includeExcess: false });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === TeleitemStartAuction.opcode;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const item = interfaceRepository(block).getNftItem(block.eventNodes[0].message.destination);
    if (item === null || !isTeleitem(item)) return [];
    const start = new TeleitemStartAuction(block.getBody());
    const msg = block.getMessage();
    const data: NftPutOnAuctionData = {
      nft_address: accountId(msg.destination),
      nft_index: item.index,
      nft_collection: item.collection_address ? accountId(item.collection_address) : null,
      owner: accountId(msg.source),
      listing_address: null,
      auction_address: accountId(msg.destination),
      marketplace_address: null,
      marketplace: 'fragment',
      mp_fee_address: start.beneficiaryAddress ? addrAccount(start.beneficiaryAddress) : null,
      mp_fee_factor: 0n,
      mp_fee_base: 0n,
      royalty_fee_addr: null,
      royalty_fee_base: 0n,
      max_bid: start.maxBid,
      min_bid: start.initialMinBid,
    };
    const newBlock = new TeleitemStartAuctionBlock(data);
    newBlock.failed = msg.transaction.aborted;
    newBlock.mergeBlocks([block, ...otherBlocks]);
    return [newBlock];
  }
}

/** A Telegram item's owner cancels its auction (0x371638ae, answered by teleitem_ok). */
export class TeleitemCancelAuctionMatcher extends BlockMatcher {
  constructor() {
    super({ childMatcher: labeled('teleitem_ok', new ContractMatcher(TELEITEM_OK_OPCODE, { optional: true })), includeExcess: false });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === TELEITEM_CANCEL_AUCTION_OPCODE;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const msg = block.getMessage();
    const item = interfaceRepository(block).getNftItem(msg.destination);
    if (item === null || !isTeleitem(item)) return [];
    const data: NftCancelTradeData = {
      nft_address: accountId(msg.destination), nft_collection: accountId(item.collection_address), owner: accountId(msg.source), trade_contract: accountId(msg.destination),
    };
    const newBlock = new TeleitemCancelAuctionBlock(data);
    newBlock.mergeBlocks([block, ...otherBlocks]);
    newBlock.failed = msg.transaction.aborted;
    return [newBlock];
  }
}

/** A .ton DNS item's auction payout (fill_up) after the call that won it: the buyer is that call's sender. */
export class DnsPurchaseMatcher extends BlockMatcher {
  constructor() {
    super({ parentMatcher: new BlockTypeMatcher('call_contract') });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === AuctionFillUp.opcode;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const call = otherBlocks[0];
    const msg = block.getMessage();
    const item = interfaceRepository(block).getNftItem(msg.source);
    if (item === null || (item.code_hash !== DNS_CODE_HASH && item.collection_address !== DNS_COLLECTION)) return [];
    const fillUp = new AuctionFillUp(block.getBody());
    const newBlock = new DnsPurchaseBlock({
      nft_address: accountId(msg.source),
      collection_address: accountId(item.collection_address),
      nft_index: item.index,
      prev_owner: null,
      new_owner: accountId(call.getMessage().source),
      query_id: fillUp.queryId,
      forward_amount: null,
      response_destination: null,
      custom_payload: null,
      forward_payload: null,
      payout_amount: msg.value,
      payout_comment_encrypted: null,
      payout_comment_encoded: null,
      payout_comment: null,
      price: msg.value,
      real_prev_owner: null,
      marketplace: null,
      marketplace_address: null,
    });
    newBlock.mergeBlocks([block]);
    newBlock.failed = msg.transaction.aborted;
    return [newBlock];
  }
}

/** A .ton DNS item's balance released (dns_balance_release). */
export class DnsReleaseMatcher extends BlockMatcher {
  constructor() {
    super();
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === DnsReleaseBalance.opcode;
  }

  override buildBlock(block: Block, _otherBlocks: Block[]): Block[] {
    const msg = block.getMessage();
    const item = interfaceRepository(block).getNftItem(msg.destination);
    if (item === null || (item.code_hash !== DNS_CODE_HASH && item.collection_address !== DNS_COLLECTION)) return [];
    const release = new DnsReleaseBalance(block.getBody());
    const newBlock = new DnsReleaseBlock({
      nft_address: accountId(msg.destination),
      nft_collection: accountId(item.collection_address),
      nft_index: item.index,
      query_id: release.queryId,
      source: accountId(msg.source),
      value: msg.value,
    });
    newBlock.mergeBlocks([block]);
    newBlock.failed = msg.transaction.aborted;
    return [newBlock];
  }
}

/** A GetGems sale's new price (0x6c6c2080) sent to a sale contract the repository knows. */
export class UpdateSaleMatcher extends BlockMatcher {
  constructor() {
    super();
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === SaleUpdateMessage.opcode;
  }

  override buildBlock(block: Block, _otherBlocks: Block[]): Block[] {
    const msg = block.getMessage();
    const update = new SaleUpdateMessage(block.getBody());
    const sale = interfaceRepository(block).getNftSale(msg.destination);
    if (sale === null) return [];
    const newBlock = new UpdateSaleBlock({
      sender: accountId(msg.source),
      sale_contract: accountId(msg.destination),
      nft_address: accountId(sale.nft_address),
      new_full_price: update.newFullPrice,
      new_marketplace_fee: update.newMpFee,
      new_royalty_amount: update.newRoyaltyAmount,
      marketplace_address: accountId(sale.marketplace_address),
    });
    newBlock.mergeBlocks([block]);
    newBlock.failed = msg.transaction.aborted;
    return [newBlock];
  }
}

/** This family's matchers under upstream's class names (families/index.ts, matcher-order.ts). */
export const MATCHERS = {
  AuctionBidMatcher: new AuctionBidMatcher(),
  AuctionOutbidMatcher: new AuctionOutbidMatcher(),
  NftPutOnSaleBlockMatcher: new NftPutOnSaleBlockMatcher(),
  NftCancelSaleMatcher: new NftCancelSaleMatcher(),
  NftCancelAuctionMatcher: new NftCancelAuctionMatcher(),
  NftFinishAuctionMatcher: new NftFinishAuctionMatcher(),
  TeleitemStartAuctionMatcher: new TeleitemStartAuctionMatcher(),
  TeleitemCancelAuctionMatcher: new TeleitemCancelAuctionMatcher(),
  DnsPurchaseMatcher: new DnsPurchaseMatcher(),
  DnsReleaseMatcher: new DnsReleaseMatcher(),
  UpdateSaleMatcher: new UpdateSaleMatcher(),
};

