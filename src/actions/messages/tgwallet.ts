/**
 * ↔ the Telegram wallet part of indexer/events/blocks/messages/externals.py (newer upstream) and the contract's
 * messages (ton-blockchain/tg-wallet-contract contracts/WalletTg/messages.tolk): every request is a SignedRequest,
 * signature:bits512 first, then the request with its opcode; requests come as externals ("E" opcodes) or, when
 * someone else pays the gas, as internal messages ("I" opcodes).
 */
import type { Slice } from '@ton/core';
import { cellFromBoc } from '../../contracts/index.ts';

export const TG_WALLET_SEND_ONE_MESSAGE_INTERNAL = 0x63896e74;
export const TG_WALLET_SEND_ONE_MESSAGE_EXTERNAL = 0x63896e75;
export const TG_WALLET_SEND_BULK_MESSAGES_INTERNAL = 0x73896e74;
export const TG_WALLET_SEND_BULK_MESSAGES_EXTERNAL = 0x73896e75;
export const TG_WALLET_CHANGE_PUBLIC_KEY_INTERNAL = 0xfbba99c7;
export const TG_WALLET_CHANGE_PUBLIC_KEY_EXTERNAL = 0xfbba99c8;

export const TG_WALLET_REQUEST_OPCODES: ReadonlySet<number> = new Set([
  TG_WALLET_SEND_ONE_MESSAGE_INTERNAL, TG_WALLET_SEND_ONE_MESSAGE_EXTERNAL, TG_WALLET_SEND_BULK_MESSAGES_INTERNAL,
  TG_WALLET_SEND_BULK_MESSAGES_EXTERNAL, TG_WALLET_CHANGE_PUBLIC_KEY_INTERNAL, TG_WALLET_CHANGE_PUBLIC_KEY_EXTERNAL,
]);

/** signature (512) + opcode (32) + SeqnoHeader (96) bits, plus the BoC header: shorter BoCs are no request */
const MIN_REQUEST_BOC_BYTES = 80;

/**
 * `get_tg_wallet_request_opcode`: the opcode after the signature when the body is a Telegram wallet request (the
 * opcode stored with the message is a piece of the signature), else null.
 */
export function tgWalletRequestOpcode(bodyBoc: string | null): number | null {
  if (bodyBoc === null || Buffer.from(bodyBoc, 'base64').length < MIN_REQUEST_BOC_BYTES) return null;
  const c = cellFromBoc(bodyBoc);
  if (c === null) return null;
  try {
    const s = c.beginParse(true);
    s.skip(512);
    const op = s.loadUint(32) >>> 0;
    return TG_WALLET_REQUEST_OPCODES.has(op) ? op : null;
  } catch {
    return null;
  }
}

/**
 * ChangePublicKeyRequest{I,E}: signature:bits512 opcode:uint32 subwalletId:uint32 validUntil:uint32 seqno:uint32
 * newPublicKey:uint256 rotationSignature:^bits512 encryptedPrevPrivateKey:^uint256. `signedHash` is the hash of the
 * signed part (what the signature covers); a ref that is missing or too short leaves its field null.
 */
export class TgWalletChangePublicKeyRequest {
  signature: Buffer;
  signedHash: Buffer;
  opcode: number;
  subwalletId: number;
  validUntil: number;
  seqno: number;
  newPublicKey: Buffer;
  rotationSignature: Buffer | null = null;
  encryptedOldPrivateKey: Buffer | null = null;

  constructor(s: Slice) {
    this.signature = s.loadBuffer(64);
    this.signedHash = s.clone().asCell().hash();
    this.opcode = s.loadUint(32) >>> 0;
    if (this.opcode !== TG_WALLET_CHANGE_PUBLIC_KEY_INTERNAL && this.opcode !== TG_WALLET_CHANGE_PUBLIC_KEY_EXTERNAL) {
      throw new Error(`not a tg-wallet key change: 0x${this.opcode.toString(16).padStart(8, '0')}`);
    }
    this.subwalletId = s.loadUint(32);
    this.validUntil = s.loadUint(32);
    this.seqno = s.loadUint(32);
    this.newPublicKey = s.loadBuffer(32);
    const bytesOfRef = (n: number): Buffer | null => {
      if (s.remainingRefs === 0) return null;
      const r = s.loadRef().beginParse(true);
      return r.remainingBits >= n * 8 ? r.loadBuffer(n) : null;
    };
    this.rotationSignature = bytesOfRef(64);
    this.encryptedOldPrivateKey = bytesOfRef(32);
  }
}
