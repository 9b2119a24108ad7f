/** Jettons, NFTs, DNS, multisig and vesting (reference §2.5-2.8), read from the entity tables. */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import * as S from '../../../../schemas/api/v3/entities.ts';
import { parseOrderActions } from '../../../contracts/index.ts';
import { ApiError } from '../../errors.ts';
import { bookAndMetadata } from '../address-book.ts';
import type { Ctx } from '../route.ts';
import type { Row } from '../db.ts';
import { PAGE_SORT, pageOf, type Parsed, type ParamSpec } from '../params.ts';
import { decodeMessageBody } from '../decode/index.ts';
import { b64, num, str } from '../render.ts';

/** decoded_forward_payload / decoded_custom_payload: the payload cell decoded as /decode does (null: nothing matches). */
function decodedPayload(boc: unknown): Record<string, unknown> | null {
  return typeof boc === 'string' && boc ? decodeMessageBody(boc) : null;
}
import { addRoute, type V3Deps } from '../route.ts';

function json(v: unknown): Record<string, unknown> {
  if (typeof v !== 'string' || v === '') return {};
  try {
    const o = JSON.parse(v) as unknown;
    return o && typeof o === 'object' && !Array.isArray(o) ? (o as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Collects WHERE conditions with bound parameters. */
class Where {
  readonly c: string[] = [];
  readonly p: Record<string, unknown> = {};
  private n = 0;
  add(sqlWithQ: (name: string) => string, v: unknown, type: string): this {
    if (v === undefined || (Array.isArray(v) && v.length === 0)) return this;
    const name = `w${this.n++}`;
    this.p[name] = v;
    this.c.push(sqlWithQ(`{${name}:${type}}`));
    return this;
  }
  raw(cond: string): this {
    this.c.push(cond);
    return this;
  }
  sql(): string {
    return this.c.length ? 'WHERE ' + this.c.join(' AND ') : '';
  }
}

async function withBook(ctx: Ctx, key: string, items: Record<string, unknown>[], addrs: (string | null | undefined)[], meta = true) {
  const { address_book, metadata } = await bookAndMetadata(ctx, addrs, { metadata: meta });
  return meta ? { [key]: items, address_book, metadata } : { [key]: items, address_book };
}

function timeWindow(w: Where, q: Parsed, lt: string, now: string): string {
  w.add((x) => `${now} >= ${x}`, q.start_utime, 'UInt32');
  w.add((x) => `${now} <= ${x}`, q.end_utime, 'UInt32');
  w.add((x) => `${lt} >= ${x}`, q.start_lt, 'UInt64');
  w.add((x) => `${lt} <= ${x}`, q.end_lt, 'UInt64');
  return q.start_utime !== undefined || q.end_utime !== undefined ? now : lt;
}

const WINDOW: ParamSpec = { start_utime: { kind: 'utime' }, end_utime: { kind: 'utime' }, start_lt: { kind: 'uint64' }, end_lt: { kind: 'uint64' } };
const A = 'Array(String)';

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

function nftCollectionJson(r: Row) {
  return {
    address: r.address, owner_address: str(r.owner_address), last_transaction_lt: str(r.last_transaction_lt),
    next_item_index: str(r.next_item_index), collection_content: json(r.collection_content), data_hash: b64(r.data_hash), code_hash: b64(r.code_hash),
  };
}

/** Collections of NFT item rows, by address. */
async function collectionsOf(ctx: Ctx, items: Row[]): Promise<Map<string, ReturnType<typeof nftCollectionJson>>> {
  const addrs = [...new Set(items.map((r) => r.collection_address).filter((c): c is string => typeof c === 'string'))];
  const rows = addrs.length ? await ctx.db.q('SELECT * FROM nft_collections FINAL WHERE address IN {a:Array(String)}', { a: addrs }) : [];
  return new Map(rows.map((c) => [c.address as string, nftCollectionJson(c)]));
}

/** Sale contracts holding these items (the item's owner is the sale contract), by item address. */
async function salesOf(ctx: Ctx, items: Row[]): Promise<Map<string, Row>> {
  const owned = items.filter((r) => typeof r.owner_address === 'string');
  if (!owned.length) return new Map();
  const rows = await ctx.db.q(
    'SELECT address, type, nft_address, nft_owner_address FROM nft_sales FINAL WHERE address IN {o:Array(String)} AND nft_address IN {a:Array(String)}',
    { o: owned.map((r) => r.owner_address as string), a: owned.map((r) => r.address as string) },
  );
  return new Map(rows.filter((x) => owned.some((r) => r.address === x.nft_address && r.owner_address === x.address)).map((x) => [x.nft_address as string, x]));
}

function nftItemJson(r: Row, colMap: Map<string, ReturnType<typeof nftCollectionJson>>, sales: Map<string, Row>): Record<string, unknown> {
  const o: Record<string, unknown> = {
    address: r.address, init: Boolean(r.init), index: str(r.index), collection_address: str(r.collection_address), owner_address: str(r.owner_address),
    content: json(r.content), last_transaction_lt: str(r.last_transaction_lt), code_hash: b64(r.code_hash), data_hash: b64(r.data_hash),
    collection: colMap.get(r.collection_address as string) ?? null, on_sale: false,
  };
  const sale = sales.get(r.address as string);
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

function nftSaleJson(r: Row, item: Record<string, unknown> | undefined): Record<string, unknown> {
  const o: Record<string, unknown> = { type: r.type, address: r.address };
  const opt = { nft_address: str(r.nft_address), nft_owner_address: str(r.nft_owner_address), marketplace_address: str(r.marketplace_address),
    created_at: num(r.created_at), last_transaction_lt: str(r.last_transaction_lt), code_hash: b64(r.code_hash), data_hash: b64(r.data_hash) };
  for (const [k, v] of Object.entries(opt)) if (v !== null) o[k] = v;
  o.details = json(r.details);
  if (item) o.nft_item = item;
  return o;
}

export function entityRoutes(app: FastifyInstance, deps: V3Deps): void {
  addRoute(app, deps, {
    url: '/jetton/masters',
    tags: ['jettons'],
    summary: 'Jetton masters',
    description: 'Order: address (sort, default asc).',
    params: { address: { kind: 'address[]' }, admin_address: { kind: 'address[]' }, ...PAGE_SORT },
    response: listOf(S.JettonMaster, 'jetton_masters'),
    async handler(ctx) {
      const { q } = ctx;
      const pg = pageOf(q, 'asc');
      const w = new Where().add((x) => `address IN ${x}`, q.address, A).add((x) => `admin_address IN ${x}`, q.admin_address, A);
      const rows = await ctx.db.q(`SELECT * FROM jetton_masters FINAL ${w.sql()} ORDER BY address ${pg.dir} LIMIT {limit:UInt32} OFFSET {offset:UInt32}`, { ...w.p, limit: pg.limit, offset: pg.offset });
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
      const owners = q.owner_address as string[] | undefined;
      const jettons = q.jetton_address as string[] | undefined;
      if (!(q.address as string[] | undefined)?.length && !owners?.length && !jettons?.length) {
        throw new ApiError(422, 'at least one of address, owner_address, jetton_address is required');
      }
      if ((jettons?.length ?? 0) > 1 && owners?.length !== 1) throw new ApiError(422, 'exact one owner_address required for multiple jetton_address');
      const pg = pageOf(q);
      const w = new Where()
        .add((x) => `address IN ${x}`, q.address, A)
        .add((x) => `owner IN ${x}`, owners, A)
        .add((x) => `jetton IN ${x}`, jettons, A);
      if (q.exclude_zero_balance) w.raw('balance + ifNull(mintless_amount, 0) > 0');
      const order = q.sort ? `balance ${pg.dir}, address ${pg.dir}` : 'address ASC';
      const rows = await ctx.db.q(`SELECT * FROM jetton_wallets FINAL ${w.sql()} ORDER BY ${order} LIMIT {limit:UInt32} OFFSET {offset:UInt32}`, { ...w.p, limit: pg.limit, offset: pg.offset });
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
      const pg = pageOf(q);
      const owners = [...((q.owner_address as string[] | undefined) ?? []), ...(q.address ? [q.address as string] : [])];
      const w = new Where().raw('tx_aborted = false');
      if (owners.length) {
        const dir = q.direction ?? 'both';
        w.add((x) => (dir === 'in' ? `destination IN ${x}` : dir === 'out' ? `source IN ${x}` : `(source IN ${x} OR destination IN ${x})`), owners, A);
      }
      w.add((x) => `jetton_wallet_address IN ${x}`, q.jetton_wallet, A).add((x) => `jetton_master_address = ${x}`, q.jetton_master, 'String');
      const col = timeWindow(w, q, 'tx_lt', 'tx_now');
      // by owner in lt order: the key-value store's list (null: a store that leaves lists to ClickHouse)
      const byOwner =
        owners.length && q.jetton_wallet === undefined && q.jetton_master === undefined && q.start_utime === undefined && q.end_utime === undefined
          ? await ctx.db.points.jettonTransfers(owners, (q.direction as 'in' | 'out' | 'both' | undefined) ?? 'both', {
              startLt: q.start_lt as bigint | undefined,
              endLt: q.end_lt as bigint | undefined,
              dir: pg.dir,
              limit: pg.limit,
              offset: pg.offset,
            })
          : null;
      const rows =
        byOwner ??
        (await ctx.db.q(
          `SELECT * FROM jetton_transfers ${w.sql()} ORDER BY ${col} ${pg.dir}, tx_lt ${pg.dir}, tx_hash ${pg.dir} LIMIT 1 BY tx_lt, tx_hash LIMIT {limit:UInt32} OFFSET {offset:UInt32}`,
          { ...w.p, limit: pg.limit, offset: pg.offset },
        ));
      const items = rows.map((r) => ({
        query_id: str(r.query_id), source: r.source, destination: r.destination, amount: str(r.amount), source_wallet: r.jetton_wallet_address,
        jetton_master: r.jetton_master_address, transaction_hash: b64(r.tx_hash), transaction_lt: str(r.tx_lt), transaction_now: num(r.tx_now),
        transaction_aborted: Boolean(r.tx_aborted), response_destination: str(r.response_destination), custom_payload: str(r.custom_payload),
        decoded_custom_payload: decodedPayload(r.custom_payload), forward_ton_amount: str(r.forward_ton_amount), forward_payload: str(r.forward_payload),
        decoded_forward_payload: decodedPayload(r.forward_payload), trace_id: b64(r.trace_id),
      }));
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
      const pg = pageOf(q);
      // the reference takes `address` only when owner_address is absent
      const owners = (q.owner_address as string[] | undefined) ?? (q.address as string[] | undefined);
      const w = new Where()
        .add((x) => `owner IN ${x}`, owners, A)
        .add((x) => `jetton_wallet_address IN ${x}`, q.jetton_wallet, A)
        .add((x) => `jetton_master_address = ${x}`, q.jetton_master, 'String');
      const col = timeWindow(w, q, 'tx_lt', 'tx_now');
      const rows = await ctx.db.q(
        `SELECT * FROM jetton_burns ${w.sql()} ORDER BY ${col} ${pg.dir}, tx_lt ${pg.dir}, tx_hash ${pg.dir} LIMIT 1 BY tx_lt, tx_hash LIMIT {limit:UInt32} OFFSET {offset:UInt32}`,
        { ...w.p, limit: pg.limit, offset: pg.offset },
      );
      const items = rows.map((r) => ({
        query_id: str(r.query_id), owner: r.owner, jetton_wallet: r.jetton_wallet_address, jetton_master: r.jetton_master_address,
        transaction_hash: b64(r.tx_hash), transaction_lt: str(r.tx_lt), transaction_now: num(r.tx_now), transaction_aborted: Boolean(r.tx_aborted),
        amount: str(r.amount), response_destination: str(r.response_destination), custom_payload: str(r.custom_payload), decoded_custom_payload: decodedPayload(r.custom_payload),
        trace_id: b64(r.trace_id),
      }));
      return withBook(ctx, 'jetton_burns', items, items.flatMap((i) => [i.owner as string, i.jetton_wallet as string, i.jetton_master as string, i.response_destination]));
    },
  });

  addRoute(app, deps, {
    url: '/nft/collections',
    tags: ['nfts'],
    summary: 'NFT collections',
    description: 'Order: address (sort, default asc).',
    params: { collection_address: { kind: 'address[]' }, owner_address: { kind: 'address[]' }, ...PAGE_SORT },
    response: listOf(S.NFTCollection, 'nft_collections'),
    async handler(ctx) {
      const { q } = ctx;
      const pg = pageOf(q, 'asc');
      const w = new Where().add((x) => `address IN ${x}`, q.collection_address, A).add((x) => `owner_address IN ${x}`, q.owner_address, A);
      const rows = await ctx.db.q(`SELECT * FROM nft_collections FINAL ${w.sql()} ORDER BY address ${pg.dir} LIMIT {limit:UInt32} OFFSET {offset:UInt32}`, { ...w.p, limit: pg.limit, offset: pg.offset });
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
      const owners = q.owner_address as string[] | undefined;
      const cols = q.collection_address as string[] | undefined;
      if ((cols?.length ?? 0) > 1 && owners?.length !== 1) throw new ApiError(422, 'exact one owner_address required for multiple collection_address');
      if ((q.index as unknown[] | undefined)?.length && !cols?.length) throw new ApiError(422, 'index parameter is not allowed without the collection_address');
      const w = new Where()
        .add((x) => `address IN ${x}`, q.address, A)
        // on sale: the item belongs to a sale contract whose seller is the owner asked for
        .add((x) => (q.include_on_sale
          ? `(ifNull(real_owner, owner_address) IN ${x} OR (address, ifNull(owner_address, '')) IN (SELECT assumeNotNull(nft_address), address FROM nft_sales FINAL WHERE nft_owner_address IN ${x} AND nft_address IS NOT NULL))`
          : `owner_address IN ${x}`), owners, A)
        .add((x) => `collection_address IN ${x}`, cols, A)
        .add((x) => `\`index\` IN ${x}`, q.index, 'Array(UInt256)');
      const d = q.sort_by_last_transaction_lt ? (q.sort === 'asc' ? 'ASC' : 'DESC') : pg.dir;
      const cols0 = q.sort_by_last_transaction_lt
        ? ['last_transaction_lt', 'address']
        : owners?.length ? ['owner_address', 'collection_address', '`index`', 'address'] : cols?.length ? ['collection_address', '`index`', 'address'] : ['address'];
      const order = cols0.map((c) => `${c} ${d}`).join(', ');
      const rows = await ctx.db.q(`SELECT * FROM nft_items FINAL ${w.sql()} ORDER BY ${order} LIMIT {limit:UInt32} OFFSET {offset:UInt32}`, { ...w.p, limit: pg.limit, offset: pg.offset });
      const [colMap, sales] = await Promise.all([collectionsOf(ctx, rows), salesOf(ctx, rows)]);
      const items = rows.map((r) => nftItemJson(r, colMap, sales));
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
      const pg = pageOf(q);
      const owners = [...((q.owner_address as string[] | undefined) ?? []), ...(q.address ? [q.address as string] : [])];
      const w = new Where();
      if (owners.length) {
        const dir = q.direction ?? 'both';
        w.add((x) => (dir === 'in' ? `new_owner IN ${x}` : dir === 'out' ? `old_owner IN ${x}` : `(old_owner IN ${x} OR new_owner IN ${x})`), owners, A);
      }
      w.add((x) => `nft_item_address IN ${x}`, q.item_address, A).add((x) => `nft_collection_address = ${x}`, q.collection_address, 'String');
      const col = timeWindow(w, q, 'tx_lt', 'tx_now');
      const rows = await ctx.db.q(
        `SELECT * FROM nft_transfers ${w.sql()} ORDER BY ${col} ${pg.dir}, tx_lt ${pg.dir}, tx_hash ${pg.dir} LIMIT 1 BY tx_lt, tx_hash LIMIT {limit:UInt32} OFFSET {offset:UInt32}`,
        { ...w.p, limit: pg.limit, offset: pg.offset },
      );
      const items = rows.map((r) => ({
        query_id: str(r.query_id), nft_address: r.nft_item_address, nft_collection: str(r.nft_collection_address), transaction_hash: b64(r.tx_hash),
        transaction_lt: str(r.tx_lt), transaction_now: num(r.tx_now), transaction_aborted: Boolean(r.tx_aborted), old_owner: r.old_owner, new_owner: r.new_owner,
        response_destination: str(r.response_destination), custom_payload: str(r.custom_payload), decoded_custom_payload: decodedPayload(r.custom_payload),
        forward_amount: str(r.forward_amount), forward_payload: str(r.forward_payload), decoded_forward_payload: decodedPayload(r.forward_payload), trace_id: b64(r.trace_id),
      }));
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
      const pg = pageOf(ctx.q, 'asc');
      const rows = await ctx.db.q(`SELECT * FROM nft_sales FINAL WHERE address IN {a:Array(String)} ORDER BY address ${pg.dir} LIMIT {limit:UInt32} OFFSET {offset:UInt32}`, {
        a: ctx.q.address as string[],
        limit: pg.limit,
        offset: pg.offset,
      });
      const nfts = [...new Set(rows.map((r) => r.nft_address).filter((a): a is string => typeof a === 'string'))];
      const itemRows = nfts.length ? await ctx.db.q('SELECT * FROM nft_items FINAL WHERE address IN {a:Array(String)}', { a: nfts }) : [];
      const [colMap, sales] = await Promise.all([collectionsOf(ctx, itemRows), salesOf(ctx, itemRows)]);
      const itemMap = new Map(itemRows.map((r) => [r.address as string, nftItemJson(r, colMap, sales)]));
      const items = rows.map((r) => nftSaleJson(r, itemMap.get(r.nft_address as string)));
      const details = (i: Record<string, unknown>) => Object.entries(i.details as Record<string, unknown>)
        .filter(([k, v]) => typeof v === 'string' && /(_address|_member|_destination)$/.test(k)).map(([, v]) => v as string);
      return withBook(ctx, 'nft_sales', items, items.flatMap((i) => {
        const item = i.nft_item as Record<string, unknown> | undefined;
        return [i.address, i.nft_address, i.nft_owner_address, i.marketplace_address, ...details(i), item?.collection_address, item?.owner_address] as (string | null | undefined)[];
      }));
    },
  });

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
      const pg = pageOf(q, 'asc');
      const w = new Where().add((x) => `dns_wallet = ${x}`, q.wallet, 'String').add((x) => `domain = ${x}`, q.domain, 'String');
      const rows = await ctx.db.q(`SELECT * FROM dns_entries FINAL ${w.sql()} ORDER BY length(domain) ${pg.dir}, domain ${pg.dir}, nft_item_address ${pg.dir} LIMIT {limit:UInt32} OFFSET {offset:UInt32}`, { ...w.p, limit: pg.limit, offset: pg.offset });
      const items = rows.map((r) => ({
        nft_item_address: r.nft_item_address, nft_item_owner: str(r.nft_item_owner), domain: r.domain, dns_next_resolver: str(r.dns_next_resolver),
        dns_wallet: str(r.dns_wallet), dns_site_adnl: str(r.dns_site_adnl), dns_storage_bag_id: str(r.dns_storage_bag_id),
      }));
      return withBook(ctx, 'records', items, items.flatMap((i) => [i.nft_item_address as string, i.nft_item_owner, i.dns_wallet]), false);
    },
  });

  const orderJson = (r: Row, parse = false) => ({
    address: r.address, multisig_address: r.multisig_address, order_seqno: str(r.order_seqno), threshold: num(r.threshold),
    sent_for_execution: r.sent_for_execution === null ? null : Boolean(r.sent_for_execution), approvals_mask: str(r.approvals_mask),
    approvals_num: num(r.approvals_num), expiration_date: num(r.expiration_date), order_boc: str(r.order_boc), signers: (r.signers as string[]) ?? [],
    last_transaction_lt: str(r.last_transaction_lt), code_hash: b64(r.code_hash), data_hash: b64(r.data_hash),
    actions: parse ? parseOrderActions(str(r.order_boc)) : [],
  });

  addRoute(app, deps, {
    url: '/multisig/wallets',
    tags: ['multisig'],
    summary: 'Multisig wallets by address or by signer/proposer',
    description: 'Order: address (sort default desc).',
    params: { address: { kind: 'address[]' }, wallet_address: { kind: 'address[]' }, include_orders: { kind: 'bool', default: true }, ...PAGE_SORT },
    response: listOf(S.Multisig, 'multisigs', false),
    async handler(ctx) {
      const { q } = ctx;
      if (!(q.address as string[] | undefined)?.length && !(q.wallet_address as string[] | undefined)?.length) {
        throw new ApiError(422, 'At least one of address or wallet_address should be specified');
      }
      const pg = pageOf(q);
      const w = new Where()
        .add((x) => `address IN ${x}`, q.address, A)
        .add((x) => `(hasAny(signers, ${x}) OR hasAny(proposers, ${x}))`, q.wallet_address, A);
      const rows = await ctx.db.q(`SELECT * FROM multisig FINAL ${w.sql()} ORDER BY address ${pg.dir} LIMIT {limit:UInt32} OFFSET {offset:UInt32}`, { ...w.p, limit: pg.limit, offset: pg.offset });
      const addrs = rows.map((r) => r.address as string);
      const orders = q.include_orders !== false && addrs.length
        ? await ctx.db.q('SELECT * FROM multisig_orders FINAL WHERE multisig_address IN {a:Array(String)} ORDER BY order_seqno', { a: addrs })
        : [];
      const items = rows.map((r) => ({
        address: r.address, next_order_seqno: str(r.next_order_seqno), threshold: num(r.threshold), signers: r.signers ?? [], proposers: r.proposers ?? [],
        last_transaction_lt: str(r.last_transaction_lt), code_hash: b64(r.code_hash), data_hash: b64(r.data_hash),
        orders: q.include_orders === false ? null : orders.filter((o) => o.multisig_address === r.address).map((o) => orderJson(o)),
      }));
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
      if (!(q.address as string[] | undefined)?.length && !(q.multisig_address as string[] | undefined)?.length) {
        throw new ApiError(422, 'At least one of address or multisig_address should be specified');
      }
      const pg = pageOf(q);
      const w = new Where().add((x) => `address IN ${x}`, q.address, A).add((x) => `multisig_address IN ${x}`, q.multisig_address, A);
      const rows = await ctx.db.q(`SELECT * FROM multisig_orders FINAL ${w.sql()} ORDER BY address ${pg.dir} LIMIT {limit:UInt32} OFFSET {offset:UInt32}`, { ...w.p, limit: pg.limit, offset: pg.offset });
      const items = rows.map((r) => orderJson(r, q.parse_actions === true));
      return withBook(ctx, 'orders', items, items.flatMap((i) => [i.address as string, i.multisig_address as string, ...i.signers]), false);
    },
  });

  addRoute(app, deps, {
    url: '/vesting',
    tags: ['vesting'],
    summary: 'Vesting contracts by contract or by owner/sender wallet',
    description: 'Give exactly one of contract_address, wallet_address. Order: address (sort, default asc).',
    params: { contract_address: { kind: 'address[]' }, wallet_address: { kind: 'address[]' }, check_whitelist: { kind: 'bool', default: false }, ...PAGE_SORT },
    response: listOf(S.VestingInfo, 'vesting_contracts', false),
    async handler(ctx) {
      const { q } = ctx;
      const c = q.contract_address as string[] | undefined;
      const wa = q.wallet_address as string[] | undefined;
      if (!c?.length && !wa?.length) throw new ApiError(422, 'at least one of contract_address or wallet_address is required');
      if (c?.length && wa?.length) throw new ApiError(422, 'only one of contract_address or wallet_address should be specified');
      const pg = pageOf(q, 'asc');
      const w = new Where()
        .add((x) => `address IN ${x}`, c, A)
        .add((x) => (q.check_whitelist ? `(owner_address IN ${x} OR vesting_sender_address IN ${x} OR hasAny(whitelist, ${x}))` : `(owner_address IN ${x} OR vesting_sender_address IN ${x})`), wa, A);
      const rows = await ctx.db.q(`SELECT * FROM vesting_contracts FINAL ${w.sql()} ORDER BY address ${pg.dir} LIMIT {limit:UInt32} OFFSET {offset:UInt32}`, { ...w.p, limit: pg.limit, offset: pg.offset });
      const items = rows.map((r) => ({
        address: r.address, start_time: num(r.vesting_start_time), total_duration: num(r.vesting_total_duration), unlock_period: num(r.unlock_period),
        cliff_duration: num(r.cliff_duration), sender_address: r.vesting_sender_address, owner_address: r.owner_address, total_amount: str(r.vesting_total_amount),
        whitelist: (r.whitelist as string[]) ?? [],
      }));
      return withBook(ctx, 'vesting_contracts', items, items.flatMap((i) => [i.address as string, i.sender_address as string, i.owner_address as string]), false);
    },
  });
}

/** `{ <key>: [item], address_book, metadata? }` response schema. */
function listOf(item: z.ZodType, key: string, meta = true): z.ZodType {
  return z.object(meta ? { [key]: z.array(item), address_book: S.AddressBook, metadata: S.Metadata } : { [key]: z.array(item), address_book: S.AddressBook });
}
