/**
 * ↔ indexer/events/blocks/dedust_v2/{common,swaps,liquidity,claims}.py (newer upstream, registered right after the
 * DeDust v1 swap matcher, with its post-processor after v1's): DeDust CPMM V2.
 * - swap: a carrier (PayNative with a swap payload, or a jetton transfer into the pool) whose pool logs a Swap
 *   event; each further hop is a pool -> pool carrier, the last leg a jetton transfer or a TON payout. Amounts
 *   from the events, the floor from the route's last step; failed when a pool's transaction failed.
 * - failed swap: the carrier without a Swap event, refunded (a TON payout with a non-zero exit code to the
 *   carrier's sender, or the same jetton back to the sender); the other asset from the pool's record.
 * - withdraw: withdraw -> position -> pool (exit_liquidity) -> the Withdrawal event and payouts; no event is a
 *   failed, refunded withdrawal; auto-claimed fees are not reported.
 * - deposit: each leg's carrier credits the escrow; the last credit's join_liquidity completes (Deposit event) or is
 *   rejected (refunds, failed); the other leg is a partial merged in by `post_process_dedust_v2_liquidity`.
 * - claims: LP fees (both sides matched to the position's figures by amount) and mining rewards.
 * `bail` (upstream logs the reason) builds nothing; `excess_matcher()` is an optional excess call.
 */
import { Cell } from '@ton/core';
import { CallContractBlock } from '../basic-blocks.ts';
import type { JettonTransferData } from '../block-data.ts';
import { findCallContracts, getLabeled, getLabeledSorted } from '../block-utils.ts';
import { interfaceRepository } from '../context.ts';
import type { InterfaceRepository } from '../interfaces.ts';
import { Block, unique, type PostProcessor } from '../core.ts';
import { labeled } from '../labels.ts';
import { BlockMatcher, BlockTypeMatcher, ContractMatcher, GenericMatcher, OrMatcher } from '../matchers.ts';
import { addrAccount, ExcessMessage } from '../messages/common.ts';
import {
  DedustV2ClaimAvailableFees, DedustV2ClaimPositionFees, DedustV2ClaimPositionReward, DedustV2ClaimReward, DedustV2CreditAsset,
  DedustV2CreditLiquidity, DedustV2DepositEvent, DedustV2DepositPayload, DedustV2ExitLiquidity, DedustV2JoinLiquidity, DedustV2PayJetton,
  DedustV2PayNative, DedustV2PayoutMessage, DedustV2PayoutPositionFees, DedustV2PayoutReward, DedustV2SwapEvent, DedustV2SwapPayload,
  DedustV2SwapStep, DedustV2Withdraw, DedustV2WithdrawalEvent, DedustV2WithdrawLiquidity,
} from '../messages/dedust-v2.ts';
import { accountId, Asset, type AccountId, type Amount } from '../ton-utils.ts';
import { JettonTransferBlock } from './jettons.ts';
import { JettonSwapBlock } from './swaps.ts';

type Data = Record<string, unknown>;
const transferData = (b: Block) => b.data as JettonTransferData;
const bail = (): Block[] => [];
const excessMatcher = () => new ContractMatcher(ExcessMessage.opcode, { optional: true, includeExcess: false });

// ---------------------------------------------------------------- common.py

/** A jetton or TON payout leg, optional (zero-fee and failed flows still match). */
function payoutLegMatcher(): BlockMatcher {
  return new OrMatcher([
    labeled('payout', new BlockTypeMatcher('jetton_transfer')),
    labeled('payout', new ContractMatcher(DedustV2PayoutMessage.opcode, { includeExcess: false })),
  ], true);
}

type PayoutLeg = [amount: Amount, asset: Asset | null, userWallet: AccountId, dexWallet: AccountId, dexJettonWallet: AccountId];

/** (amount, asset, user wallet, dex wallet, dex jetton wallet), or null when the leg does not read. */
function parsePayoutLeg(payout: Block): PayoutLeg | null {
  if (payout instanceof JettonTransferBlock) {
    const d = transferData(payout);
    return [d.amount, d.asset, d.receiver_wallet ?? null, d.sender, d.sender_wallet];
  }
  if (payout instanceof CallContractBlock && payout.opcode === DedustV2PayoutMessage.opcode) {
    let pm: DedustV2PayoutMessage;
    try {
      pm = new DedustV2PayoutMessage(payout.getBody());
    } catch {
      return null;
    }
    return [pm.amount, new Asset(true), null, accountId(payout.getMessage().source), null];
  }
  return null;
}

// ---------------------------------------------------------------- swaps.py

const hasSwapEventChild = (block: Block) => block.nextBlocks.some((b) => b instanceof CallContractBlock && b.opcode === DedustV2SwapEvent.opcode);
/** a jetton transfer into a pool that logs a Swap event */
const isJettonSwapCarrier = (block: Block) => block.btype === 'jetton_transfer' && hasSwapEventChild(block);
const carrierAsset = (block: Block): Asset | null => (block instanceof JettonTransferBlock ? transferData(block).asset : new Asset(true));

/** The floor of the final output: the last SwapStep's (the payload's own is the first hop's); 16 steps at most. */
function finalMinOut(payload: DedustV2SwapPayload): Amount {
  let minOut = payload.minimalAmountOut;
  let next = payload.next;
  for (let depth = 0; next !== null && depth < 16; depth++) {
    const step = new DedustV2SwapStep(next.beginParse());
    minOut = step.minimalAmountOut;
    next = step.next;
  }
  return minOut;
}

function jettonSwapPayload(block: Block): DedustV2SwapPayload | null {
  if (!(block instanceof JettonTransferBlock)) return null;
  const fp = transferData(block).forward_payload;
  if (fp === null || fp === undefined) return null;
  try {
    const payJetton = new DedustV2PayJetton(Cell.fromBase64(fp).beginParse());
    if (payJetton.paymentPayloadOpcode !== DedustV2SwapPayload.opcode) return null;
    return new DedustV2SwapPayload(payJetton.paymentPayload.beginParse());
  } catch {
    return null;
  }
}

function nativeSwapPayload(block: Block): [DedustV2PayNative, DedustV2SwapPayload] | null {
  try {
    const payNative = new DedustV2PayNative(block.getBody());
    if (payNative.paymentPayloadOpcode !== DedustV2SwapPayload.opcode) return null;
    return [payNative, new DedustV2SwapPayload(payNative.paymentPayload.beginParse())];
  } catch {
    return null;
  }
}

/** The pool's other asset (its record from the interface repository), or null. */
function poolOtherAsset(repo: InterfaceRepository, pool: AccountId, sourceAsset: Asset | null): Asset | null {
  const info = repo.getDedustPool(pool);
  if (info === null) return null;
  for (const a of info.assets) {
    const cand = new Asset(a.is_ton, a.is_ton ? null : a.address);
    if (!(sourceAsset !== null && cand.equals(sourceAsset))) return cand;
  }
  return null;
}

function swapPayload(block: Block): DedustV2SwapPayload | null {
  if (block instanceof JettonTransferBlock) return jettonSwapPayload(block);
  return nativeSwapPayload(block)?.[1] ?? null;
}

type SwapTransfer = { asset: Asset | null; amount: Amount; source: AccountId; source_jetton_wallet: AccountId; destination: AccountId; destination_jetton_wallet: AccountId };

/** Single hop or SwapStep multi-hop: each hop is carrier -> Swap event + the next carrier or the final out leg. */
export class DedustV2SwapBlockMatcher extends BlockMatcher {
  constructor() {
    const swapEvent = new ContractMatcher(DedustV2SwapEvent.opcode, { includeExcess: false });
    const outLeg = labeled('out', new OrMatcher([
      new BlockTypeMatcher('jetton_transfer'),
      new ContractMatcher(DedustV2PayoutMessage.opcode, { includeExcess: false }),
    ]));
    const nativeHop = labeled('hop', new ContractMatcher(DedustV2PayNative.opcode, { includeExcess: false }));
    const jettonInner = new GenericMatcher(isJettonSwapCarrier);
    jettonInner.includeExcess = false;
    const jettonHop = labeled('hop', jettonInner);
    // an intermediate jetton carrier is a jetton transfer too: the hops come before the out leg
    const continuation = new OrMatcher([nativeHop, jettonHop, outLeg]);
    const hopChildren = [swapEvent, continuation, excessMatcher()];
    nativeHop.childrenMatchers = hopChildren;
    jettonHop.childrenMatchers = hopChildren;
    super({ includeExcess: false, childrenMatchers: hopChildren });
  }

  override testSelf(block: Block): boolean {
    if (block instanceof CallContractBlock && block.opcode === DedustV2PayNative.opcode) return true;
    return isJettonSwapCarrier(block);
  }

  private minOutAmount(block: Block): Amount {
    const payload = swapPayload(block);
    if (payload === null) return null;
    try {
      return finalMinOut(payload);
    } catch {
      return null;
    }
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    // PayNative carries deposits and reward funding too
    if (block instanceof CallContractBlock && block.opcode === DedustV2PayNative.opcode && nativeSwapPayload(block) === null) return [];
    const swapBlocks = findCallContracts([block, ...otherBlocks], DedustV2SwapEvent.opcode).sort((a, b) => (a.minLt < b.minLt ? -1 : a.minLt > b.minLt ? 1 : 0));
    if (swapBlocks.length === 0) return [];
    const swaps = swapBlocks.map((b) => new DedustV2SwapEvent(b.getBody()));
    const n = swaps.length;
    const outLeg = getLabeled('out', otherBlocks);
    if (outLeg === null) return bail();
    // the out leg still carries a swap payload: the route failed mid-hop
    if (outLeg instanceof JettonTransferBlock && jettonSwapPayload(outLeg) !== null) return bail();

    // on a linear chain the lt order makes carriers[i] feed swaps[i]
    const carriers = [block, ...getLabeledSorted('hop', otherBlocks)];
    const assetSeq = carriers.map(carrierAsset);
    const outAsset = outLeg instanceof JettonTransferBlock ? transferData(outLeg).asset : new Asset(true);
    assetSeq.push(outAsset);

    let sender: AccountId, inSourceWallet: AccountId, inDestination: AccountId, inDestinationWallet: AccountId;
    if (block instanceof JettonTransferBlock) {
      const d = transferData(block);
      [sender, inSourceWallet, inDestination, inDestinationWallet] = [d.sender, d.sender_wallet, d.receiver, d.receiver_wallet ?? null];
    } else {
      const m = block.getMessage();
      [sender, inSourceWallet, inDestination, inDestinationWallet] = [accountId(m.source), null, accountId(m.destination), null];
    }
    let outSource: AccountId, outSourceWallet: AccountId, outDestination: AccountId, outDestinationWallet: AccountId;
    if (outLeg instanceof JettonTransferBlock) {
      const d = transferData(outLeg);
      [outSource, outSourceWallet, outDestination, outDestinationWallet] = [d.sender, d.sender_wallet, d.receiver, d.receiver_wallet ?? null];
    } else {
      const m = outLeg.getMessage();
      [outSource, outSourceWallet, outDestination, outDestinationWallet] = [accountId(m.source), null, accountId(m.destination), null];
    }

    // upstream logs a carrier/hop count mismatch and amounts that do not chain; neither stops the build
    const peerSwaps: Array<{ in: { amount: Amount; asset: Asset | null }; out: { amount: Amount; asset: Asset | null } }> = [];
    if (assetSeq.length === n + 1) {
      for (let i = 0; i < n; i++) {
        peerSwaps.push({ in: { amount: swaps[i].amountIn, asset: assetSeq[i] }, out: { amount: swaps[i].amountOut, asset: assetSeq[i + 1] } });
      }
    }
    const incoming: SwapTransfer = {
      asset: assetSeq[0], amount: swaps[0].amountIn, source: sender, source_jetton_wallet: inSourceWallet, destination: inDestination, destination_jetton_wallet: inDestinationWallet,
    };
    const outgoing: SwapTransfer = {
      asset: outAsset, amount: swaps[n - 1].amountOut, source: outSource, source_jetton_wallet: outSourceWallet, destination: outDestination, destination_jetton_wallet: outDestinationWallet,
    };
    const success = swapBlocks.every((b) => {
      const tx = b.getMessage().transaction;
      return tx.aborted === false && (tx.computeExitCode === null || tx.computeExitCode === 0);
    });
    const newBlock = new JettonSwapBlock({
      dex: 'dedust_v2', sender, source_asset: assetSeq[0], destination_asset: outAsset,
      dex_incoming_transfer: incoming, dex_outgoing_transfer: outgoing,
      peer_swaps: (n > 1 ? peerSwaps : []) as never, referral_amount: null, referral_address: null,
      min_out_amount: this.minOutAmount(block),
    } as never);
    newBlock.mergeBlocks([block, ...otherBlocks]);
    newBlock.failed = !success;
    return [newBlock];
  }
}

type SwapIn = [sender: AccountId, pool: AccountId, sourceAsset: Asset | null, amountIn: Amount, inSrcWallet: AccountId, inDstWallet: AccountId, minOut: Amount];

/** A swap carrier without a Swap event (slippage, deadline), refunded: a failed swap. */
export class DedustV2FailedSwapBlockMatcher extends BlockMatcher {
  constructor() {
    super({
      includeExcess: false,
      childrenMatchers: [
        labeled('refund', new OrMatcher([
          new ContractMatcher(DedustV2PayoutMessage.opcode, { includeExcess: false }),
          new BlockTypeMatcher('jetton_transfer'),
        ])),
        excessMatcher(),
      ],
    });
  }

  override testSelf(block: Block): boolean {
    if (block instanceof CallContractBlock && block.opcode === DedustV2PayNative.opcode) return true;
    return jettonSwapPayload(block) !== null;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    if (hasSwapEventChild(block)) return []; // executed: the swap matcher's case
    const refund = getLabeled('refund', otherBlocks);
    if (refund === null) return bail();
    const parsed = block instanceof JettonTransferBlock ? this.jettonIn(block, refund) : this.nativeIn(block, refund);
    if (parsed === null) return [];
    const [sender, pool, sourceAsset, amountIn, inSrcWallet, inDstWallet, minOut] = parsed;
    const outAsset = poolOtherAsset(interfaceRepository(block), pool, sourceAsset);
    const newBlock = new JettonSwapBlock({
      dex: 'dedust_v2', sender, source_asset: sourceAsset, destination_asset: outAsset,
      dex_incoming_transfer: { asset: sourceAsset, amount: amountIn, source: sender, source_jetton_wallet: inSrcWallet, destination: pool, destination_jetton_wallet: inDstWallet },
      dex_outgoing_transfer: { asset: outAsset, amount: 0n, source: pool, source_jetton_wallet: null, destination: sender, destination_jetton_wallet: null },
      peer_swaps: [], referral_amount: null, referral_address: null, min_out_amount: minOut,
    } as never);
    newBlock.mergeBlocks([block, ...otherBlocks]);
    newBlock.failed = true;
    return [newBlock];
  }

  private nativeIn(block: Block, refund: Block): SwapIn | null {
    const parsed = nativeSwapPayload(block);
    if (parsed === null) return null; // not a swap (a deposit, …)
    const [payNative, payload] = parsed;
    if (!(refund instanceof CallContractBlock && refund.opcode === DedustV2PayoutMessage.opcode)) return null;
    try {
      if (new DedustV2PayoutMessage(refund.getBody()).exitCode === 0) return null; // a normal payout
    } catch {
      return null;
    }
    const inMsg = block.getMessage();
    // the refund goes back to the carrier's sender (a failed multi-hop's pool -> pool carrier refunds the initiator)
    if (refund.getMessage().destination !== inMsg.source) return null;
    let minOut: Amount;
    try {
      minOut = finalMinOut(payload);
    } catch {
      minOut = null;
    }
    return [accountId(inMsg.source), accountId(inMsg.destination), new Asset(true), payNative.amount, null, null, minOut];
  }

  private jettonIn(block: JettonTransferBlock, refund: Block): SwapIn | null {
    const payload = jettonSwapPayload(block);
    if (payload === null) return null;
    const d = transferData(block);
    if (!(refund instanceof JettonTransferBlock)) return null;
    const r = transferData(refund);
    const sameAsset = r.asset === null || d.asset === null ? r.asset === d.asset : r.asset.equals(d.asset);
    if (!sameAsset || r.receiver !== d.sender) return null;
    return [d.sender, d.receiver, d.asset, d.amount, d.sender_wallet, d.receiver_wallet ?? null, finalMinOut(payload)];
  }
}

// ---------------------------------------------------------------- liquidity.py

export class DedustV2DepositLiquidityBlock extends Block<Data> {
  constructor(data: Data) {
    super('dedust_v2_deposit_liquidity', [], data);
  }
}

export class DedustV2DepositLiquidityPartialBlock extends Block<Data> {
  constructor(data: Data) {
    super('dedust_v2_deposit_liquidity_partial', [], data);
  }
}

/** withdraw -> withdraw_liquidity -> exit_liquidity -> (Withdrawal event) + two payout legs; LP lives in the position. */
export class DedustV2WithdrawBlockMatcher extends BlockMatcher {
  constructor() {
    const exitLiquidity = new ContractMatcher(DedustV2ExitLiquidity.opcode, {
      includeExcess: false,
      childrenMatchers: [
        labeled('event', new ContractMatcher(DedustV2WithdrawalEvent.opcode, { optional: true, includeExcess: false })),
        payoutLegMatcher(),
        payoutLegMatcher(),
      ],
    });
    const withdrawLiquidity = new ContractMatcher(DedustV2WithdrawLiquidity.opcode, { includeExcess: false, childMatcher: exitLiquidity });
    super({ includeExcess: false, childMatcher: withdrawLiquidity });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === DedustV2Withdraw.opcode;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    let withdraw: DedustV2Withdraw;
    try {
      withdraw = new DedustV2Withdraw(block.getBody());
    } catch {
      return [];
    }
    // auto-claimed fees come out in the same pool transaction: the payouts cannot be told from the withdrawn amounts
    if (withdraw.autoClaimFees) return bail();
    const event = getLabeled('event', otherBlocks);
    const success = event !== null;
    const payouts: Array<Block | null> = [...getLabeledSorted('payout', otherBlocks), null, null].slice(0, 2);
    const legs: PayoutLeg[] = [];
    for (const p of payouts) {
      if (p === null) {
        legs.push([null, null, null, null, null]);
        continue;
      }
      const leg = parsePayoutLeg(p);
      if (leg === null) return bail();
      legs.push(leg);
    }
    const [amount1, asset1, wallet1, dexWallet1, dexJettonWallet1] = legs[0];
    const [amount2, asset2, wallet2, dexWallet2, dexJettonWallet2] = legs[1];
    const lpBurnt = success ? new DedustV2WithdrawalEvent(event.getBody()).liquidity : withdraw.liquidity;
    const m = block.getMessage();
    const newBlock = new Block<Data>('dex_withdraw_liquidity', [], {
      dex: 'dedust_v2', sender: accountId(m.source), sender_wallet: null, pool: accountId(m.destination), asset: null, lp_tokens_burnt: lpBurnt,
      is_refund: !success,
      amount1_out: amount1, asset1_out: asset1, dex_wallet_1: dexWallet1, dex_jetton_wallet_1: dexJettonWallet1, wallet1,
      amount2_out: amount2, asset2_out: asset2, dex_wallet_2: dexWallet2, dex_jetton_wallet_2: dexJettonWallet2, wallet2,
    });
    newBlock.mergeBlocks([block, ...otherBlocks]);
    newBlock.failed = !success;
    return [newBlock];
  }
}

/** one deposit leg's carrier: a jetton transfer or PayNative (the TON leg) */
function depositCarrierMatcher(): BlockMatcher {
  return new OrMatcher([
    labeled('carrier', new BlockTypeMatcher('jetton_transfer')),
    labeled('carrier', new ContractMatcher(DedustV2PayNative.opcode, { includeExcess: false })),
  ]);
}

/** credit_asset <- its carrier: the parent chain of both join_liquidity matchers */
function depositCreditParent(): BlockMatcher {
  return labeled('credit', new ContractMatcher(DedustV2CreditAsset.opcode, { includeExcess: false, parentMatcher: depositCarrierMatcher() }));
}

/** The deposit payload (the desired amounts) from either carrier, or null. */
function depositPayload(carrier: Block): DedustV2DepositPayload | null {
  try {
    if (carrier instanceof JettonTransferBlock) {
      const fp = transferData(carrier).forward_payload;
      if (fp === null || fp === undefined) return null;
      const payJetton = new DedustV2PayJetton(Cell.fromBase64(fp).beginParse());
      return new DedustV2DepositPayload(payJetton.paymentPayload.beginParse());
    }
    return new DedustV2DepositPayload(new DedustV2PayNative(carrier.getBody()).paymentPayload.beginParse());
  } catch {
    return null;
  }
}

/** (slot: 1 for X, 2 for Y, asset, the user's jetton wallet, sender) of a credited leg */
function depositLeg(carrier: Block, credit: Block): [1 | 2, Asset | null, AccountId, AccountId] {
  const isX = new DedustV2CreditAsset(credit.getBody()).isX;
  if (carrier instanceof JettonTransferBlock) {
    const d = transferData(carrier);
    return [isX ? 1 : 2, d.asset, d.sender_wallet, d.sender];
  }
  return [isX ? 1 : 2, new Asset(true), null, accountId(carrier.getMessage().source)];
}

/** The refunds of a join (jetton transfers and a TON payout), each to the initiator, as vault excesses; null if one is not. */
function joinRefunds(otherBlocks: Block[], initiator: AccountId): Array<[Asset | null, Amount]> | null {
  const out: Array<[Asset | null, Amount]> = [];
  for (const rj of getLabeledSorted('refund_jetton', otherBlocks)) {
    if (!(rj instanceof JettonTransferBlock) || transferData(rj).receiver !== initiator) return null;
    out.push([transferData(rj).asset, transferData(rj).amount]);
  }
  const refundTon = getLabeled('refund_ton', otherBlocks);
  if (refundTon !== null) {
    let pm: DedustV2PayoutMessage;
    try {
      pm = new DedustV2PayoutMessage(refundTon.getBody());
    } catch {
      return null;
    }
    if (accountId(refundTon.getMessage().destination) !== initiator) return null;
    out.push([new Asset(true), pm.amount]);
  }
  return out;
}

const refundChildren = () => [
  labeled('refund_jetton', new BlockTypeMatcher('jetton_transfer', { optional: true })),
  labeled('refund_jetton', new BlockTypeMatcher('jetton_transfer', { optional: true })),
  labeled('refund_ton', new ContractMatcher(DedustV2PayoutMessage.opcode, { optional: true, includeExcess: false })),
];

/** The completing leg: join_liquidity (after the last credit) -> Deposit event, LP credit, dust refunds. */
export class DedustV2DepositBlockMatcher extends BlockMatcher {
  constructor() {
    super({
      includeExcess: false,
      parentMatcher: depositCreditParent(),
      childrenMatchers: [
        labeled('event', new ContractMatcher(DedustV2DepositEvent.opcode, { optional: true, includeExcess: false })),
        labeled('credit_liquidity', new ContractMatcher(DedustV2CreditLiquidity.opcode, { optional: true })),
        ...refundChildren(),
      ],
    });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === DedustV2JoinLiquidity.opcode;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    let join: DedustV2JoinLiquidity;
    try {
      join = new DedustV2JoinLiquidity(block.getBody());
    } catch {
      return [];
    }
    const eventBlock = getLabeled('event', otherBlocks);
    if (eventBlock === null) return []; // the rejected matcher's case
    const event = new DedustV2DepositEvent(eventBlock.getBody());
    const carrier = getLabeled('carrier', otherBlocks);
    const credit = getLabeled('credit', otherBlocks);
    if (carrier === null || credit === null) return bail();
    let leg: ReturnType<typeof depositLeg>;
    try {
      leg = depositLeg(carrier, credit);
    } catch {
      return bail();
    }
    const [slot, asset, userWallet] = leg;
    const payload = depositPayload(carrier);
    const initiator = addrAccount(join.initiator);
    const vaultExcesses = joinRefunds(otherBlocks, initiator);
    if (vaultExcesses === null) return bail();
    const m = block.getMessage();
    const data: Data = {
      dex: 'dedust_v2', sender: initiator, pool: accountId(m.destination), deposit_contract: accountId(m.source),
      amount_1: event.amountXIn, asset_1: null, sender_wallet_1: null,
      amount_2: event.amountYIn, asset_2: null, sender_wallet_2: null,
      target_amount_1: payload?.amountX ?? null, target_amount_2: payload?.amountY ?? null,
      lp_tokens_minted: event.liquidity, vault_excesses: vaultExcesses,
    };
    data[`asset_${slot}`] = asset;
    data[`sender_wallet_${slot}`] = userWallet;
    const newBlock = new DedustV2DepositLiquidityBlock(data);
    newBlock.mergeBlocks([block, ...otherBlocks]);
    return [newBlock];
  }
}

/** join_liquidity without a Deposit event: every credited leg refunded to the initiator; a failed deposit. */
export class DedustV2RejectedDepositBlockMatcher extends BlockMatcher {
  constructor() {
    super({ includeExcess: false, parentMatcher: depositCreditParent(), childrenMatchers: [...refundChildren(), excessMatcher()] });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === DedustV2JoinLiquidity.opcode;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    if (block.nextBlocks.some((b) => b instanceof CallContractBlock && b.opcode === DedustV2DepositEvent.opcode)) return []; // it succeeded
    let join: DedustV2JoinLiquidity;
    try {
      join = new DedustV2JoinLiquidity(block.getBody());
    } catch {
      return [];
    }
    const initiator = addrAccount(join.initiator);
    const vaultExcesses = joinRefunds(otherBlocks, initiator);
    if (vaultExcesses === null || vaultExcesses.length === 0) return bail();
    const carrier = getLabeled('carrier', otherBlocks);
    const credit = getLabeled('credit', otherBlocks);
    if (carrier === null || credit === null) return bail();
    let leg: ReturnType<typeof depositLeg>;
    try {
      leg = depositLeg(carrier, credit);
    } catch {
      return bail();
    }
    const [slot, asset, userWallet] = leg;
    const payload = depositPayload(carrier);
    const m = block.getMessage();
    const data: Data = {
      dex: 'dedust_v2', sender: initiator, pool: accountId(m.destination), deposit_contract: accountId(m.source),
      amount_1: join.amountX, asset_1: null, sender_wallet_1: null,
      amount_2: join.amountY, asset_2: null, sender_wallet_2: null,
      target_amount_1: payload?.amountX ?? null, target_amount_2: payload?.amountY ?? null,
      lp_tokens_minted: null, vault_excesses: vaultExcesses,
    };
    data[`asset_${slot}`] = asset;
    data[`sender_wallet_${slot}`] = userWallet;
    const newBlock = new DedustV2DepositLiquidityBlock(data);
    newBlock.mergeBlocks([block, ...otherBlocks]);
    newBlock.failed = true;
    return [newBlock];
  }
}

/** One credited leg (credit_asset <- its carrier) the two matchers above left: merged in by the post-processor. */
export class DedustV2DepositPartialBlockMatcher extends BlockMatcher {
  constructor() {
    // the escrow's gas-return excess (the matcher's own excess auto-append is off)
    super({ includeExcess: false, parentMatcher: depositCarrierMatcher(), childMatcher: excessMatcher() });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === DedustV2CreditAsset.opcode;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const carrier = getLabeled('carrier', otherBlocks);
    if (carrier === null) return bail();
    let credit: DedustV2CreditAsset, leg: ReturnType<typeof depositLeg>;
    try {
      credit = new DedustV2CreditAsset(block.getBody());
      leg = depositLeg(carrier, block);
    } catch {
      return bail();
    }
    const [slot, asset, userWallet, sender] = leg;
    const m = block.getMessage();
    const data: Data = {
      dex: 'dedust_v2', sender, pool: accountId(m.source), deposit_contract: accountId(m.destination),
      amount_1: null, asset_1: null, sender_wallet_1: null, amount_2: null, asset_2: null, sender_wallet_2: null, lp_tokens_minted: null,
    };
    data[`asset_${slot}`] = asset;
    data[`amount_${slot}`] = credit.amount;
    data[`sender_wallet_${slot}`] = userWallet;
    const newBlock = new DedustV2DepositLiquidityPartialBlock(data);
    newBlock.mergeBlocks([block, ...otherBlocks]);
    return [newBlock];
  }
}

/**
 * `post_process_dedust_v2_liquidity`: each final deposit takes in the partial of its escrow (the other leg's asset,
 * wallet and, where unset, amount); nothing is merged when an escrow has more than two deposit blocks.
 */
export const postProcessDedustV2Liquidity: PostProcessor = (blocks) => {
  const partials = blocks.filter((b) => b instanceof DedustV2DepositLiquidityPartialBlock) as Block<Data>[];
  if (partials.length === 0) return blocks;
  const finals = blocks.filter((b) => b instanceof DedustV2DepositLiquidityBlock) as Block<Data>[];
  const used = new Map<unknown, number>();
  for (const b of [...partials, ...finals]) used.set(b.data.deposit_contract, (used.get(b.data.deposit_contract) ?? 0) + 1);
  for (const v of used.values()) if (v > 2) return blocks;
  for (const final of finals) {
    const partial = partials.find((p) => blocks.includes(p) && p.data.deposit_contract === final.data.deposit_contract);
    if (!partial) continue;
    for (const i of [1, 2]) {
      if ((final.data[`asset_${i}`] ?? null) === null && (partial.data[`asset_${i}`] ?? null) !== null) {
        final.data[`asset_${i}`] = partial.data[`asset_${i}`];
        final.data[`sender_wallet_${i}`] = partial.data[`sender_wallet_${i}`];
        if ((final.data[`amount_${i}`] ?? null) === null) final.data[`amount_${i}`] = partial.data[`amount_${i}`] ?? null;
      }
    }
    blocks.splice(blocks.indexOf(partial), 1);
    final.eventNodes.push(...partial.eventNodes);
    if (final.initiatingEventNode !== partial.initiatingEventNode) final.eventNodes.push(partial.initiatingEventNode as NonNullable<typeof partial.initiatingEventNode>);
    final.eventNodes = unique(final.eventNodes);
    final.childrenBlocks = unique([...final.childrenBlocks, ...partial.childrenBlocks]);
    final.calculateMinMaxLt();
  }
  return blocks;
};

// ---------------------------------------------------------------- claims.py

/** claim_position_fees -> claim_available_fees -> payout_position_fees -> up to two payout legs (a zero side has none) */
export class DedustV2ClaimFeesBlockMatcher extends BlockMatcher {
  constructor() {
    const payoutPositionFees = labeled('payout_fees', new ContractMatcher(DedustV2PayoutPositionFees.opcode, {
      includeExcess: false, childrenMatchers: [payoutLegMatcher(), payoutLegMatcher(), excessMatcher()],
    }));
    const claimAvailableFees = new ContractMatcher(DedustV2ClaimAvailableFees.opcode, { includeExcess: false, childMatcher: payoutPositionFees });
    super({ includeExcess: false, childMatcher: claimAvailableFees });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === DedustV2ClaimPositionFees.opcode;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const feesBlock = getLabeled('payout_fees', otherBlocks, CallContractBlock);
    if (feesBlock === null) return [];
    let fees: DedustV2PayoutPositionFees;
    try {
      fees = new DedustV2PayoutPositionFees(feesBlock.getBody());
    } catch {
      return bail();
    }
    type Leg = [Asset | null, AccountId, AccountId, AccountId];
    // the legs go to the x / y slots by their amount against the position's figures
    const legs: { x: Leg | null; y: Leg | null } = { x: null, y: null };
    for (const payout of getLabeledSorted('payout', otherBlocks)) {
      const parsed = parsePayoutLeg(payout);
      if (parsed === null) return bail();
      const [amount, asset, userWallet, dexWallet, dexJettonWallet] = parsed;
      const leg: Leg = [asset, userWallet, dexWallet, dexJettonWallet];
      if (amount === fees.xFees && legs.x === null) legs.x = leg;
      else if (amount === fees.yFees && legs.y === null) legs.y = leg;
    }
    const empty: Leg = [null, null, null, null];
    const [assetX, userWalletX, dexWalletX, dexJettonWalletX] = legs.x ?? empty;
    const [assetY, userWalletY, dexWalletY, dexJettonWalletY] = legs.y ?? empty;
    const m = block.getMessage();
    const newBlock = new Block<Data>('dedust_v2_claim_fees', [], {
      dex: 'dedust_v2', sender: accountId(m.source), pool: accountId(m.destination), position: accountId(feesBlock.getMessage().source),
      owner: addrAccount(fees.owner), amount_x: fees.xFees, amount_y: fees.yFees, asset_x: assetX, asset_y: assetY,
      user_wallet_x: userWalletX, user_wallet_y: userWalletY, dex_wallet_x: dexWalletX, dex_wallet_y: dexWalletY,
      dex_jetton_wallet_x: dexJettonWalletX, dex_jetton_wallet_y: dexJettonWalletY,
    });
    newBlock.mergeBlocks([block, ...otherBlocks]);
    newBlock.failed = false;
    return [newBlock];
  }
}

/** claim_reward -> claim_position_reward -> payout_reward -> the payout leg (none for a zero claim) */
export class DedustV2ClaimRewardBlockMatcher extends BlockMatcher {
  constructor() {
    const payoutReward = labeled('payout_reward', new ContractMatcher(DedustV2PayoutReward.opcode, {
      includeExcess: false, childrenMatchers: [payoutLegMatcher(), excessMatcher()],
    }));
    const claimPositionReward = new ContractMatcher(DedustV2ClaimPositionReward.opcode, { includeExcess: false, childMatcher: payoutReward });
    super({ includeExcess: false, childMatcher: claimPositionReward });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === DedustV2ClaimReward.opcode;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const rewardBlock = getLabeled('payout_reward', otherBlocks, CallContractBlock);
    if (rewardBlock === null) return [];
    let claim: DedustV2ClaimReward, reward: DedustV2PayoutReward;
    try {
      claim = new DedustV2ClaimReward(block.getBody());
      reward = new DedustV2PayoutReward(rewardBlock.getBody());
    } catch {
      return bail();
    }
    let asset: Asset | null = null, userWallet: AccountId = null, dexWallet: AccountId = null, dexJettonWallet: AccountId = null;
    const payout = getLabeled('payout', otherBlocks);
    if (payout !== null) {
      const parsed = parsePayoutLeg(payout);
      if (parsed === null) return bail();
      [, asset, userWallet, dexWallet, dexJettonWallet] = parsed;
    }
    const m = block.getMessage();
    const newBlock = new Block<Data>('dedust_v2_claim_reward', [], {
      dex: 'dedust_v2', sender: accountId(m.source), pool: accountId(m.destination), position: accountId(rewardBlock.getMessage().source),
      owner: addrAccount(reward.owner), reward_index: claim.rewardIndex, amount: reward.amount, asset,
      user_wallet: userWallet, dex_wallet: dexWallet, dex_jetton_wallet: dexJettonWallet,
    });
    newBlock.mergeBlocks([block, ...otherBlocks]);
    newBlock.failed = false;
    return [newBlock];
  }
}

/** This family's matchers under upstream's class names (families/index.ts, matcher-order.ts). */
export const MATCHERS = {
  DedustV2SwapBlockMatcher: new DedustV2SwapBlockMatcher(),
  DedustV2FailedSwapBlockMatcher: new DedustV2FailedSwapBlockMatcher(),
  DedustV2WithdrawBlockMatcher: new DedustV2WithdrawBlockMatcher(),
  DedustV2DepositBlockMatcher: new DedustV2DepositBlockMatcher(),
  DedustV2RejectedDepositBlockMatcher: new DedustV2RejectedDepositBlockMatcher(),
  DedustV2DepositPartialBlockMatcher: new DedustV2DepositPartialBlockMatcher(),
  DedustV2ClaimFeesBlockMatcher: new DedustV2ClaimFeesBlockMatcher(),
  DedustV2ClaimRewardBlockMatcher: new DedustV2ClaimRewardBlockMatcher(),
};

export const POST_PROCESSORS = { post_process_dedust_v2_liquidity: postProcessDedustV2Liquidity };
