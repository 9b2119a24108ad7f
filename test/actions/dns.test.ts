// dns.py: change_dns_record to a DNS item, its three outcomes (change, renew, delete) and every record schema the
// message layout reads, with and without the item's record (its collection). No fixture trace or block has a
// change_dns_record, so the bodies are written from the dns-contract TL-B (change_dns_record#4eb1f0f9, DNSRecord).
import { Address, beginCell, type Builder, type Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { classifyTrace, toApiAction, type ActionRow } from '../../src/actions/index.ts';
import type { AccountInterfaces, Trace } from '../../src/actions/model.ts';
import { addr, buildTrace } from './trace-builder.ts';

const OWNER = addr(0, 'a1'), ITEM = addr(0, 'b2'), TARGET = addr(0, 'c3');
const DNS_COLLECTION = '0:B774D95EB20543F186C06B371AB88AD704F7E256130CAF96189368A7D0CB6CCF';
const KEY = Buffer.alloc(32, 0xe8); // sha256("wallet") in a real resolver; any 256 bits here
const item: Record<string, AccountInterfaces> = { [ITEM]: { raw: { NftItem: { address: ITEM, init: true, index: 1, collection_address: DNS_COLLECTION, owner_address: OWNER, content: {} } } } };

const change = (key: Buffer, value: ((b: Builder) => Builder) | null): Cell => {
  const b = beginCell().storeUint(0x4eb1f0f9, 32).storeUint(7, 64).storeBuffer(key);
  return (value ? b.storeRef(value(beginCell())) : b).endCell();
};
function run(body: Cell, opts: { interfaces?: Record<string, AccountInterfaces>; aborted?: boolean } = {}): ActionRow[] {
  const t: Trace = buildTrace({ account: OWNER, from: null, out: [{ account: ITEM, from: OWNER, body, aborted: opts.aborted }] }, { interfaces: opts.interfaces ?? item });
  return classifyTrace(t).actions;
}

describe('change_dns / renew_dns / delete_dns', () => {
  it('a smart contract address record: value, flags, key, collection', () => {
    const [a] = run(change(KEY, (b) => b.storeUint(0x9fd3, 16).storeAddress(Address.parseRaw(TARGET)).storeUint(1, 8)));
    expect(a).toMatchObject({ type: 'change_dns', source: OWNER, destination: ITEM, asset: DNS_COLLECTION, success: true });
    expect(a.change_dns_record_data).toEqual({ value_schema: 'DNSSmcAddress', value: TARGET, flags: 1, address: null, key: KEY.toString('hex') });
    expect(toApiAction(a).details).toEqual({
      key: KEY.toString('hex'),
      value: { sum_type: 'DNSSmcAddress', dns_smc_address: TARGET, dns_adnl_address: null, dns_text: null, dns_next_resolver_address: null, dns_storage_address: null, flags: 1 },
      source: OWNER, asset: ITEM, nft_collection: DNS_COLLECTION,
    });
  });

  it('next resolver, ADNL and storage records', () => {
    const [next] = run(change(KEY, (b) => b.storeUint(0xba93, 16).storeAddress(Address.parseRaw(TARGET))));
    expect(next.change_dns_record_data).toMatchObject({ value_schema: 'DNSNextResolver', value: TARGET, flags: null });
    const adnl = Buffer.alloc(32, 0x11);
    const [a] = run(change(KEY, (b) => b.storeUint(0xad01, 16).storeBuffer(adnl).storeUint(0, 8)));
    expect(a.change_dns_record_data).toMatchObject({ value_schema: 'DNSAdnlAddress', value: adnl.toString('hex'), flags: 0 });
    const bag = Buffer.alloc(32, 0x22);
    const [st] = run(change(KEY, (b) => b.storeUint(0x7473, 16).storeBuffer(bag)));
    expect(st.change_dns_record_data).toMatchObject({ value_schema: 'DNSStorageAddress', value: bag.toString('hex'), flags: null });
    // the Go API shows a storage address (and a text) under dns_storage_address
    expect((toApiAction(st).details.value as Record<string, unknown>).dns_storage_address).toBe(bag.toString('hex'));
  });

  it('text records: one chunk; two chunks read from the record cell itself (upstream drops the ref); three fail', () => {
    const [one] = run(change(KEY, (b) => b.storeUint(0x1eda, 16).storeUint(1, 8).storeUint(5, 8).storeBuffer(Buffer.from('hello'))));
    expect(one.change_dns_record_data).toMatchObject({ value_schema: 'DNSText', value: 'hello' });
    const [two] = run(change(KEY, (b) => b.storeUint(0x1eda, 16).storeUint(2, 8).storeUint(2, 8).storeBuffer(Buffer.from('ab')).storeUint(2, 8).storeBuffer(Buffer.from('cd')).storeRef(beginCell().storeUint(0, 8))));
    expect(two.change_dns_record_data).toMatchObject({ value_schema: 'DNSText', value: 'abcd' });
    const three = run(change(KEY, (b) => b.storeUint(0x1eda, 16).storeUint(3, 8).storeUint(1, 8).storeBuffer(Buffer.from('a')).storeUint(1, 8).storeBuffer(Buffer.from('b')).storeUint(1, 8).storeBuffer(Buffer.from('c')).storeRef(beginCell())));
    expect(three.map((a) => a.type)).toEqual(['call_contract']);
  });

  it('an unknown schema is a change with schema Unknown and no value', () => {
    const [a] = run(change(KEY, (b) => b.storeUint(0x1234, 16)));
    expect(a.change_dns_record_data).toEqual({ value_schema: 'Unknown', flags: null, address: null, key: KEY.toString('hex') });
  });

  it('no value: the zero key renews, any other key deletes', () => {
    const [renew] = run(change(Buffer.alloc(32), null));
    expect(renew).toMatchObject({ type: 'renew_dns', source: OWNER, destination: ITEM, asset: DNS_COLLECTION });
    expect(toApiAction(renew).details).toEqual({ asset: ITEM, source: OWNER, nft_collection: DNS_COLLECTION });
    const [del] = run(change(KEY, null));
    expect(del).toMatchObject({ type: 'delete_dns', asset: DNS_COLLECTION });
    expect(toApiAction(del).details).toEqual({ hash: KEY.toString('hex'), asset: ITEM, source: OWNER, nft_collection: DNS_COLLECTION });
  });

  it('an item the repository does not know: no collection; a failed change is failed; its bounce is part of it', () => {
    const [a] = run(change(KEY, null), { interfaces: {} });
    expect(a).toMatchObject({ type: 'delete_dns', asset: null });
    const [f] = run(change(KEY, null), { aborted: true });
    expect(f.success).toBe(false);
    const bounced = buildTrace(
      { account: OWNER, from: null, out: [{ account: ITEM, from: OWNER, body: change(KEY, null), aborted: true, out: [{ account: OWNER, from: ITEM, bounced: true, body: beginCell().storeUint(0xffffffff, 32).storeUint(0x4eb1f0f9, 32).endCell() }] }] },
      { interfaces: item },
    );
    const actions = classifyTrace(bounced).actions;
    expect(actions.map((x) => x.type)).toEqual(['delete_dns']);
    expect(actions[0].tx_hashes).toHaveLength(3);
  });
});
