/**
 * jetton_swap on DeDust: the input reaches a vault (a jetton_transfer to the jetton vault, or swap
 * 0xea06185d to the native vault), the vault sends swap 0x61ee542d to the pool, each pool logs a swap
 * event 0x9c610de3 (assets, amounts, sender) and either hands over to the next pool (0x72aca8aa) or asks
 * the output vault to pay (payout_from_pool 0xad4eb6f5), which pays with a jetton_transfer or, for TON,
 * payout 0x474f86cf.
 */
import { Address, type Slice } from '@ton/core';
import { childWithOp, makeBlock, type Block, type Ctx, type EventNode } from '../core.ts';
import type { Family } from '../family.ts';
import { loadAddr, parseBody, rawAddr } from '../toolkit/cells.ts';
import { OP } from '../toolkit/opcodes.ts';
import { swapTransfer } from './stonfi.ts';

// native$0000 = Asset; jetton$0001 workchain_id:int8 address:uint256 = Asset;
function loadAsset(s: Slice): string | null {
  const kind = s.loadUint(4);
  if (kind === 0) return null;
  const wc = s.loadInt(8);
  return rawAddr(new Address(wc, s.loadBuffer(32)));
}

// swap#9c610de3 asset_in:Asset asset_out:Asset amount_in:Coins amount_out:Coins
//   ^[sender_addr:MsgAddressInt referral_addr:MsgAddress reserve0:Coins reserve1:Coins] = ExtOutMsgBody;
function parseEvent(n: EventNode) {
  return parseBody(n.msg?.body, (s) => {
    if (s.loadUint(32) !== OP.dedustSwapEvent) throw new Error('not a dedust swap event');
    const assetIn = loadAsset(s), assetOut = loadAsset(s);
    const amountIn = s.loadCoins(), amountOut = s.loadCoins();
    const sender = loadAddr(s.loadRef().beginParse());
    return { assetIn, assetOut, amountIn, amountOut, sender };
  });
}

type JtData = { sender: string; sender_wallet: string | null; receiver: string | null; receiver_wallet: string | null; amount: bigint; asset: string | null };

function match(n: EventNode, ctx: Ctx): Block | null {
  if (n.extOut || !n.msg) return null;
  let firstPool: EventNode | undefined, nodes: EventNode[];
  let srcJw: string | null = null, vault: string | null, vaultJw: string | null = null;
  const jt = ctx.ownerOf(n);
  if (jt && jt.type === 'jetton_transfer' && jt.nodes[0] === n) {
    const notify = jt.nodes.find((x) => x.msg?.opcode === OP.jettonNotify);
    firstPool = notify && childWithOp(notify, OP.dedustSwapInternal);
    if (!firstPool) return null;
    const d = jt.data as JtData;
    srcJw = d.sender_wallet;
    vault = d.receiver;
    vaultJw = d.receiver_wallet;
    nodes = [...jt.nodes];
  } else if (n.msg.opcode === OP.dedustSwapNative && n.msg.source) {
    firstPool = childWithOp(n, OP.dedustSwapInternal);
    if (!firstPool) return null;
    vault = n.msg.destination;
    nodes = [n];
  } else return null;

  const events: NonNullable<ReturnType<typeof parseEvent>>[] = [];
  let pool: EventNode | undefined = firstPool;
  let payoutReq: EventNode | undefined;
  while (pool && events.length < 8) {
    nodes.push(pool);
    const evNode = pool.children.find((c) => c.extOut && c.msg?.opcode === OP.dedustSwapEvent);
    const ev = evNode && parseEvent(evNode);
    if (!evNode || !ev) break;
    nodes.push(evNode);
    events.push(ev);
    const peer = childWithOp(pool, OP.dedustSwapPeer);
    if (peer) {
      pool = peer;
      continue;
    }
    payoutReq = childWithOp(pool, OP.dedustPayoutFromPool);
    pool = undefined;
  }
  if (events.length === 0 || !payoutReq) return null;
  nodes.push(payoutReq);
  const first = events[0], last = events[events.length - 1];
  const sender = first.sender;
  let outSource: string | null, outSourceJw: string | null = null, outDest: string | null, outDestJw: string | null = null;
  const payout = childWithOp(payoutReq, OP.dedustPayout);
  if (payout) {
    nodes.push(payout);
    outSource = payout.msg!.source;
    outDest = payout.msg!.destination;
  } else {
    const tn = childWithOp(payoutReq, OP.jettonTransfer);
    const tb = tn && ctx.ownerOf(tn);
    if (!tb || tb.type !== 'jetton_transfer') return null;
    nodes.push(...tb.nodes);
    const d = tb.data as JtData;
    outSource = d.sender;
    outSourceJw = d.sender_wallet;
    outDest = d.receiver;
    outDestJw = d.receiver_wallet;
  }
  const peerSwaps = events.length > 1
    ? events.map((e) => ({ amount_in: e.amountIn, asset_in: e.assetIn, amount_out: e.amountOut, asset_out: e.assetOut }))
    : [];
  const b = makeBlock('jetton_swap', nodes, {
    asset: first.assetIn,
    asset2: last.assetOut,
    source: sender,
    source_secondary: srcJw,
    destination: outDest,
    destination_secondary: outDestJw,
    jetton_swap_data: {
      dex: 'dedust',
      sender,
      dex_incoming_transfer: swapTransfer(first.assetIn, first.amountIn, sender, srcJw, vault, vaultJw),
      dex_outgoing_transfer: swapTransfer(last.assetOut, last.amountOut, outSource, outSourceJw, outDest, outDestJw),
      min_out_amount: null,
      peer_swaps: peerSwaps,
    },
  });
  b.failed = n.tx.aborted;
  return b;
}

export const dedustSwapFamily: Family = { name: 'dedust_swap', absorbs: ['jetton_transfer'], match };
