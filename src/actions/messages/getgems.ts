/**
 * ↔ indexer/events/blocks/messages/getgems.py: GetGems fixed-price sale and auction contracts, read from the data of
 * the StateInit that deploys them (the layout chosen by code hash; an unknown code reads as the latest version), and
 * the sale's price update message.
 */
import { loadStateInit, type Address, type ExternalAddress, type Slice } from '@ton/core';
import { cellFromBoc } from '../../contracts/index.ts';
import { loadAddress } from './common.ts';

type Addr = Address | ExternalAddress | null;

export const AUCTION_VERSION_MAPPING: Readonly<Record<string, string>> = {
  'zlp4U06qps7tja/UhtB262CpsNbb+1Nnb2YmScBomVY=': 'v4r1',
  'ZmiHL6eXBUQ//UdSPo6eqfdquZ+aC1nSfej4GhwnudQ=': 'v2',
  'G9nFo5v/t6DzQViLXdkrgTqEK/Ze8UEJOCIAzq+Pct8=': 'v3r2',
  'u29ireD+stefqzuK6/CTCvmFU99gCTsgJ/Covxab/Ow=': 'v3r3',
  '/ACindAgW83MDT/7nKOMw8jBWexg2KpUMkCpLxBZLUA=': 'v1',
};

export const SALE_VERSION_MAPPING: Readonly<Record<string, string>> = {
  '2pufziLofEllctIDZSWVebzO+RpyA1fMvowFLvyb4I8=': 'v1',
  'gnj0xSM95vvtyWmvUZNEp6m//FRIVtuphqlcC8+Fcck=': 'v2',
  'MgUN+sRPZIZrzIbyzZ4TBf6dyts5WcACI3z7CQLUQyM=': 'v3',
  '3rU7bFdlwebNI4v0e8XoO6WWvcwEsLhM1Qqx5HSgjzE=': 'v3r2',
  'JCIfpXHlQuBVx3vt/b9SfHr0YM/cfzRMRQeHtM+h600=': 'v3r3',
  'a5WmQYucnSNZBF0edVm41UmuDlBvJMqrWPowyPsf64Y=': 'v4r1',
};

export interface NftSaleData {
  marketplaceAddress: Addr;
  fullPrice: bigint | null;
  marketplaceFeeAddress: Addr;
  marketplaceFee: bigint | null;
  royaltyAddress: Addr;
  royaltyAmount: bigint | null;
  feePercent: number | null;
  royaltyPercent: number | null;
}

export interface NftAuctionData {
  mpAddr: Addr;
  mpFeeAddr: Addr;
  mpFeeFactor: number | null;
  mpFeeBase: number | null;
  royaltyFeeAddr: Addr;
  royaltyFeeFactor: number | null;
  royaltyFeeBase: number | null;
  minBid: bigint | null;
  maxBid: bigint | null;
  minStep: bigint | number | null;
  endTime: number | null;
  stepTime: number | null;
  tryStepTime: number | null;
}

/** The data cell of a StateInit BoC (pytoniq's `StateInit.deserialize(...).data.to_slice()`; no data fails). */
function stateInitData(boc: string | null | undefined): Slice {
  const c = cellFromBoc(boc);
  if (!c) throw new Error('state init does not parse');
  const data = loadStateInit(c.beginParse(true)).data;
  if (!data) throw new Error("'NoneType' object has no attribute 'to_slice'");
  return data.beginParse(true);
}

/** `get_sale_data`: null when the data does not read as the version's layout. */
export function getSaleData(boc: string | null | undefined, codeHashB64: string | null): NftSaleData | null {
  let version = (codeHashB64 !== null ? SALE_VERSION_MAPPING[codeHashB64] : undefined) ?? 'latest';
  if (version === 'latest') version = 'v4r1';
  try {
    const cs = stateInitData(boc);
    const data: NftSaleData = {
      marketplaceAddress: null, fullPrice: null, marketplaceFeeAddress: null, marketplaceFee: null,
      royaltyAddress: null, royaltyAmount: null, feePercent: null, royaltyPercent: null,
    };
    if (version === 'v4r1') {
      cs.loadUint(1); // is_complete
      data.marketplaceAddress = loadAddress(cs);
      loadAddress(cs); // nft_owner_address
      data.fullPrice = cs.loadCoins();
      cs.loadUint(32); // sold_at
      cs.loadUintBig(64); // query_id
      const st = cs.loadRef().beginParse(true);
      data.marketplaceFeeAddress = loadAddress(st);
      data.royaltyAddress = loadAddress(st);
      data.feePercent = st.loadUint(17);
      data.royaltyPercent = st.loadUint(17);
      return data;
    }
    if (version === 'v2' || version === 'v3' || version === 'v3r2' || version === 'v3r3') {
      cs.loadUint(1); // is_complete
      cs.loadUint(32); // created_at
    }
    data.marketplaceAddress = loadAddress(cs);
    loadAddress(cs); // nft_address
    loadAddress(cs); // nft_owner_address
    data.fullPrice = cs.loadCoins();
    const fees = cs.loadRef().beginParse(true);
    if (version === 'v1') {
      data.marketplaceFee = fees.loadCoins();
      data.marketplaceFeeAddress = loadAddress(fees);
      data.royaltyAddress = loadAddress(fees);
      data.royaltyAmount = fees.loadCoins();
    } else {
      data.marketplaceFeeAddress = loadAddress(fees);
      data.marketplaceFee = fees.loadCoins();
      data.royaltyAddress = loadAddress(fees);
      data.royaltyAmount = fees.loadCoins();
    }
    return data;
  } catch {
    return null;
  }
}

function emptyAuction(): NftAuctionData {
  return {
    mpAddr: null, mpFeeAddr: null, mpFeeFactor: null, mpFeeBase: null, royaltyFeeAddr: null, royaltyFeeFactor: null,
    royaltyFeeBase: null, minBid: null, maxBid: null, minStep: null, endTime: null, stepTime: null, tryStepTime: null,
  };
}

function auctionV1(cs: Slice): NftAuctionData {
  const d = emptyAuction();
  const fees = cs.loadRef().beginParse(true);
  const bids = cs.loadRef().beginParse(true);
  d.mpFeeAddr = loadAddress(fees);
  d.mpFeeFactor = fees.loadUint(32);
  d.mpFeeBase = fees.loadUint(32);
  d.royaltyFeeAddr = loadAddress(fees);
  d.royaltyFeeFactor = fees.loadUint(32);
  d.royaltyFeeBase = fees.loadUint(32);
  d.minBid = bids.loadCoins();
  d.maxBid = bids.loadCoins();
  d.minStep = bids.loadCoins();
  d.endTime = bids.loadUint(32);
  d.stepTime = bids.loadUint(32);
  d.tryStepTime = bids.loadUint(32);
  return d;
}

function auctionV3r2(cs: Slice): NftAuctionData {
  const d = emptyAuction();
  cs.loadUint(3); // end?, activated?, is_canceled?
  loadAddress(cs); // last_member
  cs.loadCoins(); // last_bid
  cs.loadUint(32); // last_bid_at
  d.endTime = cs.loadUint(32);
  const fees = cs.loadRef().beginParse(true);
  const constant = cs.loadRef().beginParse(true);
  constant.loadUint(32); // sub_gas_price_from_bid
  d.mpAddr = loadAddress(constant);
  d.minBid = constant.loadCoins();
  d.maxBid = constant.loadCoins();
  d.minStep = constant.loadCoins();
  d.stepTime = constant.loadUint(32);
  d.mpFeeAddr = loadAddress(fees);
  d.mpFeeFactor = fees.loadUint(32);
  d.mpFeeBase = fees.loadUint(32);
  d.royaltyFeeAddr = loadAddress(fees);
  d.royaltyFeeFactor = fees.loadUint(32);
  d.royaltyFeeBase = fees.loadUint(32);
  return d;
}

function auctionV3r3(cs: Slice): NftAuctionData {
  const d = emptyAuction();
  cs.loadUint(2); // end?, is_canceled?
  loadAddress(cs); // last_member
  cs.loadCoins(); // last_bid
  cs.loadUint(32); // last_bid_at
  d.endTime = cs.loadUint(32);
  loadAddress(cs); // nft owner
  cs.loadUintBig(64); // last_query_id
  d.mpFeeFactor = cs.loadUint(32);
  d.mpFeeBase = cs.loadUint(32);
  d.royaltyFeeFactor = cs.loadUint(32);
  d.royaltyFeeBase = cs.loadUint(32);
  const fees = cs.loadRef().beginParse(true);
  const constant = cs.loadRef().beginParse(true);
  d.mpFeeAddr = loadAddress(fees);
  d.royaltyFeeAddr = loadAddress(fees);
  d.mpAddr = loadAddress(constant);
  d.minBid = constant.loadCoins();
  d.maxBid = constant.loadCoins();
  d.minStep = constant.loadCoins();
  d.stepTime = constant.loadUint(32);
  return d;
}

function auctionV4r1(cs: Slice): NftAuctionData {
  const d = emptyAuction();
  cs.loadUint(2); // end?, is_canceled?
  loadAddress(cs); // last_member
  cs.loadCoins(); // last_bid
  cs.loadUint(32); // last_bid_at
  d.endTime = cs.loadUint(32);
  loadAddress(cs); // nft_owner
  cs.loadUintBig(64); // last_query_id
  const fees = cs.loadRef().beginParse(true);
  const constant = cs.loadRef().beginParse(true);
  d.mpFeeAddr = loadAddress(fees);
  d.royaltyFeeAddr = loadAddress(fees);
  d.mpFeeFactor = fees.loadUint(32);
  d.mpFeeBase = fees.loadUint(32);
  d.royaltyFeeFactor = fees.loadUint(32);
  d.royaltyFeeBase = fees.loadUint(32);
  d.mpAddr = loadAddress(constant);
  d.minBid = constant.loadCoins();
  d.maxBid = constant.loadCoins();
  d.minStep = constant.loadUint(7);
  d.stepTime = constant.loadUint(17);
  return d;
}

/** `get_auction_data`: null for a layout that does not read, and for v2 (upstream has no reader for it). */
export function getAuctionData(boc: string | null | undefined, codeHashB64: string | null): NftAuctionData | null {
  let version = (codeHashB64 !== null ? AUCTION_VERSION_MAPPING[codeHashB64] : undefined) ?? 'latest';
  if (version === 'latest') version = 'v3r3';
  try {
    const cs = stateInitData(boc);
    if (version === 'v1') return auctionV1(cs);
    if (version === 'v3r2') return auctionV3r2(cs);
    if (version === 'v3r3') return auctionV3r3(cs);
    if (version === 'v4r1') return auctionV4r1(cs);
    return null;
  } catch {
    return null;
  }
}

/** GetGems sale price update: op 0x6c6c2080 query_id:uint64 new_full_price:Coins new_mp_fee:Coins new_royalty:Coins */
export class SaleUpdateMessage {
  static readonly opcode = 0x6c6c2080;
  queryId: bigint;
  newFullPrice: bigint;
  newMpFee: bigint;
  newRoyaltyAmount: bigint;
  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.newFullPrice = s.loadCoins();
    this.newMpFee = s.loadCoins();
    this.newRoyaltyAmount = s.loadCoins();
  }
}
