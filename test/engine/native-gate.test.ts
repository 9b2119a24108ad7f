import { describe, expect, it } from 'vitest';
import { exceptionPacket, parseHello } from '../../src/engine/native-gate.ts';

const varuint = (n: number) => {
  const out: number[] = [];
  do {
    out.push((n & 0x7f) | (n >= 128 ? 0x80 : 0));
    n = Math.floor(n / 128);
  } while (n > 0);
  return Buffer.from(out);
};
const str = (s: string) => Buffer.concat([varuint(Buffer.byteLength(s)), Buffer.from(s)]);
/** A Hello as ClickHouse's client writes it (Connection::sendHello), here with a password longer than 127 bytes. */
const hello = (user: string, password: string) => Buffer.concat([varuint(0), str('ClickHouse client'), varuint(26), varuint(7), varuint(54477), str('default'), str(user), str(password)]);

describe('the native gate reads a client Hello', () => {
  it('user and password, and where the Hello ends; null until it is whole', () => {
    const pw = 'p'.repeat(200);
    const h = Buffer.concat([hello('reader', pw), Buffer.from([9, 9, 9])]);
    expect(parseHello(h)).toEqual({ user: 'reader', password: pw, length: h.length - 3 });
    for (let cut = 0; cut < h.length - 3; cut++) expect(parseHello(h.subarray(0, cut)), `${cut} bytes`).toBeNull();
  });

  it('a first packet that is not a Hello, or a string longer than a Hello may be, is refused', () => {
    expect(() => parseHello(Buffer.from([1, 0]))).toThrow(/not a Hello \(type 1\)/);
    expect(() => parseHello(Buffer.concat([varuint(0), varuint(1 << 20)]))).toThrow(/longer than a Hello may be/);
  });

  it("answers with ClickHouse's Exception packet: type 2, Int32 code, name, message, empty stack, no nested", () => {
    const p = exceptionPacket(516, 'x: Authentication failed');
    expect([...p.subarray(0, 5)]).toEqual([2, 0x04, 0x02, 0, 0]);
    expect(p.subarray(5).toString('latin1')).toBe('\x0dDB::Exception\x18x: Authentication failed\x00\x00');
  });
});
