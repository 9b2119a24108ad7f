/**
 * The store side of `entityStateRows`: code cells from `contract_code` (written from every block that carries a
 * code unpruned, i.e. deploys) and previous entity rows. Each call makes a lookup with caches of its own, living as
 * long as it: the traces stage's context (src/traces/stage-context.ts) keeps one for the stage's life. A code hash
 * is asked for once (a miss is asked again after a while: another writer may have stored it since), and the rows
 * derived are remembered, because the traces stage may process several seqnos before it writes them (a row
 * remembered is never older than the store's: batches come in order).
 */
import { Cell } from '@ton/core';
import { readContractCodes, readLatestRows } from '../store/traces/index.ts';
import { type StoreClient } from '../store/client/index.ts';
import { type Row } from '../util/index.ts';
import type { BlockIdExt } from '../source/index.ts';
import { KEY_COLUMN, type StateTable } from './family.ts';
import type { LiteserverCodeFetcher } from './liteserver-codes.ts';
import type { EntityLookup } from './state-rows.ts';
import { BoundedMap } from '../util/index.ts';

const MAX_CODES = 20_000;
const MISS_RETRY_MS = 10 * 60_000;
const MAX_REMEMBERED = 50_000;

export function storeEntityLookup(store: StoreClient): EntityLookup {
  const cache = new Map<string, Cell | number>(); // cell, or the time of a miss
  const recent = new Map<StateTable, BoundedMap<string, Row>>();

  const lookup: EntityLookup = {
    async codes(hashes) {
      const out = new Map<string, Cell>();
      const ask: string[] = [];
      const now = Date.now();
      for (const h of hashes) {
        const c = cache.get(h);
        if (c instanceof Cell) out.set(h, c);
        else if (c === undefined || now - c > MISS_RETRY_MS) ask.push(h);
      }
      if (ask.length) {
        const got = await readContractCodes(store, ask);
        if (cache.size > MAX_CODES) cache.clear();
        for (const h of ask) cache.set(h, now);
        for (const [h, c] of got) {
          cache.set(h, c);
          out.set(h, c);
        }
      }
      return out;
    },
    async previous(table: StateTable, addresses) {
      const key = KEY_COLUMN[table];
      const mem = recent.get(table);
      const out = new Map<string, Row>();
      for (const a of addresses) {
        const r = mem?.get(a);
        if (r) out.set(a, r);
      }
      const ask = addresses.filter((a) => !out.has(a));
      if (ask.length) for (const [a, r] of await readLatestRows(store, table, key, ask)) out.set(a, r);
      return out;
    },
    remember(table, rows) {
      const key = KEY_COLUMN[table];
      let mem = recent.get(table);
      if (!mem) recent.set(table, (mem = new BoundedMap(MAX_REMEMBERED)));
      for (const r of rows) mem.set(r[key] as string, r);
    },
  };
  return lookup;
}

/**
 * `lookup` for one masterchain batch, with the codes it lacks read from a liteserver at that batch's masterchain
 * block (`at`; null: the tip) through `fetcher` (liteserver-codes.ts).
 */
export function withFetchedCodes(lookup: EntityLookup, fetcher: LiteserverCodeFetcher, at: BlockIdExt | null): EntityLookup {
  return { ...lookup, fetchCodes: (wanted) => fetcher.fetch(wanted, at) };
}
