/**
 * ↔ indexer/events/blocks/messages/dns.py: change_dns_record#4eb1f0f9 query_id:uint64 key:bits256 value:(Maybe ^DNSRecord),
 * the record read as upstream reads it (next resolver, ADNL, smart contract, storage, text; anything else `Unknown`).
 */
import type { Slice } from '@ton/core';
import { addrAccount, loadAddress } from './common.ts';
import type { AccountId } from '../ton-utils.ts';

export interface DnsRecordValue {
  schema: 'DNSNextResolver' | 'DNSAdnlAddress' | 'DNSSmcAddress' | 'DNSStorageAddress' | 'DNSText' | 'Unknown';
  address?: AccountId | Buffer;
  flags?: number;
  dns_text?: string;
}

/** pytoniq's `load_string(n)`: n bytes decoded as strict UTF-8 (invalid bytes fail). */
function loadString(s: Slice, length: number): string {
  return new TextDecoder('utf-8', { fatal: true }).decode(s.loadBuffer(length));
}

export class ChangeDnsRecordMessage {
  static readonly opcode = 0x4eb1f0f9;
  queryId: bigint;
  key: Buffer;
  hasValue: boolean;
  value: DnsRecordValue | null = null;

  constructor(s: Slice) {
    s.loadUint(32);
    this.queryId = s.loadUintBig(64);
    this.key = s.loadBuffer(32);
    this.hasValue = s.remainingRefs > 0;
    if (this.hasValue) this.value = ChangeDnsRecordMessage.parseValue(s.loadRef().beginParse(true));
  }

  private static parseValue(v: Slice): DnsRecordValue {
    const schema = v.loadUint(16);
    if (schema === 0xba93) return { schema: 'DNSNextResolver', address: addrAccount(loadAddress(v)) };
    if (schema === 0xad01) {
      const address = v.loadBuffer(32);
      return { schema: 'DNSAdnlAddress', address, flags: v.loadUint(8) };
    }
    if (schema === 0x9fd3) {
      const address = addrAccount(loadAddress(v));
      return { schema: 'DNSSmcAddress', address, flags: v.loadUint(8) };
    }
    if (schema === 0x7473) return { schema: 'DNSStorageAddress', address: v.loadBuffer(32) };
    if (schema === 0x1eda) {
      // upstream reads every chunk from the record's own cell: after the first chunk it takes a ref (and drops it),
      // and a third chunk fails (it asks a Cell, not a Slice, for a ref)
      let text = '';
      let chunks = v.loadUint(8);
      let refsTaken = 0;
      while (chunks > 0) {
        const length = v.loadUint(8);
        text += loadString(v, length);
        chunks--;
        if (chunks > 0) {
          if (refsTaken > 0) throw new TypeError("'Cell' object has no attribute 'load_ref'");
          v.loadRef();
          refsTaken++;
        }
      }
      return { schema: 'DNSText', dns_text: text.split('\u0000').join('') };
    }
    return { schema: 'Unknown' };
  }
}
