/**
 * Wallet v4 subscription plugins (ton-blockchain/wallet-contract wallet-v4-code.fc):
 * - subscribe: the plugin asks the wallet for funds (request#706c7567 query_id:uint64 amount:Coins extra:…),
 *   the wallet answers 0xf06c7567 (0x706c7567 | 0x80000000, query_id) carrying the amount, and the plugin pays the
 *   beneficiary (payment 0x73756273). The anchor is the wallet's answer; the request is its parent when the trace
 *   starts at the plugin. subscriber = wallet, subscription = plugin, beneficiary = payment destination.
 * - unsubscribe: destruct 0x64737472 between wallet and plugin, and the plugin's own destruct to the beneficiary.
 */
import { childWithOp, makeBlock, type Block, type EventNode } from '../core.ts';
import type { Family } from '../family.ts';
import { parseBody } from '../toolkit/cells.ts';
import { OP } from '../toolkit/opcodes.ts';

const RESPONSE = 0xf06c7567;

function subscribe(n: EventNode): Block | null {
  if (n.extOut || n.msg?.opcode !== RESPONSE || !n.msg.source) return null;
  const payment = childWithOp(n, OP.subscriptionPayment);
  if (!payment) return null;
  const request = n.parent?.msg?.opcode === OP.subscriptionRequest && !n.parent.extOut ? n.parent : null;
  // the amount asked for; without the request (trace started at the wallet), what the wallet sent
  const asked = request ? parseBody(request.msg!.body, (s) => { s.loadUint(32); s.loadUintBig(64); return s.loadCoins(); }) : null;
  const b = makeBlock('subscribe', request ? [request, n, payment] : [n, payment], {
    source: n.msg.source,
    destination: payment.msg!.destination,
    destination_secondary: n.msg.destination,
    amount: asked ?? n.msg.value,
  });
  b.failed = request ? request.tx.aborted : false;
  return b;
}

function unsubscribe(n: EventNode): Block | null {
  if (n.extOut || n.msg?.opcode !== OP.subscriptionDestruct || !n.msg.source) return null;
  const response = childWithOp(n, OP.subscriptionDestruct);
  const b = makeBlock('unsubscribe', response ? [n, response] : [n], {
    source: n.msg.source,
    destination: response?.msg?.destination ?? null,
    destination_secondary: n.msg.destination,
  });
  b.failed = n.tx.aborted;
  return b;
}

export const subscriptionsFamily: Family = { name: 'subscriptions', match: (n) => subscribe(n) ?? unsubscribe(n) };
