/**
 * Get-method interfaces read from contract code: which get-methods a contract declares, without running it.
 * toncenter detects interfaces the same way (a code hash's method ids, `contract_methods`); here the code comes
 * from what the trace itself carries (a StateInit attached to a message).
 */
import { Cell, loadStateInit } from '@ton/core';
import { parseMethodIds } from '../../entities/code-methods.ts';
import { crc16 } from '../../format/index.ts';
import type { Ctx } from '../core.ts';
import { cellFromBoc } from './cells.ts';

/** Get-method id of a name: `(crc16(name) & 0xffff) | 0x10000`, the FunC/Tact/Tolk rule (as src/tvm/method-id.ts). */
export function getMethodId(name: string): number {
  return (crc16(Buffer.from(name, 'utf8')) & 0xffff) | 0x10000;
}

const methodsCache = new Map<string, Set<number> | null>();

/**
 * Method ids a code cell declares (recv_internal is 0), or null when the code does not start with the standard
 * method-dictionary prologue (hand-written Fift, a library cell, …). The table is read by the entities stage's
 * reader (a pure leaf module; the entities index would pull the TVM in).
 */
export function declaredMethodIds(code: Cell): Set<number> | null {
  const key = code.hash().toString('hex');
  const hit = methodsCache.get(key);
  if (hit !== undefined) return hit;
  const list = parseMethodIds(code);
  const ids = list ? new Set(list) : null;
  if (methodsCache.size >= 1024) methodsCache.clear();
  methodsCache.set(key, ids);
  return ids;
}

/** The code cell of a StateInit BoC (base64), or null. */
export function codeOfStateInit(initBoc: string | null | undefined): Cell | null {
  const c = cellFromBoc(initBoc);
  if (!c) return null;
  try {
    return loadStateInit(c.beginParse()).code ?? null;
  } catch {
    return null;
  }
}

/** True when the code declares every named get-method. */
export function declaresGetMethods(code: Cell | null, names: readonly string[]): boolean {
  const ids = code ? declaredMethodIds(code) : null;
  return !!ids && names.every((n) => ids.has(getMethodId(n)));
}

/**
 * Code hash (lower-case hex) of an account as the trace knows it: its interface record, or its state before /
 * after the trace. Null when the trace does not say.
 */
export function codeHashOf(ctx: Ctx, addr: string | null | undefined): string | null {
  if (!addr) return null;
  const st = ctx.trace.accountStates?.[addr];
  const h = ctx.iface(addr)?.codeHash ?? st?.before?.codeHash ?? st?.after?.codeHash ?? null;
  return h ? h.toLowerCase() : null;
}

/** True when the trace's interface record of the account names the given toncenter interface. */
export function hasInterface(ctx: Ctx, addr: string | null | undefined, name: string): boolean {
  return !!addr && !!ctx.iface(addr)?.raw?.[name];
}
