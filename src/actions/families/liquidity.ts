/**
 * ↔ indexer/events/blocks/liquidity.py: DEX liquidity of DeDust, STON.fi v2, TONCO and swap.coffee, with the
 * post-processor that joins a DeDust deposit's two halves. Every branch of the matchers, upstream's quirks kept:
 * - DeDust: the final deposit (deposit -> pool) is `dedust_deposit_liquidity`, successful with its LP mint, failed
 *   when the pool rejected it (0xe1a36cd4, the vault excesses refunded); the half that only topped the deposit
 *   contract up is `dedust_deposit_liquidity_partial`, refused when the top-up went on to the pool after all;
 *   `post_process_dedust_liquidity` merges a half into the final deposit of the same contract (skipping all
 *   merging when a contract has more than two), and fails the trace when their assets do not add up.
 * - STON.fi v2: a provide leg whose sibling leg (same parent) is also a stonfi_v2 deposit of the same sender and
 *   pool (with other LP tokens) takes that leg in, behind an empty proxy block; a refund of the add is a failure.
 * - TONCO: a deposit half (no position NFT yet) has no LP tokens; a withdrawal's payouts fall back to the router's
 *   pay-to figures where no transfer carries them, ordered as the pool's asset 0 / asset 1.
 * - swap.coffee: deposits through a depository, withdrawals by burning LP, pool creation through pool creators,
 *   vault creation, MEV protection's held funds and failed swaps.
 * Field names follow upstream's data (block-data.ts) as the serializer reads them.
 */
import { Cell } from '@ton/core';
import { CallContractBlock } from '../basic-blocks.ts';
import type { JettonBurnData, JettonTransferData } from '../block-data.ts';
import { findCallContract, getLabeled, getMultipleLabeled } from '../block-utils.ts';
import { interfaceRepository } from '../context.ts';
import { Block, EmptyBlock, unique, type PostProcessor } from '../core.ts';
import { LabelBlock, labeled } from '../labels.ts';
import { BlockMatcher, BlockTypeMatcher, ContractMatcher, GenericMatcher, OrMatcher } from '../matchers.ts';
import {
  CoffeeCreateLiquidityDepositoryRequest, CoffeeCreatePoolCreatorRequest, CoffeeCreatePoolExtra, CoffeeCreatePoolJetton, CoffeeCreatePoolNative,
  CoffeeCreatePoolRequest, CoffeeCreateVault, CoffeeDeploy, CoffeeDepositLiquidityInternal, CoffeeDepositLiquidityNative,
  CoffeeDepositLiquiditySuccessfulEvent, CoffeeLiquidityWithdrawalEvent, CoffeeMevProtectFailedSwap, CoffeeMevProtectHoldFunds, CoffeeNotification,
  CoffeePayout, CoffeePayoutInternal, CoffeeServiceFee, type PoolCreationParams, type PoolParams,
} from '../messages/coffee.ts';
import { addrAccount, ExcessMessage } from '../messages/common.ts';
import { JettonBurn, JettonBurnNotification, JettonInternalTransfer, JettonNotify, JettonTransfer } from '../messages/jettons.ts';
import {
  DedustAskLiquidityFactory, DedustDeployDepositContract, DedustDepositLiquidityJettonForwardPayload, DedustDepositLiquidityToPool,
  DedustDepositRejected, DedustDepositTONToVault, DedustDestroyLiquidityDepositContract, DedustReturnExcessFromVault, DedustTopUpLiquidityDepositContract,
  JettonNotifyBody, StonfiV2ProvideLiquidity,
} from '../messages/liquidity.ts';
import {
  DedustPayout, DedustPayoutFromPool, PTonTransfer, ToncoAccountV3AddLiquidity, ToncoPoolV3Burn, ToncoPoolV3FundAccount, ToncoPoolV3FundAccountPayload,
  ToncoPoolV3Init, ToncoPoolV3MinAndRefund, ToncoPoolV3StartBurn, ToncoPositionNftV3PositionBurn, ToncoPositionNftV3PositionInit, ToncoRouterV3CreatePool,
  ToncoRouterV3PayTo,
} from '../messages/swaps.ts';
import { accountId, Asset, type AccountId, type Amount } from '../ton-utils.ts';
import { JettonBurnBlock, JettonTransferBlock, JettonTransferBlockMatcher, PTonTransferMatcher } from './jettons.ts';

type Data = Record<string, unknown>;
const transferData = (b: Block) => b.data as JettonTransferData;
const isPtonMaster = (jetton: string) => PTonTransferMatcher.ptonMasters.includes(jetton);
const raiseNone = (what: string): never => {
  throw new TypeError(`'NoneType' object has no attribute '${what}'`);
};
/** `str(asset)` (its `to_json`): "TON" or the jetton's raw address; `None` for no asset. */
const assetStr = (a: Asset | null | undefined): string => (a === null || a === undefined ? 'None' : (a.toJson() ?? 'None'));
/** What upstream's hashing of an Asset tells apart (TON-ness and jetton address). */
const assetKey = (a: Asset) => `${a.isTon}|${a.jettonAddress}`;

// ---------------------------------------------------------------- DeDust deposits

export class DedustDepositLiquidity extends Block<Data> {
  constructor(data: Data) {
    super('dedust_deposit_liquidity', [], data);
  }
}

export class DedustDepositLiquidityPartial extends Block<Data> {
  constructor(data: Data) {
    super('dedust_deposit_liquidity_partial', [], data);
  }
}

function provisionData(block: Block, otherBlocks: Block[]): Data {
  const info = new DedustDepositLiquidityToPool(block.getBody());
  const sender = addrAccount(info.ownerAddr);
  const depositContract = block.getMessage().source;
  const lpTransfer = getLabeled('lp_transfer', otherBlocks, CallContractBlock);
  const reject = getLabeled('rejection', otherBlocks, CallContractBlock);
  let pool: AccountId;
  let lpTokens: Amount;
  if (lpTransfer) {
    lpTokens = new JettonInternalTransfer(lpTransfer.getBody()).amount;
    pool = accountId(block.getMessage().destination);
  } else if (reject) {
    pool = accountId(reject.getMessage().source);
    lpTokens = null;
  } else {
    throw new Error('No LP transfer or rejection');
  }

  const repo = interfaceRepository(block);
  // 0-2 deposit transfers of the user, only used to find the user's jetton wallet
  const jettonDeposits = otherBlocks.filter(
    (b): b is CallContractBlock => b instanceof CallContractBlock && b.opcode === JettonTransfer.opcode && b.getMessage().source?.toUpperCase() === sender,
  );
  let userWallet0: AccountId = null;
  const userWallet1: AccountId = null; // the other asset's wallet cannot be known

  const deposit = getLabeled('deposit', otherBlocks, CallContractBlock) ?? raiseNone('opcode');
  let actualAsset: Asset;
  let actualAmount: Amount;
  if (deposit.opcode === DedustDepositTONToVault.opcode) {
    actualAsset = new Asset(true);
    actualAmount = new DedustDepositTONToVault(deposit.getBody()).amount;
  } else {
    const s = deposit.getBody();
    if (s.loadUint(32) >>> 0 !== JettonNotify.opcode) throw new Error('assert opcode == JettonNotify.opcode');
    s.loadUintBig(64);
    actualAmount = s.loadCoins();
    const w = repo.getJettonWallet(deposit.getMessage().source) ?? raiseNone('jetton');
    actualAsset = new Asset(false, w.jetton);
  }
  for (const jdep of jettonDeposits) {
    const wallet = jdep.getMessage().destination!;
    const info = repo.getJettonWallet(wallet.toUpperCase());
    if (!info) continue;
    // str == Asset compares the jetton address (and fails on TON's missing one, as upstream's __eq__ does)
    if (actualAsset.equals(info.jetton)) userWallet0 = wallet;
  }

  const excesses: Array<[Asset, Amount]> = [];
  for (const t of getMultipleLabeled('ton_excess', otherBlocks, CallContractBlock)) {
    if (t.getMessage().destination === sender) excesses.push([new Asset(true), t.getMessage().value]);
  }
  for (const j of getMultipleLabeled('jetton_excess', otherBlocks, JettonTransferBlock)) {
    const d = transferData(j);
    if (d.receiver === sender) excesses.push([d.asset as Asset, d.amount]);
  }
  return {
    sender,
    pool_address: pool,
    deposit_contract: accountId(depositContract),
    lp_tokens_minted: lpTokens,
    asset_1: actualAsset,
    asset_2: null,
    amount_1: actualAmount,
    amount_2: null,
    target_asset_1: info.asset0,
    target_amount_1: info.asset0Amount,
    target_asset_2: info.asset1,
    target_amount_2: info.asset1Amount,
    user_jetton_wallet_1: accountId(userWallet0),
    user_jetton_wallet_2: userWallet1,
    vault_excesses: excesses,
    success: lpTokens !== null,
  };
}

function depositOneData(block: Block, allBlocks: Block[]): Data {
  // block: the top-up of the deposit contract; before it the factory call, before that the vault's
  const vaultCall = block.previousBlock!.previousBlock!;
  const depositContract = block.getMessage().destination;
  // a top-up that went on to the pool is a final deposit the other matcher did not take: not a half
  const topup = findCallContract(allBlocks, DedustTopUpLiquidityDepositContract.opcode) ?? raiseNone('next_blocks');
  for (const n of topup.nextBlocks) {
    if (n instanceof CallContractBlock && (n.opcode === DedustDepositLiquidityToPool.opcode || n.opcode === DedustDepositRejected.opcode)) {
      throw new Error('Unexpected call contract after deposit top up');
    }
  }
  let sender: AccountId;
  let actualAsset = new Asset(true);
  let actualAmount: Amount;
  let asset0: Asset, asset1: Asset, amount0: bigint, amount1: bigint;
  let userWallet0: AccountId = null;
  try {
    // TON deposited first
    sender = accountId(vaultCall.getMessage().source);
    const m = new DedustDepositTONToVault(vaultCall.getBody());
    actualAmount = m.amount;
    [asset0, amount0, asset1, amount1] = [m.asset0, m.asset0TargetBalance, m.asset1, m.asset1TargetBalance];
  } catch {
    // a jetton deposit: the notification, its forward payload in a ref
    const s = vaultCall.getBody();
    if (s.loadUint(32) >>> 0 !== JettonNotify.opcode) throw new Error('assert opcode == JettonNotify.opcode');
    s.loadUintBig(64);
    const amount = s.loadCoins();
    sender = addrAccount(s.loadAddressAny());
    const p = new DedustDepositLiquidityJettonForwardPayload(s.loadRef().beginParse(true));
    [asset0, amount0, asset1, amount1] = [p.asset0, p.asset0TargetBalance, p.asset1, p.asset1TargetBalance];
    userWallet0 = accountId(vaultCall.previousBlock!.getMessage().source);
    const dexWallet = interfaceRepository(block).getJettonWallet(vaultCall.getMessage().source!.toUpperCase()) ?? raiseNone('jetton');
    actualAsset = new Asset(false, dexWallet.jetton);
    actualAmount = amount;
  }
  return {
    sender,
    deposit_contract: accountId(depositContract),
    asset_1: actualAsset,
    amount_1: actualAmount,
    asset_2: null,
    amount_2: null,
    user_jetton_wallet_1: userWallet0,
    user_jetton_wallet_2: null,
    target_asset_1: asset0,
    target_amount_1: amount0,
    target_asset_2: asset1,
    target_amount_2: amount1,
  };
}

/** The first half: TON to the vault, or a jetton transfer's notification to it (raw calls: this runs before the jetton matchers). */
const dedustFirstAsset = (label: boolean) => {
  const ton = new ContractMatcher(DedustDepositTONToVault.opcode);
  const jetton = new ContractMatcher(JettonNotify.opcode, {
    parentMatcher: new ContractMatcher(JettonInternalTransfer.opcode, { includeExcess: true, parentMatcher: new ContractMatcher(JettonTransfer.opcode) }),
  });
  return new OrMatcher(label ? [labeled('deposit', ton), labeled('deposit', jetton)] : [ton, jetton]);
};

/**
 * The final deposit: deposit -> pool, after the top-up (and the factory call and the asset's arrival); the LP mint
 * or the pool's rejection; the deposit contract's destruction with its excesses (TON, or a vault payout).
 */
export class DedustDepositBlockMatcher extends BlockMatcher {
  constructor() {
    const jettonExcessPayout = new JettonTransferBlockMatcher();
    jettonExcessPayout.optional = true;
    const excesses = (): BlockMatcher[] => [
      new BlockTypeMatcher('ton_transfer', { optional: true }),
      ...[0, 1].map(() => new ContractMatcher(DedustReturnExcessFromVault.opcode, {
        optional: true,
        childrenMatchers: [
          labeled('jetton_excess', jettonExcessPayout, true),
          labeled('ton_excess', new ContractMatcher(DedustPayout.opcode, { optional: true })),
        ],
      })),
    ];
    super({
      parentMatcher: new ContractMatcher(DedustTopUpLiquidityDepositContract.opcode, {
        parentMatcher: new ContractMatcher(DedustAskLiquidityFactory.opcode, {
          parentMatcher: dedustFirstAsset(true),
          childMatcher: new ContractMatcher(DedustDeployDepositContract.opcode, { optional: true }),
        }),
      }),
      childrenMatchers: [
        new OrMatcher([
          labeled('lp_transfer', new ContractMatcher(JettonInternalTransfer.opcode, { childMatcher: new ContractMatcher(JettonNotify.opcode, { optional: true }) })),
          labeled('rejection', new ContractMatcher(DedustDepositRejected.opcode, { childrenMatchers: excesses() })),
        ]),
        new ContractMatcher(DedustDestroyLiquidityDepositContract.opcode, { optional: true, childrenMatchers: excesses() }),
      ],
    });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === DedustDepositLiquidityToPool.opcode;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const newBlock = new DedustDepositLiquidity({});
    newBlock.data = provisionData(block, otherBlocks);
    newBlock.data.dex = 'dedust';
    newBlock.mergeBlocks([block, ...otherBlocks]);
    newBlock.failed = !(newBlock.data.success ?? true);
    return [newBlock];
  }
}

/** One asset's deposit that topped the deposit contract up (the factory deploying it). */
export class DedustDepositFirstAssetBlockMatcher extends BlockMatcher {
  constructor() {
    super({
      parentMatcher: new ContractMatcher(DedustAskLiquidityFactory.opcode, {
        childMatcher: new ContractMatcher(DedustDeployDepositContract.opcode),
        parentMatcher: dedustFirstAsset(false),
      }),
    });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === DedustTopUpLiquidityDepositContract.opcode;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const include = [block, ...otherBlocks];
    const newBlock = new DedustDepositLiquidityPartial({});
    newBlock.data = depositOneData(block, include);
    newBlock.data.dex = 'dedust';
    newBlock.mergeBlocks(include);
    return [newBlock];
  }
}

/**
 * The two halves of one deposit contract: the final deposit takes the half's assets, amounts and wallets, and its
 * nodes. Upstream's checks stand: target assets must agree, a repeated asset needs the same user wallet, exactly
 * two assets must come out, and they must be the targets; any violation fails the trace (upstream raises).
 */
export function combineDeposits(first: Data, final: Data): Data {
  const result: Data = { ...final };
  const keys = (xs: unknown[]) => new Set((xs as Asset[]).map(assetKey));
  const sameSet = (a: Set<string>, b: Set<string>) => a.size === b.size && [...a].every((x) => b.has(x));
  const targetFirst = keys([first.target_asset_1, first.target_asset_2]);
  const targetFinal = keys([final.target_asset_1, final.target_asset_2]);
  if (!sameSet(targetFirst, targetFinal)) throw new Error("Target assets in deposits don't match");
  const tuples: Array<[Asset, Amount, AccountId]> = [];
  for (const i of [1, 2]) {
    const asset = first[`asset_${i}`] as Asset | null;
    if (asset) tuples.push([asset, first[`amount_${i}`] as Amount, (first[`user_jetton_wallet_${i}`] as AccountId | undefined) ?? null]);
  }
  for (const i of [1, 2]) {
    const asset = final[`asset_${i}`] as Asset | null;
    if (!asset) continue;
    const amount = final[`amount_${i}`] as Amount;
    const wallet = (final[`user_jetton_wallet_${i}`] as AccountId | undefined) ?? null;
    const idx = tuples.findIndex((t) => t[0].equals(asset));
    if (idx >= 0) {
      const existing = tuples[idx];
      if (existing[2] !== wallet) throw new Error(`User wallet mismatch for asset ${assetStr(asset)}`);
      // upstream's wallet is an AccountId object, always truthy: the final deposit's wallet wins
      tuples[idx] = [asset, (existing[1] ?? 0n) + (amount ?? 0n), wallet];
    } else {
      tuples.push([asset, amount, wallet]);
    }
  }
  const unique = keys(tuples.map((t) => t[0]));
  if (unique.size !== 2) throw new Error('Expected exactly 2 unique assets');
  if (!sameSet(unique, targetFirst)) throw new Error("Assets don't match target assets");
  tuples.forEach(([asset, amount, wallet], k) => {
    result[`asset_${k + 1}`] = asset;
    result[`amount_${k + 1}`] = amount;
    result[`user_jetton_wallet_${k + 1}`] = wallet;
  });
  result.target_asset_1 = tuples[0][0];
  result.target_asset_2 = tuples[1][0];
  return result;
}

export const postProcessDedustLiquidity: PostProcessor = (blocks) => {
  const firsts: Block<Data>[] = [];
  const finals: Block<Data>[] = [];
  const used = new Map<AccountId, number>();
  for (const b of blocks) {
    if (b instanceof DedustDepositLiquidityPartial || b.btype === 'dedust_deposit_liquidity_partial') firsts.push(b as Block<Data>);
    else if (b instanceof DedustDepositLiquidity || b.btype === 'dedust_deposit_liquidity') finals.push(b as Block<Data>);
    else continue;
    const c = (b.data as Data).deposit_contract as AccountId;
    used.set(c, (used.get(c) ?? 0) + 1);
  }
  // more than two deposits through one contract: nothing is merged
  for (const v of used.values()) if (v > 2) return blocks;
  for (const first of firsts) {
    const final = finals.find((b) => b.data.deposit_contract === first.data.deposit_contract);
    if (!final) continue;
    const data = combineDeposits(first.data, final.data);
    blocks.splice(blocks.indexOf(first), 1);
    final.eventNodes.push(...first.eventNodes);
    if (final.initiatingEventNode !== first.initiatingEventNode) final.eventNodes.push(first.initiatingEventNode as NonNullable<typeof first.initiatingEventNode>);
    final.data = data;
    final.eventNodes = unique(final.eventNodes);
    final.childrenBlocks = unique([...final.childrenBlocks, ...first.childrenBlocks]);
    final.calculateMinMaxLt();
  }
  return blocks;
};

/** burn (LP) -> burn notification (pool) -> two payouts from the pool, each a vault's TON payout or a jetton transfer. */
export class DedustWithdrawBlockMatcher extends BlockMatcher {
  constructor() {
    const payout = (label: string) => new ContractMatcher(DedustPayoutFromPool.opcode, {
      childMatcher: new OrMatcher([labeled(label, new ContractMatcher(DedustPayout.opcode)), labeled(label, new BlockTypeMatcher('jetton_transfer'))]),
    });
    super({ childMatcher: new ContractMatcher(JettonBurnNotification.opcode, { childrenMatchers: [payout('payout_1'), payout('payout_2')] }) });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === JettonBurn.opcode;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const sender = block.getMessage().source;
    const senderWallet = block.getMessage().destination!;
    const burn = new JettonBurn(block.getBody());
    const pool = block.nextBlocks[0].getMessage().destination;
    const lpWallet = interfaceRepository(block).getJettonWallet(senderWallet.toUpperCase());
    if (!lpWallet) return [];
    const lpAsset = new Asset(false, lpWallet.jetton);
    const assets: Asset[] = [], amounts: bigint[] = [];
    const dexWallets: AccountId[] = [], dexVaults: AccountId[] = [], userWallets: AccountId[] = [];
    for (const payout of [getLabeled('payout_1', otherBlocks), getLabeled('payout_2', otherBlocks)]) {
      const request = payout ? payout.previousBlock : null;
      if (!request) continue;
      if (payout instanceof CallContractBlock && payout.opcode === DedustPayout.opcode) {
        assets.push(new Asset(true));
        dexWallets.push(null);
        userWallets.push(null);
        dexVaults.push(accountId(payout.getMessage().source));
      } else if (payout instanceof JettonTransferBlock) {
        const d = transferData(payout);
        dexWallets.push(d.sender_wallet);
        assets.push(d.asset as Asset);
        userWallets.push(d.receiver_wallet ?? null);
        dexVaults.push(d.sender);
      } else {
        return []; // unexpected opcode
      }
      amounts.push(new DedustPayoutFromPool(request.getBody()).amount);
    }
    if (amounts.length < 2) throw new Error('list index out of range');
    const newBlock = new Block<Data>('dex_withdraw_liquidity', [], {});
    newBlock.mergeBlocks([block, ...otherBlocks]);
    newBlock.data = {
      dex: 'dedust', sender: accountId(sender), sender_wallet: accountId(senderWallet), pool: accountId(pool), asset: lpAsset,
      lp_tokens_burnt: burn.amount, is_refund: false,
      amount1_out: amounts[0], asset1_out: assets[0], dex_wallet_1: dexVaults[0], dex_jetton_wallet_1: dexWallets[0], wallet1: userWallets[0],
      amount2_out: amounts[1], asset2_out: assets[1], dex_wallet_2: dexVaults[1], dex_jetton_wallet_2: dexWallets[1], wallet2: userWallets[1],
    };
    return [newBlock];
  }
}

// ---------------------------------------------------------------- STON.fi v2

const STONFI_V2_PROVIDE = StonfiV2ProvideLiquidity.opcode;
const STONFI_V2_ADD_LIQUIDITY = 0x50c6a654;
const STONFI_V2_CB_ADD_LIQUIDITY = 0x06ecd527;
const STONFI_V2_PAY_TO = 0x657b54f5;

/** provide_lp (router -> pool) after the incoming transfer; add_liquidity (pool -> lp account), its callback: LP mint or refund. */
export class StonfiV2ProvideLiquidityMatcher extends BlockMatcher {
  constructor() {
    const anotherDeposit = labeled('deposit_part', new GenericMatcher((b) => b.btype === 'dex_deposit_liquidity' && (b.data as Data).dex === 'stonfi_v2'));
    const anotherDepositParent = new BlockMatcher({ childMatcher: anotherDeposit, optional: true });
    const inPton = new ContractMatcher(JettonNotify.opcode, {
      parentMatcher: labeled('in_transfer', new ContractMatcher(PTonTransfer.opcode, { parentMatcher: anotherDepositParent })),
    });
    const inJetton = labeled('in_transfer', new BlockTypeMatcher('jetton_transfer', { parentMatcher: anotherDepositParent }));
    const inJetton2 = new ContractMatcher(JettonNotify.opcode, { parentMatcher: new ContractMatcher(JettonInternalTransfer.opcode, { parentMatcher: inJetton }) });
    const cbAddLiquidity = new ContractMatcher(STONFI_V2_CB_ADD_LIQUIDITY, {
      optional: true,
      childMatcher: new OrMatcher([
        labeled('lp_token_transfer', new ContractMatcher(JettonInternalTransfer.opcode)),
        labeled('refund_add_liquidity', new ContractMatcher(STONFI_V2_ADD_LIQUIDITY)),
      ]),
    });
    super({ parentMatcher: new OrMatcher([inPton, inJetton, inJetton2]), childMatcher: new ContractMatcher(STONFI_V2_ADD_LIQUIDITY, { childMatcher: cbAddLiquidity }) });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === STONFI_V2_PROVIDE;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    let failed = false;
    let inTransfer: Block | null = null, lpTokenTransfer: Block | null = null, anotherDeposit: Block<Data> | null = null;
    for (const b of otherBlocks) {
      if (!(b instanceof LabelBlock)) continue;
      if (b.label === 'refund_add_liquidity') failed = true;
      if (b.label === 'in_transfer') inTransfer = b.block;
      if (b.label === 'lp_token_transfer') lpTokenTransfer = b.block;
      if (b.label === 'deposit_part') anotherDeposit = b.block as Block<Data>;
    }
    const lpTokensMinted = lpTokenTransfer ? new JettonInternalTransfer(lpTokenTransfer.getBody()).amount : null;
    const asset = inTransfer instanceof JettonTransferBlock ? transferData(inTransfer).asset : new Asset(true);
    const m = new StonfiV2ProvideLiquidity(block.getBody());
    const newBlock = new Block<Data>('dex_deposit_liquidity', [], {
      dex: 'stonfi_v2',
      amount_1: m.amount1 > 0n ? m.amount1 : m.amount2,
      asset_1: asset,
      sender: addrAccount(m.fromUser),
      sender_wallet_1: inTransfer instanceof JettonTransferBlock ? transferData(inTransfer).sender_wallet : null,
      amount_2: null,
      asset_2: null,
      sender_wallet_2: null,
      pool: accountId(block.eventNodes[0].message.destination),
      lp_tokens_minted: lpTokensMinted,
    });
    if (anotherDeposit) {
      const a = anotherDeposit.data, d = newBlock.data;
      if (a.sender === d.sender && a.pool === d.pool && a.lp_tokens_minted !== d.lp_tokens_minted) {
        // the sibling leg joins this deposit: an empty block takes the shared parent's place above both legs
        const proxy = new EmptyBlock();
        const proxied = anotherDeposit.previousBlock!;
        proxied.insertBetween([anotherDeposit, inTransfer!], proxy);
        otherBlocks.push(proxy);
        otherBlocks.splice(otherBlocks.indexOf(proxy.previousBlock!), 1);
        d.amount_2 = a.amount_1;
        d.asset_2 = a.asset_1;
        d.sender_wallet_2 = a.sender_wallet_1;
        if (lpTokensMinted === null) d.lp_tokens_minted = a.lp_tokens_minted;
      }
    }
    newBlock.mergeBlocks([block, ...otherBlocks]);
    newBlock.failed = failed;
    return [newBlock];
  }
}

/** pay_to (pool -> router) with its payout transfer, after the LP burn or a refunded provision; the sibling pay-to joins. */
export class StonfiV2WithdrawLiquidityMatcher extends BlockMatcher {
  constructor() {
    const refunded = labeled('withdraw_refunded_liquidity', new ContractMatcher(0x0f98e2b8, { parentMatcher: new ContractMatcher(0x132b9a2c) }));
    const withdraw = labeled('withdraw_liquidity', new ContractMatcher(0x297437cf, { parentMatcher: new BlockTypeMatcher('jetton_burn') }));
    super({ parentMatcher: new OrMatcher([refunded, withdraw]), childMatcher: new BlockTypeMatcher('jetton_transfer') });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === STONFI_V2_PAY_TO;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const payouts: Block[] = [block];
    const siblingTransfers: Block[] = [];
    for (const b of block.previousBlock!.nextBlocks) {
      if (b === block || otherBlocks.includes(b)) continue;
      if (b instanceof CallContractBlock && b.opcode === STONFI_V2_PAY_TO) {
        const transfers = b.nextBlocks.filter((x) => x instanceof JettonTransferBlock);
        if (transfers.length > 0) {
          payouts.push(b);
          siblingTransfers.push(...transfers);
        }
      }
    }
    let burn: Block | null = null, refundOp: Block | null = null;
    for (const b of otherBlocks) {
      if (!(b instanceof LabelBlock)) continue;
      if (b.label === 'withdraw_refunded_liquidity') refundOp = b.block;
      if (b.label === 'withdraw_liquidity') burn = b.block.previousBlock;
    }

    const ptonBlocks: Block[] = [];
    type Out = { amount: Amount; asset: Asset; wallet: AccountId; dexSender: AccountId; dexJettonWallet: AccountId };
    let o1: Out | null = null, o2: Out | null = null;
    for (const payout of payouts) {
      const transfers = payout.nextBlocks.filter((x) => x instanceof JettonTransferBlock);
      if (transfers.length === 0) continue;
      const transfer = transfers[0];
      const d = transferData(transfer);
      const pton = transfer.nextBlocks.find((x) => x instanceof CallContractBlock && x.opcode === PTonTransfer.opcode) ?? null;
      let amount: Amount, asset: Asset;
      if (pton !== null) {
        amount = new PTonTransfer(pton.getBody()).tonAmount;
        ptonBlocks.push(pton);
        asset = new Asset(true);
      } else {
        amount = d.amount;
        asset = d.asset as Asset;
      }
      const out: Out = { amount, asset, wallet: d.receiver_wallet ?? null, dexSender: d.sender, dexJettonWallet: d.sender_wallet };
      // the first payout fills side 1 (while its amount is unset); every further one overwrites side 2
      if (o1 === null || o1.amount === null) o1 = out;
      else o2 = out;
    }
    let sender: AccountId = null, senderWallet: AccountId = null, asset: Asset | null = null, burned: Amount = null;
    let isRefund = false;
    if (refundOp !== null) {
      isRefund = true;
      sender = accountId(refundOp.previousBlock!.eventNodes[0].message.source);
    }
    if (burn !== null) {
      if (!(burn instanceof JettonBurnBlock)) return [];
      const bd = burn.data as JettonBurnData;
      sender = bd.owner;
      senderWallet = bd.jetton_wallet;
      burned = bd.amount;
      asset = bd.asset;
    }
    const newBlock = new Block<Data>('dex_withdraw_liquidity', [], {
      dex: 'stonfi_v2', sender, sender_wallet: senderWallet, pool: accountId(payouts[0].eventNodes[0].message.source), asset, lp_tokens_burnt: burned,
      is_refund: isRefund,
      amount1_out: o1?.amount ?? null, asset1_out: o1?.asset ?? null, dex_wallet_1: o1?.dexSender ?? null, dex_jetton_wallet_1: o1?.dexJettonWallet ?? null, wallet1: o1?.wallet ?? null,
      amount2_out: o2?.amount ?? null, asset2_out: o2?.asset ?? null, dex_wallet_2: o2?.dexSender ?? null, dex_jetton_wallet_2: o2?.dexJettonWallet ?? null, wallet2: o2?.wallet ?? null,
    });
    newBlock.mergeBlocks([...payouts, ...otherBlocks, ...siblingTransfers, ...ptonBlocks]);
    return [newBlock];
  }
}

// ---------------------------------------------------------------- TONCO

export class ToncoDepositLiquidityBlock extends Block<Data> {
  constructor(data: Data) {
    super('tonco_deposit_liquidity', [], data);
  }
}

export class ToncoWithdrawLiquidityBlock extends Block<Data> {
  constructor(data: Data) {
    super('tonco_withdraw_liquidity', [], data);
  }
}

export class ToncoDeployPoolBlock extends Block<Data> {
  constructor(data: Data) {
    super('tonco_deploy_pool', [], data);
  }
}

const toncoAsset = (jetton: string) => (isPtonMaster(jetton) ? new Asset(true) : new Asset(false, jetton));

function toncoDepositCore(block: Block, positionInit: Block | null, input: Block | null, excessTransfers: Array<Block | null>): Block[] {
  const add = new ToncoAccountV3AddLiquidity(block.getBody());
  const firstDeposited = add.newAmount0 > 0n; // orders the assets
  let lpTokens: Amount = null, nftIndex: bigint | null = null, nftAddress: AccountId = null;
  if (positionInit) {
    const p = new ToncoPositionNftV3PositionInit(positionInit.getBody());
    lpTokens = p.liquidity;
    nftIndex = p.nftIndex;
    nftAddress = accountId(positionInit.getMessage().destination);
  }
  if (!input) return [];
  // the notification carries sender, amount and payload, for a jetton and a pTON input alike
  let notifyBlock: CallContractBlock | null = null;
  if (input.btype === 'jetton_transfer') notifyBlock = findCallContract(input.childrenBlocks, JettonNotify.opcode);
  else if (input instanceof CallContractBlock && input.opcode === JettonNotify.opcode) notifyBlock = input;
  if (!notifyBlock) return [];
  let sent: Amount, sender: AccountId, otherWallet: string, senderWallet: AccountId = null, routerWallet: string;
  try {
    const n = new JettonNotifyBody(notifyBlock.getBody());
    sent = n.jettonAmount;
    sender = addrAccount(n.fromUser);
    if (!n.forwardPayloadCell) return [];
    const payload = n.forwardPayloadCell.beginParse(true);
    if (payload.preloadUint(32) >>> 0 !== ToncoPoolV3FundAccountPayload.payloadOpcode) return [];
    otherWallet = new ToncoPoolV3FundAccountPayload(payload).getOtherJettonWallet();
    if (input.btype === 'jetton_transfer') senderWallet = transferData(input).sender_wallet;
    routerWallet = notifyBlock.getMessage().source!;
  } catch {
    return [];
  }
  const repo = interfaceRepository(block);
  let firstAsset: Asset;
  try {
    const w = repo.getJettonWallet(routerWallet);
    firstAsset = w !== null ? toncoAsset(w.jetton) : new Asset(true);
  } catch {
    return [];
  }
  let secondAsset: Asset | null = null;
  try {
    const w = repo.getJettonWallet(otherWallet);
    if (w !== null) secondAsset = toncoAsset(w.jetton);
  } catch {
    return [];
  }
  const [amount1, asset1, amount2, asset2, wallet1, wallet2] = firstDeposited
    ? [sent, firstAsset, null, secondAsset, senderWallet, null]
    : [null, secondAsset, sent, firstAsset, null, senderWallet];
  const excesses: Array<[Asset, Amount]> = [];
  for (const t of excessTransfers) {
    if (!t || t.btype !== 'jetton_transfer') continue;
    const pton = findCallContract(t.nextBlocks, PTonTransfer.opcode);
    if (pton !== null) excesses.push([new Asset(true), new PTonTransfer(pton.getBody()).tonAmount]);
    else excesses.push([transferData(t).asset as Asset, transferData(t).amount]);
  }
  return [new ToncoDepositLiquidityBlock({
    sender,
    pool: accountId(block.getMessage().source),
    account_contract: accountId(block.getMessage().destination),
    position_amount_1: add.newEnough0,
    position_amount_2: add.newEnough1,
    lp_tokens_minted: lpTokens,
    tick_lower: add.tickLower,
    tick_upper: add.tickUpper,
    nft_index: nftIndex,
    nft_address: nftAddress,
    amount_1: amount1, asset_1: asset1, sender_wallet_1: wallet1,
    amount_2: amount2, asset_2: asset2, sender_wallet_2: wallet2,
    excesses,
  })];
}

/** ACCOUNTV3_ADD_LIQUIDITY (pool -> account) after the fund-account call and the input; the mint and refund after it. */
export class ToncoDepositLiquidityMatcher extends BlockMatcher {
  constructor() {
    const tonInput = labeled('ton_input', new ContractMatcher(JettonNotify.opcode, { parentMatcher: labeled('ton_input_addition', new ContractMatcher(PTonTransfer.opcode)) }));
    const jettonInput = labeled('jetton_input', new BlockTypeMatcher('jetton_transfer'));
    const output = new BlockTypeMatcher('jetton_transfer', { childMatcher: new ContractMatcher(PTonTransfer.opcode, { optional: true }), optional: true });
    const refund = labeled('refund_router_call', new ContractMatcher(ToncoRouterV3PayTo.opcode, {
      optional: true,
      childrenMatchers: [labeled('excess_transfer_0', output), labeled('excess_transfer_1', output)],
    }));
    const mintAndRefund = new ContractMatcher(ToncoPoolV3MinAndRefund.opcode, {
      optional: true,
      childrenMatchers: [refund, labeled('nft_mint', new BlockTypeMatcher('nft_mint')), new ContractMatcher(ExcessMessage.opcode, { optional: true })],
    });
    super({
      parentMatcher: new ContractMatcher(ToncoPoolV3FundAccount.opcode, { parentMatcher: new OrMatcher([tonInput, jettonInput]) }),
      childMatcher: mintAndRefund,
    });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === ToncoAccountV3AddLiquidity.opcode;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const additional: Block[] = [];
    const addition = getLabeled('ton_input_addition', otherBlocks);
    if (addition) additional.push(addition);
    const built = toncoDepositCore(
      block,
      getLabeled('nft_mint', otherBlocks),
      getLabeled('ton_input', otherBlocks) ?? getLabeled('jetton_input', otherBlocks),
      [getLabeled('excess_transfer_0', otherBlocks), getLabeled('excess_transfer_1', otherBlocks)],
    );
    if (built.length === 0) return [];
    built[0].mergeBlocks([block, ...otherBlocks, ...additional]);
    return [built[0]];
  }
}

/** The router's pTON wallet: a payout from it is TON. */
export const TONCO_ROUTER_WTTON_WALLET_ADDR = '0:871DA9215B14902166F0EA2A16DB56278D528108377F8158C5F4CCFDFDD22E17';

type ToncoPayout = { amount: Amount; asset: Asset | null; dex_wallet: AccountId; dex_jetton_wallet: AccountId; wallet: AccountId };

/**
 * The router's pay-to declares the pool's asset 0 / asset 1; each payout transfer gives its own asset (pTON
 * unwrapped), a missing one falls back to the pay-to and a wallet lookup; the result in the pool's order.
 */
function resolveToncoWithdrawPayouts(routerPayout: CallContractBlock, p1: Block | null, p2: Block | null): [ToncoPayout[] | null, Block[], boolean] {
  const additional: Block[] = [];
  const m = new ToncoRouterV3PayTo(routerPayout.getBody());
  const router = [
    { amount: m.amount0 ?? 0n, wallet: m.jetton0Address !== null ? addrAccount(m.jetton0Address) : null, receiver: m.receiver0 !== null ? addrAccount(m.receiver0) : null },
    { amount: m.amount1 ?? 0n, wallet: m.jetton1Address !== null ? addrAccount(m.jetton1Address) : null, receiver: m.receiver1 !== null ? addrAccount(m.receiver1) : null },
  ];
  // upstream calls as_str() on each wallet: a pay-to without one fails the match
  for (const r of router) {
    if (r.wallet === null) throw new TypeError("'NoneType' object has no attribute 'as_str'");
    if (r.wallet === TONCO_ROUTER_WTTON_WALLET_ADDR) r.wallet = null;
  }
  const processed: ToncoPayout[] = [];
  const legs = [p1, p2];
  for (let i = 0; i < legs.length; i++) {
    const leg = legs[i];
    if (leg !== null && leg.btype === 'jetton_transfer') {
      const d = transferData(leg);
      const pton = findCallContract(leg.nextBlocks, PTonTransfer.opcode);
      let amount: Amount, asset: Asset | null;
      if (pton !== null) {
        amount = new PTonTransfer(pton.getBody()).tonAmount;
        asset = new Asset(true);
        additional.push(pton);
      } else {
        amount = d.amount;
        asset = d.asset;
      }
      processed.push({ amount, asset, dex_wallet: d.sender, dex_jetton_wallet: d.sender_wallet, wallet: d.receiver_wallet ?? null });
    } else if (i < router.length) {
      const r = router[i];
      let asset: Asset | null = null;
      if (r.wallet) {
        const w = interfaceRepository(routerPayout).getJettonWallet(r.wallet);
        if (w && isPtonMaster(w.jetton)) asset = new Asset(true);
        else if (w) asset = new Asset(false, w.jetton);
      }
      processed.push({ amount: r.amount, asset, dex_wallet: accountId(routerPayout.getMessage().source), dex_jetton_wallet: r.wallet, wallet: r.receiver });
    } else {
      return [null, additional, false];
    }
  }
  // the pool's asset 0 first
  if (processed[0].dex_jetton_wallet !== router[0].wallet) processed.reverse();
  const failed = m.exitCode !== 0 && m.exitCode !== 201;
  return [processed, additional, failed];
}

/** POOLV3_START_BURN -> position burn (NFT) -> pool burn -> router pay-to with up to two payout transfers. */
export class ToncoWithdrawLiquidityMatcher extends BlockMatcher {
  constructor() {
    const output = new BlockTypeMatcher('jetton_transfer', { childMatcher: new ContractMatcher(PTonTransfer.opcode, { optional: true }), optional: true });
    const routerPayouts = new ContractMatcher(ToncoRouterV3PayTo.opcode, { childrenMatchers: [labeled('payout_1', output), labeled('payout_2', output)] });
    const poolBurn = new ContractMatcher(ToncoPoolV3Burn.opcode, { childMatcher: routerPayouts });
    super({ childMatcher: new ContractMatcher(ToncoPositionNftV3PositionBurn.opcode, { childMatcher: poolBurn }) });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === ToncoPoolV3StartBurn.opcode;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const start = new ToncoPoolV3StartBurn(block.getBody());
    let burnedIndex = start.burnedIndex;
    const pool = accountId(block.getMessage().destination);
    const positionBurn = findCallContract(block.nextBlocks, ToncoPositionNftV3PositionBurn.opcode);
    if (!positionBurn) return [];
    const pb = new ToncoPositionNftV3PositionBurn(positionBurn.getBody());
    const sender = addrAccount(pb.nftOwner);
    const burnedNftAddress = accountId(positionBurn.getMessage().destination);
    const poolBurn = findCallContract(positionBurn.nextBlocks, ToncoPoolV3Burn.opcode);
    if (!poolBurn) return [];
    try {
      const b = new ToncoPoolV3Burn(poolBurn.getBody());
      if (b.burnedIndex) burnedIndex = b.burnedIndex;
    } catch {
      // upstream logs and keeps the start's index
    }
    const routerPayout = findCallContract(poolBurn.nextBlocks, ToncoRouterV3PayTo.opcode);
    if (!routerPayout) return [];
    const [payouts, extra, failed] = resolveToncoWithdrawPayouts(routerPayout, getLabeled('payout_1', otherBlocks), getLabeled('payout_2', otherBlocks));
    if (payouts === null) return [];
    const at = (i: number) => payouts[i];
    const newBlock = new ToncoWithdrawLiquidityBlock({
      sender, pool, burned_nft_index: burnedIndex, burned_nft_address: burnedNftAddress, liquidity_burnt: start.liquidityToBurn,
      tick_lower: start.tickLower, tick_upper: start.tickUpper,
      amount1_out: at(0)?.amount ?? null, asset1_out: at(0)?.asset ?? null, dex_wallet_1: at(0)?.dex_wallet ?? null, dex_jetton_wallet_1: at(0)?.dex_jetton_wallet ?? null, wallet1: at(0)?.wallet ?? null,
      amount2_out: at(1)?.amount ?? null, asset2_out: at(1)?.asset ?? null, dex_wallet_2: at(1)?.dex_wallet ?? null, dex_jetton_wallet_2: at(1)?.dex_jetton_wallet ?? null, wallet2: at(1)?.wallet ?? null,
    });
    const toMerge = [block, ...otherBlocks, ...extra];
    for (const c of [positionBurn, poolBurn, routerPayout]) if (!toMerge.includes(c)) toMerge.push(c);
    newBlock.mergeBlocks(unique(toMerge));
    newBlock.failed = failed;
    return [newBlock];
  }
}

/** ROUTERV3_CREATE_POOL -> POOLV3_INIT (-> excesses) */
export class ToncoDeployPoolBlockMatcher extends BlockMatcher {
  constructor() {
    const excesses = labeled('excesses', new ContractMatcher(ExcessMessage.opcode, { optional: true }));
    super({ childMatcher: labeled('init_pool', new ContractMatcher(ToncoPoolV3Init.opcode, { childMatcher: excesses })) });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === ToncoRouterV3CreatePool.opcode;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    let create: ToncoRouterV3CreatePool;
    try {
      create = new ToncoRouterV3CreatePool(block.getBody());
    } catch {
      return [];
    }
    const initBlock = getLabeled('init_pool', otherBlocks, CallContractBlock);
    if (!initBlock) return [];
    let init: ToncoPoolV3Init;
    try {
      init = new ToncoPoolV3Init(initBlock.getBody());
    } catch {
      return [];
    }
    const excesses = getLabeled('excesses', otherBlocks, CallContractBlock);
    let data: Data;
    try {
      data = {
        deployer: accountId(block.getMessage().source),
        router: accountId(block.getMessage().destination),
        pool: accountId(initBlock.getMessage().destination),
        jetton0_router_wallet: addrAccount(create.jettonWallet0),
        jetton1_router_wallet: addrAccount(create.jettonWallet1),
        jetton0_minter: addrAccount(create.jetton0Minter),
        jetton1_minter: addrAccount(create.jetton1Minter),
        tick_spacing: create.tickSpacing,
        initial_price_x96: create.initialPriceX96,
        protocol_fee: create.protocolFee,
        lp_fee_base: create.lpFeeBase,
        lp_fee_current: create.lpFeeCurrent,
        pool_active: init.poolActive,
        success: true, // found the init message
      };
    } catch {
      return [];
    }
    const newBlock = new ToncoDeployPoolBlock(data);
    // only the create and init calls (and the excesses): whatever else matched stays out
    newBlock.mergeBlocks(excesses ? [block, initBlock, excesses] : [block, initBlock]);
    return [newBlock];
  }
}

// ---------------------------------------------------------------- swap.coffee

const coffeeOut = () => new OrMatcher([new BlockTypeMatcher('jetton_transfer'), new ContractMatcher(CoffeePayout.opcode), new ContractMatcher(CoffeeNotification.opcode)]);

/** depository request after the incoming asset; its deploy, the deposit into the pool with LP mint, success event and payout. */
export class CoffeeDepositLiquidityMatcher extends BlockMatcher {
  constructor() {
    const payout = labeled('payout', new ContractMatcher(CoffeePayoutInternal.opcode, { optional: true, childMatcher: labeled('out_transfer', coffeeOut()) }));
    const lpTransfer = labeled('lp_transfer', new ContractMatcher(JettonInternalTransfer.opcode, { childMatcher: new ContractMatcher(ExcessMessage.opcode, { optional: true }) }));
    const successEvent = labeled('success_event', new ContractMatcher(CoffeeDepositLiquiditySuccessfulEvent.opcode));
    const depositInternal = labeled('deposit_internal', new ContractMatcher(CoffeeDepositLiquidityInternal.opcode, { optional: true, childrenMatchers: [lpTransfer, successEvent, payout] }));
    const deploy = labeled('deploy', new ContractMatcher(CoffeeDeploy.opcode, { childMatcher: depositInternal }));
    const inTransfer = labeled('in_transfer', new OrMatcher([new ContractMatcher(CoffeeDepositLiquidityNative.opcode), new BlockTypeMatcher('jetton_transfer')]));
    super({ parentMatcher: inTransfer, childMatcher: deploy });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === CoffeeCreateLiquidityDepositoryRequest.opcode;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const inTransfer = getLabeled('in_transfer', otherBlocks);
    if (!inTransfer) return [];
    let inSenderWallet: AccountId = null;
    let inAsset: Asset | null = new Asset(true);
    if (inTransfer instanceof JettonTransferBlock) {
      inSenderWallet = transferData(inTransfer).sender_wallet;
      inAsset = transferData(inTransfer).asset;
    }
    const req = new CoffeeCreateLiquidityDepositoryRequest(block.getBody());
    const sender = addrAccount(req.sender);
    let asset1: Asset | null = null, amount1: Amount = null, wallet1: AccountId = null, target1: Asset;
    let asset2: Asset | null = null, amount2: Amount = null, wallet2: AccountId = null, target2: Asset;
    if (assetStr(inAsset) === assetStr(req.poolParams.first)) {
      amount1 = req.amount;
      asset1 = inAsset;
      wallet1 = inSenderWallet;
      target1 = req.poolParams.first;
      target2 = req.poolParams.second;
    } else if (assetStr(inAsset) === assetStr(req.poolParams.second)) {
      amount2 = req.amount;
      asset2 = inAsset;
      wallet2 = inSenderWallet;
      target1 = req.poolParams.second;
      target2 = req.poolParams.first;
    } else {
      return []; // the incoming asset is not one of the pool's
    }
    const deploy = getLabeled('deploy', otherBlocks, CallContractBlock);
    if (!deploy) return [];
    let lpTokens: Amount = null;
    let pool: AccountId = null;
    const success = getLabeled('success_event', otherBlocks, CallContractBlock);
    if (success) {
      lpTokens = new CoffeeDepositLiquiditySuccessfulEvent(success.getBody()).lpAmount;
      pool = accountId(success.getMessage().source);
    }
    const lp = getLabeled('lp_transfer', otherBlocks, CallContractBlock);
    if (lp && (lpTokens === null || pool === null)) {
      lpTokens = new JettonInternalTransfer(lp.getBody()).amount;
      pool = accountId(lp.getMessage().source);
    }
    let vaultExcesses: Array<[Asset, Amount]> = [];
    const excess = getLabeled('out_transfer', otherBlocks);
    if (excess) {
      if (excess instanceof JettonTransferBlock) {
        const d = transferData(excess);
        const asset = d.asset instanceof Asset ? d.asset : new Asset(false, (d.asset as unknown as { jettonAddress: string }).jettonAddress);
        vaultExcesses = [[asset, d.amount ?? 0n]];
      } else if (excess instanceof CallContractBlock) {
        vaultExcesses = [[new Asset(true), excess.getMessage().value ?? 0n]];
      }
    }
    const newBlock = new Block<Data>('coffee_deposit_liquidity', [], {
      dex: 'coffee',
      sender,
      pool_address: pool,
      deposit_contract: accountId(deploy.getMessage().destination),
      vault_excesses: vaultExcesses,
      asset_1: asset1, amount_1: amount1, user_jetton_wallet_1: wallet1,
      asset_2: asset2, amount_2: amount2, user_jetton_wallet_2: wallet2,
      target_asset_1: target1, target_amount_1: null, // any amount may follow the depository's deploy
      target_asset_2: target2, target_amount_2: null,
      lp_tokens_minted: lpTokens,
    });
    newBlock.mergeBlocks([block, ...otherBlocks]);
    return [newBlock];
  }
}

/** LP burn (a jetton_burn block) -> two payouts (each a jetton transfer or TON payout) and the withdrawal event. */
export class CoffeeWithdrawLiquidityMatcher extends BlockMatcher {
  constructor() {
    const payout = new ContractMatcher(CoffeePayoutInternal.opcode, { childMatcher: coffeeOut() });
    super({
      childrenMatchers: [labeled('payout_1', payout), labeled('payout_2', payout), labeled('success_event', new ContractMatcher(CoffeeLiquidityWithdrawalEvent.opcode))],
    });
  }

  override testSelf(block: Block): boolean {
    return block instanceof JettonBurnBlock;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const burn = block.data as JettonBurnData;
    const success = getLabeled('success_event', otherBlocks, CallContractBlock);
    if (!success) return [];
    const ev = new CoffeeLiquidityWithdrawalEvent(success.getBody());
    const pool = accountId(success.getMessage().source);
    const side = (payout: CallContractBlock | null) => {
      const out = { asset: new Asset(true), dexWallet: pool, dexJettonWallet: null as AccountId, wallet: null as AccountId };
      if (!payout) return out;
      out.dexWallet = accountId(payout.getMessage().source);
      for (const next of payout.nextBlocks) {
        if (next instanceof JettonTransferBlock) {
          const d = transferData(next);
          out.asset = d.asset as Asset;
          out.dexJettonWallet = d.sender_wallet;
          out.wallet = d.receiver_wallet ?? null;
          break;
        } else if (next instanceof CallContractBlock && next.opcode === CoffeePayout.opcode) {
          out.asset = new Asset(true);
          out.wallet = accountId(next.getMessage().destination);
          break;
        }
      }
      return out;
    };
    const s1 = side(getLabeled('payout_1', otherBlocks, CallContractBlock));
    const s2 = side(getLabeled('payout_2', otherBlocks, CallContractBlock));
    const newBlock = new Block<Data>('dex_withdraw_liquidity', [], {
      dex: 'coffee', sender: burn.owner, sender_wallet: burn.jetton_wallet, pool, asset: burn.asset, lp_tokens_burnt: burn.amount, is_refund: false,
      amount1_out: ev.amount1, asset1_out: s1.asset, dex_wallet_1: s1.dexWallet, dex_jetton_wallet_1: s1.dexJettonWallet, wallet1: s1.wallet,
      amount2_out: ev.amount2, asset2_out: s2.asset, dex_wallet_2: s2.dexWallet, dex_jetton_wallet_2: s2.dexJettonWallet, wallet2: s2.wallet,
    });
    newBlock.mergeBlocks([block, ...otherBlocks]);
    return [newBlock];
  }
}

export class CoffeeCreateVaultBlock extends Block<Data> {
  constructor(data: Data) {
    super('coffee_create_vault', [], data);
  }
}

/** create_vault -> deploy (-> 0x2c76b973 -> 0xd1735400) */
export class CoffeeCreateVaultMatcher extends BlockMatcher {
  constructor() {
    super({
      childMatcher: labeled('deploy', new ContractMatcher(CoffeeDeploy.opcode, {
        childMatcher: new ContractMatcher(0x2c76b973, { optional: true, childMatcher: new ContractMatcher(0xd1735400, { optional: true }) }),
      })),
    });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === CoffeeCreateVault.opcode;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const m = new CoffeeCreateVault(block.getBody());
    const deploy = getLabeled('deploy', otherBlocks, CallContractBlock);
    if (!deploy) return [];
    const newBlock = new CoffeeCreateVaultBlock({
      sender: accountId(block.getMessage().source),
      vault: accountId(deploy.getMessage().destination),
      asset: m.asset,
      amount: block.getMessage().value,
    });
    newBlock.mergeBlocks([block, ...otherBlocks]);
    return [newBlock];
  }
}

export class CoffeeCreatePoolCreatorBlock extends Block<Data> {
  constructor(data: Data) {
    super('coffee_create_pool_creator', [], data);
  }
}

/** create_pool_creator_request after the provided asset (jetton transfer or native create_pool), and the creator's deploy. */
export class CoffeeCreatePoolCreatorMatcher extends BlockMatcher {
  constructor() {
    const inTransfer = labeled('in_transfer', new OrMatcher([
      new BlockTypeMatcher('jetton_transfer'), new ContractMatcher(CoffeeCreatePoolNative.opcode), new ContractMatcher(CoffeeCreatePoolExtra.opcode),
    ]));
    super({ parentMatcher: inTransfer, childMatcher: labeled('deploy', new ContractMatcher(CoffeeDeploy.opcode)) });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === CoffeeCreatePoolCreatorRequest.opcode;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const inTransfer = getLabeled('in_transfer', otherBlocks);
    let asset: Asset | null, sender: AccountId, senderJettonWallet: AccountId = null, amount: Amount;
    let poolParams: PoolParams, creationParams: PoolCreationParams;
    if (inTransfer instanceof JettonTransferBlock) {
      const d = transferData(inTransfer);
      sender = d.sender;
      senderJettonWallet = d.sender_wallet;
      asset = d.asset;
      amount = d.amount;
      const m = new CoffeeCreatePoolJetton(Cell.fromBase64(d.forward_payload!).beginParse(true));
      poolParams = m.params;
      creationParams = m.creationParams;
    } else if (inTransfer instanceof CallContractBlock && inTransfer.opcode === CoffeeCreatePoolNative.opcode) {
      sender = accountId(inTransfer.getMessage().source);
      const m = new CoffeeCreatePoolNative(inTransfer.getBody());
      amount = m.amount;
      asset = new Asset(true);
      poolParams = m.params;
      creationParams = m.creationParams;
    } else {
      // an extra-currency creation (or anything else) is not reported
      return [];
    }
    const deploy = getLabeled('deploy', otherBlocks, CallContractBlock);
    if (!deploy) return [];
    const newBlock = new CoffeeCreatePoolCreatorBlock({
      sender,
      sender_jetton_wallet: senderJettonWallet,
      provided_asset: asset,
      amount,
      pool_creator_contract: accountId(deploy.getMessage().destination),
      deposit_recipient: addrAccount(creationParams.public.recipient),
      pool_params: poolParams,
      pool_creation_params: creationParams.public,
    });
    newBlock.mergeBlocks([block, ...otherBlocks]);
    return [newBlock];
  }
}

export class CoffeeCreatePoolBlock extends Block<Data> {
  constructor(data: Data) {
    super('coffee_create_pool', [], data);
  }
}

/** A pool creator block, then the pool request, the pool's deploy with the LP mint, the success event and a notification. */
export class CoffeeCreatePoolMatcher extends BlockMatcher {
  constructor() {
    const lpTransfer = labeled('lp_transfer', new ContractMatcher(JettonInternalTransfer.opcode, { childMatcher: new ContractMatcher(ExcessMessage.opcode, { optional: true }) }));
    const poolDeploy = labeled('pool_deploy', new ContractMatcher(CoffeeDeploy.opcode, {
      childrenMatchers: [
        lpTransfer,
        labeled('success_event', new ContractMatcher(CoffeeDepositLiquiditySuccessfulEvent.opcode)),
        new ContractMatcher(CoffeeNotification.opcode, { optional: true, childMatcher: new ContractMatcher(0xb216d31f, { optional: true }) }),
      ],
    }));
    super({ childMatcher: labeled('pool_request', new ContractMatcher(CoffeeCreatePoolRequest.opcode, { childMatcher: poolDeploy })) });
  }

  override testSelf(block: Block): boolean {
    return block.btype === 'coffee_create_pool_creator';
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const creator = block.data as Data;
    let initiator1 = creator.sender as AccountId;
    let asset1 = creator.provided_asset as Asset | null;
    const params = creator.pool_params as PoolParams;
    const request = getLabeled('pool_request', otherBlocks, CallContractBlock);
    if (!request) return [];
    const req = new CoffeeCreatePoolRequest(request.getBody());
    let amount1: Amount = req.amount1, amount2: Amount = req.amount2;
    let initiator2 = addrAccount(req.txInitiator);
    const deploy = getLabeled('pool_deploy', otherBlocks, CallContractBlock);
    if (!deploy) return [];
    const pool = accountId(deploy.getMessage().destination);
    const success = getLabeled('success_event', otherBlocks, CallContractBlock);
    if (!success) return [];
    const lpTokens = new CoffeeDepositLiquiditySuccessfulEvent(success.getBody()).lpAmount;
    let asset2: Asset | null;
    if (assetStr(asset1) === assetStr(params.first)) {
      asset2 = params.second;
    } else if (assetStr(asset1) === assetStr(params.second)) {
      asset2 = params.first;
      // the pool's order: amounts and initiators swap with the assets
      [amount1, amount2] = [amount2, amount1];
      [initiator1, initiator2] = [initiator2, initiator1];
    } else {
      asset1 = params.first;
      asset2 = params.second;
    }
    const newBlock = new CoffeeCreatePoolBlock({
      source: creator.sender,
      source_jetton_wallet: creator.sender_jetton_wallet,
      provided_asset: creator.provided_asset,
      amount: creator.amount,
      initiator_1: initiator1,
      initiator_2: initiator2,
      pool,
      asset_1: asset1,
      asset_2: asset2,
      amount_1: amount1,
      amount_2: amount2,
      lp_tokens_minted: lpTokens,
      pool_creator_contract: creator.pool_creator_contract,
      pool_params: params,
      pool_creation_params: creator.pool_creation_params,
    });
    newBlock.mergeBlocks([block, ...otherBlocks]);
    return [newBlock];
  }
}

/** A transfer (TON with mev_protect_hold_funds, or a jetton transfer whose payload is it) to the MEV protection contract. */
function payloadIs(block: Block, opcode: number): boolean {
  const op = (block.data as JettonTransferData).payload_opcode;
  // int(None, 16) raises: not a match
  if (op === null || op === undefined) return false;
  const n = Number.parseInt(op, 16);
  return n === opcode;
}

export class CoffeeMevProtectHoldFundsMatcher extends BlockMatcher {
  constructor() {
    super({ parentMatcher: new GenericMatcher(() => true, { optional: true, childMatcher: new ContractMatcher(CoffeeServiceFee.opcode) }) });
  }

  override testSelf(block: Block): boolean {
    try {
      return (block instanceof CallContractBlock && block.opcode === CoffeeMevProtectHoldFunds.opcode) || (block instanceof JettonTransferBlock && payloadIs(block, CoffeeMevProtectHoldFunds.opcode));
    } catch {
      return false;
    }
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    let data: Data;
    if (block instanceof CallContractBlock) {
      data = {
        sender: accountId(block.getMessage().source), mev_contract: accountId(block.getMessage().destination), asset: new Asset(true),
        sender_wallet: null, mev_contract_wallet: null, amount: block.getMessage().value,
      };
    } else if (block instanceof JettonTransferBlock) {
      const d = transferData(block);
      data = { sender: d.sender, mev_contract: d.receiver, asset: d.asset, sender_wallet: d.sender_wallet, mev_contract_wallet: null, amount: d.amount };
    } else {
      return [];
    }
    const newBlock = new Block<Data>('coffee_mev_protect_hold_funds', [], data);
    newBlock.mergeBlocks([block, ...otherBlocks]);
    return [newBlock];
  }
}

export class CoffeeMevProtectFailedSwapMatcher extends BlockMatcher {
  constructor() {
    super();
  }

  override testSelf(block: Block): boolean {
    try {
      return (block instanceof CallContractBlock && block.opcode === CoffeeMevProtectFailedSwap.opcode) || (block instanceof JettonTransferBlock && payloadIs(block, CoffeeMevProtectFailedSwap.opcode));
    } catch {
      return false;
    }
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    let data: Data;
    if (block instanceof CallContractBlock) {
      data = { recipient: addrAccount(new CoffeeMevProtectFailedSwap(block.getBody()).recipient), asset: new Asset(true) };
    } else if (block instanceof JettonTransferBlock) {
      const d = transferData(block);
      data = { recipient: addrAccount(new CoffeeMevProtectFailedSwap(Cell.fromBase64(d.forward_payload!).beginParse(true)).recipient), asset: d.asset };
    } else {
      return [];
    }
    const newBlock = new Block<Data>('coffee_mev_protect_failed_swap', [], data);
    newBlock.mergeBlocks([block, ...otherBlocks]);
    return [newBlock];
  }
}

/** This family's matchers under upstream's class names (families/index.ts, matcher-order.ts). */
export const MATCHERS = {
  DedustDepositBlockMatcher: new DedustDepositBlockMatcher(),
  DedustDepositFirstAssetBlockMatcher: new DedustDepositFirstAssetBlockMatcher(),
  DedustWithdrawBlockMatcher: new DedustWithdrawBlockMatcher(),
  StonfiV2ProvideLiquidityMatcher: new StonfiV2ProvideLiquidityMatcher(),
  StonfiV2WithdrawLiquidityMatcher: new StonfiV2WithdrawLiquidityMatcher(),
  ToncoDepositLiquidityMatcher: new ToncoDepositLiquidityMatcher(),
  ToncoDeployPoolBlockMatcher: new ToncoDeployPoolBlockMatcher(),
  ToncoWithdrawLiquidityMatcher: new ToncoWithdrawLiquidityMatcher(),
  CoffeeDepositLiquidityMatcher: new CoffeeDepositLiquidityMatcher(),
  CoffeeWithdrawLiquidityMatcher: new CoffeeWithdrawLiquidityMatcher(),
  CoffeeCreateVaultMatcher: new CoffeeCreateVaultMatcher(),
  CoffeeCreatePoolCreatorMatcher: new CoffeeCreatePoolCreatorMatcher(),
  CoffeeCreatePoolMatcher: new CoffeeCreatePoolMatcher(),
  CoffeeMevProtectHoldFundsMatcher: new CoffeeMevProtectHoldFundsMatcher(),
  CoffeeMevProtectFailedSwapMatcher: new CoffeeMevProtectFailedSwapMatcher(),
};

/** Upstream's trace post-processor of this file. */
export const POST_PROCESSORS = { post_process_dedust_liquidity: postProcessDedustLiquidity };
