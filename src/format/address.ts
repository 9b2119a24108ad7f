/**
 * The one address parser / formatter of the project.
 *
 * Friendly form (TON docs `foundations/addresses/formats.mdx`): 36 bytes = flag byte (0x11 bounceable,
 * 0x51 non-bounceable, +0x80 testnet-only), workchain (int8), 32-byte account id, CRC16-XMODEM of the
 * first 34 bytes; rendered as 48 chars of base64 or base64url. Raw form: `<wc>:<64 hex>`.
 */

export type AddressForm = 'raw_form' | 'friendly_bounceable' | 'friendly_non_bounceable';

/** Canonical address: workchain + account id as 64 lower-case hex chars. */
export interface AccountAddress {
  workchain: number;
  /** 64 lower-case hex chars. */
  hash: string;
}

/** What a parse learned about the input besides the canonical address. */
export interface ParsedAddress extends AccountAddress {
  givenType: AddressForm;
  /** Friendly inputs only: the bounceable flag; raw input: undefined. */
  bounceable?: boolean;
  /** Friendly inputs only: the testnet-only flag; raw input: false. */
  testOnly: boolean;
  /** Friendly inputs only: whether the input used the url-safe alphabet. */
  urlSafe?: boolean;
}

export class AddressError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AddressError';
  }
}

const FLAG_BOUNCEABLE = 0x11;
const FLAG_NON_BOUNCEABLE = 0x51;
const FLAG_TEST_ONLY = 0x80;

/** CRC16-XMODEM (poly 0x1021, init 0), as used by friendly addresses. */
export function crc16(data: Uint8Array): number {
  let crc = 0;
  for (const byte of data) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc;
}

const RAW_RE = /^(-?\d{1,3}):([0-9a-fA-F]{64})$/;
const FRIENDLY_STD_RE = /^[A-Za-z0-9+/]{48}$/;
const FRIENDLY_URL_RE = /^[A-Za-z0-9_-]{48}$/;

function parseRaw(input: string): ParsedAddress | null {
  const m = RAW_RE.exec(input);
  if (!m) return null;
  const workchain = Number(m[1]);
  if (workchain < -128 || workchain > 127) return null;
  return { workchain, hash: m[2].toLowerCase(), givenType: 'raw_form', testOnly: false };
}

function parseFriendly(input: string): ParsedAddress | null {
  let urlSafe: boolean;
  if (FRIENDLY_URL_RE.test(input) && !FRIENDLY_STD_RE.test(input)) urlSafe = true;
  else if (FRIENDLY_STD_RE.test(input)) urlSafe = false;
  else return null;
  // A string made of letters and digits only is valid in both alphabets; decoding is the same.
  const bytes = Buffer.from(input, urlSafe ? 'base64url' : 'base64');
  if (bytes.length !== 36) return null;
  const crc = crc16(bytes.subarray(0, 34));
  if (((crc >> 8) & 0xff) !== bytes[34] || (crc & 0xff) !== bytes[35]) return null;
  let flag = bytes[0];
  const testOnly = (flag & FLAG_TEST_ONLY) !== 0;
  if (testOnly) flag ^= FLAG_TEST_ONLY;
  if (flag !== FLAG_BOUNCEABLE && flag !== FLAG_NON_BOUNCEABLE) return null;
  const bounceable = flag === FLAG_BOUNCEABLE;
  const workchain = bytes[1] > 127 ? bytes[1] - 256 : bytes[1];
  return {
    workchain,
    hash: bytes.subarray(2, 34).toString('hex'),
    givenType: bounceable ? 'friendly_bounceable' : 'friendly_non_bounceable',
    bounceable,
    testOnly,
    urlSafe,
  };
}

/** Parses any address form; returns null when the input is not an address. */
export function tryParseAddress(input: string): ParsedAddress | null {
  if (typeof input !== 'string') return null;
  const s = input.trim();
  return parseRaw(s) ?? parseFriendly(s);
}

/**
 * Parses any address form: raw `wc:hex` (hex in any case) or friendly base64 / base64url, bounceable
 * or not, testnet flag or not. Throws AddressError naming the input otherwise. A bare 64-hex string
 * without a workchain is rejected (as the C++ reference does).
 */
export function parseAddress(input: string): ParsedAddress {
  const parsed = tryParseAddress(input);
  if (!parsed) {
    const shown = typeof input === 'string' ? JSON.stringify(input.length > 80 ? input.slice(0, 80) + '…' : input) : String(input);
    throw new AddressError(`invalid address ${shown}: expected <workchain>:<64 hex> or a 48-char friendly base64/base64url address`);
  }
  return parsed;
}

/** `0:ABCD…` raw form; upper-case hex as API v3 renders it unless `lowerCase` is set. */
export function formatRaw(addr: AccountAddress, opts: { lowerCase?: boolean } = {}): string {
  return `${addr.workchain}:${opts.lowerCase ? addr.hash.toLowerCase() : addr.hash.toUpperCase()}`;
}

export interface FriendlyOptions {
  bounceable: boolean;
  testOnly?: boolean;
  /** base64url (`-`/`_`) when true (the default), standard base64 (`+`/`/`) otherwise. */
  urlSafe?: boolean;
}

/** User-friendly 48-char form. */
export function formatFriendly(addr: AccountAddress, opts: FriendlyOptions): string {
  const bytes = Buffer.alloc(36);
  bytes[0] = (opts.bounceable ? FLAG_BOUNCEABLE : FLAG_NON_BOUNCEABLE) | (opts.testOnly ? FLAG_TEST_ONLY : 0);
  bytes[1] = addr.workchain & 0xff;
  Buffer.from(addr.hash, 'hex').copy(bytes, 2);
  const crc = crc16(bytes.subarray(0, 34));
  bytes[34] = crc >> 8;
  bytes[35] = crc & 0xff;
  return bytes.toString(opts.urlSafe === false ? 'base64' : 'base64url');
}

/** Canonical string key of an address: lower-case raw form (`0:abcd…`), for maps and comparisons. */
export function addressKey(addr: AccountAddress): string {
  return `${addr.workchain}:${addr.hash.toLowerCase()}`;
}

export function sameAddress(a: AccountAddress, b: AccountAddress): boolean {
  return a.workchain === b.workchain && a.hash.toLowerCase() === b.hash.toLowerCase();
}

/** Normalises any accepted form to the raw upper-case form of API v3 (`0:ABC…`). */
export function toRawUpper(input: string): string {
  return formatRaw(parseAddress(input));
}
