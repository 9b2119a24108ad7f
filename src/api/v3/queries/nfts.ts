/** NFT reads (reference §2.6): collections, items (with their collections and sale contracts), transfers and sales. */
import type { Db, Row } from '../db.ts';
import type { LtWindow, Page } from '../params.ts';
import { ADDRESSES as A, selectPage, timeWindow, Where } from './where.ts';

export interface NftCollectionFilter {
  collection_address?: string[];
  owner_address?: string[];
}

/** NFT collections by address or owner, ordered by address in `pg.dir`, paged. */
export async function nftCollections(db: Db, f: NftCollectionFilter, pg: Page): Promise<Row[]> {
  const w = new Where().add((x) => `address IN ${x}`, f.collection_address, A).add((x) => `owner_address IN ${x}`, f.owner_address, A);
  return selectPage(db, 'nft_collections', w, `address ${pg.dir}`, pg);
}

/** NFT item rows with the rows they refer to: their collections by address, the sale contracts holding them by item address. */
export interface NftItemsWithRefs {
  items: Row[];
  collections: Map<string, Row>;
  sales: Map<string, Row>;
}

/** Collections of NFT item rows, by address. */
async function collectionsOf(db: Db, items: Row[]): Promise<Map<string, Row>> {
  const addrs = [...new Set(items.map((r) => r.collection_address).filter((c): c is string => typeof c === 'string'))];
  const rows = addrs.length ? await db.q('SELECT * FROM nft_collections FINAL WHERE address IN {a:Array(String)}', { a: addrs }) : [];
  return new Map(rows.map((c) => [c.address as string, c]));
}

/** Sale contracts holding these items (the item's owner is the sale contract), by item address. */
async function salesOf(db: Db, items: Row[]): Promise<Map<string, Row>> {
  const owned = items.filter((r) => typeof r.owner_address === 'string');
  if (!owned.length) return new Map();
  const rows = await db.q(
    'SELECT address, type, nft_address, nft_owner_address FROM nft_sales FINAL WHERE address IN {o:Array(String)} AND nft_address IN {a:Array(String)}',
    { o: owned.map((r) => r.owner_address as string), a: owned.map((r) => r.address as string) },
  );
  return new Map(rows.filter((x) => owned.some((r) => r.address === x.nft_address && r.owner_address === x.address)).map((x) => [x.nft_address as string, x]));
}

async function withRefs(db: Db, items: Row[]): Promise<NftItemsWithRefs> {
  const [collections, sales] = await Promise.all([collectionsOf(db, items), salesOf(db, items)]);
  return { items, collections, sales };
}

export interface NftItemFilter {
  address?: string[];
  owner_address?: string[];
  collection_address?: string[];
  index?: bigint[];
  /** owner_address matches the seller of an item held by a sale contract too. */
  include_on_sale: boolean;
  sort_by_last_transaction_lt: boolean;
  sort?: 'asc' | 'desc';
}

/**
 * NFT items: by last transaction lt (desc unless sort=asc), else by owner, collection, index, address (the leading
 * columns given) in `pg.dir`; paged, with their collections and sale contracts.
 */
export async function nftItems(db: Db, f: NftItemFilter, pg: Page): Promise<NftItemsWithRefs> {
  const owners = f.owner_address;
  const cols = f.collection_address;
  const w = new Where()
    .add((x) => `address IN ${x}`, f.address, A)
    // on sale: the item belongs to a sale contract whose seller is the owner asked for
    .add((x) => (f.include_on_sale
      ? `(ifNull(real_owner, owner_address) IN ${x} OR (address, ifNull(owner_address, '')) IN (SELECT assumeNotNull(nft_address), address FROM nft_sales FINAL WHERE nft_owner_address IN ${x} AND nft_address IS NOT NULL))`
      : `owner_address IN ${x}`), owners, A)
    .add((x) => `collection_address IN ${x}`, cols, A)
    .add((x) => `\`index\` IN ${x}`, f.index, 'Array(UInt256)');
  const d = f.sort_by_last_transaction_lt ? (f.sort === 'asc' ? 'ASC' : 'DESC') : pg.dir;
  const orderCols = f.sort_by_last_transaction_lt
    ? ['last_transaction_lt', 'address']
    : owners?.length ? ['owner_address', 'collection_address', '`index`', 'address'] : cols?.length ? ['collection_address', '`index`', 'address'] : ['address'];
  const order = orderCols.map((c) => `${c} ${d}`).join(', ');
  const rows = await selectPage(db, 'nft_items', w, order, pg);
  return withRefs(db, rows);
}

export interface NftTransferFilter extends LtWindow {
  /** Owners (old or new, by `direction`). */
  owners: string[];
  direction?: 'in' | 'out' | 'both';
  item_address?: string[];
  collection_address?: string;
}

/** NFT transfers, ordered by transaction lt (now with a utime bound), then hash, in `pg.dir`, paged. */
export async function nftTransfers(db: Db, f: NftTransferFilter, pg: Page): Promise<Row[]> {
  const w = new Where();
  if (f.owners.length) {
    const dir = f.direction ?? 'both';
    w.add((x) => (dir === 'in' ? `new_owner IN ${x}` : dir === 'out' ? `old_owner IN ${x}` : `(old_owner IN ${x} OR new_owner IN ${x})`), f.owners, A);
  }
  w.add((x) => `nft_item_address IN ${x}`, f.item_address, A).add((x) => `nft_collection_address = ${x}`, f.collection_address, 'String');
  const col = timeWindow(w, f, 'tx_lt', 'tx_now');
  return db.q(
    `SELECT * FROM nft_transfers ${w.sql()} ORDER BY ${col} ${pg.dir}, tx_lt ${pg.dir}, tx_hash ${pg.dir} LIMIT 1 BY tx_lt, tx_hash LIMIT {limit:UInt32} OFFSET {offset:UInt32}`,
    { ...w.p, limit: pg.limit, offset: pg.offset },
  );
}

/** Sale, auction or telemint contracts by address (ordered by address in `pg.dir`, paged), with the items they hold. */
export async function nftSales(db: Db, addresses: string[], pg: Page): Promise<{ sales: Row[]; items: NftItemsWithRefs }> {
  const sales = await db.q(`SELECT * FROM nft_sales FINAL WHERE address IN {a:Array(String)} ORDER BY address ${pg.dir} LIMIT {limit:UInt32} OFFSET {offset:UInt32}`, {
    a: addresses,
    limit: pg.limit,
    offset: pg.offset,
  });
  const nfts = [...new Set(sales.map((r) => r.nft_address).filter((a): a is string => typeof a === 'string'))];
  const itemRows = nfts.length ? await db.q('SELECT * FROM nft_items FINAL WHERE address IN {a:Array(String)}', { a: nfts }) : [];
  return { sales, items: await withRefs(db, itemRows) };
}
