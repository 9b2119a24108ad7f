/**
 * A small TL schema reader: turns TL combinator lines ("name#id field:type ... = Result;") into
 * constructors with their 32-bit ids. Ids not given explicitly are the CRC32 of the normalized line,
 * as in the reference tl-parser (parentheses dropped: "(vector t)" counts as "vector t").
 */
import { crc32 } from 'node:zlib';

export interface TlField {
  name: string;
  /** The field type, e.g. "int", "long", "bytes", "tonNode.blockIdExt", "vector liteServer.transactionId". */
  type: string;
  /** Conditional field: present when bit `bit` of field `flagField` is set. */
  cond?: { flagField: string; bit: number };
}

export interface TlConstructor {
  name: string;
  id: number;
  fields: TlField[];
  /** Result type ("liteServer.MasterchainInfo"). */
  result: string;
  isFunction: boolean;
}

export interface TlSchema {
  byName: Map<string, TlConstructor>;
  byId: Map<number, TlConstructor>;
  /** Constructors of each boxed result type. */
  byResult: Map<string, TlConstructor[]>;
}

/** Built-in lines of the TL prelude that carry no constructor we serialize through the schema. */
const BUILTIN = new Set(['int', 'long', 'double', 'string', 'object', 'function', 'bytes', 'int128', 'int256', 'vector']);

function normalize(line: string): string {
  return line.replace(/[()]/g, '').replace(/\s+/g, ' ').trim();
}

/** Parses TL schema text. Lines after "---functions---" are functions. */
export function parseTlSchema(text: string): TlSchema {
  const schema: TlSchema = { byName: new Map(), byId: new Map(), byResult: new Map() };
  let isFunction = false;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\/\/.*$/, '').trim();
    if (!line) continue;
    if (line === '---functions---') {
      isFunction = true;
      continue;
    }
    if (line === '---types---') {
      isFunction = false;
      continue;
    }
    const body = line.replace(/;\s*$/, '').trim();
    const eq = body.lastIndexOf('=');
    if (eq < 0) throw new Error(`TL schema: no "=" in line "${line}"`);
    const left = body.slice(0, eq).trim();
    const result = body.slice(eq + 1).trim();
    const parts = tokenize(left);
    const head = parts.shift()!;
    const [name, explicitId] = head.split('#');
    // Prelude lines (int, long, bytes, vector ...) are built into the codec; boolTrue/boolFalse/true stay
    // as constructors because Bool values are written as their ids.
    if (BUILTIN.has(name)) continue;
    const fields: TlField[] = [];
    for (const p of parts) {
      if (p.startsWith('{')) continue; // type parameters: not used by lite_api constructors
      const colon = p.indexOf(':');
      if (colon < 0) throw new Error(`TL schema: bad field "${p}" in "${line}"`);
      const fname = p.slice(0, colon);
      let type = p.slice(colon + 1).replace(/[()]/g, '');
      let cond: TlField['cond'];
      const m = /^(\w+)\.(\d+)\?(.+)$/.exec(type);
      if (m) {
        cond = { flagField: m[1], bit: Number(m[2]) };
        type = m[3];
      }
      fields.push({ name: fname, type, cond });
    }
    const normalized = explicitId ? '' : normalize(`${name} ${parts.join(' ')} = ${result}`.replace(/\s+=/, ' ='));
    const id = explicitId ? Number.parseInt(explicitId, 16) | 0 : crc32(normalized) | 0;
    const c: TlConstructor = { name, id, fields, result, isFunction };
    schema.byName.set(name, c);
    schema.byId.set(id, c);
    const list = schema.byResult.get(result) ?? [];
    list.push(c);
    schema.byResult.set(result, list);
  }
  return schema;
}

/** Splits on spaces, keeping "(vector x)" together. */
function tokenize(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ' ' && depth === 0) {
      if (cur) out.push(cur);
      cur = '';
    } else {
      cur += ch;
    }
  }
  if (cur) out.push(cur);
  return out;
}
