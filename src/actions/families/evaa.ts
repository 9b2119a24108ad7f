/**
 * ↔ indexer/events/blocks/evaa.py (newest version read, its shared "core" builders): EVAA lending.
 * - supply: TON (supply_master call) or a jetton transfer whose forward payload is a supply_master; then the
 *   master's supply_user to the user contract and one outcome: supply_success, supply_fail, or the jettons sent
 *   back. No outcome yet: no action. The amount is the one supply_success reports.
 * - withdraw: withdraw_master -> withdraw_user -> collateralized (paid out in TON or jettons, and the user
 *   contract updated), collateralized but the master had no funds (withdraw_fail -> no-funds excess), or one of
 *   four refusals by the user contract (locked, not collateralized, prices missing, crashed).
 * - liquidate: liquidate_master (TON, or a jetton transfer carrying it) rejected at once (bounced / jettons sent
 *   back), or liquidate_user -> satisfied (success, or the master lacked liquidity) / unsatisfied (with its error).
 * Messages to a user contract start with a user header, so their matchers read the opcode after it.
 */
import { CallContractBlock, TonTransferBlock } from '../basic-blocks.ts';
import { getLabeled } from '../block-utils.ts';
import type { EvaaLiquidateData, EvaaSupplyData, EvaaWithdrawData, JettonTransferData } from '../block-data.ts';
import { Block } from '../core.ts';
import { labeled } from '../labels.ts';
import { BlockMatcher, BlockTypeMatcher, ContractMatcher, ExclusiveOrMatcher, GenericMatcher, type MatcherOptions, OrMatcher } from '../matchers.ts';
import { addrAccount } from '../messages/common.ts';
import {
  EVAA_ACTION_COMMENTS, EvaaLiquidateFail, EvaaLiquidateMaster, EvaaLiquidateSatisfied, EvaaLiquidateSuccess, EvaaLiquidateSuccessReport,
  EvaaLiquidateUnsatisfied, EvaaLiquidateUser, EvaaSupplyFail, EvaaSupplyJettonForwardMessage, EvaaSupplyMaster, EvaaSupplySuccess, EvaaSupplyUser,
  EvaaWithdrawCollateralized, EvaaWithdrawFail, EvaaWithdrawFailExcess, EvaaWithdrawMaster, EvaaWithdrawNoFundsExcess, EvaaWithdrawSuccess,
  EvaaWithdrawUser, loadUserHeader, TON_ASSET_ID,
} from '../messages/evaa.ts';
import { cellFromBoc } from '../../contracts/index.ts';
import { accountId, Asset, type AccountId } from '../ton-utils.ts';
import { JettonTransferBlock } from './jettons.ts';

export class EvaaSupplyBlock extends Block<EvaaSupplyData> {
  constructor(data: EvaaSupplyData) {
    super('evaa_supply', [], data);
  }
}

export class EvaaWithdrawBlock extends Block<EvaaWithdrawData> {
  constructor(data: EvaaWithdrawData) {
    super('evaa_withdraw', [], data);
  }
}

export class EvaaLiquidateBlock extends Block<EvaaLiquidateData> {
  constructor(data: EvaaLiquidateData) {
    super('evaa_liquidate', [], data);
  }
}

/** The comment EVAA sends its users with a result (optional wherever it may follow). */
const evaaActionCommentMatcher = new GenericMatcher(
  (b) => b instanceof TonTransferBlock && b.comment !== null && EVAA_ACTION_COMMENTS.includes(b.comment),
  { optional: true },
);

/** A call to a user contract with this opcode after the user header (a body that does not read does not match). */
export class EvaaContractWithHeaderMatcher extends ContractMatcher {
  constructor(opcode: number, opts: Omit<MatcherOptions, 'includeBounces' | 'preBuildAutoAppend'> = {}) {
    super(opcode, opts);
  }

  override testSelf(block: Block): boolean {
    if (!(block instanceof CallContractBlock)) return false;
    try {
      const body = block.getBody();
      loadUserHeader(body);
      return body.loadUint(32) >>> 0 === this.opcode;
    } catch {
      return false;
    }
  }
}

const jt = (b: Block) => b.data as JettonTransferData;

/** The opcode of a jetton transfer's forward payload (false when there is none or it does not read). */
function payloadOpcodeIs(block: Block, opcode: number): boolean {
  try {
    const p = jt(block).forward_payload;
    if (!p) return false;
    const c = cellFromBoc(p);
    if (c === null) return false;
    return c.beginParse().loadUint(32) >>> 0 === opcode;
  } catch {
    return false;
  }
}

/** `build_evaa_supply_core`: null rejects the match. */
function buildEvaaSupplyCore(
  block: Block, supplyUser: CallContractBlock | null, success: CallContractBlock | null, fail: CallContractBlock | null, jettonReturn: Block | null, siblings: Block[],
): EvaaSupplyData | null {
  const isTon = block.btype === 'call_contract';
  let sender: AccountId;
  let amount: bigint | null;
  let senderJettonWallet: AccountId = null;
  let recipient: AccountId;
  let recipientJettonWallet: AccountId = null;
  let masterJettonWallet: AccountId = null;
  let master: AccountId;
  let asset: Asset | null = new Asset(true);
  if (isTon) {
    const msg = block.getMessage();
    sender = accountId(msg.source);
    const m = new EvaaSupplyMaster(block.getBody());
    amount = m.supplyAmount;
    recipient = addrAccount(m.recipientAddress);
    master = accountId(msg.destination);
  } else {
    const d = jt(block);
    sender = d.sender;
    senderJettonWallet = d.sender_wallet;
    masterJettonWallet = d.receiver_wallet ?? null;
    amount = d.amount;
    master = d.receiver;
    asset = d.asset;
    if (!d.forward_payload) return null;
    const payload = cellFromBoc(d.forward_payload);
    if (payload === null) throw new Error('forward payload is not a BoC');
    recipient = addrAccount(new EvaaSupplyJettonForwardMessage(payload.beginParse()).recipientAddress);
    if (sender === recipient) {
      recipientJettonWallet = senderJettonWallet;
    } else {
      // supplying on someone else's behalf: their wallet is the one the master's wallet sends to
      for (const other of siblings) {
        if (other.btype === 'jetton_transfer' && jt(other).sender_wallet === masterJettonWallet) {
          recipientJettonWallet = jt(other).receiver_wallet ?? null;
          break;
        }
      }
    }
  }
  if (supplyUser === null) return null;
  const recipientContract = accountId(supplyUser.getMessage().destination);
  const body = supplyUser.getBody();
  loadUserHeader(body);
  const assetId = new EvaaSupplyUser(body).assetId;
  if (success !== null) {
    amount = new EvaaSupplySuccess(success.getBody()).amountSupplied;
  } else if (fail === null && jettonReturn === null) {
    return null; // no outcome yet
  }
  return {
    sender, recipient, recipient_contract: recipientContract, amount, is_success: success !== null, is_ton: isTon, asset_id: assetId,
    recipient_jetton_wallet: recipientJettonWallet, master_jetton_wallet: masterJettonWallet, sender_jetton_wallet: senderJettonWallet, master, asset,
  };
}

export class EvaaSupplyBlockMatcher extends BlockMatcher {
  constructor() {
    const success = labeled('supply_success', new ContractMatcher(EvaaSupplySuccess.opcode, { optional: false, childMatcher: evaaActionCommentMatcher }));
    const fail = labeled('supply_fail', new ContractMatcher(EvaaSupplyFail.opcode, { optional: false }));
    const refund = labeled('jetton_return', new BlockTypeMatcher('jetton_transfer', { optional: false }));
    const user = labeled('supply_user', new EvaaContractWithHeaderMatcher(EvaaSupplyUser.opcode, {
      optional: false,
      childMatcher: new OrMatcher([success, fail, refund]),
    }));
    super({ childMatcher: user });
  }

  override testSelf(block: Block): boolean {
    if (block instanceof CallContractBlock && block.opcode === EvaaSupplyMaster.opcode) return true;
    if (block instanceof JettonTransferBlock) return payloadOpcodeIs(block, EvaaSupplyMaster.opcode);
    return false;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const data = buildEvaaSupplyCore(
      block,
      getLabeled('supply_user', otherBlocks, CallContractBlock),
      getLabeled('supply_success', otherBlocks, CallContractBlock),
      getLabeled('supply_fail', otherBlocks, CallContractBlock),
      getLabeled('jetton_return', otherBlocks, JettonTransferBlock),
      otherBlocks,
    );
    if (data === null) return [];
    const newBlock = new EvaaSupplyBlock(data);
    newBlock.mergeBlocks([block, ...otherBlocks]);
    return [newBlock];
  }
}

/** `build_evaa_withdraw_core`: null rejects the match. */
function buildEvaaWithdrawCore(
  block: Block, withdrawUser: Block | null, collateralizedSuccess: Block | null, tonPayout: Block | null, jettonPayout: Block | null,
  collateralizedFail: Block | null, failOnUser: Block | null,
): EvaaWithdrawBlock | null {
  const msg = block.getMessage();
  const owner = accountId(msg.source);
  const master = accountId(msg.destination);
  const m = new EvaaWithdrawMaster(block.getBody());
  const assetId = m.assetId;
  const desiredAmount = m.amount;
  const recipient = addrAccount(m.recipientAddress);
  const isTon = assetId === TON_ASSET_ID;
  if (withdrawUser === null) return null;
  const ownerContract = accountId(withdrawUser.getMessage().destination);
  const base = { owner, owner_contract: ownerContract, recipient, asset_id: assetId, is_ton: isTon, master };
  if (collateralizedSuccess !== null) {
    const amount = new EvaaWithdrawCollateralized(collateralizedSuccess.getBody()).withdrawAmountCurrent;
    let asset: Asset | null;
    let recipientJettonWallet: AccountId = null;
    let masterJettonWallet: AccountId = null;
    if (isTon) {
      asset = new Asset(true);
      if (tonPayout === null) return null;
    } else {
      if (jettonPayout === null) return null;
      asset = jt(jettonPayout).asset;
      recipientJettonWallet = jt(jettonPayout).receiver_wallet ?? null;
      masterJettonWallet = jt(jettonPayout).sender_wallet;
    }
    return new EvaaWithdrawBlock({
      ...base, amount, is_success: true, recipient_jetton_wallet: recipientJettonWallet, master_jetton_wallet: masterJettonWallet, asset, fail_reason: null,
    });
  }
  const failed = (reason: string): EvaaWithdrawBlock => new EvaaWithdrawBlock({
    ...base, amount: desiredAmount, is_success: false, fail_reason: reason, recipient_jetton_wallet: null, master_jetton_wallet: null, asset: null,
  });
  if (collateralizedFail !== null) return failed(EvaaWithdrawNoFundsExcess.reason);
  if (failOnUser !== null) return failed(new EvaaWithdrawFailExcess(failOnUser.getBody()).reason);
  return null;
}

export class EvaaWithdrawBlockMatcher extends BlockMatcher {
  constructor() {
    const jettonPayout = labeled('jetton_payout', new BlockTypeMatcher('jetton_transfer', { optional: false }));
    const tonPayout = labeled('ton_payout', new ContractMatcher(EvaaWithdrawSuccess.opcode, { optional: false, childMatcher: evaaActionCommentMatcher }));
    const payout = new ExclusiveOrMatcher([jettonPayout, tonPayout]);
    // the same opcode pays the user out and updates the user contract
    const success = labeled('withdraw_success', new EvaaContractWithHeaderMatcher(EvaaWithdrawSuccess.opcode, {
      optional: false,
      childMatcher: new BlockTypeMatcher('ton_transfer'),
    }));
    const collateralizedSuccess = labeled('withdraw_collateralized_success', new ContractMatcher(EvaaWithdrawCollateralized.opcode, {
      optional: false,
      childrenMatchers: [payout, success],
    }));
    const failNoFunds = labeled('withdraw_fail_no_funds', new EvaaContractWithHeaderMatcher(EvaaWithdrawFail.opcode, {
      optional: false,
      childMatcher: labeled('withdraw_no_funds_excess', new ContractMatcher(EvaaWithdrawNoFundsExcess.opcode, { optional: false })),
    }));
    const collateralizedFail = labeled('withdraw_collateralized_fail', new ContractMatcher(EvaaWithdrawCollateralized.opcode, {
      optional: false,
      childMatcher: failNoFunds,
    }));
    const failOnUser = labeled('withdraw_fail_on_user_excesses', new GenericMatcher(
      (b) => b instanceof CallContractBlock && b.opcode !== null && EvaaWithdrawFailExcess.opcodes.includes(b.opcode),
      { optional: false },
    ));
    const user = labeled('withdraw_on_user', new EvaaContractWithHeaderMatcher(EvaaWithdrawUser.opcode, {
      optional: false,
      childMatcher: new ExclusiveOrMatcher([collateralizedSuccess, collateralizedFail, failOnUser]),
    }));
    super({ childMatcher: user });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === EvaaWithdrawMaster.opcode;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const newBlock = buildEvaaWithdrawCore(
      block,
      getLabeled('withdraw_on_user', otherBlocks, CallContractBlock),
      getLabeled('withdraw_collateralized_success', otherBlocks, CallContractBlock),
      getLabeled('ton_payout', otherBlocks, CallContractBlock),
      getLabeled('jetton_payout', otherBlocks, JettonTransferBlock),
      getLabeled('withdraw_collateralized_fail', otherBlocks, CallContractBlock),
      getLabeled('withdraw_fail_on_user_excesses', otherBlocks, CallContractBlock),
    );
    if (newBlock === null) return [];
    newBlock.mergeBlocks([block, ...otherBlocks]);
    return [newBlock];
  }
}

export class EvaaLiquidateBlockMatcher extends BlockMatcher {
  constructor() {
    // rejected by the master at once: TON bounces, jettons are sent back
    const immediateFailRefund = labeled('immediate_fail_refund', new ExclusiveOrMatcher([
      new GenericMatcher((b) => b instanceof CallContractBlock && b.getMessage().bounced === true),
      new BlockTypeMatcher('jetton_transfer', { optional: false }),
    ]));
    // TON: a report (success or fail) to the liquidator; jettons: just the transfer
    const finish = labeled('finish_with_tokens_and_report', new ExclusiveOrMatcher([
      new GenericMatcher((b) => b instanceof CallContractBlock && b.opcode !== null && ([EvaaLiquidateSuccessReport.opcode, EvaaLiquidateFail.opcode] as number[]).includes(b.opcode)),
      new BlockTypeMatcher('jetton_transfer', { optional: false }),
    ]));
    const satisfiedSuccess = labeled('liquidate_satisfied_and_success', new ContractMatcher(EvaaLiquidateSatisfied.opcode, {
      optional: false,
      childrenMatchers: [new EvaaContractWithHeaderMatcher(EvaaLiquidateSuccess.opcode, { optional: false, childMatcher: evaaActionCommentMatcher }), finish],
    }));
    const satisfiedFail = labeled('liquidate_satisfied_and_fail', new ContractMatcher(EvaaLiquidateSatisfied.opcode, {
      optional: false,
      childrenMatchers: [new ContractMatcher(EvaaLiquidateFail.opcode, { optional: false }), finish],
    }));
    const unsatisfied = labeled('liquidate_unsatisfied', new ContractMatcher(EvaaLiquidateUnsatisfied.opcode, { optional: false, childMatcher: finish }));
    const user = labeled('liquidate_user', new EvaaContractWithHeaderMatcher(EvaaLiquidateUser.opcode, {
      optional: false,
      childMatcher: new ExclusiveOrMatcher([satisfiedSuccess, satisfiedFail, unsatisfied]),
    }));
    super({ childMatcher: new ExclusiveOrMatcher([user, immediateFailRefund]) });
  }

  override testSelf(block: Block): boolean {
    if (block instanceof CallContractBlock && block.opcode === EvaaLiquidateMaster.opcode) return true;
    if (block instanceof JettonTransferBlock) return payloadOpcodeIs(block, EvaaLiquidateMaster.opcode);
    return false;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const isTon = block instanceof CallContractBlock;
    let liquidator: AccountId;
    let master: EvaaLiquidateMaster;
    let transferredAssetId: bigint | string | null;
    if (isTon) {
      liquidator = accountId(block.getMessage().source);
      master = new EvaaLiquidateMaster(block.getBody());
      transferredAssetId = TON_ASSET_ID;
    } else {
      const d = jt(block);
      liquidator = d.sender;
      if (!d.forward_payload) return [];
      const payload = cellFromBoc(d.forward_payload);
      if (payload === null) throw new Error('forward payload is not a BoC');
      master = new EvaaLiquidateMaster(payload.beginParse());
      // upstream keeps the receiving wallet's address here (an account, not an asset id); it is not serialised
      if (d.receiver_wallet === undefined || d.receiver_wallet === null) throw new TypeError("'NoneType' object has no attribute 'address'");
      transferredAssetId = d.receiver_wallet;
    }
    const liquidateAmount = master.liquidateIncomingAmount;
    const borrower = addrAccount(master.borrowerAddress);
    const collateralAssetId = master.collateralAssetId;
    const userBlock = getLabeled('liquidate_user', otherBlocks, CallContractBlock);
    const data = (over: Partial<EvaaLiquidateData> & Pick<EvaaLiquidateData, 'is_success'>): EvaaLiquidateData => ({
      liquidator, borrower, borrower_contract: null, collateral_asset_id: collateralAssetId, collateral_amount: 0n,
      debt_asset_id: transferredAssetId, debt_amount: liquidateAmount, fail_reason: null, ...over,
    });
    const finish = (d: EvaaLiquidateData): Block[] => {
      const newBlock = new EvaaLiquidateBlock(d);
      newBlock.mergeBlocks([block, ...otherBlocks]);
      return [newBlock];
    };
    if (userBlock === null) {
      // early rejection on the master
      if (getLabeled('immediate_fail_refund', otherBlocks) === null) return [];
      return finish(data({ is_success: false, fail_reason: 'immediate_rejection' }));
    }
    const borrowerContract = accountId(userBlock.getMessage().destination);
    const satisfiedSuccess = getLabeled('liquidate_satisfied_and_success', otherBlocks);
    const satisfiedFail = getLabeled('liquidate_satisfied_and_fail', otherBlocks);
    const unsatisfied = getLabeled('liquidate_unsatisfied', otherBlocks);
    if (satisfiedSuccess !== null) {
      const s = new EvaaLiquidateSatisfied(satisfiedSuccess.getBody());
      return finish(data({
        borrower: addrAccount(s.ownerAddress), borrower_contract: borrowerContract, collateral_asset_id: s.collateralAssetId,
        collateral_amount: s.collateralReward, debt_asset_id: s.transferredAssetId, debt_amount: s.liquidatableAmount, is_success: true,
      }));
    }
    if (unsatisfied !== null) {
      const u = new EvaaLiquidateUnsatisfied(unsatisfied.getBody());
      return finish(data({ borrower_contract: borrowerContract, is_success: false, fail_reason: u.errorReason() }));
    }
    if (satisfiedFail !== null) {
      return finish(data({ borrower_contract: borrowerContract, is_success: false, fail_reason: 'master_not_enough_liquidity' }));
    }
    return []; // liquidation in progress
  }
}

export const MATCHERS = {
  EvaaSupplyBlockMatcher: new EvaaSupplyBlockMatcher(),
  EvaaWithdrawBlockMatcher: new EvaaWithdrawBlockMatcher(),
  EvaaLiquidateBlockMatcher: new EvaaLiquidateBlockMatcher(),
};
