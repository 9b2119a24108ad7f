/**
 * Message body decoding for API v3 (`/decode`, `message_content.decoded`), following toncenter's ton-marker
 * (ton-index-worker/ton-marker/src/logic.cpp): the first 32 bits pick the schemes of that opcode, tried in the
 * reference's order; the first that reads wins (trailing data is allowed, as tlbc's print_skip allows it);
 * signature-first wallet bodies are tried when no scheme matches. Nested cells are decoded recursively
 * (depth <= 10, an operation budget per body). Failures are the reference's `unknown: ...` strings.
 */
import { Cell } from '@ton/core';
import { SCHEMES, type Scheme } from './schemes.ts';
import { DecodeLimitError, MAX_OPS, readRecord, type Constructor, type Ctx } from './tlb.ts';
import { decodeWalletV3V4, W5_SCHEMES } from './wallets.ts';

/** Base64 text above this is refused before parsing (ton-marker's kMaxEncodedBocBytes). */
export const MAX_ENCODED_BOC = 2 * 1024 * 1024;

const byOp = new Map<number, Scheme[]>();
for (const s of [...SCHEMES.filter((x) => x.kind === 'internal'), ...W5_SCHEMES.map((c) => ({ cons: c, kind: 'internal' as const })), ...SCHEMES.filter((x) => x.kind === 'forward')]) {
  const op = s.cons.tag!.value >>> 0;
  byOp.set(op, [...(byOp.get(op) ?? []), s]);
}

/** Constructor name of an opcode (internal message bodies only, as the reference names opcodes); null if unknown. */
export function constructorName(op: number): string | null {
  return byOp.get(op >>> 0)?.find((s) => s.kind === 'internal')?.cons.name ?? null;
}

function tryCons(c: Constructor, cell: Cell, ctx: Ctx): Record<string, unknown> | null {
  try {
    return readRecord(c, cell.beginParse(), ctx);
  } catch (e) {
    if (e instanceof DecodeLimitError) throw e;
    return null;
  }
}

export type Decoded = { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

/** Decodes a body cell: an object, or the reference's `unknown: ...` reason. */
export function decodeCellResult(cell: Cell, ctx: Ctx = newCtx()): Decoded {
  const s = cell.beginParse(true);
  if (s.remainingBits === 0 && s.remainingRefs === 0) return { ok: true, value: { empty_cell: '' } };
  if (s.remainingBits < 32) return { ok: false, error: `unknown: boc is too small, size=${s.remainingBits}` };
  if (cell.isExotic) return { ok: false, error: 'unknown: exotic cell' };
  const op = s.preloadUint(32) >>> 0;
  try {
    for (const sc of byOp.get(op) ?? []) {
      const v = tryCons(sc.cons, cell, ctx);
      if (v) return { ok: true, value: v };
    }
    const w = (() => {
      try {
        return decodeWalletV3V4(cell, ctx);
      } catch (e) {
        if (e instanceof DecodeLimitError) throw e;
        return null;
      }
    })();
    if (w) return { ok: true, value: w };
  } catch (e) {
    if (e instanceof DecodeLimitError) return { ok: false, error: `unknown: decode limit - ${e.message}` };
    throw e;
  }
  return { ok: false, error: 'unknown: no parser succeeded' };
}

function newCtx(): Ctx {
  return {
    depth: 0,
    budget: { ops: MAX_OPS },
    decodeCell(cell, ctx) {
      const r = decodeCellResult(cell, ctx);
      return r.ok ? r.value : null;
    },
  };
}

/** `/decode` bodies: a base64 (or hex) BoC -> the decoded object, or `{error: "unknown: ..."}`. */
export function decodeBoc(text: string): Record<string, unknown> {
  const t = text.trim();
  if (t.length > MAX_ENCODED_BOC) return { error: 'unknown: encoded boc size limit exceeded' };
  let bytes: Buffer;
  if (/^[0-9a-fA-F]+$/.test(t) && t.length % 2 === 0) bytes = Buffer.from(t, 'hex');
  else if (/^[A-Za-z0-9+/_-]*={0,2}$/.test(t)) bytes = Buffer.from(t, 'base64');
  else return { error: 'unknown: failed to decode base64' };
  let cell: Cell;
  try {
    const cells = Cell.fromBoc(bytes);
    if (cells.length !== 1) return { error: 'unknown: failed to deserialize boc' };
    cell = cells[0];
  } catch {
    return { error: 'unknown: failed to deserialize boc' };
  }
  const r = decodeCellResult(cell);
  return r.ok ? r.value : { error: r.error };
}

/**
 * `message_content.decoded` of a stored body (base64 BoC): the decoded object, or null when nothing matches.
 * Text comments keep the back-compatible shape `{type, @type, comment}` the reference substitutes for them.
 */
export function decodeMessageBody(boc: string): Record<string, unknown> | null {
  let cell: Cell;
  try {
    cell = Cell.fromBase64(boc);
  } catch {
    return null;
  }
  const r = decodeCellResult(cell);
  if (!r.ok) return null;
  if (r.value['@type'] === 'text_comment' && typeof r.value.text === 'string') return { type: 'text_comment', '@type': 'text_comment', comment: r.value.text };
  return r.value;
}
