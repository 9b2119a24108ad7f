// TEP-64 content decoding on content cells built by the standard's TL-B (token-standard TEP-64):
// offchain#01 / onchain#00 with snake#00 and chunks#01 values, `^ContentData` values and direct ones.
import { createHash } from 'node:crypto';
import { beginCell, Dictionary } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { parseTokenContent } from '../../src/contracts/index.ts';

const key = (name: string) => BigInt('0x' + createHash('sha256').update(name).digest('hex'));

describe('TEP-64 content', () => {
  it('off-chain: the URI, across snake cells', () => {
    const tail = beginCell().storeBuffer(Buffer.from('/meta.json')).endCell();
    const c = beginCell().storeUint(0x01, 8).storeBuffer(Buffer.from('https://example.org')).storeRef(tail).endCell();
    expect(parseTokenContent(c)).toEqual({ uri: 'https://example.org/meta.json' });
  });

  it('on-chain: standard attributes (snake, chunked, direct values), image_data as base64, unknown keys and non-UTF-8 left out', () => {
    const d = Dictionary.empty(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell());
    d.set(key('name'), beginCell().storeUint(0, 8).storeBuffer(Buffer.from('Tether ')).storeRef(beginCell().storeBuffer(Buffer.from('USD')).endCell()).endCell());
    const chunks = Dictionary.empty(Dictionary.Keys.Uint(32), Dictionary.Values.Cell());
    chunks.set(0, beginCell().storeBuffer(Buffer.from('USD')).endCell());
    chunks.set(1, beginCell().storeBuffer(Buffer.from('₮')).endCell());
    d.set(key('symbol'), beginCell().storeUint(1, 8).storeDict(chunks).endCell());
    d.set(key('image_data'), beginCell().storeUint(0, 8).storeBuffer(Buffer.from([0x89, 0x50, 0x4e, 0x47])).endCell());
    d.set(key('description'), beginCell().storeUint(0, 8).storeBuffer(Buffer.from([0xff, 0xfe])).endCell());
    d.set(key('not_standard'), beginCell().storeUint(0, 8).storeBuffer(Buffer.from('x')).endCell());
    const content = beginCell().storeUint(0x00, 8).storeDict(d).endCell();
    expect(parseTokenContent(content)).toEqual({ name: 'Tether USD', symbol: 'USD₮', image_data: Buffer.from([0x89, 0x50, 0x4e, 0x47]).toString('base64') });
    // values stored directly in the dictionary (no ref), as some minters do
    const direct = Dictionary.empty(Dictionary.Keys.BigUint(256), {
      serialize: (v: string, b) => b.storeUint(0, 8).storeBuffer(Buffer.from(v)),
      parse: () => '',
    });
    direct.set(key('decimals'), '6');
    expect(parseTokenContent(beginCell().storeUint(0, 8).storeDict(direct).endCell())).toEqual({ decimals: '6' });
  });

  it('not content: null', () => {
    expect(parseTokenContent(beginCell().storeUint(0x02, 8).endCell())).toBeNull();
    expect(parseTokenContent(beginCell().endCell())).toBeNull();
  });
});
