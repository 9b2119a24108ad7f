/**
 * JVault staking: stake (a jetton_transfer to the staking pool whose notification makes the pool send
 * receive_jettons 0xd68a4ac1 to the user's stake wallet, answered by request_update_rewards 0xf5c5baa3
 * or a cancellation 0x9eada1d9), unstake (0x499a9262 to the stake wallet) and claim (0x78d9f109).
 */
import { Dictionary } from '@ton/core';
import { childWithOp, descendants, makeBlock, type Block, type Ctx, type EventNode } from '../core.ts';
import type { Family } from '../family.ts';
import { cellFromBoc, loadAddr, parseBody, rawAddr } from '../toolkit/cells.ts';
import { OP as COMMON } from '../toolkit/opcodes.ts';

const OP = {
  receiveJettons: 0xd68a4ac1,
  requestUpdateRewards: 0xf5c5baa3,
  updateRewards: 0xae9307ce,
  cancellation: 0x9eada1d9,
  unstakeJettons: 0x499a9262,
  claim: 0x78d9f109,
  sendClaimedRewards: 0x44bc1fe3,
} as const;

type JtData = { sender: string; sender_wallet: string | null; asset: string | null; amount: bigint };

/** Staking pool and JVault minter read from a stake wallet's data (first two addresses). */
function stakeWalletData(ctx: Ctx, wallet: string | null): { pool: string | null; minter: string | null } {
  const boc = ctx.iface(wallet)?.dataBoc;
  const c = cellFromBoc(boc);
  if (!c) return { pool: null, minter: null };
  try {
    const s = c.beginParse();
    return { pool: loadAddr(s), minter: loadAddr(s) };
  } catch {
    return { pool: null, minter: null };
  }
}

function stake(n: EventNode, ctx: Ctx): Block | null {
  const jt = ctx.ownerOf(n);
  if (!jt || jt.type !== 'jetton_transfer' || jt.nodes[0] !== n) return null;
  const notify = jt.nodes.find((x) => x.msg?.opcode === COMMON.jettonNotify);
  const receive = notify && childWithOp(notify, OP.receiveJettons);
  if (!notify || !receive) return null;
  const update = childWithOp(receive, OP.requestUpdateRewards);
  const cancel = childWithOp(receive, OP.cancellation);
  if (!update && !cancel) return null;
  const d = jt.data as JtData;
  const fwd = notify.msg && parseBody(notify.msg.body, (s) => {
    s.loadUint(32);
    s.loadUintBig(64);
    s.loadCoins();
    s.loadAddressAny();
    const p = s.loadBit() ? s.loadRef().beginParse() : s;
    p.loadUint(32);
    return p.loadUint(32);
  });
  const stakeWallet = receive.msg!.destination;
  const pool = receive.msg!.source;
  const b = makeBlock('jvault_stake', [...jt.nodes, ...descendants(notify)], {
    source: d.sender,
    source_secondary: d.sender_wallet,
    asset: d.asset,
    destination: pool,
    amount: d.amount,
    jvault_stake_data: { period: fwd ?? null, stake_wallet: stakeWallet },
  }, { data: { sender: d.sender, sender_wallet: d.sender_wallet, asset: d.asset, stake_wallet: stakeWallet, staking_pool: pool, staked_amount: d.amount, period: fwd } });
  b.failed = receive.tx.aborted || !!cancel || (update?.tx.aborted ?? false);
  return b;
}

function unstake(n: EventNode, ctx: Ctx): Block | null {
  if (n.extOut || n.msg?.opcode !== OP.unstakeJettons || !n.msg.source) return null;
  const amount = parseBody(n.msg.body, (s) => {
    s.loadUint(32);
    s.loadUintBig(64);
    return s.loadCoins();
  });
  if (amount === null) return null;
  const stakeWallet = n.msg.destination;
  const sw = stakeWalletData(ctx, stakeWallet);
  const update = childWithOp(n, OP.requestUpdateRewards);
  const transferNode = update?.children.find((c) => ctx.ownerOf(c)?.type === 'jetton_transfer');
  const transfer = transferNode && ctx.ownerOf(transferNode);
  if (update && transfer) {
    const td = transfer.data as JtData;
    const b = makeBlock('jvault_unstake', [n, ...descendants(n)], {
      source: n.msg.source,
      source_secondary: stakeWallet,
      destination: update.msg!.destination,
      amount,
      asset: td.asset,
      asset2: sw.minter,
    });
    b.failed = n.tx.aborted || update.tx.aborted;
    return b;
  }
  if (!sw.pool) return null;
  const b = makeBlock('jvault_unstake', [n, ...descendants(n)], {
    source: n.msg.source,
    source_secondary: stakeWallet,
    destination: sw.pool,
    amount,
    opcode: n.tx.computeExitCode,
    asset2: sw.minter,
  });
  b.failed = n.tx.aborted;
  return b;
}

function claim(n: EventNode, ctx: Ctx): Block | null {
  if (n.extOut || n.msg?.opcode !== OP.claim || !n.msg.source) return null;
  const jettons = parseBody(n.msg.body, (s) => {
    s.loadUint(32);
    s.loadUintBig(64);
    const dict = s.loadDict(Dictionary.Keys.Address(), Dictionary.Values.Bool());
    return dict.keys().map((a) => rawAddr(a));
  });
  const send = childWithOp(n, OP.sendClaimedRewards);
  const transferNode = send?.children.find((c) => ctx.ownerOf(c)?.type === 'jetton_transfer');
  const transfer = transferNode && ctx.ownerOf(transferNode);
  if (!jettons || !send || !transfer) return null;
  const b = makeBlock('jvault_claim', [n, ...descendants(n)], {
    source: n.msg.source,
    source_secondary: n.msg.destination,
    destination: send.msg!.destination,
    jvault_claim_data: { claimed_jettons: jettons, claimed_amounts: [(transfer.data as JtData).amount] },
  });
  b.failed = n.tx.aborted;
  return b;
}

export const jvaultFamily: Family = {
  name: 'jvault',
  absorbs: ['jetton_transfer'],
  match(n, ctx) {
    return stake(n, ctx) ?? unstake(n, ctx) ?? claim(n, ctx);
  },
};
