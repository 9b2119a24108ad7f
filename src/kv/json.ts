/**
 * Values as the store's JSON output gives them (ClickHouse prints 64-bit and wider integers as decimal strings):
 * rows kept here read exactly like rows read from ClickHouse, so one renderer serves both.
 */

/** `v` with every bigint (also inside maps and arrays) as its decimal string. */
export function jsonValue(v: unknown): unknown {
  if (typeof v === 'bigint') return v.toString();
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.some((x) => typeof x === 'bigint' || (x !== null && typeof x === 'object')) ? v.map(jsonValue) : v;
  if (v instanceof Date) return v.toISOString();
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = jsonValue(x);
  return out;
}

/** A row with its values as jsonValue gives them; `columns` keeps only those (in that order). */
export function jsonRow(row: Record<string, unknown>, columns?: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (columns) for (const c of columns) out[c] = jsonValue(row[c] ?? null);
  else for (const k in row) out[k] = jsonValue(row[k]);
  return out;
}
