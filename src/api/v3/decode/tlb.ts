/**
 * A small TL-B reader for message bodies, printing values the way toncenter's ton-marker does (tlbc
 * JsonPrinter over ton-marker's `schemes.tlb`): a record is `{"@type": constructor, field: value, ...}`
 * (anonymous `_` constructors have no "@type", anonymous `_:` fields are named ""), integers of any width
 * are decimal strings, `bits` are upper-case hex, `Bool` is true/false, a `Cell` / `^Cell` / `Any` field is
 * the base64 BoC of that cell, replaced by its own decoding when it decodes (ton-marker decodes nested
 * `te6c...` BoCs recursively). Simplified where tlbc prints TL-B plumbing: `MsgAddress` is the raw address
 * string `wc:HEX` (null for addr_none), `VarUInteger`/`Coins` a decimal string, `Maybe X` is X or null,
 * `Either X ^X` is X.
 */
import { Address, Cell, ExternalAddress, type Slice } from '@ton/core';

/** Decoding state shared by one top-level body: recursion depth and an operation budget (bodies are untrusted). */
export interface Ctx {
  depth: number;
  budget: { ops: number };
  /** decodes a nested cell (a payload); null when nothing matches */
  decodeCell(cell: Cell, ctx: Ctx): Record<string, unknown> | null;
}

export type Reader = (s: Slice, ctx: Ctx) => unknown;

export class DecodeLimitError extends Error {}

export const MAX_DEPTH = 10;
export const MAX_OPS = 20_000;

function spend(ctx: Ctx, n = 1): void {
  ctx.budget.ops -= n;
  if (ctx.budget.ops < 0) throw new DecodeLimitError('decode operation limit exceeded');
}

/** BoC as ton-marker prints cells (std_boc_serialize: no index, no crc). */
export function bocOf(c: Cell): string {
  return c.toBoc({ idx: false, crc32: false }).toString('base64');
}

/** A cell field: its decoding when one of the schemes matches, else its BoC. */
export function cellValue(c: Cell, ctx: Ctx): unknown {
  if (ctx.depth >= MAX_DEPTH) return bocOf(c);
  spend(ctx);
  const d = ctx.decodeCell(c, { ...ctx, depth: ctx.depth + 1 });
  return d ?? bocOf(c);
}

// ---------------------------------------------------------------- scalars

export const uint = (n: number): Reader => (s) => s.loadUintBig(n).toString();
export const int = (n: number): Reader => (s) => s.loadIntBig(n).toString();
export const bool: Reader = (s) => s.loadBit();
/** `bits n` (n a multiple of 4) as upper-case hex. */
export const bits = (n: number): Reader => (s) => {
  if (n % 8 === 0) return s.loadBuffer(n / 8).toString('hex').toUpperCase();
  return s.loadUintBig(n).toString(16).toUpperCase().padStart(Math.ceil(n / 4), '0');
};
/** `VarUInteger n`: `len:(#< n) value:(uint (len * 8))`. */
export const varuint = (n: number): Reader => (s) => s.loadVarUintBig(Math.ceil(Math.log2(n))).toString();
/** `Coins` / `Grams` = VarUInteger 16. */
export const coins: Reader = varuint(16);

function rawAddr(a: Address): string {
  return `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;
}

/** `MsgAddress`: addr_std -> "wc:HEX", addr_none -> null, addr_extern -> {@type addr_extern}. */
export const addr: Reader = (s) => {
  const a = s.loadAddressAny();
  if (a === null) return null;
  if (a instanceof ExternalAddress) return { '@type': 'addr_extern', len: String(a.bits), external_address: a.value.toString(16).toUpperCase() };
  return rawAddr(a);
};

/** `MsgAddressInt`: an internal address only. */
export const addrInt: Reader = (s) => rawAddr(s.loadAddress());

/** `SnakeString`: the cell's bytes then the first ref's, recursively; must be valid UTF-8. */
export const snakeText: Reader = (s, ctx) => {
  const parts: Buffer[] = [];
  let cur: Slice | null = s;
  while (cur) {
    spend(ctx);
    if (cur.remainingBits % 8 !== 0) throw new Error('snake string: not whole bytes');
    parts.push(cur.loadBuffer(cur.remainingBits / 8));
    if (cur.remainingRefs > 1) throw new Error('snake string: more than one ref');
    cur = cur.remainingRefs === 1 ? cur.loadRef().beginParse() : null;
  }
  return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(parts));
};

// ---------------------------------------------------------------- cells

/** `^Cell` */
export const refCell: Reader = (s, ctx) => cellValue(s.loadRef(), ctx);
/** `Cell` / `Any` inline: the rest of the slice (bits and refs) as a cell. */
export const restCell: Reader = (s, ctx) => {
  const c = s.asCell();
  s.skip(s.remainingBits);
  while (s.remainingRefs) s.loadRef();
  return cellValue(c, ctx);
};
/** `Either Cell ^Cell` */
export const eitherCell: Reader = (s, ctx) => (s.loadBit() ? refCell(s, ctx) : restCell(s, ctx));
/** `Maybe ^Cell` */
export const maybeRefCell: Reader = (s, ctx) => (s.loadBit() ? refCell(s, ctx) : null);

// ---------------------------------------------------------------- combinators

export const maybe = (r: Reader): Reader => (s, ctx) => (s.loadBit() ? r(s, ctx) : null);
/** `^X` */
export const ref = (r: Reader): Reader => (s, ctx) => {
  spend(ctx);
  return r(s.loadRef().beginParse(), ctx);
};
/** `Either X ^X` */
export const either = (r: Reader): Reader => (s, ctx) => (s.loadBit() ? ref(r)(s, ctx) : r(s, ctx));

export type Field = [name: string, reader: Reader];

/** A constructor: `name$bits` / `name#hex` (tag) followed by fields. `name` '' = anonymous `_`. */
export interface Constructor {
  name: string;
  tag: { bits: number; value: number } | null;
  fields: Field[];
}

export function cons(name: string, tag: Constructor['tag'], fields: Field[]): Constructor {
  return { name, tag, fields };
}

/** Reads a record of `c` (its tag included) as `{"@type": name, ...fields}`. */
export function readRecord(c: Constructor, s: Slice, ctx: Ctx): Record<string, unknown> {
  spend(ctx);
  if (c.tag) {
    const t = s.loadUint(c.tag.bits);
    if (t !== c.tag.value) throw new Error(`tag ${t} is not ${c.tag.value}`);
  }
  const out: Record<string, unknown> = c.name ? { '@type': c.name } : {};
  for (const [name, r] of c.fields) out[name] = r(s, ctx);
  return out;
}

/** A type with one or more constructors told apart by their tags. */
export const type = (...alts: Constructor[]): Reader => (s, ctx) => {
  for (const c of alts) {
    if (c.tag && (s.remainingBits < c.tag.bits || s.preloadUint(c.tag.bits) !== c.tag.value)) continue;
    return readRecord(c, s, ctx);
  }
  throw new Error(`no constructor of ${alts.map((a) => a.name).join('|')} matches`);
};

/** `$0101` style tag. */
export const bin = (b: string): Constructor['tag'] => ({ bits: b.length, value: parseInt(b, 2) });
/** `#0f8a7ea5` style tag. */
export const hex = (h: string): Constructor['tag'] => ({ bits: h.length * 4, value: parseInt(h, 16) });

/** `CurrencyCollection`: `{grams, other: {id: amount}}`. */
export const currencies: Reader = (s) => {
  const grams = s.loadCoins().toString();
  const other: Record<string, string> = {};
  if (s.loadBit()) {
    // extra_currencies$_ dict:(HashmapE 32 (VarUInteger 32)): the dict root is the ref just read
    const root = s.loadRef();
    const d = root.beginParse();
    walkVarUint32Dict(d, 32, '', other);
  }
  return { grams, other };
};

function walkVarUint32Dict(s: Slice, n: number, prefix: string, out: Record<string, string>): void {
  // hm_edge label then a leaf (n = 0) or a fork of two refs
  const label = readLabel(s, n);
  const key = prefix + label;
  const m = n - label.length;
  if (m === 0) {
    out[String(parseInt(key, 2))] = s.loadVarUintBig(5).toString();
    return;
  }
  walkVarUint32Dict(s.loadRef().beginParse(), m - 1, key + '0', out);
  walkVarUint32Dict(s.loadRef().beginParse(), m - 1, key + '1', out);
}

function readLabel(s: Slice, m: number): string {
  const w = Math.ceil(Math.log2(m + 1));
  const take = (k: number) => {
    let o = '';
    for (let i = 0; i < k; i++) o += s.loadBit() ? '1' : '0';
    return o;
  };
  if (!s.loadBit()) {
    let k = 0;
    while (s.loadBit()) k++;
    return take(k);
  }
  if (!s.loadBit()) return take(s.loadUint(w));
  const v = s.loadBit() ? '1' : '0';
  return v.repeat(s.loadUint(w));
}
