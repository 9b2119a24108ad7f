/**
 * LayerZero v2 on TON: send (an OApp calls ENDPOINT_SEND 0xdd4ea3b4; the channel finally calls the OApp
 * back with CHANNEL_SEND_CALLBACK 0xa2b5fbae carrying the md::LzSend with the packet), send_tokens (a
 * jetton_transfer to an OFT OApp that triggers such a send) and commit_packet (ULN_COMMIT_PACKET
 * 0x28b97077 -> ULN connection -> endpoint -> CHANNEL_COMMIT_PACKET 0x5388cd88 with the packet).
 * LayerZero objects are classlib cells: a header (info bits + filler ones), then the fields.
 */
import type { Cell, Slice } from '@ton/core';
import { childWithOp, descendants, makeBlock, type Block, type Ctx, type EventNode } from '../core.ts';
import type { Family } from '../family.ts';
import { cellFromBoc } from '../toolkit/cells.ts';
import { OP as COMMON } from '../toolkit/opcodes.ts';

const OP = {
  endpointSend: 0xdd4ea3b4, channelSend: 0x536feb09, msglibConnectionSend: 0x4002b790, ulnSend: 0x5de68393,
  channelSendCallback: 0xa2b5fbae, ulnCommitPacket: 0x28b97077, ulnConnectionCommitPacket: 0xf9d37b80,
  endpointCommitPacket: 0x5dab749a, channelCommitPacket: 0x5388cd88, msglibConnectionCommitCallback: 0x5e178f33,
} as const;

const hex = (v: bigint) => '0x' + v.toString(16);

function skipHeader(s: Slice, infoBits: number, fillerBits: number): void {
  s.skip(infoBits);
  s.skip(fillerBits);
}

// lz::Path: header(152 + 198) srcEid:uint32 srcOApp:uint256 dstEid:uint32 dstOApp:uint256
// lz::Packet: header(152 + 198) ^path ^message nonce:uint64 guid:uint256
function parsePacket(c: Cell) {
  const s = c.beginParse();
  skipHeader(s, 152, 198);
  const p = s.loadRef().beginParse();
  skipHeader(p, 152, 198);
  const srcEid = p.loadUint(32), srcOapp = p.loadUintBig(256), dstEid = p.loadUint(32), dstOapp = p.loadUintBig(256);
  const message = s.loadRef();
  const nonce = s.loadUintBig(64), guid = s.loadUintBig(256);
  const bits = message.bits;
  const bytes = Buffer.alloc(Math.ceil(bits.length / 8));
  for (let i = 0; i < bits.length; i++) if (bits.at(i)) bytes[i >> 3] |= 0x80 >> (i & 7);
  return {
    src_oapp: hex(srcOapp), dst_oapp: hex(dstOapp), src_eid: srcEid, dst_eid: dstEid,
    nonce, guid: hex(guid), message: '0x' + bytes.toString('hex'),
  };
}

// md::LzSend: name(80) header(180) filler(90) sendRequestId:uint64 sendMsglibManager:uint256 sendMsglib:uint256
//   ^packet ^extraOptions ^[sendMsglibConnection:uint256 nativeFee:uint128 zroFee:uint128 …]
function parseLzSend(c: Cell) {
  const s = c.beginParse();
  skipHeader(s, 80 + 180, 90);
  const sendRequestId = s.loadUintBig(64);
  const manager = s.loadUintBig(256);
  const msglib = s.loadUintBig(256);
  const packet = parsePacket(s.loadRef());
  s.loadRef();
  const r = s.loadRef().beginParse();
  r.loadUintBig(256);
  return { sendRequestId, msglibManager: hex(manager), msglib: hex(msglib), nativeFee: r.loadUintBig(128), zroFee: r.loadUintBig(128), packet };
}

function sendData(anchor: EventNode) {
  const all = descendants(anchor);
  const find = (op: number) => all.find((x) => !x.extOut && x.msg?.opcode === op);
  const callback = find(OP.channelSendCallback);
  const body = cellFromBoc(callback?.msg?.body);
  if (!callback || !body) return null;
  let lz: ReturnType<typeof parseLzSend>;
  try {
    lz = parseLzSend(body.refs[0].refs[0].refs[0]);
  } catch {
    return null;
  }
  return {
    nodes: [anchor, ...all],
    initiator: anchor.msg!.source,
    send: {
      send_request_id: lz.sendRequestId, msglib_manager: lz.msglibManager, msglib: lz.msglib,
      uln: find(OP.ulnSend)?.msg?.destination ?? null, native_fee: lz.nativeFee, zro_fee: lz.zroFee,
      endpoint: anchor.msg!.destination, channel: find(OP.channelSend)?.msg?.destination ?? null,
    },
    packet: lz.packet,
    failed: all.some((x) => !x.extOut && x.tx.aborted) || anchor.tx.aborted,
  };
}

function send(n: EventNode, ctx: Ctx): Block | null {
  const jt = ctx.ownerOf(n);
  if (jt && jt.type === 'jetton_transfer' && jt.nodes[0] === n) {
    const notify = jt.nodes.find((x) => x.msg?.opcode === COMMON.jettonNotify);
    const anchor = notify && [notify, ...descendants(notify)].find((x) => x.msg?.opcode === OP.endpointSend);
    const sd = anchor && sendData(anchor);
    if (!sd) return null;
    const d = jt.data as { sender: string; sender_wallet: string | null; receiver: string | null; receiver_wallet: string | null; amount: bigint; asset: string | null };
    const nodes = new Set<EventNode>([...jt.nodes, ...descendants(notify!), ...sd.nodes]);
    const b = makeBlock('layerzero_send_tokens', [...nodes], {
      source: d.sender, source_secondary: d.sender_wallet, destination: d.receiver, destination_secondary: d.receiver_wallet,
      asset: d.asset, amount: d.amount,
      layerzero_send_data: sd.send, layerzero_packet_data: sd.packet,
    });
    b.failed = sd.failed;
    return b;
  }
  if (n.extOut || n.msg?.opcode !== OP.endpointSend) return null;
  const sd = sendData(n);
  if (!sd) return null;
  const b = makeBlock('layerzero_send', sd.nodes, {
    source: sd.initiator, destination: n.msg.destination,
    layerzero_send_data: sd.send, layerzero_packet_data: sd.packet,
  });
  b.failed = sd.failed;
  return b;
}

function commitPacket(n: EventNode): Block | null {
  if (n.extOut || n.msg?.opcode !== OP.ulnCommitPacket) return null;
  const connection = childWithOp(n, OP.ulnConnectionCommitPacket);
  const endpoint = connection && childWithOp(connection, OP.endpointCommitPacket);
  const channel = endpoint && childWithOp(endpoint, OP.channelCommitPacket);
  const callback = channel && childWithOp(channel, OP.msglibConnectionCommitCallback);
  const body = cellFromBoc(channel?.msg?.body);
  if (!connection || !endpoint || !channel || !callback || !body) return null;
  let packet: ReturnType<typeof parsePacket>;
  try {
    packet = parsePacket(body.refs[0].refs[0]);
  } catch {
    return null;
  }
  const ulnConnection = connection.msg!.destination;
  const b = makeBlock('layerzero_commit_packet', [n, ...descendants(n)], {
    source: n.msg.source,
    source_secondary: endpoint.msg!.destination,
    destination: ulnConnection,
    destination_secondary: ulnConnection,
    asset: channel.msg!.destination,
    asset_secondary: callback.msg!.destination,
    layerzero_packet_data: packet,
  });
  b.failed = n.tx.aborted;
  return b;
}

export const layerzeroFamily: Family = {
  name: 'layerzero',
  absorbs: ['jetton_transfer'],
  match: (n, ctx) => send(n, ctx) ?? commitPacket(n),
};
