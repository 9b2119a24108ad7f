import { readFileSync } from 'node:fs';
import { Address } from '@ton/core';
import { describe, expect, it } from 'vitest';
import {
  AddressError,
  formatFriendly,
  formatRaw,
  isBounceableByDefault,
  parseAddress,
  toRawUpper,
  tryParseAddress,
  userFriendly,
  WALLET_CODE_HASHES,
} from '../../src/format/index.ts';

interface ManifestRow {
  account?: string;
  tx_hash?: string;
}
const manifest = JSON.parse(readFileSync(new URL('../fixtures/manifest.json', import.meta.url), 'utf8')) as ManifestRow[];
const accounts = [...new Set(manifest.map((r) => r.account).filter((a): a is string => typeof a === 'string' && a.includes(':')))];

describe('address formats', () => {
  it('has real accounts from the fixtures, both workchains', () => {
    expect(accounts.length).toBeGreaterThan(30);
    expect(accounts.some((a) => a.startsWith('-1:'))).toBe(true);
    expect(accounts.some((a) => a.startsWith('0:'))).toBe(true);
  });

  it('the C++ reference test vector (tests/utils/test_001_detect_address.py)', () => {
    const b = parseAddress('EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N');
    expect(b.givenType).toBe('friendly_bounceable');
    expect(b.testOnly).toBe(false);
    expect(formatRaw(b)).toBe('0:83DFD552E63729B472FCBCC8C45EBCC6691702558B68EC7527E1BA403A0F31A8');
    expect(formatRaw(b, { lowerCase: true })).toBe('0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8');
    expect(formatFriendly(b, { bounceable: false })).toBe('UQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqEBI');
    const nb = parseAddress('UQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqEBI');
    expect(nb.givenType).toBe('friendly_non_bounceable');
    expect(nb.hash).toBe(b.hash);
  });

  it('every form of every fixture account round-trips and agrees with @ton/core', () => {
    for (const raw of accounts) {
      const p = parseAddress(raw);
      expect(p.givenType).toBe('raw_form');
      expect(formatRaw(p, { lowerCase: true })).toBe(raw.toLowerCase());
      expect(parseAddress(raw.toUpperCase()).hash).toBe(p.hash);
      const core = Address.parse(raw);
      for (const bounceable of [true, false]) {
        for (const testOnly of [true, false]) {
          for (const urlSafe of [true, false]) {
            const s = formatFriendly(p, { bounceable, testOnly, urlSafe });
            expect(s).toBe(core.toString({ bounceable, testOnly, urlSafe }));
            const back = parseAddress(s);
            expect(back.workchain).toBe(p.workchain);
            expect(back.hash).toBe(p.hash);
            expect(back.bounceable).toBe(bounceable);
            expect(back.testOnly).toBe(testOnly);
            expect(back.givenType).toBe(bounceable ? 'friendly_bounceable' : 'friendly_non_bounceable');
          }
        }
      }
    }
  });

  it('friendly prefixes: E/U mainnet, k/0 testnet; -1 workchain is Ef/Uf', () => {
    const p = parseAddress(accounts.find((a) => a.startsWith('0:'))!);
    expect(formatFriendly(p, { bounceable: true })[0]).toBe('E');
    expect(formatFriendly(p, { bounceable: false })[0]).toBe('U');
    expect(formatFriendly(p, { bounceable: true, testOnly: true })[0]).toBe('k');
    expect(formatFriendly(p, { bounceable: false, testOnly: true })[0]).toBe('0');
    const mc = parseAddress('-1:3333333333333333333333333333333333333333333333333333333333333333');
    expect(formatFriendly(mc, { bounceable: true })).toBe('Ef8zMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzM0vF');
    expect(toRawUpper('Ef8zMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzM0vF')).toBe('-1:3333333333333333333333333333333333333333333333333333333333333333');
  });

  it('rejects bad input with a message naming it', () => {
    const bad = [
      '',
      'hello',
      '83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8', // bare hex: no workchain
      '0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a', // 63 hex
      '999:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8', // workchain out of int8
      'EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2M', // bad crc
      'EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2', // short
      'EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8x+B_N', // mixed alphabets
    ];
    for (const s of bad) {
      expect(tryParseAddress(s)).toBeNull();
      expect(() => parseAddress(s)).toThrow(AddressError);
    }
    expect(() => parseAddress('hello')).toThrow(/invalid address "hello"/);
  });

  it('bounceable rule of the API v3 address book', () => {
    expect(isBounceableByDefault(null)).toBe(false); // no code: uninit / nonexist
    expect(isBounceableByDefault('feb5ff6820e2ff0d9483e7e0d62c817d846789fb4ae580c878866d959dabd5c0')).toBe(false); // v4r2
    expect(isBounceableByDefault('F3D7CA53493DEEDAC28B381986A849403CBAC3D2C584779AF081065AF0AC4B93')).toBe(false); // v5 beta, any case
    expect(isBounceableByDefault('11acad7955844090f283bf238bc1449871f783e7cc0979408d3f4859483e8525')).toBe(true); // highload v3 is not in the list
    expect(Object.keys(WALLET_CODE_HASHES)).toHaveLength(11);
    const p = parseAddress('0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8');
    expect(userFriendly(p, { codeHash: null })).toBe('UQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqEBI');
    expect(userFriendly(p, { codeHash: '11acad7955844090f283bf238bc1449871f783e7cc0979408d3f4859483e8525' })).toBe(
      'EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N',
    );
    expect(userFriendly(p, { codeHash: null, testnet: true })[0]).toBe('0');
  });
});
