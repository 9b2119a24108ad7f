/** ↔ indexer/events/blocks/messages/vesting.py: vesting wallet (ton-blockchain/vesting-contract) requests. */
import { loadMessageRelaxed, type Address, type Cell, type ExternalAddress, type Slice } from '@ton/core';
import { loadAddress } from './common.ts';

/**
 * send_message#a7733acd query_id:uint64 send_mode:uint8 message:^MessageRelaxed (owner -> vesting), answered by
 * 0xf7733acd. The message's destination and value come from its internal header (a non-internal header fails);
 * `messageBodyHash` is the hash of its body, null when the message does not read as a whole.
 */
export class VestingSendMessage {
  static readonly opcode = 0xa7733acd;
  static readonly responseOpcode = 0xf7733acd;
  queryId: bigint;
  sendMode: number;
  messageCell: Cell;
  messageDestination: Address | ExternalAddress | null;
  messageValue: bigint;
  messageBodyHash: Buffer | null = null;

  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.sendMode = s.loadUint(8);
    this.messageCell = s.loadRef();
    // int_msg_info$0 ihr_disabled:Bool bounce:Bool bounced:Bool src:MsgAddress dest:MsgAddressInt value:CurrencyCollection
    //   ihr_fee:Coins fwd_fee:Coins created_lt:uint64 created_at:uint32 (pytoniq's InternalMsgInfo)
    const h = this.messageCell.beginParse(true);
    if (h.loadBit()) throw new Error('not an internal message header');
    h.loadBit();
    h.loadBit();
    h.loadBit();
    loadAddress(h);
    this.messageDestination = loadAddress(h);
    this.messageValue = h.loadCoins();
    // the rest of the header: extra currencies, ihr_fee, fwd_fee, created_lt, created_at
    h.loadMaybeRef();
    h.loadCoins();
    h.loadCoins();
    h.loadUintBig(64);
    h.loadUint(32);
    try {
      this.messageBodyHash = loadMessageRelaxed(this.messageCell.beginParse(true)).body.hash();
    } catch {
      this.messageBodyHash = null;
    }
  }
}

/**
 * add_whitelist#7258a69b query_id:uint64 addresses: an address in this cell, then one per ref in a chain (vesting
 * creator -> vesting), answered by 0xf258a69b.
 */
export class VestingAddWhiteList {
  static readonly opcode = 0x7258a69b;
  static readonly responseOpcode = 0xf258a69b;
  queryId: bigint;
  addresses: Array<Address | ExternalAddress | null> = [];

  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    let current = s;
    while (current.remainingRefs > 0) {
      this.addresses.push(loadAddress(current));
      current = current.loadRef().beginParse(true);
    }
    this.addresses.push(loadAddress(current));
  }
}
