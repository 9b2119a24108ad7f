/**
 * DeDust (v1) pools' assets from the chain, for the classifier's `DedustPool` records (the DeDust swap matcher reads
 * a pool's two assets to tell a route's output asset). Upstream answers from DeDust's HTTP API list
 * (utils/dedust_pools.py; src/actions/dedust-pools.ts is its port, an opt-in fallback) and, in newer versions, from
 * its own indexed `dex_pools`; here the chain says it, exactly, in either of two places:
 *
 * - the pool's own swap event (the external-out log `swap#9c610de3 asset_in:Asset asset_out:Asset ...` only the pool
 *   itself can emit): its two assets. A pool has exactly two (get_assets), so the pair is the pool's; the event does
 *   not say which is asset0 (README: when that order matters);
 * - the pool's data, by running its `get_assets` in the TVM emulator (src/entities/contract-reader.ts): asset0, asset1
 *   in the pool's order. The assets sit in a data subtree that never changes after the deploy, so a block carries
 *   them only when it deploys the pool; a pruned subtree makes the run fail (never a made-up answer).
 *
 * A pool's assets are fixed at its deploy (its address commits to them), so what was read once is kept.
 * Asset: native$0000 | jetton$0001 workchain_id:int8 address:bits256 (DeDust's TL-B; other kinds give nothing).
 */
import { Cell, type Slice } from '@ton/core';
import type { DedustPoolAssets } from '../actions/index.ts';
import { ContractReader } from '../entities/index.ts';
import { readFullData, readMessageBodies } from '../store/traces/index.ts';
import { type StoreClient } from '../store/client/index.ts';
import { BoundedMap } from '../util/index.ts';

export type { DedustPoolAssets };

/** The swap event a DeDust v1 pool logs (external-out). */
export const DEDUST_SWAP_EVENT_OPCODE = 0x9c610de3;

type PoolAsset = DedustPoolAssets['assets'][number];

function readAsset(s: Slice): PoolAsset | null {
  const kind = s.loadUint(4);
  if (kind === 0) return { is_ton: true, address: null };
  if (kind !== 1) return null;
  const wc = s.loadInt(8);
  return { is_ton: false, address: `${wc}:${s.loadBuffer(32).toString('hex').toUpperCase()}` };
}

const sameAsset = (a: PoolAsset, b: PoolAsset) => a.is_ton === b.is_ton && a.address === b.address;

/**
 * `swap#9c610de3 asset_in:Asset asset_out:Asset amount_in:Coins amount_out:Coins ^[sender_addr:MsgAddressInt
 * ref_addr:MsgAddress reserve_0:Coins reserve_1:Coins]`: the pair, read only when the whole event reads so.
 */
export function poolAssetsFromSwapEvent(body: string | null | undefined): DedustPoolAssets | null {
  if (!body) return null;
  try {
    const s = Cell.fromBase64(body).beginParse();
    if (s.loadUint(32) !== DEDUST_SWAP_EVENT_OPCODE) return null;
    const assetIn = readAsset(s);
    const assetOut = assetIn && readAsset(s);
    if (!assetIn || !assetOut || sameAsset(assetIn, assetOut)) return null;
    s.loadCoins();
    s.loadCoins();
    const r = s.loadRef().beginParse();
    r.loadAddress();
    r.loadAddressAny();
    r.loadCoins();
    r.loadCoins();
    return { assets: [assetIn, assetOut] };
  } catch {
    return null;
  }
}

/** `get_assets` of the pool state (two Asset slices), or null when it does not run or answer so. */
export async function poolAssetsFromState(code: Cell, dataBoc: string, state: { account: string; balance: bigint; timestamp: number }): Promise<DedustPoolAssets | null> {
  try {
    const reader = new ContractReader(code, Cell.fromBase64(dataBoc), state);
    const out = await reader.get('get_assets');
    const a0 = readAsset(out.slice(0));
    const a1 = readAsset(out.slice(1));
    return a0 && a1 && !sameAsset(a0, a1) ? { assets: [a0, a1] } : null;
  } catch {
    return null;
  }
}

/** The opcode as the store keeps it (the signed int32 toncenter stores). */

/** One stored swap event per pool (its body BoC), read by src/store. */
async function readStoredSwapEvents(store: StoreClient, pools: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const r of await readMessageBodies(store, pools, 'ext_out', DEDUST_SWAP_EVENT_OPCODE)) if (!out.has(r.account) && poolAssetsFromSwapEvent(r.boc)) out.set(r.account, r.boc);
  return out;
}

// ---------------------------------------------------------------- per batch (I/O)

/** A message of the batch, as the context reads it (opcode signed or not: compared unsigned). */
export interface ContextMessage {
  source: string | null;
  destination: string | null;
  opcode: number | null;
  body: string | null;
  /** the StateInit BoC the message carries */
  initState?: string | null;
}

/**
 * What a store's pools are known to hold (the traces stage's context keeps one: stage-context.ts); pools found
 * nowhere are not asked again for a while.
 */
export interface PoolCache {
  known: Map<string, DedustPoolAssets>;
  /** pool -> time (ms) it was last looked up in the store without an answer */
  unknown: Map<string, number>;
}

const MAX_POOLS = 100_000;
/** another writer (the store stage of a split deployment) may store the pool's event or deploy since */
const UNKNOWN_RETRY_MS = 10 * 60_000;

export function createPoolCache(): PoolCache {
  return { known: new BoundedMap(MAX_POOLS), unknown: new BoundedMap(MAX_POOLS) };
}

export interface PoolInput {
  /** the accounts of the batch whose code is a DeDust pool's */
  pools: readonly string[];
  /** is this account a DeDust pool (its code says so) */
  isPool: (account: string) => boolean;
  /** the latest state the context holds of each pool (balance; data as a block carries it or whole) */
  state: (account: string) => { balance: bigint; dataBoc: string | null; code: Cell | null } | undefined;
  /** every message of the batch (its pools' swap events are read from there first) */
  messages: readonly ContextMessage[];
  now?: () => number;
}

/**
 * The assets of the batch's pools: the swap events of the batch, what this process read before, the pool's data
 * (the batch's, else the store's full data) through get_assets, else a swap event the store holds.
 */
export async function loadDedustPools(ctx: { store: StoreClient; dedustPools: PoolCache }, input: PoolInput): Promise<Map<string, DedustPoolAssets>> {
  const { store, dedustPools: cache } = ctx;
  const now = input.now ?? Date.now;
  // every swap event of the batch teaches its pool's assets, asked for or not (the store may not have it yet)
  for (const m of input.messages) {
    if (m.destination !== null || m.source === null || m.opcode === null || m.opcode >>> 0 !== DEDUST_SWAP_EVENT_OPCODE) continue;
    if (cache.known.has(m.source) || !input.isPool(m.source)) continue;
    const assets = poolAssetsFromSwapEvent(m.body);
    if (assets) cache.known.set(m.source, assets);
  }
  const out = new Map<string, DedustPoolAssets>();
  const rest: string[] = [];
  for (const p of input.pools) {
    const hit = cache.known.get(p);
    if (hit) out.set(p, hit);
    else rest.push(p);
  }
  const ask: string[] = [];
  for (const p of rest) {
    const st = input.state(p);
    const assets = st?.code && st.dataBoc ? await poolAssetsFromState(st.code, st.dataBoc, { account: p, balance: st.balance, timestamp: 0 }) : null;
    if (assets) {
      cache.known.set(p, assets);
      out.set(p, assets);
    } else {
      const at = cache.unknown.get(p);
      if (at === undefined || now() - at > UNKNOWN_RETRY_MS) ask.push(p);
    }
  }
  if (!ask.length) return out;
  const full = await readFullData(store, ask);
  const noData: string[] = [];
  for (const p of ask) {
    const f = full.get(p);
    const code = input.state(p)?.code ?? null;
    // get_assets reads no time: the state's own timestamp is as good as any
    const assets = f && code ? await poolAssetsFromState(code, f.dataBoc, { account: p, balance: f.balance, timestamp: f.timestamp }) : null;
    if (assets) {
      cache.known.set(p, assets);
      out.set(p, assets);
    } else noData.push(p);
  }
  const events = await readStoredSwapEvents(store, noData);
  for (const p of noData) {
    const assets = poolAssetsFromSwapEvent(events.get(p));
    if (assets) {
      cache.known.set(p, assets);
      cache.unknown.delete(p);
      out.set(p, assets);
    } else cache.unknown.set(p, now());
  }
  return out;
}
