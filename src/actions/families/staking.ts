/**
 * ↔ indexer/events/blocks/staking.py (newest upstream version read: Tonstakers, nominator pools, Coffee staking and
 * Hipo). Every branch of every matcher is kept, with upstream's quirks:
 * - a Tonstakers deposit whose mint leg is missing is no deposit: the asset is read off that leg unguarded, so the
 *   build fails (the `optional` mint matcher is dead in effect, as newest upstream notes);
 * - a Tonstakers withdrawal request that mints no NFT (neither an nft_mint block nor an init_nft call follows) is
 *   reported failed; an immediate withdrawal's amount is the payout minus the request's value;
 * - the NFT-burn withdrawal (the pool's payout after a request NFT is burnt) names its pool by walking up the
 *   block chain to the "start asset distribution" call or an already built Tonstakers withdrawal, else none;
 * - nominator-pool matchers build nothing (`[]`) for an account that is not a NominatorPool;
 * - Hipo (newer upstream) reports only chains anchored on the treasury, whose balance-moving legs the treasury sent.
 * NftMintBlock is nft.py's: it is recognised here by its type, `nft_mint`, and its data (`address`, `index`).
 */
import { CallContractBlock, TonTransferBlock } from '../basic-blocks.ts';
import { findCallContract, getLabeled, getMultipleLabeled } from '../block-utils.ts';
import type {
  CoffeeStakingClaimRewardsData, CoffeeStakingDepositData, CoffeeStakingWithdrawData, HipoStakeDepositData, HipoStakeWithdrawalData,
  HipoStakeWithdrawalRequestData, JettonTransferData, NftMintData, NominatorPoolDepositData, NominatorPoolWithdrawRequestData,
  TONStakersDepositData, TONStakersWithdrawData, TONStakersWithdrawRequestData,
} from '../block-data.ts';
import { interfaceRepository } from '../context.ts';
import { Block } from '../core.ts';
import { labeled } from '../labels.ts';
import { BlockMatcher, BlockTypeMatcher, ContractMatcher, OrMatcher } from '../matchers.ts';
import {
  CoffeeStakingClaimRewards, CoffeeStakingDeposit, CoffeeStakingPositionWithdraw1, CoffeeStakingPositionWithdraw2, CoffeeStakingPositionWithdraw3,
} from '../messages/coffee.ts';
import { addrAccount } from '../messages/common.ts';
import { JettonBurn, JettonBurnNotification, JettonInternalTransfer, JettonNotify } from '../messages/jettons.ts';
import {
  HIPO_PARENT_ADDRESS, HIPO_TREASURY_ADDRESS, HipoAssignBill, HipoBillBurned, HipoBurnBill, HipoBurnTokens, HipoDepositCoins, HipoMintBill,
  HipoMintTokens, HipoProxyReserveTokens, HipoProxyRollbackUnstake, HipoProxySaveCoins, HipoProxyTokensBurned, HipoProxyTokensMinted,
  HipoReserveTokens, HipoRollbackUnstake, HipoSaveCoins, HipoTokensBurned, HipoTokensMinted, HipoWithdrawalNotification,
  NominatorPoolProcessWithdrawRequests, TONStakersDepositRequest, TONStakersDistributedAsset, TONStakersInitNFT, TONStakersMintJettons,
  TONStakersMintNFT, TONStakersNftBurn, TONStakersNftBurnNotification, TONStakersPoolWithdrawal, TONStakersStartDistribution,
  TONStakersWithdrawRequest,
} from '../messages/staking.ts';
import { accountId, Asset, type AccountId } from '../ton-utils.ts';
import { JettonTransferBlock } from './jettons.ts';

export class TONStakersDepositBlock extends Block<TONStakersDepositData> {
  constructor(data: TONStakersDepositData) {
    super('tonstakers_deposit', [], data);
  }
}

export class TONStakersWithdrawRequestBlock extends Block<TONStakersWithdrawRequestData> {
  constructor(data: TONStakersWithdrawRequestData) {
    super('tonstakers_withdraw_request', [], data);
  }
}

export class TONStakersWithdrawBlock extends Block<TONStakersWithdrawData> {
  constructor(data: TONStakersWithdrawData) {
    super('tonstakers_withdraw', [], data);
  }
}

export class NominatorPoolDepositBlock extends Block<NominatorPoolDepositData> {
  constructor(data: NominatorPoolDepositData) {
    super('nominator_pool_deposit', [], data);
  }
}

export class NominatorPoolWithdrawRequestBlock extends Block<NominatorPoolWithdrawRequestData> {
  constructor(data: NominatorPoolWithdrawRequestData) {
    super('nominator_pool_withdraw_request', [], data);
  }
}

export class CoffeeStakingDepositBlock extends Block<CoffeeStakingDepositData> {
  constructor(data: CoffeeStakingDepositData) {
    super('coffee_staking_deposit', [], data);
  }
}

export class CoffeeStakingWithdrawBlock extends Block<CoffeeStakingWithdrawData> {
  constructor(data: CoffeeStakingWithdrawData) {
    super('coffee_staking_withdraw', [], data);
  }
}

export class CoffeeStakingClaimRewardsBlock extends Block<CoffeeStakingClaimRewardsData> {
  constructor(data: CoffeeStakingClaimRewardsData) {
    super('coffee_staking_claim_rewards', [], data);
  }
}

export class HipoStakeDepositBlock extends Block<HipoStakeDepositData> {
  constructor(data: HipoStakeDepositData) {
    super('hipo_stake_deposit', [], data);
  }
}

export class HipoStakeWithdrawalRequestBlock extends Block<HipoStakeWithdrawalRequestData> {
  constructor(data: HipoStakeWithdrawalRequestData) {
    super('hipo_stake_withdrawal_request', [], data);
  }
}

export class HipoStakeWithdrawalBlock extends Block<HipoStakeWithdrawalData> {
  constructor(data: HipoStakeWithdrawalData) {
    super('hipo_stake_withdrawal', [], data);
  }
}

const isCall = (block: Block, opcode: number): block is CallContractBlock => block instanceof CallContractBlock && block.opcode === opcode >>> 0;

/** A message's value where upstream does arithmetic on it (None there raises). */
function valueOf(b: Block): bigint {
  const v = b.getMessage().value;
  if (v === null) throw new TypeError("unsupported operand type(s) for -: 'NoneType' and 'int'");
  return v;
}

/** `isinstance(b, NftMintBlock)`: nft.py's block, by its type. */
const isNftMint = (b: Block): boolean => b.btype === 'nft_mint';

/** `get_labeled(label, blocks, NftMintBlock)` */
function labeledNftMint(label: string, blocks: Block[]): Block<NftMintData> | null {
  return (getMultipleLabeled(label, blocks).find(isNftMint) as Block<NftMintData> | undefined) ?? null;
}

/** deposit request -> mint jettons (optional in name only) -> internal transfer (labelled) -> notify (optional), excesses. */
export class TONStakersDepositMatcher extends BlockMatcher {
  constructor() {
    super({
      childMatcher: new ContractMatcher(TONStakersMintJettons.opcode, {
        optional: true,
        childMatcher: labeled('transfer', new ContractMatcher(JettonInternalTransfer.opcode, {
          includeExcess: true,
          childMatcher: new ContractMatcher(JettonNotify.opcode, { optional: true }),
        })),
      }),
    });
  }

  override testSelf(block: Block): boolean {
    return isCall(block, TONStakersDepositRequest.opcode);
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const msg = block.getMessage();
    const transfer = getLabeled('transfer', otherBlocks, CallContractBlock);
    const transferMessage = transfer !== null ? new JettonInternalTransfer(transfer.getBody()) : null;
    const failed = block.failed || transfer === null;
    const newBlock = new TONStakersDepositBlock({
      user_jetton_wallet: !failed ? accountId(transfer!.getMessage().destination) : null,
      tokens_minted: !failed ? transferMessage!.amount : null,
      source: accountId(msg.source),
      pool: accountId(msg.destination),
      value: valueOf(block) - 1_000_000_000n, // 1 TON deposit fee
      // read unguarded upstream: without the mint leg the build fails
      asset: new Asset(false, present(transfer).getMessage().source),
    });
    newBlock.failed = failed;
    newBlock.mergeBlocks([block, ...otherBlocks]);
    return [newBlock];
  }
}

/** A block upstream reads unguarded: missing, the build fails (`'NoneType' object has no attribute …`). */
function present(b: Block | null): Block {
  if (b === null) throw new TypeError("'NoneType' object has no attribute 'get_message'");
  return b;
}

/** jetton burn -> burn notification -> withdraw request (labelled) -> immediate pool withdrawal | request NFT mint. */
export class TONStakersWithdrawMatcher extends BlockMatcher {
  constructor() {
    super({
      childMatcher: new ContractMatcher(JettonBurnNotification.opcode, {
        childMatcher: labeled('request', new ContractMatcher(TONStakersWithdrawRequest.opcode, {
          childMatcher: new OrMatcher([
            labeled('immediate_withdrawal', new ContractMatcher(TONStakersPoolWithdrawal.opcode)),
            labeled('delayed_withdrawal', new ContractMatcher(TONStakersMintNFT.opcode)),
          ]),
        })),
      }),
    });
  }

  override testSelf(block: Block): boolean {
    return isCall(block, JettonBurn.opcode);
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const msg = block.getMessage();
    const burn = new JettonBurn(block.getBody());
    const immediate = getLabeled('immediate_withdrawal', otherBlocks, CallContractBlock);
    const delayed = getLabeled('delayed_withdrawal', otherBlocks, CallContractBlock);
    const request = present(getLabeled('request', otherBlocks, CallContractBlock));
    let failed = block.failed;
    const asset = new Asset(false, request.getMessage().source);
    let newBlock: Block;
    if (immediate !== null) {
      // the payout less what the request carried (the request is the payout's previous block)
      const value = valueOf(immediate) - valueOf(present(immediate.previousBlock));
      newBlock = new TONStakersWithdrawBlock({
        stake_holder: accountId(msg.source),
        burnt_nft: null,
        pool: accountId(request.getMessage().destination),
        tokens_burnt: burn.amount,
        amount: value,
        asset,
      });
    } else {
      const next = present(delayed).nextBlocks;
      const mint: Block | null = next.find(isNftMint) ?? findCallContract(next, TONStakersInitNFT.opcode);
      let mintedNft: AccountId = null;
      if (mint !== null) mintedNft = accountId(mint.eventNodes[0].message.destination);
      else failed = true;
      newBlock = new TONStakersWithdrawRequestBlock({
        source: accountId(msg.source),
        tsTON_wallet: accountId(msg.destination),
        pool: accountId(request.getMessage().destination),
        tokens_burnt: burn.amount,
        minted_nft: mintedNft,
        asset,
      });
    }
    newBlock.failed = failed;
    newBlock.mergeBlocks([block, ...otherBlocks]);
    return [newBlock];
  }
}

/** The pool's payout (distributed asset) after a request NFT's burn: burn -> burn notification -> payout. */
export class TONStakersDelayedWithdrawalMatcher extends BlockMatcher {
  constructor() {
    super({
      parentMatcher: new ContractMatcher(TONStakersNftBurnNotification.opcode, {
        parentMatcher: new ContractMatcher(TONStakersNftBurn.opcode),
      }),
    });
  }

  override testSelf(block: Block): boolean {
    return isCall(block, TONStakersDistributedAsset.opcode);
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const notification = present(block.previousBlock);
    const n = new TONStakersNftBurnNotification(notification.getBody());
    const newBlock = new TONStakersWithdrawBlock({
      stake_holder: addrAccount(n.owner),
      burnt_nft: accountId(notification.getMessage().source),
      pool: TONStakersDelayedWithdrawalMatcher.tryFindPoolAddr(notification),
      amount: block.getMessage().value,
      tokens_burnt: n.amount,
      asset: null,
    });
    newBlock.mergeBlocks([block, ...otherBlocks]);
    return [newBlock];
  }

  /** Up the chain: the distribution's start call names the pool (its sender), a built withdrawal its pool. */
  static tryFindPoolAddr(block: Block): AccountId {
    try {
      const passable = new Set([TONStakersNftBurnNotification.opcode, TONStakersNftBurn.opcode, TONStakersDistributedAsset.opcode]);
      let cur: Block | null = block;
      for (;;) {
        cur = cur.previousBlock;
        if (cur === null) break;
        if (isCall(cur, TONStakersStartDistribution.opcode)) return accountId(cur.getMessage().source);
        if (cur instanceof TONStakersWithdrawBlock) return (cur.data.pool ?? null) as AccountId;
        if (cur instanceof CallContractBlock && cur.opcode !== null && passable.has(cur.opcode)) continue;
        break;
      }
      return null;
    } catch {
      return null;
    }
  }
}

const isNominatorPool = (block: Block, address: string | null): boolean => 'NominatorPool' in interfaceRepository(block).getInterfaces(address);

/** A "d" comment to a nominator pool (bounces included before the build). */
export class NominatorPoolDepositMatcher extends BlockMatcher {
  constructor() {
    super({ includeBounces: true, preBuildAutoAppend: true });
  }

  override testSelf(block: Block): boolean {
    return block instanceof TonTransferBlock && block.comment === 'd';
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const msg = block.getMessage();
    if (!isNominatorPool(block, msg.destination)) return [];
    const newBlock = new NominatorPoolDepositBlock({ source: accountId(msg.source), pool: accountId(msg.destination), value: msg.value });
    newBlock.failed = block.failed;
    newBlock.mergeBlocks([block, ...otherBlocks]);
    return [newBlock];
  }
}

/**
 * A "w" comment to a nominator pool: one returned transfer worth more than the request is an immediate payout; two
 * returned transfers are a payout (the earlier) and a change; otherwise a request, paid later.
 */
export class NominatorPoolWithdrawRequestMatcher extends BlockMatcher {
  constructor() {
    super({ childMatcher: null, includeBounces: true, preBuildAutoAppend: true });
  }

  override testSelf(block: Block): boolean {
    return block instanceof TonTransferBlock && block.comment === 'w';
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const msg = block.getMessage();
    const extra: Block[] = [];
    if (!isNominatorPool(block, msg.destination)) return [];
    const transfers = block.nextBlocks.filter((b): b is TonTransferBlock => b instanceof TonTransferBlock);
    const data = (payout: bigint | null): NominatorPoolWithdrawRequestData => ({ source: accountId(msg.source), pool: accountId(msg.destination), payout_amount: payout });
    let newBlock: NominatorPoolWithdrawRequestBlock | null = null;
    if (transfers.length === 1) {
      const t = transfers[0];
      extra.push(t);
      if (t.value !== null && msg.value !== null && t.value > msg.value) newBlock = new NominatorPoolWithdrawRequestBlock(data(t.value));
    } else if (transfers.length === 2) {
      // the payout is always the earlier one (by created lt)
      const lt = (b: Block) => b.eventNodes[0].message.createdLt ?? 0n;
      const payout = lt(transfers[1]) < lt(transfers[0]) ? transfers[1] : transfers[0];
      extra.push(...transfers);
      newBlock = new NominatorPoolWithdrawRequestBlock(data(payout.value));
    }
    newBlock ??= new NominatorPoolWithdrawRequestBlock(data(null));
    newBlock.failed = block.failed;
    newBlock.mergeBlocks([block, ...otherBlocks, ...extra]);
    return [newBlock];
  }
}

/** The pool owner's "process withdraw requests": a completed withdrawal per transfer it sent (the call itself stays). */
export class NominatorPoolWithdrawMatcher extends BlockMatcher {
  constructor() {
    super({ childMatcher: null, includeBounces: true, preBuildAutoAppend: true });
  }

  override testSelf(block: Block): boolean {
    return isCall(block, NominatorPoolProcessWithdrawRequests.opcode);
  }

  override buildBlock(block: Block): Block[] {
    const pool = block.getMessage().destination;
    if (!isNominatorPool(block, pool)) return [];
    const out: Block[] = [];
    for (const t of block.nextBlocks) {
      if (!(t instanceof TonTransferBlock)) continue;
      const newBlock = new NominatorPoolWithdrawRequestBlock({ source: accountId(t.eventNodes[0].message.destination), pool: accountId(pool), payout_amount: t.value });
      newBlock.mergeBlocks([t]);
      out.push(newBlock);
    }
    return out;
  }
}

const jt = (b: Block) => b.data as JettonTransferData;

/** jetton transfer to the pool -> pool call (staking_deposit) -> duplicated log (optional) + the position NFT's mint. */
export class CoffeeStakingDepositMatcher extends BlockMatcher {
  constructor() {
    super({
      childMatcher: labeled('pool_call', new ContractMatcher(CoffeeStakingDeposit.opcode, {
        childrenMatchers: [
          labeled('log', new ContractMatcher(CoffeeStakingDeposit.opcode, { optional: true })),
          labeled('nft_mint', new BlockTypeMatcher('nft_mint', { optional: false })),
        ],
      })),
    });
  }

  override testSelf(block: Block): boolean {
    return block instanceof JettonTransferBlock;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const poolCall = getLabeled('pool_call', otherBlocks, CallContractBlock);
    if (poolCall === null) return [];
    const log = getLabeled('log', otherBlocks, CallContractBlock);
    const mint = labeledNftMint('nft_mint', otherBlocks);
    if (mint === null) return [];
    const d = jt(block);
    const newBlock = new CoffeeStakingDepositBlock({
      source: d.sender,
      user_jetton_wallet: d.sender_wallet,
      pool_jetton_wallet: d.receiver_wallet ?? null,
      pool: accountId(poolCall.getMessage().destination),
      value: d.amount,
      minted_item_address: mint.data.address,
      minted_item_index: mint.data.index,
      asset: d.asset,
    });
    const blocks: Block[] = [block, poolCall, mint];
    if (log !== null) blocks.push(log);
    newBlock.mergeBlocks(blocks);
    return [newBlock];
  }
}

/** withdraw_1 (to the position NFT) -> withdraw_2 (NFT -> pool) -> withdraw_3 (pool) -> jetton transfer, + a log. */
export class CoffeeStakingWithdrawMatcher extends BlockMatcher {
  constructor() {
    const jettonTransfer = labeled('jetton_transfer', new BlockTypeMatcher('jetton_transfer', { optional: false }));
    const withdraw3 = labeled('withdraw_3', new ContractMatcher(CoffeeStakingPositionWithdraw3.opcode, { childrenMatchers: [jettonTransfer] }));
    const withdraw2 = labeled('withdraw_2', new ContractMatcher(CoffeeStakingPositionWithdraw2.opcode, {
      childrenMatchers: [withdraw3, labeled('log', new ContractMatcher(CoffeeStakingPositionWithdraw3.opcode, { optional: true }))],
    }));
    super({ childMatcher: withdraw2 });
  }

  override testSelf(block: Block): boolean {
    return isCall(block, CoffeeStakingPositionWithdraw1.opcode);
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    new CoffeeStakingPositionWithdraw1(block.getBody());
    const w2 = getLabeled('withdraw_2', otherBlocks, CallContractBlock);
    if (w2 === null) return [];
    const w2msg = new CoffeeStakingPositionWithdraw2(w2.getBody());
    const w3 = getLabeled('withdraw_3', otherBlocks, CallContractBlock);
    if (w3 === null) return [];
    const w3msg = new CoffeeStakingPositionWithdraw3(w3.getBody());
    const transfer = getLabeled('jetton_transfer', otherBlocks, JettonTransferBlock);
    if (transfer === null) return [];
    const newBlock = new CoffeeStakingWithdrawBlock({
      source: addrAccount(w2msg.owner),
      pool: accountId(w2.getMessage().source), // the master sends withdraw_2
      asset: jt(transfer).asset,
      amount: w3msg.jettonAmount,
      user_jetton_wallet: jt(transfer).receiver_wallet ?? null,
      pool_jetton_wallet: addrAccount(w3msg.jettonWallet),
      nft_address: accountId(block.getMessage().destination),
      nft_index: w2msg.nftId,
      points: w2msg.points,
    });
    const blocks: Block[] = [block, w2, w3, transfer];
    const log = getLabeled('log', otherBlocks, CallContractBlock);
    if (log !== null) blocks.push(log);
    newBlock.mergeBlocks(blocks);
    return [newBlock];
  }
}

/** claim_rewards (admin -> pool) with children: the reward's jetton transfer and an optional duplicated log. */
export class CoffeeStakingClaimRewardsMatcher extends BlockMatcher {
  constructor() {
    super({
      childrenMatchers: [
        labeled('jetton_transfer', new BlockTypeMatcher('jetton_transfer', { optional: false })),
        labeled('log', new ContractMatcher(CoffeeStakingClaimRewards.opcode, { optional: true })),
      ],
    });
  }

  override testSelf(block: Block): boolean {
    return isCall(block, CoffeeStakingClaimRewards.opcode) && block.nextBlocks.length > 0;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const msg = new CoffeeStakingClaimRewards(block.getBody());
    const transfer = getLabeled('jetton_transfer', otherBlocks, JettonTransferBlock);
    if (transfer === null) return [];
    const newBlock = new CoffeeStakingClaimRewardsBlock({
      admin: accountId(block.getMessage().source),
      recipient: addrAccount(msg.receiver),
      pool: accountId(block.getMessage().destination),
      asset: jt(transfer).asset,
      amount: msg.jettonAmount,
      pool_jetton_wallet: addrAccount(msg.jettonWallet),
      recipient_jetton_wallet: jt(transfer).receiver_wallet ?? null,
    });
    const blocks: Block[] = [block, transfer];
    const log = getLabeled('log', otherBlocks, CallContractBlock);
    if (log !== null) blocks.push(log);
    newBlock.mergeBlocks(blocks);
    return [newBlock];
  }
}

// ---------------------------------------------------------------- Hipo (hGRAM liquid staking; newer upstream)

const hipoIsTreasury = (address: string | null): boolean => address !== null && address.toUpperCase() === HIPO_TREASURY_ADDRESS;

/** A leg the treasury itself sent: what a look-alike chain of an attacker's contracts cannot forge. */
const hipoFromTreasury = (block: Block | null): boolean => block !== null && hipoIsTreasury(block.getMessage().source);

/** The bill SBT a mint_bill deploys: nft.py's nft_mint usually took the assign_bill; else the assign_bill's receiver. */
function hipoFindBill(mintBill: Block | null): AccountId {
  if (mintBill === null) return null;
  for (const next of mintBill.nextBlocks) if (isNftMint(next)) return accountId((next.data as NftMintData).address);
  const assign = findCallContract(mintBill.nextBlocks, HipoAssignBill.opcode);
  return assign !== null ? accountId(assign.getMessage().destination) : null;
}

/** What the treasury does with a deposit, however phrased: an instant mint or a pending deposit, and a bill. */
function hipoDepositChildrenMatchers(): BlockMatcher[] {
  const instant = labeled('proxy_tokens_minted', new ContractMatcher(HipoProxyTokensMinted.opcode, {
    childMatcher: labeled('tokens_minted', new ContractMatcher(HipoTokensMinted.opcode, {
      childMatcher: new ContractMatcher(JettonNotify.opcode, { optional: true }),
    })),
  }));
  const deferred = labeled('proxy_save_coins', new ContractMatcher(HipoProxySaveCoins.opcode, {
    childMatcher: labeled('save_coins', new ContractMatcher(HipoSaveCoins.opcode, { optional: true })),
  }));
  return [new OrMatcher([instant, deferred], true), labeled('mint_bill', new ContractMatcher(HipoMintBill.opcode, { optional: true }))];
}

function hipoBuildDeposit(block: Block, otherBlocks: Block[], staker: AccountId, fallbackCoins: bigint | null): Block[] {
  const proxyTokensMinted = getLabeled('proxy_tokens_minted', otherBlocks, CallContractBlock);
  const proxySaveCoins = getLabeled('proxy_save_coins', otherBlocks, CallContractBlock);
  const tokensMinted = getLabeled('tokens_minted', otherBlocks, CallContractBlock);
  const saveCoins = getLabeled('save_coins', otherBlocks, CallContractBlock);
  const mintBill = getLabeled('mint_bill', otherBlocks, CallContractBlock);
  for (const leg of [proxyTokensMinted, proxySaveCoins, mintBill]) if (leg !== null && !hipoFromTreasury(leg)) return [];
  let tokens: bigint | null = null;
  let parent: string | null = null;
  let coins: bigint | null;
  if (proxyTokensMinted !== null) {
    const m = new HipoProxyTokensMinted(proxyTokensMinted.getBody());
    coins = m.coins;
    tokens = m.tokens;
    parent = proxyTokensMinted.getMessage().destination;
  } else if (proxySaveCoins !== null) {
    coins = new HipoProxySaveCoins(proxySaveCoins.getBody()).coins;
    parent = proxySaveCoins.getMessage().destination;
  } else {
    coins = fallbackCoins;
  }
  let wallet: AccountId = null;
  for (const leg of [tokensMinted, saveCoins]) {
    if (leg !== null) {
      wallet = accountId(leg.getMessage().destination);
      break;
    }
  }
  const newBlock = new HipoStakeDepositBlock({
    source: staker,
    pool: accountId(block.getMessage().destination),
    user_jetton_wallet: wallet,
    value: coins,
    tokens_minted: tokens,
    asset: new Asset(false, parent ?? HIPO_PARENT_ADDRESS),
    bill: hipoFindBill(mintBill),
  });
  newBlock.failed = block.failed || (proxyTokensMinted === null && proxySaveCoins === null);
  newBlock.mergeBlocks([block, ...otherBlocks]);
  return [newBlock];
}

/** deposit_coins -> treasury: an instant mint, or a deposit pending until the round ends. */
export class HipoDepositMatcher extends BlockMatcher {
  constructor() {
    super({ childrenMatchers: hipoDepositChildrenMatchers() });
  }

  override testSelf(block: Block): boolean {
    return isCall(block, HipoDepositCoins.opcode) && hipoIsTreasury(block.getMessage().destination);
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const msg = block.getMessage();
    const deposit = new HipoDepositCoins(block.getBody());
    // owner is addr_none when the sender stakes for itself; coins == 0 means "everything left after fees"
    const staker = deposit.owner !== null ? addrAccount(deposit.owner) : accountId(msg.source);
    const fallback = deposit.coins !== 0n ? deposit.coins : msg.value;
    return hipoBuildDeposit(block, otherBlocks, staker, fallback);
  }
}

/** A transfer to the treasury whose body is the comment "d" / "D": the deposit handler with coins = 0. */
export class HipoCommentDepositMatcher extends BlockMatcher {
  constructor() {
    super({ childrenMatchers: hipoDepositChildrenMatchers() });
  }

  override testSelf(block: Block): boolean {
    return block instanceof TonTransferBlock && (block.comment === 'd' || block.comment === 'D') && hipoIsTreasury(block.getMessage().destination);
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const msg = block.getMessage();
    return hipoBuildDeposit(block, otherBlocks, accountId(msg.source), msg.value);
  }
}

/** hGRAM burn: an instant unstake, a deferred request (a bill), or a rollback (left to the jetton matchers). */
export class HipoUnstakeMatcher extends BlockMatcher {
  constructor() {
    const instant = labeled('proxy_tokens_burned', new ContractMatcher(HipoProxyTokensBurned.opcode, {
      childMatcher: labeled('tokens_burned', new ContractMatcher(HipoTokensBurned.opcode, {
        childMatcher: labeled('withdrawal_notification', new ContractMatcher(HipoWithdrawalNotification.opcode, { optional: true })),
      })),
    }));
    const deferred = labeled('mint_bill', new ContractMatcher(HipoMintBill.opcode));
    const rollback = labeled('rollback', new ContractMatcher(HipoProxyRollbackUnstake.opcode, {
      childMatcher: new ContractMatcher(HipoRollbackUnstake.opcode, { optional: true }),
    }));
    super({
      childMatcher: labeled('proxy_reserve_tokens', new ContractMatcher(HipoProxyReserveTokens.opcode, {
        childMatcher: labeled('reserve_tokens', new ContractMatcher(HipoReserveTokens.opcode, {
          childMatcher: new OrMatcher([instant, deferred, rollback]),
        })),
      })),
    });
  }

  override testSelf(block: Block): boolean {
    return isCall(block, JettonBurn.opcode);
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const msg = block.getMessage();
    const reserveTokens = getLabeled('reserve_tokens', otherBlocks, CallContractBlock);
    const proxyReserveTokens = getLabeled('proxy_reserve_tokens', otherBlocks, CallContractBlock);
    if (reserveTokens === null || !hipoIsTreasury(reserveTokens.getMessage().destination)) return [];
    // nothing was withdrawn (and a forged chain always lands here): not a withdrawal
    if (getLabeled('rollback', otherBlocks, CallContractBlock) !== null) return [];
    const burn = new JettonBurn(block.getBody());
    const reserve = new HipoReserveTokens(reserveTokens.getBody());
    const staker = reserve.owner !== null ? addrAccount(reserve.owner) : accountId(msg.source);
    const pool = accountId(reserveTokens.getMessage().destination);
    const wallet = accountId(msg.destination);
    const asset = new Asset(false, present(proxyReserveTokens).getMessage().destination);
    const proxyTokensBurned = getLabeled('proxy_tokens_burned', otherBlocks, CallContractBlock);
    const mintBill = getLabeled('mint_bill', otherBlocks, CallContractBlock);
    for (const leg of [proxyTokensBurned, mintBill]) if (leg !== null && !hipoFromTreasury(leg)) return [];
    let newBlock: Block;
    if (proxyTokensBurned !== null) {
      const burned = new HipoProxyTokensBurned(proxyTokensBurned.getBody());
      newBlock = new HipoStakeWithdrawalBlock({ source: staker, pool, user_jetton_wallet: wallet, amount: burned.coins, tokens_burnt: burned.tokens, asset, bill: null });
    } else if (mintBill !== null) {
      const request = new HipoMintBill(mintBill.getBody());
      // `request.amount or burn.amount`: a zero bill amount falls back to the burnt amount
      newBlock = new HipoStakeWithdrawalRequestBlock({
        source: staker, pool, user_jetton_wallet: wallet, tokens_burnt: request.amount !== 0n ? request.amount : burn.amount, asset, bill: hipoFindBill(mintBill),
      });
    } else {
      return [];
    }
    newBlock.failed = block.failed;
    newBlock.mergeBlocks([block, ...otherBlocks]);
    return [newBlock];
  }
}

/** The bill that burned before a round-end settlement (both parent levels optional). */
const billBurnedParent = () => labeled('bill_burned', new ContractMatcher(HipoBillBurned.opcode, {
  optional: true,
  parentMatcher: new ContractMatcher(HipoBurnBill.opcode, { optional: true }),
}));

/** Round end, deposit side: the hGRAM of a pending deposit is minted. Reports no GRAM (the deposit half did). */
export class HipoRoundEndDepositMatcher extends BlockMatcher {
  constructor() {
    super({
      parentMatcher: billBurnedParent(),
      childMatcher: labeled('proxy_tokens_minted', new ContractMatcher(HipoProxyTokensMinted.opcode, {
        childMatcher: labeled('tokens_minted', new ContractMatcher(HipoTokensMinted.opcode, {
          childMatcher: new ContractMatcher(JettonNotify.opcode, { optional: true }),
        })),
      })),
    });
  }

  override testSelf(block: Block): boolean {
    return isCall(block, HipoMintTokens.opcode) && hipoIsTreasury(block.getMessage().destination);
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const mintTokens = new HipoMintTokens(block.getBody());
    const proxyTokensMinted = getLabeled('proxy_tokens_minted', otherBlocks, CallContractBlock);
    if (proxyTokensMinted === null || !hipoFromTreasury(proxyTokensMinted)) return [];
    const minted = new HipoProxyTokensMinted(proxyTokensMinted.getBody());
    const tokensMinted = getLabeled('tokens_minted', otherBlocks, CallContractBlock);
    const billBurned = getLabeled('bill_burned', otherBlocks, CallContractBlock);
    const owner = minted.owner !== null ? minted.owner : mintTokens.owner;
    const newBlock = new HipoStakeDepositBlock({
      source: addrAccount(owner),
      pool: accountId(block.getMessage().destination),
      user_jetton_wallet: tokensMinted !== null ? accountId(tokensMinted.getMessage().destination) : null,
      value: null,
      tokens_minted: minted.tokens,
      asset: new Asset(false, proxyTokensMinted.getMessage().destination),
      bill: billBurned !== null ? accountId(billBurned.getMessage().source) : null,
    });
    newBlock.failed = block.failed;
    newBlock.mergeBlocks([block, ...otherBlocks]);
    return [newBlock];
  }
}

/**
 * Round end, withdrawal side (burn_tokens): (a) paid out; (b) postponed to a later round, a new request with a new
 * bill; (c) nowhere to postpone to, the hGRAM handed back: an unsuccessful withdrawal without amount.
 */
export class HipoRoundEndWithdrawalMatcher extends BlockMatcher {
  constructor() {
    const paid = labeled('proxy_tokens_burned', new ContractMatcher(HipoProxyTokensBurned.opcode, {
      childMatcher: labeled('tokens_burned', new ContractMatcher(HipoTokensBurned.opcode, {
        childMatcher: labeled('withdrawal_notification', new ContractMatcher(HipoWithdrawalNotification.opcode, { optional: true })),
      })),
    }));
    const postponed = labeled('mint_bill', new ContractMatcher(HipoMintBill.opcode));
    const rolledBack = labeled('rollback', new ContractMatcher(HipoProxyRollbackUnstake.opcode, {
      childMatcher: labeled('rollback_unstake', new ContractMatcher(HipoRollbackUnstake.opcode, { optional: true })),
    }));
    super({ parentMatcher: billBurnedParent(), childMatcher: new OrMatcher([paid, postponed, rolledBack]) });
  }

  override testSelf(block: Block): boolean {
    return isCall(block, HipoBurnTokens.opcode) && hipoIsTreasury(block.getMessage().destination);
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const burnTokens = new HipoBurnTokens(block.getBody());
    const pool = accountId(block.getMessage().destination);
    const billBurned = getLabeled('bill_burned', otherBlocks, CallContractBlock);
    const settledBill = billBurned !== null ? accountId(billBurned.getMessage().source) : null;
    const proxyTokensBurned = getLabeled('proxy_tokens_burned', otherBlocks, CallContractBlock);
    const mintBill = getLabeled('mint_bill', otherBlocks, CallContractBlock);
    const rollback = getLabeled('rollback', otherBlocks, CallContractBlock);
    for (const leg of [proxyTokensBurned, mintBill, rollback]) if (leg !== null && !hipoFromTreasury(leg)) return [];
    let newBlock: Block;
    if (proxyTokensBurned !== null) {
      const burned = new HipoProxyTokensBurned(proxyTokensBurned.getBody());
      const tokensBurned = getLabeled('tokens_burned', otherBlocks, CallContractBlock);
      newBlock = new HipoStakeWithdrawalBlock({
        source: addrAccount(burned.owner !== null ? burned.owner : burnTokens.owner),
        pool,
        user_jetton_wallet: tokensBurned !== null ? accountId(tokensBurned.getMessage().destination) : null,
        amount: burned.coins,
        tokens_burnt: burned.tokens,
        asset: new Asset(false, proxyTokensBurned.getMessage().destination),
        bill: settledBill,
      });
      newBlock.failed = block.failed;
    } else if (mintBill !== null) {
      const request = new HipoMintBill(mintBill.getBody());
      newBlock = new HipoStakeWithdrawalRequestBlock({
        source: addrAccount(request.owner !== null ? request.owner : burnTokens.owner),
        pool,
        // the tokens were burnt with the first request: nothing reaches the owner's wallet on this leg
        user_jetton_wallet: null,
        tokens_burnt: request.amount,
        // the parent travels on the bill
        asset: new Asset(false, request.parent !== null ? addrAccount(request.parent) : HIPO_PARENT_ADDRESS),
        bill: hipoFindBill(mintBill),
        previous_bill: settledBill,
      });
      newBlock.failed = block.failed;
    } else if (rollback !== null) {
      const returned = new HipoProxyRollbackUnstake(rollback.getBody());
      const rollbackUnstake = getLabeled('rollback_unstake', otherBlocks, CallContractBlock);
      newBlock = new HipoStakeWithdrawalBlock({
        source: addrAccount(returned.owner !== null ? returned.owner : burnTokens.owner),
        pool,
        user_jetton_wallet: rollbackUnstake !== null ? accountId(rollbackUnstake.getMessage().destination) : null,
        amount: null,
        tokens_burnt: returned.tokens,
        asset: new Asset(false, rollback.getMessage().destination),
        bill: settledBill,
      });
      newBlock.failed = true;
    } else {
      return [];
    }
    newBlock.mergeBlocks([block, ...otherBlocks]);
    return [newBlock];
  }
}

/** This family's matchers under upstream's class names (families/index.ts, matcher-order.ts). */
export const MATCHERS = {
  TONStakersDelayedWithdrawalMatcher: new TONStakersDelayedWithdrawalMatcher(),
  TONStakersDepositMatcher: new TONStakersDepositMatcher(),
  TONStakersWithdrawMatcher: new TONStakersWithdrawMatcher(),
  NominatorPoolDepositMatcher: new NominatorPoolDepositMatcher(),
  NominatorPoolWithdrawRequestMatcher: new NominatorPoolWithdrawRequestMatcher(),
  NominatorPoolWithdrawMatcher: new NominatorPoolWithdrawMatcher(),
  CoffeeStakingDepositMatcher: new CoffeeStakingDepositMatcher(),
  CoffeeStakingWithdrawMatcher: new CoffeeStakingWithdrawMatcher(),
  CoffeeStakingClaimRewardsMatcher: new CoffeeStakingClaimRewardsMatcher(),
  HipoDepositMatcher: new HipoDepositMatcher(),
  HipoCommentDepositMatcher: new HipoCommentDepositMatcher(),
  HipoUnstakeMatcher: new HipoUnstakeMatcher(),
  HipoRoundEndDepositMatcher: new HipoRoundEndDepositMatcher(),
  HipoRoundEndWithdrawalMatcher: new HipoRoundEndWithdrawalMatcher(),
};
