/**
 * tgBTC (Bitcoin teleport): mint (chain from 0x3f781d24 to the 0xe42a879b tail that logs mint
 * 0x77a80ef3 and mints the jetton), burn (a jetton_burn whose notification reaches the teleport, which
 * logs burn 0xca444ce6) and new key (0x690f357a after a DKG-completed log, logging new key 0x27756729).
 */
import { childWithOp, descendants, makeBlock, type Block, type Ctx, type EventNode } from '../core.ts';
import type { Family } from '../family.ts';
import { loadAddr, parseBody } from '../toolkit/cells.ts';
import { OP as COMMON } from '../toolkit/opcodes.ts';

const OP = {
  mintHead: 0x3f781d24,
  mintTail: 0xe42a879b,
  mintLog: 0x77a80ef3,
  burnLog: 0xca444ce6,
  burnRelay: 0x587643a2,
  newKey: 0x690f357a,
  newKeyLog: 0x27756729,
  dkgCompletedLog: 0x453443a6,
} as const;

function extOutWithOp(n: EventNode, op: number): EventNode | undefined {
  return n.children.find((c) => c.extOut && c.msg?.opcode === op);
}
const hex256 = (v: bigint) => v.toString(16).padStart(64, '0');

function mint(n: EventNode, ctx: Ctx): Block | null {
  if (n.msg?.opcode !== OP.mintTail || n.extOut) return null;
  const log = extOutWithOp(n, OP.mintLog);
  const mintNode = n.children.find((c) => ctx.ownerOf(c)?.type === 'jetton_mint');
  const mintBlock = mintNode && ctx.ownerOf(mintNode);
  if (!log || !mintBlock) return null;
  let head: EventNode | null = n;
  for (let i = 0; i < 20 && head && head.msg?.opcode !== OP.mintHead; i++) head = head.parent;
  if (!head || head.msg?.opcode !== OP.mintHead) return null;
  const ev = parseBody(log.msg!.body, (s) => {
    s.loadUint(32);
    return { amount: s.loadCoins(), recipient: loadAddr(s), txid: s.loadUintBig(256) };
  });
  if (!ev) return null;
  const txid = Buffer.from(hex256(ev.txid), 'hex').reverse().toString('hex');
  const md = mintBlock.data as { asset: string; to_jetton_wallet: string };
  const sender = head.msg!.source;
  const teleport = log.msg!.source;
  const nodes = [head, ...descendants(head)];
  const b = makeBlock('tgbtc_mint', nodes, {
    source: sender,
    source_secondary: teleport,
    destination: ev.recipient,
    destination_secondary: md.to_jetton_wallet,
    amount: ev.amount,
    asset: md.asset,
    asset_secondary: txid,
  }, { data: { sender, recipient: ev.recipient, amount: ev.amount, asset: md.asset, bitcoin_txid: txid, success: true, recipient_wallet: md.to_jetton_wallet, teleport_contract: teleport } });
  return b;
}

function burn(n: EventNode, ctx: Ctx): Block | null {
  const jb = ctx.ownerOf(n);
  if (!jb || jb.type !== 'jetton_burn' || jb.nodes[0] !== n) return null;
  const notif = jb.nodes.find((x) => x.msg?.opcode === COMMON.jettonBurnNotification);
  const relay = notif && (childWithOp(notif, COMMON.jettonBurnNotification) ?? childWithOp(notif, OP.burnRelay));
  const log = relay && extOutWithOp(relay, OP.burnLog);
  if (!relay || !log) return null;
  const ev = parseBody(log.msg!.body, (s) => {
    s.loadUint(32);
    return { amount: s.loadCoins(), sender: loadAddr(s), pegout: loadAddr(s) };
  });
  if (!ev) return null;
  const d = jb.data as { owner: string; jetton_wallet: string; asset: string };
  const b = makeBlock('tgbtc_burn', [...jb.nodes, relay, ...descendants(relay)], {
    source: d.owner,
    source_secondary: d.jetton_wallet,
    asset: d.asset,
    amount: ev.amount,
    destination: ev.pegout,
  }, { data: { sender: d.owner, jetton_wallet: d.jetton_wallet, asset: d.asset, amount: ev.amount, pegout_address: ev.pegout } });
  b.failed = jb.failed;
  return b;
}

function newKey(n: EventNode): Block | null {
  if (n.msg?.opcode !== OP.newKey || n.extOut || !n.parent) return null;
  const dkg = extOutWithOp(n.parent, OP.dkgCompletedLog);
  const log = extOutWithOp(n, OP.newKeyLog);
  if (!dkg || !log) return null;
  const d = parseBody(dkg.msg!.body, (s) => {
    s.loadUint(32);
    return { timestamp: s.loadUintBig(64), pubkey: s.loadUintBig(256) };
  });
  const k = parseBody(log.msg!.body, (s) => {
    s.loadUint(32);
    return { amount: s.loadCoins(), pubkey: s.loadUintBig(256), pegout: loadAddr(s) };
  });
  if (!d || !k) return null;
  const teleport = dkg.msg!.source, coordinator = log.msg!.source;
  const b = makeBlock('tgbtc_new_key', [n.parent, dkg, ...[n, ...descendants(n)]], {
    source: teleport,
    source_secondary: hex256(k.pubkey),
    destination: coordinator,
    destination_secondary: k.pegout,
    value: d.timestamp,
    amount: k.amount,
  }, { data: { teleport_contract: teleport, coordinator_contract: coordinator, pubkey: k.pubkey, pegout_address: k.pegout, timestamp: d.timestamp, amount: k.amount } });
  b.failed = n.tx.aborted;
  return b;
}

export const tgbtcFamily: Family = {
  name: 'tgbtc',
  absorbs: ['jetton_burn', 'jetton_mint', 'call_contract'],
  match(n, ctx) {
    return mint(n, ctx) ?? burn(n, ctx) ?? newKey(n);
  },
};
