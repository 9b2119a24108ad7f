/**
 * TONCO (concentrated liquidity) deposit: every deposited side reaches the router as a jetton transfer (or TON
 * through its pTON wallet, 0x01f3835d) whose notification carries POOLV3_FUND_ACCOUNT 0x4468de77
 * `other_jetton_wallet amount0 amount1 …`; the router forwards POOLV3_FUND_ACCOUNT to the pool, the pool
 * ACCOUNTV3_ADD_LIQUIDITY 0x3ebe5431 to the user's account contract (the anchor). Once both sides are funded the
 * account answers POOLV3_MINT_AND_REFUND 0x81702ef8: the pool mints the position NFT (POSITIONNFTV3_POSITION_INIT
 * 0xd5ecca2a) and refunds the excess through ROUTERV3_PAY_TO 0xa1daa96d (jetton transfers, TON via pTON).
 * One dex_deposit_liquidity per deposited side; the one that completes the position carries the NFT and the
 * minted liquidity. Field semantics follow the reference (toncenter liquidity.py ToncoDepositLiquidityMatcher
 * and its serializer): amount1/asset1 is the side deposited by this action, target_* the position's amounts.
 * Message layouts: TONCO's TL-B as quoted in toncenter's messages/swaps.py.
 */
import { childWithOp, makeBlock, type Block, type Ctx, type EventNode } from '../core.ts';
import type { Family } from '../family.ts';
import { loadAddr, parseBody } from '../toolkit/cells.ts';
import { parseJettonNotify } from '../toolkit/jetton.ts';
import { OP as COMMON } from '../toolkit/opcodes.ts';
import { ptonAmount } from './tonco.ts';

const OP = {
  fundAccount: 0x4468de77,
  addLiquidity: 0x3ebe5431,
  mintAndRefund: 0x81702ef8,
  positionInit: 0xd5ecca2a,
  payTo: 0xa1daa96d,
  ptonTransfer: 0x01f3835d,
} as const;

type JtData = { sender: string; sender_wallet: string | null; amount: bigint; asset: string | null };

// ACCOUNTV3_ADD_LIQUIDITY#3ebe5431 query_id:uint64 new_amount0:Coins new_amount1:Coins new_enough0:Coins
//   new_enough1:Coins liquidity:uint128 tick_lower:int24 tick_upper:int24
function parseAddLiquidity(n: EventNode) {
  return parseBody(n.msg?.body, (s) => {
    if (s.loadUint(32) !== OP.addLiquidity) throw new Error('not add_liquidity');
    s.loadUintBig(64);
    const newAmount0 = s.loadCoins();
    s.loadCoins();
    const enough0 = s.loadCoins(), enough1 = s.loadCoins();
    s.loadUintBig(128);
    return { newAmount0, enough0, enough1, tickLower: s.loadInt(24), tickUpper: s.loadInt(24) };
  });
}

// POSITIONNFTV3_POSITION_INIT#d5ecca2a query_id:uint64 user_address:MsgAddress liquidity:uint128 tick_lower:int24
//   tick_upper:int24 old_fee_cell:^[fee_growth_inside_0:uint256 fee_growth_inside_1:uint256 nft_index:uint64 …]
function parsePositionInit(n: EventNode) {
  return parseBody(n.msg?.body, (s) => {
    if (s.loadUint(32) !== OP.positionInit) throw new Error('not position_init');
    s.loadUintBig(64);
    loadAddr(s);
    const liquidity = s.loadUintBig(128);
    s.loadInt(24);
    s.loadInt(24);
    const fee = s.loadRef().beginParse();
    fee.skip(512);
    return { liquidity, nftIndex: fee.loadUintBig(64) };
  });
}

/** The jetton wallet the notification's POOLV3_FUND_ACCOUNT payload names for the other side. */
function otherWallet(notify: EventNode): string | null {
  const cell = parseJettonNotify(notify.msg?.body)?.forwardPayload?.cell;
  if (!cell) return null;
  try {
    const s = cell.beginParse();
    if (s.loadUint(32) !== OP.fundAccount) return null;
    return loadAddr(s);
  } catch {
    return null;
  }
}

/** A wallet that takes or pays TON as pTON transfers in this trace wraps TON: its side is TON (null asset). */
function isPtonWallet(addr: string, ctx: Ctx): boolean {
  return ctx.nodes.some((x) => !x.extOut && x.msg?.opcode === OP.ptonTransfer && (x.msg.destination === addr || x.msg.source === addr));
}

function walletAsset(addr: string | null, ctx: Ctx): string | null {
  if (!addr || isPtonWallet(addr, ctx)) return null;
  return ctx.jettonWallet(addr)?.jetton ?? null;
}

/** The refunds the router pays out: jetton transfers, or TON when the transfer goes on as a pTON transfer. */
function excesses(payTo: EventNode | undefined, ctx: Ctx): { nodes: EventNode[]; list: { asset: string | null; amount: bigint }[] } {
  const nodes: EventNode[] = [];
  const list: { asset: string | null; amount: bigint }[] = [];
  for (const c of payTo?.children ?? []) {
    const jt = ctx.ownerOf(c);
    if (!jt || jt.type !== 'jetton_transfer' || jt.nodes[0] !== c || list.length >= 2) continue;
    nodes.push(...jt.nodes);
    const pton = childWithOp(c, OP.ptonTransfer);
    const tonAmount = pton ? ptonAmount(pton) : null;
    if (pton) nodes.push(pton);
    const d = jt.data as JtData;
    list.push(pton ? { asset: null, amount: tonAmount ?? 0n } : { asset: d.asset, amount: d.amount });
  }
  return { nodes, list };
}

function deposit(n: EventNode, ctx: Ctx): Block | null {
  if (n.extOut || n.msg?.opcode !== OP.addLiquidity) return null;
  const fund = n.parent;
  const notify = fund?.parent;
  if (fund?.msg?.opcode !== OP.fundAccount || !notify || notify.msg?.opcode !== COMMON.jettonNotify) return null;
  const add = parseAddLiquidity(n);
  const note = parseJettonNotify(notify.msg.body);
  const other = otherWallet(notify);
  if (!add || !note || !other) return null;

  // the deposited side: a jetton_transfer into the router, or TON through the router's pTON wallet
  const inBlock = ctx.ownerOf(notify);
  const nodes: EventNode[] = [n, fund];
  let senderWallet: string | null = null;
  let firstAsset: string | null;
  if (inBlock?.type === 'jetton_transfer' && inBlock.nodes.includes(notify)) {
    const d = inBlock.data as JtData;
    nodes.push(...inBlock.nodes);
    senderWallet = d.sender_wallet;
    firstAsset = isPtonWallet(notify.msg.source!, ctx) ? null : d.asset;
  } else if (notify.parent?.msg?.opcode === OP.ptonTransfer) {
    nodes.push(notify.parent, notify);
    firstAsset = null;
  } else {
    return null;
  }
  const secondAsset = walletAsset(other, ctx);

  // completion: the account asks the pool to mint the position and refund the rest
  const mint = childWithOp(n, OP.mintAndRefund);
  let lpMinted: bigint | null = null, nftIndex: bigint | null = null, nftAddress: string | null = null;
  let refunds: { asset: string | null; amount: bigint }[] = [];
  if (mint) {
    nodes.push(mint);
    const init = childWithOp(mint, OP.positionInit);
    const pos = init && parsePositionInit(init);
    if (init && pos) {
      nodes.push(init);
      lpMinted = pos.liquidity;
      nftIndex = pos.nftIndex;
      nftAddress = init.msg!.destination;
    }
    const payTo = childWithOp(mint, OP.payTo);
    if (payTo) nodes.push(payTo);
    const ex = excesses(payTo, ctx);
    nodes.push(...ex.nodes);
    refunds = ex.list;
    const excess = childWithOp(mint, COMMON.excesses);
    if (excess) nodes.push(excess);
  }

  const isFirst = add.newAmount0 > 0n;
  const sw1 = isFirst ? senderWallet : null, sw2 = isFirst ? null : senderWallet;
  const asset1 = isFirst ? firstAsset : secondAsset, asset2 = isFirst ? secondAsset : firstAsset;
  const b = makeBlock('tonco_deposit_liquidity', [...new Set(nodes)], {
    source: note.sender,
    source_secondary: senderWallet,
    destination: n.msg.source,
    destination_secondary: n.msg.destination,
    dex_deposit_liquidity_data: {
      dex: 'tonco',
      // one side is deposited per action: it is reported first, whichever slot of the pool it fills
      amount1: note.amount,
      asset1: firstAsset,
      amount2: null,
      asset2: null,
      user_jetton_wallet_1: sw1,
      user_jetton_wallet_2: sw2,
      lp_tokens_minted: lpMinted,
      tick_lower: add.tickLower,
      tick_upper: add.tickUpper,
      nft_index: nftIndex,
      nft_address: nftAddress,
      target_amount_1: add.enough0,
      target_amount_2: add.enough1,
      target_asset_1: asset1,
      target_asset_2: asset2,
      vault_excesses: refunds,
    },
  }, { outType: 'dex_deposit_liquidity' });
  b.failed = n.tx.aborted;
  return b;
}

export const toncoDepositLiquidityFamily: Family = {
  name: 'tonco_deposit_liquidity',
  absorbs: ['jetton_transfer', 'nft_mint'],
  match: deposit,
};
