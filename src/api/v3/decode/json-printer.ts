/**
 * The JSON printer ton-marker drives (`tlb::JsonPrinter`, the tlbc-json fork of the TON node's tlblib):
 * it writes text as the generated TL-B code calls it, so its state machine is reproduced as is. An open
 * constructor is `{"@type":"name"`, an anonymous one `{`; `field(name)` writes `,"name":` (no comma right
 * after an anonymous open); integers of any width are quoted decimal strings, bit strings quoted upper-case
 * hex, Bool fields bare `true` / `false`. A nameless simple field gets an empty key `"":` unless a key was
 * just written. `fail` writes a `"<FATAL: ...>"` marker and closes every open object.
 */
import type { CellSlice } from './cell-slice.ts';

export class JsonPrinter {
  private buf: string[] = [];
  private level = 0;
  private firstField = false;
  private afterSemicolon = false;
  private limit = 0;
  failed = false;

  text(): string {
    return this.buf.join('');
  }

  setLimit(n: number): void {
    if (n > 0) this.limit = n;
  }

  /** `register_recursive_call`: `return limit_--;` (only the call that finds 0 is refused). */
  registerRecursiveCall(): boolean {
    return this.limit-- !== 0;
  }

  open(msg = ''): boolean {
    this.buf.push(msg === '' ? '{' : `{"@type":"${escapeJson(msg)}"`);
    this.level++;
    this.firstField = msg === '';
    this.afterSemicolon = false;
    return true;
  }

  close(): boolean {
    this.level--;
    if (this.level < 0) {
      this.failed = true;
      return false;
    }
    this.buf.push('}');
    this.firstField = false;
    this.afterSemicolon = false;
    return true;
  }

  cons(name: string): boolean {
    return this.open(name) && this.close();
  }

  field(name = ''): boolean {
    if (!this.firstField) this.buf.push(',');
    this.buf.push(`"${escapeJson(name)}":`);
    this.firstField = false;
    this.afterSemicolon = true;
    return true;
  }

  /** `field_uint(value[, name])`: without a name nothing but the value is written. */
  fieldUint(value: bigint | number, name = ''): boolean {
    this.afterSemicolon = false;
    if (name) this.field(name);
    this.buf.push(`"${value.toString()}"`);
    return true;
  }

  private keyIfNeeded(): void {
    if (!this.afterSemicolon) this.field('');
    this.afterSemicolon = false;
  }

  private named(name: string | undefined): void {
    if (name === undefined) return;
    this.afterSemicolon = false;
    if (name) this.field(name);
  }

  fetchBitsField(cs: CellSlice, n: number, name?: string): boolean {
    this.named(name);
    this.keyIfNeeded();
    const hex = cs.fetchHex(n);
    if (hex === null) return false;
    this.buf.push(`"${hex}"`);
    return true;
  }

  /** `fetch_int_field` / `fetch_uint_field` (n <= 64) and the 256-bit variants: a quoted decimal. */
  fetchIntField(cs: CellSlice, n: number, signed: boolean, name?: string): boolean {
    this.named(name);
    this.keyIfNeeded();
    const v = signed ? cs.fetchInt(n) : cs.fetchUint(n);
    if (v === null) return false;
    this.buf.push(`"${v.toString()}"`);
    return true;
  }

  fetchBoolField(cs: CellSlice, name?: string): boolean {
    this.named(name);
    this.keyIfNeeded();
    const v = cs.fetchUint(1);
    if (v === null) return false;
    this.buf.push(v ? 'true' : 'false');
    return true;
  }

  out(s: string): boolean {
    this.afterSemicolon = false;
    this.buf.push(`"${escapeJson(s)}"`);
    return true;
  }

  outInt(v: bigint | number): boolean {
    this.afterSemicolon = false;
    this.buf.push(`"${v.toString()}"`);
    return true;
  }

  fail(msg: string): boolean {
    this.buf.push(`"<FATAL: ${escapeJson(msg)}>"`);
    this.level++;
    while (this.level > 0) {
      this.buf.push('}');
      this.level--;
    }
    this.failed = true;
    return false;
  }

  writeRaw(s: string): boolean {
    this.buf.push(s);
    return true;
  }
}

/** `JsonPrinter::escape_string`: quotes, backslash, \n \r \t \b \f, other control characters and DEL as \u00xx. */
export function escapeJson(s: string): string {
  if (!needsEscape(s)) return s;
  let r = '';
  for (const ch of s) {
    const c = ch.charCodeAt(0);
    switch (ch) {
      case '"': r += '\\"'; break;
      case '\\': r += '\\\\'; break;
      case '\n': r += '\\n'; break;
      case '\r': r += '\\r'; break;
      case '\t': r += '\\t'; break;
      case '\b': r += '\\b'; break;
      case '\f': r += '\\f'; break;
      default:
        r += c < 32 || c === 127 ? `\\u${c.toString(16).padStart(4, '0')}` : ch;
    }
  }
  return r;
}

function needsEscape(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 32 || c === 34 || c === 92 || c === 127) return true;
  }
  return false;
}
