import { readFileSync } from 'node:fs';
import { beginCell, Cell, loadShardAccount, type TupleItem } from '@ton/core';
import { describe, expect, it } from 'vitest';
import {
  methodIdOf,
  parseLegacyStack,
  parseTypedStack,
  runGetMethod,
  StackError,
  toLegacyStack,
  toTypedStack,
} from '../../src/tvm/index.ts';

const fixtures = new URL('../fixtures/', import.meta.url);
const boc = (p: string) => Cell.fromBoc(readFileSync(new URL(p, fixtures)))[0];

const cellA = beginCell().storeUint(0xdeadbeef, 32).storeRef(beginCell().storeUint(7, 3).endCell()).endCell();
const cellB = beginCell().storeBit(1).storeUint(5, 5).endCell(); // 6 bits: not byte-aligned

/** A value that exercises every type, nested. */
const sample: TupleItem[] = [
  { type: 'int', value: 0n },
  { type: 'int', value: -5n },
  { type: 'int', value: (1n << 256n) - 1n },
  { type: 'int', value: -(1n << 256n) },
  { type: 'nan' },
  { type: 'cell', cell: cellA },
  { type: 'slice', cell: cellB },
  { type: 'builder', cell: cellB },
  { type: 'null' },
  { type: 'tuple', items: [{ type: 'int', value: 1n }, { type: 'cell', cell: cellA }, { type: 'tuple', items: [] }] },
  // a TVM list: (1, (2, (3, null)))
  { type: 'tuple', items: [{ type: 'int', value: 1n }, { type: 'tuple', items: [{ type: 'int', value: 2n }, { type: 'tuple', items: [{ type: 'int', value: 3n }, { type: 'null' }] }] }] },
];

function norm(items: TupleItem[]): unknown {
  return items.map((i) => {
    if (i.type === 'int') return ['int', i.value.toString()];
    if (i.type === 'cell' || i.type === 'slice' || i.type === 'builder') return [i.type, i.cell.hash().toString('hex')];
    if (i.type === 'tuple') return ['tuple', norm(i.items)];
    return [i.type];
  });
}

describe('stack codec', () => {
  it('typed form round-trips every type, nested', () => {
    const json = JSON.parse(JSON.stringify(toTypedStack(sample)));
    expect(json[0]).toEqual({ '@type': 'tvm.stackEntryNumber', number: { '@type': 'tvm.numberDecimal', number: '0' } });
    expect(json[8]).toEqual({ '@type': 'tvm.stackEntryList', list: { '@type': 'tvm.list', elements: [] } });
    expect(json[10]['@type']).toBe('tvm.stackEntryList');
    expect(json[10].list.elements.map((e: { number: { number: string } }) => e.number.number)).toEqual(['1', '2', '3']);
    expect(json[9]['@type']).toBe('tvm.stackEntryTuple');
    expect(norm(parseTypedStack(json))).toEqual(norm(sample));
  });

  it('legacy output: hex numbers, cells with bytes + object; parses back', () => {
    const json = JSON.parse(JSON.stringify(toLegacyStack(sample)));
    expect(json[0]).toEqual(['num', '0x0']);
    expect(json[1]).toEqual(['num', '-0x5']);
    expect(json[5][0]).toBe('cell');
    expect(Cell.fromBase64(json[5][1].bytes).hash().equals(cellA.hash())).toBe(true);
    expect(json[5][1].object).toEqual({ data: { b64: '3q2+7w==', len: 32 }, refs: [{ data: { b64: '4A==', len: 3 }, refs: [], special: false }], special: false });
    expect(json[6][0]).toBe('cell'); // slices come out as cells (reference behaviour)
    expect(json[8]).toEqual(['list', { '@type': 'tvm.list', elements: [] }]);
    expect(json[9][0]).toBe('tuple');
    const back = parseLegacyStack(json);
    const expected = sample.map((i) => (i.type === 'slice' ? { type: 'cell' as const, cell: i.cell } : i));
    expect(norm(back)).toEqual(norm(expected));
  });

  it('legacy input accepts every alias and cell shape', () => {
    const b64 = cellA.toBoc().toString('base64');
    const items = parseLegacyStack([
      ['num', 5],
      ['int', '0x1f'],
      ['number', '-0x10'],
      ['integer', '-12345678901234567890'],
      ['tvm.Cell', b64],
      ['tvm.Slice', b64],
      ['cell', { bytes: b64 }],
      ['slice', { data: { b64: '3q2+7w==', len: 32 }, refs: [{ data: { b64: '4A==', len: 3 }, refs: [] }] }],
      ['tuple', { '@type': 'tvm.tuple', elements: [{ '@type': 'tvm.stackEntryNumber', number: { number: '9' } }] }],
      ['list', { elements: [['num', 1]] }],
      ['null'],
    ]);
    expect(norm(items)).toEqual([
      ['int', '5'],
      ['int', '31'],
      ['int', '-16'],
      ['int', '-12345678901234567890'],
      ['cell', cellA.hash().toString('hex')],
      ['slice', cellA.hash().toString('hex')],
      ['cell', cellA.hash().toString('hex')],
      ['slice', cellA.hash().toString('hex')],
      ['tuple', [['int', '9']]],
      ['tuple', [['int', '1'], ['null']]],
      ['null'],
    ]);
  });

  it('bad entries give precise messages', () => {
    expect(() => parseLegacyStack([['foo', 1]])).toThrow(/stack\[0\]: unsupported stack entry type "foo"/);
    expect(() => parseLegacyStack([['num', 'abc']])).toThrow(/stack\[0\]: cannot parse number "abc"/);
    expect(() => parseLegacyStack([['num', 1e300]])).toThrow(StackError);
    expect(() => parseLegacyStack([['num', (1n << 257n).toString()]])).toThrow(/257-bit/);
    expect(() => parseLegacyStack([['tvm.Cell', 'not a boc']])).toThrow(/stack\[0\]: not a valid base64 BoC/);
    expect(() => parseLegacyStack('x')).toThrow(/expected an array/);
    expect(() => parseTypedStack([{ '@type': 'tvm.stackEntryFoo' }])).toThrow(/unsupported stack entry type "tvm.stackEntryFoo"/);
    expect(() => parseLegacyStack([['tuple', { elements: [{ '@type': 'tvm.stackEntryNumber', number: { number: 'x' } }] }]])).toThrow(
      /stack\[0\]\.elements\[0\]\.number: cannot parse number "x"/,
    );
  });

  it('method ids', () => {
    expect(methodIdOf('seqno')).toBe(85143);
    expect(methodIdOf('get_jetton_data')).toBe(106029);
    expect(methodIdOf('get_wallet_data')).toBe(97026);
    expect(methodIdOf('85143')).toBe(85143);
    expect(methodIdOf(85143)).toBe(85143);
  });
});

describe('get-method runner (real TVM emulator, real mainnet account states)', () => {
  const config = boc('config/mainnet-config-dict-sandbox-default.boc');

  function account(file: string) {
    const sa = loadShardAccount(boc(`accounts/${file}`).beginParse());
    const st = sa.account!.storage.state;
    if (st.type !== 'active') throw new Error('not active');
    return { address: sa.account!.addr, balance: sa.account!.storage.balance.coins, code: st.state.code!, data: st.state.data! };
  }

  it('wallet v4r2: seqno and subwallet id equal the first fields of its data', async () => {
    const a = account('mainnet-shardaccount-before-block-wc0-71398501-wallet-v4r2-0116acf8.boc');
    const ds = a.data.beginParse();
    const seqno = ds.loadUint(32);
    const subwallet = ds.loadUint(32);
    const pubkey = ds.loadUintBig(256);
    const now = 1757000000;
    const r1 = await runGetMethod({ ...a, config, now, method: 'seqno', stack: [] });
    expect(r1.exitCode).toBe(0);
    expect(r1.gasUsed).toBeGreaterThan(0n);
    expect(norm(r1.stack)).toEqual([['int', String(seqno)]]);
    const r2 = await runGetMethod({ ...a, config, now, method: 'get_subwallet_id', stack: [] });
    expect(norm(r2.stack)).toEqual([['int', String(subwallet)]]);
    const r3 = await runGetMethod({ ...a, config, now, method: 'get_public_key', stack: [] });
    expect(norm(r3.stack)).toEqual([['int', pubkey.toString()]]);
    const r4 = await runGetMethod({ ...a, config, now, method: 'no_such_method', stack: [] });
    expect(r4.exitCode).toBe(11);
  });

  it('USDT jetton wallet (library code): loads the library, returns balance, owner, master', async () => {
    const a = account('mainnet-shardaccount-before-block-wc0-71398501-usdt-jetton-wallet-mainnet.library-cell-2a587123.boc');
    const lib = boc('codes/usdt-jetton-wallet-mainnet.library-content.boc');
    const asked: string[] = [];
    const r = await runGetMethod({
      ...a,
      config,
      now: 1757000000,
      method: 'get_wallet_data',
      stack: [],
      loadLibrary: async (h) => {
        asked.push(h);
        return h === lib.hash().toString('hex') ? lib : null;
      },
    });
    expect(asked).toEqual([lib.hash().toString('hex')]);
    expect(r.exitCode).toBe(0);
    expect(r.stack.map((x) => x.type)).toEqual(['int', 'slice', 'slice', 'cell']);
    // balance = the jetton balance stored first in the data (status:uint4 balance:Coins in USDT's wallet)
    const ds = a.data.beginParse();
    ds.loadUint(4);
    const balance = ds.loadCoins();
    const owner = ds.loadAddress();
    expect(r.stack[0]).toEqual({ type: 'int', value: balance });
    const ownerOut = r.stack[1].type === 'slice' ? r.stack[1].cell.beginParse().loadAddress() : null;
    expect(ownerOut?.equals(owner)).toBe(true);
  });
});
