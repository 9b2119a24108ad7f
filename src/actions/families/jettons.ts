/**
 * ↔ indexer/events/blocks/jettons.py: jetton transfer (and pTON's), burn, mint, and the transfer a failed wallet
 * external only intended. Every condition and outcome of upstream's matchers is kept, including its quirks:
 * - a transfer whose receiving wallet is not a known jetton wallet builds nothing (`[]`, which still counts as a
 *   match for a matcher using this one as a child);
 * - the receiver is the receiving wallet's owner; upstream compares that owner (raw, upper-case) with the
 *   message's destination rendered raw lower-case, so the transfer block is flagged `broken` whenever they
 *   differ as strings (in practice whenever the address has a hex letter);
 * - a mint without its internal transfer (or whose mint message failed) is reported failed, with the amount the
 *   0x15 minter message states.
 */
import { ExternalAddress } from '@ton/core';
import { CallContractBlock } from '../basic-blocks.ts';
import { findCallContract } from '../block-utils.ts';
import { interfaceRepository } from '../context.ts';
import { Block } from '../core.ts';
import { BlockMatcher, ContractMatcher, OrMatcher } from '../matchers.ts';
import { addrAccount } from '../messages/common.ts';
import { JettonBurn, JettonBurnNotification, JettonInternalTransfer, JettonMint, JettonNotify, JettonTransfer, MinterJettonMint } from '../messages/jettons.ts';
import type { JettonBurnData, JettonMintData, JettonTransferData } from '../block-data.ts';
import { accountId, Asset } from '../ton-utils.ts';

export class JettonTransferBlock extends Block<JettonTransferData | Record<string, never>> {
  jettonTransferMessage: JettonTransfer;
  constructor(data: JettonTransferData | Record<string, never>, message: JettonTransfer) {
    super('jetton_transfer', [], data);
    this.jettonTransferMessage = message;
  }
}

export class JettonBurnBlock extends Block<JettonBurnData | Record<string, never>> {
  constructor() {
    super('jetton_burn', [], {});
  }
}

export class JettonMintBlock extends Block<JettonMintData | Record<string, never>> {
  constructor() {
    super('jetton_mint', [], {});
  }
}

const b64 = (b: Buffer | null) => (b === null ? null : b.toString('base64'));

/** `address.to_str(False)` of pytoniq: raw with lower-case hex. */
function pyRawLower(a: ReturnType<typeof addrAccount>): string {
  const [wc, hex] = a!.split(':');
  return `${wc}:${hex.toLowerCase()}`;
}

function isTransfer(block: Block): boolean {
  return block instanceof CallContractBlock && block.opcode === JettonTransfer.opcode;
}

function payloadFields(m: JettonTransfer) {
  return {
    forward_payload: b64(m.forwardPayload),
    custom_payload: b64(m.customPayload),
    comment: m.comment,
    encrypted_comment: m.encryptedComment,
    payload_opcode: m.payloadSumType,
    stonfi_swap_body: m.stonfiSwapBody,
  };
}

/** transfer -> internal_transfer (required) -> transfer_notification (optional), excesses. */
export class JettonTransferBlockMatcher extends BlockMatcher {
  constructor() {
    super({
      childMatcher: new ContractMatcher(JettonInternalTransfer.opcode, {
        childMatcher: new ContractMatcher(JettonNotify.opcode, { optional: true }),
      }),
    });
  }

  override testSelf(block: Block): boolean {
    return isTransfer(block);
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const include = [block, ...otherBlocks];
    const msg = new JettonTransfer(block.getBody());
    const newBlock = new JettonTransferBlock({}, msg);
    const internal = findCallContract(otherBlocks, JettonInternalTransfer.opcode);
    const hasInternal = internal !== null;
    let amount = msg.amount;
    let forwardTonAmount = msg.forwardAmount;
    if (internal !== null) {
      try {
        const it = new JettonInternalTransfer(internal.getBody());
        amount = it.amount;
        forwardTonAmount = it.forwardTonAmount;
      } catch {
        // the transfer's own figures stand
      }
    }
    const sender = block.getMessage().source;
    const senderJettonWallet = block.getMessage().destination;
    if (internal === null) throw new TypeError("'NoneType' object has no attribute 'get_message'");
    const receiverWallet = internal.getMessage().destination;
    const destination = msg.destination;
    const info = interfaceRepository(block).getJettonWallet(receiverWallet);
    if (info === null) return [];
    if (destination === null || destination instanceof ExternalAddress) throw new TypeError('jetton transfer destination is not an internal address');
    let receiver: string = info.owner;
    if (info.owner !== pyRawLower(accountId(destination))) {
      block.broken = true;
      receiver = info.owner;
    }
    const data: JettonTransferData = {
      has_internal_transfer: hasInternal,
      sender: accountId(sender),
      sender_wallet: accountId(senderJettonWallet),
      receiver: accountId(receiver),
      receiver_wallet: accountId(receiverWallet),
      response_address: addrAccount(msg.response),
      forward_amount: forwardTonAmount,
      desired_forward_amount: msg.forwardAmount,
      query_id: msg.queryId,
      asset: new Asset(false, info.jetton),
      amount,
      desired_amount: msg.amount,
      ...payloadFields(msg),
    };
    newBlock.data = data;
    newBlock.mergeBlocks(include);
    newBlock.failed = block.failed || internal.failed;
    return [newBlock];
  }
}

/** STON.fi pTON: a transfer to a pTON wallet, which notifies directly (no internal transfer). */
export class PTonTransferMatcher extends BlockMatcher {
  static readonly ptonMasters = [
    '0:8CDC1D7640AD5EE326527FC1AD0514F468B30DC84B0173F0E155F451B4E11F7C',
    '0:671963027F7F85659AB55B821671688601CDCF1EE674FC7FBBB1A776A18D34A3',
    '0:949C4C66760C002800E2FA3D8A3CA4E1C90A9373B53AE7472033483BF14CD95E', // TONCO's wTTON
  ];

  constructor() {
    super({ childMatcher: new ContractMatcher(JettonNotify.opcode, { optional: true }) });
  }

  override testSelf(block: Block): boolean {
    return isTransfer(block);
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const include = [block, ...otherBlocks];
    const msg = new JettonTransfer(block.getBody());
    const newBlock = new JettonTransferBlock({}, msg);
    const info = interfaceRepository(block).getJettonWallet(block.getMessage().destination);
    if (info === null || !PTonTransferMatcher.ptonMasters.includes(info.jetton)) return [];
    const data: JettonTransferData = {
      has_internal_transfer: false,
      sender: accountId(block.getMessage().source),
      sender_wallet: null,
      receiver: addrAccount(msg.destination),
      receiver_wallet: null,
      response_address: addrAccount(msg.response),
      forward_amount: msg.forwardAmount,
      query_id: msg.queryId,
      asset: new Asset(false, info.jetton),
      amount: msg.amount,
      ...payloadFields(msg),
    };
    newBlock.data = data;
    newBlock.mergeBlocks(include);
    newBlock.failed = block.failed;
    return [newBlock];
  }
}

function jettonBurnData(newBlock: Block, block: Block): JettonBurnData {
  const msg = new JettonBurn(block.getBody());
  const wallet = interfaceRepository(block).getJettonWallet(block.getMessage().destination);
  if (wallet === null) throw new Error('assert wallet is not None');
  newBlock.valueFlow.addJetton(accountId(wallet.owner), accountId(wallet.jetton), -msg.amount);
  return {
    owner: accountId(wallet.owner),
    jetton_wallet: accountId(block.getMessage().destination),
    amount: msg.amount,
    asset: new Asset(false, wallet.jetton),
  };
}

/** burn -> burn_notification (optional), excesses; the burning wallet must be a known jetton wallet. */
export class JettonBurnBlockMatcher extends BlockMatcher {
  constructor() {
    super({ childMatcher: new ContractMatcher(JettonBurnNotification.opcode, { optional: true, includeExcess: true }) });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === JettonBurn.opcode;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const newBlock = new JettonBurnBlock();
    const include = [block, ...otherBlocks];
    newBlock.data = jettonBurnData(newBlock, block);
    newBlock.mergeBlocks(include);
    newBlock.failed = block.failed;
    return [newBlock];
  }
}

function jettonMintData(newBlock: Block, block: CallContractBlock, blocks: Block[]): [JettonMintData, boolean] {
  const info = block.opcode === MinterJettonMint.opcode ? new MinterJettonMint(block.getBody()) : new JettonMint(block.getBody());
  const internal = findCallContract(blocks, JettonInternalTransfer.opcode);
  if (!block.failed && internal !== null) {
    const it = new JettonInternalTransfer(internal.getBody());
    const failed = block.failed || internal.failed;
    const walletAddr = internal.eventNodes[0].message.destination;
    const wallet = interfaceRepository(block).getJettonWallet(walletAddr);
    if (wallet === null) throw new Error('assert receiver_jwallet is not None');
    newBlock.valueFlow.addJetton(accountId(wallet.owner), accountId(wallet.jetton), it.amount);
    return [{
      to: accountId(wallet.owner),
      to_jetton_wallet: accountId(wallet.address),
      amount: it.amount,
      ton_amount: info.tonAmount,
      asset: new Asset(false, wallet.jetton),
    }, failed];
  }
  const data: JettonMintData = {
    to: addrAccount(info.toAddress),
    to_jetton_wallet: null,
    asset: new Asset(false, block.getMessage().destination),
    amount: info instanceof MinterJettonMint ? info.masterMsgJettonAmount : null,
    ton_amount: info.tonAmount,
  };
  return [data, true];
}

/** mint (0x642b7d07, or the minter's 0x15) -> internal_transfer -> notification, all optional. */
export class JettonMintBlockMatcher extends BlockMatcher {
  constructor() {
    super({
      childMatcher: new OrMatcher([
        new ContractMatcher(JettonNotify.opcode, { optional: true }),
        new ContractMatcher(JettonInternalTransfer.opcode, {
          optional: true,
          childMatcher: new ContractMatcher(JettonNotify.opcode, { optional: true }),
        }),
      ], true),
    });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && (block.opcode === JettonMint.opcode || block.opcode === MinterJettonMint.opcode);
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const newBlock = new JettonMintBlock();
    const include = [block, ...otherBlocks];
    const [data, failed] = jettonMintData(newBlock, block as CallContractBlock, otherBlocks);
    newBlock.data = data;
    newBlock.failed = failed;
    newBlock.mergeBlocks(include);
    return [newBlock];
  }
}

/**
 * A failed wallet external's intended jetton transfer (a ghost block): the transfer message alone, the asset
 * from the sending wallet when it is a known jetton wallet.
 */
export class FallbackJettonTransferBlockMatcher extends BlockMatcher {
  constructor() {
    super();
  }

  override testSelf(block: Block): boolean {
    return isTransfer(block);
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const include = [block, ...otherBlocks];
    const msg = new JettonTransfer(block.getBody());
    const newBlock = new JettonTransferBlock({}, msg);
    const senderJettonWallet = block.getMessage().destination;
    const info = interfaceRepository(block).getJettonWallet(senderJettonWallet);
    const data: JettonTransferData = {
      has_internal_transfer: false,
      sender: accountId(block.getMessage().source),
      sender_wallet: accountId(senderJettonWallet),
      receiver: addrAccount(msg.destination),
      receiver_wallet: null,
      response_address: addrAccount(msg.response),
      forward_amount: msg.forwardAmount,
      query_id: msg.queryId,
      asset: info !== null ? new Asset(false, info.jetton) : null,
      amount: msg.amount,
      ...payloadFields(msg),
    };
    newBlock.data = data;
    newBlock.mergeBlocks(include);
    newBlock.failed = block.failed;
    return [newBlock];
  }
}

/** This family's matchers under upstream's class names (families/index.ts, matcher-order.ts). */
export const MATCHERS = {
  JettonTransferBlockMatcher: new JettonTransferBlockMatcher(),
  PTonTransferMatcher: new PTonTransferMatcher(),
  JettonBurnBlockMatcher: new JettonBurnBlockMatcher(),
  JettonMintBlockMatcher: new JettonMintBlockMatcher(),
  FallbackJettonTransferBlockMatcher: new FallbackJettonTransferBlockMatcher(),
};
