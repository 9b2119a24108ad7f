/**
 * ↔ indexer/events/blocks/jvault.py: JVault staking (stake, unstake, claim, unstake request), every branch, as the
 * version our test cases come from has it (the unstake carries the staked asset and the pool's JVault token):
 * - stake: a jetton transfer to the pool whose stake wallet receives it and either asks the pool to update the
 *   rewards (success, failed if that fails) or cancels (failed);
 * - unstake: the stake wallet asks the pool for the rewards update, the jettons come back; without that round trip
 *   (a refused unstake) the pool and assets come from the stake wallet's data, the exit code from its transaction;
 *   an unstake whose assets cannot be told is not reported;
 * - claim: the pool sends the claimed jettons back;
 * - unstake request: as unstake, without the payout; one that never reached the pool is failed.
 * The assets: the stake wallet's data names the pool and the JVault token's minter; the pool's extra data names
 * the lock wallet (whose jetton is the staked asset): toncenter's interface repository gives it as
 * `lock_wallet_address`; where a record lacks it (our pipeline), the pool's data is read (see `poolLockWallet`).
 */
import { Cell } from '@ton/core';
import { CallContractBlock, TonTransferBlock } from '../basic-blocks.ts';
import type { JettonTransferData } from '../block-data.ts';
import { getLabeled } from '../block-utils.ts';
import { interfaceRepository } from '../context.ts';
import type { InterfaceRepository } from '../interfaces.ts';
import { Block } from '../core.ts';
import { labeled } from '../labels.ts';
import { BlockMatcher, BlockTypeMatcher, ContractMatcher, OrMatcher, RecursiveMatcher } from '../matchers.ts';
import { addrAccount, addrStr } from '../messages/common.ts';
import {
  JVaultClaim, JVaultReceiveJettons, JVaultRequestUpdateReferrer, JVaultRequestUpdateRewards, JVaultSendClaimedRewards, JVaultSetData,
  JVaultStakeCancel, JVaultUnstakeJettons, JVaultUnstakeRequest, JVaultUpdateReferrer, JVaultUpdateRewards,
} from '../messages/jvault.ts';
import { accountId, Asset, type AccountId } from '../ton-utils.ts';
import { JettonTransferBlock } from './jettons.ts';

type Data = Record<string, unknown>;

/**
 * An account's extra data (`get_extra_data(a, 'data_boc')`): the data cell, and what toncenter's record adds to it
 * (`pool` for a stake wallet, `lock_wallet_address` for a pool); null when the repository has none for it.
 */
function extraDataBoc(repo: InterfaceRepository, address: string): Record<string, unknown> | null {
  const boc = repo.getExtraData(address, 'data_boc');
  if (typeof boc !== 'string') return null;
  const rec = repo.getInterfaces(address).data_boc;
  return { ...(rec !== null && typeof rec === 'object' ? (rec as Record<string, unknown>) : {}), data_boc: boc };
}

/**
 * The lock wallet of a staking pool. Toncenter's record carries it; else it is read from the pool's data:
 * `init:Bool index:uint32 collection:MsgAddress owner:MsgAddress lock_wallet:MsgAddress …` (the pool is an NFT
 * item of JVault's collection; the layout is the one toncenter's records agree with on every pool we have).
 */
export function poolLockWallet(extra: Record<string, unknown>): string {
  if (typeof extra.lock_wallet_address === 'string') return extra.lock_wallet_address;
  if (typeof extra.data_boc !== 'string') throw new Error("KeyError: 'lock_wallet_address'");
  const s = Cell.fromBase64(extra.data_boc).beginParse(true);
  s.skip(1 + 32);
  s.loadAddressAny();
  s.loadAddressAny();
  return addrStr(s.loadAddressAny());
}

/** `extract_jvault_assets`: (staking pool, staked asset, JVault token); all null when anything fails. */
export function extractJvaultAssets(repo: InterfaceRepository, stakeWallet: string): [AccountId, Asset | null, Asset | null] {
  try {
    const extra = extraDataBoc(repo, stakeWallet);
    if (extra === null) return [null, null, null];
    const s = Cell.fromBase64(extra.data_boc as string).beginParse(true);
    const pool = s.loadAddressAny();
    const minter = s.loadAddressAny();
    const poolExtra = extraDataBoc(repo, addrStr(pool));
    if (poolExtra === null) return [addrAccount(pool), null, new Asset(false, addrAccount(minter))];
    const lockWallet = repo.getJettonWallet(poolLockWallet(poolExtra));
    if (lockWallet === null) throw new TypeError("'NoneType' object has no attribute 'jetton'");
    return [addrAccount(pool), new Asset(false, lockWallet.jetton), new Asset(false, addrAccount(minter))];
  } catch {
    return [null, null, null];
  }
}

export class JVaultStakeBlock extends Block<Data> {
  constructor(data: Data) {
    super('jvault_stake', [], data);
  }
}
export class JVaultUnstakeBlock extends Block<Data> {
  constructor(data: Data) {
    super('jvault_unstake', [], data);
  }
}
export class JVaultClaimBlock extends Block<Data> {
  constructor(data: Data) {
    super('jvault_claim', [], data);
  }
}
export class JVaultUnstakeRequestBlock extends Block<Data> {
  constructor(data: Data) {
    super('jvault_unstake_request', [], data);
  }
}

/** The pool's referrer updates: request / update pairs, each with its excesses, any depth. */
function referralChain(): BlockMatcher {
  const sub = new RecursiveMatcher(
    new ContractMatcher(JVaultRequestUpdateReferrer.opcode, { includeExcess: true }),
    new ContractMatcher(JVaultUpdateReferrer.opcode, { includeExcess: true }),
  );
  sub.optional = true;
  const chain = new RecursiveMatcher(sub, null);
  chain.optional = true;
  return chain;
}
const updateWithExcesses = () => labeled('update_rewards_on_stake_wallet', new ContractMatcher(JVaultUpdateRewards.opcode, { includeExcess: true }));

/** jetton transfer -> receive_jettons (stake wallet) -> rewards update request, or the cancellation; set_data optional */
export class JVaultStakeBlockMatcher extends BlockMatcher {
  constructor() {
    const requestUpdate = labeled('request_update_rewards_from_pool', new ContractMatcher(JVaultRequestUpdateRewards.opcode, { childrenMatchers: [referralChain(), updateWithExcesses()] }));
    const cancellation = labeled('cancellation', new ContractMatcher(JVaultStakeCancel.opcode, { childMatcher: new BlockTypeMatcher('jetton_transfer', { optional: true }) }));
    const received = labeled('receive_stake_jettons_on_stake_wallet', new ContractMatcher(JVaultReceiveJettons.opcode, { childMatcher: new OrMatcher([requestUpdate, cancellation]) }));
    super({ childrenMatchers: [received, new ContractMatcher(JVaultSetData.opcode, { optional: true })] });
  }

  override testSelf(block: Block): boolean {
    return block instanceof JettonTransferBlock;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    if (!(block instanceof JettonTransferBlock)) return [];
    const receive = getLabeled('receive_stake_jettons_on_stake_wallet', otherBlocks);
    const cancellation = getLabeled('cancellation', otherBlocks, CallContractBlock);
    const requestUpdate = getLabeled('request_update_rewards_from_pool', otherBlocks);
    const d = block.data as JettonTransferData;
    const msg = block.jettonTransferMessage;
    const body = Cell.fromBoc(msg.forwardPayload!)[0].beginParse(true);
    body.loadUint(32); // op
    const period = body.loadUint(32);
    // upstream reads `receive_block.failed` before it checks the block is there
    if (receive === null) throw new TypeError("'NoneType' object has no attribute 'failed'");
    let failed = receive.failed;
    if (cancellation) failed = true;
    else if (requestUpdate) failed = failed || requestUpdate.failed;
    else return [];
    const newBlock = new JVaultStakeBlock({
      sender: d.sender,
      stake_wallet: accountId(receive.getMessage().destination),
      sender_wallet: d.sender_wallet,
      asset: d.asset,
      staking_pool: accountId(receive.getMessage().source),
      staked_amount: msg.amount,
      period,
    });
    newBlock.failed = failed;
    newBlock.mergeBlocks([block, ...otherBlocks]);
    return [newBlock];
  }
}

/** unstake_jettons -> (rewards update request -> referrals, fee, the jettons back, the update) */
export class JVaultUnstakeBlockMatcher extends BlockMatcher {
  constructor() {
    super({
      childMatcher: labeled('request_update_rewards_from_pool', new ContractMatcher(JVaultRequestUpdateRewards.opcode, {
        optional: true,
        childrenMatchers: [
          referralChain(),
          labeled('unstake_fee', new BlockTypeMatcher('ton_transfer', { optional: true })),
          labeled('withdraw_unstaked_jettons', new BlockTypeMatcher('jetton_transfer')),
          updateWithExcesses(),
        ],
      })),
    });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === JVaultUnstakeJettons.opcode;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const transfer = getLabeled('withdraw_unstaked_jettons', otherBlocks, JettonTransferBlock);
    const request = getLabeled('request_update_rewards_from_pool', otherBlocks);
    const fee = getLabeled('unstake_fee', otherBlocks, TonTransferBlock);
    const msg = block.getMessage();
    const info = new JVaultUnstakeJettons(block.getBody());
    const stakeWallet = msg.destination!;
    const [pool, asset, jvaultAsset] = extractJvaultAssets(interfaceRepository(block), stakeWallet);
    if (pool === null || asset === null) return [];
    let data: Data;
    if (!request || !transfer) {
      data = {
        sender: accountId(msg.source), stake_wallet: accountId(stakeWallet), staking_pool: pool, unstaked_amount: info.jettonsToUnstake,
        unstake_fee_taken: null, asset, jvault_asset: jvaultAsset, exit_code: msg.transaction.computeExitCode,
      };
    } else {
      const transferAsset = (transfer.data as JettonTransferData).asset;
      if (!asset.equals(transferAsset)) throw new Error(`Assets do not match: ${asset.toJson()} != ${transferAsset?.toJson() ?? 'None'}`);
      data = {
        sender: accountId(msg.source), stake_wallet: accountId(stakeWallet), staking_pool: accountId(request.getMessage().destination),
        unstaked_amount: info.jettonsToUnstake, unstake_fee_taken: fee ? fee.getMessage().value : 0n, asset: transferAsset, jvault_asset: jvaultAsset,
        exit_code: null,
      };
    }
    const newBlock = new JVaultUnstakeBlock(data);
    newBlock.mergeBlocks([block, ...otherBlocks]);
    return [newBlock];
  }
}

/** claim_rewards -> send_claimed_rewards (pool) -> the jettons and the rewards update */
export class JVaultClaimBlockMatcher extends BlockMatcher {
  constructor() {
    super({
      childMatcher: labeled('send_claimed_rewards', new ContractMatcher(JVaultSendClaimedRewards.opcode, {
        childrenMatchers: [labeled('withdraw_claimed_jettons', new BlockTypeMatcher('jetton_transfer')), updateWithExcesses()],
      })),
    });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === JVaultClaim.opcode;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const withdrawal = getLabeled('withdraw_claimed_jettons', otherBlocks, JettonTransferBlock);
    const send = getLabeled('send_claimed_rewards', otherBlocks, CallContractBlock);
    const msg = block.getMessage();
    const info = new JVaultClaim(block.getBody());
    if (!withdrawal || !send) return [];
    const newBlock = new JVaultClaimBlock({
      sender: accountId(msg.source),
      stake_wallet: accountId(msg.destination),
      staking_pool: accountId(send.getMessage().destination),
      claimed_jettons: info.jettonsToClaim.map((a) => addrAccount(a)),
      claimed_amounts: [withdrawal.jettonTransferMessage.amount],
    });
    newBlock.mergeBlocks([block, ...otherBlocks]);
    return [newBlock];
  }
}

/** unstake_request -> (rewards update request -> referrals and the update) */
export class JVaultUnstakeRequestBlockMatcher extends BlockMatcher {
  constructor() {
    super({
      childMatcher: labeled('request_update_rewards_from_pool', new ContractMatcher(JVaultRequestUpdateRewards.opcode, {
        optional: true,
        childrenMatchers: [referralChain(), updateWithExcesses()],
      })),
    });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === JVaultUnstakeRequest.opcode;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const request = getLabeled('request_update_rewards_from_pool', otherBlocks);
    const msg = block.getMessage();
    const info = new JVaultUnstakeRequest(block.getBody());
    const stakeWallet = msg.destination!;
    let newBlock: JVaultUnstakeRequestBlock;
    if (!request) {
      // the request never reached the pool: pool and assets from the stake wallet's data, or nothing is reported
      const [pool, asset, jvaultAsset] = extractJvaultAssets(interfaceRepository(block), stakeWallet);
      if (pool === null || asset === null) return [];
      newBlock = new JVaultUnstakeRequestBlock({
        sender: accountId(msg.source), stake_wallet: accountId(stakeWallet), staking_pool: pool, requested_amount: info.jettonsToUnstake,
        asset, jvault_asset: jvaultAsset, exit_code: msg.transaction.computeExitCode,
      });
      newBlock.failed = true;
    } else {
      const [, asset, jvaultAsset] = extractJvaultAssets(interfaceRepository(block), stakeWallet);
      newBlock = new JVaultUnstakeRequestBlock({
        sender: accountId(msg.source), stake_wallet: accountId(stakeWallet), staking_pool: accountId(request.getMessage().destination),
        requested_amount: info.jettonsToUnstake, asset, jvault_asset: jvaultAsset, exit_code: null,
      });
      newBlock.failed = block.failed || request.failed;
    }
    newBlock.mergeBlocks([block, ...otherBlocks]);
    return [newBlock];
  }
}

/** This family's matchers under upstream's class names (families/index.ts, matcher-order.ts). */
export const MATCHERS = {
  JVaultStakeBlockMatcher: new JVaultStakeBlockMatcher(),
  JVaultUnstakeBlockMatcher: new JVaultUnstakeBlockMatcher(),
  JVaultClaimBlockMatcher: new JVaultClaimBlockMatcher(),
  JVaultUnstakeRequestBlockMatcher: new JVaultUnstakeRequestBlockMatcher(),
};
