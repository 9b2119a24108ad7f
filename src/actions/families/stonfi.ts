/**
 * jetton_swap on STON.fi v1: a jetton_transfer to the router whose notification makes the router send
 * swap (0x25938561) to the pool; the pool answers with payment_request (0xf93bb43f) and the router pays
 * out with a jetton_transfer. Exit codes in the payment request tell success / referral payouts.
 */
import { childrenWithOp, childWithOp, makeBlock, type Block, type Ctx, type EventNode } from '../core.ts';
import type { Family } from '../family.ts';
import { loadAddr, parseBody } from '../toolkit/cells.ts';
import { OP } from '../toolkit/opcodes.ts';

const SWAP_OK = 0xc64370e5;
const SWAP_NO_LIQ = 0x5ffe1295;
const SWAP_RESERVE_ERR = 0x38976e9b;
const SENDER_CODES = [SWAP_RESERVE_ERR, SWAP_NO_LIQ, SWAP_OK];

// swap#25938561 query_id:uint64 from_user_address:MsgAddress token_wallet:MsgAddress amount:Coins
//   min_out:Coins has_ref:Bool ^[from_real_user:MsgAddress ref_address:MsgAddress]
export function parseStonfiSwap(body: string | null | undefined) {
  return parseBody(body, (s) => {
    if (s.loadUint(32) !== OP.stonfiSwap) throw new Error('not a stonfi swap');
    const queryId = s.loadUintBig(64);
    const fromUser = loadAddr(s);
    const tokenWallet = loadAddr(s);
    const amount = s.loadCoins();
    const minOut = s.loadCoins();
    const hasRef = s.loadBit();
    const r = s.loadRef().beginParse();
    const fromRealUser = loadAddr(r);
    const refAddress = hasRef ? loadAddr(r) : null;
    return { queryId, fromUser, tokenWallet, amount, minOut, fromRealUser, refAddress };
  });
}

// pay_to#f93bb43f query_id:uint64 owner:MsgAddress exit_code:uint32
//   ^[amount0_out:Coins token0_address:MsgAddress amount1_out:Coins token1_address:MsgAddress]
export function parseStonfiPaymentRequest(body: string | null | undefined) {
  return parseBody(body, (s) => {
    if (s.loadUint(32) !== OP.stonfiPaymentRequest) throw new Error('not a stonfi payment request');
    const queryId = s.loadUintBig(64);
    const owner = loadAddr(s);
    const exitCode = s.loadUint(32);
    const r = s.loadRef().beginParse();
    const amount0 = r.loadCoins();
    const token0 = loadAddr(r);
    const amount1 = r.loadCoins();
    const token1 = loadAddr(r);
    return { queryId, owner, exitCode, amount0, token0, amount1, token1 };
  });
}

type JtData = {
  sender: string; sender_wallet: string; receiver: string | null; receiver_wallet: string | null;
  has_internal_transfer: boolean; stonfi_swap_body: { jetton_wallet: string | null; user_address: string | null } | null;
};

export function swapTransfer(
  asset: string | null, amount: bigint, source: string | null, sourceJw: string | null, destination: string | null, destJw: string | null,
): Record<string, unknown> {
  return { amount, source, source_jetton_wallet: sourceJw, destination, destination_jetton_wallet: destJw, asset };
}

function match(n: EventNode, ctx: Ctx): Block | null {
  const inBlock = ctx.ownerOf(n);
  if (!inBlock || inBlock.type !== 'jetton_transfer' || inBlock.nodes[0] !== n) return null;
  const notify = inBlock.nodes.find((x) => x.msg?.opcode === OP.jettonNotify);
  const swapNode = notify && childWithOp(notify, OP.stonfiSwap);
  if (!swapNode) return null;
  const swap = parseStonfiSwap(swapNode.msg!.body);
  if (!swap) return null;
  const inData = inBlock.data as JtData;
  let outAmt: bigint | null = null, outAddr: string | null = null, outBlock: Block | undefined, prNode: EventNode | undefined;
  let success = false;
  for (const pr of childrenWithOp(swapNode, OP.stonfiPaymentRequest)) {
    const p = parseStonfiPaymentRequest(pr.msg!.body);
    if (!p) continue;
    const [amount, addr] = p.amount0 > 0n ? [p.amount0, p.token0] : [p.amount1, p.token1];
    if (!SENDER_CODES.includes(p.exitCode)) continue;
    success = p.exitCode === SWAP_OK;
    const tnode = pr.children.find((c) => ctx.ownerOf(c)?.type === 'jetton_transfer');
    const tb = tnode && ctx.ownerOf(tnode);
    if (outAmt === null || outAmt < amount) {
      outAmt = amount;
      outAddr = addr;
      outBlock = tb;
      prNode = pr;
    }
  }
  if (!outBlock || !prNode || outAmt === null) return null;
  const outData = outBlock.data as JtData;
  const actualOutAddr = outAddr;
  if (inData.stonfi_swap_body) outAddr = inData.stonfi_swap_body.jetton_wallet;
  const outJetton = ctx.jettonWallet(outAddr)?.jetton ?? null;
  const actualOutJetton = ctx.jettonWallet(actualOutAddr)?.jetton ?? null;
  const dexIn = ctx.jettonWallet(swap.tokenWallet);
  const inJetton = dexIn?.jetton ?? null;
  const sender = inData.sender;
  const incoming = swapTransfer(inJetton, swap.amount, sender, inData.has_internal_transfer ? inData.sender_wallet : null,
    dexIn?.owner ?? null, swap.tokenWallet);
  let destination: string | null, destJw: string | null = null;
  if (outData.has_internal_transfer && outData.receiver_wallet) {
    destination = outData.receiver;
    destJw = outData.receiver_wallet;
  } else if (inData.stonfi_swap_body) destination = inData.stonfi_swap_body.user_address;
  else destination = swap.fromUser ?? sender;
  const outgoing = swapTransfer(actualOutJetton, outAmt, outData.sender, outData.sender_wallet, destination, destJw);
  const b = makeBlock('jetton_swap', [...inBlock.nodes, swapNode, prNode, ...outBlock.nodes], {
    asset: inJetton,
    asset2: outJetton ?? actualOutJetton,
    source: sender,
    source_secondary: incoming.source_jetton_wallet as string | null,
    destination,
    destination_secondary: outAddr ?? destJw,
    jetton_swap_data: {
      dex: 'stonfi',
      sender,
      dex_incoming_transfer: incoming,
      dex_outgoing_transfer: outgoing,
      min_out_amount: null,
      peer_swaps: [],
    },
  });
  b.failed = !success;
  return b;
}

export const stonfiSwapFamily: Family = { name: 'stonfi_swap', absorbs: ['jetton_transfer'], match };
