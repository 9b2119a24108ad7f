/**
 * TON nominator pool (ton-blockchain/nominator-pool, func/pool.fc): nominators (basechain wallets) send text
 * comments to the pool (masterchain): "d" deposits (stake_deposit, provider `nominator`), "w" asks to withdraw.
 * A withdrawal the pool can pay at once comes back as plain transfers to the nominator (the payout, and the
 * excess of the request): stake_withdrawal with the payout as amount; otherwise the request is recorded and
 * only the excess returns: stake_withdrawal_request. Anyone may make the pool pay recorded requests
 * (op 2 `process_withdraw_requests`): every plain transfer it then sends is a stake_withdrawal of its receiver.
 * The pool contract is identified as the reference does: the trace's NominatorPool interface, or the pool code's
 * hash (the one official build, `mj7BS8CY…` = 9a3ec14b…0dcf, which toncenter's classifier also checked and
 * pytonlib ships as the nominator-pool code).
 */
import { makeBlock, type Block, type Ctx, type EventNode } from '../core.ts';
import type { Family } from '../family.ts';
import { cellFromBoc } from '../toolkit/cells.ts';
import { codeHashOf, hasInterface } from '../toolkit/code.ts';

export const NOMINATOR_POOL_CODE_HASHES: ReadonlySet<string> = new Set([
  '9a3ec14bc098f6b44064c305222caea2800f17dda85ee6a8198a7095ede10dcf',
]);

const BOUNCE = 0xffffffff;
const PROCESS_WITHDRAW_REQUESTS = 2;

function isPool(addr: string | null | undefined, ctx: Ctx): boolean {
  if (!addr?.startsWith('-1:')) return false; // pool.fc: the pool lives in the masterchain
  const h = codeHashOf(ctx, addr);
  return hasInterface(ctx, addr, 'NominatorPool') || (h !== null && NOMINATOR_POOL_CODE_HASHES.has(h));
}

/** The one-letter command: op 0 followed by exactly 8 bits (pool.fc rejects anything else). */
function command(n: EventNode): string | null {
  const c = n.msg?.opcode === 0 ? cellFromBoc(n.msg.body) : null;
  if (!c || c.bits.length !== 40 || c.refs.length !== 0) return null;
  return String.fromCharCode(c.beginParse().skip(32).loadUint(8));
}

/** Plain transfers (no body) from the pool back to the sender of a request. */
function plainReplies(n: EventNode): EventNode[] {
  return n.children.filter((c) => !c.extOut && c.msg?.opcode === null && c.msg.source === n.msg!.destination);
}

function deposit(n: EventNode): Block | null {
  const m = n.msg!;
  const nodes = [n, ...n.children.filter((c) => !c.extOut && c.msg?.opcode === BOUNCE)];
  const b = makeBlock('nominator_pool_deposit', nodes, {
    source: m.source,
    destination: m.destination,
    amount: m.value,
    staking_data: { provider: 'nominator', tokens_minted: null },
  }, { outType: 'stake_deposit', data: { source: m.source, pool: m.destination, value: m.value } });
  b.failed = n.tx.aborted;
  return b;
}

function withdrawRequest(n: EventNode): Block | null {
  const m = n.msg!;
  const replies = plainReplies(n).filter((c) => c.msg!.destination === m.source);
  let payout: EventNode | null = null;
  if (replies.length === 1 && (replies[0].msg!.value ?? 0n) > (m.value ?? 0n)) payout = replies[0];
  if (replies.length >= 2) payout = replies.reduce((a, b) => ((a.msg!.createdLt ?? 0n) <= (b.msg!.createdLt ?? 0n) ? a : b));
  const amount = payout?.msg?.value ?? null;
  const b = makeBlock('nominator_pool_withdraw_request', [n, ...replies, ...n.children.filter((c) => !c.extOut && c.msg?.opcode === BOUNCE)], {
    source: m.source,
    destination: m.destination,
    amount,
    staking_data: { provider: 'nominator', ts_nft: null, tokens_burnt: null },
  }, { outType: amount === null ? 'stake_withdrawal_request' : 'stake_withdrawal' });
  b.failed = n.tx.aborted;
  return b;
}

/** A payout the pool sends while processing recorded requests: one stake_withdrawal per receiver. */
function processedPayout(n: EventNode, ctx: Ctx): Block | null {
  const call = n.parent;
  if (n.extOut || n.msg?.opcode !== null || !call || call.extOut || call.msg?.opcode !== PROCESS_WITHDRAW_REQUESTS) return null;
  if (n.msg.source !== call.msg.destination || !isPool(call.msg.destination, ctx)) return null;
  return makeBlock('nominator_pool_withdraw_request', [n], {
    source: n.msg.destination,
    destination: n.msg.source,
    amount: n.msg.value,
    staking_data: { provider: 'nominator', ts_nft: null, tokens_burnt: null },
  }, { outType: 'stake_withdrawal' });
}

function match(n: EventNode, ctx: Ctx): Block | null {
  if (n.extOut || !n.msg?.source) return null;
  // the body is parsed only for a basechain -> masterchain comment: most messages are comments, few go there
  const toMc = n.msg.opcode === 0 && n.msg.source.startsWith('0:') && !!n.msg.destination?.startsWith('-1:');
  const cmd = toMc ? command(n) : null;
  if ((cmd === 'd' || cmd === 'w') && isPool(n.msg.destination, ctx)) {
    return cmd === 'd' ? deposit(n) : withdrawRequest(n);
  }
  return processedPayout(n, ctx);
}

export const nominatorPoolFamily: Family = { name: 'nominator_pool', match };
