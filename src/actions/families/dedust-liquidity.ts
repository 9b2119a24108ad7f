/**
 * DeDust liquidity deposits. Each deposit goes to a vault (native: deposit_liquidity 0xd55e4686; jetton:
 * a jetton_transfer whose payload is deposit_liquidity 0x40e108d6), which asks the factory (0xf04ec526)
 * to top up the user's deposit contract (0x54240fe5). When the contract holds both sides it deposits
 * into the pool (0xb56b9598), which mints LP (internal_transfer) and destroys the contract (0xaae79256),
 * returning leftovers through the vaults (0x6b0b787f). A deposit that does not complete the pool is
 * partial. Deposits of one trace that together funded the pool deposit form one action.
 */
import type { Slice } from '@ton/core';
import { childWithOp, descendants, makeBlock, type Block, type Ctx, type EventNode } from '../core.ts';
import type { Family } from '../family.ts';
import { loadAddr, parseBody, rawAddr } from '../toolkit/cells.ts';
import { parseJettonInternalTransfer, parseJettonTransfer } from '../toolkit/jetton.ts';
import { OP as COMMON } from '../toolkit/opcodes.ts';
import { Address } from '@ton/core';

const OP = {
  depositNative: 0xd55e4686, depositJettonPayload: 0x40e108d6, askFactory: 0xf04ec526,
  topUp: 0x54240fe5, depositToPool: 0xb56b9598, destroy: 0xaae79256, returnExcess: 0x6b0b787f, payout: 0x474f86cf,
} as const;

// native$0000 = Asset; jetton$0001 workchain_id:int8 address:uint256 = Asset;
function loadAsset(s: Slice): string | null {
  const kind = s.loadUint(4);
  if (kind === 0) return null;
  const wc = s.loadInt(8);
  return rawAddr(new Address(wc, s.loadBuffer(32)));
}
// pool_params#_ pool_type:DedustPoolType asset0 asset1 ; then min_lp, target balances
function loadTargets(s: Slice, withParamsRef: boolean) {
  s.loadBit();
  const a0 = loadAsset(s), a1 = loadAsset(s);
  const p = withParamsRef ? s.loadRef().beginParse() : s;
  p.loadCoins();
  return { a0, t0: p.loadCoins(), a1, t1: p.loadCoins() };
}

interface Entry {
  nodes: EventNode[]; factory: EventNode; sender: string | null; asset: string | null; amount: bigint;
  userJw: string | null; targets: { a0: string | null; t0: bigint; a1: string | null; t1: bigint }; contract: string | null;
}

function entryAt(n: EventNode, ctx: Ctx): Entry | null {
  if (n.extOut || !n.msg) return null;
  if (n.msg.opcode === OP.depositNative && n.msg.source) {
    const p = parseBody(n.msg.body, (s) => {
      s.loadUint(32);
      s.loadUintBig(64);
      const amount = s.loadCoins();
      return { amount, targets: loadTargets(s, true) };
    });
    const factory = childWithOp(n, OP.askFactory);
    if (!p || !factory) return null;
    const topUp = childWithOp(factory, OP.topUp);
    return { nodes: [n], factory, sender: n.msg.source, asset: null, amount: p.amount, userJw: null, targets: p.targets, contract: topUp?.msg?.destination ?? null };
  }
  const jt = ctx.ownerOf(n);
  if (!jt || jt.type !== 'jetton_transfer' || jt.nodes[0] !== n) return null;
  const notify = jt.nodes.find((x) => x.msg?.opcode === COMMON.jettonNotify);
  const factory = notify && childWithOp(notify, OP.askFactory);
  if (!notify || !factory) return null;
  const targets = parseBody(notify.msg!.body, (s) => {
    s.loadUint(32);
    s.loadUintBig(64);
    s.loadCoins();
    s.loadAddressAny();
    const p = s.loadBit() ? s.loadRef().beginParse() : s;
    if (p.loadUint(32) !== OP.depositJettonPayload) throw new Error('not a dedust deposit');
    return loadTargets(p, false);
  });
  if (!targets) return null;
  const d = jt.data as { sender: string; sender_wallet: string | null; amount: bigint; asset: string | null };
  const topUp = childWithOp(factory, OP.topUp);
  return { nodes: jt.nodes, factory, sender: d.sender, asset: d.asset, amount: d.amount, userJw: d.sender_wallet, targets, contract: topUp?.msg?.destination ?? null };
}

function vaultExcesses(destroy: EventNode | undefined, ctx: Ctx): Array<{ asset: string | null; amount: bigint }> {
  const out: Array<{ asset: string | null; amount: bigint }> = [];
  if (!destroy) return out;
  for (const r of destroy.children.filter((c) => c.msg?.opcode === OP.returnExcess)) {
    const t = childWithOp(r, COMMON.jettonTransfer);
    if (t) {
      const body = parseJettonTransfer(t.msg!.body);
      if (body) out.push({ asset: ctx.jettonWallet(t.msg!.destination)?.jetton ?? null, amount: body.amount });
    }
    // the native vault pays TON leftovers out with payout 0x474f86cf; the excess is what it carries
    const p = childWithOp(r, OP.payout);
    if (p && p.msg!.value !== null) out.push({ asset: null, amount: p.msg!.value });
  }
  return out;
}

function match(n: EventNode, ctx: Ctx): Block | null {
  const e = entryAt(n, ctx);
  if (!e) return null;
  const topUp = childWithOp(e.factory, OP.topUp);
  const poolNode = topUp && childWithOp(topUp, OP.depositToPool);
  const t = e.targets;
  // targets as the depositor's payload states them (pool_params order)
  const [ta1, tt1, ta2, tt2] = [t.a0, t.t0, t.a1, t.t1];
  if (!poolNode) {
    // a partial deposit is reported on its own unless a later deposit of this trace completes the pool with it
    const b = makeBlock('dedust_deposit_liquidity_partial', [...e.nodes, e.factory, ...e.factory.children.filter((c) => !c.extOut)], {
      source: e.sender,
      destination_secondary: e.contract,
      dex_deposit_liquidity_data: {
        dex: 'dedust', asset1: e.asset, amount1: e.amount, asset2: null, amount2: null,
        user_jetton_wallet_1: e.userJw, user_jetton_wallet_2: null, lp_tokens_minted: null,
        target_asset_1: ta1, target_amount_1: tt1, target_asset_2: ta2, target_amount_2: tt2,
      },
    }, { outType: 'dex_deposit_liquidity' });
    b.failed = n.tx.aborted;
    return b;
  }
  const pool = parseBody(poolNode.msg!.body, (s) => {
    s.loadUint(32);
    s.loadUintBig(64);
    s.loadRef();
    loadAddr(s);
    s.loadCoins();
    const f = s.loadRef().beginParse();
    const a0 = loadAsset(f), m0 = f.loadCoins(), a1 = loadAsset(f), m1 = f.loadCoins();
    return { a0, m0, a1, m1 };
  });
  if (!pool) return null;
  const entries: Entry[] = [e];
  // earlier deposits of this trace into the same contract that exactly funded the other side
  for (const other of ctx.nodes) {
    if (other === n) continue;
    const o = entryAt(other, ctx);
    if (!o || o.contract !== e.contract || o.asset === e.asset) continue;
    const poolAmount = o.asset === pool.a0 ? pool.m0 : o.asset === pool.a1 ? pool.m1 : null;
    if (poolAmount === o.amount && !childWithOp(childWithOp(o.factory, OP.topUp) ?? o.factory, OP.depositToPool)) entries.push(o);
  }
  const amounts: Array<{ asset: string | null; amount: bigint | null; jw: string | null }> = [pool.a0, pool.a1].map((asset) => {
    const en = entries.find((x) => x.asset === asset);
    return { asset, amount: en ? en.amount : null, jw: en ? en.userJw : null };
  });
  const present = amounts.filter((x) => x.amount !== null);
  const first = present[0], second = present[1];
  const lp = childWithOp(poolNode, COMMON.jettonInternalTransfer);
  const lpAmount = lp ? (parseJettonInternalTransfer(lp.msg!.body)?.amount ?? null) : null;
  const nodes = new Set<EventNode>();
  for (const x of entries) for (const y of [...x.nodes, x.factory, ...descendants(x.factory)]) nodes.add(y);
  const b = makeBlock('dedust_deposit_liquidity', [...nodes], {
    source: e.sender,
    destination: poolNode.msg!.destination,
    destination_secondary: e.contract,
    dex_deposit_liquidity_data: {
      dex: 'dedust',
      asset1: first?.asset ?? null, amount1: first?.amount ?? null,
      asset2: second?.asset ?? null, amount2: second?.amount ?? null,
      user_jetton_wallet_1: first?.jw ?? null, user_jetton_wallet_2: second?.jw ?? null,
      lp_tokens_minted: lpAmount,
      // what the pool received in total (may include deposits made in earlier traces)
      target_asset_1: pool.a0, target_amount_1: pool.m0, target_asset_2: pool.a1, target_amount_2: pool.m1,
      vault_excesses: vaultExcesses(childWithOp(poolNode, OP.destroy), ctx),
    },
  }, { outType: 'dex_deposit_liquidity' });
  b.failed = n.tx.aborted;
  return b;
}

export const dedustLiquidityFamily: Family = { name: 'dedust_liquidity', absorbs: ['jetton_transfer'], match };
