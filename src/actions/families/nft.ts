/**
 * ↔ indexer/events/blocks/nft.py (ton-indexer v1.3, 66150f0f; the file as of 570ff18c): NFT mint, transfer (a
 * GetGems sale purchase when the new owner paid the sale by a TON transfer, or an auction purchase), the GetGems
 * purchase (transfer + payout to the seller), the
 * discovery pair (get_static_data -> report_static_data) and Telegram (Fragment) purchases seen from the
 * ownership_assigned a sold item sends.
 *
 * Upstream's quirks kept:
 * - an item the repository does not know builds nothing (`[]`, which still counts as a match);
 * - a transfer whose previous block is the trace's root (no message) fails the match, as upstream's
 *   `previous_block.event_nodes[0]` does;
 * - the purchase block merges only the transfer, the payout and (for a finish/stop-triggered auction sale) an empty
 *   proxy block; the transfer stays its child, so both actions are stored.
 */
import { CallContractBlock, TonTransferBlock } from '../basic-blocks.ts';
import type { NftDiscoveryData, NftMintData, NftPurchaseData, NftTransferData } from '../block-data.ts';
import { findCallContracts, findMessages, getLabeled } from '../block-utils.ts';
import { interfaceRepository } from '../context.ts';
import type { InterfaceRepository } from '../interfaces.ts';
import { Block, EmptyBlock } from '../core.ts';
import { labeled } from '../labels.ts';
import { BlockMatcher, ContractMatcher, OrMatcher } from '../matchers.ts';
import { addrAccount, ExcessMessage } from '../messages/common.ts';
import { AuctionFillUp, NftDiscovery, NftOwnershipAssigned, NftReportStaticData, NftTransfer } from '../messages/nft.ts';
import { accountId, type AccountId } from '../ton-utils.ts';
import { Address } from '@ton/core';

export class NftMintBlock extends Block<NftMintData> {
  constructor(data: NftMintData) {
    super('nft_mint', [], data);
  }
}

export class NftTransferBlock extends Block<NftTransferData> {
  constructor() {
    super('nft_transfer', [], null as unknown as NftTransferData);
  }

  /** `get_nft_collection`: the collection's address; an item without a collection fails, as upstream's lookup does. */
  getNftCollection(): AccountId {
    if (this.data === null || this.data.nft === undefined) return null;
    if (this.data.nft.collection === null) throw new TypeError("'NoneType' object is not subscriptable");
    return this.data.nft.collection.address;
  }
}

export class NftPurchaseBlock extends Block<NftPurchaseData> {
  constructor(data: NftPurchaseData) {
    super('nft_purchase', [], data);
  }
}

export class NftDiscoveryBlock extends Block<NftDiscoveryData> {
  constructor(data: NftDiscoveryData) {
    super('nft_discovery', [], data);
  }
}

const b64 = (b: Buffer | null) => (b === null ? null : b.toString('base64'));

/** Python's `needle in container` for the containers item metadata holds (None fails, as upstream's check does). */
function pyIn(needle: string, container: unknown): boolean {
  if (container === null || container === undefined) throw new TypeError("argument of type 'NoneType' is not iterable");
  if (typeof container === 'string') return container.includes(needle);
  if (Array.isArray(container)) return container.includes(needle);
  if (typeof container === 'object') return Object.prototype.hasOwnProperty.call(container, needle);
  throw new TypeError(`argument of type '${typeof container}' is not iterable`);
}

/** `_get_nft_data`: what the repository knows of the item (name and type of a Fragment item from its metadata uri). */
export function getNftData(repo: InterfaceRepository, nftAddress: AccountId): NftTransferData['nft'] {
  const data: NftTransferData['nft'] = { address: nftAddress, index: null, collection: null, exists: false };
  const nft = repo.getNftItem(nftAddress);
  if (nft !== null) {
    data.index = nft.index;
    data.exists = true;
    const content = nft.content as Record<string, unknown> | null;
    if (pyIn('uri', content) && pyIn('https://nft.fragment.com', content!.uri)) {
      const tokens = String(content!.uri).split('/');
      data.name = tokens[tokens.length - 1].slice(0, -5);
      data.type = tokens[tokens.length - 2];
    } else {
      data.meta = content;
    }
    if (nft.collection_address !== null) data.collection = { address: accountId(nft.collection_address) };
  }
  return data;
}

interface PurchaseData {
  marketplace_address: string | null;
  nft_address: string | null;
  price: bigint | null;
  real_prev_owner: string | null;
}

/**
 * `_try_get_nft_purchase_data` (v1.3): a GetGems sale when the previous block is a TON transfer the new owner sent
 * (the sale is the account it paid: its full price), else a GetGems auction at the account the previous message went
 * to (its last bid). `owner`: the transfer's new owner, raw.
 */
function tryGetNftPurchaseData(block: Block, owner: string): PurchaseData | null {
  const prev = block.previousBlock!;
  // a previous block without nodes (the root) fails here, as upstream's `event_nodes[0]` does
  const eventNode = prev.eventNodes[0];
  if (eventNode === undefined) throw new TypeError('list index out of range');
  const repo = interfaceRepository(block);
  if (prev instanceof TonTransferBlock) {
    const source = eventNode.message.source;
    // upstream's `source.upper()` on a message without a source (an external) fails the match
    if (source === null) throw new TypeError("'NoneType' object has no attribute 'upper'");
    if (source.toUpperCase() === owner.toUpperCase()) {
      const sale = repo.getNftSale(eventNode.message.transaction.account);
      if (sale !== null) return { marketplace_address: sale.marketplace_address, nft_address: sale.nft_address, price: sale.full_price, real_prev_owner: sale.nft_owner_address };
    }
  }
  const auction = repo.getNftAuction(eventNode.message.transaction.account);
  if (auction !== null) return { marketplace_address: auction.mp_addr, nft_address: auction.nft_addr, price: auction.last_bid, real_prev_owner: auction.nft_owner };
  return null;
}

/** transfer -> ownership_assigned / excesses (optional); a sale or auction purchase when the payment precedes it. */
export class NftTransferBlockMatcher extends BlockMatcher {
  constructor() {
    super({
      childMatcher: new OrMatcher([
        new ContractMatcher(NftOwnershipAssigned.opcode, { optional: true }),
        new ContractMatcher(ExcessMessage.opcode, { optional: true }),
      ], true),
    });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === NftTransfer.opcode;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const newBlock = new NftTransferBlock();
    const include: Block[] = [block];
    const msg = new NftTransfer(block.getBody());
    const ownership = findMessages(otherBlocks, NftOwnershipAssigned);
    const data: NftTransferData = {
      is_purchase: false,
      prev_owner: ownership.length > 0 ? addrAccount(ownership[0][1].prevOwner) : accountId(block.eventNodes[0].message.source),
      query_id: msg.queryId,
      forward_amount: msg.forwardAmount,
      response_destination: msg.responseDestination ? addrAccount(msg.responseDestination) : null,
      custom_payload: b64(msg.customPayload),
      forward_payload: b64(msg.forwardPayload),
      new_owner: addrAccount(msg.newOwner),
      nft: getNftData(interfaceRepository(block), accountId(block.eventNodes[0].message.transaction.account)),
    };
    if (!data.nft.exists) return [];
    const prev = block.previousBlock;
    if (prev !== null) {
      // upstream's `new_owner.to_str(False)`: an item sent to no address or an external one fails the match
      if (!(msg.newOwner instanceof Address)) throw new TypeError("'NoneType' object has no attribute 'to_str'");
      const purchase = tryGetNftPurchaseData(block, msg.newOwner.toRawString());
      if (purchase !== null && accountId(purchase.nft_address) === data.nft.address) {
        const realOwner = accountId(purchase.real_prev_owner);
        if (realOwner !== data.new_owner) {
          data.is_purchase = true;
          data.marketplace = 'getgems';
          data.marketplace_address = accountId(purchase.marketplace_address);
          data.price = purchase.price;
          data.real_prev_owner = accountId(purchase.real_prev_owner);
          if (prev instanceof TonTransferBlock) {
            if (prev.comment !== 'finish' && prev.comment !== 'stop') include.push(prev);
          } else if (prev instanceof CallContractBlock && prev.getMessage().source === null) {
            // an external call (a wallet's own request) is part of the purchase
            include.push(prev);
          }
        }
      }
    }
    include.push(...otherBlocks);
    newBlock.mergeBlocks(include);
    newBlock.data = data;
    if (!data.nft.exists) newBlock.broken = true;
    newBlock.failed = block.failed;
    return [newBlock];
  }
}

/** A GetGems purchase: the purchasing transfer and the payout to the seller (after a finish/stop, through a proxy). */
export class GetgemsNftPurchaseBlockMatcher extends BlockMatcher {
  constructor() {
    super();
  }

  override testSelf(block: Block): boolean {
    if (block.btype !== 'nft_transfer') return false;
    const d = block.data as NftTransferData;
    return d.is_purchase === true && d.marketplace === 'getgems';
  }

  override buildBlock(block: Block, _otherBlocks: Block[]): Block[] {
    const d = block.data as NftTransferData;
    if (d.real_prev_owner === undefined || d.real_prev_owner === null) return [];
    const realPrevOwner = d.real_prev_owner as string;
    const include: Block[] = [block];
    let candidates = block.nextBlocks;
    let needProxy = false;
    const prev = block.previousBlock;
    if (prev instanceof TonTransferBlock && (prev.comment === 'finish' || prev.comment === 'stop')) {
      candidates = prev.nextBlocks;
      needProxy = true;
    }
    let tonTransfer: TonTransferBlock | null = null;
    for (const n of candidates) {
      if (n.btype === 'ton_transfer' && accountId(n.getMessage().destination) === realPrevOwner) {
        tonTransfer = n as TonTransferBlock;
        include.push(n);
        break;
      }
    }
    if (tonTransfer === null) return [];
    const data: NftPurchaseData = {
      nft_address: d.nft.address,
      collection_address: d.nft.collection ? d.nft.collection.address : null,
      nft_index: d.nft.index,
      prev_owner: d.prev_owner,
      new_owner: d.new_owner,
      query_id: d.query_id,
      forward_amount: d.forward_amount,
      response_destination: d.response_destination,
      custom_payload: d.custom_payload,
      forward_payload: d.forward_payload,
      payout_amount: tonTransfer.value,
      payout_comment_encrypted: tonTransfer.encrypted,
      payout_comment_encoded: tonTransfer.commentEncoded,
      payout_comment: tonTransfer.comment,
      price: d.price ?? null,
      real_prev_owner: d.real_prev_owner,
      marketplace: d.marketplace ?? null,
      marketplace_address: d.marketplace_address ?? null,
    };
    if (needProxy) {
      const proxy = new EmptyBlock();
      prev!.insertBetween([block, tonTransfer], proxy);
      include.push(proxy);
    }
    const newBlock = new NftPurchaseBlock(data);
    newBlock.mergeBlocks(include);
    return [newBlock];
  }
}

/** get_static_data -> report_static_data (required): who asked an item for its collection and index. */
export class NftDiscoveryBlockMatcher extends BlockMatcher {
  constructor() {
    super({ optional: false, childMatcher: labeled('report', new ContractMatcher(NftReportStaticData.opcode, { optional: false })) });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === NftDiscovery.opcode;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const include: Block[] = [block];
    const sender = block.getMessage().source;
    const nft = block.getMessage().destination;
    const report = getLabeled('report', otherBlocks, CallContractBlock);
    if (report === null) return [];
    const r = new NftReportStaticData(report.getBody());
    const data: NftDiscoveryData = {
      sender: accountId(sender),
      nft: accountId(nft),
      result_collection: addrAccount(r.collection),
      result_index: r.index,
      query_id: r.queryId,
    };
    include.push(report);
    const newBlock = new NftDiscoveryBlock(data);
    newBlock.mergeBlocks(include);
    return [newBlock];
  }
}

/** The minting opcode of Telegram's items (telemint), which upstream does not classify further. */
const TELEMINT_DEPLOY_OPCODE = 0x299a3e15;

/**
 * A Fragment (Telegram item) sale seen from the ownership_assigned the item sends its new owner: a purchase when its
 * payload is the bid info (not when the item was just minted), with the auction's payouts (royalty first).
 */
export class TelegramNftPurchaseBlockMatcher extends BlockMatcher {
  constructor() {
    super({ childMatcher: null, parentMatcher: null });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === NftOwnershipAssigned.opcode;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    if (!(block instanceof CallContractBlock)) throw new Error('assert isinstance(block, CallContractBlock)');
    const newBlock = new NftTransferBlock();
    const include: Block[] = [block];
    const message = block.getMessage();
    const ownership = new NftOwnershipAssigned(block.getBody());
    const data: NftTransferData = {
      is_purchase: false,
      new_owner: accountId(message.destination),
      prev_owner: ownership.prevOwner !== null ? addrAccount(ownership.prevOwner) : null,
      query_id: ownership.queryId,
      forward_amount: null,
      response_destination: null,
      custom_payload: null,
      forward_payload: null,
      nft: getNftData(interfaceRepository(block), accountId(block.getMessage().source)),
    };
    if (!data.nft.exists) return [];
    const payload = ownership.nftPayload;
    if (payload !== null) data.forward_payload = payload.raw.toString('base64');
    if (payload !== null && payload.value !== null) {
      data.is_purchase = true;
      data.price = payload.value.bid;
      data.marketplace = 'fragment';
      data.real_prev_owner = null;
      const prev = block.previousBlock;
      const isMint = (prev instanceof CallContractBlock && prev.opcode === TELEMINT_DEPLOY_OPCODE) || prev instanceof NftMintBlock;
      if (isMint) data.is_purchase = false;
      if (prev instanceof TonTransferBlock || (prev instanceof CallContractBlock && prev.getMessage().source === null)) {
        // stable sort by created_lt (None first would fail in Python; a payout message always has one)
        const payouts = findCallContracts(prev.nextBlocks, AuctionFillUp.opcode).sort((a, b) => {
          const x = a.getMessage().createdLt!, y = b.getMessage().createdLt!;
          return x < y ? -1 : x > y ? 1 : 0;
        });
        // the sending fee is always the first fill-up of a Telegram item's sale
        if (payouts.length > 1) {
          data.royalty_amount = payouts[0].getMessage().value;
          data.payout_amount = payouts[1].getMessage().value;
          data.royalty_address = accountId(payouts[0].getMessage().destination);
          data.payout_address = accountId(payouts[1].getMessage().destination);
        } else if (payouts.length === 1) {
          data.payout_address = accountId(payouts[0].getMessage().destination);
          data.payout_amount = payouts[0].getMessage().value;
        }
        include.push(...payouts, prev);
      }
    }
    include.push(...otherBlocks);
    newBlock.mergeBlocks(include);
    newBlock.data = data;
    if (!data.nft.exists) newBlock.broken = true;
    return [newBlock];
  }
}

/** A block that deployed exactly one contract, which the repository knows as an NFT item. */
export class NftMintBlockMatcher extends BlockMatcher {
  constructor() {
    super({ childMatcher: null, parentMatcher: null });
  }

  override testSelf(block: Block): boolean {
    return block.contractDeployments.size === 1;
  }

  override buildBlock(block: Block, _otherBlocks: Block[]): Block[] {
    const address = accountId([...block.contractDeployments][0]);
    const item = interfaceRepository(block).getNftItem(address);
    if (item === null) return [];
    const source = block.eventNodes[0].message.source;
    const data: NftMintData = {
      source: source ? accountId(source) : null,
      address,
      index: item.index,
      opcode: block.eventNodes[0].getOpcode(),
      collection: item.collection_address ? accountId(item.collection_address) : null,
    };
    const newBlock = new NftMintBlock(data);
    newBlock.mergeBlocks([block]);
    return [newBlock];
  }
}

/** This family's matchers under upstream's class names (families/index.ts, matcher-order.ts). */
export const MATCHERS = {
  NftMintBlockMatcher: new NftMintBlockMatcher(),
  NftTransferBlockMatcher: new NftTransferBlockMatcher(),
  TelegramNftPurchaseBlockMatcher: new TelegramNftPurchaseBlockMatcher(),
  GetgemsNftPurchaseBlockMatcher: new GetgemsNftPurchaseBlockMatcher(),
  NftDiscoveryBlockMatcher: new NftDiscoveryBlockMatcher(),
};
