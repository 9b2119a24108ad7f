/**
 * DNS records (TEP-81 DNS items): change_dns_record#4eb1f0f9 query_id:uint64 key:bits256 value:^DNSRecord? to
 * the DNS item (the value is present iff the body has a reference). With a value it is change_dns; without one a
 * zero key renews the domain (renew_dns) and any other key deletes the record (delete_dns). A bounce of the
 * request (0xffffffff) belongs to the action. DNSRecord values (crypto/block/block.tlb):
 *   dns_next_resolver#ba93 resolver:MsgAddressInt
 *   dns_adnl_address#ad01 adnl_addr:bits256 flags:(## 8) …
 *   dns_smc_address#9fd3 smc_addr:MsgAddressInt flags:(## 8) …
 *   dns_storage_address#7473 bag_id:bits256
 *   dns_text#1eda _:Text   (text$_ chunks:(## 8) rest:(TextChunks chunks), chunk = len:(## 8) data:(bits len*8) next:^…)
 * The collection comes from the item's NftItem interface when the trace carries it.
 */
import type { Slice } from '@ton/core';
import { childWithOp, makeBlock, type Block, type Ctx, type EventNode } from '../core.ts';
import type { Family } from '../family.ts';
import { loadAddr, parseBody } from '../toolkit/cells.ts';
import { OP } from '../toolkit/opcodes.ts';

const BOUNCE = 0xffffffff;

export interface DnsValue {
  value_schema: string;
  value: string | null;
  flags: number | null;
}

function readText(s: Slice): string {
  let chunks = s.loadUint(8);
  const parts: Buffer[] = [];
  let cur = s;
  while (chunks > 0) {
    const len = cur.loadUint(8);
    parts.push(cur.loadBuffer(len));
    chunks--;
    if (chunks > 0) cur = cur.loadRef().beginParse();
  }
  return Buffer.concat(parts).toString('utf8').split(String.fromCharCode(0)).join('');
}

/** A DNSRecord as the reference stores it (schema name, value rendered as text, flags). */
export function parseDnsRecord(s: Slice): DnsValue {
  const schema = s.loadUint(16);
  switch (schema) {
    case 0xba93: return { value_schema: 'DNSNextResolver', value: loadAddr(s), flags: null };
    case 0xad01: {
      const adnl = s.loadBuffer(32).toString('hex');
      return { value_schema: 'DNSAdnlAddress', value: adnl, flags: s.loadUint(8) };
    }
    case 0x9fd3: {
      const addr = loadAddr(s);
      return { value_schema: 'DNSSmcAddress', value: addr, flags: s.loadUint(8) };
    }
    case 0x7473: return { value_schema: 'DNSStorageAddress', value: s.loadBuffer(32).toString('hex'), flags: null };
    case 0x1eda: return { value_schema: 'DNSText', value: readText(s), flags: null };
    default: return { value_schema: 'Unknown', value: null, flags: null };
  }
}

function match(n: EventNode, ctx: Ctx): Block | null {
  if (n.extOut || n.msg?.opcode !== OP.changeDnsRecord || !n.msg.destination) return null;
  const p = parseBody(n.msg.body, (s) => {
    s.loadUint(32);
    s.loadUintBig(64);
    const key = s.loadBuffer(32);
    const value = s.remainingRefs > 0 ? parseDnsRecord(s.loadRef().beginParse()) : null;
    return { key, value };
  });
  if (!p) return null;
  const nodes = [n];
  const bounce = childWithOp(n, BOUNCE);
  if (bounce) nodes.push(bounce);
  const collection = ctx.iface(n.msg.destination)?.nftItem?.collection ?? null;
  const cols = { source: n.msg.source, destination: n.msg.destination, asset: collection };
  const key = p.key.toString('hex');
  let b: Block;
  if (p.value) {
    b = makeBlock('change_dns', nodes, { ...cols, change_dns_record_data: { key, ...p.value } });
  } else if (p.key.every((x) => x === 0)) {
    b = makeBlock('renew_dns', nodes, cols);
  } else {
    b = makeBlock('delete_dns', nodes, { ...cols, change_dns_record_data: { key, value_schema: null, value: null, flags: null } });
  }
  b.failed = n.tx.aborted;
  return b;
}

export const dnsFamily: Family = { name: 'dns', match };
