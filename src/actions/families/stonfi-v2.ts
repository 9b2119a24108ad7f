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

interface Leg { asset: string | null; amount: bigint; sender: string | null; sender_wallet: string | null; receiver: string | null; receiver_wallet: string | null }
interface Hop { inLeg: Leg; inNodes: EventNode[]; swap: EventNode; payTo: EventNode; outBlock: Block; exitCode: number }

const PTON_TRANSFER = 0x01f3835d;

/** pton ton_transfer#01f3835d query_id:uint64 ton_amount:Coins refund_address:MsgAddress … to a router's pTON wallet. */
function ptonEntry(n: EventNode): { leg: Leg; notify: EventNode } | null {
  if (n.extOut || n.msg?.opcode !== PTON_TRANSFER || !n.msg.source || n.msg.source === n.msg.destination) return null;
  const notify = childWithOp(n, OP.jettonNotify);
  const amount = parseBody(n.msg.body, (s) => {
    s.loadUint(32);
    s.loadUintBig(64);
    return s.loadCoins();
  });
  if (!notify || amount === null) return null;
  return { leg: { asset: null, amount, sender: n.msg.source, sender_wallet: null, receiver: notify.msg!.destination, receiver_wallet: n.msg.destination }, notify };
}

function legOf(b: Block): Leg {
  const d = b.data as JtData;
  return { asset: d.asset, amount: d.amount, sender: d.sender, sender_wallet: d.sender_wallet, receiver: d.receiver, receiver_wallet: d.receiver_wallet };
}

function hopFrom(inLeg: Leg, inNodes: EventNode[], ctx: Ctx): Hop | null {
  const notify = inNodes.find((x) => x.msg?.opcode === OP.jettonNotify);
  const swap = notify && childWithOp(notify, OP.stonfiV2Swap);
  const payTo = swap && childWithOp(swap, OP.stonfiV2PayTo);
  if (!swap || !payTo) return null;
  const p = parseStonfiV2PayTo(payTo.msg!.body);
  const outNode = payTo.children.find((c) => ctx.ownerOf(c)?.type === 'jetton_transfer');
  const outBlock = outNode && ctx.ownerOf(outNode);
  if (!outBlock || !p) return null;
  return { inLeg, inNodes, swap, payTo, outBlock, exitCode: p.exitCode };
}

function match(n: EventNode, ctx: Ctx): Block | null {
  const owner = ctx.ownerOf(n);
  let entry: { leg: Leg; nodes: EventNode[] } | null = null;
  if (owner && owner.type === 'jetton_transfer' && owner.nodes[0] === n) entry = { leg: legOf(owner), nodes: owner.nodes };
  else {
    const p = ptonEntry(n);
    if (p) entry = { leg: p.leg, nodes: [n, p.notify] };
  }
  if (!entry) return null;
  // a transfer that is itself the payout of a previous hop belongs to that hop's swap
  if (n.parent && n.parent.msg?.opcode === OP.stonfiV2PayTo) return null;
  const hops: Hop[] = [];
  let curLeg: Leg | null = entry.leg, curNodes = entry.nodes;
  while (curLeg && hops.length < 8) {
    const h = hopFrom(curLeg, curNodes, ctx);
    if (!h) break;
    hops.push(h);
    curLeg = legOf(h.outBlock);
    curNodes = h.outBlock.nodes;
  }
  if (hops.length === 0) return null;
  const inD = entry.leg;
  const last = hops[hops.length - 1];
  const outD = legOf(last.outBlock);
  const incoming = swapTransfer(inD.asset, inD.amount, inD.sender, inD.sender_wallet, inD.receiver, inD.receiver_wallet);
  const outgoing = swapTransfer(outD.asset, outD.amount, outD.sender, outD.sender_wallet, outD.receiver, outD.receiver_wallet);
  const peerSwaps = hops.length > 1
    ? hops.map((h) => {
      const i = h.inLeg, o = legOf(h.outBlock);
      return { amount_in: i.amount, asset_in: i.asset, amount_out: o.amount, asset_out: o.asset };
    })
    : [];
  const nodes = new Set<EventNode>(entry.nodes);
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
