/**
 * ↔ indexer/events/blocks/layerzero.py: LayerZero v2 on TON.
 * - send: endpoint send -> channel send -> msglib connection send -> ULN send -> msglib send callback with its
 *   event, up to five excess transfers and the OApp callback (event and final excess optional); the packet and
 *   fees are read from the callback's LzSend. A missing step or an unreadable body builds nothing.
 * - send tokens: a layerzero_send whose parent is a jetton transfer that emitted a LayerZero event.
 * - receive: channel lz_receive_prepare -> prepare -> lock -> execute -> OApp execute callback; the callback's
 *   receiver must be the packet's destination OApp (compared as upstream does, hex without padding).
 * - commit packet: ULN commit -> ULN connection commit -> endpoint commit -> channel commit (+ event, msglib
 *   callback with excess); the msglib callback is required by the build.
 * - DVN verify: DVN verify -> proxy call -> ULN verify -> ULN connection verify (+ event, verify callback).
 */
import { CallContractBlock } from '../basic-blocks.ts';
import { getLabeled } from '../block-utils.ts';
import type {
  JettonTransferData, LayerZeroCommitPacketData, LayerZeroDvnVerifyData, LayerZeroPacketData, LayerZeroReceiveData, LayerZeroSendData, LayerZeroSendTokensData,
} from '../block-data.ts';
import { Block } from '../core.ts';
import { labeled } from '../labels.ts';
import { BlockMatcher, BlockTypeMatcher, ContractMatcher } from '../matchers.ts';
import {
  ChannelCommitPacket, ChannelSendMessageParser, DvnVerify, EndpointEndpointCommitPacket, EndpointEndpointSend, LayerZeroEventMsgBody,
  LayerZeroOappExecuteCallback, type LayerZeroPacket, LayerzeroChannelSendCallback, LayerzeroLzReceiveExecute, LayerzeroLzReceivePrepare,
  LzReceiveLockParser, LzReceivePrepareParser, MsglibSendCallbackParser, MsglibconnectionMsglibConnectionCommitPacketCallback,
  MsglibconnectionMsglibConnectionSend, ProxyCallContract, UlnConnectionVerifyCallbackParser, UlnUlnCommitPacket, UlnUlnSend, UlnUlnVerify,
  UlnconnectionUlnConnectionCommitPacket, UlnconnectionUlnConnectionVerify,
} from '../messages/layerzero.ts';
import { accountId } from '../ton-utils.ts';
import { JettonTransferBlock } from './jettons.ts';

export class LayerZeroSendBlock extends Block<LayerZeroSendData> {
  constructor(data: LayerZeroSendData) {
    super('layerzero_send', [], data);
  }
}

export class LayerZeroSendTokensBlock extends Block<LayerZeroSendTokensData> {
  constructor(data: LayerZeroSendTokensData) {
    super('layerzero_send_tokens', [], data);
  }
}

export class LayerZeroReceiveBlock extends Block<LayerZeroReceiveData> {
  constructor(data: LayerZeroReceiveData) {
    super('layerzero_receive', [], data);
  }
}

export class LayerZeroCommitPacketBlock extends Block<LayerZeroCommitPacketData> {
  constructor(data: LayerZeroCommitPacketData) {
    super('layerzero_commit_packet', [], data);
  }
}

export class LayerZeroDvnVerifyBlock extends Block<LayerZeroDvnVerifyData> {
  constructor(data: LayerZeroDvnVerifyData) {
    super('layerzero_dvn_verify', [], data);
  }
}

const isCall = (b: Block, opcode: number): boolean => b instanceof CallContractBlock && b.opcode === opcode >>> 0;

function packetData(p: LayerZeroPacket): LayerZeroPacketData {
  return {
    src_oapp: p.path.srcOapp, dst_oapp: p.path.dstOapp, src_eid: p.path.srcEid, dst_eid: p.path.dstEid, nonce: p.nonce, guid: p.guid, message: p.message,
  };
}

const tonTransfer = (label: string) => labeled(label, new BlockTypeMatcher('ton_transfer', { optional: true }));

export class LayerZeroSendMatcher extends BlockMatcher {
  constructor() {
    super({
      childMatcher: labeled('channel_send', new ContractMatcher(ChannelSendMessageParser.opcode, {
        childMatcher: labeled('msglib_send', new ContractMatcher(MsglibconnectionMsglibConnectionSend.opcode, {
          childMatcher: labeled('uln_send', new ContractMatcher(UlnUlnSend.opcode, {
            childMatcher: labeled('send_callback', new ContractMatcher(MsglibSendCallbackParser.opcode, {
              childrenMatchers: [
                labeled('msglib_send_callback_event', new ContractMatcher(LayerZeroEventMsgBody.opcode)),
                tonTransfer('excess_transfer_1'),
                tonTransfer('excess_transfer_2'),
                tonTransfer('excess_transfer_3'),
                tonTransfer('excess_transfer_4'),
                tonTransfer('excess_transfer_5'),
                labeled('oapp_callback', new ContractMatcher(LayerzeroChannelSendCallback.opcode, {
                  childrenMatchers: [
                    labeled('packet_sent_event', new ContractMatcher(LayerZeroEventMsgBody.opcode, { optional: true })),
                    tonTransfer('excess_transfer_final'),
                  ],
                })),
              ],
            })),
          })),
        })),
      })),
    });
  }

  override testSelf(block: Block): boolean {
    return isCall(block, EndpointEndpointSend.opcode);
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    try {
      const channelSend = getLabeled('channel_send', otherBlocks, CallContractBlock);
      const msglibSend = getLabeled('msglib_send', otherBlocks, CallContractBlock);
      const ulnSend = getLabeled('uln_send', otherBlocks, CallContractBlock);
      const sendCallback = getLabeled('send_callback', otherBlocks, CallContractBlock);
      const oappCallback = getLabeled('oapp_callback', otherBlocks, CallContractBlock);
      if (!channelSend || !msglibSend || !ulnSend || !sendCallback || !oappCallback) return [];
      const lzSend = new LayerzeroChannelSendCallback(oappCallback.getBody()).lzSend;
      const msg = block.getMessage();
      const newBlock = new LayerZeroSendBlock({
        initiator: accountId(msg.source),
        packet_data: packetData(lzSend.packet),
        send_request_id: lzSend.sendRequestId,
        msglib_manager: lzSend.sendMsglibManager,
        native_fee: lzSend.nativeFee,
        zro_fee: lzSend.zroFee,
        endpoint: accountId(msg.destination),
        channel: accountId(channelSend.getMessage().destination),
        msglib: lzSend.sendMsglib,
        uln: accountId(ulnSend.getMessage().destination),
      });
      newBlock.mergeBlocks([block, ...otherBlocks]);
      return [newBlock];
    } catch {
      // upstream logs the failure and builds nothing
      return [];
    }
  }
}

/** A layerzero_send whose parent is the jetton transfer (with its LayerZero event) that paid for it. */
export class LayerZeroSendTokensMatcher extends BlockMatcher {
  constructor() {
    super({
      parentMatcher: labeled('jetton_transfer', new BlockTypeMatcher('jetton_transfer', {
        childMatcher: labeled('layerzero_event', new ContractMatcher(LayerZeroEventMsgBody.opcode)),
      })),
    });
  }

  override testSelf(block: Block): boolean {
    return block.btype === 'layerzero_send';
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    try {
      const transfer = getLabeled('jetton_transfer', otherBlocks, JettonTransferBlock);
      if (transfer === null) return [];
      const d = transfer.data as JettonTransferData;
      if (!(block instanceof LayerZeroSendBlock)) return [];
      const newBlock = new LayerZeroSendTokensBlock({
        sender: d.sender, oapp: d.receiver, sender_wallet: d.sender_wallet, oapp_wallet: d.receiver_wallet ?? null, asset: d.asset, amount: d.amount,
        layerzero_send_data: block.data,
      });
      newBlock.mergeBlocks([block, ...otherBlocks]);
      return [newBlock];
    } catch {
      return [];
    }
  }
}

export class LayerZeroReceiveMatcher extends BlockMatcher {
  constructor() {
    super({
      childrenMatchers: [
        tonTransfer('excesses_transfer'),
        labeled('receive_prepare', new ContractMatcher(LayerzeroLzReceivePrepare.opcode, {
          childMatcher: labeled('receive_lock', new ContractMatcher(LzReceiveLockParser.opcode, {
            childMatcher: labeled('execute_callback', new ContractMatcher(LayerzeroLzReceiveExecute.opcode, {
              childrenMatchers: [
                labeled('even_1', new ContractMatcher(LayerZeroEventMsgBody.opcode, { optional: true })),
                // upstream reuses the label: the first `execute_callback` found is the execute call above
                labeled('execute_callback', new ContractMatcher(LayerZeroOappExecuteCallback.opcode, {
                  optional: false,
                  childrenMatchers: [
                    labeled('event_2', new ContractMatcher(LayerZeroEventMsgBody.opcode, { optional: true })),
                    tonTransfer('excess_transfer_2'),
                  ],
                })),
              ],
            })),
          })),
        })),
      ],
    });
  }

  override testSelf(block: Block): boolean {
    return isCall(block, LzReceivePrepareParser.opcode);
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const execute = getLabeled('execute_callback', otherBlocks, CallContractBlock);
    if (execute === null) return [];
    const executeMsg = execute.getMessage();
    const packet = new LayerZeroOappExecuteCallback(execute.getBody()).packet;
    // `destination[2:]` against `hex(dst_oapp)[2:]`: a hash with leading zeros (or a -1: address) never equals
    if (executeMsg.destination === null || executeMsg.destination.slice(2).toLowerCase() !== packet.path.dstOapp.slice(2).toLowerCase()) return [];
    const newBlock = new LayerZeroReceiveBlock({
      sender: accountId(block.getMessage().source),
      channel: accountId(executeMsg.source),
      oapp: accountId(executeMsg.destination),
      packet_data: packetData(packet),
    });
    newBlock.mergeBlocks([block, ...otherBlocks]);
    return [newBlock];
  }
}

export class LayerZeroCommitPacketMatcher extends BlockMatcher {
  constructor() {
    super({
      childMatcher: labeled('uln_connection_commit', new ContractMatcher(UlnconnectionUlnConnectionCommitPacket.opcode, {
        childMatcher: labeled('endpoint_commit', new ContractMatcher(EndpointEndpointCommitPacket.opcode, {
          childMatcher: labeled('channel_commit', new ContractMatcher(ChannelCommitPacket.opcode, {
            childrenMatchers: [
              labeled('lz_event', new ContractMatcher(LayerZeroEventMsgBody.opcode, { optional: true })),
              labeled('msglib_callback', new ContractMatcher(MsglibconnectionMsglibConnectionCommitPacketCallback.opcode, {
                optional: true,
                childMatcher: labeled('excesses', new BlockTypeMatcher('ton_transfer', { optional: true })),
              })),
            ],
          })),
        })),
      })),
    });
  }

  override testSelf(block: Block): boolean {
    return isCall(block, UlnUlnCommitPacket.opcode);
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const ulnConnectionCommit = getLabeled('uln_connection_commit', otherBlocks, CallContractBlock);
    const endpointCommit = getLabeled('endpoint_commit', otherBlocks, CallContractBlock);
    const channelCommit = getLabeled('channel_commit', otherBlocks, CallContractBlock);
    const msglibCallback = getLabeled('msglib_callback', otherBlocks, CallContractBlock);
    if (!ulnConnectionCommit || !endpointCommit || !channelCommit || !msglibCallback) return [];
    const packet = new ChannelCommitPacket(channelCommit.getBody()).packet;
    const ulnConnection = accountId(ulnConnectionCommit.getMessage().destination);
    const newBlock = new LayerZeroCommitPacketBlock({
      sender: accountId(block.getMessage().source),
      // upstream puts the ULN connection in both
      uln: ulnConnection,
      uln_connection: ulnConnection,
      endpoint: accountId(endpointCommit.getMessage().destination),
      channel: accountId(channelCommit.getMessage().destination),
      msglib_connection: accountId(msglibCallback.getMessage().destination),
      packet_data: packetData(packet),
    });
    newBlock.mergeBlocks([block, ...otherBlocks]);
    return [newBlock];
  }
}

export class LayerZeroDvnVerifyMatcher extends BlockMatcher {
  constructor() {
    super({
      childMatcher: labeled('proxy_call', new ContractMatcher(ProxyCallContract.opcode, {
        childMatcher: labeled('uln_verify', new ContractMatcher(UlnUlnVerify.opcode, {
          childMatcher: labeled('uln_connection_verify', new ContractMatcher(UlnconnectionUlnConnectionVerify.opcode, {
            childrenMatchers: [
              labeled('lz_event', new ContractMatcher(LayerZeroEventMsgBody.opcode, { optional: true })),
              labeled('uln_verify_callback', new ContractMatcher(UlnConnectionVerifyCallbackParser.opcode, {
                optional: true,
                childMatcher: labeled('excesses', new BlockTypeMatcher('ton_transfer', { optional: true })),
              })),
            ],
          })),
        })),
      })),
    });
  }

  override testSelf(block: Block): boolean {
    return isCall(block, DvnVerify.opcode);
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    try {
      const ulnVerify = getLabeled('uln_verify', otherBlocks, CallContractBlock);
      const ulnConnectionVerify = getLabeled('uln_connection_verify', otherBlocks, CallContractBlock);
      const proxyCall = getLabeled('proxy_call', otherBlocks, CallContractBlock);
      const callback = getLabeled('uln_verify_callback', otherBlocks, CallContractBlock);
      if (!callback || !ulnVerify || !ulnConnectionVerify || !proxyCall) return [];
      const parser = new UlnConnectionVerifyCallbackParser(callback.getBody());
      const newBlock = new LayerZeroDvnVerifyBlock({
        sender: accountId(block.getMessage().source),
        nonce: parser.nonce,
        status: parser.status,
        dvn: accountId(block.getMessage().destination),
        proxy: accountId(proxyCall.getMessage().destination),
        uln: accountId(ulnVerify.getMessage().destination),
        uln_connection: accountId(ulnConnectionVerify.getMessage().destination),
      });
      newBlock.mergeBlocks([block, ...otherBlocks]);
      return [newBlock];
    } catch {
      return [];
    }
  }
}

export const MATCHERS = {
  LayerZeroSendMatcher: new LayerZeroSendMatcher(),
  LayerZeroSendTokensMatcher: new LayerZeroSendTokensMatcher(),
  LayerZeroReceiveMatcher: new LayerZeroReceiveMatcher(),
  LayerZeroCommitPacketMatcher: new LayerZeroCommitPacketMatcher(),
  LayerZeroDvnVerifyMatcher: new LayerZeroDvnVerifyMatcher(),
};
