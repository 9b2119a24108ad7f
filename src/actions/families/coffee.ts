/**
 * jetton_swap on swap.coffee: the input reaches a vault (a jetton_transfer to the jetton vault, or
 * swap_native 0xc0ffee00 to the native vault), the vault sends swap 0xc0ffee20 to a pool, every pool logs
 * swap_successful_event 0xc0ffee30 (failed: 0xc0ffee31) and either forwards 0xc0ffee20 to the next pool
 * of the route or sends payout 0xc0ffee21 to the output vault, which pays the recipient (TON:
 * 0xc0ffee32; jettons: a jetton_transfer).
 */
import { Address, type Slice } from '@ton/core';
import { childWithOp, makeBlock, type Block, type Ctx, type EventNode } from '../core.ts';
import type { Family } from '../family.ts';
import { parseBody, rawAddr } from '../toolkit/cells.ts';
import { OP as COMMON } from '../toolkit/opcodes.ts';
import { swapTransfer } from './stonfi.ts';

const OP = { swapNative: 0xc0ffee00, poolSwap: 0xc0ffee20, payout: 0xc0ffee21, okEvent: 0xc0ffee30, failEvent: 0xc0ffee31, nativePayout: 0xc0ffee32, nativePayoutWithPayload: 0xc0ffee36 } as const;

// native$00 = Asset; jetton$01 chain:uint8 hash:uint256 = Asset; extra$10 id:uint32 = Asset;
export function loadCoffeeAsset(s: Slice): string | null {
  const tag = s.loadUint(2);
  if (tag === 0) return null;
  if (tag === 1) {
    const wc = s.loadUint(8);
    return rawAddr(new Address(wc > 127 ? wc - 256 : wc, s.loadBuffer(32)));
  }
  throw new Error('unsupported coffee asset');
}

type JtData = { sender: string; sender_wallet: string | null; receiver: string | null; receiver_wallet: string | null; amount: bigint; asset: string | null };
interface Leg { asset: string | null; amount: bigint; source: string | null; sourceJw: string | null; destination: string | null; destJw: string | null }

function match(n: EventNode, ctx: Ctx): Block | null {
  if (n.extOut || !n.msg) return null;
  let inLeg: Leg, firstPool: EventNode | undefined, nodes: EventNode[];
  const jt = ctx.ownerOf(n);
  if (jt && jt.type === 'jetton_transfer' && jt.nodes[0] === n) {
    const notify = jt.nodes.find((x) => x.msg?.opcode === COMMON.jettonNotify);
    firstPool = notify && childWithOp(notify, OP.poolSwap);
    if (!firstPool) return null;
    const d = jt.data as JtData;
    inLeg = { asset: d.asset, amount: d.amount, source: d.sender, sourceJw: d.sender_wallet, destination: d.receiver, destJw: d.receiver_wallet };
    nodes = [...jt.nodes];
  } else if (n.msg.opcode === OP.swapNative && n.msg.source) {
    firstPool = childWithOp(n, OP.poolSwap);
    const amount = parseBody(n.msg.body, (s) => {
      s.loadUint(32);
      s.loadUintBig(64);
      return s.loadCoins();
    });
    if (!firstPool || amount === null) return null;
    inLeg = { asset: null, amount, source: n.msg.source, sourceJw: null, destination: n.msg.destination, destJw: null };
    nodes = [n];
  } else return null;

  const steps: Array<{ inAsset: string | null; inAmount: bigint; outAmount: bigint | null }> = [];
  let pool: EventNode | undefined = firstPool;
  let payout: EventNode | undefined;
  let ok = true;
  while (pool && steps.length < 8) {
    nodes.push(pool);
    const okEv = pool.children.find((c) => c.extOut && c.msg?.opcode === OP.okEvent);
    const failEv = pool.children.find((c) => c.extOut && c.msg?.opcode === OP.failEvent);
    const ev = okEv ?? failEv;
    if (ev) nodes.push(ev);
    const parsed = ev && parseBody(ev.msg!.body, (s) => {
      s.loadUint(32);
      s.loadUintBig(64);
      const asset = loadCoffeeAsset(s);
      const inAmount = s.loadCoins();
      return { asset, inAmount, outAmount: okEv ? s.loadCoins() : null };
    });
    if (!parsed) return null;
    if (!okEv) ok = false;
    steps.push({ inAsset: parsed.asset, inAmount: parsed.inAmount, outAmount: parsed.outAmount });
    const next = childWithOp(pool, OP.poolSwap);
    if (next) {
      pool = next;
      continue;
    }
    payout = childWithOp(pool, OP.payout);
    pool = undefined;
  }
  if (!payout || steps.length === 0) return null;
  nodes.push(payout);
  let outLeg: Leg;
  const native = childWithOp(payout, OP.nativePayout) ?? childWithOp(payout, OP.nativePayoutWithPayload);
  const lastOut = steps[steps.length - 1].outAmount;
  if (native) {
    nodes.push(native);
    // a payout with a notification payload (0xc0ffee36) is reported with the value it carries on
    const amount = native.msg!.opcode === OP.nativePayoutWithPayload ? (native.msg!.value ?? 0n) : (lastOut ?? native.msg!.value ?? 0n);
    const source = native.msg!.opcode === OP.nativePayoutWithPayload ? native.msg!.source : payout.msg!.source;
    outLeg = { asset: null, amount, source, sourceJw: null, destination: native.msg!.destination, destJw: null };
  } else {
    const tn = childWithOp(payout, COMMON.jettonTransfer);
    const tb = tn && ctx.ownerOf(tn);
    if (!tb || tb.type !== 'jetton_transfer') return null;
    nodes.push(...tb.nodes);
    const d = tb.data as JtData;
    outLeg = { asset: d.asset, amount: d.amount, source: d.sender, sourceJw: d.sender_wallet, destination: d.receiver, destJw: d.receiver_wallet };
  }
  const peerSwaps = steps.length > 1
    ? steps.map((s, i) => ({ amount_in: s.inAmount, asset_in: s.inAsset, amount_out: s.outAmount, asset_out: i + 1 < steps.length ? steps[i + 1].inAsset : outLeg.asset }))
    : [];
  const b = makeBlock('jetton_swap', nodes, {
    asset: inLeg.asset,
    asset2: outLeg.asset,
    source: inLeg.source,
    source_secondary: inLeg.sourceJw,
    destination: outLeg.destination,
    destination_secondary: outLeg.destJw,
    jetton_swap_data: {
      dex: 'coffee',
      sender: inLeg.source,
      dex_incoming_transfer: swapTransfer(inLeg.asset, inLeg.amount, inLeg.source, inLeg.sourceJw, inLeg.destination, inLeg.destJw),
      dex_outgoing_transfer: swapTransfer(outLeg.asset, outLeg.amount, outLeg.source, outLeg.sourceJw, outLeg.destination, outLeg.destJw),
      min_out_amount: null,
      peer_swaps: peerSwaps,
    },
  });
  b.failed = !ok || n.tx.aborted;
  return b;
}

export const coffeeSwapFamily: Family = { name: 'coffee_swap', absorbs: ['jetton_transfer'], match };
