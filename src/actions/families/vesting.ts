/**
 * ↔ indexer/events/blocks/vesting.py (newer upstream): a vesting wallet's owner asks it to send a message, or its
 * creator adds whitelisted addresses; the vesting contract's answer is required. A send is successful only when the
 * vesting transaction really sent the message: the contract sends with "ignore errors", so a send the action phase
 * skipped leaves a successful transaction and no message.
 */
import { CallContractBlock } from '../basic-blocks.ts';
import type { VestingAddWhiteListData, VestingSendMessageData } from '../block-data.ts';
import { getLabeled } from '../block-utils.ts';
import { Block } from '../core.ts';
import { labeled } from '../labels.ts';
import { BlockMatcher, ContractMatcher } from '../matchers.ts';
import { addrAccount } from '../messages/common.ts';
import { VestingAddWhiteList, VestingSendMessage } from '../messages/vesting.ts';
import type { TraceTransaction } from '../model.ts';
import { cellFromBoc } from '../../contracts/index.ts';
import { accountId } from '../ton-utils.ts';

/** pytoniq's `Cell.to_boc()`: no index, no crc32c. */
const boc = (c: { toBoc(o: { idx: boolean; crc32: boolean }): Buffer }) => c.toBoc({ idx: false, crc32: false }).toString('base64');

/**
 * `_vesting_message_was_sent`: an out-message of the vesting transaction to the requested destination with the
 * requested body (the fields the validator rewrites are not compared; without a body hash, the value is).
 */
export function vestingMessageWasSent(tx: TraceTransaction, request: VestingSendMessage): boolean {
  const expected = addrAccount(request.messageDestination);
  for (const m of tx.outMsgs) {
    if (m.destination === null || accountId(m.destination) !== expected) continue;
    if (request.messageBodyHash === null) {
      if (m.value === request.messageValue) return true;
      continue;
    }
    if (!m.body) continue;
    const body = cellFromBoc(m.body);
    if (body !== null && body.hash().equals(request.messageBodyHash)) return true;
  }
  return false;
}

export class VestingSendMessageBlock extends Block<VestingSendMessageData> {
  constructor(data: VestingSendMessageData) {
    super('vesting_send_message', [], data);
  }
}

export class VestingAddWhiteListBlock extends Block<VestingAddWhiteListData> {
  constructor(data: VestingAddWhiteListData) {
    super('vesting_add_whitelist', [], data);
  }
}

export class VestingSendMessageBlockMatcher extends BlockMatcher {
  constructor() {
    super({ childMatcher: labeled('response', new ContractMatcher(VestingSendMessage.responseOpcode, { optional: false })) });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === VestingSendMessage.opcode;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const msg = block.getMessage();
    const request = new VestingSendMessage(block.getBody());
    const success = vestingMessageWasSent(msg.transaction, request);
    const include: Block[] = [block];
    const resp = getLabeled('response', otherBlocks, CallContractBlock);
    if (resp !== null) include.push(resp);
    const newBlock = new VestingSendMessageBlock({
      sender: accountId(msg.source),
      vesting: accountId(msg.destination),
      query_id: request.queryId,
      message_boc_str: boc(request.messageCell),
      message_destination: addrAccount(request.messageDestination),
      message_value: request.messageValue,
      success,
    });
    newBlock.mergeBlocks(include);
    return [newBlock];
  }
}

export class VestingAddWhiteListBlockMatcher extends BlockMatcher {
  constructor() {
    super({ childMatcher: labeled('response', new ContractMatcher(VestingAddWhiteList.responseOpcode, { optional: false })) });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === VestingAddWhiteList.opcode;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const msg = block.getMessage();
    const request = new VestingAddWhiteList(block.getBody());
    const include: Block[] = [block];
    const resp = getLabeled('response', otherBlocks, CallContractBlock);
    if (resp !== null) include.push(resp);
    const newBlock = new VestingAddWhiteListBlock({
      adder: accountId(msg.source),
      vesting: accountId(msg.destination),
      query_id: request.queryId,
      accounts_added: request.addresses.map(addrAccount),
    });
    newBlock.mergeBlocks(include);
    return [newBlock];
  }
}

/** This family's matchers under upstream's class names (families/index.ts, matcher-order.ts). */
export const MATCHERS = {
  VestingSendMessageBlockMatcher: new VestingSendMessageBlockMatcher(),
  VestingAddWhiteListBlockMatcher: new VestingAddWhiteListBlockMatcher(),
};
