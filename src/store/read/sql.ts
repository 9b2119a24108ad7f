import type { StoreClient } from '../client/index.ts';

/** Raised for a statement `sql` refuses to run; the message names what is wrong. */
export class ReadOnlyQueryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReadOnlyQueryError';
  }
}

const READ_KEYWORDS = ['SELECT', 'SHOW', 'DESCRIBE', 'DESC', 'EXPLAIN', 'WITH', 'EXISTS'];

/**
 * The first keyword of a statement (comments, whitespace and parentheses skipped), upper-cased. Only a quick,
 * friendly refusal before the store is opened: what decides is the engine (see checkReadOnly).
 */
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

function refuseKeyword(kw: string): void {
  if (!kw) throw new ReadOnlyQueryError('empty query');
  if (!READ_KEYWORDS.includes(kw)) {
    throw new ReadOnlyQueryError(`only read queries are allowed (SELECT, SHOW, DESCRIBE, EXPLAIN, WITH); got ${kw}`);
  }
}

/** Up-front check of the first keyword, for a clear error before the store is opened (not a defence). */
export function assertReadOnly(sql: string): void {
  refuseKeyword(firstKeyword(sql));
}

/**
 * The engine's canonical text of `sql` as ONE statement: ClickHouse's own parser (formatQuerySingleLine, the
 * query bound as a parameter, never spliced) refuses several statements whatever hides the `;` (a `$$…$$` string,
 * a comment), drops comments, spells keywords upper-case and strings as '…' with backslash escapes.
 */
async function canonicalStatement(store: StoreClient, sql: string): Promise<string> {
  try {
    const [row] = await store.query<{ q: string }>('SELECT formatQuerySingleLine({q:String}) AS q', { q: sql });
    return row.q;
  } catch (err) {
    const msg = (err as Error).message;
    if (/Multi-statements are not allowed/i.test(msg)) throw new ReadOnlyQueryError('give one statement only (found another after ";")');
    if (/Empty query/i.test(msg)) throw new ReadOnlyQueryError('empty query');
    throw new ReadOnlyQueryError(engineMessage(err));
  }
}

/** The canonical text without its string literals and quoted identifiers: only keywords, names and operators. */
function withoutLiterals(canonical: string): string {
  return canonical.replace(/'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`/g, ' ');
}

/**
 * Refuses what a readonly session may let through: `INTO OUTFILE` (written by a client layer, whatever `readonly`
 * says: chdb's in-process one did) and the `file()` function (clickhouse-local reads any path with it; readonly blocks
 * the file/url/remote/s3/... table functions, not this scalar function). The embedded engine's `reader` user lacks the
 * grants for both anyway; the check stays for servers. Checked on the canonical text, where a
 * quoted or commented spelling has become the plain one.
 */
export function checkCanonical(canonical: string): void {
  refuseKeyword(firstKeyword(canonical));
  const bare = withoutLiterals(canonical);
  if (/\bINTO\s+OUTFILE\b/.test(bare)) throw new ReadOnlyQueryError('INTO OUTFILE is refused: sql prints to stdout (redirect it to a file)');
  if (/(?<![\w.])file\s*\(/.test(bare)) throw new ReadOnlyQueryError('the file() function is refused: sql reads the store only');
}

function engineMessage(err: unknown): string {
  return String((err as Error).message ?? err).split('\n')[0].trim();
}

/**
 * One read-only statement as the engine canonicalizes it (exactly one statement, a read keyword first, no INTO
 * OUTFILE, no file()), or ReadOnlyQueryError. What runs is this text, never the caller's.
 */
export async function canonicalReadOnly(store: StoreClient, sql: string): Promise<string> {
  assertReadOnly(sql);
  const canonical = await canonicalStatement(store, sql);
  checkCanonical(canonical);
  return canonical;
}

export const SQL_FORMATS = ['JSONEachRow', 'CSV', 'CSVWithNames', 'TSV', 'TabSeparated', 'Pretty', 'PrettyCompact', 'JSON'] as const;

/**
 * Runs one read-only statement and returns the engine's text output in `format`. Defences, outermost first:
 * the engine parses the text into exactly one statement and only that canonical statement runs; a read keyword,
 * no INTO OUTFILE, no file(); then ClickHouse itself: a store opened `readonly: true` (as `ton-gateway sql` opens it)
 * is the embedded engine's `reader` user (readonly = 2, SELECT grants only: writes, DDL and the table functions that
 * reach files, URLs and other servers are refused) or a server session with `readonly = 1`; on a writable store the
 * statement carries `readonly = 1`.
 */
export async function runReadOnlySql(store: StoreClient, sql: string, format = 'JSONEachRow'): Promise<string> {
  if (!(SQL_FORMATS as readonly string[]).includes(format)) {
    throw new ReadOnlyQueryError(`unknown format "${format}" (one of ${SQL_FORMATS.join(', ')})`);
  }
  const canonical = await canonicalReadOnly(store, sql);
  try {
    return await store.queryText(canonical, format, undefined, store.readonly ? undefined : { readonly: '1' });
  } catch (err) {
    const msg = engineMessage(err);
    if (/readonly|Not enough privileges/i.test(msg)) throw new ReadOnlyQueryError(`refused: the store is read-only here (${msg})`);
    throw new ReadOnlyQueryError(msg);
  }
}
