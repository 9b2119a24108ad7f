/** The reference's schemes (./schemes.tlb) parsed and analysed once, and the parser types ton-marker tries. */
import { readFileSync } from 'node:fs';
import { packagePath } from '../../../util/index.ts';
import { analyzeScheme } from './tlb/analyze.ts';
import type { Constructor, TypeDef } from './tlb/model.ts';
import { parseScheme, type Scheme } from './tlb/parse.ts';

let cached: Scheme | null = null;

export function scheme(): Scheme {
  if (!cached) {
    const s = parseScheme(readFileSync(packagePath('src', 'api', 'v3', 'decode', 'schemes.tlb'), 'utf8'));
    analyzeScheme(s);
    cached = s;
  }
  return cached;
}

export function typeNamed(name: string): TypeDef {
  const t = scheme().byName.get(name);
  if (!t) throw new Error(`scheme has no type ${name}`);
  return t;
}

/** logic.cpp's parser order: InternalMsgBody0..11, then ExternalMsgBody, then ForwardPayload. */
export const PARSER_TYPES = [...Array.from({ length: 12 }, (_, i) => `InternalMsgBody${i}`), 'ExternalMsgBody', 'ForwardPayload'];

/** The generated `cons_tag[i]`: the tag as a number of its own width (0 without a tag). */
export function consTag(c: Constructor): number {
  return c.consTag;
}

/** The generated `cons_name[i]`: the constructor's name, the C++ enum name for anonymous ones. */
export function consName(t: TypeDef, i: number): string {
  return t.constructors[i].name ?? `cons${i + 1}`;
}
