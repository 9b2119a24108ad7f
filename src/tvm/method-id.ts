import { crc16 } from '../format/index.ts';

/**
 * Get-method id: a name is `(crc16(name) & 0xffff) | 0x10000` (FunC/Tact convention); a string that
 * parses as an integer is a numeric id (as tonlib does); `main`/`recv_internal` are 0, `recv_external` -1.
 */
export function methodIdOf(method: string | number): number {
  if (typeof method === 'number') {
    if (!Number.isInteger(method) || method < -(2 ** 31) || method >= 2 ** 31) throw new RangeError(`method id ${method} is not a 32-bit integer`);
    return method;
  }
  const s = method.trim();
  if (/^-?\d+$/.test(s)) {
    const n = Number(s);
    if (n < -(2 ** 31) || n >= 2 ** 31) throw new RangeError(`method id ${s} is not a 32-bit integer`);
    return n;
  }
  if (s === 'main' || s === 'recv_internal') return 0;
  if (s === 'recv_external') return -1;
  return (crc16(Buffer.from(s, 'utf8')) & 0xffff) | 0x10000;
}
