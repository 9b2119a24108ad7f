/**
 * ↔ indexer/events/blocks/tgwallet.py, newest upstream (the "Tg wallet actions + w5 gasless" change): a Telegram
 * wallet (ton-blockchain/tg-wallet-contract) rotating its signing key. The request comes as an external
 * (0xfbba99c8) or, when a relayer pays the gas, as an internal message (0xfbba99c7); either body starts with the
 * 512-bit signature, and the call_contract block already carries the opcode read from behind it
 * (basic-blocks.ts). Any call with one of the two opcodes is a rotation: the action carries the generic columns
 * only (source: none for an external; destination; value) and the call's own failed flag. The earlier version's
 * checks (a `TgWallet` interface, the opcode matching the message kind, a storage change confirming a relayed
 * rotation) are gone upstream, so they are here.
 */
import { CallContractBlock } from '../basic-blocks.ts';
import { Block } from '../core.ts';
import { BlockMatcher } from '../matchers.ts';
import { TG_WALLET_CHANGE_PUBLIC_KEY_EXTERNAL, TG_WALLET_CHANGE_PUBLIC_KEY_INTERNAL } from '../messages/tgwallet.ts';
import type { AccountId, Amount } from '../ton-utils.ts';

const CHANGE_PUBLIC_KEY_OPCODES: ReadonlySet<number> = new Set([TG_WALLET_CHANGE_PUBLIC_KEY_INTERNAL, TG_WALLET_CHANGE_PUBLIC_KEY_EXTERNAL]);

export interface ChangeWalletKeyData {
  source: AccountId;
  destination: AccountId;
  value: Amount;
}

export class ChangeWalletKeyBlock extends Block<ChangeWalletKeyData> {
  constructor(data: ChangeWalletKeyData) {
    super('change_wallet_key', [], data);
  }
}

export class ChangeWalletKeyMatcher extends BlockMatcher {
  constructor() {
    super();
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode !== null && CHANGE_PUBLIC_KEY_OPCODES.has(block.opcode);
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const msg = block.getMessage();
    const newBlock = new ChangeWalletKeyBlock({
      // externals have no source
      source: msg.source,
      destination: msg.destination,
      value: (block as CallContractBlock).data.value,
    });
    newBlock.failed = block.failed;
    newBlock.mergeBlocks([block, ...otherBlocks]);
    return [newBlock];
  }
}

/** This family's matchers under upstream's class names (families/index.ts, matcher-order.ts). */
export const MATCHERS = {
  ChangeWalletKeyMatcher: new ChangeWalletKeyMatcher(),
};
