/** Jettons, NFTs, DNS, multisig and vesting (reference §2.5-2.8): parameters, checks and rendering; the reads are in queries/. */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import * as S from '../../../../schemas/api/v3/entities.ts';
import { ApiError } from '../../errors.ts';
import { bookAndMetadata, bookOf, metadataOf } from '../address-book.ts';
import { DEFAULT_LIMIT, LT_WINDOW as WINDOW, PAGE, PAGE_SORT, pageOf } from '../params.ts';
import { dnsAuctions, dnsRecords, multisigOrders, multisigWallets, vestingContracts } from '../queries/contracts.ts';
import { jettonBurns, jettonMasters, jettonTransfers, jettonWallets } from '../queries/jettons.ts';
import { nftCollections, nftItems, nftSales, nftTransfers } from '../queries/nfts.ts';
import { addRoute, type Ctx, type V3Deps } from '../route.ts';
import {
  dnsAuctionJson, dnsRecordJson, jettonBurnJson, jettonMasterJson, jettonTransferJson, jettonWalletJson, multisigJson, nftCollectionJson, nftItemJson, nftSaleJson,
  nftTransferJson, orderJson, vestingJson,
} from './entity-json.ts';

export { jettonMasterJson, jettonWalletJson } from './entity-json.ts';

async function withBook(ctx: Ctx<unknown>, key: string, items: Record<string, unknown>[], addrs: (string | null | undefined)[], meta = true) {
  const { address_book, metadata } = await bookAndMetadata(ctx, addrs, { metadata: meta });
  return meta ? { [key]: items, address_book, metadata } : { [key]: items, address_book };
}

/** The routes of each family, in the order the docs list them. */
export function entityRoutes(app: FastifyInstance, deps: V3Deps): void {
  jettonRoutes(app, deps);
  nftRoutes(app, deps);
  dnsRoutes(app, deps);
  multisigRoutes(app, deps);
  vestingRoutes(app, deps);
}

/** Jetton masters, wallets, transfers and burns. */
function jettonRoutes(app: FastifyInstance, deps: V3Deps): void {
  addRoute(app, deps, {
    url: '/jetton/masters',
    tags: ['jettons'],
    summary: 'Jetton masters',
    description: 'Order: address (sort, default asc).',
    params: { address: { kind: 'address[]' }, admin_address: { kind: 'address[]' }, ...PAGE_SORT },
    response: listOf(S.JettonMaster, 'jetton_masters'),
    async handler(ctx) {
      const rows = await jettonMasters(ctx.db, ctx.q, pageOf(ctx.q, 'asc'));
      const items = rows.map(jettonMasterJson);
      return withBook(ctx, 'jetton_masters', items, items.flatMap((i) => [i.address as string, i.admin_address]));
    },
  });

  addRoute(app, deps, {
    url: '/jetton/wallets',
    tags: ['jettons'],
    summary: 'Jetton wallets by address, owner or jetton master',
    description: 'Order: address; with sort: balance (then address). At least one of address, owner_address, jetton_address is required.',
    params: {
      address: { kind: 'address[]' }, owner_address: { kind: 'address[]' }, jetton_address: { kind: 'address[]' },
      exclude_zero_balance: { kind: 'bool' }, ...PAGE_SORT,
    },
    response: listOf(S.JettonWallet, 'jetton_wallets'),
    async handler(ctx) {
      const { q } = ctx;
      const owners = q.owner_address;
      const jettons = q.jetton_address;
      if (!q.address?.length && !owners?.length && !jettons?.length) {
        throw new ApiError(422, 'at least one of address, owner_address, jetton_address is required');
      }
      if ((jettons?.length ?? 0) > 1 && owners?.length !== 1) throw new ApiError(422, 'exact one owner_address required for multiple jetton_address');
      const rows = await jettonWallets(ctx.db, q, pageOf(q));
      const items = rows.map(jettonWalletJson);
      return withBook(ctx, 'jetton_wallets', items, items.flatMap((i) => [i.address as string, i.owner as string, i.jetton as string]));
    },
  });

  addRoute(app, deps, {
    url: '/jetton/transfers',
    tags: ['jettons'],
    summary: 'Jetton transfers (one row per sender-wallet transaction processing transfer#0f8a7ea5)',
    description: 'Aborted transfers are left out. Order: transaction lt (or now with utime filters), then transaction hash; sort default desc.',
    params: {
      owner_address: { kind: 'address[]' }, address: { kind: 'address', description: 'legacy alias of one owner_address' },
      jetton_wallet: { kind: 'address[]' }, jetton_master: { kind: 'address' }, direction: { kind: 'direction3' }, ...WINDOW, ...PAGE_SORT,
    },
    response: listOf(S.JettonTransfer, 'jetton_transfers'),
    async handler(ctx) {
      const { q } = ctx;
      const owners = [...(q.owner_address ?? []), ...(q.address ? [q.address] : [])];
      const rows = await jettonTransfers(ctx.db, { ...q, owners }, pageOf(q));
      const items = rows.map(jettonTransferJson);
      return withBook(ctx, 'jetton_transfers', items, items.flatMap((i) => [i.source as string, i.destination as string, i.source_wallet as string, i.jetton_master as string, i.response_destination]));
    },
  });

  addRoute(app, deps, {
    url: '/jetton/burns',
    tags: ['jettons'],
    summary: 'Jetton burns (burner wallet transactions processing burn#595f07bc)',
    description: 'Order: transaction lt (or now with utime filters), then hash; sort default desc.',
    params: {
      owner_address: { kind: 'address[]', description: 'burner (owner) addresses' },
      address: { kind: 'address[]', description: 'legacy alias of owner_address (used when owner_address is absent)' },
      jetton_wallet: { kind: 'address[]' },
      jetton_master: { kind: 'address' },
      ...WINDOW,
      ...PAGE_SORT,
    },
    response: listOf(S.JettonBurn, 'jetton_burns'),
    async handler(ctx) {
      const { q } = ctx;
      // the reference takes `address` only when owner_address is absent
      const rows = await jettonBurns(ctx.db, { ...q, owners: q.owner_address ?? q.address }, pageOf(q));
      const items = rows.map(jettonBurnJson);
      return withBook(ctx, 'jetton_burns', items, items.flatMap((i) => [i.owner as string, i.jetton_wallet as string, i.jetton_master as string, i.response_destination]));
    },
  });
}

/** NFT collections, items, transfers and sales. */
function nftRoutes(app: FastifyInstance, deps: V3Deps): void {
  addRoute(app, deps, {
    url: '/nft/collections',
    tags: ['nfts'],
    summary: 'NFT collections',
    description: 'Order: address (sort, default asc).',
    params: { collection_address: { kind: 'address[]' }, owner_address: { kind: 'address[]' }, ...PAGE_SORT },
    response: listOf(S.NFTCollection, 'nft_collections'),
    async handler(ctx) {
      const rows = await nftCollections(ctx.db, ctx.q, pageOf(ctx.q, 'asc'));
      const items = rows.map(nftCollectionJson);
      return withBook(ctx, 'nft_collections', items, items.flatMap((i) => [i.address as string, i.owner_address]));
    },
  });

  addRoute(app, deps, {
    url: '/nft/items',
    tags: ['nfts'],
    summary: 'NFT items by address, owner, collection or index',
    description:
      'Order: address; with owner: owner, collection, index; with one collection: index; sort (default asc) gives the direction. ' +
      'sort_by_last_transaction_lt: by last transaction lt, newest first (sort=asc: oldest first). ' +
      'An item held by an indexed sale or auction contract (nft/sales) has on_sale, sale_contract_address or auction_contract_address, and real_owner (the seller); ' +
      'include_on_sale=true makes owner_address match such sellers too.',
    params: {
      address: { kind: 'address[]' }, owner_address: { kind: 'address[]' }, collection_address: { kind: 'address[]' }, index: { kind: 'digits[]' },
      include_on_sale: { kind: 'bool', default: false }, sort_by_last_transaction_lt: { kind: 'bool', default: false }, ...PAGE_SORT,
    },
    response: listOf(S.NFTItem, 'nft_items'),
    async handler(ctx) {
      const { q } = ctx;
      const pg = pageOf(q, 'asc');
      if ((q.collection_address?.length ?? 0) > 1 && q.owner_address?.length !== 1) throw new ApiError(422, 'exact one owner_address required for multiple collection_address');
      if (q.index?.length && !q.collection_address?.length) throw new ApiError(422, 'index parameter is not allowed without the collection_address');
      const found = await nftItems(ctx.db, q, pg);
      const items = found.items.map((r) => nftItemJson(r, found));
      return withBook(ctx, 'nft_items', items, items.flatMap((i) => [i.address, i.owner_address, i.collection_address] as (string | null)[]));
    },
  });

  addRoute(app, deps, {
    url: '/nft/transfers',
    tags: ['nfts'],
    summary: 'NFT transfers (item transactions processing transfer#5fcc3d14)',
    description: 'Order: transaction lt (or now with utime filters), then hash; sort default desc.',
    params: {
      owner_address: { kind: 'address[]' }, address: { kind: 'address', description: 'legacy alias of one owner_address' }, item_address: { kind: 'address[]' },
      collection_address: { kind: 'address' }, direction: { kind: 'direction3' }, ...WINDOW, ...PAGE_SORT,
    },
    response: listOf(S.NFTTransfer, 'nft_transfers'),
    async handler(ctx) {
      const { q } = ctx;
      const owners = [...(q.owner_address ?? []), ...(q.address ? [q.address] : [])];
      const rows = await nftTransfers(ctx.db, { ...q, owners }, pageOf(q));
      const items = rows.map(nftTransferJson);
      return withBook(ctx, 'nft_transfers', items, items.flatMap((i) => [i.nft_address as string, i.nft_collection, i.old_owner as string, i.new_owner as string, i.response_destination]));
    },
  });

  addRoute(app, deps, {
    url: '/nft/sales',
    tags: ['nfts'],
    summary: 'NFT sale contracts: getgems fix-price sales and auctions, telemint items',
    description:
      'address (sale / auction / telemint item contracts) is required. Each sale has its type-specific details and, when the item is indexed, ' +
      'the NFT item with its collection. Order: address (sort, default asc), paged by limit / offset.',
    params: { address: { kind: 'address[]', required: true, description: 'sale, auction or telemint item contracts (repeat the parameter)' }, ...PAGE_SORT },
    response: listOf(S.NFTSale, 'nft_sales'),
    async handler(ctx) {
      const { sales, items: held } = await nftSales(ctx.db, ctx.q.address, pageOf(ctx.q, 'asc'));
      const itemMap = new Map(held.items.map((r) => [r.address as string, nftItemJson(r, held)]));
      const items = sales.map((r) => nftSaleJson(r, itemMap.get(r.nft_address as string)));
      const details = (i: Record<string, unknown>) => Object.entries(i.details as Record<string, unknown>)
        .filter(([k, v]) => typeof v === 'string' && /(_address|_member|_destination)$/.test(k)).map(([, v]) => v as string);
      return withBook(ctx, 'nft_sales', items, items.flatMap((i) => {
        const item = i.nft_item as Record<string, unknown> | undefined;
        return [i.address, i.nft_address, i.nft_owner_address, i.marketplace_address, ...details(i), item?.collection_address, item?.owner_address] as (string | null | undefined)[];
      }));
    },
  });
}

/** DNS records and auctions. */
function dnsRoutes(app: FastifyInstance, deps: V3Deps): void {
  addRoute(app, deps, {
    url: '/dns/records',
    tags: ['dns'],
    summary: 'DNS records by wallet or domain',
    description: 'Give exactly one of wallet, domain. Order: domain length, then domain (sort, default asc).',
    params: { wallet: { kind: 'address' }, domain: { kind: 'string' }, ...PAGE_SORT },
    response: listOf(S.DNSRecord, 'records', false),
    async handler(ctx) {
      const { q } = ctx;
      if (q.wallet === undefined && q.domain === undefined) throw new ApiError(422, 'either wallet address or domain is required');
      if (q.wallet !== undefined && q.domain !== undefined) throw new ApiError(422, 'provide either wallet address or domain, not both');
      const rows = await dnsRecords(ctx.db, q, pageOf(q, 'asc'));
      const items = rows.map(dnsRecordJson);
      return withBook(ctx, 'records', items, items.flatMap((i) => [i.nft_item_address as string, i.nft_item_owner, i.dns_wallet]), false);
    },
  });


  addRoute(app, deps, {
    url: '/dns/activeAuctions',
    tags: ['dns'],
    summary: 'DNS auctions by their leading bidder',
    description:
      'Auctions of .ton items where bidder is the current leading bidder: bidding (running), won (ended, not claimed yet) or all; a claimed ' +
      'auction is no longer returned. Order: auction_end_time, then item address, ascending. A full page carries next_cursor: send it ' +
      'back as after for the rows after it (not with offset). include_nft_items adds each item with its collection.',
    params: {
      bidder: { kind: 'address', description: 'address of the current leading bidder (required)' },
      state: { kind: 'string', description: 'all (default), won or bidding' },
      include_nft_items: { kind: 'bool', default: false },
      after: { kind: 'string', description: 'next_cursor of the previous page: rows strictly after it' },
      ...PAGE,
    },
    response: S.DNSAuctionsResponse,
    async handler(ctx) {
      const { q } = ctx;
      if (q.bidder === undefined) throw new ApiError(422, 'bidder address is required');
      const state = q.state ?? 'all';
      if (state !== 'all' && state !== 'won' && state !== 'bidding') throw new ApiError(422, 'state must be one of: all, won, bidding');
      if (q.after !== undefined && (q.offset ?? 0) > 0) throw new ApiError(422, 'use either after or offset, not both');
      const after = q.after === undefined ? undefined : decodeAuctionCursor(q.after);
      const pg = pageOf(q, 'asc');
      const now = Math.floor(Date.now() / 1000);
      const rows = await dnsAuctions(ctx.db, { bidder: q.bidder, state, after, now }, pg);
      // the cursor follows the page as read (the reference's "raw fetched page")
      const last = rows.at(-1);
      const next_cursor = rows.length === (q.limit ?? DEFAULT_LIMIT) && last ? encodeAuctionCursor(BigInt(last.auction_end_time as string), last.nft_item_address as string) : undefined;
      const auctions = rows.map((r) => dnsAuctionJson(r, now));
      if (q.include_nft_items && auctions.length) await attachNftItems(ctx, auctions);
      // the address book names the items and bidders; metadata: the items and, when attached, their collections
      const address_book = ctx.noBook ? {} : await bookOf(ctx.db, auctions.flatMap((a) => [a.nft_item_address as string, a.max_bid_address as string]), ctx.testnet);
      const metaAddrs = auctions.flatMap((a) => [a.nft_item_address as string, ((a.nft_item as Record<string, unknown> | undefined)?.collection_address as string | null) ?? null]);
      const metadata = ctx.noMeta ? {} : await metadataOf(ctx.db, metaAddrs);
      return next_cursor === undefined ? { auctions, address_book, metadata } : { auctions, address_book, metadata, next_cursor };
    },
  });
}

/** Multisig wallets and their orders. */
function multisigRoutes(app: FastifyInstance, deps: V3Deps): void {
  addRoute(app, deps, {
    url: '/multisig/wallets',
    tags: ['multisig'],
    summary: 'Multisig wallets by address or by signer/proposer',
    description: 'Order: address (sort default desc).',
    params: { address: { kind: 'address[]' }, wallet_address: { kind: 'address[]' }, include_orders: { kind: 'bool', default: true }, ...PAGE_SORT },
    response: listOf(S.Multisig, 'multisigs', false),
    async handler(ctx) {
      const { q } = ctx;
      if (!q.address?.length && !q.wallet_address?.length) {
        throw new ApiError(422, 'At least one of address or wallet_address should be specified');
      }
      const { wallets, orders } = await multisigWallets(ctx.db, q, pageOf(q));
      const items = wallets.map((r) => multisigJson(r, orders));
      return withBook(ctx, 'multisigs', items, items.flatMap((i) => [i.address as string, ...(i.signers as string[]), ...(i.proposers as string[])] as string[]), false);
    },
  });

  addRoute(app, deps, {
    url: '/multisig/orders',
    tags: ['multisig'],
    summary: 'Multisig orders by address or multisig',
    description: 'Order: address (sort default desc). parse_actions=true lists each order action (message to send with its decoded body, or new multisig parameters).',
    params: { address: { kind: 'address[]' }, multisig_address: { kind: 'address[]' }, parse_actions: { kind: 'bool', default: false, description: 'decode the actions of each order (order_boc)' }, ...PAGE_SORT },
    response: listOf(S.MultisigOrder, 'orders', false),
    async handler(ctx) {
      const { q } = ctx;
      if (!q.address?.length && !q.multisig_address?.length) {
        throw new ApiError(422, 'At least one of address or multisig_address should be specified');
      }
      const rows = await multisigOrders(ctx.db, q, pageOf(q));
      const items = rows.map((r) => orderJson(r, q.parse_actions));
      return withBook(ctx, 'orders', items, items.flatMap((i) => [i.address as string, i.multisig_address as string, ...i.signers]), false);
    },
  });
}

/** Vesting contracts. */
function vestingRoutes(app: FastifyInstance, deps: V3Deps): void {
  addRoute(app, deps, {
    url: '/vesting',
    tags: ['vesting'],
    summary: 'Vesting contracts by contract or by owner/sender wallet',
    description: 'Give exactly one of contract_address, wallet_address. Order: address (sort, default asc).',
    params: { contract_address: { kind: 'address[]' }, wallet_address: { kind: 'address[]' }, check_whitelist: { kind: 'bool', default: false }, ...PAGE_SORT },
    response: listOf(S.VestingInfo, 'vesting_contracts', false),
    async handler(ctx) {
      const { q } = ctx;
      if (!q.contract_address?.length && !q.wallet_address?.length) throw new ApiError(422, 'at least one of contract_address or wallet_address is required');
      if (q.contract_address?.length && q.wallet_address?.length) throw new ApiError(422, 'only one of contract_address or wallet_address should be specified');
      const rows = await vestingContracts(ctx.db, q, pageOf(q, 'asc'));
      const items = rows.map(vestingJson);
      return withBook(ctx, 'vesting_contracts', items, items.flatMap((i) => [i.address as string, i.sender_address as string, i.owner_address as string]), false);
    },
  });
}

/** include_nft_items: each auction's item (with its collection), where the item is indexed. */
async function attachNftItems(ctx: Ctx<unknown>, auctions: Record<string, unknown>[]): Promise<void> {
  const addrs = [...new Set(auctions.map((a) => a.nft_item_address as string))];
  const found = await nftItems(ctx.db, { address: addrs, include_on_sale: false, sort_by_last_transaction_lt: false }, { limit: addrs.length, offset: 0, dir: 'ASC' });
  const byAddr = new Map(found.items.map((r) => [r.address as string, nftItemJson(r, found)]));
  for (const a of auctions) {
    const item = byAddr.get(a.nft_item_address as string);
    if (item) a.nft_item = item;
  }
}

/**
 * The reference's DNS auction cursor: "{auction_end_time, 20 digits}:{item address}" in unpadded base64url. Anything
 * else is 422 "invalid after cursor", as there.
 */
export function encodeAuctionCursor(endTime: bigint, item: string): string {
  return Buffer.from(`${endTime.toString().padStart(20, '0')}:${item}`).toString('base64url');
}

function decodeAuctionCursor(cursor: string): { endTime: bigint; item: string } {
  const bad = () => new ApiError(422, 'invalid after cursor');
  if (!/^[A-Za-z0-9_-]*$/.test(cursor) || cursor.length % 4 === 1) throw bad();
  const member = Buffer.from(cursor, 'base64url').toString('latin1');
  if (member.length < 22 || member[20] !== ':' || !/^\d{20}$/.test(member.slice(0, 20))) throw bad();
  const endTime = BigInt(member.slice(0, 20));
  if (endTime > (1n << 63n) - 1n) throw bad();
  return { endTime, item: member.slice(21) };
}

/** `{ <key>: [item], address_book, metadata? }` response schema. */
function listOf(item: z.ZodType, key: string, meta = true): z.ZodType {
  return z.object(meta ? { [key]: z.array(item), address_book: S.AddressBook, metadata: S.Metadata } : { [key]: z.array(item), address_book: S.AddressBook });
}
