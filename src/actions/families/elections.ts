/**
 * ↔ indexer/events/blocks/elections.py: a stake sent to the elector (0x4e73744b) and its confirmation (0xf374484c),
 * a stake recovery (0x47657424) and its response with the amount (0xf96f7324). Without the answer the action is
 * failed (a recovery then carries no amount).
 */
import { CallContractBlock } from '../basic-blocks.ts';
import type { ElectionData } from '../block-data.ts';
import { findCallContract } from '../block-utils.ts';
import { Block } from '../core.ts';
import { BlockMatcher, ContractMatcher } from '../matchers.ts';
import { accountId } from '../ton-utils.ts';

const DEPOSIT_OPCODE = 0x4e73744b;
const DEPOSIT_CONFIRMATION_OPCODE = 0xf374484c;
const RECOVER_OPCODE = 0x47657424;
const RECOVER_RESPONSE_OPCODE = 0xf96f7324;

export class ElectionDepositStakeBlock extends Block<ElectionData> {
  constructor(data: ElectionData) {
    super('election_deposit', [], data);
  }
}

export class ElectionRecoverStakeBlock extends Block<ElectionData> {
  constructor(data: ElectionData) {
    super('election_recover', [], data);
  }
}

export class ElectionDepositStakeBlockMatcher extends BlockMatcher {
  constructor() {
    super({ childMatcher: new ContractMatcher(DEPOSIT_CONFIRMATION_OPCODE, { optional: true, includeExcess: false }), includeExcess: false });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === DEPOSIT_OPCODE;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const msg = block.eventNodes[0].message;
    const newBlock = new ElectionDepositStakeBlock({ amount: msg.value, stake_holder: accountId(msg.source) });
    newBlock.failed = findCallContract(otherBlocks, DEPOSIT_CONFIRMATION_OPCODE) === null;
    newBlock.mergeBlocks([block, ...otherBlocks]);
    return [newBlock];
  }
}

export class ElectionRecoverStakeBlockMatcher extends BlockMatcher {
  constructor() {
    super({ childMatcher: new ContractMatcher(RECOVER_RESPONSE_OPCODE, { optional: true, includeExcess: false }), includeExcess: false });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === RECOVER_OPCODE;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const data: ElectionData = { stake_holder: accountId(block.eventNodes[0].message.source) };
    const response = findCallContract(otherBlocks, RECOVER_RESPONSE_OPCODE);
    let failed = false;
    if (response !== null) data.amount = response.eventNodes[0].message.value;
    else failed = true;
    const newBlock = new ElectionRecoverStakeBlock(data);
    newBlock.failed = failed;
    newBlock.mergeBlocks([block, ...otherBlocks]);
    return [newBlock];
  }
}

/** This family's matchers under upstream's class names (families/index.ts, matcher-order.ts). */
export const MATCHERS = {
  ElectionDepositStakeBlockMatcher: new ElectionDepositStakeBlockMatcher(),
  ElectionRecoverStakeBlockMatcher: new ElectionRecoverStakeBlockMatcher(),
};
