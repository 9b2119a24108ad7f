/** TEP-74 jetton message bodies. */
import type { Cell, Slice } from '@ton/core';
import { bocB64, decodeComment, loadAddr, loadEitherCell, parseBody } from './cells.ts';
import { OP } from './opcodes.ts';

export interface ForwardPayload {
  /** payload cell as BoC base64 (crc32c), null when absent/empty */
  boc: string | null;
  cell: Cell | null;
  comment: Buffer | null;
  encrypted: boolean;
  /** first 32 bits of the payload, if any */
  op: number | null;
}

export function forwardPayload(s: Slice): ForwardPayload {
  const cell = s.remainingBits > 0 ? loadEitherCell(s) : null;
  const empty = !cell || (cell.bits.length === 0 && cell.refs.length === 0);
  const { comment, encrypted, op } = decodeComment(empty ? null : cell);
  return { boc: empty ? null : bocB64(cell), cell: empty ? null : cell, comment, encrypted, op };
}

/** Forward payload that tolerates malformed tails (some wallets send garbage after the fixed fields). */
export function tryForwardPayload(s: Slice): ForwardPayload | null {
  try {
    return forwardPayload(s);
  } catch {
    return null;
  }
}

function expectOp(s: Slice, op: number): void {
  const got = s.loadUint(32);
  if (got !== op) throw new Error(`opcode 0x${got.toString(16)} is not 0x${op.toString(16)}`);
}

// transfer#0f8a7ea5 query_id:uint64 amount:(VarUInteger 16) destination:MsgAddress
//   response_destination:MsgAddress custom_payload:(Maybe ^Cell) forward_ton_amount:(VarUInteger 16)
//   forward_payload:(Either Cell ^Cell) = InternalMsgBody;
export interface JettonTransferMsg {
  queryId: bigint;
  amount: bigint;
  destination: string | null;
  responseDestination: string | null;
  customPayload: string | null;
  forwardAmount: bigint;
  forwardPayload: ForwardPayload;
}
export function parseJettonTransfer(body: string | null | undefined): JettonTransferMsg | null {
  return parseBody(body, (s) => {
    expectOp(s, OP.jettonTransfer);
    const queryId = s.loadUintBig(64);
    const amount = s.loadCoins();
    const destination = loadAddr(s);
    const responseDestination = loadAddr(s);
    const cp = s.loadMaybeRef();
    const forwardAmount = s.loadCoins();
    const fp = forwardPayload(s);
    return { queryId, amount, destination, responseDestination, customPayload: cp ? bocB64(cp) : null, forwardAmount, forwardPayload: fp };
  });
}

// internal_transfer#178d4519 query_id:uint64 amount:(VarUInteger 16) from:MsgAddress
//   response_address:MsgAddress forward_ton_amount:(VarUInteger 16) forward_payload:(Either Cell ^Cell) = InternalMsgBody;
export interface JettonInternalTransferMsg {
  queryId: bigint;
  amount: bigint;
  from: string | null;
  responseAddress: string | null;
  forwardAmount: bigint;
  forwardPayload: ForwardPayload | null;
}
export function parseJettonInternalTransfer(body: string | null | undefined): JettonInternalTransferMsg | null {
  return parseBody(body, (s) => {
    expectOp(s, OP.jettonInternalTransfer);
    const queryId = s.loadUintBig(64);
    const amount = s.loadCoins();
    const from = loadAddr(s);
    const responseAddress = loadAddr(s);
    const forwardAmount = s.loadCoins();
    const fp = tryForwardPayload(s);
    return { queryId, amount, from, responseAddress, forwardAmount, forwardPayload: fp };
  });
}

// transfer_notification#7362d09c query_id:uint64 amount:(VarUInteger 16) sender:MsgAddress
//   forward_payload:(Either Cell ^Cell) = InternalMsgBody;
export interface JettonNotifyMsg {
  queryId: bigint;
  amount: bigint;
  sender: string | null;
  forwardPayload: ForwardPayload | null;
}
export function parseJettonNotify(body: string | null | undefined): JettonNotifyMsg | null {
  return parseBody(body, (s) => {
    expectOp(s, OP.jettonNotify);
    const queryId = s.loadUintBig(64);
    const amount = s.loadCoins();
    const sender = loadAddr(s);
    const fp = tryForwardPayload(s);
    return { queryId, amount, sender, forwardPayload: fp };
  });
}

// excesses#d53276db query_id:uint64 = InternalMsgBody;
export function parseExcesses(body: string | null | undefined): { queryId: bigint } | null {
  return parseBody(body, (s) => {
    expectOp(s, OP.excesses);
    return { queryId: s.loadUintBig(64) };
  });
}

// burn#595f07bc query_id:uint64 amount:(VarUInteger 16) response_destination:MsgAddress
//   custom_payload:(Maybe ^Cell) = InternalMsgBody;
export interface JettonBurnMsg {
  queryId: bigint;
  amount: bigint;
  responseDestination: string | null;
  customPayload: string | null;
}
export function parseJettonBurn(body: string | null | undefined): JettonBurnMsg | null {
  return parseBody(body, (s) => {
    expectOp(s, OP.jettonBurn);
    const queryId = s.loadUintBig(64);
    const amount = s.loadCoins();
    const responseDestination = loadAddr(s);
    let customPayload: string | null = null;
    if (s.remainingBits > 0) {
      const cp = s.loadMaybeRef();
      customPayload = cp ? bocB64(cp) : null;
    }
    return { queryId, amount, responseDestination, customPayload };
  });
}

// burn_notification#7bdd97de query_id:uint64 amount:(VarUInteger 16) sender:MsgAddress
//   response_destination:MsgAddress = InternalMsgBody;
export interface JettonBurnNotificationMsg {
  queryId: bigint;
  amount: bigint;
  sender: string | null;
  responseDestination: string | null;
}
export function parseJettonBurnNotification(body: string | null | undefined): JettonBurnNotificationMsg | null {
  return parseBody(body, (s) => {
    expectOp(s, OP.jettonBurnNotification);
    const queryId = s.loadUintBig(64);
    const amount = s.loadCoins();
    const sender = loadAddr(s);
    const responseDestination = loadAddr(s);
    return { queryId, amount, sender, responseDestination };
  });
}
