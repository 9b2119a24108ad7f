/** DNS records, multisig wallets and orders, vesting contracts (reference §2.7-2.8), from the entity tables. */
import type { Db, Row } from '../db.ts';
import type { Page } from '../params.ts';
import { ADDRESSES as A, selectPage, Where } from './where.ts';

export interface DnsRecordFilter {
  wallet?: string;
  domain?: string;
}

/** DNS entries by wallet or domain, ordered by domain length, domain, item in `pg.dir`, paged. */
export async function dnsRecords(db: Db, f: DnsRecordFilter, pg: Page): Promise<Row[]> {
  const w = new Where().add((x) => `dns_wallet = ${x}`, f.wallet, 'String').add((x) => `domain = ${x}`, f.domain, 'String');
  return selectPage(db, 'dns_entries', w, `length(domain) ${pg.dir}, domain ${pg.dir}, nft_item_address ${pg.dir}`, pg);
}

export interface DnsAuctionFilter {
  bidder: string;
  state: 'all' | 'won' | 'bidding';
  /** Rows strictly after this (auction_end_time, nft_item_address). */
  after?: { endTime: bigint; item: string };
  /** Unix time that tells won (ended) from bidding auctions. */
  now: number;
}

/**
 * DNS entries whose auction `bidder` leads (running, or ended and not claimed), ordered by end time then item
 * address, ascending (the reference's order and cursor), paged.
 */
export async function dnsAuctions(db: Db, f: DnsAuctionFilter, pg: Page): Promise<Row[]> {
  const w = new Where().add((x) => `max_bid_address = ${x}`, f.bidder, 'String').raw('auction_end_time IS NOT NULL');
  if (f.state === 'won') w.add((x) => `auction_end_time <= ${x}`, f.now, 'UInt64');
  if (f.state === 'bidding') w.add((x) => `auction_end_time > ${x}`, f.now, 'UInt64');
  if (f.after) {
    w.p.after_t = f.after.endTime;
    w.p.after_a = f.after.item;
    w.raw('(auction_end_time > {after_t:UInt64} OR (auction_end_time = {after_t:UInt64} AND nft_item_address > {after_a:String}))');
  }
  return selectPage(db, 'dns_entries', w, 'auction_end_time ASC, nft_item_address ASC', pg);
}

export interface MultisigFilter {
  address?: string[];
  /** Signers or proposers. */
  wallet_address?: string[];
  include_orders: boolean;
}

/** Multisig wallets by address or member, ordered by address in `pg.dir`, paged; with their orders (by seqno) when asked. */
export async function multisigWallets(db: Db, f: MultisigFilter, pg: Page): Promise<{ wallets: Row[]; orders: Row[] | null }> {
  const w = new Where()
    .add((x) => `address IN ${x}`, f.address, A)
    .add((x) => `(hasAny(signers, ${x}) OR hasAny(proposers, ${x}))`, f.wallet_address, A);
  const wallets = await selectPage(db, 'multisig', w, `address ${pg.dir}`, pg);
  if (!f.include_orders) return { wallets, orders: null };
  const addrs = wallets.map((r) => r.address as string);
  const orders = addrs.length ? await db.q('SELECT * FROM multisig_orders FINAL WHERE multisig_address IN {a:Array(String)} ORDER BY order_seqno', { a: addrs }) : [];
  return { wallets, orders };
}

export interface MultisigOrderFilter {
  address?: string[];
  multisig_address?: string[];
}

/** Multisig orders by address or multisig, ordered by address in `pg.dir`, paged. */
export async function multisigOrders(db: Db, f: MultisigOrderFilter, pg: Page): Promise<Row[]> {
  const w = new Where().add((x) => `address IN ${x}`, f.address, A).add((x) => `multisig_address IN ${x}`, f.multisig_address, A);
  return selectPage(db, 'multisig_orders', w, `address ${pg.dir}`, pg);
}

export interface VestingFilter {
  contract_address?: string[];
  /** Owners or senders (and whitelisted wallets with check_whitelist). */
  wallet_address?: string[];
  check_whitelist: boolean;
}

/** Vesting contracts by contract or wallet, ordered by address in `pg.dir`, paged. */
export async function vestingContracts(db: Db, f: VestingFilter, pg: Page): Promise<Row[]> {
  const w = new Where()
    .add((x) => `address IN ${x}`, f.contract_address, A)
    .add((x) => (f.check_whitelist ? `(owner_address IN ${x} OR vesting_sender_address IN ${x} OR hasAny(whitelist, ${x}))` : `(owner_address IN ${x} OR vesting_sender_address IN ${x})`), f.wallet_address, A);
  return selectPage(db, 'vesting_contracts', w, `address ${pg.dir}`, pg);
}
