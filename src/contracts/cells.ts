/** Small helpers over @ton/core cells for the message body parsers. */
import { Address, Cell, type Slice } from '@ton/core';
import '../format/ton-core-sha256.ts'; // native SHA-256 under @ton/core's cell hashing

/** Raw upper-case form `wc:HEX` of an internal address (API v3 style). */
export function rawAddr(a: Address | null | undefined): string | null {
  return a ? `${a.workChain}:${a.hash.toString('hex').toUpperCase()}` : null;
}

/** Raw upper-case form `wc:HEX` of an internal address. */
export function rawAddress(a: Address): string {
  return `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;
}

/** Loads MsgAddress; internal -> raw form, addr_none / external -> null. */
export function loadAddr(s: Slice): string | null {
  const a = s.loadAddressAny();
  return a instanceof Address ? rawAddr(a) : null;
}

/**
 * Parsed bodies, shared by all matchers: several families try the same message, and a BoC parse (with cell
 * hashing) costs far more than the lookup. Cells are immutable; the cache is cleared when full.
 */
const parsed = new Map<string, Cell | null>();
const PARSED_MAX = 4096;

export function cellFromBoc(b64: string | null | undefined): Cell | null {
  if (!b64) return null;
  const hit = parsed.get(b64);
  if (hit !== undefined) return hit;
  let cell: Cell | null;
  try {
    cell = Cell.fromBase64(b64);
  } catch {
    cell = null;
  }
  if (parsed.size >= PARSED_MAX) parsed.clear();
  parsed.set(b64, cell);
  return cell;
}

/** BoC (base64) with crc32c and without index, the form the reference stores payloads in. */
export function bocB64(c: Cell): string {
  return c.toBoc({ idx: false, crc32: true }).toString('base64');
}

/** Runs a body parser on a BoC; any TL-B mismatch gives null. */
export function parseBody<T>(body: string | null | undefined, parser: (s: Slice) => T): T | null {
  const c = cellFromBoc(body);
  if (!c) return null;
  try {
    return parser(c.beginParse());
  } catch {
    return null;
  }
}

/** Reads a snake-encoded byte string (this cell's bits, then the first ref, recursively). */
export function loadSnakeBytes(s: Slice): Buffer {
  const parts: Buffer[] = [];
  let cur: Slice | null = s;
  while (cur) {
    const bits = cur.remainingBits - (cur.remainingBits % 8);
    if (bits > 0) parts.push(cur.loadBuffer(bits / 8));
    cur = cur.remainingRefs > 0 ? cur.loadRef().beginParse() : null;
  }
  return Buffer.concat(parts);
}

/** `Either X ^X` payload: returns the payload as its own cell (null when empty). */
export function loadEitherCell(s: Slice): Cell | null {
  if (s.remainingBits === 0 && s.remainingRefs === 0) return null;
  if (s.remainingBits === 0) return null;
  const inRef = s.loadBit();
  if (inRef) return s.loadRef();
  if (s.remainingBits === 0 && s.remainingRefs === 0) return null;
  return s.asCell();
}

/** Decodes a payload that may be a text (op 0) or encrypted (0x2167da4b) comment. */
export function decodeComment(payload: Cell | null): { comment: Buffer | null; encrypted: boolean; op: number | null } {
  if (!payload) return { comment: null, encrypted: false, op: null };
  try {
    const s = payload.beginParse();
    if (s.remainingBits < 32) return { comment: null, encrypted: false, op: null };
    const op = s.loadUint(32);
    if (op === 0) return { comment: loadSnakeBytes(s), encrypted: false, op };
    if (op === 0x2167da4b) return { comment: loadSnakeBytes(s), encrypted: true, op };
    return { comment: null, encrypted: false, op };
  } catch {
    return { comment: null, encrypted: false, op: null };
  }
}

/** Text of a comment as the reference renders it (invalid UTF-8 escaped, NULs dropped). */
export function commentText(b: Buffer): string {
  const dec = new TextDecoder('utf-8', { fatal: false });
  return dec.decode(b).split(String.fromCharCode(0)).join('');
}
