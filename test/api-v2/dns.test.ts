/**
 * dnsResolve's core (src/api/v2/dns.ts), every branch of ton-http-api-cpp's resolution loop: the answers are TVM
 * stacks as a resolver's dnsresolve returns them, holding real DNSRecord cells built by the block.tlb layouts.
 */
import { Address, beginCell, Cell, Dictionary, type TupleItem } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { adnlIdEncode, MAX_RESOLVER_CALLS, parseRecord, prepareDomain, resolveDns, rootFromConfig, type ResolverAnswer } from '../../src/api/v2/dns.ts';
import { ApiError } from '../../src/api/errors.ts';
import type { AccountAddress } from '../../src/format/index.ts';

const A = (n: number): AccountAddress => ({ workchain: 0, hash: n.toString(16).padStart(64, '0') });
const addr = (a: AccountAddress) => new Address(a.workchain, Buffer.from(a.hash, 'hex'));
const friendly = (a: AccountAddress) => addr(a).toString({ urlSafe: true, bounceable: true, testOnly: false });

const nextResolver = (a: AccountAddress) => beginCell().storeUint(0xba93, 16).storeAddress(addr(a)).endCell();
const smcAddress = (a: AccountAddress) => beginCell().storeUint(0x9fd3, 16).storeAddress(addr(a)).storeUint(0, 8).endCell();
const adnl = (id: Buffer) => beginCell().storeUint(0xad01, 16).storeBuffer(id).storeUint(0, 8).endCell();
const storage = (bag: Buffer) => beginCell().storeUint(0x7473, 16).storeBuffer(bag).endCell();
/** text$_ chunks:(## 8) rest:(TextChunks chunks): two chunks, the second in a reference. */
const text = (a: string, b: string) =>
  beginCell()
    .storeUint(0x1eda, 16)
    .storeUint(2, 8)
    .storeUint(a.length, 8)
    .storeBuffer(Buffer.from(a))
    .storeRef(beginCell().storeUint(b.length, 8).storeBuffer(Buffer.from(b)))
    .endCell();

function records(entries: [bigint, Cell][]): Cell {
  const d = Dictionary.empty(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell());
  for (const [k, v] of entries) d.set(k, v);
  return beginCell().storeDictDirect(d).endCell();
}

const answer = (bits: number, second: TupleItem, exitCode = 0): ResolverAnswer => ({ exitCode, stack: [{ type: 'int', value: BigInt(bits) }, second] });
const cell = (c: Cell): TupleItem => ({ type: 'cell', cell: c });

async function dnsError(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).status).toBe(502);
    return (e as ApiError).message;
  }
  throw new Error('resolved');
}

describe('prepareDomain (encode_name)', () => {
  it('lower case, one trailing dot dropped, labels reversed and zero-terminated; \\0 first for an explicit resolver', () => {
    expect(prepareDomain('Foundation.TON.', false)).toEqual({ domain: 'foundation.ton', encoded: Buffer.from('ton\0foundation\0') });
    expect(prepareDomain('sub', true).encoded).toEqual(Buffer.from('\0sub\0'));
    expect(prepareDomain('ÄÖ.ton', false).encoded).toEqual(Buffer.concat([Buffer.from('ton\0'), Buffer.from('äö', 'utf8'), Buffer.alloc(1)]));
    for (const bad of ['', '.', 'a..b', '.a', 'a b', 'a\tb', 'a\u007fb', 'bad\uD800']) expect(() => prepareDomain(bad, false), bad).toThrow(/failed to parse domain/);
    // 127 bytes pass, 128 do not (the explicit resolver's \0 counts)
    expect(prepareDomain('x'.repeat(125), false).encoded.length).toBe(126);
    expect(() => prepareDomain('x'.repeat(125), true)).not.toThrow();
    expect(() => prepareDomain('x'.repeat(126), true)).toThrow(/must not exceed 127 bytes/);
  });
});

describe('records', () => {
  it('each DNSRecord kind as tonlib renders it; unknown tags and short cells as their BoC', () => {
    const r = A(7);
    expect(parseRecord(nextResolver(r))).toEqual({ '@type': 'dns.entryDataNextResolver', resolver: { '@type': 'accountAddress', account_address: friendly(r) } });
    expect(parseRecord(smcAddress(r))).toEqual({ '@type': 'dns.entryDataSmcAddress', smc_address: { '@type': 'accountAddress', account_address: friendly(r) } });
    const bag = Buffer.alloc(32, 0xab);
    expect(parseRecord(storage(bag))).toEqual({ '@type': 'dns.entryDataStorageAddress', bag_id: 'ab'.repeat(32) });
    expect(parseRecord(text('hello ', 'world'))).toEqual({ '@type': 'dns.entryDataText', text: 'hello world' });
    const id = Buffer.alloc(32, 0x11);
    expect(parseRecord(adnl(id))).toEqual({ '@type': 'dns.entryDataAdnlAddress', adnl_address: { '@type': 'adnlAddress', adnl_address: adnlIdEncode(id) } });
    const unknown = beginCell().storeUint(0x1234, 16).storeUint(5, 8).endCell();
    expect(parseRecord(unknown)).toEqual({ '@type': 'dns.entryDataUnknown', bytes: unknown.toBoc({ idx: false }).toString('base64') });
    const short = beginCell().storeUint(0xba, 8).endCell();
    expect(parseRecord(short)['@type']).toBe('dns.entryDataUnknown');
  });

  it('malformed known records are a 502', async () => {
    const badFlags = beginCell().storeUint(0x9fd3, 16).storeAddress(addr(A(1))).storeUint(2, 8).endCell();
    expect(await dnsError(Promise.resolve().then(() => parseRecord(badFlags)))).toMatch(/^DNS resolution: malformed DNS record: flags 2 > 1$/);
    const cutText = beginCell().storeUint(0x1eda, 16).storeUint(1, 8).storeUint(10, 8).storeBuffer(Buffer.from('abc')).endCell();
    expect(await dnsError(Promise.resolve().then(() => parseRecord(cutText)))).toMatch(/^DNS resolution: malformed DNS record: /);
  });

  it('adnl address: 55 base32 characters carrying the id and its CRC16', () => {
    const s = adnlIdEncode(Buffer.alloc(32, 0));
    expect(s).toHaveLength(55);
    expect(s).toMatch(/^[a-z2-7]+$/);
    expect(adnlIdEncode(Buffer.alloc(32, 1))).not.toBe(s);
  });

  it('root resolver from config param 4; missing or malformed is a 502', async () => {
    expect(rootFromConfig(beginCell().storeBuffer(Buffer.alloc(32, 0xee)).endCell())).toEqual({ workchain: -1, hash: 'ee'.repeat(32) });
    expect(await dnsError(Promise.resolve().then(() => rootFromConfig(null)))).toBe('DNS resolution: config parameter 4 is missing');
    expect(await dnsError(Promise.resolve().then(() => rootFromConfig(beginCell().storeUint(1, 8).endCell())))).toBe('DNS resolution: config parameter 4 must contain a 256-bit address');
  });
});

describe('resolution loop', () => {
  const domain = prepareDomain('foundation.ton', false); // ton\0foundation\0 (15 bytes)

  it('delegation root -> collection -> item, every category of the final dictionary in key order', async () => {
    const calls: [string, string][] = [];
    const dict = records([
      [2n, smcAddress(A(42))],
      [1n, text('a', 'b')],
    ]);
    const res = await resolveDns(domain, A(1), async (r, sub) => {
      calls.push([r.hash.slice(-2), sub.toString('latin1')]);
      if (r.hash.endsWith('01')) return answer(32, cell(nextResolver(A(2)))); // consumes "ton\0"
      if (r.hash.endsWith('02')) return answer(80, cell(nextResolver(A(3))), 1); // "foundation", exit code 1 is fine too
      return answer(8, cell(dict)); // the item consumes the last "\0"
    });
    expect(calls).toEqual([['01', 'ton\0foundation\0'], ['02', 'foundation\0'], ['03', '\0']]);
    const key = (n: number) => Buffer.from(n.toString(16).padStart(64, '0'), 'hex').toString('base64');
    expect(res).toEqual({
      '@type': 'dns.resolved',
      entries: [
        { '@type': 'dns.entry', name: 'foundation.ton', category: key(1), entry: { '@type': 'dns.entryDataText', text: 'ab' } },
        { '@type': 'dns.entry', name: 'foundation.ton', category: key(2), entry: { '@type': 'dns.entryDataSmcAddress', smc_address: { '@type': 'accountAddress', account_address: friendly(A(42)) } } },
      ],
    });
  });

  it('no records: null with nothing or everything consumed is an empty answer; with part consumed a 502', async () => {
    expect(await resolveDns(domain, A(1), async () => answer(0, { type: 'null' }))).toEqual({ '@type': 'dns.resolved', entries: [] });
    expect(await resolveDns(domain, A(1), async () => answer(120, { type: 'null' }))).toEqual({ '@type': 'dns.resolved', entries: [] });
    expect(await dnsError(resolveDns(domain, A(1), async () => answer(32, { type: 'null' })))).toBe('DNS resolution: partial resolution without a next resolver');
  });

  it('every malformed answer is a 502 naming what is wrong', async () => {
    const cases: [ResolverAnswer, string][] = [
      [answer(32, cell(nextResolver(A(2))), 9), 'dnsresolve get-method failed with exit code 9'],
      [{ exitCode: 0, stack: [{ type: 'int', value: 8n }] }, 'expected a consumed-bit count and a record cell'],
      [{ exitCode: 0, stack: [cell(Cell.EMPTY), cell(Cell.EMPTY)] }, 'expected a consumed-bit count and a record cell'],
      [answer(12, cell(Cell.EMPTY)), 'consumed-bit count is outside the domain or not byte-aligned'],
      [answer(128, cell(Cell.EMPTY)), 'consumed-bit count is outside the domain or not byte-aligned'],
      [answer(-8, cell(Cell.EMPTY)), 'consumed-bit count is outside the domain or not byte-aligned'],
      [answer(0, cell(Cell.EMPTY)), 'invalid record cell'],
      [answer(32, { type: 'slice', cell: nextResolver(A(2)) }), 'invalid record cell'],
      [answer(16, cell(nextResolver(A(2)))), 'delegation splits a domain label'],
      [answer(32, cell(smcAddress(A(2)))), 'partial resolution did not return a next resolver'],
      [answer(120, cell(beginCell().storeBit(0).endCell())), 'invalid record dictionary'],
    ];
    for (const [a, msg] of cases) expect(await dnsError(resolveDns(domain, A(1), async () => a)), msg).toBe(`DNS resolution: ${msg}`);
    // a value that is more than one reference
    const d = Dictionary.empty(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell());
    d.set(1n, smcAddress(A(1)));
    const bad = beginCell().storeDictDirect(d, Dictionary.Keys.BigUint(256), { serialize: (v, b) => b.storeUint(1, 1).storeRef(v), parse: () => Cell.EMPTY }).endCell();
    expect(await dnsError(resolveDns(domain, A(1), async () => answer(120, cell(bad))))).toBe('DNS resolution: invalid record dictionary');
  });

  it('a label consumed without its zero byte is a valid delegation boundary', async () => {
    const seen: string[] = [];
    const res = await resolveDns(domain, A(1), async (r, sub) => {
      seen.push(sub.toString('latin1'));
      return r.hash.endsWith('01') ? answer(24, cell(nextResolver(A(2)))) : answer(96, cell(records([[3n, storage(Buffer.alloc(32, 1))]])));
    });
    expect(seen).toEqual(['ton\0foundation\0', '\0foundation\0']);
    expect((res.entries as { entry: unknown }[]).map((e) => e.entry)).toEqual([{ '@type': 'dns.entryDataStorageAddress', bag_id: '01'.repeat(32) }]);
  });

  it(`at most ${MAX_RESOLVER_CALLS} resolver calls`, async () => {
    const long = prepareDomain(Array.from({ length: 63 }, () => 'a').join('.'), true); // 127 bytes
    let n = 0;
    const msg = await dnsError(
      resolveDns(long, A(1), async () => {
        n++;
        return answer(8, cell(nextResolver(A(1 + n))));
      }),
    );
    expect(msg).toBe(`DNS resolution: resolver hop limit exceeded (${MAX_RESOLVER_CALLS} calls)`);
    expect(n).toBe(MAX_RESOLVER_CALLS);
  });
});
