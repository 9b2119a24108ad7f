/**
 * NFT families (TEP-62): nft_mint (a message that deploys a known NFT item), nft_transfer (transfer
 * 0x5fcc3d14 to an item, or an ownership_assigned 0x05138d91 with no transfer before it, e.g. right after
 * a mint), and purchases: a getgems sale contract (NftSale interface) that receives the price and
 * transfers the item, and a Telegram/Fragment item bought directly (payouts 0x370fec51).
 */
import type { Slice } from '@ton/core';
import { childWithOp, childrenWithOp, makeBlock, type Block, type Ctx, type EventNode } from '../core.ts';
import type { Family } from '../family.ts';
import { bocB64, loadAddr, parseBody } from '../toolkit/cells.ts';
import { OP } from '../toolkit/opcodes.ts';
import { deploys, isTonTransferNode } from './generic.ts';

const TELEITEM_PAYOUT = 0x370fec51;

/** `Either Cell ^Cell` kept as the reference stores NFT payloads: the inline remainder even when empty. */
function nftPayload(s: Slice): string | null {
  if (s.remainingBits === 0) return null;
  const inRef = s.loadBit();
  if (inRef) return bocB64(s.loadRef());
  return bocB64(s.asCell());
}

function tryNftPayload(s: Slice): string | null {
  try {
    return nftPayload(s);
  } catch {
    return null;
  }
}

interface NftTransferBody { queryId: bigint; newOwner: string | null; response: string | null; customPayload: string | null; forwardAmount: bigint; forwardPayload: string | null }
function parseTransfer(body: string | null | undefined): NftTransferBody | null {
  return parseBody(body, (s) => {
    if (s.loadUint(32) !== OP.nftTransfer) throw new Error('not an nft transfer');
    const queryId = s.loadUintBig(64);
    const newOwner = loadAddr(s);
    const response = loadAddr(s);
    const cp = s.loadMaybeRef();
    const forwardAmount = s.loadCoins();
    const forwardPayload = tryNftPayload(s);
    return { queryId, newOwner, response, customPayload: cp ? bocB64(cp) : null, forwardAmount, forwardPayload };
  });
}
function parseOwnership(body: string | null | undefined): { queryId: bigint; prevOwner: string | null; forwardPayload: string | null } | null {
  return parseBody(body, (s) => {
    if (s.loadUint(32) !== OP.nftOwnershipAssigned) throw new Error('not ownership_assigned');
    const queryId = s.loadUintBig(64);
    const prevOwner = loadAddr(s);
    const forwardPayload = tryNftPayload(s);
    return { queryId, prevOwner, forwardPayload };
  });
}

function itemInfo(ctx: Ctx, item: string | null) {
  const i = ctx.iface(item)?.nftItem;
  return { collection: i?.collection ?? null, index: i?.index ?? null };
}

function nftMint(n: EventNode, ctx: Ctx): Block | null {
  if (!n.msg || n.extOut || !deploys(n)) return null;
  const item = n.tx.account;
  if (!ctx.iface(item)?.nftItem) return null;
  const { collection, index } = itemInfo(ctx, item);
  const b = makeBlock('nft_mint', [n], {
    source: n.msg.source,
    destination: item,
    asset_secondary: item,
    asset: collection,
    opcode: n.msg.opcode,
    nft_mint_data: { nft_item_index: index },
  }, { data: { source: n.msg.source, address: item, index, collection, opcode: n.msg.opcode } });
  b.failed = n.tx.aborted;
  return b;
}

function transferData(
  t: { queryId: bigint; forwardAmount: bigint | null; customPayload: string | null; forwardPayload: string | null; response: string | null },
  index: bigint | null, extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    query_id: t.queryId,
    is_purchase: false,
    price: null,
    nft_item_index: index,
    forward_amount: t.forwardAmount,
    custom_payload: t.customPayload,
    forward_payload: t.forwardPayload,
    response_destination: t.response,
    marketplace: null,
    real_prev_owner: null,
    ...extra,
  };
}

/** Plain transfer 0x5fcc3d14 to an item (+ ownership_assigned / excesses). */
function nftTransferFrom(n: EventNode, ctx: Ctx): { block: Block; body: NftTransferBody } | null {
  if (!n.msg || n.extOut || n.msg.opcode !== OP.nftTransfer || !n.msg.source) return null;
  const t = parseTransfer(n.msg.body);
  if (!t) return null;
  const item = n.msg.destination;
  const { collection, index } = itemInfo(ctx, item);
  const own = childWithOp(n, OP.nftOwnershipAssigned);
  const exc = childWithOp(n, OP.excesses);
  const prevOwner = n.msg.source;
  const nodes = [n, ...(own ? [own] : []), ...(exc ? [exc] : [])];
  const b = makeBlock('nft_transfer', nodes, {
    source: prevOwner,
    destination: t.newOwner,
    asset_secondary: item,
    asset: collection,
    nft_transfer_data: transferData(t, index),
  }, { data: { prev_owner: prevOwner, new_owner: t.newOwner, nft: { address: item, index, collection }, query_id: t.queryId, is_purchase: false, forward_payload: t.forwardPayload } });
  b.failed = n.tx.aborted;
  return { block: b, body: t };
}

function nftOwnershipOnly(n: EventNode, ctx: Ctx): Block | null {
  if (!n.msg || n.extOut || n.msg.opcode !== OP.nftOwnershipAssigned || !n.parent) return null;
  if (n.parent.msg?.opcode === OP.nftTransfer) return null;
  const item = n.msg.source;
  if (!ctx.iface(item)?.nftItem) return null;
  // a bought Telegram item is handled as a purchase
  if (n.parent.msg && isTonTransferNode(n.parent) && childrenWithOp(n.parent, TELEITEM_PAYOUT).length > 0) return null;
  const o = parseOwnership(n.msg.body);
  if (!o) return null;
  const { collection, index } = itemInfo(ctx, item);
  const b = makeBlock('nft_transfer', [n], {
    source: o.prevOwner,
    destination: n.msg.destination,
    asset_secondary: item,
    asset: collection,
    nft_transfer_data: transferData({ ...o, forwardAmount: null, customPayload: null, response: null }, index),
  }, { data: { prev_owner: o.prevOwner, new_owner: n.msg.destination, nft: { address: item, index, collection }, query_id: o.queryId, is_purchase: false, forward_payload: o.forwardPayload } });
  b.failed = n.tx.aborted;
  return b;
}

/** getgems fixed-price sale: the buyer pays the sale contract, which pays the seller and transfers the item. */
function getgemsPurchase(n: EventNode, ctx: Ctx): Block[] | null {
  if (!n.msg || n.extOut || !isTonTransferNode(n)) return null;
  const sale = ctx.iface(n.msg.destination)?.nftSale as Record<string, unknown> | undefined;
  if (!sale) return null;
  const tnode = childWithOp(n, OP.nftTransfer);
  const tr = tnode && nftTransferFrom(tnode, ctx);
  if (!tr) return null;
  const seller = typeof sale.nft_owner_address === 'string' ? sale.nft_owner_address.toUpperCase() : null;
  const marketplaceAddress = typeof sale.marketplace_address === 'string' ? sale.marketplace_address.toUpperCase() : null;
  const price = sale.full_price !== undefined && sale.full_price !== null ? BigInt(sale.full_price as string) : null;
  const payout = n.children.find((c) => !c.extOut && c.msg?.destination === seller && c !== tnode);
  const base = tr.block;
  const data = transferData(tr.body, base.columns.nft_transfer_data!.nft_item_index as bigint | null, {
    is_purchase: true, price, marketplace: 'getgems', real_prev_owner: seller, marketplace_address: marketplaceAddress, payout_comment: null,
  });
  const transfer = makeBlock('nft_transfer', [n, ...base.nodes], { ...base.columns, source: tnode!.msg!.source, nft_transfer_data: data });
  transfer.failed = base.failed;
  const purchaseNodes = [n, ...base.nodes, ...(payout ? [payout] : [])];
  const purchase = makeBlock('nft_purchase', purchaseNodes, {
    ...base.columns,
    source: tnode!.msg!.source,
    nft_transfer_data: {
      ...data,
      payout_amount: payout?.msg?.value ?? null,
      payout_comment: null,
      payout_comment_encoded: false,
      payout_comment_encrypted: false,
    },
  }, { children: [transfer], extraAccounts: seller ? [seller] : [] });
  purchase.failed = base.failed;
  return [purchase];
}

/** Telegram item (Fragment) bought directly: the item gets the price, assigns ownership and pays out. */
function teleitemPurchase(n: EventNode, ctx: Ctx): Block | null {
  if (!n.msg || n.extOut || !isTonTransferNode(n)) return null;
  const item = n.msg.destination;
  if (!ctx.iface(item)?.nftItem) return null;
  const own = childWithOp(n, OP.nftOwnershipAssigned);
  const payouts = childrenWithOp(n, TELEITEM_PAYOUT);
  if (!own || payouts.length === 0) return null;
  const o = parseOwnership(own.msg!.body);
  if (!o) return null;
  const main = payouts.reduce((a, b) => ((b.msg!.value ?? 0n) > (a.msg!.value ?? 0n) ? b : a));
  const { collection, index } = itemInfo(ctx, item);
  const b = makeBlock('nft_transfer', [n, own, ...payouts], {
    source: main.msg!.destination,
    destination: own.msg!.destination,
    asset_secondary: item,
    asset: collection,
    nft_transfer_data: transferData({ ...o, forwardAmount: null, customPayload: null, response: null }, index, {
      is_purchase: true, price: n.msg.value, marketplace: 'fragment',
    }),
  });
  b.failed = n.tx.aborted;
  return b;
}

export const nftMintFamily: Family = { name: 'nft_mint', match: nftMint };
export const nftTransferFamily: Family = {
  name: 'nft_transfer',
  match(n, ctx) {
    return nftTransferFrom(n, ctx)?.block ?? nftOwnershipOnly(n, ctx);
  },
};
export const nftPurchaseFamily: Family = {
  name: 'nft_purchase',
  match(n, ctx) {
    return getgemsPurchase(n, ctx)?.[0] ?? teleitemPurchase(n, ctx);
  },
};
