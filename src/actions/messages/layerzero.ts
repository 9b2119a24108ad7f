/**
 * ↔ indexer/events/blocks/messages/layerzero.py: LayerZero v2 on TON. The protocol's own "md" objects (LzSend,
 * Packet, Path, VerificationStatus) are cells with a header and an all-ones filler, which upstream checks and
 * rejects (raises) when they differ; the hand-written and "AI" parsers of upstream are reproduced, including
 * the ones that read a fixed ref path. Hex renderings follow Python's `hex()`: `0x`, lower case, no padding.
 */
import type { Cell, Slice } from '@ton/core';

const pyHex = (v: bigint): string => '0x' + v.toString(16);

/** `bits.tobytes().hex()`: the cell's data bits, zero-padded to whole bytes. */
function bitsHex(c: Cell): string {
  const n = c.bits.length;
  const bytes = Buffer.alloc(Math.ceil(n / 8));
  for (let i = 0; i < n; i++) if (c.bits.at(i)) bytes[i >> 3] |= 0x80 >> (i & 7);
  return bytes.toString('hex');
}

/** header (uint) then an all-ones filler read as a signed int, as upstream checks both */
function header(s: Slice, infoBits: number, info: bigint, fillerBits: number, what: string): void {
  const h = s.loadUintBig(infoBits);
  if (h !== info) throw new Error(`${what}: header info mismatch`);
  const filler = s.loadIntBig(fillerBits);
  if (filler !== -1n) throw new Error(`${what}: header filler ones number mismatch`);
}

export class LayerZeroPath {
  srcEid: number;
  srcOapp: string;
  dstEid: number;
  dstOapp: string;
  constructor(c: Cell) {
    const s = c.beginParse();
    header(s, 152, 8903714975572488637007080065659n, 198, 'Path');
    this.srcEid = s.loadUint(32);
    this.srcOapp = pyHex(s.loadUintBig(256));
    this.dstEid = s.loadUint(32);
    this.dstOapp = pyHex(s.loadUintBig(256));
  }
}

export class LayerZeroPacket {
  path: LayerZeroPath;
  message: string;
  nonce: bigint;
  guid: string;
  constructor(c: Cell) {
    const s = c.beginParse();
    header(s, 152, 417359019239977417716476838698419835n, 198, 'Packet');
    this.path = new LayerZeroPath(s.loadRef());
    this.message = '0x' + bitsHex(s.loadRef());
    this.nonce = s.loadUintBig(64);
    this.guid = pyHex(s.loadUintBig(256));
  }
}

/** md::LzSend: name "lzSend" (80 bits), header, filler, request id, msglib manager and msglib, packet, fees. */
export class LayerZeroMDLzSend {
  static readonly MD_NAME = 0x6c7a53656e64n;
  sendRequestId: bigint;
  sendMsglibManager: string;
  sendMsglib: string;
  packet: LayerZeroPacket;
  nativeFee: bigint;
  zroFee: bigint;
  constructor(c: Cell) {
    const s = c.beginParse();
    const name = s.loadUintBig(80);
    if (name !== LayerZeroMDLzSend.MD_NAME) throw new Error(`wrong name: ${name} != ${LayerZeroMDLzSend.MD_NAME} (expected)`);
    if (s.loadUintBig(180) !== 582890735024998957421269964955452773563747974476099581n) throw new Error('header info mismatch');
    if (s.loadIntBig(90) !== -1n) throw new Error('header filler ones number mismatch');
    this.sendRequestId = s.loadUintBig(64);
    this.sendMsglibManager = pyHex(s.loadUintBig(256));
    this.sendMsglib = pyHex(s.loadUintBig(256));
    this.packet = new LayerZeroPacket(s.loadRef());
    s.loadRef(); // extra options
    const r = s.loadRef().beginParse();
    r.loadUintBig(256); // send msglib connection
    this.nativeFee = r.loadUintBig(128);
    this.zroFee = r.loadUintBig(128);
    r.loadRef(); // enforced options
    r.loadRef(); // callback data
  }
}

function ref(c: Cell, i: number): Cell {
  const r = c.refs[i];
  if (!r) throw new Error('IndexError: list index out of range');
  return r;
}

/** Layerzero::OP::CHANNEL_SEND_CALLBACK: the LzSend sits three refs deep (upstream found it "experimentally"). */
export class LayerzeroChannelSendCallback {
  static readonly opcode = 0xa2b5fbae;
  lzSend: LayerZeroMDLzSend;
  constructor(s: Slice) {
    const cell = s.asCell();
    s.loadUint(32);
    this.lzSend = new LayerZeroMDLzSend(ref(ref(ref(cell, 0), 0), 0));
  }
}

/** Channel::OP::LZ_RECEIVE_EXECUTE_CALLBACK: the packet two refs deep. */
export class LayerZeroOappExecuteCallback {
  static readonly opcode = 0xcaae25a1;
  packet: LayerZeroPacket;
  constructor(s: Slice) {
    this.packet = new LayerZeroPacket(ref(ref(s.asCell(), 0), 0));
  }
}

/** Channel::OP::CHANNEL_COMMIT_PACKET: extended md (first ref of the body) whose first ref is the packet. */
export class ChannelCommitPacket {
  static readonly opcode = 0x5388cd88;
  packet: LayerZeroPacket;
  constructor(s: Slice) {
    const extended = s.loadRef().beginParse();
    this.packet = new LayerZeroPacket(extended.loadRef());
  }
}

const VERIFY_STATUS: Record<number, string> = {
  0x3bbc306b: 'succeeded',
  0x7fcbb4ac: 'nonce_out_of_range',
  0x29c53fab: 'dvn_not_configured',
};

/** UltraLightNode::OP::ULN_CONNECTION_VERIFY_CALLBACK: md::MdObj(ref0 = md::VerificationStatus(nonce, status)). */
export class UlnConnectionVerifyCallbackParser {
  static readonly opcode = 0x3cb38090;
  nonce: bigint;
  statusCode: number;
  status: string;
  constructor(s: Slice) {
    const mdObj = s.loadRef();
    const v = mdObj.beginParse().loadRef().beginParse();
    const info = v.loadUintBig(116);
    const filler = v.loadIntBig(234);
    if (filler !== -1n) throw new Error('Header filler is not 0');
    if (info !== 38421788582694199859296615363593851n) throw new Error('Header info is not 38421788582694199859296615363593851');
    this.nonce = v.loadUintBig(64);
    this.statusCode = v.loadUint(32) >>> 0;
    this.status = VERIFY_STATUS[this.statusCode] ?? `unknown_${this.statusCode}`;
  }
}

// opcodes the matchers use without reading the bodies
export const EndpointEndpointSend = { opcode: 0xdd4ea3b4 } as const;
export const ChannelSendMessageParser = { opcode: 0x536feb09 } as const; // Channel::OP::CHANNEL_SEND
export const MsglibconnectionMsglibConnectionSend = { opcode: 0x4002b790 } as const;
export const UlnUlnSend = { opcode: 0x5de68393 } as const;
export const MsglibSendCallbackParser = { opcode: 0x421c1a25 } as const; // Channel::OP::MSGLIB_SEND_CALLBACK
export const LayerZeroEventMsgBody = { opcode: 0xe33b9873 } as const; // BaseInterface::OP::EVENT
export const LzReceivePrepareParser = { opcode: 0x22f3ac09 } as const; // Channel::OP::LZ_RECEIVE_PREPARE
export const LayerzeroLzReceivePrepare = { opcode: 0x97df404c } as const;
export const LzReceiveLockParser = { opcode: 0xb7680bc6 } as const; // Channel::OP::LZ_RECEIVE_LOCK
export const LayerzeroLzReceiveExecute = { opcode: 0x0c7b8418 } as const;
export const UlnUlnCommitPacket = { opcode: 0x28b97077 } as const;
export const UlnconnectionUlnConnectionCommitPacket = { opcode: 0xf9d37b80 } as const;
export const EndpointEndpointCommitPacket = { opcode: 0x5dab749a } as const;
export const MsglibconnectionMsglibConnectionCommitPacketCallback = { opcode: 0x5e178f33 } as const;
export const DvnVerify = { opcode: 0xa0d51a8d } as const;
export const ProxyCallContract = { opcode: 0x09f047d9 } as const;
export const UlnUlnVerify = { opcode: 0x994aaf4e } as const;
export const UlnconnectionUlnConnectionVerify = { opcode: 0x4ec8f80a } as const;
