/**
 * jetton_swap on STON.fi v2: a jetton_transfer to the router whose notification makes the router send
 * swap (0x6664de2a) to the pool; the pool answers pay_to (0x657b54f5) and the router pays out with a
 * jetton_transfer. A payout that lands on another router and triggers a swap there is a further hop
 * (multi-router route); hops are listed as peer_swaps.
 */
import { childWithOp, makeBlock, type Block, type Ctx, type EventNode } from '../core.ts';
import type { Family } from '../family.ts';
import { loadAddr, parseBody } from '../toolkit/cells.ts';
import { OP } from '../toolkit/opcodes.ts';
import { swapTransfer } from './stonfi.ts';

const SWAP_OK = 0xc64370e5;

// pay_to#657b54f5 query_id:uint64 to_address:MsgAddress excesses_address:MsgAddress original_caller:MsgAddress
//   exit_code:uint32 custom_payload:(Maybe ^Cell)
//   ^[fwd_ton_amount:Coins amount0_out:Coins token0_address:MsgAddress amount1_out:Coins token1_address:MsgAddress]
export function parseStonfiV2PayTo(body: string | null | undefined) {
  return parseBody(body, (s) => {
    if (s.loadUint(32) !== OP.stonfiV2PayTo) throw new Error('not a stonfi v2 pay_to');
    const queryId = s.loadUintBig(64);
    const toAddress = loadAddr(s);
    const excessesAddress = loadAddr(s);
    const originalCaller = loadAddr(s);
    const exitCode = s.loadUint(32);
    s.loadMaybeRef();
    const r = s.loadRef().beginParse();
    const fwdTonAmount = r.loadCoins();
    const amount0 = r.loadCoins();
    const token0 = loadAddr(r);
    const amount1 = r.loadCoins();
    const token1 = loadAddr(r);
    return { queryId, toAddress, excessesAddress, originalCaller, exitCode, fwdTonAmount, amount0, token0, amount1, token1 };
  });
}

type JtData = {
  sender: string; sender_wallet: string | null; receiver: string | null; receiver_wallet: string | null;
  amount: bigint; asset: string | null;
};

interface Hop { inBlock: Block; swap: EventNode; payTo: EventNode; outBlock: Block; exitCode: number }

function hopFrom(inBlock: Block, ctx: Ctx): Hop | null {
  const notify = inBlock.nodes.find((x) => x.msg?.opcode === OP.jettonNotify);
  const swap = notify && childWithOp(notify, OP.stonfiV2Swap);
  const payTo = swap && childWithOp(swap, OP.stonfiV2PayTo);
  if (!swap || !payTo) return null;
  const p = parseStonfiV2PayTo(payTo.msg!.body);
  const outNode = payTo.children.find((c) => ctx.ownerOf(c)?.type === 'jetton_transfer');
  const outBlock = outNode && ctx.ownerOf(outNode);
  if (!outBlock || !p) return null;
  return { inBlock, swap, payTo, outBlock, exitCode: p.exitCode };
}

function match(n: EventNode, ctx: Ctx): Block | null {
  const first = ctx.ownerOf(n);
  if (!first || first.type !== 'jetton_transfer' || first.nodes[0] !== n) return null;
  // a transfer that is itself the payout of a previous hop belongs to that hop's swap
  if (n.parent && n.parent.msg?.opcode === OP.stonfiV2PayTo) return null;
  const hops: Hop[] = [];
  let cur: Block | undefined = first;
  while (cur) {
    const h = hopFrom(cur, ctx);
    if (!h) break;
    hops.push(h);
    cur = h.outBlock;
  }
  if (hops.length === 0) return null;
  const inD = first.data as JtData;
  const last = hops[hops.length - 1];
  const outD = last.outBlock.data as JtData;
  const incoming = swapTransfer(inD.asset, inD.amount, inD.sender, inD.sender_wallet, inD.receiver, inD.receiver_wallet);
  const outgoing = swapTransfer(outD.asset, outD.amount, outD.sender, outD.sender_wallet, outD.receiver, outD.receiver_wallet);
  const peerSwaps = hops.length > 1
    ? hops.map((h) => {
      const i = h.inBlock.data as JtData, o = h.outBlock.data as JtData;
      return { amount_in: i.amount, asset_in: i.asset, amount_out: o.amount, asset_out: o.asset };
    })
    : [];
  const nodes = new Set<EventNode>(first.nodes);
  for (const h of hops) for (const x of [h.swap, h.payTo, ...h.outBlock.nodes]) nodes.add(x);
  const b = makeBlock('jetton_swap', [...nodes], {
    asset: inD.asset,
    asset2: outD.asset,
    source: inD.sender,
    source_secondary: inD.sender_wallet,
    destination: outD.receiver,
    destination_secondary: outD.receiver_wallet,
    jetton_swap_data: {
      dex: 'stonfi_v2',
      sender: inD.sender,
      dex_incoming_transfer: incoming,
      dex_outgoing_transfer: outgoing,
      min_out_amount: null,
      peer_swaps: peerSwaps,
    },
  });
  b.failed = hops.some((h) => h.exitCode !== SWAP_OK);
  return b;
}

export const stonfiV2SwapFamily: Family = { name: 'stonfi_v2_swap', absorbs: ['jetton_transfer'], match };
