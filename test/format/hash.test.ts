import { readdirSync, readFileSync } from 'node:fs';
import { Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import {
  formatOpcode,
  formatShardHex,
  formatShardSigned,
  hashToBase64,
  hashToBase64Url,
  hashToHex,
  highloadTypeOfCodeHash,
  parseHash,
  parseOpcode,
  parseShard,
  tryParseHash,
  walletTypeOfCodeHash,
} from '../../src/format/index.ts';

const fixtures = new URL('../fixtures/', import.meta.url);

describe('hash formats', () => {
  it('real tx hashes: hex, base64 and base64url (padded or not) all parse to the same hex', () => {
    const files = readdirSync(new URL('txs/', fixtures)).filter((f) => f.endsWith('.boc'));
    expect(files.length).toBeGreaterThan(20);
    for (const f of files) {
      const cell = Cell.fromBoc(readFileSync(new URL('txs/' + f, fixtures)))[0];
      const hex = cell.hash().toString('hex');
      const b64 = cell.hash().toString('base64');
      expect(hashToHex(hex)).toBe(hex);
      expect(hashToBase64(hex)).toBe(b64);
      expect(hashToBase64(cell.hash())).toBe(b64);
      expect(parseHash(hex)).toBe(hex);
      expect(parseHash(hex.toUpperCase())).toBe(hex);
      expect(parseHash('0x' + hex)).toBe(hex);
      expect(parseHash(b64)).toBe(hex);
      expect(parseHash(hashToBase64Url(hex))).toBe(hex);
      expect(parseHash(hashToBase64Url(hex).slice(0, 43))).toBe(hex);
      expect(tryParseHash(b64)?.givenType).toBe('b64');
    }
  });

  it('a known tx: mainnet tick-tock f87f… from the manifest', () => {
    const hex = 'f87f2de8a7b8cb7c289a80cc5a7aaf4a0855dd51b73920c1523db66edc2adeef';
    expect(hashToBase64(hex)).toBe(Buffer.from(hex, 'hex').toString('base64'));
    expect(hashToBase64(hex)).toHaveLength(44);
    expect(hashToBase64Url(hex)).not.toMatch(/[+/]/);
  });

  it('rejects malformed hashes with a message naming the parameter', () => {
    for (const s of ['', 'abc', 'f87f2de8a7b8cb7c289a80cc5a7aaf4a0855dd51b73920c1523db66edc2adee', 'zz7f2de8a7b8cb7c289a80cc5a7aaf4a0855dd51b73920c1523db66edc2adeef', '+4At6Ke4y3wompDMWnqvSgi81RtzkgwVI9tm7cKt7v=']) {
      expect(tryParseHash(s)).toBeNull();
    }
    expect(() => parseHash('nope', 'root_hash')).toThrow(/invalid root_hash "nope"/);
  });
});

describe('code hashes of the standard wallets', () => {
  it('match the fixture code BoCs', () => {
    const expected: Record<string, string> = {
      'wallet-v1r1': 'wallet v1 r1', 'wallet-v1r2': 'wallet v1 r2', 'wallet-v1r3': 'wallet v1 r3',
      'wallet-v2r1': 'wallet v2 r1', 'wallet-v2r2': 'wallet v2 r2', 'wallet-v3r1': 'wallet v3 r1',
      'wallet-v3r2': 'wallet v3 r2', 'wallet-v4r1': 'wallet v4 r1', 'wallet-v4r2': 'wallet v4 r2',
      'wallet-v5beta.library-cell': 'wallet v5 beta', 'wallet-v5r1': 'wallet v5 r1',
    };
    for (const [file, type] of Object.entries(expected)) {
      const code = Cell.fromBoc(readFileSync(new URL(`codes/${file}.boc`, fixtures)))[0];
      expect(walletTypeOfCodeHash(code.hash().toString('hex'))).toBe(type);
    }
    const hl = Cell.fromBoc(readFileSync(new URL('codes/highload-wallet-v3.boc', fixtures)))[0];
    expect(highloadTypeOfCodeHash(hl.hash().toString('hex'))).toBe('highload v3');
    expect(walletTypeOfCodeHash(hl.hash().toString('hex'))).toBeNull();
  });
});

describe('opcodes and shards', () => {
  it('opcodes follow the API v3 rules', () => {
    expect(parseOpcode('0x0f8a7ea5')).toBe(0x0f8a7ea5);
    expect(parseOpcode('10')).toBe(0x10); // hex first
    expect(parseOpcode('-1')).toBe(-1);
    expect(parseOpcode('0x80000000')).toBe(-2147483648);
    expect(formatOpcode(-2147483648)).toBe('0x80000000');
    expect(formatOpcode(0x0f8a7ea5)).toBe('0x0f8a7ea5');
    expect(formatOpcode(-1)).toBe('0xffffffff');
    expect(() => parseOpcode('0x123456789')).toThrow(/invalid opcode/);
    expect(() => parseOpcode('jetton')).toThrow(/invalid opcode/);
  });

  it('shards: signed decimal and unsigned hex', () => {
    expect(parseShard('-9223372036854775808')).toBe(-(1n << 63n));
    expect(parseShard('8000000000000000')).toBe(-(1n << 63n));
    expect(parseShard('0x8000000000000000')).toBe(-(1n << 63n));
    expect(parseShard('2000000000000000')).toBe(0x2000000000000000n);
    expect(parseShard('2305843009213693952')).toBe(0x2000000000000000n);
    expect(formatShardSigned(-(1n << 63n))).toBe('-9223372036854775808');
    expect(formatShardHex(-(1n << 63n))).toBe('8000000000000000');
    expect(formatShardHex(0xa000000000000000n)).toBe('A000000000000000');
    expect(() => parseShard('shard')).toThrow(/invalid shard/);
    expect(() => parseShard('99999999999999999999')).toThrow(/out of 64-bit range/);
  });
});
