/**
 * ↔ indexer/events/blocks/messages/common.py, and the pytoniq behaviours the message layouts rely on
 * (`load_address`, `load_snake_bytes`, `to_boc`, `bytes.decode('utf-8', errors='backslashreplace')`).
 */
import { Address, type Cell, ExternalAddress, type Slice } from '@ton/core';
import { accountId, type AccountId } from '../ton-utils.ts';

export const ExcessMessage = { opcode: 0xd53276db } as const;

/** `Slice.load_address`: addr_none -> null, addr_std -> Address, addr_extern -> ExternalAddress, addr_var fails. */
export function loadAddress(s: Slice): Address | ExternalAddress | null {
  return s.loadAddressAny();
}

/** `AccountId(addr)` of a loaded address; an external address is refused as upstream refuses it. */
export function addrAccount(a: Address | ExternalAddress | null): AccountId {
  if (a instanceof ExternalAddress) throw new Error('ExternalAddress is not supported');
  return a === null ? null : accountId(a);
}

/** `address.to_str(False).upper()` on a loaded address: the call fails on None as upstream's does. */
export function addrStr(a: Address | ExternalAddress | null): string {
  if (a === null) throw new TypeError("'NoneType' object has no attribute 'to_str'");
  if (a instanceof ExternalAddress) throw new TypeError('external address has no raw form');
  return accountId(a)!;
}

/** `load_snake_bytes`: this cell's whole bytes, then the first ref's, recursively. */
export function loadSnakeBytes(s: Slice): Buffer {
  const parts: Buffer[] = [];
  let cur: Slice | null = s;
  while (cur) {
    const bytes = Math.floor(cur.remainingBits / 8);
    if (bytes > 0) parts.push(cur.loadBuffer(bytes));
    cur = cur.remainingRefs > 0 ? cur.loadRef().beginParse() : null;
  }
  return Buffer.concat(parts);
}

/** `to_boc(hash_crc32=True)`: no index, with crc32c (the `te6cck…` form). */
export function toBocCrc(c: Cell): Buffer {
  return c.toBoc({ idx: false, crc32: true });
}

/** UTF-8 to text the way Python's `decode('utf-8', errors='backslashreplace')` does: bad bytes become `\xNN`. */
export function decodeUtf8Backslash(b: Uint8Array): string {
  let out = '';
  let i = 0;
  const bad = (x: number) => `\\x${x.toString(16).padStart(2, '0')}`;
  while (i < b.length) {
    const c = b[i];
    if (c < 0x80) {
      out += String.fromCharCode(c);
      i++;
      continue;
    }
    let need = 0, cp = 0, min = 0;
    if (c >= 0xc2 && c <= 0xdf) { need = 1; cp = c & 0x1f; min = 0x80; }
    else if (c >= 0xe0 && c <= 0xef) { need = 2; cp = c & 0x0f; min = 0x800; }
    else if (c >= 0xf0 && c <= 0xf4) { need = 3; cp = c & 0x07; min = 0x10000; }
    let ok = need > 0 && i + need <= b.length - 1;
    if (ok) {
      for (let k = 1; k <= need; k++) {
        const x = b[i + k];
        if ((x & 0xc0) !== 0x80) { ok = false; break; }
        cp = (cp << 6) | (x & 0x3f);
      }
    }
    if (ok && (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))) ok = false;
    if (!ok) {
      // an invalid sequence is replaced byte by byte; its continuation bytes are invalid starts on their own
      out += bad(c);
      i++;
      continue;
    }
    out += String.fromCodePoint(cp);
    i += need + 1;
  }
  return out;
}

/** A comment as upstream renders it: backslash-escaped invalid UTF-8, NUL characters dropped. */
export function commentText(b: Uint8Array): string {
  return decodeUtf8Backslash(b).split('\u0000').join('');
}

/**
 * ton_transfer body: `text_comment#00000000 text:SnakeData` / `encrypted_comment#2167da4b …`, or no body.
 * The comment is read only when the rest is whole bytes and at most one ref (a well-formed snake string).
 */
export class TonTransferMessage {
  static readonly opcode = 0;
  static readonly encryptedOpcode = 0x2167da4b;
  encrypted = false;
  comment: Buffer | null = null;

  constructor(s: Slice) {
    if (s.remainingBits < 32) return;
    const op = s.loadUint(32) >>> 0;
    this.encrypted = op === TonTransferMessage.encryptedOpcode;
    try {
      if (s.remainingBits >= 8 && s.remainingBits % 8 === 0 && s.remainingRefs <= 1) this.comment = loadSnakeBytes(s);
    } catch {
      this.comment = null;
    }
  }
}
