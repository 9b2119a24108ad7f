import type { Row } from '../../util/index.ts';

/** Text insert formats the writer can produce (the default is Native, see native.ts). */
export type InsertFormat = 'JSONEachRow' | 'JSONCompactEachRow';

/**
 * A value ready for the native JSON.stringify: bigint -> decimal string (ClickHouse parses quoted
 * integers; a JS number would lose precision), recursively inside arrays / objects (maps, tuples).
 */
function plain(v: unknown): unknown {
  if (typeof v === 'bigint') return v.toString();
  if (v === undefined) return null;
  if (typeof v === 'number' && !Number.isFinite(v)) throw new Error(`non-finite number ${v} in a row`);
  if (v !== null && typeof v === 'object') {
    if (Array.isArray(v)) return v.map(plain);
    let out: Record<string, unknown> | null = null;
    for (const k in v as Record<string, unknown>) {
      out ??= {};
      out[k] = plain((v as Record<string, unknown>)[k]);
    }
    return out ?? v; // empty object: as is
  }
  return v;
}

/** Rows -> JSONEachRow text (one object per line); bigints become decimal strings, never numbers. */
export function encodeJsonLines(rows: readonly Row[]): string {
  const lines: string[] = new Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    const o: Record<string, unknown> = {};
    for (const k in r) o[k] = plain(r[k]);
    lines[i] = JSON.stringify(o);
  }
  return lines.length ? lines.join('\n') + '\n' : '';
}

/**
 * Rows -> JSONCompactEachRow text over `columns` (the keys of the first row unless given): one
 * array per line, no repeated key names, so less to build and less for the engine to parse.
 * Serialization is the engine's native JSON.stringify over a bigint-free copy of each row (measured
 * an order of magnitude faster than assembling the text in JS).
 */
export function encodeCompact(rows: readonly Row[], columns: readonly string[] = rows.length ? Object.keys(rows[0]) : []): { columns: readonly string[]; body: string } {
  const n = columns.length;
  const lines: string[] = new Array(rows.length);
  const a: unknown[] = new Array(n);
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    for (let j = 0; j < n; j++) {
      const v = r[columns[j]];
      a[j] = typeof v === 'bigint' ? v.toString() : v !== null && typeof v === 'object' ? plain(v) : v === undefined ? null : v;
    }
    lines[i] = JSON.stringify(a);
  }
  return { columns, body: lines.length ? lines.join('\n') + '\n' : '' };
}
