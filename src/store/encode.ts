import type { Row } from './rows.ts';

/** Insert formats the writer can produce (both understood by chdb's raw insert and the server). */
export type InsertFormat = 'JSONEachRow' | 'JSONCompactEachRow';

/** JSON value with bigint rendered as a decimal string (ClickHouse parses quoted integers). */
function value(v: unknown): string {
  switch (typeof v) {
    case 'bigint':
      return '"' + v.toString() + '"';
    case 'string':
      return JSON.stringify(v);
    case 'number':
      if (!Number.isFinite(v)) throw new Error(`non-finite number ${v} in a row`);
      return String(v);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'undefined':
      return 'null';
    case 'object': {
      if (v === null) return 'null';
      if (Array.isArray(v)) return '[' + v.map(value).join(',') + ']';
      let s = '{';
      let first = true;
      for (const k in v as Record<string, unknown>) {
        s += (first ? '' : ',') + JSON.stringify(k) + ':' + value((v as Record<string, unknown>)[k]);
        first = false;
      }
      return s + '}';
    }
    default:
      throw new Error(`cannot store a ${typeof v}`);
  }
}

/** Rows -> JSONEachRow text (one object per line); bigints become decimal strings, never numbers. */
export function encodeJsonLines(rows: readonly Row[]): string {
  let out = '';
  for (const r of rows) out += value(r) + '\n';
  return out;
}

/**
 * Rows -> JSONCompactEachRow text over `columns` (the keys of the first row unless given): one
 * array per line, no repeated key names, so less to build and less for the engine to parse.
 */
export function encodeCompact(rows: readonly Row[], columns: readonly string[] = rows.length ? Object.keys(rows[0]) : []): { columns: readonly string[]; body: string } {
  let out = '';
  const n = columns.length;
  for (const r of rows) {
    let line = '[';
    for (let i = 0; i < n; i++) line += (i ? ',' : '') + value(r[columns[i]]);
    out += line + ']\n';
  }
  return { columns, body: out };
}
