// One code -> get-methods cache for every reader: the store's contract_methods rows (blockToRows), interface
// detection (entities, traces) and codes fetched from a liteserver all read contracts' methodsOfCode, which parses a
// code once per code hash. Real codes from test/fixtures/codes (MANIFEST.md).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { detectInterfaces, methodsOfCode, parseMethodIds } from '../../src/contracts/index.ts';

const CODES = join(import.meta.dirname, '../fixtures/codes');
const code = (f: string) => Cell.fromBoc(readFileSync(join(CODES, f)))[0];

describe('methodsOfCode', () => {
  it('parses a cell or its BoC the same, and the first answer per code hash is the one kept', () => {
    const master = code('acton-JettonV1Master.boc');
    const hash = master.hash().toString('hex');
    const fromBoc = methodsOfCode(hash, master.toBoc().toString('base64'));
    expect(fromBoc).toEqual(parseMethodIds(master));
    // the same hash in the other case is the same entry: the cell given now is not parsed
    expect(methodsOfCode(hash.toUpperCase(), code('wallet-v3r2.boc'))).toBe(fromBoc);
  });

  it('interface detection reads the same cache', () => {
    const collection = code('getgems-nft-fixprice-sale-v3r3.boc');
    const hash = collection.hash().toString('hex');
    expect(detectInterfaces(hash, collection)).toEqual(['nft_sale']);
    // a cell without a method table under that hash still answers from the entry made above
    expect(detectInterfaces(hash, code('wallet-v3r2.boc'))).toEqual(['nft_sale']);
    // and one made by detection serves methodsOfCode
    const multisig = code('acton-MultisigV2.boc');
    const multisigHash = multisig.hash().toString('hex');
    detectInterfaces(multisigHash, multisig);
    expect(methodsOfCode(multisigHash, 'not a BoC')).toEqual(parseMethodIds(multisig));
  });

  it('a code without a method table, and a BoC that does not parse, are null', () => {
    expect(methodsOfCode('00'.repeat(32), code('wallet-v3r2.boc'))).toBeNull();
    expect(methodsOfCode('01'.repeat(32), 'not a BoC')).toBeNull();
  });
});
