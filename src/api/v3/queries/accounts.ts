/** Account reads (reference §2.4): latest states with their code, the accounts with the highest balances. */
import type { Db, Row } from '../db.ts';
import type { Page } from '../params.ts';

/**
 * Latest states of `accounts` (point reads: db.points) with their code BoC and method ids (code deduplicated in
 * contract_code): at most 1000, by account; `codeHashes` keeps the accounts running one of those codes.
 */
export async function latestStates(db: Db, accounts: string[], withBoc: boolean, codeHashes?: string[]): Promise<Row[]> {
  if (accounts.length === 0) return [];
  const codeFilter = codeHashes?.length ? new Set(codeHashes) : null;
  const states = (await db.points.latestStates(accounts))
    .filter((s) => !codeFilter || (typeof s.code_hash === 'string' && codeFilter.has(s.code_hash)))
    .sort((a, b) => (String(a.account) < String(b.account) ? -1 : String(a.account) > String(b.account) ? 1 : 0))
    .slice(0, 1000)
    .map((s) => {
      const { data_boc: _omitted, ...rest } = s;
      return withBoc ? { ...s } : rest;
    });
  const codes = [...new Set(states.map((s) => s.code_hash).filter((c): c is string => typeof c === 'string'))];
  if (codes.length) {
    const [bocs, methods] = await Promise.all([withBoc ? db.points.codes(codes) : Promise.resolve(new Map<string, string>()), db.points.methods(codes)]);
    for (const s of states) {
      s.code_boc = bocs.get(s.code_hash as string) ?? null;
      s.methods = methods.get(s.code_hash as string) ?? null;
    }
  }
  return states;
}

/** Accounts by balance in `pg.dir` (then account ascending), paged. */
export async function topAccountsByBalance(db: Db, pg: Page): Promise<{ account: string; balance: string }[]> {
  return db.q<{ account: string; balance: string }>(
    `SELECT account, balance FROM latest_account_states FINAL ORDER BY balance ${pg.dir}, account ASC LIMIT {limit:UInt32} OFFSET {offset:UInt32}`,
    { limit: pg.limit, offset: pg.offset },
  );
}
