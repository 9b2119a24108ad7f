// @ton/core's cell hashing on node:crypto: hashes still equal independent computations.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sha256 } from '@noble/hashes/sha2.js';
import { beginCell, Cell } from '@ton/core';
import { sha256_sync } from '@ton/crypto';
import { describe, expect, it } from 'vitest';
import { installNativeTonCoreSha256, nativeSha256Sync, tonCryptoSha256Module } from '../../src/format/ton-core-sha256.ts';
import { blockRootHash } from '../../src/ton/index.ts';

const FIX = join(import.meta.dirname, '..', 'fixtures', 'blocks', 'mainnet');

describe('native SHA-256 under @ton/core', () => {
  it('is installed in the module @ton/core loads, and @ton/crypto re-exports it', () => {
    expect(installNativeTonCoreSha256()).toBe(true);
    expect(tonCryptoSha256Module()!.sha256_sync).toBe(nativeSha256Sync);
    expect(sha256_sync).toBe(nativeSha256Sync);
  });

  it('same digests as @noble/hashes for buffers and UTF-8 strings', () => {
    for (const input of [Buffer.alloc(0), Buffer.from('abc'), Buffer.alloc(100_000, 7)]) {
      expect(Buffer.compare(nativeSha256Sync(input), Buffer.from(sha256(input)))).toBe(0);
    }
    expect(Buffer.compare(nativeSha256Sync('héllo ✓'), Buffer.from(sha256(Buffer.from('héllo ✓', 'utf-8'))))).toBe(0);
  });

  it("@ton/core's root hash of real blocks equals our own BoC parser's", () => {
    installNativeTonCoreSha256();
    for (const f of ['mainnet-mc-46991999.boc', 'mainnet-wc0-8000000000000000-71398501.boc']) {
      const boc = readFileSync(join(FIX, f));
      expect(Cell.fromBoc(boc)[0].hash().toString('hex')).toBe(blockRootHash(boc).toLowerCase());
    }
    // a built cell: the standard representation hashed by hand (d1 d2 data)
    const c = beginCell().storeUint(0xdeadbeef, 32).endCell();
    expect(c.hash().toString('hex')).toBe(Buffer.from(sha256(Buffer.from([0x00, 0x08, 0xde, 0xad, 0xbe, 0xef]))).toString('hex'));
  });
});
