/**
 * ↔ indexer/events/blocks/messages/nft.py: TEP-62 messages, the discovery pair, Telegram (Fragment) items' bid info
 * and auction start, the auction fill-up (a payout of a Fragment or .ton DNS auction) and the DNS balance release.
 * Each constructor reads its layout and fails where pytoniq's reader fails; the callers rely on that.
 */
import type { Address, Cell, ExternalAddress, Slice } from '@ton/core';
import { loadAddress, toBocCrc } from './common.ts';

/** teleitem_bid_info (op 0x38127de1 in an ownership_assigned payload): bid:Coins bid_ts:uint32 */
export class TeleitemBidInfo {
  bid: bigint;
  bidTs: number;
  constructor(s: Slice) {
    this.bid = s.loadCoins();
    this.bidTs = s.loadUint(32);
  }
}

/** The forward payload of an ownership_assigned: its BoC (crc32c), its opcode, Fragment's bid info when it is one. */
export class NftPayload {
  op: number | null = null;
  value: TeleitemBidInfo | null = null;
  raw: Buffer;
  constructor(s: Slice) {
    this.raw = toBocCrc(s.clone().asCell());
    if (s.remainingBits === 0 && s.remainingRefs === 0) return;
    const tmp = s.clone();
    if (tmp.remainingBits < 32) return;
    this.op = tmp.loadUint(32) >>> 0;
    // a bid info that does not read fails the payload (the caller then has none)
    if (this.op === 0x38127de1) this.value = new TeleitemBidInfo(tmp);
  }
}

/**
 * transfer#5fcc3d14 query_id:uint64 new_owner:MsgAddress response_destination:MsgAddress custom_payload:(Maybe ^Cell)
 *   forward_amount:(VarUInteger 16) forward_payload:(Either Cell ^Cell) = InternalMsgBody;
 */
export class NftTransfer {
  static readonly opcode = 0x5fcc3d14;
  queryId: bigint;
  newOwner: Address | ExternalAddress | null;
  responseDestination: Address | ExternalAddress | null;
  /** BoC (crc32c) */
  customPayload: Buffer | null;
  forwardAmount: bigint;
  /** BoC (crc32c); an inline payload is the rest of the body (an empty cell when nothing follows the flag) */
  forwardPayload: Buffer | null = null;

  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.newOwner = loadAddress(s);
    this.responseDestination = loadAddress(s);
    const cp = s.loadMaybeRef();
    this.customPayload = cp ? toBocCrc(cp) : null;
    this.forwardAmount = s.loadCoins();
    if (s.remainingBits > 0) {
      const isRight = s.loadBit();
      const payload: Cell = isRight ? s.loadRef() : s.clone().asCell();
      this.forwardPayload = toBocCrc(payload);
    }
  }
}

/** ownership_assigned#05138d91 query_id:uint64 prev_owner:MsgAddress forward_payload:(Either Cell ^Cell) */
export class NftOwnershipAssigned {
  static readonly opcode = 0x05138d91;
  queryId: bigint;
  prevOwner: Address | ExternalAddress | null;
  /** null when the payload does not read (upstream swallows that failure) */
  nftPayload: NftPayload | null;

  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.prevOwner = loadAddress(s);
    try {
      this.nftPayload = s.loadBit() ? new NftPayload(s.loadRef().beginParse(true)) : new NftPayload(s);
    } catch {
      this.nftPayload = null;
    }
  }
}

/** get_static_data#2fcb26a2 query_id:uint64 = InternalMsgBody; */
export class NftDiscovery {
  static readonly opcode = 0x2fcb26a2;
  queryId: bigint;
  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
  }
}

/** report_static_data#8b771735 query_id:uint64 index:uint256 collection:MsgAddress = InternalMsgBody; */
export class NftReportStaticData {
  static readonly opcode = 0x8b771735;
  queryId: bigint;
  index: bigint;
  collection: Address | ExternalAddress | null;
  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.index = s.loadUintBig(256);
    this.collection = loadAddress(s);
  }
}

/**
 * teleitem_start_auction#487a8e81 query_id:uint64 auction_config:^(beneficiary_address:MsgAddressInt
 *   initial_min_bid:Coins max_bid:Coins min_bid_step:uint8 min_extend_time:uint32 duration:uint32).
 * A config that does not read gives zeros and no beneficiary, as upstream's reader does.
 */
export class TeleitemStartAuction {
  static readonly opcode = 0x487a8e81;
  queryId: bigint;
  beneficiaryAddress: Address | ExternalAddress | null = null;
  initialMinBid = 0n;
  maxBid = 0n;
  minBidStep = 0;
  minExtendTime = 0;
  duration = 0;

  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    const config = s.loadRef().beginParse(true);
    try {
      const beneficiary = loadAddress(config);
      const initialMinBid = config.loadCoins();
      const maxBid = config.loadCoins();
      const minBidStep = config.loadUint(8);
      const minExtendTime = config.loadUint(32);
      const duration = config.loadUint(32);
      Object.assign(this, { beneficiaryAddress: beneficiary, initialMinBid, maxBid, minBidStep, minExtendTime, duration });
    } catch {
      // upstream resets every field on a config it cannot read
    }
  }
}

/** A query id after the opcode when the body has one (fill-up and release bodies may be bare opcodes). */
function optionalQueryId(s: Slice): bigint | null {
  s.loadUint(32);
  return s.remainingBits >= 64 ? s.loadUintBig(64) : null;
}

/** fill_up#370fec51 [query_id:uint64]: an auction's payout (Fragment, .ton DNS). */
export class AuctionFillUp {
  static readonly opcode = 0x370fec51;
  queryId: bigint | null;
  constructor(s: Slice) {
    this.queryId = optionalQueryId(s);
  }
}

/** dns_balance_release#4ed14b65 [query_id:uint64] (ton-blockchain/dns-contract). */
export class DnsReleaseBalance {
  static readonly opcode = 0x4ed14b65;
  queryId: bigint | null;
  constructor(s: Slice) {
    this.queryId = optionalQueryId(s);
  }
}
