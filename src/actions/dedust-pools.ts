/**
 * ↔ indexer/events/blocks/utils/dedust_pools.py: the DeDust pool list (each pool's two assets), which the DeDust swap
 * matcher reads to tell a route's output asset (`get_dedust_pool`). Upstream fetches it from DeDust's API
 * (`https://api.dedust.io/v2/pools`) at start and every 120 s, keeps the last good answer in a file to fall back on,
 * and shares it through a context variable; here the list is a `DedustPoolList` made at start by the command that
 * runs the traces stage and handed to its classifier (src/traces/classify-pool.ts), which gives its pools to each
 * trace's interface repository (interfaces.ts) to fall back on when the trace carries no pool record; it is filled by
 * `initDedustPools` (fetch, else the fallback file) or `set`. Nothing fills it by itself: the pipeline reads pools'
 * assets from the chain (src/traces/context-dedust.ts), and this list is an opt-in fallback (`--dedust-pools-api`,
 * src/cli/dedust-pools-args.ts, which calls `initDedustPools` at start and `refreshDedustPools` every
 * UPDATE_INTERVAL_S). The interface repository asks it only for a pool the trace's records do not describe.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { accountId } from './ton-utils.ts';

export const POOLS_URL = 'https://api.dedust.io/v2/pools';
const AGENT = 'Chrome';
export const UPDATE_INTERVAL_S = 120;

export interface DedustPoolAssets {
  assets: Array<{ is_ton: boolean; address: string | null }>;
}

/** `parse_raw_pools_data`: the API's pools (`{address, assets: [{type: 'native'} | {type: 'jetton', address}]}`) by raw address. */
export function parseRawPoolsData(pools: unknown): Map<string, DedustPoolAssets> {
  if (!Array.isArray(pools)) throw new Error('DeDust pools: expected a JSON array');
  const out = new Map<string, DedustPoolAssets>();
  for (const pool of pools as Array<Record<string, unknown>>) {
    const account = accountId(String(pool.address));
    if (account === null) throw new Error('DeDust pools: a pool without an address');
    const assets = (pool.assets as Array<Record<string, unknown>>).map((raw) => {
      const isTon = raw.type === 'native';
      // upstream asserts a native asset has no address
      if (isTon && 'address' in raw) throw new Error(`DeDust pools: native asset with an address in pool ${account}`);
      return { is_ton: isTon, address: isTon ? null : accountId(String(raw.address)) };
    });
    out.set(account, { assets });
  }
  return out;
}

/** The pool list one classifier reads (empty until something sets it); a new list replaces the old one whole. */
export class DedustPoolList {
  private current: ReadonlyMap<string, DedustPoolAssets> = new Map();

  /** The pools, by raw upper-case address: a map that is never changed, only replaced (a worker gets it when it changed). */
  get pools(): ReadonlyMap<string, DedustPoolAssets> {
    return this.current;
  }

  set(pools: ReadonlyMap<string, DedustPoolAssets>): void {
    this.current = pools;
  }
}

/** The pool's record in `pools`, or null (`get_dedust_pool` over the list). */
export function dedustPool(pools: ReadonlyMap<string, DedustPoolAssets>, address: string | null | undefined): DedustPoolAssets | null {
  if (!address) return null;
  return pools.get(address.toUpperCase()) ?? null;
}

/** GET the API's list and parse it; an empty list is a failure, as upstream's. */
export async function fetchDedustPools(url = POOLS_URL, timeoutMs = 30_000): Promise<{ raw: unknown; pools: Map<string, DedustPoolAssets> }> {
  const res = await fetch(url, { headers: { 'User-Agent': AGENT }, signal: AbortSignal.timeout(timeoutMs) });
  if (!res.ok) throw new Error(`DeDust pools: HTTP ${res.status} from ${url}`);
  const raw: unknown = await res.json();
  if (!Array.isArray(raw) || raw.length === 0) throw new Error('DeDust pools: empty response');
  return { raw, pools: parseRawPoolsData(raw) };
}

/**
 * `init_pools_data_sync`: the API's list (saved to `fallbackFile`), else the list last saved there; `list` is set
 * from whichever answered. Fails when neither does, as upstream's (without a file: when the API does not answer).
 */
export async function initDedustPools(list: DedustPoolList, opts: { url?: string; fallbackFile?: string; timeoutMs?: number }): Promise<number> {
  let fetched: Awaited<ReturnType<typeof fetchDedustPools>>;
  try {
    fetched = await fetchDedustPools(opts.url, opts.timeoutMs ?? 5_000);
  } catch (e) {
    if (!opts.fallbackFile) throw e;
    const pools = parseRawPoolsData(JSON.parse(readFileSync(opts.fallbackFile, 'utf8')) as unknown);
    list.set(pools);
    return pools.size;
  }
  list.set(fetched.pools);
  if (opts.fallbackFile) writeFileSync(opts.fallbackFile, JSON.stringify(fetched.raw));
  return fetched.pools.size;
}

/** One refresh of the background updater: a failed fetch keeps the list `list` has. */
export async function refreshDedustPools(list: DedustPoolList, opts: { url?: string; fallbackFile?: string; timeoutMs?: number } = {}): Promise<boolean> {
  try {
    const { raw, pools } = await fetchDedustPools(opts.url, opts.timeoutMs);
    list.set(pools);
    if (opts.fallbackFile) writeFileSync(opts.fallbackFile, JSON.stringify(raw));
    return true;
  } catch {
    return false;
  }
}
