/**
 * ↔ indexer/events/blocks/swaps.py: `jetton_swap` of STON.fi v1 and v2, DeDust, TONCO and swap.coffee, every
 * branch of the matchers, with upstream's quirks:
 * - STON.fi v1: the outgoing payment is the largest payment request with a sender-related exit code; a referral
 *   payment (0x45078540) and everything after it is taken out of the match; the swap fails unless the chosen
 *   request says ok; the target wallet of the user's swap payload wins over the wallet actually paid.
 * - STON.fi v2: hops pair each swap with its pay-to; a failed hop fails the swap, whose destination asset is then
 *   the route's last pool wallet's jetton (or the notification payload's target wallet).
 * - DeDust: the swap fails when a swap request has no swap event among the matched blocks; the desired output
 *   asset walks the route's pools through the DeDust pool records (`DedustPool`), a pool with no record failing
 *   the match as upstream's `None.assets` does.
 * - TONCO: a multi-hop route goes through the router's own pTON / jetton wallet; a failed swap's destination asset
 *   and minimum come from the pTON transfer's swap payload (a jetton transfer's payload is never read: upstream
 *   checks it against `Cell`, which it never is).
 * - swap.coffee: hops are the swap_internal calls, each needing its success event.
 * Everything upstream raises in a build (a missing block, a body that does not read, a missing record) is a
 * `throw` here: no match, as upstream's try/except.
 */
import { Address, beginCell, Cell, type ExternalAddress, type Slice } from '@ton/core';
import { CallContractBlock } from '../basic-blocks.ts';
import type { JettonSwapData, JettonTransferData, SwapTransfer } from '../block-data.ts';
import { findCallContract, findCallContracts, findMessages, getLabeled } from '../block-utils.ts';
import { interfaceRepository } from '../context.ts';
import type { InterfaceRepository } from '../interfaces.ts';
import { Block, SingleLevelWrapper } from '../core.ts';
import { LabelBlock, labeled } from '../labels.ts';
import { BlockMatcher, BlockTypeMatcher, childSequenceMatcher, ContractMatcher, GenericMatcher, OrMatcher, RecursiveMatcher } from '../matchers.ts';
import { addrAccount, addrStr } from '../messages/common.ts';
import {
  CoffeeNotification, CoffeePayout, CoffeePayoutInternal, CoffeeSwapInternal, CoffeeSwapNative, CoffeeSwapSuccessfulEvent,
} from '../messages/coffee.ts';
import { JettonNotify, JettonTransfer } from '../messages/jettons.ts';
import {
  DedustPayout, DedustPayoutFromPool, DedustSwap, DedustSwapExternal, DedustSwapNotification, DedustSwapPayload, DedustSwapPeer,
  PTonTransfer, StonfiPaymentRequest, StonfiSwapMessage, StonfiSwapV2, StonfiV2PayTo, ToncoPoolV3Swap, ToncoPoolV3SwapPayload,
  ToncoRouterV3PayTo,
} from '../messages/swaps.ts';
import { extractTargetWalletStonfiV2Swap } from '../address-selectors.ts';
import { accountId, Asset, type AccountId, type Amount } from '../ton-utils.ts';
import type { Message } from '../tree.ts';
import { JettonTransferBlock, PTonTransferMatcher } from './jettons.ts';

type Addr = Address | ExternalAddress | null;
type PeerSwap = { in: { amount: Amount; asset: Asset }; out: { amount: Amount; asset: Asset } };

export const STONFI_SWAP_OK_EXIT_CODE = 0xc64370e5;
export const STONFI_SWAP_OK_REF_EXIT_CODE = 0x45078540;
export const STONFI_SWAP_NO_LIQ_EXIT_CODE = 0x5ffe1295;
export const STONFI_SWAP_RESERVE_ERR_EXIT_CODE = 0x38976e9b;
const STONFI_SENDER_RELATED_EXIT_CODES = [STONFI_SWAP_RESERVE_ERR_EXIT_CODE, STONFI_SWAP_NO_LIQ_EXIT_CODE, STONFI_SWAP_OK_EXIT_CODE];

export class JettonSwapBlock extends Block<JettonSwapData & Record<string, unknown>> {
  constructor(data: JettonSwapData & Record<string, unknown>) {
    super('jetton_swap', [], data);
  }
}

const transferData = (b: Block) => b.data as JettonTransferData;
const isPtonMaster = (jetton: string) => PTonTransferMatcher.ptonMasters.includes(jetton);
/** `next(x for x in xs if pred)`: the first, or a failure when there is none (StopIteration). */
function first<T>(xs: Iterable<T>, pred: (x: T) => boolean): T {
  for (const x of xs) if (pred(x)) return x;
  throw new Error('StopIteration');
}
const byMinLt = (a: Block, b: Block) => (a.minLt < b.minLt ? -1 : a.minLt > b.minLt ? 1 : 0);
/** `a.jetton_address.as_str()` where upstream calls it on an asset that must have one. */
function jettonOf(a: Asset | null | undefined): string {
  if (!a || a.jettonAddress === null) throw new TypeError("'NoneType' object has no attribute 'as_str'");
  return a.jettonAddress;
}

// ---------------------------------------------------------------- STON.fi v1

function stonfiBlockData(block: Block, otherBlocks: Block[]): JettonSwapData & Record<string, unknown> {
  const swapCall = first(otherBlocks, (x) => x instanceof CallContractBlock && x.opcode === StonfiSwapMessage.opcode);
  const swap = new StonfiSwapMessage(swapCall.getBody());
  const requests = findCallContracts(otherBlocks, StonfiPaymentRequest.opcode).map((b) => [new StonfiPaymentRequest(b.getBody()), b] as const);
  if (requests.length === 0) throw new Error('assert len(payment_requests_messages) > 0');

  let outAmt: bigint | null = null, outAddr: Addr = null;
  let refAmt: bigint | null = null, refAddr: Addr = null;
  let outgoing: Block | null = null;
  const inTransfer = swapCall.previousBlock!;
  let success = false;
  for (const [req, reqBlock] of requests) {
    const [amount, addr] = req.amount0Out > 0n ? [req.amount0Out, req.token0Out] : [req.amount1Out, req.token1Out];
    if (STONFI_SENDER_RELATED_EXIT_CODES.includes(req.exitCode)) {
      success = req.exitCode === STONFI_SWAP_OK_EXIT_CODE;
      if (outAmt === null) {
        outgoing = first(reqBlock.nextBlocks, (b) => b instanceof JettonTransferBlock);
        outAmt = amount;
        outAddr = addr;
      } else if (outAmt < amount) {
        outgoing = first(reqBlock.nextBlocks, (b) => b instanceof JettonTransferBlock);
        refAmt = outAmt;
        refAddr = outAddr;
        outAmt = amount;
        outAddr = addr;
      }
    } else if (req.exitCode === STONFI_SWAP_OK_REF_EXIT_CODE) {
      refAmt = amount;
      refAddr = addr;
      // the referral payout is its own action: out of this match (upstream removes it from other_blocks)
      for (const b of reqBlock.bfsIter()) {
        const i = otherBlocks.indexOf(b);
        if (i >= 0) otherBlocks.splice(i, 1);
      }
    }
  }
  const actualOutAddr = outAddr;
  if (block instanceof JettonTransferBlock && block.jettonTransferMessage.stonfiSwapBody !== null) outAddr = block.jettonTransferMessage.stonfiSwapBody.jettonWallet;
  const repo = interfaceRepository(block);
  const outWallet = repo.getJettonWallet(addrStr(outAddr));
  const actualOutWallet = repo.getJettonWallet(addrStr(actualOutAddr));
  const dexInWallet = repo.getJettonWallet(addrStr(swap.tokenWallet));
  const actualOutJetton = actualOutWallet !== null ? accountId(actualOutWallet.jetton) : null;
  const outJetton = outWallet !== null ? accountId(outWallet.jetton) : null;
  const inJetton = dexInWallet !== null ? accountId(dexInWallet.jetton) : null;

  const inData = transferData(inTransfer);
  const inSourceJettonWallet = inData.has_internal_transfer ? inData.sender_wallet : null;
  const outData = transferData(outgoing!);
  const outDestinationJettonWallet = outData.has_internal_transfer ? (outData.receiver_wallet ?? null) : null;
  if (dexInWallet === null) throw new TypeError("'NoneType' object has no attribute 'owner'");

  const incoming: SwapTransfer = {
    asset: new Asset(inJetton === null, inJetton),
    amount: swap.amount,
    source: addrAccount(swap.fromRealUser),
    source_jetton_wallet: inSourceJettonWallet,
    destination: accountId(dexInWallet.owner),
    destination_jetton_wallet: addrAccount(swap.tokenWallet),
  };
  const outgoingTransfer: SwapTransfer = {
    asset: new Asset(actualOutJetton === null, actualOutJetton),
    amount: outAmt,
    source: outData.sender,
    source_jetton_wallet: outData.sender_wallet,
    destination: null,
    destination_jetton_wallet: null,
  };
  if (outDestinationJettonWallet !== null) {
    outgoingTransfer.destination_jetton_wallet = outDestinationJettonWallet;
    outgoingTransfer.destination = outData.receiver;
  } else if (inData.stonfi_swap_body !== null && inData.stonfi_swap_body !== undefined) {
    outgoingTransfer.destination = addrAccount((inData.stonfi_swap_body as { userAddress: Addr }).userAddress);
  } else {
    outgoingTransfer.destination = addrAccount(swap.fromUserAddress);
  }
  const targetAsset = outJetton !== null ? new Asset(false, outJetton) : null;
  return {
    dex: 'stonfi',
    sender: addrAccount(swap.fromRealUser),
    receiver: addrAccount(swap.fromUserAddress),
    dex_incoming_transfer: incoming,
    dex_outgoing_transfer: outgoingTransfer,
    destination_asset: targetAsset,
    destination_wallet: outAddr !== null ? addrAccount(outAddr) : null,
    referral_amount: refAmt,
    referral_address: refAddr !== null ? addrAccount(refAddr) : null,
    peer_swaps: [],
    success,
  };
}

/** jetton transfer -> swap (router -> pool) -> payment request -> jetton transfer (the payout) */
export class StonfiSwapBlockMatcher extends BlockMatcher {
  constructor() {
    super({
      childMatcher: childSequenceMatcher([
        new ContractMatcher(StonfiSwapMessage.opcode),
        new ContractMatcher(StonfiPaymentRequest.opcode),
        new BlockTypeMatcher('jetton_transfer'),
      ]),
    });
  }

  override testSelf(block: Block): boolean {
    return block instanceof JettonTransferBlock;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const data = stonfiBlockData(block, otherBlocks);
    const newBlock = new JettonSwapBlock(data);
    if (!data.success) newBlock.failed = true;
    newBlock.mergeBlocks([block, ...otherBlocks]);
    return [newBlock];
  }
}

/** swap_peer with its swap event and an optional payout (older DeDust flow; kept registered nowhere, as upstream) */
export class DedustPeerBlockMatcher extends BlockMatcher {
  constructor() {
    super({
      childrenMatchers: [
        new ContractMatcher(DedustSwapNotification.opcode),
        new ContractMatcher(DedustPayoutFromPool.opcode, {
          childMatcher: new OrMatcher([new ContractMatcher(DedustPayout.opcode), new BlockTypeMatcher('jetton_transfer')]),
          optional: true,
        }),
      ],
    });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === DedustSwapPeer.opcode;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const wrapper = new SingleLevelWrapper();
    wrapper.wrap([block, ...otherBlocks]);
    return [wrapper];
  }
}

// ---------------------------------------------------------------- STON.fi v2

export class StonfiV2SwapBlockMatcher extends BlockMatcher {
  static readonly swapOpcode = 0x6664de2a;
  static readonly payToOpcode = 0x657b54f5;
  static readonly payVaultOpcode = 0x63381632;
  static readonly depositRefFeeOpcode = 0x0490f09b;

  constructor() {
    const payout = labeled('payout', new ContractMatcher(StonfiV2SwapBlockMatcher.payToOpcode));
    const peerSwap = labeled('peer_swap', new ContractMatcher(StonfiV2SwapBlockMatcher.swapOpcode, { childMatcher: payout, optional: true }));
    // a hop paid out in TON on its way to the next pool (jetton -> TON -> jetton through two routers): the
    // router's pTON transfer, the pTON wallet's ton_transfer carrying the next swap, its notification to the
    // next router and that router's swap. The verified leg is optional, so a final TON payout matches here too.
    const ptonVerifiedCallContract = new GenericMatcher((b) => StonfiV2SwapBlockMatcher.validateIntermediatePtonTransfer(b), {
      childMatcher: new ContractMatcher(JettonNotify.opcode, { childMatcher: peerSwap }),
      optional: true,
    });
    const intermediatePtonTransfer = new GenericMatcher((b) => b.btype === 'jetton_transfer' && !transferData(b).has_internal_transfer, {
      childMatcher: ptonVerifiedCallContract,
    });
    payout.childMatcher = new OrMatcher([
      labeled('out_transfer', intermediatePtonTransfer),
      labeled('out_transfer', new BlockTypeMatcher('jetton_transfer', { childMatcher: peerSwap, optional: true })),
      peerSwap,
    ]);
    const inPtonTransfer = new ContractMatcher(JettonNotify.opcode, { parentMatcher: labeled('in_transfer', new ContractMatcher(PTonTransfer.opcode)) });
    const inTransfer = new OrMatcher([labeled('in_transfer', new BlockTypeMatcher('jetton_transfer')), inPtonTransfer]);
    super({ parentMatcher: inTransfer, childMatcher: payout });
  }

  /**
   * `_validate_intermediate_pton_transfer`: the call after a pTON transfer (no internal transfer) goes to the
   * transfer's receiver and is a ton_transfer whose forward payload is a swap. A call without a destination (a
   * log) fails upstream's address comparison (`None.address`), which no try catches: the trace fails, as there.
   */
  static validateIntermediatePtonTransfer(block: Block): boolean {
    const prev = transferData(block.previousBlock!);
    if (prev.has_internal_transfer) return false;
    const destination = block.getMessage().destination;
    if (destination === null) throw new TypeError("'NoneType' object has no attribute 'address'");
    // AccountId's equality: a destination that does not parse is not equal
    let same: boolean;
    try {
      same = prev.receiver === accountId(destination);
    } catch {
      same = false;
    }
    if (!same) return false;
    try {
      const pton = new PTonTransfer(block.getBody());
      if (pton.forwardPayload === null) return false;
      return pton.forwardPayload.beginParse(true).loadUint(32) >>> 0 === StonfiV2SwapBlockMatcher.swapOpcode;
    } catch {
      return false;
    }
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === StonfiV2SwapBlockMatcher.swapOpcode;
  }

  /** The target wallet a notification's swap payload names, as an asset (null when anything is missing). */
  private targetAssetFromNotification(message: Message, repo: InterfaceRepository): Asset | null {
    try {
      const address = [...extractTargetWalletStonfiV2Swap({ body: message.body } as Parameters<typeof extractTargetWalletStonfiV2Swap>[0])][0];
      if (address === undefined) return null;
      const wallet = repo.getJettonWallet(address);
      return wallet !== null ? new Asset(false, wallet.jetton) : null;
    } catch {
      return null;
    }
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const { peerSwapBlocks, inTransfer, outTransfer } = stonfiV2Labels(block, otherBlocks);
    const { steps, ok } = stonfiV2Steps(peerSwapBlocks);
    const destinationAsset = stonfiV2RouteTargetAsset(steps, interfaceRepository(block));
    const poolAddrJettonMap = stonfiV2PoolAssets(steps, block);
    const { inData, sender } = stonfiV2Incoming(inTransfer, block);
    const peerSwaps = stonfiV2PeerSwaps(steps, inData, poolAddrJettonMap);
    const { outData, additional } = stonfiV2Outgoing(outTransfer);
    const newBlock = new JettonSwapBlock({
      dex: 'stonfi_v2',
      source_asset: inData.asset,
      destination_asset: outData.asset,
      sender,
      dex_incoming_transfer: inData,
      dex_outgoing_transfer: outData,
      referral_amount: null,
      referral_address: null,
      peer_swaps: peerSwaps.length <= 1 ? [] : peerSwaps,
    });
    newBlock.mergeBlocks([block, ...otherBlocks, ...additional]);
    newBlock.failed = !ok;
    if (!ok) {
      if (destinationAsset !== null) newBlock.data.destination_asset = destinationAsset;
      else {
        const target = this.targetAssetFromNotification(block.previousBlock!.eventNodes[0].message, interfaceRepository(block));
        if (target !== null) newBlock.data.destination_asset = target;
      }
    }
    return [newBlock];
  }
}

/** The labeled blocks of a STON.fi v2 match in lt order: each swap (the matched one first) paired with its pay-to. */
function stonfiV2Labels(block: Block, otherBlocks: Block[]): { peerSwapBlocks: Array<Block | [Block, Block]>; inTransfer: Block | null; outTransfer: Block | null } {
  const peerSwapBlocks: Array<Block | [Block, Block]> = [block];
  let inTransfer: Block | null = null;
  let outTransfer: Block | null = null;
  for (const b of [...otherBlocks].sort(byMinLt)) {
    if (!(b instanceof LabelBlock)) continue;
    if (b.label === 'peer_swap') peerSwapBlocks.push(b.block);
    else if (b.label === 'payout') peerSwapBlocks[peerSwapBlocks.length - 1] = [peerSwapBlocks[peerSwapBlocks.length - 1] as Block, b.block];
    else if (b.label === 'out_transfer') outTransfer = b.block;
    else if (b.label === 'in_transfer') inTransfer = b.block;
  }
  return { peerSwapBlocks, inTransfer, outTransfer };
}

type StonfiV2Step = { wallet: Addr; minLt: bigint; payTo: StonfiV2PayTo; swap: StonfiSwapV2 };

/** The hops in lt order, their messages read; a pay-to that is not ok fails the swap. */
function stonfiV2Steps(peerSwapBlocks: Array<Block | [Block, Block]>): { steps: StonfiV2Step[]; ok: boolean } {
  let ok = true;
  const steps: StonfiV2Step[] = [];
  for (const pair of peerSwapBlocks) {
    // a swap without its pay-to does not unpack (upstream's TypeError)
    if (!Array.isArray(pair)) throw new TypeError('cannot unpack non-iterable Block object');
    const [swap, payTo] = pair;
    const payToMsg = new StonfiV2PayTo(payTo.getBody());
    if (payToMsg.exitCode !== STONFI_SWAP_OK_EXIT_CODE) ok = false;
    const swapMsg = new StonfiSwapV2(swap.getBody());
    steps.push({ wallet: swapMsg.tokenWallet1, minLt: swap.minLt, payTo: payToMsg, swap: swapMsg });
  }
  steps.sort((a, b) => (a.minLt < b.minLt ? -1 : a.minLt > b.minLt ? 1 : 0));
  return { steps, ok };
}

/** The jetton of the route's last pool wallet (TON for pTON): a failed swap's destination asset; null when unknown. */
function stonfiV2RouteTargetAsset(steps: StonfiV2Step[], repo: InterfaceRepository): Asset | null {
  const poolAccounts = steps[0].swap.getPoolAccountsRecursive();
  const targetPoolWallet = repo.getJettonWallet(poolAccounts[poolAccounts.length - 1]);
  if (targetPoolWallet === null) return null;
  return isPtonMaster(targetPoolWallet.jetton) ? new Asset(true) : new Asset(false, targetPoolWallet.jetton);
}

/** Each hop's wallet -> its asset, up to the first wallet the repository does not know (which marks the block broken). */
function stonfiV2PoolAssets(steps: StonfiV2Step[], block: Block): Map<string, Asset> {
  const repo = interfaceRepository(block);
  const poolAddrJettonMap = new Map<string, Asset>();
  for (const step of steps) {
    const key = addrStr(step.wallet);
    const jetton = repo.getJettonWallet(key);
    if (jetton !== null) {
      poolAddrJettonMap.set(key, isPtonMaster(jetton.jetton) ? new Asset(true) : new Asset(false, jetton.jetton));
    } else {
      block.broken = true;
      break;
    }
  }
  return poolAddrJettonMap;
}

/** The incoming transfer: a jetton transfer, or TON (a pTON transfer's amount, else the message's value). */
function stonfiV2Incoming(inTransfer: Block | null, block: Block): { inData: SwapTransfer; sender: AccountId } {
  if (inTransfer instanceof JettonTransferBlock) {
    const d = transferData(inTransfer);
    const jettonAddress = d.asset!.jettonAddress;
    const asset = isPtonMaster(jettonOf(d.asset)) ? new Asset(true) : new Asset(d.asset!.isTon, jettonAddress);
    const inData = { asset, amount: d.amount, source: d.sender, source_jetton_wallet: d.sender_wallet, destination: d.receiver, destination_jetton_wallet: d.receiver_wallet ?? null };
    return { inData, sender: d.sender };
  }
  const message = inTransfer!.eventNodes[0].message;
  let amount = message.value;
  if (message.opcode === PTonTransfer.opcode) amount = new PTonTransfer(inTransfer!.getBody()).tonAmount;
  const sender = accountId(message.source);
  const inData = {
    asset: new Asset(true), amount, source: accountId(message.source), source_jetton_wallet: null,
    destination: accountId(block.eventNodes[0].message.source), destination_jetton_wallet: accountId(message.destination),
  };
  return { inData, sender };
}

/** A pay-to's larger amount with its token. */
function stonfiV2BestOut(p: StonfiV2PayTo): [bigint, Addr] {
  const assets: Array<[bigint, Addr]> = [[p.amount0Out, p.token0Address], [p.amount1Out, p.token1Address]];
  assets.sort((a, b) => (a[0] > b[0] ? -1 : a[0] < b[0] ? 1 : 0));
  return assets[0];
}

/**
 * The hops of a multi-hop route: the first from the incoming transfer, then (when it is ok) each ok pay-to after
 * it. A hop's token missing from the pool map raises (upstream's KeyError).
 */
function stonfiV2PeerSwaps(steps: StonfiV2Step[], inData: SwapTransfer, poolAddrJettonMap: Map<string, Asset>): PeerSwap[] {
  const peerSwaps: PeerSwap[] = [];
  if (steps.length <= 1) return peerSwaps;
  const mapped = (a: Addr): Asset => {
    const k = addrStr(a);
    const v = poolAddrJettonMap.get(k);
    if (v === undefined) throw new Error(`KeyError: ${k}`);
    return v;
  };
  let payTo = steps[0].payTo;
  let [amt, addr] = stonfiV2BestOut(payTo);
  peerSwaps.push({ in: { amount: inData.amount, asset: inData.asset as Asset }, out: { amount: amt, asset: mapped(addr) } });
  if (payTo.exitCode !== STONFI_SWAP_OK_EXIT_CODE) return peerSwaps;
  for (let i = 0; i < steps.length - 1; i++) {
    payTo = steps[i + 1].payTo;
    [amt, addr] = stonfiV2BestOut(payTo);
    if (payTo.exitCode !== STONFI_SWAP_OK_EXIT_CODE) continue;
    peerSwaps.push({ in: peerSwaps[peerSwaps.length - 1].out, out: { amount: amt, asset: mapped(addr) } });
  }
  return peerSwaps;
}

/**
 * The outgoing transfer: the jetton transfer itself when it has an internal transfer and no pTON transfer after
 * it, else that pTON transfer's TON (then also `additional`). A missing block raises as upstream's `None.x`.
 */
function stonfiV2Outgoing(outTransfer: Block | null): { outData: SwapTransfer; additional: Block[] } {
  if (outTransfer === null) throw new TypeError("'NoneType' object has no attribute 'next_blocks'");
  const ptonTransfer = outTransfer.nextBlocks.find((x) => x instanceof CallContractBlock && x.opcode === PTonTransfer.opcode) ?? null;
  const od = transferData(outTransfer);
  if (ptonTransfer === null && od.has_internal_transfer) {
    const asset = isPtonMaster(jettonOf(od.asset)) ? new Asset(true) : new Asset(od.asset!.isTon, od.asset!.jettonAddress);
    const outData = { asset, amount: od.amount, source: od.sender, source_jetton_wallet: od.sender_wallet, destination: od.receiver, destination_jetton_wallet: od.receiver_wallet ?? null };
    return { outData, additional: [] };
  }
  if (ptonTransfer === null) throw new TypeError("'NoneType' object has no attribute 'get_body'");
  const outData = {
    asset: new Asset(true), amount: new PTonTransfer(ptonTransfer.getBody()).tonAmount, source: od.sender, source_jetton_wallet: od.sender_wallet,
    destination: accountId(ptonTransfer.getMessage().destination), destination_jetton_wallet: null,
  };
  return { outData, additional: [ptonTransfer] };
}

// ---------------------------------------------------------------- DeDust

/** The pools of a DeDust route: SwapStep = pool:MsgAddressInt kind:bit limit:Coins next:(Maybe ^SwapStep). */
function parseDedustSteps(slice: Slice): string[] {
  const steps: string[] = [];
  let current = slice.clone();
  for (;;) {
    const pool = addrAccount(current.loadAddressAny());
    current.loadBit();
    current.loadCoins();
    const next = current.loadMaybeRef();
    steps.push(pool as string);
    if (next === null) return steps;
    current = next.beginParse(true);
  }
}

/** The assets a route goes through: each pool gives the asset that is not the one coming in. */
function dedustSwapSequence(repo: InterfaceRepository, steps: string[], incoming: Asset): Asset[] {
  let prev = incoming;
  const seq = [prev];
  for (const step of steps) {
    const pool = repo.getDedustPool(step);
    if (pool === null) throw new TypeError("'NoneType' object has no attribute 'assets'");
    for (const a of pool.assets) {
      if (a.is_ton && prev.isTon) continue;
      if (!prev.isTon && a.address === jettonOf(prev)) continue;
      prev = new Asset(a.is_ton, a.is_ton ? null : a.address);
      seq.push(prev);
      break;
    }
  }
  return seq;
}

/**
 * swap_external (vault -> pool), its swap event and the payout (or the next pools' swaps, recursively, then the
 * payout), the incoming jetton transfer or native swap request as its parent.
 */
export class DedustSwapBlockMatcher extends BlockMatcher {
  constructor() {
    const swapMatcher = new OrMatcher([
      new ContractMatcher(DedustSwapPeer.opcode, { childrenMatchers: [new ContractMatcher(DedustSwapNotification.opcode, { optional: true })] }),
      new ContractMatcher(DedustSwapExternal.opcode, { childrenMatchers: [new ContractMatcher(DedustSwapNotification.opcode, { optional: true })] }),
    ]);
    const peerMatcher = new RecursiveMatcher(
      swapMatcher,
      new ContractMatcher(DedustPayoutFromPool.opcode, { childMatcher: new OrMatcher([new ContractMatcher(DedustPayout.opcode), new BlockTypeMatcher('jetton_transfer')]) }),
    );
    const payout = childSequenceMatcher([
      new ContractMatcher(DedustPayoutFromPool.opcode),
      new OrMatcher([new BlockTypeMatcher('jetton_transfer'), new ContractMatcher(DedustPayout.opcode)]),
    ])!;
    super({
      childrenMatchers: [new OrMatcher([payout, peerMatcher]), new ContractMatcher(DedustSwapNotification.opcode, { optional: true })],
      parentMatcher: new OrMatcher([new BlockTypeMatcher('jetton_transfer'), new ContractMatcher(DedustSwap.opcode)]),
    });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === DedustSwapExternal.opcode;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const include: Block[] = [block];
    for (const b of otherBlocks) {
      if (b instanceof SingleLevelWrapper) include.push(...b.childrenBlocks);
      else include.push(b);
    }
    const messages = findMessages(include, DedustSwapNotification).sort((a, b) => byMinLt(a[0], b[0]));
    const peerSwaps: PeerSwap[] = messages.map(([, m]) => ({
      in: { amount: m.amountIn, asset: new Asset(m.assetIn.isTon, m.assetIn.jettonAddress) },
      out: { amount: m.amountOut, asset: new Asset(m.assetOut.isTon, m.assetOut.jettonAddress) },
    }));

    const prev = block.previousBlock;
    const senderTransfer = prev !== null && prev.btype === 'jetton_transfer' && otherBlocks.includes(prev) ? prev : null;
    let sender: AccountId = null, senderWallet: AccountId = null, dexIncomingJettonWallet: AccountId = null, dexIncomingWallet: AccountId = null;
    let amountIn: Amount = null;
    let assetIn: Asset | null = null;
    let stepsSlice: Slice | null = null;
    if (senderTransfer !== null) {
      const d = transferData(senderTransfer);
      dexIncomingJettonWallet = d.receiver_wallet ?? null;
      dexIncomingWallet = d.receiver;
      senderWallet = d.sender_wallet;
      sender = d.sender;
      assetIn = d.asset;
      if (d.payload_opcode === null) throw new TypeError("int() can't convert non-string with explicit base");
      if (Number(d.payload_opcode) !== DedustSwapPayload.opcode) return [];
      amountIn = d.amount;
      stepsSlice = Cell.fromBase64(d.forward_payload!).beginParse(true);
      stepsSlice.skip(32); // sum type
    } else {
      const requests = findCallContracts(otherBlocks, DedustSwap.opcode);
      if (requests.length > 0) {
        sender = accountId(requests[0].getMessage().source);
        dexIncomingWallet = accountId(requests[0].getMessage().destination);
        const s = requests[0].getBody();
        s.loadUintBig(32 + 64);
        amountIn = s.loadCoins();
        stepsSlice = s;
        assetIn = new Asset(true);
      }
    }

    const payoutFromPool = findCallContracts(otherBlocks, DedustPayoutFromPool.opcode);
    if (payoutFromPool.length !== 1) throw new Error('Expected one payout from pool');
    let receiver = sender;
    let receiverWallet: AccountId = null, dexOutgoingJettonWallet: AccountId = null, dexOutgoingWallet: AccountId = null;
    let actualAmountOut: Amount = new DedustPayoutFromPool(payoutFromPool[0].getBody()).amount;
    let actualAssetOut: Asset | null = null;
    for (const p of payoutFromPool[0].nextBlocks) {
      if (!include.includes(p)) continue;
      if (p instanceof JettonTransferBlock) {
        const d = transferData(p);
        receiverWallet = d.receiver_wallet ?? null;
        receiver = d.receiver;
        dexOutgoingWallet = d.sender;
        dexOutgoingJettonWallet = d.sender_wallet;
        actualAssetOut = d.asset;
        actualAmountOut = d.amount;
      } else if (p instanceof CallContractBlock && p.opcode === DedustPayout.opcode) {
        dexOutgoingWallet = accountId(p.getMessage().source);
        receiver = accountId(p.getMessage().destination);
        actualAssetOut = new Asset(true);
      }
    }

    if (stepsSlice === null) throw new TypeError("'NoneType' object has no attribute 'copy'");
    const steps = parseDedustSteps(stepsSlice);
    const sequence = dedustSwapSequence(interfaceRepository(block), steps, assetIn ?? new Asset(true));
    const assetOut = sequence[sequence.length - 1];
    // no swap event at all: the swap as requested and paid out
    if (peerSwaps.length === 0) peerSwaps.push({ in: { amount: amountIn, asset: assetIn as Asset }, out: { amount: actualAmountOut, asset: actualAssetOut as Asset } });

    // every swap request needs its swap event among the matched blocks
    let failed = false;
    for (const b of [block, ...otherBlocks]) {
      if (b instanceof CallContractBlock && (b.opcode === DedustSwapExternal.opcode || b.opcode === DedustSwapPeer.opcode)) {
        const has = b.nextBlocks.some((n) => include.includes(n) && n instanceof CallContractBlock && n.opcode === DedustSwapNotification.opcode);
        if (!has) {
          failed = true;
          break;
        }
      }
    }
    const newBlock = new JettonSwapBlock({
      dex: 'dedust',
      sender,
      dex_incoming_transfer: {
        asset: peerSwaps[0].in.asset, amount: peerSwaps[0].in.amount, source: sender, source_jetton_wallet: senderWallet,
        destination: dexIncomingWallet, destination_jetton_wallet: dexIncomingJettonWallet,
      },
      dex_outgoing_transfer: {
        asset: peerSwaps[peerSwaps.length - 1].out.asset, amount: peerSwaps[peerSwaps.length - 1].out.amount, source: dexOutgoingWallet,
        source_jetton_wallet: dexOutgoingJettonWallet, destination: receiver, destination_jetton_wallet: receiverWallet,
      },
      in: peerSwaps[0].in,
      out: peerSwaps[peerSwaps.length - 1].out,
      peer_swaps: peerSwaps.length > 1 ? peerSwaps : [],
      source_asset: assetIn,
      destination_asset: assetOut,
    });
    newBlock.mergeBlocks(include);
    newBlock.failed = failed;
    return [newBlock];
  }
}

// ---------------------------------------------------------------- TONCO

/** TONCO's router wallet of pTON: a payout from it is TON. */
const toncoAsset = (jetton: string) => (isPtonMaster(jetton) ? new Asset(true) : new Asset(false, jetton));

/**
 * POOLV3_SWAP with its ROUTERV3_PAY_TO, hop after hop: a hop's payout either goes to the router itself (pTON via
 * PTonTransfer + notification, or a jetton transfer) and starts the next swap, or is the final transfer.
 */
export class ToncoSwapBlockMatcher extends BlockMatcher {
  static readonly swapOpcode = ToncoPoolV3Swap.opcode;
  static readonly payToOpcode = ToncoRouterV3PayTo.opcode;
  static readonly ptonIncomingTransferOpcode = 0x01f3835d;

  constructor() {
    const inPtonTransfer = new ContractMatcher(JettonNotify.opcode, { parentMatcher: labeled('in_transfer', new ContractMatcher(ToncoSwapBlockMatcher.ptonIncomingTransferOpcode)) });
    const inTransfer = new OrMatcher([labeled('in_transfer', new BlockTypeMatcher('jetton_transfer')), inPtonTransfer]);
    const peerSwapCore = new ContractMatcher(ToncoSwapBlockMatcher.swapOpcode);
    const peerSwap = labeled('peer_swap', peerSwapCore);
    const intermediateNotifyThenSwap = labeled('intermediate_hop_trigger', new ContractMatcher(JettonNotify.opcode, { childMatcher: peerSwap }));
    const outPtonToHop = new BlockTypeMatcher('jetton_transfer', { childMatcher: new ContractMatcher(PTonTransfer.opcode, { childMatcher: intermediateNotifyThenSwap }) });
    const outJettonToHop = new BlockTypeMatcher('jetton_transfer', { childMatcher: peerSwap });
    const finalOutPton = new ContractMatcher(JettonTransfer.opcode, { optional: true, childMatcher: new ContractMatcher(PTonTransfer.opcode) });
    const finalOutJetton = new BlockTypeMatcher('jetton_transfer', { optional: true });
    const outOptions = new OrMatcher([
      labeled('intermediate_transfer', outPtonToHop),
      labeled('intermediate_transfer', outJettonToHop),
      labeled('out_transfer', finalOutPton),
      labeled('out_transfer', finalOutJetton),
    ]);
    const payout = labeled('payout', new ContractMatcher(ToncoSwapBlockMatcher.payToOpcode, { childMatcher: outOptions }));
    // the recursion: a hop's swap is followed by its payout (labeled() copied the core's child matcher before)
    peerSwap.childMatcher = payout;
    super({ parentMatcher: inTransfer, childMatcher: payout });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === ToncoSwapBlockMatcher.swapOpcode;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const { inTransfer, peerSwaps, payouts, outTransfers, intermediateTransfers, hopTriggers } = toncoLabels(block, otherBlocks);
    const allSwaps = [...peerSwaps].sort(byMinLt);
    const allPayouts = [...payouts].sort(byMinLt);
    if (inTransfer === null || allSwaps.length !== allPayouts.length) return [];

    const { swapSteps, ok, walletAsset } = toncoSteps(interfaceRepository(block), allSwaps, allPayouts);
    const incoming = toncoIncoming(inTransfer, block);
    if (incoming === null) return [];
    const { inData, sender } = incoming;
    const outgoing = toncoOutgoing(outTransfers, intermediateTransfers, walletAsset);
    if (outgoing === null) return [];
    const { outData, additional } = outgoing;
    const peerSwapData = toncoPeerSwaps(swapSteps, inData, walletAsset);
    const requested = !ok && swapSteps.length > 0 ? toncoRequestedOut(interfaceRepository(block), incoming.inPayload, walletAsset) : null;

    const newBlock = new JettonSwapBlock({
      dex: 'tonco',
      source_asset: inData.asset,
      destination_asset: requested?.asset ?? (outData.asset as Asset),
      sender,
      dex_incoming_transfer: inData,
      dex_outgoing_transfer: outData,
      referral_amount: null,
      referral_address: null,
      peer_swaps: peerSwapData,
      min_out_amount: requested ? requested.minOut : outData.amount,
    });
    const toInclude = [block, ...otherBlocks, ...additional];
    for (const b of [...peerSwaps, ...payouts, ...outTransfers, ...intermediateTransfers, ...hopTriggers, inTransfer]) if (!toInclude.includes(b)) toInclude.push(b);
    newBlock.mergeBlocks(toInclude);
    newBlock.failed = !ok;
    return [newBlock];
  }
}

/** The labeled blocks of a TONCO match, by label, in lt order; `peerSwaps` starts with the matched swap itself. */
function toncoLabels(block: Block, otherBlocks: Block[]) {
  let inTransfer: Block | null = null;
  const payouts: Block[] = [], peerSwaps: Block[] = [], outTransfers: Block[] = [], intermediateTransfers: Block[] = [], hopTriggers: Block[] = [];
  for (const b of [...otherBlocks].sort(byMinLt)) {
    if (!(b instanceof LabelBlock)) continue;
    const bb = b.block;
    if (b.label === 'in_transfer') inTransfer = bb;
    else if (b.label === 'peer_swap') peerSwaps.push(bb);
    else if (b.label === 'payout') payouts.push(bb);
    else if (b.label === 'out_transfer') outTransfers.push(bb);
    else if (b.label === 'intermediate_transfer') intermediateTransfers.push(bb);
    else if (b.label === 'intermediate_hop_trigger') hopTriggers.push(bb);
  }
  peerSwaps.unshift(block);
  return { inTransfer: inTransfer as Block | null, payouts, peerSwaps, outTransfers, intermediateTransfers, hopTriggers };
}

type ToncoStep = { swapBlock: Block; payoutBlock: Block; sourceWallet: AccountId; swapMsg: ToncoPoolV3Swap; payoutMsg: ToncoRouterV3PayTo; minLt: bigint };

/**
 * Each swap with its payout (both in lt order), the steps in lt order; a payout's exit code other than 0 or 200,
 * or a step that does not read, fails the swap. `walletAsset`: the asset of each hop's source wallet the
 * repository knows (the outgoing transfer adds its own wallets later).
 */
function toncoSteps(repo: InterfaceRepository, allSwaps: Block[], allPayouts: Block[]): { swapSteps: ToncoStep[]; ok: boolean; walletAsset: Map<string | null, Asset> } {
  let ok = true;
  const swapSteps: ToncoStep[] = [];
  const walletAsset = new Map<string | null, Asset>();
  allSwaps.forEach((swapBlock, i) => {
    const payoutBlock = allPayouts[i];
    try {
      const swapMsg = new ToncoPoolV3Swap(swapBlock.getBody());
      const payoutMsg = new ToncoRouterV3PayTo(payoutBlock.getBody());
      if (payoutMsg.exitCode !== 0 && payoutMsg.exitCode !== 200) ok = false;
      const sourceWallet = addrAccount(swapMsg.sourceWallet);
      swapSteps.push({ swapBlock, payoutBlock, sourceWallet, swapMsg, payoutMsg, minLt: swapBlock.minLt });
      if (!walletAsset.has(sourceWallet)) {
        const w = repo.getJettonWallet(sourceWallet ?? '');
        if (w !== null) walletAsset.set(sourceWallet ?? '', toncoAsset(w.jetton));
      }
    } catch {
      // a step that does not read fails the swap (upstream logs and carries on)
      ok = false;
    }
  });
  swapSteps.sort((a, b) => (a.minLt < b.minLt ? -1 : a.minLt > b.minLt ? 1 : 0));
  return { swapSteps, ok, walletAsset };
}

/**
 * The incoming transfer: a jetton transfer, or TON (a pTON transfer's amount and request payload); null when the
 * TON side does not read (no match). A jetton transfer's payload is never read (upstream tests it against Cell).
 */
function toncoIncoming(inTransfer: Block, block: Block): { inData: SwapTransfer; sender: AccountId; inPayload: Cell } | null {
  if (inTransfer instanceof JettonTransferBlock) {
    const d = transferData(inTransfer);
    const jettonAddress = d.asset!.jettonAddress;
    const isPton = jettonAddress !== null && isPtonMaster(jettonAddress);
    const asset = new Asset(isPton, isPton ? null : jettonAddress);
    const inData = { asset, amount: d.amount, source: d.sender, source_jetton_wallet: d.sender_wallet, destination: d.receiver, destination_jetton_wallet: d.receiver_wallet ?? null };
    return { inData, sender: d.sender, inPayload: beginCell().endCell() };
  }
  try {
    const message = inTransfer.eventNodes[0].message;
    let amount = message.value;
    let forwardPayload: Cell | null = null;
    if (message.opcode === PTonTransfer.opcode) {
      const p = new PTonTransfer(inTransfer.getBody());
      amount = p.tonAmount;
      forwardPayload = p.forwardPayload;
    }
    const sender = accountId(message.source);
    const inData = {
      asset: new Asset(true), amount: amount ?? 0n, source: accountId(message.source), source_jetton_wallet: null,
      destination: accountId(block.eventNodes[0].message.source), destination_jetton_wallet: accountId(message.destination),
    };
    return { inData, sender, inPayload: forwardPayload ? forwardPayload : beginCell().endCell() };
  } catch {
    return null;
  }
}

/**
 * The last final transfer (a jetton transfer, else no match: null), its wallets' asset added to `walletAsset`;
 * `additional`: the pTON transfers after it and after the intermediate transfers.
 */
function toncoOutgoing(outTransfers: Block[], intermediateTransfers: Block[], walletAsset: Map<string | null, Asset>): { outData: SwapTransfer; additional: Block[] } | null {
  if (outTransfers.length === 0) return null;
  const outTransfer = outTransfers[outTransfers.length - 1];
  const additional: Block[] = [];
  const pton = findCallContract(outTransfer.nextBlocks, PTonTransfer.opcode);
  if (pton) additional.push(pton);
  if (!(outTransfer instanceof JettonTransferBlock)) return null;
  let outData: SwapTransfer;
  try {
    const d = transferData(outTransfer);
    const jettonAddress = d.asset!.jettonAddress;
    const isPton = jettonAddress !== null && isPtonMaster(jettonAddress);
    const asset = new Asset(isPton, isPton ? null : jettonAddress);
    const receiverWallet = d.receiver_wallet ?? null;
    const senderWallet = d.sender_wallet;
    if (receiverWallet) walletAsset.set(receiverWallet, asset);
    if (senderWallet) walletAsset.set(senderWallet, asset);
    outData = { asset, amount: d.amount, source: d.sender, source_jetton_wallet: senderWallet, destination: d.receiver, destination_jetton_wallet: receiverWallet };
  } catch {
    return null;
  }
  for (const t of intermediateTransfers) {
    if (t instanceof JettonTransferBlock) {
      const p = findCallContract(t.nextBlocks, PTonTransfer.opcode);
      if (p) additional.push(p);
    }
  }
  return { outData, additional };
}

/** A payout's amounts with their jetton, largest first. */
function toncoPayoutAssets(p: ToncoRouterV3PayTo): Array<[bigint, AccountId]> {
  const assets: Array<[bigint, AccountId]> = [];
  if (p.amount0 !== null && p.jetton0Address !== null) assets.push([p.amount0, addrAccount(p.jetton0Address)]);
  if (p.amount1 !== null && p.jetton1Address !== null) assets.push([p.amount1, addrAccount(p.jetton1Address)]);
  assets.sort((a, b) => (a[0] > b[0] ? -1 : a[0] < b[0] ? 1 : 0));
  return assets;
}

/**
 * The hops of a multi-hop route: the first from the incoming transfer to the first payout's largest amount (none
 * when its asset is unknown), then each successful payout after it (TON where its wallet is unknown).
 */
function toncoPeerSwaps(swapSteps: ToncoStep[], inData: SwapTransfer, walletAsset: Map<string | null, Asset>): PeerSwap[] {
  const peerSwapData: PeerSwap[] = [];
  if (swapSteps.length <= 1) return peerSwapData;
  const assets = toncoPayoutAssets(swapSteps[0].payoutMsg);
  if (assets.length === 0) return peerSwapData;
  const [outAmount, outAddr] = assets[0];
  const outAsset = walletAsset.get(outAddr);
  if (!outAsset) return peerSwapData;
  const firstHop: PeerSwap = { in: { amount: inData.amount, asset: inData.asset as Asset }, out: { amount: outAmount, asset: outAsset } };
  peerSwapData.push(firstHop);
  let prevOut = firstHop.out;
  for (const next of swapSteps.slice(1)) {
    if (next.payoutMsg.exitCode !== 0 && next.payoutMsg.exitCode !== 200) continue;
    const nextAssets = toncoPayoutAssets(next.payoutMsg);
    if (nextAssets.length > 0) {
      const [nextAmount, nextAddr] = nextAssets[0];
      const hop: PeerSwap = { in: { ...prevOut }, out: { amount: nextAmount, asset: walletAsset.get(nextAddr) ?? new Asset(true) } };
      peerSwapData.push(hop);
      prevOut = hop.out;
    }
  }
  return peerSwapData;
}

/**
 * A failed swap: the asset and minimum the request payload asked for (its last hop's target wallet, through
 * `walletAsset` or the repository). Null, and the outgoing transfer's figures stand, when there is no request
 * payload (a jetton transfer's, or one that does not read) or its target's asset is unknown.
 */
function toncoRequestedOut(repo: InterfaceRepository, inPayload: Cell, walletAsset: Map<string | null, Asset>): { asset: Asset; minOut: Amount } | null {
  try {
    const payload = new ToncoPoolV3SwapPayload(inPayload.beginParse(true));
    const targets = payload.getTargetWalletsAndAmountsRecursive();
    const [targetWallet, targetMin] = targets.length ? targets[targets.length - 1] : [null, null];
    if (!targetWallet) return null;
    let targetAsset = walletAsset.get(targetWallet) ?? null;
    if (!targetAsset) {
      try {
        const w = repo.getJettonWallet(targetWallet);
        if (w !== null) targetAsset = toncoAsset(w.jetton);
      } catch {
        // upstream logs and carries on
      }
    }
    return targetAsset ? { asset: targetAsset, minOut: targetMin ?? 0n } : null;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------- swap.coffee

/** swap_internal (with its success event), further swaps recursively, then the payout and the final transfer. */
export class CoffeeSwapBlockMatcher extends BlockMatcher {
  constructor() {
    const inTransfer = labeled('in_transfer', new OrMatcher([new BlockTypeMatcher('jetton_transfer'), new ContractMatcher(CoffeeSwapNative.opcode)]));
    const outTransfer = labeled('out_transfer', new OrMatcher([
      new BlockTypeMatcher('jetton_transfer'), new ContractMatcher(CoffeePayout.opcode), new ContractMatcher(CoffeeNotification.opcode),
    ]));
    const payout = labeled('payout', new ContractMatcher(CoffeePayoutInternal.opcode, { childMatcher: outTransfer }));
    const repeatingSwap = new ContractMatcher(CoffeeSwapInternal.opcode, { childMatcher: new ContractMatcher(CoffeeSwapSuccessfulEvent.opcode) });
    const peerSwapChain = new RecursiveMatcher(repeatingSwap, payout);
    peerSwapChain.optional = true; // zero intermediate hops is a valid case
    super({
      parentMatcher: inTransfer,
      childrenMatchers: [new ContractMatcher(CoffeeSwapSuccessfulEvent.opcode), new OrMatcher([peerSwapChain, payout])],
    });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === CoffeeSwapInternal.opcode;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const inTransfer = getLabeled('in_transfer', otherBlocks);
    const payoutBlock = getLabeled('payout', otherBlocks);
    const outTransfer = getLabeled('out_transfer', otherBlocks);
    if (!inTransfer || !payoutBlock || !outTransfer) return [];

    const swapBlocks: Block[] = findCallContracts(otherBlocks, CoffeeSwapInternal.opcode);
    if (block instanceof CallContractBlock) swapBlocks.push(block);
    let ok = true;
    const peerSwaps: Array<{ in: { asset: Asset | null; amount: Amount }; out: { asset: Asset | null; amount: Amount } }> = [];
    for (const swapBlock of [...new Set(swapBlocks)].sort(byMinLt)) {
      const event = findCallContract(swapBlock.nextBlocks, CoffeeSwapSuccessfulEvent.opcode);
      if (!event) {
        ok = false; // a hop without its success event fails the whole swap
        continue;
      }
      const m = new CoffeeSwapSuccessfulEvent(event.getBody());
      peerSwaps.push({ in: { asset: m.input, amount: m.inputAmount }, out: { asset: null, amount: m.outputAmount } });
    }
    if (peerSwaps.length === 0) return [];

    let inData: Partial<SwapTransfer> = {};
    let sender: AccountId = null;
    if (inTransfer instanceof JettonTransferBlock) {
      const d = transferData(inTransfer);
      sender = d.sender;
      inData = { asset: d.asset, amount: d.amount, source: d.sender, source_jetton_wallet: d.sender_wallet, destination: d.receiver, destination_jetton_wallet: d.receiver_wallet ?? null };
    } else if (inTransfer instanceof CallContractBlock && inTransfer.opcode === CoffeeSwapNative.opcode) {
      const m = new CoffeeSwapNative(inTransfer.getBody());
      sender = accountId(inTransfer.getMessage().source);
      inData = { asset: new Asset(true), amount: m.amount, source: sender, source_jetton_wallet: null, destination: accountId(inTransfer.getMessage().destination), destination_jetton_wallet: null };
    }

    let outData: Partial<SwapTransfer> = {};
    if (outTransfer instanceof JettonTransferBlock) {
      const d = transferData(outTransfer);
      outData = { asset: d.asset, amount: d.amount, source: d.sender, source_jetton_wallet: d.sender_wallet, destination: d.receiver, destination_jetton_wallet: d.receiver_wallet ?? null };
    } else if (outTransfer instanceof CallContractBlock && outTransfer.opcode === CoffeePayout.opcode) {
      const m = new CoffeePayoutInternal(payoutBlock.getBody());
      outData = {
        asset: new Asset(true), amount: m.amount, source: accountId(payoutBlock.getMessage().source), source_jetton_wallet: null,
        destination: addrAccount(m.recipient), destination_jetton_wallet: null,
      };
    } else if (outTransfer instanceof CallContractBlock && outTransfer.opcode === CoffeeNotification.opcode) {
      const message = outTransfer.getMessage();
      outData = {
        asset: new Asset(true), amount: message.value ?? 0n, source: accountId(message.source), source_jetton_wallet: null,
        destination: accountId(message.destination), destination_jetton_wallet: null,
      };
    }

    for (let i = 0; i < peerSwaps.length - 1; i++) peerSwaps[i].out.asset = peerSwaps[i + 1].in.asset;
    if (Object.keys(outData).length > 0) peerSwaps[peerSwaps.length - 1].out.asset = (outData.asset as Asset | undefined) ?? null;

    const newBlock = new JettonSwapBlock({
      dex: 'coffee',
      sender,
      source_asset: inData.asset ?? null,
      destination_asset: outData.asset ?? null,
      dex_incoming_transfer: inData as SwapTransfer,
      dex_outgoing_transfer: outData as SwapTransfer,
      peer_swaps: (peerSwaps.length > 1 ? peerSwaps : []) as PeerSwap[],
      referral_amount: null,
      referral_address: null,
    });
    newBlock.mergeBlocks([block, ...otherBlocks]);
    newBlock.failed = !ok;
    return [newBlock];
  }
}

/** This family's matchers under upstream's class names (families/index.ts, matcher-order.ts). */
export const MATCHERS = {
  DedustSwapBlockMatcher: new DedustSwapBlockMatcher(),
  StonfiSwapBlockMatcher: new StonfiSwapBlockMatcher(),
  StonfiV2SwapBlockMatcher: new StonfiV2SwapBlockMatcher(),
  ToncoSwapBlockMatcher: new ToncoSwapBlockMatcher(),
  CoffeeSwapBlockMatcher: new CoffeeSwapBlockMatcher(),
};
