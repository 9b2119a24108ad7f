/**
 * Entity-state rows of one masterchain batch: for every account whose state the batch changed and whose code
 * implements one of the interfaces below, the row of its table (jetton_masters, nft_collections, dns_entries,
 * multisig, multisig_orders, vesting_contracts, nft_sales). I/O only through `lookup` (code the block does not
 * carry, the previous rows of accounts whose data the block prunes).
 *
 * Four steps, which the traces stage runs apart: `planEntityStates` (pure: the candidates, the codes to read),
 * `readEntityCodes` (I/O), `deriveEntityStates` (pure CPU, the get-methods: derive.ts, on the worker pool),
 * `completeEntityStates` (I/O: previous rows, `remember`; in masterchain order). `entityStateRows` runs them in turn.
 *
 * Why an account can yield no row, counted in `stats`:
 * - `no_code`: its code is pruned from the block, the store has never seen it (contract_code fills from the
 *   blocks that deploy a code) and no liteserver gave it (`lookup.fetchCodes`, when there is one; its outcomes per
 *   code hash are `code_fetched` / `code_mismatch` / `code_fetch_failed` / `code_fetch_skipped`), so its interfaces
 *   are unknown;
 * - `failed`: a get-method failed or its result did not have the standard shape (often: it reads a subtree the
 *   block pruned);
 * - `incomplete`: a value the block pruned, with no earlier row to take it from.
 * Accounts whose data root the block does not carry have unchanged data: nothing to write.
 */
import type { Cell } from '@ton/core';
import type { Row } from '../util/index.ts';
import type { AccountStateRow } from '../ton/index.ts';
import type { CodeFetchResult, CodeWanted } from './liteserver-codes.ts';
import { deriveEntityStates, planEntityStates, type CodeBocs, type DerivedEntityStates, type EntityStatePlan } from './derive.ts';
import { KEY_COLUMN, SOFT_DEFAULTS, STATE_TABLES, type EntityRow, type StateTable } from './family.ts';

export type StateTables = Record<StateTable, Row[]>;

/** A batch's entity-state rows, completed, with what their derivation counted. */
export interface EntityStateRows {
  tables: StateTables;
  stats: StateStats;
}

export interface EntityLookup {
  /** Code cells by code hash (hex) for hashes the batch's blocks do not carry; absent = unknown. */
  codes(hashes: readonly string[]): Promise<Map<string, Cell>>;
  /**
   * Codes `codes` did not have, read from the accounts' states on a liteserver (one account per code hash); only
   * codes whose hash is the wanted one come back. Never throws (see liteserver-codes.ts).
   */
  fetchCodes?(wanted: readonly CodeWanted[]): Promise<CodeFetchResult>;
  /** The latest rows of `table` for these accounts (to fill what the block pruned). */
  previous(table: StateTable, addresses: readonly string[]): Promise<Map<string, Row>>;
  /**
   * Rows this call produced: the stage may process several seqnos before it writes them, so the next seqno must
   * find them as `previous` before the store has them.
   */
  remember?(table: StateTable, rows: readonly Row[]): void;
}

export interface StateStats {
  /** accounts whose interfaces were looked at (non-wallets with changed data) */
  accounts: number;
  rows: number;
  no_code: number;
  failed: number;
  incomplete: number;
  /** per code hash asked of a liteserver (`lookup.fetchCodes`): fetched and stored / refused (another hash) / failed or timed out / not asked (bounds) */
  code_fetched: number;
  code_mismatch: number;
  code_fetch_failed: number;
  code_fetch_skipped: number;
  /** nominator pools per block (nominator-pool-replay.ts): replayed and checked / a liteserver gave no state, transactions or config / an answer or a replay did not match the block's hashes / not a pool at the block's end */
  pool_replayed: number;
  pool_unavailable: number;
  pool_mismatch: number;
  pool_unparsed: number;
  /** masterchain batches that asked the elector (elector-reader.ts): read / no elector state in the block / a liteserver gave no state or config / gave another state; get-methods that failed */
  elector_read: number;
  elector_no_state: number;
  elector_unavailable: number;
  elector_mismatch: number;
  elector_failed: number;
}

export function emptyStateStats(): StateStats {
  return {
    accounts: 0, rows: 0, no_code: 0, failed: 0, incomplete: 0, code_fetched: 0, code_mismatch: 0, code_fetch_failed: 0, code_fetch_skipped: 0,
    pool_replayed: 0, pool_unavailable: 0, pool_mismatch: 0, pool_unparsed: 0,
    elector_read: 0, elector_no_state: 0, elector_unavailable: 0, elector_mismatch: 0, elector_failed: 0,
  };
}

/** Adds `b` into `a`. */
export function addStateStats(a: StateStats, b: StateStats): StateStats {
  for (const k of Object.keys(b) as (keyof StateStats)[]) a[k] += b[k];
  return a;
}

/** Totals since the process started (for logs and status lines). */
export const entityStateTotals: StateStats = emptyStateStats();

export function emptyStateTables(): StateTables {
  return Object.fromEntries(STATE_TABLES.map((t) => [t, [] as Row[]])) as StateTables;
}

/** Fills unknown columns from the previous rows; rows still missing a value are dropped. */
async function complete(found: EntityRow[], lookup: EntityLookup, stats: StateStats): Promise<EntityRow[]> {
  const needs = new Map<StateTable, string[]>();
  for (const e of found) {
    if (e.unknown.length || e.union?.length) {
      const list = needs.get(e.table) ?? [];
      list.push(e.row[KEY_COLUMN[e.table]] as string);
      needs.set(e.table, list);
    }
  }
  const prev = new Map<StateTable, Map<string, Row>>();
  await Promise.all([...needs].map(async ([t, a]) => prev.set(t, await lookup.previous(t, a))));
  const out: EntityRow[] = [];
  for (const e of found) {
    const p = prev.get(e.table)?.get(e.row[KEY_COLUMN[e.table]] as string);
    let ok = true;
    for (const col of e.unknown) {
      if (p && p[col] !== undefined) e.row[col] = p[col];
      else if (SOFT_DEFAULTS[e.table]?.[col] !== undefined) e.row[col] = SOFT_DEFAULTS[e.table]![col];
      else ok = false;
    }
    for (const col of e.union ?? []) {
      const before = Array.isArray(p?.[col]) ? (p[col] as unknown[]) : [];
      e.row[col] = [...new Set([...before, ...(e.row[col] as unknown[])])].sort();
    }
    if (ok) out.push(e);
    else stats.incomplete++;
  }
  return out;
}

/** BoC (base64) of a code cell read from the store or a liteserver, each cell serialised once. */
const bocs = new WeakMap<Cell, string>();
function bocOf(c: Cell): string {
  let b = bocs.get(c);
  if (b === undefined) bocs.set(c, (b = c.toBoc().toString('base64')));
  return b;
}

/**
 * The codes of a plan's candidates: the blocks' (`plan.codes`), else the store's (`lookup.codes`), else a
 * liteserver's (`lookup.fetchCodes`, counted in `stats`). The I/O of the derivation, run before it.
 */
export async function readEntityCodes(plan: EntityStatePlan, lookup: EntityLookup, stats: StateStats): Promise<CodeBocs> {
  const { candidates, missing } = plan;
  const codes: CodeBocs = new Map(plan.codes);
  if (missing.length) for (const [h, c] of await lookup.codes(missing)) codes.set(h, bocOf(c));
  const unknown = missing.filter((h) => !codes.has(h));
  if (unknown.length && lookup.fetchCodes) {
    // the codes most accounts of the batch share first (the per-batch bound may not reach them all)
    const users = new Map<string, CodeWanted & { n: number }>();
    for (const st of candidates) {
      const u = users.get(st.code_hash!);
      if (u) u.n++;
      else users.set(st.code_hash!, { account: st.account, codeHash: st.code_hash!, n: 1 });
    }
    const wanted = unknown.map((h) => users.get(h)!).sort((a, b) => b.n - a.n);
    const got = await lookup.fetchCodes(wanted.map(({ account, codeHash }) => ({ account, codeHash })));
    for (const [h, c] of got.codes) codes.set(h, bocOf(c));
    stats.code_fetched += got.stats.fetched;
    stats.code_mismatch += got.stats.mismatch;
    stats.code_fetch_failed += got.stats.failed;
    stats.code_fetch_skipped += got.stats.skipped;
  }
  return codes;
}

/**
 * The rows `deriveEntityStates` found, completed: unknown columns filled from the previous rows (`lookup.previous`),
 * the rows remembered for the next seqno (`lookup.remember`), its counts added to `stats` (the plan's and the code
 * reads', from before) and to `entityStateTotals`. Batch by batch in masterchain order: a batch's previous rows may
 * be the one before's.
 */
export async function completeEntityStates(derived: DerivedEntityStates, lookup: EntityLookup, stats: StateStats): Promise<EntityStateRows> {
  const tables = emptyStateTables();
  stats.no_code += derived.no_code;
  stats.failed += derived.failed;
  for (const e of await complete(derived.found, lookup, stats)) tables[e.table].push(e.row);
  for (const t of STATE_TABLES) if (tables[t].length) lookup.remember?.(t, tables[t]);
  stats.rows = STATE_TABLES.reduce((n, t) => n + tables[t].length, 0);
  addStateStats(entityStateTotals, stats);
  return { tables, stats };
}

/** The stats of a plan before its codes are read (`accounts`). */
export function planStats(plan: EntityStatePlan): StateStats {
  const stats = emptyStateStats();
  stats.accounts = plan.candidates.length;
  return stats;
}

/**
 * Rows for the entity tables from the batch's account states (`states`: every block's `account_states`), on this
 * thread: plan, read the codes, derive, complete. Never throws for one contract's sake: failures are counted.
 */
export async function entityStateRows(states: readonly AccountStateRow[], lookup: EntityLookup): Promise<EntityStateRows> {
  const plan = planEntityStates(states);
  const stats = planStats(plan);
  const codes = await readEntityCodes(plan, lookup, stats);
  return completeEntityStates(await deriveEntityStates(plan.candidates, codes), lookup, stats);
}
