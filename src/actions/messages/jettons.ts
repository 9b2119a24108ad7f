/**
 * ↔ indexer/events/blocks/messages/jettons.py: TEP-74 message layouts (and the minter's 0x15 mint).
 * Each constructor reads its layout from the body slice and fails where upstream's does (a short body, a bad
 * address); callers rely on that failure.
 */
import type { Address, Cell, ExternalAddress, Slice } from '@ton/core';
import { loadAddress, loadSnakeBytes, toBocCrc } from './common.ts';

/**
 * transfer#0f8a7ea5 query_id:uint64 amount:(VarUInteger 16) destination:MsgAddress response_destination:MsgAddress
 *   custom_payload:(Maybe ^Cell) forward_ton_amount:(VarUInteger 16) forward_payload:(Either Cell ^Cell)
 *   = InternalMsgBody;
 */
export class JettonTransfer {
  static readonly opcode = 0x0f8a7ea5;
  queryId: bigint;
  amount: bigint;
  destination: Address | ExternalAddress | null;
  response: Address | ExternalAddress | null;
  /** BoC (crc32c) of the custom payload cell */
  customPayload: Buffer | null;
  forwardAmount: bigint;
  comment: Buffer | null = null;
  encryptedComment = false;
  /** `hex(op)` of the forward payload, e.g. '0x0' */
  payloadSumType: string | null = null;
  sumType: string | null = null;
  stonfiSwapBody: { jettonWallet: Address | ExternalAddress | null; minAmount: bigint; userAddress: Address | ExternalAddress | null } | null = null;
  /** BoC (crc32c) of the forward payload, null when it has no bits */
  forwardPayload: Buffer | null = null;

  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.amount = s.loadCoins();
    this.destination = loadAddress(s);
    this.response = loadAddress(s);
    const cp = s.loadMaybeRef();
    this.customPayload = cp ? toBocCrc(cp) : null;
    this.forwardAmount = s.loadCoins();
    if (s.remainingBits > 0) {
      const payload = s.loadBit() ? s.loadRef().beginParse() : s.clone();
      this.loadForwardPayload(payload);
    }
  }

  private loadForwardPayload(p: Slice): void {
    if (p.remainingBits === 0) return;
    this.forwardPayload = toBocCrc(p.clone().asCell());
    if (p.remainingBits < 32) {
      this.sumType = 'Unknown';
      return;
    }
    const sumType = p.loadUint(32) >>> 0;
    this.payloadSumType = '0x' + sumType.toString(16);
    try {
      if (sumType === 0) {
        this.sumType = 'TextComment';
        this.comment = loadSnakeBytes(p);
      } else if (sumType === 0x2167da4b) {
        this.sumType = 'EncryptedTextComment';
        this.comment = loadSnakeBytes(p);
        this.encryptedComment = true;
      } else if (sumType === 0x25938561) {
        this.stonfiSwapBody = { jettonWallet: loadAddress(p), minAmount: p.loadCoins(), userAddress: loadAddress(p) };
      } else {
        this.sumType = 'Unknown';
      }
    } catch {
      this.sumType = 'Unknown';
    }
  }
}

/** burn#595f07bc query_id:uint64 amount:(VarUInteger 16) response_destination:MsgAddress … = InternalMsgBody; */
export class JettonBurn {
  static readonly opcode = 0x595f07bc;
  queryId: bigint;
  amount: bigint;
  responseDestination: Address | ExternalAddress | null;

  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.amount = s.loadCoins();
    this.responseDestination = loadAddress(s);
  }
}

export const JettonBurnNotification = { opcode: 0x7bdd97de } as const;

/**
 * internal_transfer#178d4519 query_id:uint64 amount:(VarUInteger 16) from:MsgAddress response_address:MsgAddress
 *   forward_ton_amount:(VarUInteger 16) forward_payload:(Either Cell ^Cell) = InternalMsgBody;
 */
export class JettonInternalTransfer {
  static readonly opcode = 0x178d4519;
  queryId: bigint;
  amount: bigint;
  fromAddress: Address | ExternalAddress | null;
  responseAddress: Address | ExternalAddress | null;
  forwardTonAmount: bigint;

  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.amount = s.loadCoins();
    this.fromAddress = loadAddress(s);
    this.responseAddress = loadAddress(s);
    this.forwardTonAmount = s.loadCoins();
  }
}

export const JettonNotify = { opcode: 0x7362d09c } as const;

/** mint#642b7d07 query_id:uint64 to_address:MsgAddressInt ton_amount:Coins master_msg:^JettonInternalTransfer */
export class JettonMint {
  static readonly opcode = 0x642b7d07;
  queryId: bigint;
  toAddress: Address | ExternalAddress | null;
  tonAmount: bigint;

  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.toAddress = loadAddress(s);
    this.tonAmount = s.loadCoins();
  }
}

/** The minter's mint#00000015: as mint#642b7d07, the master message's query_id and jetton amount read too. */
export class MinterJettonMint {
  static readonly opcode = 0x00000015;
  queryId: bigint;
  toAddress: Address | ExternalAddress | null;
  tonAmount: bigint;
  masterMsg: Cell;
  masterMsgQueryId: bigint;
  masterMsgJettonAmount: bigint;

  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.toAddress = loadAddress(s);
    this.tonAmount = s.loadCoins();
    this.masterMsg = s.loadRef();
    const m = this.masterMsg.beginParse();
    m.loadUint(32);
    this.masterMsgQueryId = m.loadUintBig(64);
    this.masterMsgJettonAmount = m.loadCoins();
  }
}
