/**
 * jetton_transfer: transfer (0x0f8a7ea5) to the sender's jetton wallet, optionally followed by the
 * wallet's internal_transfer (0x178d4519) to the receiver's wallet and its transfer_notification
 * (0x7362d09c). The sending wallet must be a known jetton wallet (its owner is the sender, its master the asset).
 */
import { childWithOp, makeBlock, type Block, type Ctx, type EventNode } from '../core.ts';
import type { Family } from '../family.ts';
import type { Cell } from '@ton/core';
import { commentText, loadAddr } from '../toolkit/cells.ts';
import { parseJettonTransfer, type JettonTransferMsg } from '../toolkit/jetton.ts';
import { OP } from '../toolkit/opcodes.ts';

export function jettonTransferData(t: JettonTransferMsg): Record<string, unknown> {
  const fp = t.forwardPayload;
  const comment = fp.comment === null ? null : fp.encrypted ? fp.comment.toString('base64') : commentText(fp.comment);
  return {
    query_id: t.queryId,
    response_destination: t.responseDestination,
    forward_amount: t.forwardAmount,
    custom_payload: t.customPayload,
    forward_payload: fp.boc,
    comment,
    is_encrypted_comment: fp.encrypted,
  };
}

/** STON.fi v1 swap request carried in a jetton transfer's forward payload. */
function stonfiSwapPayload(c: Cell | null): { jetton_wallet: string | null; min_amount: bigint; user_address: string | null } | null {
  if (!c) return null;
  try {
    const s = c.beginParse();
    if (s.remainingBits < 32 || s.loadUint(32) !== OP.stonfiSwap) return null;
    return { jetton_wallet: loadAddr(s), min_amount: s.loadCoins(), user_address: loadAddr(s) };
  } catch {
    return null;
  }
}

/** Builds a jetton_transfer block from a transfer node; null if it is not one we can attribute. */
export function jettonTransferBlock(n: EventNode, ctx: Ctx): Block | null {
  if (n.extOut || !n.msg || n.msg.opcode !== OP.jettonTransfer || n.msg.source === null) return null;
  const t = parseJettonTransfer(n.msg.body);
  if (!t) return null;
  const senderWallet = n.msg.destination;
  const wallet = ctx.jettonWallet(senderWallet);
  if (!wallet) return null;
  const nodes = [n];
  const internal = childWithOp(n, OP.jettonInternalTransfer);
  if (internal) {
    nodes.push(internal);
    const notify = childWithOp(internal, OP.jettonNotify);
    if (notify) nodes.push(notify);
    const excess = childWithOp(internal, OP.excesses);
    if (excess) nodes.push(excess);
  }
  const notifyDirect = childWithOp(n, OP.jettonNotify);
  if (notifyDirect) nodes.push(notifyDirect);
  const receiverWallet = internal?.msg?.destination ?? null;
  // pTON-style wallets pay the receiver directly (notification, no internal_transfer): no sender jetton wallet
  // is shown, and a transfer someone else sent straight to such a wallet wraps TON for its owner
  const ptonStyle = !internal && notifyDirect !== undefined;
  const sourceWallet = ptonStyle ? null : senderWallet;
  const wrapsTon = ptonStyle && n.msg.source !== wallet.owner;
  const sender = wrapsTon ? n.msg.source : wallet.owner;
  const b = makeBlock('jetton_transfer', nodes, {
    source: sender,
    source_secondary: sourceWallet,
    destination: t.destination,
    destination_secondary: receiverWallet,
    amount: t.amount,
    asset: wallet.jetton,
    jetton_transfer_data: jettonTransferData(t),
  }, {
    data: {
      sender,
      sender_wallet: sourceWallet,
      receiver: wrapsTon ? notifyDirect!.msg!.destination : t.destination,
      receiver_wallet: wrapsTon ? senderWallet : receiverWallet,
      has_internal_transfer: internal !== undefined,
      amount: t.amount,
      asset: wallet.jetton,
      stonfi_swap_body: stonfiSwapPayload(t.forwardPayload.cell),
    },
  });
  b.failed = n.tx.aborted;
  return b;
}

export const jettonTransferFamily: Family = {
  name: 'jetton_transfer',
  match: jettonTransferBlock,
};
