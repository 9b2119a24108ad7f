/**
 * Fallback for a trace that is only a wallet external which sent nothing (failed or out of funds):
 * the intended messages are read from the signed external body (wallet v3/v4 send lists, wallet v5
 * OutList) and jetton transfers among them become "ghost" jetton_transfer actions marked failed.
 */
import { loadMessageRelaxed, type Cell, type Slice } from '@ton/core';
import { makeBlock, type Block, type Ctx, type EventNode } from '../core.ts';
import { bocB64, cellFromBoc, rawAddr } from '../toolkit/cells.ts';
import { parseJettonTransfer } from '../toolkit/jetton.ts';
import { jettonTransferData } from './jetton-transfer.ts';

const W5_SIGNED_EXTERNAL = 0x7369676e;
const ACTION_SEND_MSG = 0x0ec3c86d;

interface Intended { destination: string | null; value: bigint | null; body: string | null }

function relaxed(c: Cell): Intended | null {
  try {
    const m = loadMessageRelaxed(c.beginParse());
    if (m.info.type !== 'internal') return null;
    return { destination: rawAddr(m.info.dest), value: m.info.value.coins, body: bocB64(m.body) };
  } catch {
    return null;
  }
}

// out_list$_ {n:#} prev:^(OutList n) action:OutAction = OutList (n + 1);
// action_send_msg#0ec3c86d mode:(## 8) out_msg:^(MessageRelaxed Any) = OutAction;
function outList(c: Cell, out: Intended[], depth = 0): void {
  if (depth > 255) return;
  const s = c.beginParse();
  if (s.remainingRefs === 0) return;
  outList(s.loadRef(), out, depth + 1);
  if (s.remainingBits >= 40 && s.loadUint(32) === ACTION_SEND_MSG) {
    s.loadUint(8);
    const m = relaxed(s.loadRef());
    if (m) out.push(m);
  }
}

function fromW5(s: Slice): Intended[] {
  if (s.loadUint(32) !== W5_SIGNED_EXTERNAL) return [];
  s.loadUint(32); // wallet_id
  s.loadUint(32); // valid_until
  s.loadUint(32); // seqno
  const out: Intended[] = [];
  const list = s.loadMaybeRef();
  if (list) outList(list, out);
  return out;
}

/** wallet v3: signature subwallet_id valid_until seqno (mode ^msg)*; v4 adds op:uint8 (0 = simple send). */
function fromV3V4(s: Slice): Intended[] {
  s.skip(512);
  s.loadUint(32);
  s.loadUint(32);
  s.loadUint(32);
  if (s.remainingBits === 8) s.loadUint(8);
  const out: Intended[] = [];
  while (s.remainingRefs > 0) {
    if (s.remainingBits >= 8) s.loadUint(8);
    const m = relaxed(s.loadRef());
    if (m) out.push(m);
  }
  return out;
}

export function intendedMessages(body: string | null | undefined): Intended[] {
  const c = cellFromBoc(body);
  if (!c) return [];
  for (const f of [fromW5, fromV3V4]) {
    try {
      const r = f(c.beginParse());
      if (r.length > 0) return r;
    } catch {
      // not this wallet layout
    }
  }
  return [];
}

/** Ghost blocks for a lone external that produced no messages; empty when the trace is anything else. */
export function failedExternalBlocks(ctx: Ctx): Block[] {
  const root: EventNode = ctx.root;
  if (ctx.nodes.length !== 1 || !root.msg || root.msg.source !== null || root.tx.outMsgs.length > 0) return [];
  const out: Block[] = [];
  for (const m of intendedMessages(root.msg.body)) {
    const t = parseJettonTransfer(m.body);
    const wallet = t && ctx.jettonWallet(m.destination);
    if (!t || !wallet) continue;
    const b = makeBlock('jetton_transfer', [root], {
      source: wallet.owner,
      source_secondary: m.destination,
      destination: t.destination,
      amount: t.amount,
      asset: wallet.jetton,
      jetton_transfer_data: jettonTransferData(t),
    }, { ghost: true, initiating: null });
    b.failed = true;
    out.push(b);
  }
  return out;
}
