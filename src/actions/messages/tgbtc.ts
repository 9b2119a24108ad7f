/**
 * ↔ indexer/events/blocks/messages/tgbtc.py: the tgBTC teleport / coordinator log messages (external-out bodies).
 * The burn log of some early contracts has no (or odd) addresses: upstream reads them in a try and keeps None.
 */
import { Address, type Slice } from '@ton/core';
import { accountId, type AccountId } from '../ton-utils.ts';
import { addrAccount, loadAddress } from './common.ts';

/** mint#77a80ef3 amount:Coins recipient_address:MsgAddress bitcoin_txid:uint256 */
export class TgBTCMintEvent {
  static readonly opcode = 0x77a80ef3;
  amount: bigint;
  recipientAddress: AccountId;
  bitcoinTxid: bigint;
  constructor(s: Slice) {
    s.loadUint(32);
    this.amount = s.loadCoins();
    this.recipientAddress = addrAccount(loadAddress(s));
    this.bitcoinTxid = s.loadUintBig(256);
  }
}

/** burn#ca444ce6 amount:Coins sender_address:MsgAddress pegout_address:MsgAddress */
export class TgBTCBurnEvent {
  static readonly opcode = 0xca444ce6;
  amount: bigint;
  senderAddress: AccountId;
  pegoutAddress: AccountId;
  constructor(s: Slice) {
    s.loadUint(32);
    this.amount = s.loadCoins();
    let sender: unknown = null;
    let pegout: unknown = null;
    try {
      sender = loadAddress(s);
      pegout = loadAddress(s);
    } catch {
      // a log without (readable) addresses: what was read stays, the rest is None
    }
    this.senderAddress = sender instanceof Address ? accountId(sender) : null;
    this.pegoutAddress = pegout instanceof Address ? accountId(pegout) : null;
  }
}

/** new_key#27756729 amount:Coins new_internal_pubkey:uint256 pegout_address:MsgAddress */
export class TgBTCNewKeyEvent {
  static readonly opcode = 0x27756729;
  amount: bigint;
  newInternalPubkey: bigint;
  pegoutAddress: AccountId;
  constructor(s: Slice) {
    s.loadUint(32);
    this.amount = s.loadCoins();
    this.newInternalPubkey = s.loadUintBig(256);
    this.pegoutAddress = addrAccount(loadAddress(s));
  }
}

/** dkg_completed#453443a6 timestamp:uint64 internal_pubkey:uint256 */
export class TgBTCDkgCompletedEvent {
  static readonly opcode = 0x453443a6;
  timestamp: bigint;
  internalPubkey: bigint;
  constructor(s: Slice) {
    s.loadUint(32);
    this.timestamp = s.loadUintBig(64);
    this.internalPubkey = s.loadUintBig(256);
  }
}
