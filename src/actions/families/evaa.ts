/**
 * EVAA lending: supply (TON: supply_master 0x1 to the master; jettons: a jetton_transfer to the master
 * whose payload is supply_master) and withdraw (withdraw_master 0x2). The master talks to the user's
 * EVAA contract with messages prefixed by a user header (version coins, Maybe ^upgrade, uint2), then
 * supply_user 0x11 / withdraw_user 0x21, answered by supply_success 0x11a / supply_fail 0x11f /
 * withdraw_collateralized 0x211 (payout: withdraw_success 0x211a for TON, a jetton_transfer for jettons).
 */
import type { Slice } from '@ton/core';
import { childWithOp, descendants, makeBlock, type Block, type Ctx, type EventNode } from '../core.ts';
import type { Family } from '../family.ts';
import { loadAddr, parseBody } from '../toolkit/cells.ts';
import { OP as COMMON } from '../toolkit/opcodes.ts';

const OP = {
  supplyMaster: 0x1, supplyUser: 0x11, supplySuccess: 0x11a, supplyFail: 0x11f,
  withdrawMaster: 0x2, withdrawUser: 0x21, withdrawCollateralized: 0x211, withdrawSuccess: 0x211a,
} as const;
/** asset id of TON in EVAA: sha256("TON") */
const TON_ASSET_ID = 0x1a4219fe5e60d63af2a3cc7dce6fec69b45c6b5718497a6148e7c232ac87bd8an;
const WITHDRAW_FAIL_REASONS: Record<number, string> = {
  0x21e6: 'withdraw_locked_excess', 0x21e7: 'withdraw_not_collateralized_excess',
  0x21e8: 'withdraw_missing_prices_excess', 0x21ec: 'withdraw_execution_crashed',
};

function skipUserHeader(s: Slice): void {
  s.loadCoins();
  s.loadMaybeRef();
  s.loadUint(2);
}

/** Child whose body is `user header ++ op` (master -> user contract). */
function childWithHeaderOp(n: EventNode, op: number): { node: EventNode; body: Slice } | undefined {
  for (const c of n.children) {
    if (c.extOut || !c.msg) continue;
    const body = parseBody(c.msg.body, (s) => {
      skipUserHeader(s);
      if (s.loadUint(32) !== op) throw new Error('op');
      return s;
    });
    if (body) return { node: c, body };
  }
  return undefined;
}
const hexId = (v: bigint | null) => (v === null ? null : '0x' + v.toString(16));

type JtData = { sender: string; sender_wallet: string | null; receiver: string | null; receiver_wallet: string | null; amount: bigint; asset: string | null; has_internal_transfer: boolean };

function supply(n: EventNode, ctx: Ctx): Block | null {
  if (n.extOut || !n.msg) return null;
  let sender: string | null, master: string | null, amount: bigint, recipient: string | null;
  let senderJw: string | null = null, masterJw: string | null = null, recipientJw: string | null = null;
  let asset: string | null = null, isTon: boolean, anchor: EventNode, baseNodes: EventNode[];
  const jt = ctx.ownerOf(n);
  if (n.msg.opcode === OP.supplyMaster && n.msg.source) {
    const p = parseBody(n.msg.body, (s) => {
      s.loadUint(32);
      s.loadUintBig(64);
      s.loadInt(2);
      return { amount: s.loadUintBig(64), recipient: loadAddr(s) };
    });
    if (!p) return null;
    isTon = true;
    sender = n.msg.source;
    master = n.msg.destination;
    amount = p.amount;
    recipient = p.recipient;
    anchor = n;
    baseNodes = [n];
  } else if (jt && jt.type === 'jetton_transfer' && jt.nodes[0] === n) {
    const d = jt.data as JtData;
    const notify = jt.nodes.find((x) => x.msg?.opcode === COMMON.jettonNotify);
    const payload = notify && parseBody(notify.msg!.body, (s) => {
      s.loadUint(32);
      s.loadUintBig(64);
      s.loadCoins();
      s.loadAddressAny();
      const p = s.loadBit() ? s.loadRef().beginParse() : s;
      if (p.loadUint(32) !== OP.supplyMaster) throw new Error('not evaa supply');
      p.loadInt(2);
      return { recipient: loadAddr(p) };
    });
    if (!notify || !payload) return null;
    isTon = false;
    sender = d.sender;
    senderJw = d.sender_wallet;
    masterJw = d.receiver_wallet;
    master = d.receiver;
    amount = d.amount;
    asset = d.asset;
    recipient = payload.recipient;
    if (sender === recipient) recipientJw = senderJw;
    anchor = notify;
    baseNodes = jt.nodes;
  } else return null;
  const user = childWithHeaderOp(anchor, OP.supplyUser);
  if (!user) return null;
  user.body.loadUintBig(64);
  const assetId = user.body.loadUintBig(256);
  const success = childWithOp(user.node, OP.supplySuccess);
  const fail = childWithOp(user.node, OP.supplyFail);
  const refund = user.node.children.find((c) => ctx.ownerOf(c)?.type === 'jetton_transfer');
  if (success) {
    const s = parseBody(success.msg!.body, (sl) => {
      sl.loadUint(32);
      sl.loadUintBig(64);
      loadAddr(sl);
      sl.loadUintBig(256);
      return sl.loadUintBig(64);
    });
    if (s !== null) amount = s;
  } else if (!fail && !refund) return null;
  const b = makeBlock('evaa_supply', [...baseNodes, user.node, ...descendants(user.node)], {
    source: sender,
    source_secondary: senderJw,
    destination: recipient,
    destination_secondary: user.node.msg!.destination,
    amount,
    asset,
    evaa_supply_data: {
      is_ton: isTon, asset_id: hexId(assetId), master, recipient_jetton_wallet: recipientJw, master_jetton_wallet: masterJw,
    },
  });
  b.failed = !success || anchor.tx.aborted;
  return b;
}

function withdraw(n: EventNode, ctx: Ctx): Block | null {
  if (n.extOut || n.msg?.opcode !== OP.withdrawMaster || !n.msg.source) return null;
  const p = parseBody(n.msg.body, (s) => {
    s.loadUint(32);
    s.loadUintBig(64);
    return { assetId: s.loadUintBig(256), amount: s.loadUintBig(64), recipient: loadAddr(s) };
  });
  const user = childWithHeaderOp(n, OP.withdrawUser);
  if (!p || !user) return null;
  const isTon = p.assetId === TON_ASSET_ID;
  const coll = childWithOp(user.node, OP.withdrawCollateralized);
  let amount = p.amount, asset: string | null = null, recipientJw: string | null = null, masterJw: string | null = null;
  let failReason: string | null = null, ok = false;
  if (coll) {
    const c = parseBody(coll.msg!.body, (s) => {
      s.loadUint(32);
      s.loadUintBig(64);
      loadAddr(s);
      s.loadUintBig(256);
      return s.loadUintBig(64);
    });
    if (c !== null) amount = c;
    if (isTon) {
      if (!childWithOp(coll, OP.withdrawSuccess)) return null;
    } else {
      const pn = coll.children.find((x) => ctx.ownerOf(x)?.type === 'jetton_transfer');
      const payout = pn && ctx.ownerOf(pn);
      if (!payout) return null;
      const d = payout.data as JtData;
      asset = d.asset;
      recipientJw = d.receiver_wallet;
      masterJw = d.sender_wallet;
    }
    ok = true;
  } else {
    const failNode = user.node.children.find((c) => c.msg?.opcode !== null && c.msg?.opcode !== undefined && WITHDRAW_FAIL_REASONS[c.msg.opcode] !== undefined);
    if (!failNode) return null;
    failReason = WITHDRAW_FAIL_REASONS[failNode.msg!.opcode!];
  }
  const b = makeBlock('evaa_withdraw', [n, ...descendants(n)], {
    source: n.msg.source,
    destination: p.recipient,
    destination_secondary: user.node.msg!.destination,
    amount,
    asset,
    evaa_withdraw_data: {
      is_ton: isTon, recipient_jetton_wallet: recipientJw, master_jetton_wallet: masterJw, fail_reason: failReason,
      master: n.msg.destination, asset_id: hexId(p.assetId),
    },
  });
  b.failed = !ok || n.tx.aborted;
  return b;
}

export const evaaFamily: Family = {
  name: 'evaa',
  absorbs: ['jetton_transfer'],
  match(n, ctx) {
    return supply(n, ctx) ?? withdraw(n, ctx);
  },
};
