/**
 * swap.coffee liquidity deposits: each side reaches its vault (deposit_liquidity_native 0xc0ffee04, or a
 * jetton_transfer to the jetton vault), the vault asks the factory to create the user's depository
 * (create_liquidity_depository_request 0xc0ffee27: amount, pool params, sender), the factory deploys it
 * (0xc0ffee22) and, once both sides are in, the depository deposits into the pool (0xc0ffee29), which
 * mints LP and returns leftovers (payout_internal 0xc0ffee21). The side that completes the pool is
 * reported in the second slot; a side that does not is a partial deposit of its own.
 */
import { childWithOp, descendants, makeBlock, type Block, type Ctx, type EventNode } from '../core.ts';
import type { Family } from '../family.ts';
import { loadAddr, parseBody } from '../toolkit/cells.ts';
import { loadCoffeeAsset } from './coffee.ts';
import { parseJettonInternalTransfer, parseJettonTransfer } from '../toolkit/jetton.ts';
import { OP as COMMON } from '../toolkit/opcodes.ts';

const OP = { depositNative: 0xc0ffee04, depositoryRequest: 0xc0ffee27, deploy: 0xc0ffee22, depositInternal: 0xc0ffee29, payoutInternal: 0xc0ffee21 } as const;

function match(n: EventNode, ctx: Ctx): Block | null {
  if (n.extOut || n.msg?.opcode !== OP.depositoryRequest || !n.parent) return null;
  const req = parseBody(n.msg.body, (s) => {
    s.loadUint(32);
    s.loadUintBig(64);
    const amount = s.loadCoins();
    s.loadRef();
    const pp = s.loadRef().beginParse();
    const first = loadCoffeeAsset(pp), second = loadCoffeeAsset(pp);
    return { amount, first, second, sender: loadAddr(s) };
  });
  const deploy = childWithOp(n, OP.deploy);
  if (!req || !deploy) return null;
  const vaultIn = n.parent;
  const jt = ctx.ownerOf(vaultIn);
  let entryNodes: EventNode[], asset: string | null, userJw: string | null;
  if (jt && jt.type === 'jetton_transfer') {
    const d = jt.data as { asset: string | null; sender_wallet: string | null };
    entryNodes = jt.nodes;
    asset = d.asset;
    userJw = d.sender_wallet;
  } else if (vaultIn.msg?.opcode === OP.depositNative) {
    entryNodes = [vaultIn];
    asset = null;
    userJw = null;
  } else return null;
  const toPool = childWithOp(deploy, OP.depositInternal);
  // targets: this side's asset first, then the pool's other asset
  const other = asset === req.first ? req.second : req.first;
  const base = {
    dex: 'coffee', target_asset_1: asset, target_amount_1: null, target_asset_2: other, target_amount_2: null,
  };
  if (!toPool) {
    const b = makeBlock('coffee_deposit_liquidity', [...entryNodes, n, deploy], {
      source: req.sender,
      destination_secondary: deploy.msg!.destination,
      dex_deposit_liquidity_data: {
        ...base, asset1: asset, amount1: req.amount, user_jetton_wallet_1: userJw, asset2: null, amount2: null,
        user_jetton_wallet_2: null, lp_tokens_minted: null, vault_excesses: [],
      },
    }, { outType: 'dex_deposit_liquidity' });
    b.failed = n.tx.aborted;
    return b;
  }
  const lp = childWithOp(toPool, COMMON.jettonInternalTransfer);
  const excesses: Array<{ asset: string | null; amount: bigint }> = [];
  for (const p of toPool.children.filter((c) => c.msg?.opcode === OP.payoutInternal)) {
    const t = childWithOp(p, COMMON.jettonTransfer);
    const body = t && parseJettonTransfer(t.msg!.body);
    if (t && body) excesses.push({ asset: ctx.jettonWallet(t.msg!.destination)?.jetton ?? null, amount: body.amount });
  }
  const b = makeBlock('coffee_deposit_liquidity', [...entryNodes, n, deploy, toPool, ...descendants(toPool)], {
    source: req.sender,
    destination: toPool.msg!.destination,
    destination_secondary: deploy.msg!.destination,
    dex_deposit_liquidity_data: {
      ...base, asset1: null, amount1: null, user_jetton_wallet_1: null, asset2: asset, amount2: req.amount,
      user_jetton_wallet_2: userJw, lp_tokens_minted: lp ? (parseJettonInternalTransfer(lp.msg!.body)?.amount ?? null) : null,
      vault_excesses: excesses,
    },
  }, { outType: 'dex_deposit_liquidity' });
  b.failed = n.tx.aborted || toPool.tx.aborted;
  return b;
}

export const coffeeLiquidityFamily: Family = { name: 'coffee_liquidity', absorbs: ['jetton_transfer'], match };

const WITHDRAWAL_EVENT = 0xc0ffee35;

/** Withdrawal: the LP jetton is burnt; the pool (the LP master) logs 0xc0ffee35 and has both vaults pay out. */
function withdraw(n: EventNode, ctx: Ctx): Block | null {
  const burn = ctx.ownerOf(n);
  if (!burn || burn.type !== 'jetton_burn' || burn.nodes[0] !== n) return null;
  const notif = burn.nodes.find((x) => x.msg?.opcode === COMMON.jettonBurnNotification);
  if (!notif || !notif.children.some((c) => c.extOut && c.msg?.opcode === WITHDRAWAL_EVENT)) return null;
  const d = burn.data as { owner: string; jetton_wallet: string; amount: bigint; asset: string };
  const outs = notif.children.filter((c) => !c.extOut && c.msg?.opcode === OP.payoutInternal).map((p) => {
    const t = childWithOp(p, COMMON.jettonTransfer);
    const tb = t && ctx.ownerOf(t);
    const td = tb?.type === 'jetton_transfer' ? (tb.data as { amount: bigint; asset: string | null; sender_wallet: string | null; receiver_wallet: string | null }) : null;
    return { amount: td?.amount ?? null, asset: td?.asset ?? null, dexJw: td?.sender_wallet ?? null, userJw: td?.receiver_wallet ?? null };
  });
  // amounts as the pool's withdrawal event states them (amount1, amount2); payouts in the pool's send order
  const evNode = notif.children.find((c) => c.extOut && c.msg?.opcode === WITHDRAWAL_EVENT)!;
  const ev = parseBody(evNode.msg!.body, (s) => {
    s.loadUint(32);
    s.loadUintBig(64);
    return { a1: s.loadCoins(), a2: s.loadCoins() };
  });
  const [o1, o2] = [outs[0], outs[1]];
  const pool = notif.msg!.destination;
  const b = makeBlock('dex_withdraw_liquidity', [...burn.nodes, ...descendants(notif)], {
    source: d.owner,
    source_secondary: d.jetton_wallet,
    destination: pool,
    asset: d.asset,
    dex_withdraw_liquidity_data: {
      dex: 'coffee',
      amount1: ev?.a1 ?? o1?.amount ?? null, amount2: ev?.a2 ?? o2?.amount ?? null,
      asset1_out: o1?.asset ?? null, asset2_out: o2?.asset ?? null,
      user_jetton_wallet_1: o1?.userJw ?? null, user_jetton_wallet_2: o2?.userJw ?? null,
      dex_jetton_wallet_1: o1?.dexJw ?? null, dex_jetton_wallet_2: o2?.dexJw ?? null,
      dex_wallet_1: o1 ? pool : null, dex_wallet_2: o2 ? pool : null,
      is_refund: false,
      lp_tokens_burnt: d.amount,
    },
  });
  b.failed = n.tx.aborted;
  return b;
}

export const coffeeWithdrawFamily: Family = { name: 'coffee_withdraw', absorbs: ['jetton_burn', 'jetton_transfer'], match: withdraw };

const CREATE = { native: 0xc0ffee02, creatorRequest: 0xc0ffee23, poolRequest: 0xc0ffee25, depositEvent: 0xc0ffee33 } as const;

// create_pool_creator_request#c0ffee23 query_id:uint64 amount:Coins params:PoolParams
//   creation_params:PoolCreationParams sender:MsgAddressInt proof:^Cell
// pool_params first:Asset second:Asset amm:(## 3) amm_settings:(Maybe ^Cell)
// public: recipient:MsgAddressInt use_recipient_on_failure:int1 notification_data:(Maybe ^Cell); private: is_active:int1 extra:(Maybe ^Cell)
function parseCreatorRequest(n: EventNode) {
  // the creation params are inline in some deployments and a ref (as the TL-B says) in others
  for (const inRef of [true, false]) {
    const r = parseBody(n.msg?.body, (s) => {
      if (s.loadUint(32) !== CREATE.creatorRequest) throw new Error('not a create_pool_creator_request');
      s.loadUintBig(64);
      const amount = s.loadCoins();
      const first = loadCoffeeAsset(s), second = loadCoffeeAsset(s);
      s.loadUint(3);
      s.loadMaybeRef();
      const cp = inRef ? s.loadRef().beginParse() : s;
      const recipient = loadAddr(cp);
      cp.loadBit();
      cp.loadMaybeRef();
      cp.loadBit();
      cp.loadMaybeRef();
      return { amount, first, second, recipient, sender: loadAddr(s) };
    });
    if (r) return r;
  }
  return null;
}

function creatorSide(n: EventNode, ctx: Ctx) {
  if (n.extOut || n.msg?.opcode !== CREATE.creatorRequest || !n.parent) return null;
  const req = parseCreatorRequest(n);
  const deploy = childWithOp(n, OP.deploy);
  if (!req || !deploy) return null;
  const jt = ctx.ownerOf(n.parent);
  if (jt && jt.type === 'jetton_transfer') {
    const d = jt.data as { asset: string | null; sender_wallet: string | null };
    return { req, deploy, entry: jt.nodes, asset: d.asset, userJw: d.sender_wallet };
  }
  if (n.parent.msg?.opcode === CREATE.native) return { req, deploy, entry: [n.parent], asset: null, userJw: null };
  return null;
}

function createPoolCreator(n: EventNode, ctx: Ctx): Block | null {
  const c = creatorSide(n, ctx);
  if (!c) return null;
  const b = makeBlock('coffee_create_pool_creator', [...c.entry, n, c.deploy], {
    source: c.req.sender,
    source_secondary: c.userJw,
    destination: c.req.recipient,
    destination_secondary: c.deploy.msg!.destination,
    asset: c.asset,
    asset2: c.req.first,
    asset2_secondary: c.req.second,
    amount: c.req.amount,
  });
  b.failed = n.tx.aborted;
  return b;
}

/** The side whose deposit lets the pool creator request the pool (0xc0ffee25) creates the pool. */
function createPool(n: EventNode, ctx: Ctx): Block | null {
  const c = creatorSide(n, ctx);
  const request = c && childWithOp(c.deploy, CREATE.poolRequest);
  const poolDeploy = request && childWithOp(request, OP.deploy);
  if (!c || !request || !poolDeploy) return null;
  const amounts = parseBody(request.msg!.body, (s) => {
    s.loadUint(32);
    s.loadUintBig(64);
    return { a1: s.loadCoins(), a2: s.loadCoins(), initiator: loadAddr(s) };
  });
  if (!amounts) return null;
  const thisIsFirst = c.asset === c.req.first;
  const other = thisIsFirst ? c.req.second : c.req.first;
  const otherAmount = thisIsFirst ? amounts.a2 : amounts.a1;
  const lp = childWithOp(poolDeploy, COMMON.jettonInternalTransfer);
  const b = makeBlock('coffee_create_pool', [...c.entry, n, c.deploy, request, poolDeploy, ...descendants(poolDeploy)], {
    source: c.req.sender,
    source_secondary: c.userJw,
    destination: poolDeploy.msg!.destination,
    destination_secondary: c.deploy.msg!.destination,
    asset: c.asset,
    asset2: other,
    amount: c.req.amount,
    coffee_create_pool_data: {
      amount_1: c.req.amount, amount_2: otherAmount, initiator_1: c.req.sender, initiator_2: amounts.initiator,
      provided_asset: c.asset, lp_tokens_minted: lp ? (parseJettonInternalTransfer(lp.msg!.body)?.amount ?? null) : null,
    },
  });
  b.failed = n.tx.aborted || poolDeploy.tx.aborted;
  return b;
}

export const coffeeCreatePoolFamily: Family = {
  name: 'coffee_create_pool',
  absorbs: ['jetton_transfer'],
  match: (n, ctx) => createPool(n, ctx) ?? createPoolCreator(n, ctx),
};
