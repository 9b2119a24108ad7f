// The adnl package's packet parser and ciphers replaced by native code: same packets, same errors.
import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { adnlPacketClass, installAdnlSpeedups, parseAdnlPacket } from '../../src/source/adnl-transport.ts';

/** A packet built here from the ADNL layout, independently of both parsers. */
function packet(payload: Buffer, nonce = randomBytes(32)): Buffer {
  const size = Buffer.alloc(4);
  size.writeUInt32LE(32 + payload.length + 32);
  return Buffer.concat([size, nonce, payload, createHash('sha256').update(nonce).update(payload).digest()]);
}

describe('adnl transport speedups', () => {
  const cls = adnlPacketClass();
  // the package's own parser, taken before any install (test files run in their own module graph)
  const before = cls!.parse;
  const original = before.bind(cls);

  it('finds the package shape it replaces', () => {
    expect(cls).not.toBeNull();
    expect(installAdnlSpeedups()).toBe(true);
    expect(cls!.parse).not.toBe(before);
  });

  it('parses what the original parses, with the trailing bytes of the next packet left over', () => {
    installAdnlSpeedups();
    for (const n of [0, 1, 1000, 300_000]) {
      const payload = randomBytes(n);
      const data = Buffer.concat([packet(payload), randomBytes(7)]);
      const ours = cls!.parse(data)!;
      const theirs = original(data)!;
      expect(Buffer.compare(ours.payload, payload)).toBe(0);
      expect(Buffer.compare(ours.payload, theirs.payload)).toBe(0);
      expect(Buffer.compare(ours.nonce, theirs.nonce)).toBe(0);
      expect(ours.length).toBe(theirs.length);
      expect(ours.length).toBe(data.length - 7);
    }
  });

  it('null while incomplete, and the same error on a bad hash', () => {
    const data = packet(randomBytes(100));
    for (const cut of [3, 4, 50, data.length - 1]) {
      expect(parseAdnlPacket(data.subarray(0, cut), () => 1)).toBeNull();
      expect(original(data.subarray(0, cut))).toBeNull();
    }
    const bad = Buffer.from(data);
    bad[60] ^= 1;
    expect(() => parseAdnlPacket(bad, () => 1)).toThrow('ADNLPacket: Bad packet hash.');
    expect(() => original(bad)).toThrow('ADNLPacket: Bad packet hash.');
  });

  it('the cipher the package now uses is AES-256-CTR with its key and counter', async () => {
    installAdnlSpeedups();
    const { createRequire } = await import('node:module');
    const aes = createRequire(createRequire(import.meta.url).resolve('ton-lite-client'))('adnl/dist/aes.js') as { createCipheriv: typeof createCipheriv };
    const key = randomBytes(32);
    const iv = randomBytes(16);
    const text = randomBytes(1000);
    const a = aes.createCipheriv('aes-256-ctr', key, iv).update(text);
    expect(Buffer.compare(a, createCipheriv('aes-256-ctr', key, iv).update(text))).toBe(0);
  });
});
