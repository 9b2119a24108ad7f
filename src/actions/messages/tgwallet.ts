/**
 * ↔ the Telegram wallet part of indexer/events/blocks/messages/externals.py (newer upstream) and the contract's
 * messages (ton-blockchain/tg-wallet-contract contracts/WalletTg/messages.tolk): every request is a SignedRequest,
 * signature:bits512 first, then the request with its opcode; requests come as externals ("E" opcodes) or, when
 * someone else pays the gas, as internal messages ("I" opcodes).
 */
import { cellFromBoc } from '../../contracts/index.ts';

export const TG_WALLET_SEND_ONE_MESSAGE_INTERNAL = 0x63896e74;
export const TG_WALLET_SEND_ONE_MESSAGE_EXTERNAL = 0x63896e75;
export const TG_WALLET_SEND_BULK_MESSAGES_INTERNAL = 0x73896e74;
export const TG_WALLET_SEND_BULK_MESSAGES_EXTERNAL = 0x73896e75;
export const TG_WALLET_CHANGE_PUBLIC_KEY_INTERNAL = 0xfbba99c7;
export const TG_WALLET_CHANGE_PUBLIC_KEY_EXTERNAL = 0xfbba99c8;

/** A W5 signed request delivered as an internal message ('sint'): its opcode is in the clear. */
export const WALLET_V5_SIGNED_REQUEST_INTERNAL = 0x73696e74;

/**
 * A signed wallet request that arrived as an internal message (newer upstream's `is_gasless_request_opcode`):
 * a relayer sent the owner's request and attached the TON that pays its gas.
 */
export const GASLESS_REQUEST_OPCODES: ReadonlySet<number> = new Set([
  TG_WALLET_SEND_ONE_MESSAGE_INTERNAL, TG_WALLET_SEND_BULK_MESSAGES_INTERNAL, TG_WALLET_CHANGE_PUBLIC_KEY_INTERNAL, WALLET_V5_SIGNED_REQUEST_INTERNAL,
]);

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
  // base64 of fewer than MIN_REQUEST_BOC_BYTES bytes: no need to decode it to know
  if (bodyBoc === null || bodyBoc.length < (MIN_REQUEST_BOC_BYTES / 3) * 4 || Buffer.from(bodyBoc, 'base64').length < MIN_REQUEST_BOC_BYTES) return null;
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
