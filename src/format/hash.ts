/**
 * The one 256-bit hash encoder of the project. Internally hashes are 64 lower-case hex chars.
 * Accepted inputs: 64 hex chars (optionally `0x`-prefixed), 44-char base64 or base64url (padded),
 * 43-char unpadded base64url/base64.
 */

export class HashError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HashError';
  }
}

export type HashForm = 'hex' | 'b64' | 'b64url';

const HEX_RE = /^(?:0[xX])?([0-9a-fA-F]{64})$/;
const B64_RE = /^[A-Za-z0-9+/]{43}=?$/;
const B64URL_RE = /^[A-Za-z0-9_-]{43}=?$/;

export interface ParsedHash {
  /** 64 lower-case hex chars. */
  hex: string;
  givenType: HashForm;
}

export function tryParseHash(input: string): ParsedHash | null {
  if (typeof input !== 'string') return null;
  const s = input.trim();
  const m = HEX_RE.exec(s);
  if (m) return { hex: m[1].toLowerCase(), givenType: 'hex' };
  let givenType: HashForm;
  if (B64_RE.test(s)) givenType = 'b64';
  else if (B64URL_RE.test(s)) givenType = 'b64url';
  else return null;
  const bytes = Buffer.from(s, givenType === 'b64' ? 'base64' : 'base64url');
  if (bytes.length !== 32) return null;
  // Reject non-canonical encodings (non-zero padding bits) so that one hash has one spelling.
  if (bytes.toString('base64url') !== s.replace(/=$/, '').replace(/\+/g, '-').replace(/\//g, '_')) return null;
  return { hex: bytes.toString('hex'), givenType };
}

/** Parses a hash in any accepted form to lower-case hex; throws HashError naming the input. */
export function parseHash(input: string, what = 'hash'): string {
  const h = tryParseHash(input);
  if (!h) {
    throw new HashError(`invalid ${what} ${JSON.stringify(String(input).slice(0, 80))}: expected 64 hex chars or 44-char base64/base64url`);
  }
  return h.hex;
}

function bytesOf(hash: string | Uint8Array): Buffer {
  if (typeof hash === 'string') {
    if (!/^[0-9a-fA-F]{64}$/.test(hash)) throw new HashError(`not a 64-char hex hash: ${JSON.stringify(hash.slice(0, 80))}`);
    return Buffer.from(hash, 'hex');
  }
  if (hash.length !== 32) throw new HashError(`hash must be 32 bytes, got ${hash.length}`);
  return Buffer.from(hash);
}

/** Standard base64, 44 chars with `=` (API v2 and v3 output form). */
export function hashToBase64(hash: string | Uint8Array): string {
  return bytesOf(hash).toString('base64');
}

/** base64url with padding, 44 chars (toncenter's b64url form). */
export function hashToBase64Url(hash: string | Uint8Array): string {
  return bytesOf(hash).toString('base64url') + '=';
}

/** Lower-case hex, 64 chars. */
export function hashToHex(hash: string | Uint8Array): string {
  return bytesOf(hash).toString('hex');
}

/** Upper-case hex, 64 chars. */
export function hashToHexUpper(hash: string | Uint8Array): string {
  return hashToHex(hash).toUpperCase();
}
