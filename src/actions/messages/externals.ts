/**
 * ↔ indexer/events/blocks/messages/externals.py: the messages a wallet's external asks it to send, read from the
 * external body for wallets v3, v4, v5r1 and (newer upstream) the Telegram wallet. Used when a wallet's external
 * failed before it sent anything: its intended messages become ghost nodes (processing.ts).
 */
import { type Address, type Cell, type ExternalAddress, loadStateInit, type Slice, type StateInit } from '@ton/core';
import { cellFromBoc } from '../../contracts/index.ts';
import { loadAddress } from './common.ts';

/**
 * int_msg_info$0 ihr_disabled:Bool bounce:Bool bounced:Bool src:MsgAddressInt dest:MsgAddressInt
 *   value:CurrencyCollection ihr_fee:Grams fwd_fee:Grams created_lt:uint64 created_at:uint32 = CommonMsgInfo;
 * `withExtraCurrencies` false reads `value` as Grams only (upstream's fallback for bodies the full layout fails on).
 */
export interface InternalMsgInfo {
  ihrDisabled: boolean;
  bounce: boolean;
  bounced: boolean;
  src: Address | ExternalAddress | null;
  dest: Address | ExternalAddress | null;
  valueCoins: bigint;
  ihrFee: bigint;
  fwdFee: bigint;
  createdLt: bigint;
  createdAt: number;
}

function loadInternalMsgInfo(s: Slice, withExtraCurrencies: boolean): InternalMsgInfo {
  if (s.loadBit()) throw new Error('InternalMsgInfo deserialization error unknown prefix tag: 1');
  const ihrDisabled = s.loadBit();
  const bounce = s.loadBit();
  const bounced = s.loadBit();
  const src = loadAddress(s);
  const dest = loadAddress(s);
  const valueCoins = s.loadCoins();
  if (withExtraCurrencies) s.loadMaybeRef(); // ExtraCurrencyCollection: HashmapE 32 (VarUInteger 32)
  const ihrFee = s.loadCoins();
  const fwdFee = s.loadCoins();
  const createdLt = s.loadUintBig(64);
  const createdAt = s.loadUint(32);
  return { ihrDisabled, bounce, bounced, src, dest, valueCoins, ihrFee, fwdFee, createdLt, createdAt };
}

/** One `MessageRelaxed` of a wallet request; `info` is null for anything but an internal message. */
export class PayloadMessage {
  info: InternalMsgInfo | null = null;
  init: StateInit | null = null;
  body: Cell | null = null;
  opcode: number | null = null;
  /** base64 of the message cell's hash */
  hash = '';

  constructor(cell: Cell) {
    let s = cell.beginParse(true);
    const cp = s.clone();
    try {
      if (!s.preloadBit()) this.info = loadInternalMsgInfo(s, true);
    } catch {
      s = cp;
      if (!s.preloadBit()) this.info = loadInternalMsgInfo(s, false);
    }
    if (this.info === null) return;
    if (s.loadBit()) {
      this.init = s.loadBit() ? loadStateInit(s.loadRef().beginParse()) : loadStateInit(s);
    }
    this.body = s.loadBit() ? s.loadRef() : s.asCell();
    try {
      this.opcode = this.body.beginParse(true).loadUint(32) >>> 0;
    } catch {
      this.opcode = null;
    }
    this.hash = cell.hash().toString('base64');
  }
}

function loadPayloads(s: Slice): PayloadMessage[] {
  const out: PayloadMessage[] = [];
  while (s.remainingRefs > 0) out.push(new PayloadMessage(s.loadRef()));
  return out;
}

/** signature:bits512 subwallet_id:uint32 valid_until:uint32 seqno:uint32, then one message per ref */
export class WalletV3ExternalMessage {
  payload: PayloadMessage[];
  constructor(s: Slice) {
    s.skip(512);
    s.loadUint(32);
    s.loadUint(32);
    s.loadUint(32);
    this.payload = loadPayloads(s);
  }
}

/** as v3, then op:uint8 */
export class WalletV4ExternalMessage {
  payload: PayloadMessage[];
  constructor(s: Slice) {
    s.skip(512);
    s.loadUint(32);
    s.loadUint(32);
    s.loadUint(32);
    s.loadUint(8);
    this.payload = loadPayloads(s);
  }
}

/**
 * opcode:uint32 wallet_id:uint32 valid_until:uint32 seqno:uint32 out_actions:(Maybe ^OutList) …: the send-message
 * actions of the out list, walked from its head (the last action first). The opcode is not checked.
 */
export class WalletV5R1ExternalMessage {
  payload: PayloadMessage[] = [];
  constructor(s: Slice) {
    s.loadUint(32);
    s.loadUint(32);
    s.loadUint(32);
    s.loadUint(32);
    let current = s.loadMaybeRef();
    while (current) {
      const cs = current.beginParse(true);
      if (cs.remainingBits === 0) break;
      current = cs.loadRef();
      this.payload.push(new PayloadMessage(cs.loadRef()));
    }
  }
}

// Telegram wallet (ton-blockchain/tg-wallet-contract) request opcodes (newer upstream; additive)
export const TG_WALLET_SEND_ONE_MESSAGE_EXTERNAL = 0x63896e75;
export const TG_WALLET_SEND_BULK_MESSAGES_EXTERNAL = 0x73896e75;
export const TG_WALLET_CHANGE_PUBLIC_KEY_EXTERNAL = 0xfbba99c8;

/**
 * SignedRequest: signature:bits512 opcode:uint32 subwallet_id:uint32 valid_until:uint32 seqno:uint32, then one
 * message (mode:uint8 ^message) or a chunked array (len:uint8 Maybe ^chunk; chunk = Maybe ^next, (mode:uint8
 * ^message)*). Fails on any other opcode, so it is tried first.
 */
export class WalletTgExternalMessage {
  payload: PayloadMessage[] = [];
  constructor(s: Slice) {
    s.skip(512);
    const opcode = s.loadUint(32) >>> 0;
    if (opcode !== TG_WALLET_SEND_ONE_MESSAGE_EXTERNAL && opcode !== TG_WALLET_SEND_BULK_MESSAGES_EXTERNAL && opcode !== TG_WALLET_CHANGE_PUBLIC_KEY_EXTERNAL) {
      throw new Error(`unknown tg-wallet request: 0x${opcode.toString(16).padStart(8, '0')}`);
    }
    s.loadUint(32);
    s.loadUint(32);
    s.loadUint(32);
    if (opcode === TG_WALLET_SEND_ONE_MESSAGE_EXTERNAL) {
      s.loadUint(8);
      this.payload.push(new PayloadMessage(s.loadRef()));
    } else if (opcode === TG_WALLET_SEND_BULK_MESSAGES_EXTERNAL) {
      s.loadUint(8);
      let chunk = s.loadMaybeRef();
      while (chunk !== null) {
        const cs = chunk.beginParse(true);
        chunk = cs.loadMaybeRef();
        for (let n = cs.remainingRefs; n > 0; n--) {
          cs.loadUint(8);
          this.payload.push(new PayloadMessage(cs.loadRef()));
        }
      }
    }
  }
}

const WALLETS: Array<[string, new (s: Slice) => { payload: PayloadMessage[] }]> = [
  // the v3/v4 readers accept almost any body, so the one checking an opcode goes first
  ['tg-wallet', WalletTgExternalMessage],
  ['v3', WalletV3ExternalMessage],
  ['v4', WalletV4ExternalMessage],
  ['v5r1', WalletV5R1ExternalMessage],
];

/** The intended messages of a wallet external body and the wallet kind that read it; none when no reader does. */
export function extractPayloadFromWalletMessage(body: string | null): [PayloadMessage[], string | null] {
  for (const [kind, Reader] of WALLETS) {
    try {
      const cell = cellFromBoc(body);
      if (!cell) throw new Error('bad boc');
      return [new Reader(cell.beginParse(true)).payload, kind];
    } catch {
      // next reader
    }
  }
  return [[], null];
}

