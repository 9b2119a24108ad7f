/**
 * jetton_mint: a mint request (0x642b7d07, or 0x00000015 of the reference minter) to a jetton master
 * followed by the master's internal_transfer (0x178d4519) to the receiver's wallet.
 * jetton_burn: burn (0x595f07bc) to a known jetton wallet, plus its burn_notification (0x7bdd97de).
 */
import { childWithOp, makeBlock, type Block, type Ctx, type EventNode } from '../core.ts';
import type { Family } from '../family.ts';
import { loadAddr, parseBody } from '../toolkit/cells.ts';
import { parseJettonBurn, parseJettonInternalTransfer } from '../toolkit/jetton.ts';
import { OP } from '../toolkit/opcodes.ts';

function jettonMint(n: EventNode, ctx: Ctx): Block | null {
  const op = n.msg?.opcode;
  if (n.extOut || (op !== OP.jettonMint && op !== OP.jettonMintMinter) || !n.msg?.source) return null;
  const internal = childWithOp(n, OP.jettonInternalTransfer);
  if (!internal) return null;
  const it = parseJettonInternalTransfer(internal.msg!.body);
  if (!it) return null;
  const toWallet = internal.msg!.destination;
  // mint#_ query_id:uint64 to_address:MsgAddress … : the receiver, when the wallet is not known yet
  const toFromBody = parseBody(n.msg.body, (s) => {
    s.loadUint(32);
    s.loadUintBig(64);
    return loadAddr(s);
  });
  const to = ctx.jettonWallet(toWallet)?.owner ?? toFromBody;
  const asset = n.msg.destination;
  const nodes = [n, internal];
  for (const op2 of [OP.jettonNotify, OP.excesses]) {
    const c = childWithOp(internal, op2);
    if (c) nodes.push(c);
  }
  const b = makeBlock('jetton_mint', nodes, {
    destination: to,
    destination_secondary: toWallet,
    asset,
    amount: it.amount,
    value: internal.msg!.value,
  }, { data: { asset, amount: it.amount, to, to_jetton_wallet: toWallet, ton_amount: internal.msg!.value } });
  b.failed = internal.tx.aborted || n.tx.aborted;
  return b;
}

function jettonBurn(n: EventNode, ctx: Ctx): Block | null {
  if (n.extOut || n.msg?.opcode !== OP.jettonBurn || !n.msg.source) return null;
  const burn = parseJettonBurn(n.msg.body);
  const wallet = ctx.jettonWallet(n.msg.destination);
  if (!burn || !wallet) return null;
  const nodes = [n];
  const notif = childWithOp(n, OP.jettonBurnNotification);
  if (notif) {
    nodes.push(notif);
    const exc = childWithOp(notif, OP.excesses);
    if (exc) nodes.push(exc);
  }
  const b = makeBlock('jetton_burn', nodes, {
    source: wallet.owner,
    source_secondary: n.msg.destination,
    asset: wallet.jetton,
    amount: burn.amount,
  }, { data: { owner: wallet.owner, jetton_wallet: n.msg.destination, amount: burn.amount, asset: wallet.jetton } });
  b.failed = n.tx.aborted;
  return b;
}

export const jettonBurnFamily: Family = { name: 'jetton_burn', match: jettonBurn };
export const jettonMintFamily: Family = { name: 'jetton_mint', match: jettonMint };
