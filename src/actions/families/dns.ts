/**
 * ↔ indexer/events/blocks/dns.py: change_dns_record (0x4eb1f0f9) to a DNS item, with its bounce. One opcode, three
 * outcomes: a record value -> change_dns, no value and the zero key -> renew_dns, no value otherwise -> delete_dns.
 * The collection comes from the item's record when the repository knows the item.
 */
import { CallContractBlock } from '../basic-blocks.ts';
import type { ChangeDnsRecordData, DeleteDnsRecordData, DnsRenewData } from '../block-data.ts';
import { interfaceRepository } from '../context.ts';
import { Block } from '../core.ts';
import { BlockMatcher, BOUNCE_OPCODE, ContractMatcher } from '../matchers.ts';
import { ChangeDnsRecordMessage } from '../messages/dns.ts';
import { accountId } from '../ton-utils.ts';

const ZERO_KEY = Buffer.alloc(32);

export class ChangeDnsRecordBlock extends Block<ChangeDnsRecordData> {
  constructor(data: ChangeDnsRecordData) {
    super('change_dns', [], data);
  }
}

export class DnsRenewBlock extends Block<DnsRenewData> {
  constructor(data: DnsRenewData) {
    super('renew_dns', [], data);
  }
}

export class DeleteDnsRecordBlock extends Block<DeleteDnsRecordData> {
  constructor(data: DeleteDnsRecordData) {
    super('delete_dns', [], data);
  }
}

/** `build_change_dns_core`: the block for the message (not merged: the caller merges). */
export function buildChangeDnsCore(dnsBlock: Block): Block {
  const msg = new ChangeDnsRecordMessage(dnsBlock.getBody());
  const sender = dnsBlock.eventNodes[0].message.source;
  const destination = dnsBlock.eventNodes[0].message.destination;
  const item = interfaceRepository(dnsBlock).getNftItem(destination);
  const source = sender !== null ? accountId(sender) : null;
  let newBlock: Block;
  if (msg.hasValue) {
    newBlock = new ChangeDnsRecordBlock({ source, destination: accountId(destination), key: msg.key, value: msg.value as ChangeDnsRecordData['value'], collection_address: undefined });
  } else if (msg.key.equals(ZERO_KEY)) {
    newBlock = new DnsRenewBlock({ source, destination: accountId(destination), collection_address: undefined });
  } else {
    newBlock = new DeleteDnsRecordBlock({ source, destination: accountId(destination), key: msg.key, collection_address: undefined });
  }
  if (item !== null) (newBlock.data as { collection_address: unknown }).collection_address = accountId(item.collection_address);
  newBlock.failed = dnsBlock.failed;
  return newBlock;
}

export class ChangeDnsRecordMatcher extends BlockMatcher {
  constructor() {
    super({ childMatcher: new ContractMatcher(BOUNCE_OPCODE, { optional: true, includeExcess: false }) });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === ChangeDnsRecordMessage.opcode;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const newBlock = buildChangeDnsCore(block);
    newBlock.mergeBlocks([block, ...otherBlocks]);
    return [newBlock];
  }
}

/** This family's matchers under upstream's class names (families/index.ts, matcher-order.ts). */
export const MATCHERS = {
  ChangeDnsRecordMatcher: new ChangeDnsRecordMatcher(),
};
