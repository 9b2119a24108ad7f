/**
 * TON DNS record sets (ton-blockchain/dns-contract): a HashmapE 256 keyed by sha256 of the category name:
 * "wallet" (dns_smc_address#9fd3), "dns_next_resolver" (dns_next_resolver#ba93), "site" (dns_adnl_address#ad01,
 * hex), "storage" (dns_storage_address#7473, hex bag id); and the domain encoding of `get_full_domain`.
 */
import { createHash } from 'node:crypto';
import { Address, Dictionary, type Cell, type Slice } from '@ton/core';
import { rawAddress } from './cells.ts';

const category = (name: string) => createHash('sha256').update(name).digest();

export interface DnsRecords {
  dns_wallet: string | null;
  dns_next_resolver: string | null;
  dns_site_adnl: string | null;
  dns_storage_bag_id: string | null;
}

function intAddress(s: Slice): string | null {
  const a = s.loadAddressAny();
  return a instanceof Address ? rawAddress(a) : null;
}

function record(dict: Dictionary<Buffer, Cell>, name: string, tag: number, read: (s: Slice) => string | null): string | null {
  const c = dict.get(category(name));
  if (!c) return null;
  try {
    const s = c.beginParse();
    return s.loadUint(16) === tag ? read(s) : null;
  } catch {
    return null; // a record that does not decode is left out (the reference logs and skips it)
  }
}

/** Records of a record-set dictionary cell (null cell: no records). */
export function parseDnsRecords(records: Cell | null): DnsRecords {
  const none = { dns_wallet: null, dns_next_resolver: null, dns_site_adnl: null, dns_storage_bag_id: null };
  if (!records) return none;
  const dict = Dictionary.loadDirect(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell(), records);
  const hex = (s: Slice) => s.loadBuffer(32).toString('hex').toUpperCase();
  return {
    dns_wallet: record(dict, 'wallet', 0x9fd3, intAddress),
    dns_next_resolver: record(dict, 'dns_next_resolver', 0xba93, intAddress),
    dns_site_adnl: record(dict, 'site', 0xad01, hex),
    dns_storage_bag_id: record(dict, 'storage', 0x7473, hex),
  };
}

/** "me\0t\0alice\0" -> "alice.t.me" (labels are stored last-level first, each ended by a zero byte). */
export function fullDomainToName(bytes: Buffer): string {
  const labels = bytes.toString('utf8').split('\0');
  if (labels[labels.length - 1] === '') labels.pop();
  return labels.reverse().join('.');
}
