/**
 * Semantics of toncenter's YAML action tests (ton-indexer `tests/utils/generic_yaml_test.py`):
 * for each expected entry, take the actions (or blocks) of that type, narrow with the optional
 * `selector` (first match), require exactly one, then compare only the listed `values` paths:
 * lists compare unordered with equal length, dicts compare only the listed keys (which must exist),
 * `{{ … }}` strings are conditions on the actual value.
 */
import { evalTemplate, pyEq } from './expr.ts';

export class Mismatch extends Error {}

function isObj(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function show(v: unknown): string {
  return JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x));
}

/** Dot path with optional `[n]` indexes; missing parts give null. */
export function getPath(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const part of path.split('.')) {
    const m = /^(.+?)\[(\d+)\]$/.exec(part);
    const key = m ? m[1] : part;
    cur = isObj(cur) ? cur[key] : undefined;
    if (m) cur = Array.isArray(cur) ? cur[Number(m[2])] : undefined;
    if (cur === undefined) return null;
  }
  return cur;
}

export function checkValue(actual: unknown, expected: unknown, path: string): void {
  if (typeof expected === 'string' && expected.startsWith('{{') && expected.endsWith('}}')) {
    if (!evalTemplate(expected, actual)) throw new Mismatch(`${path}: condition ${expected} failed, actual ${show(actual)}`);
  } else if (Array.isArray(expected) && Array.isArray(actual)) {
    if (actual.length !== expected.length) {
      throw new Mismatch(`${path}: expected ${expected.length} items ${show(expected)}, got ${actual.length} ${show(actual)}`);
    }
    for (const e of expected) {
      const found = actual.some((a) => {
        try {
          checkValue(a, e, path);
          return true;
        } catch (err) {
          if (err instanceof Mismatch) return false;
          throw err;
        }
      });
      if (!found) throw new Mismatch(`${path}: item ${show(e)} not found in ${show(actual)}`);
    }
  } else if (isObj(expected) && isObj(actual)) {
    for (const [k, e] of Object.entries(expected)) {
      const p = path ? `${path}.${k}` : k;
      if (!(k in actual)) throw new Mismatch(`${p}: missing key (actual keys: ${Object.keys(actual).join(', ')})`);
      checkValue(actual[k], e, p);
    }
  } else if (!pyEq(actual, expected)) {
    throw new Mismatch(`${path}: expected ${show(expected)}, got ${show(actual)}`);
  }
}

export interface ExpectedEntry {
  type?: string;
  selector?: string;
  values?: Record<string, unknown>;
}

/** Checks one expected entry against candidates (actions or blocks); `typeOf` reads an item's type. */
export function checkEntry(kind: string, entry: ExpectedEntry, items: unknown[], typeOf: (x: unknown) => string): void {
  const type = entry.type;
  if (!type) throw new Mismatch(`${kind} entry without type`);
  let matching = items.filter((x) => typeOf(x).toLowerCase() === String(type).toLowerCase());
  if (entry.selector && matching.length > 0) {
    const sel = matching.find((x) => evalTemplate(String(entry.selector), x));
    if (!sel) throw new Mismatch(`no ${kind} ${type} matched selector ${entry.selector}`);
    matching = [sel];
  }
  if (matching.length !== 1) {
    const all = items.map(typeOf).join(', ');
    throw new Mismatch(`expected 1 ${kind} of type ${type}, found ${matching.length} (have: ${all || 'none'})`);
  }
  for (const [path, exp] of Object.entries(entry.values ?? {})) {
    checkValue(getPath(matching[0], path), exp, `${type}.${path}`);
  }
}
