import type { StoreClient } from './client.ts';

/** Raised for a statement `sql` refuses to run; the message names what is wrong. */
export class ReadOnlyQueryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReadOnlyQueryError';
  }
}

const READ_KEYWORDS = ['SELECT', 'SHOW', 'DESCRIBE', 'DESC', 'EXPLAIN', 'WITH', 'EXISTS'];

/** Strips leading comments / whitespace / parentheses and returns the first keyword, upper-cased. */
export function firstKeyword(sql: string): string {
  let s = sql;
  for (;;) {
    const t = s.replace(/^[\s(]+/, '');
    if (t.startsWith('--')) {
      const nl = t.indexOf('\n');
      s = nl < 0 ? '' : t.slice(nl + 1);
    } else if (t.startsWith('/*')) {
      const end = t.indexOf('*/');
      s = end < 0 ? '' : t.slice(end + 2);
    } else {
      s = t;
      break;
    }
  }
  return (/^[A-Za-z]+/.exec(s)?.[0] ?? '').toUpperCase();
}

/** True when `sql` holds more than one statement (a `;` followed by more text, outside quotes and comments). */
export function hasSeveralStatements(sql: string): boolean {
  let quote = '';
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === "'" || c === '"' || c === '`') quote = c;
    else if (c === '-' && sql[i + 1] === '-') {
      const nl = sql.indexOf('\n', i);
      i = nl < 0 ? sql.length : nl;
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? sql.length : end + 1;
    } else if (c === ';' && sql.slice(i + 1).trim().length > 0) return true;
  }
  return false;
}

/** Up-front check; the engine-level `readonly=1` setting is the second line of defence. */
export function assertReadOnly(sql: string): void {
  if (hasSeveralStatements(sql)) throw new ReadOnlyQueryError('give one statement only (found text after ";")');
  const kw = firstKeyword(sql);
  if (!kw) throw new ReadOnlyQueryError('empty query');
  if (!READ_KEYWORDS.includes(kw)) {
    throw new ReadOnlyQueryError(`only read queries are allowed (SELECT, SHOW, DESCRIBE, EXPLAIN, WITH); got ${kw}`);
  }
}

export const SQL_FORMATS = ['JSONEachRow', 'CSV', 'CSVWithNames', 'TSV', 'TabSeparated', 'Pretty', 'PrettyCompact', 'JSON'] as const;

/** Runs a read-only query and returns the engine's text output in `format`. */
export async function runReadOnlySql(store: StoreClient, sql: string, format = 'JSONEachRow'): Promise<string> {
  assertReadOnly(sql);
  if (!(SQL_FORMATS as readonly string[]).includes(format)) {
    throw new ReadOnlyQueryError(`unknown format "${format}" (one of ${SQL_FORMATS.join(', ')})`);
  }
  try {
    return await store.queryText(sql.trim().replace(/;\s*$/, ''), format, undefined, { readonly: '1' });
  } catch (err) {
    const msg = (err as Error).message.split('\n')[0].trim();
    if (/readonly/i.test(msg)) throw new ReadOnlyQueryError(`write queries are refused (readonly): ${msg}`);
    throw new ReadOnlyQueryError(msg);
  }
}
