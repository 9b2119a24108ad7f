/**
 * TON DNS entries: NFT items of the `.ton` roots (ton-blockchain/dns-contract) and of the `t.me` root (Telegram
 * usernames, telemint), as toncenter's worker derives them (`NftItemDetectorR::process_domain_and_dns_data`):
 * - the item belongs to one of the known roots (`get_nft_data` collection), so that arbitrary collections
 *   answering dnsresolve cannot claim `.ton` names;
 * - domain: `get_domain` + ".ton", or `get_full_domain` ("me\0t\0alice\0" -> "alice.t.me");
 * - records: `dnsresolve("\0", 0)` returns the whole record set, a HashmapE 256 keyed by sha256 of the
 *   category name: "wallet" (dns_smc_address#9fd3), "dns_next_resolver" (dns_next_resolver#ba93),
 *   "site" (dns_adnl_address#ad01, hex), "storage" (dns_storage_address#7473, hex bag id);
 * - the auction (v1.3, `get_auction_info` / `get_last_fill_up_time`, read for items of both roots as the worker does):
 *   the leading bidder, the bid and the end time of an auction running or ended and not yet claimed (max_bid_address
 *   addr_none: no auction), and the time of the last fill-up. A failing getter (a t.me item has neither) leaves its
 *   columns NULL, as the worker leaves them unset; an end time or fill-up time outside [0, 2^40) is such a failure.
 */
import { beginCell, type Cell, type Slice } from '@ton/core';
import { fullDomainToName, parseDnsRecords, type DnsRecords } from '../contracts/index.ts';
import type { ContractReader } from './contract-reader.ts';
import type { EntityRow, FamilyInput } from './family.ts';

export const DOT_TON_ROOTS: ReadonlySet<string> = new Set([
  '0:B774D95EB20543F186C06B371AB88AD704F7E256130CAF96189368A7D0CB6CCF', // mainnet
  '0:E33ED33A42EB2032059F97D90C706F8400BB256D32139CA707F1564AD699C7DD', // testnet
]);
export const T_ME_ROOT = '0:80D78A35F955A14B679FAA887FF4CD5BFC0F43B4A4EEA2A7E6927F3701B273C2';

function sliceBytes(s: Slice): Buffer {
  if (s.remainingBits % 8 !== 0) throw new Error('domain is not whole bytes');
  return s.loadBuffer(s.remainingBits / 8);
}

async function domainOf(r: ContractReader, collection: string): Promise<string | null> {
  try {
    if (DOT_TON_ROOTS.has(collection)) return sliceBytes((await r.get('get_domain')).slice(0)).toString('utf8') + '.ton';
    return fullDomainToName(sliceBytes((await r.get('get_full_domain')).slice(0)));
  } catch {
    return null; // the domain cell is pruned (it never changes after mint): the previous row has it
  }
}

async function recordsOf(r: ContractReader): Promise<DnsRecords | null> {
  try {
    const s = await r.get('dnsresolve', [{ type: 'slice', cell: beginCell().storeUint(0, 8).endCell() }, { type: 'int', value: 0n }]);
    if (s.int(0) !== 8n) return null;
    const c = s.cell(1);
    if (c && r.touchesPruned(c)) return null;
    return parseDnsRecords(c);
  } catch {
    return null; // the record set is pruned in this block
  }
}

const TIME_BOUND = 1n << 40n;

interface AuctionInfo {
  max_bid_address: string | null;
  max_bid_amount: bigint | null;
  auction_end_time: bigint | null;
}

const NO_AUCTION: AuctionInfo = { max_bid_address: null, max_bid_amount: null, auction_end_time: null };

/**
 * `get_auction_info`; null when the auction cell (the item data's third reference, `load_dict` in nft-item.fc) is a
 * subtree the block pruned: its values are then the previous row's.
 */
async function auctionOf(r: ContractReader, data: Cell): Promise<AuctionInfo | null> {
  if (!r.hasMethod('get_auction_info')) return NO_AUCTION;
  const auctionCell = data.refs[2];
  if (auctionCell && r.touchesPruned(r.data.refs[2])) return null;
  try {
    const s = await r.get('get_auction_info');
    const bidder = s.slice(0);
    if (bidder.remainingBits === 2 && bidder.preloadUint(2) === 0) return NO_AUCTION;
    const address = s.address(0);
    const end = s.int(2);
    if (!address || end < 0n || end >= TIME_BOUND) return NO_AUCTION;
    return { max_bid_address: address, max_bid_amount: s.int(1), auction_end_time: end };
  } catch {
    return NO_AUCTION;
  }
}

/** `get_last_fill_up_time` (a root field of the data, never pruned when the data changed); NULL when it fails or is out of range. */
async function lastFillUpOf(r: ContractReader): Promise<bigint | null> {
  if (!r.hasMethod('get_last_fill_up_time')) return null;
  try {
    const v = (await r.get('get_last_fill_up_time')).int(0);
    return v >= 0n && v < TIME_BOUND ? v : null;
  } catch {
    return null;
  }
}

export async function readDnsEntry({ state, data, reader }: FamilyInput): Promise<EntityRow | null> {
  if (!reader) return null;
  const nft = await reader.get('get_nft_data');
  const collection = nft.address(2);
  if (!collection || !(DOT_TON_ROOTS.has(collection) || collection === T_ME_ROOT)) return null;
  const [domain, records, auction, lastFillUp] = await Promise.all([domainOf(reader, collection), recordsOf(reader), auctionOf(reader, data), lastFillUpOf(reader)]);
  const unknown: string[] = [];
  if (domain === null) unknown.push('domain');
  if (records === null) unknown.push('dns_wallet', 'dns_next_resolver', 'dns_site_adnl', 'dns_storage_bag_id');
  if (auction === null) unknown.push('max_bid_address', 'max_bid_amount', 'auction_end_time');
  return {
    table: 'dns_entries',
    row: {
      nft_item_address: state.account,
      nft_item_owner: nft.address(3),
      domain: domain ?? '',
      ...(records ?? { dns_wallet: null, dns_next_resolver: null, dns_site_adnl: null, dns_storage_bag_id: null }),
      ...(auction ?? NO_AUCTION),
      last_fill_up_time: lastFillUp,
      last_transaction_lt: state.last_trans_lt,
    },
    unknown,
  };
}
