/**
 * jetton_swap on TONCO (concentrated-liquidity DEX): funds reach the router either as a jetton_transfer
 * or as a pTON ton_transfer (0x01f3835d) to the router's pTON wallet; the router's notification carries
 * POOLV3_SWAP (0xa7fb58f8) to the pool, the pool answers ROUTERV3_PAY_TO (0xa1daa96d, exit 200 = swapped)
 * and the router pays out with a jetton transfer (TON leaves through pTON as 0x01f3835d). A payout
 * that comes back to the router as another swap is a further hop (peer_swaps).
 * min_out_amount follows the reference (toncenter's tonco swap core): the amount paid out when the swap went
 * through, the user's requested minimum (last hop of the swap payload) when it failed.
 */
import { childWithOp, makeBlock, type Block, type Ctx, type EventNode } from '../core.ts';
import type { Family } from '../family.ts';
import { loadAddr, parseBody } from '../toolkit/cells.ts';
import { parseJettonTransfer } from '../toolkit/jetton.ts';
import { OP as COMMON } from '../toolkit/opcodes.ts';
import { swapTransfer } from './stonfi.ts';

const OP = { swap: 0xa7fb58f8, payTo: 0xa1daa96d, ptonTransfer: 0x01f3835d } as const;
const SWAP_OK = 200;

type JtData = { sender: string; sender_wallet: string | null; receiver: string | null; receiver_wallet: string | null; amount: bigint; asset: string | null };

interface Leg { asset: string | null; amount: bigint; source: string | null; sourceJw: string | null; destination: string | null; destJw: string | null; nodes: EventNode[] }

function parseSwap(n: EventNode) {
  return parseBody(n.msg?.body, (s) => {
    if (s.loadUint(32) !== OP.swap) throw new Error('not a tonco swap');
    s.loadUintBig(64);
    loadAddr(s);
    loadAddr(s);
    const p = s.loadRef().beginParse();
    p.loadCoins();
    p.loadUintBig(160);
    return { minOut: p.loadCoins() };
  });
}
function payToExit(n: EventNode): number | null {
  return parseBody(n.msg?.body, (s) => {
    s.loadUint(32);
    s.loadUintBig(64);
    loadAddr(s);
    loadAddr(s);
    return s.loadUint(32);
  });
}
/** ton_amount of a pTON ton_transfer (0x01f3835d query_id:uint64 ton_amount:Coins …). */
export function ptonAmount(n: EventNode): bigint | null {
  return parseBody(n.msg?.body, (s) => {
    if (s.loadUint(32) !== OP.ptonTransfer) throw new Error('not a pton transfer');
    s.loadUintBig(64);
    return s.loadCoins();
  });
}

/** The user's swap request carried in the router notification: final target router wallet and min out. */
function swapRequest(notify: EventNode): { target: string | null; minOut: bigint } | null {
  return parseBody(notify.msg?.body, (s) => {
    s.loadUint(32);
    s.loadUintBig(64);
    s.loadCoins();
    s.loadAddressAny();
    let p = s.loadBit() ? s.loadRef().beginParse() : s;
    let res: { target: string | null; minOut: bigint } | null = null;
    for (let depth = 0; depth < 8; depth++) {
      if (p.remainingBits < 32 || p.loadUint(32) !== OP.swap) break;
      const target = loadAddr(p);
      p.loadUintBig(160);
      const minOut = p.loadCoins();
      loadAddr(p);
      res = { target, minOut };
      const next = p.loadMaybeRef();
      if (!next) break;
      p = next.beginParse();
    }
    return res;
  });
}

/** The incoming leg starting at node n, and the router notification that carries the swap. */
function entryLeg(n: EventNode, ctx: Ctx): { leg: Leg; notify: EventNode } | null {
  if (n.extOut || !n.msg) return null;
  const jt = ctx.ownerOf(n);
  if (jt && jt.type === 'jetton_transfer' && jt.nodes[0] === n) {
    const notify = jt.nodes.find((x) => x.msg?.opcode === COMMON.jettonNotify);
    if (!notify || !childWithOp(notify, OP.swap)) return null;
    const d = jt.data as JtData;
    return { leg: { asset: d.asset, amount: d.amount, source: d.sender, sourceJw: d.sender_wallet, destination: d.receiver, destJw: d.receiver_wallet, nodes: jt.nodes }, notify };
  }
  if (n.msg.opcode === OP.ptonTransfer && n.msg.source && n.msg.source !== n.msg.destination) {
    const notify = childWithOp(n, COMMON.jettonNotify);
    const amount = ptonAmount(n);
    if (!notify || !childWithOp(notify, OP.swap) || amount === null) return null;
    return { leg: { asset: null, amount, source: n.msg.source, sourceJw: null, destination: notify.msg!.destination, destJw: n.msg.destination, nodes: [n, notify] }, notify };
  }
  return null;
}

interface Hop { in: Leg; out: Leg; swap: EventNode; payTo: EventNode; exit: number | null; next: EventNode | null }

function hop(inLeg: Leg, notify: EventNode, ctx: Ctx): Hop | null {
  const swap = childWithOp(notify, OP.swap);
  const payTo = swap && childWithOp(swap, OP.payTo);
  const payout = payTo && childWithOp(payTo, COMMON.jettonTransfer);
  if (!swap || !payTo || !payout) return null;
  const t = parseJettonTransfer(payout.msg!.body);
  if (!t) return null;
  const router = payout.msg!.source;
  const pton = childWithOp(payout, OP.ptonTransfer);
  const nodes = [payout];
  let out: Leg, next: EventNode | null = null;
  if (pton) {
    nodes.push(pton);
    const n2 = childWithOp(pton, COMMON.jettonNotify);
    if (n2 && childWithOp(n2, OP.swap)) {
      nodes.push(n2);
      next = n2;
    }
    out = { asset: null, amount: t.amount, source: router, sourceJw: null, destination: pton.msg!.destination, destJw: null, nodes };
  } else {
    const jb = ctx.ownerOf(payout);
    if (!jb || jb.type !== 'jetton_transfer') return null;
    const d = jb.data as JtData;
    const n2 = jb.nodes.find((x) => x.msg?.opcode === COMMON.jettonNotify);
    if (n2 && childWithOp(n2, OP.swap)) next = n2;
    out = { asset: d.asset, amount: d.amount, source: d.sender, sourceJw: d.sender_wallet, destination: d.receiver, destJw: d.receiver_wallet, nodes: jb.nodes };
  }
  return { in: inLeg, out, swap, payTo, exit: payToExit(payTo), next };
}

function match(n: EventNode, ctx: Ctx): Block | null {
  const entry = entryLeg(n, ctx);
  if (!entry) return null;
  // a payout that is itself the next hop's input belongs to the first hop's swap
  if (n.parent?.msg?.opcode === OP.payTo || n.parent?.parent?.msg?.opcode === OP.payTo) return null;
  const hops: Hop[] = [];
  let inLeg = entry.leg, notify: EventNode | null = entry.notify;
  while (notify && hops.length < 8) {
    const h = hop(inLeg, notify, ctx);
    if (!h) break;
    hops.push(h);
    inLeg = { ...h.out };
    notify = h.next;
  }
  if (hops.length === 0) return null;
  const first = entry.leg, last = hops[hops.length - 1].out;
  const failed = hops.some((h) => h.exit !== SWAP_OK);
  // a swap that went through reports what it paid out as asset_out and min_out_amount; a failed one reports
  // the user's request (last hop of the payload: target wallet's jetton and min out), as the reference does
  const req = failed ? swapRequest(entry.notify) : null;
  const targetAsset = req?.target ? (ctx.jettonWallet(req.target)?.jetton ?? null) : null;
  const nodes = new Set<EventNode>(first.nodes);
  for (const h of hops) for (const x of [h.swap, h.payTo, ...h.out.nodes]) nodes.add(x);
  const peerSwaps = hops.length > 1
    ? hops.map((h) => ({ amount_in: h.in.amount, asset_in: h.in.asset, amount_out: h.out.amount, asset_out: h.out.asset }))
    : [];
  const b = makeBlock('jetton_swap', [...nodes], {
    asset: first.asset,
    asset2: targetAsset ?? last.asset,
    source: first.source,
    source_secondary: first.sourceJw,
    destination: last.destination,
    destination_secondary: last.destJw,
    jetton_swap_data: {
      dex: 'tonco',
      sender: first.source,
      dex_incoming_transfer: swapTransfer(first.asset, first.amount, first.source, first.sourceJw, first.destination, first.destJw),
      dex_outgoing_transfer: swapTransfer(last.asset, last.amount, last.source, last.sourceJw, last.destination, last.destJw),
      min_out_amount: failed ? (req?.minOut ?? parseSwap(hops[0].swap)?.minOut ?? null) : last.amount,
      peer_swaps: peerSwaps,
    },
  });
  b.failed = failed;
  return b;
}

export const toncoSwapFamily: Family = { name: 'tonco_swap', absorbs: ['jetton_transfer'], match };

const CREATE_POOL = 0x2e3034ef, POOL_INIT = 0x441c39ed;

/**
 * tonco_deploy_pool: ROUTERV3_CREATE_POOL 0x2e3034ef (query_id jetton_wallet0 jetton_wallet1 tick_spacing:int24
 * initial_price_x96:uint160 protocol_fee:uint16 lp_fee_base:uint16 lp_fee_current:uint16 ^nft ^nft_item
 * ^[jetton0_minter jetton1_minter controller]) to the router, which sends POOLV3_INIT 0x441c39ed to the pool.
 */
function deployPool(n: EventNode): Block | null {
  if (n.extOut || n.msg?.opcode !== CREATE_POOL) return null;
  const init = childWithOp(n, POOL_INIT);
  const p = parseBody(n.msg.body, (s) => {
    s.loadUint(32);
    s.loadUintBig(64);
    const w0 = loadAddr(s), w1 = loadAddr(s);
    const tickSpacing = s.loadInt(24);
    const price = s.loadUintBig(160);
    const protocolFee = s.loadUint(16), lpFeeBase = s.loadUint(16), lpFeeCurrent = s.loadUint(16);
    s.loadRef();
    s.loadRef();
    const m = s.loadRef().beginParse();
    return { w0, w1, tickSpacing, price, protocolFee, lpFeeBase, lpFeeCurrent, m0: loadAddr(m), m1: loadAddr(m) };
  });
  if (!init || !p) return null;
  // POOLV3_INIT … set_active:Bool pool_active:Bool …: read the activity flag the router set
  const active = parseBody(init.msg!.body, (s) => {
    s.loadUint(32);
    s.loadUintBig(64);
    s.loadBit();
    s.loadBit();
    loadAddr(s);
    s.loadBit();
    loadAddr(s);
    s.loadBit();
    s.loadInt(24);
    s.loadBit();
    s.loadUintBig(160);
    s.loadBit();
    return s.loadBit();
  });
  const b = makeBlock('tonco_deploy_pool', [n, init], {
    source: n.msg.source,
    destination: n.msg.destination,
    destination_secondary: init.msg!.destination,
    tonco_deploy_pool_data: {
      jetton0_router_wallet: p.w0, jetton1_router_wallet: p.w1, jetton0_minter: p.m0, jetton1_minter: p.m1,
      tick_spacing: p.tickSpacing, initial_price_x96: p.price, protocol_fee: p.protocolFee, lp_fee_base: p.lpFeeBase,
      lp_fee_current: p.lpFeeCurrent, pool_active: active,
    },
  });
  b.failed = n.tx.aborted || init.tx.aborted;
  return b;
}

export const toncoDeployPoolFamily: Family = { name: 'tonco_deploy_pool', match: deployPool };
