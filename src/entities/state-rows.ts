/**
 * Entity-state rows of one masterchain batch: for every account whose state the batch changed and whose code
 * implements one of the interfaces below, the row of its table (jetton_masters, nft_collections, dns_entries,
 * multisig, multisig_orders, vesting_contracts, nft_sales). I/O only through `lookup` (code the block does not
 * carry, the previous rows of accounts whose data the block prunes).
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
import { Cell } from '@ton/core';
import type { Row } from '../store/index.ts';
import type { AccountStateRow } from '../ton/index.ts';
import type { CodeFetchResult, CodeWanted } from './liteserver-codes.ts';
import { ContractReader } from './contract-reader.ts';
import { readDnsEntry } from './dns.ts';
import { KEY_COLUMN, SOFT_DEFAULTS, STATE_TABLES, type EntityRow, type FamilyInput, type StateTable } from './family.ts';
import { detectInterfaces, isWalletCodeHash, KNOWN_CODE_HASHES, STATE_INTERFACES, type Interface } from '../contracts/index.ts';
import { readJettonMaster } from './jetton-master.ts';
import { readMultisig, readMultisigOrder } from './multisig.ts';
import { readNftCollection } from './nft-collection.ts';
import { readNftSale } from './nft-sales.ts';
import { readVesting } from './vesting.ts';

export type StateTables = Record<StateTable, Row[]>;

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
}

export function emptyStateStats(): StateStats {
  return { accounts: 0, rows: 0, no_code: 0, failed: 0, incomplete: 0, code_fetched: 0, code_mismatch: 0, code_fetch_failed: 0, code_fetch_skipped: 0 };
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

/** Interfaces whose rows this stage derives (the method table behind them is parsed once per code: contracts' methodsOfCode). */
function interfacesOf(codeHash: string, code: Cell | null): Interface[] {
  return detectInterfaces(codeHash, code).filter((i) => STATE_INTERFACES.has(i));
}

/** Layout families read the data without the code. */
const LAYOUT: ReadonlySet<Interface> = new Set(['multisig_v2', 'multisig_order_v2', 'vesting']);

async function readFamily(iface: Interface, input: FamilyInput): Promise<EntityRow | null> {
  switch (iface) {
    case 'jetton_master':
      return readJettonMaster(input);
    case 'nft_collection':
      return readNftCollection(input);
    case 'dns_item':
      return readDnsEntry(input);
    case 'multisig_v2':
      return readMultisig(input);
    case 'multisig_order_v2':
      return readMultisigOrder(input);
    case 'vesting':
      return readVesting(input);
    case 'nft_sale':
    case 'getgems_sale_v4':
    case 'getgems_auction_v4':
    case 'telemint':
      return readNftSale(input, iface);
    default:
      return null;
  }
}

function cellOf(boc: string | null): Cell | null {
  if (!boc) return null;
  try {
    return Cell.fromBase64(boc);
  } catch {
    return null;
  }
}

/** The latest state of each account in the batch (a shard may commit several blocks per masterchain block). */
function latestStates(states: readonly AccountStateRow[]): AccountStateRow[] {
  const by = new Map<string, AccountStateRow>();
  for (const st of states) {
    const prev = by.get(st.account);
    if (!prev || st.last_trans_lt > prev.last_trans_lt) by.set(st.account, st);
  }
  return [...by.values()];
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

/**
 * Rows for the entity tables from the batch's account states (`states`: every block's `account_states`).
 * Never throws for one contract's sake: failures are counted.
 */
export async function entityStateRows(states: readonly AccountStateRow[], lookup: EntityLookup): Promise<{ tables: StateTables; stats: StateStats }> {
  const stats = emptyStateStats();
  const tables = emptyStateTables();
  const candidates = latestStates(states).filter(
    (st) => st.account_status === 'active' && st.code_hash && st.data_root_boc && !isWalletCodeHash(st.code_hash),
  );
  stats.accounts = candidates.length;

  // code: carried by the block, else from the store, else from a liteserver (codes of the known layouts are not needed)
  const codes = new Map<string, Cell>();
  for (const st of candidates) {
    const c = cellOf(st.code_boc);
    if (c) codes.set(st.code_hash!, c);
  }
  const missing = [...new Set(candidates.map((st) => st.code_hash!).filter((h) => !codes.has(h) && !KNOWN_CODE_HASHES[h]))];
  if (missing.length) for (const [h, c] of await lookup.codes(missing)) codes.set(h, c);
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
    for (const [h, c] of got.codes) codes.set(h, c);
    stats.code_fetched += got.stats.fetched;
    stats.code_mismatch += got.stats.mismatch;
    stats.code_fetch_failed += got.stats.failed;
    stats.code_fetch_skipped += got.stats.skipped;
  }

  const found: EntityRow[] = [];
  for (const st of candidates) {
    const code = codes.get(st.code_hash!) ?? null;
    const ifaces = interfacesOf(st.code_hash!, code);
    if (!ifaces.length) {
      if (!code) stats.no_code++;
      continue;
    }
    const data = cellOf(st.data_root_boc);
    if (!data) continue;
    let reader: ContractReader | null = null;
    for (const iface of ifaces) {
      if (!LAYOUT.has(iface) && !code) {
        stats.no_code++;
        continue;
      }
      try {
        if (!LAYOUT.has(iface) && code) reader ??= new ContractReader(code, data, st);
        const row = await readFamily(iface, { state: st, data, reader });
        if (row) found.push(row);
        else if (LAYOUT.has(iface)) stats.failed++; // the official code with a data layout that does not read
      } catch {
        stats.failed++;
      }
    }
  }

  for (const e of await complete(found, lookup, stats)) tables[e.table].push(e.row);
  for (const t of STATE_TABLES) if (tables[t].length) lookup.remember?.(t, tables[t]);
  stats.rows = STATE_TABLES.reduce((n, t) => n + tables[t].length, 0);
  addStateStats(entityStateTotals, stats);
  return { tables, stats };
}
