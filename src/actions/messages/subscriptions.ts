/** ↔ indexer/events/blocks/messages/subscriptions.py: wallet v4 plugin (subscription) messages. */
import type { Slice } from '@ton/core';

/** The plugin's payment request to the wallet: op 0x706c7567 query_id:uint64 grams:Coins */
export class SubscriptionPaymentRequest {
  static readonly opcode = 0x706c7567;
  queryId: bigint;
  grams: bigint;
  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.grams = s.loadCoins();
  }
}

/** The wallet's payment to the plugin (op 0xf06c7567). */
export const SubscriptionPaymentRequestResponse = { opcode: 0xf06c7567 } as const;
/** The plugin's payment to the beneficiary (op 0x73756273, "subs"). */
export const SubscriptionPayment = { opcode: 0x73756273 } as const;
/** Plugin removal (op 0x64737472, "dstr"), between the wallet and the plugin. */
export const WalletPluginDestruct = { opcode: 0x64737472 } as const;
