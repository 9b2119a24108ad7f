/**
 * Get-method ids a contract's code declares. FunC, Tolk and Tact (through FunC) compile the method table to
 * the same prologue: `SETCP0` (FF00), then `DICTPUSHCONST n` (F4A4 + 10-bit key length + the dictionary as a
 * ref) and `DICTIGETJMPZ`; the dictionary's keys are the method ids (recv_internal 0, recv_external -1, get
 * methods `crc16(name) | 0x10000`). Same reading as toncenter's worker (`parse_contract_methods.cpp`).
 */
import { Cell, Dictionary, type DictionaryValue } from '@ton/core';
import { BoundedMap } from '../util/index.ts';

// Values (the method bodies) are not needed: a parser that reads nothing.
const SKIP: DictionaryValue<null> = {
  serialize() {
    throw new Error('read-only');
  },
  parse() {
    return null;
  },
};

const SETCP0 = 0xff00;
const DICTPUSHCONST = 0b1111010010100;

/** Method ids in key order, or null when the code does not start with the standard prologue (e.g. wallet v1-v3, library cells). */
export function parseMethodIds(code: Cell): number[] | null {
  if (code.isExotic) return null;
  try {
    const s = code.beginParse();
    if (s.remainingBits < 16 + 14 + 10 || s.loadUint(16) !== SETCP0) return null;
    if (s.loadUint(13) !== DICTPUSHCONST || s.loadUint(1) !== 1) return null;
    const keyLen = s.loadUint(10);
    if (keyLen < 1 || keyLen > 32 || s.remainingRefs < 1) return null;
    return Dictionary.loadDirect(Dictionary.Keys.Int(keyLen), SKIP, s.loadRef()).keys();
  } catch {
    return null;
  }
}

/** parseMethodIds over a base64 BoC (null when it does not parse or has no standard method table). */
export function methodIdsOfBoc(boc: string): number[] | null {
  let code: Cell;
  try {
    code = Cell.fromBase64(boc);
  } catch {
    return null;
  }
  return parseMethodIds(code);
}

/**
 * Method ids per code hash, parsed once per process, for every reader (the store's `contract_methods` rows,
 * interface detection in the entities and traces stages, codes fetched from a liteserver): a code is carried by
 * every block that deploys or changes an account with it (on the devnet, by every block), and parsing it costs far
 * more than the lookup. A code's method table never changes, so an answer is never stale.
 */
const methodsByCode = new BoundedMap<string, number[] | null>(50_000);

/** Method ids of the code whose hash is `codeHash` (hex, either case); `code` (the cell or its base64 BoC) is parsed on a miss only. */
export function methodsOfCode(codeHash: string, code: Cell | string): number[] | null {
  const key = codeHash.toLowerCase();
  let m = methodsByCode.get(key);
  if (m === undefined) {
    m = typeof code === 'string' ? methodIdsOfBoc(code) : parseMethodIds(code);
    methodsByCode.set(key, m);
  }
  return m;
}
