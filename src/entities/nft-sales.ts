/**
 * NFT sales (API v3 `nft/sales`, NFTSale §3): getgems fix-price sales and auctions, and telemint items (Telegram
 * usernames / numbers, each its own auction), through the get-methods toncenter's worker calls
 * (smc-interfaces/NftSale.cpp, NftSaleV4.cpp, Telemint.cpp), result orders as in getgems-io/nft-contracts and
 * TelegramMessenger/telemint:
 *
 *   get_sale_data (v1-v3): magic "FIXP" 0x46495850 -> is_complete, created_at, marketplace, nft, nft_owner,
 *       full_price, marketplace_fee_address, marketplace_fee, royalty_address, royalty_amount;
 *     or magic "AUC" 0x415543 -> end?, end_time, marketplace, nft, nft_owner, last_bid, last_member, min_step,
 *       mp_fee_address, mp_fee_factor, mp_fee_base, royalty_fee_address, royalty_fee_factor, royalty_fee_base,
 *       max_bid, min_bid, created_at, last_bid_at, is_canceled
 *   get_fix_price_data_v4: is_complete, created_at, marketplace, nft, nft_owner, full_price, fee address, fee percent,
 *       royalty address, royalty percent, sold_at, sold_query_id, jetton prices (the percents are x100000 and land in
 *       marketplace_fee / royalty_amount, as the reference stores them)
 *   get_auction_data_v4: activated, end?, end_time, marketplace, nft, nft_owner, last_bid, last_member, min_step,
 *       mp fee address / factor / base, royalty address / factor / base, max_bid, min_bid, created_at,
 *       last_bid_at, is_canceled, step_time, last_query_id, jetton wallet, jetton master, broken?, public key
 *   telemint: get_telemint_token_name, get_telemint_auction_state (bidder, bid, bid_ts, min_bid, end_time; throws
 *       without an auction), get_telemint_auction_config (beneficiary, initial_min_bid, max_bid, min_bid_step,
 *       min_extend_time, duration), royalty_params (numerator, denominator, destination)
 *
 * `details` is stored as JSON in the reference's field names and types (64-bit amounts as strings, times and
 * factors as numbers); absent values are left out, as the reference's `omitempty` does.
 */
import type { ContractReader, Stack } from './contract-reader.ts';
import { stateColumns, type EntityRow, type FamilyInput } from './family.ts';
import { type Interface } from '../contracts/index.ts';

export type SaleType = 'getgems_sale' | 'getgems_auction' | 'telemint';

const FIXP = 0x46495850n;
const AUC = 0x415543n;

interface Sale {
  type: SaleType;
  nft_address: string | null;
  nft_owner_address: string | null;
  marketplace_address: string | null;
  created_at: number | null;
  details: Record<string, unknown>;
}

function compact(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined));
}

const str = (v: bigint | null) => (v === null ? null : v.toString());

function fixPrice(s: Stack, o: number): Sale {
  // o: offset of is_complete (1 after the v1-v3 magic, 0 in v4)
  return {
    type: 'getgems_sale',
    created_at: s.num(o + 1),
    marketplace_address: s.address(o + 2),
    nft_address: s.address(o + 3),
    nft_owner_address: s.address(o + 4),
    details: compact({
      is_complete: s.bool(o),
      full_price: str(s.int(o + 5)),
      marketplace_fee_address: s.address(o + 6),
      marketplace_fee: str(s.int(o + 7)),
      royalty_address: s.address(o + 8),
      royalty_amount: str(s.int(o + 9)),
    }),
  };
}

function auction(s: Stack, o: number): Sale {
  // o: offset of end? (1 in both layouts: after the magic in v1-v3, after `activated` in v4)
  return {
    type: 'getgems_auction',
    created_at: s.num(o + 16),
    marketplace_address: s.address(o + 2),
    nft_address: s.address(o + 3),
    nft_owner_address: s.address(o + 4),
    details: compact({
      end_flag: s.bool(o),
      end_time: s.num(o + 1),
      last_bid: str(s.int(o + 5)),
      last_member: s.address(o + 6),
      min_step: s.num(o + 7),
      mp_fee_address: s.address(o + 8),
      mp_fee_factor: s.num(o + 9),
      mp_fee_base: s.num(o + 10),
      royalty_fee_address: s.address(o + 11),
      royalty_fee_factor: s.num(o + 12),
      royalty_fee_base: s.num(o + 13),
      max_bid: str(s.int(o + 14)),
      min_bid: str(s.int(o + 15)),
      last_bid_at: s.num(o + 17),
      is_canceled: s.bool(o + 18),
    }),
  };
}

function snakeText(s: import('@ton/core').Slice): string {
  const parts: Buffer[] = [];
  let cur: import('@ton/core').Slice | null = s;
  while (cur) {
    parts.push(cur.loadBuffer(Math.floor(cur.remainingBits / 8)));
    cur = cur.remainingRefs ? cur.loadRef().beginParse() : null;
  }
  return Buffer.concat(parts).toString('utf8').replace(/\0/g, '');
}

async function telemint(r: ContractReader): Promise<Sale> {
  const name = snakeText((await r.get('get_telemint_token_name')).slice(0));
  let state: Stack | null;
  try {
    state = await r.get('get_telemint_auction_state');
  } catch {
    state = null; // no auction running: the reference writes zeros
  }
  const cfg = await r.get('get_telemint_auction_config');
  const roy = await r.get('royalty_params');
  return {
    type: 'telemint',
    nft_address: null,
    nft_owner_address: null,
    marketplace_address: null,
    created_at: null,
    details: compact({
      token_name: name,
      bidder_address: state ? state.address(0) : null,
      bid: state ? str(state.int(1)) : '0',
      bid_ts: state ? str(state.int(2)) : '0',
      min_bid: state ? str(state.int(3)) : '0',
      end_time: state ? state.num(4) : 0,
      beneficiary_address: cfg.address(0),
      initial_min_bid: str(cfg.intOrNull(1)),
      max_bid: str(cfg.intOrNull(2)),
      min_bid_step: str(cfg.intOrNull(3)),
      min_extend_time: str(cfg.intOrNull(4)),
      duration: str(cfg.intOrNull(5)),
      royalty_numerator: roy.num(0),
      royalty_denominator: roy.num(1),
      royalty_destination: roy.address(2),
    }),
  };
}

async function saleOf(r: ContractReader, iface: Interface): Promise<Sale | null> {
  switch (iface) {
    case 'nft_sale': {
      const s = await r.get('get_sale_data');
      const magic = s.int(0);
      if (magic === FIXP) return fixPrice(s, 1);
      if (magic === AUC) return auction(s, 1);
      return null; // get_sale_data of another marketplace
    }
    case 'getgems_sale_v4':
      return fixPrice(await r.get('get_fix_price_data_v4'), 0);
    case 'getgems_auction_v4':
      return auction(await r.get('get_auction_data_v4'), 1);
    case 'telemint':
      return telemint(r);
    default:
      return null;
  }
}

export async function readNftSale({ state, reader }: FamilyInput, iface: Interface): Promise<EntityRow | null> {
  if (!reader) return null;
  const sale = await saleOf(reader, iface);
  if (!sale) return null;
  return {
    table: 'nft_sales',
    row: {
      address: state.account,
      type: sale.type,
      nft_address: sale.nft_address,
      nft_owner_address: sale.nft_owner_address,
      marketplace_address: sale.marketplace_address,
      created_at: sale.created_at,
      details: JSON.stringify(sale.details),
      ...stateColumns(state),
    },
    unknown: [],
  };
}
