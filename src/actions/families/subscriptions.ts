/**
 * ↔ indexer/events/blocks/subscriptions.py: wallet v4 subscriptions. A payment (wallet -> plugin, 0xf06c7567) that
 * the plugin forwards to the beneficiary (0x73756273, required), after the plugin's request (0x706c7567, optional;
 * its amount and failure win); an unsubscription (0x64737472), the beneficiary taken from its answer when there is one.
 */
import { CallContractBlock } from '../basic-blocks.ts';
import type { SubscriptionData, UnsubscribeData } from '../block-data.ts';
import { findCallContract } from '../block-utils.ts';
import { Block } from '../core.ts';
import { BlockMatcher, ContractMatcher } from '../matchers.ts';
import { SubscriptionPayment, SubscriptionPaymentRequest, SubscriptionPaymentRequestResponse, WalletPluginDestruct } from '../messages/subscriptions.ts';
import { accountId } from '../ton-utils.ts';

export class SubscriptionBlock extends Block<SubscriptionData> {
  constructor(data: SubscriptionData) {
    super('subscribe', [], data);
  }
}

export class UnsubscribeBlock extends Block<UnsubscribeData> {
  constructor(data: UnsubscribeData) {
    super('unsubscribe', [], data);
  }
}

export class SubscriptionBlockMatcher extends BlockMatcher {
  constructor() {
    super({
      childMatcher: new ContractMatcher(SubscriptionPayment.opcode),
      parentMatcher: new ContractMatcher(SubscriptionPaymentRequest.opcode, { optional: true }),
    });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === SubscriptionPaymentRequestResponse.opcode;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const msg = block.getMessage();
    let amount = msg.value;
    let failed = false;
    const payment = findCallContract(otherBlocks, SubscriptionPayment.opcode);
    if (payment === null) throw new TypeError("'NoneType' object has no attribute 'get_message'");
    const request = findCallContract(otherBlocks, SubscriptionPaymentRequest.opcode);
    if (request !== null) {
      amount = new SubscriptionPaymentRequest(request.getBody()).grams;
      failed = request.failed;
    }
    const newBlock = new SubscriptionBlock({
      subscriber: accountId(msg.source),
      subscription: accountId(msg.destination),
      beneficiary: accountId(payment.getMessage().destination),
      amount,
    });
    newBlock.failed = failed;
    newBlock.mergeBlocks([block, ...otherBlocks]);
    return [newBlock];
  }
}

export class UnsubscribeBlockMatcher extends BlockMatcher {
  constructor() {
    super({ childMatcher: new ContractMatcher(WalletPluginDestruct.opcode, { optional: true }) });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === WalletPluginDestruct.opcode;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const msg = block.getMessage();
    const data: UnsubscribeData = { subscriber: accountId(msg.source), subscription: accountId(msg.destination), beneficiary: null };
    const response = findCallContract(otherBlocks, WalletPluginDestruct.opcode);
    if (response !== null) data.beneficiary = accountId(response.getMessage().destination);
    const newBlock = new UnsubscribeBlock(data);
    newBlock.mergeBlocks([block, ...otherBlocks]);
    return [newBlock];
  }
}

/** This family's matchers under upstream's class names (families/index.ts, matcher-order.ts). */
export const MATCHERS = {
  SubscriptionBlockMatcher: new SubscriptionBlockMatcher(),
  UnsubscribeBlockMatcher: new UnsubscribeBlockMatcher(),
};
