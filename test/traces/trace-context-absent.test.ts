// The trace context's memory of addresses without entity rows (trace-context.ts `Absent`): it saves the queries for
// plain accounts, and never hides a row that appears after the account changes, even while that row is unwritten.
import { beforeAll, describe, expect, it } from 'vitest';
import { encodeJsonLines, type StoreClient } from '../../src/store/client/index.ts';
import type { AccountStateRow } from '../../src/ton/index.ts';
import { loadTraceContext } from '../../src/traces/read-context.ts';
import { createTracesContext } from '../../src/traces/stage-context.ts';
import { recordQueries, tempStore } from '../helpers/store.ts';

const X = '0:' + '1A'.repeat(32);
const Y = '0:' + '2B'.repeat(32);
const OWNER = '0:' + '3C'.repeat(32);
const MASTER = '0:' + '4D'.repeat(32);

function state(account: string, lt: bigint): AccountStateRow {
  return {
    account, hash: 'ab'.repeat(32), last_trans_hash: 'cd'.repeat(32), last_trans_lt: lt, balance: 1n, balance_extra_currencies: {},
    account_status: 'active', frozen_hash: null, code_hash: null, data_hash: null, code_boc: null, data_boc: null, data_root_boc: null,
  } as unknown as AccountStateRow;
}

describe('trace context: addresses known to have no entity rows', () => {
  const ref = tempStore('tg-absent-');
  let store: StoreClient;
  let recorded: string[] = [];
  beforeAll(() => {
    store = ref.store;
    recorded = recordQueries(store).sql;
  });
  /** the entity tables asked since the last reset, in order */
  const asked = () => recorded.flatMap((sql) => /FROM (jetton_wallets|nft_items|nft_sales)/.exec(sql)?.[1] ?? []);
  const reset = () => {
    recorded.length = 0;
  };

  const load = (addresses: string[], states: AccountStateRow[] = []) => loadTraceContext(ref.traces, { addresses: new Set(addresses), states });
  const wallet = (address: string, lt: bigint) =>
    store.insertFormatted('jetton_wallets', encodeJsonLines([{ address, balance: 5n, owner: OWNER, jetton: MASTER, last_transaction_lt: lt }]), 'JSONEachRow');

  it('a plain account is asked for once, then not again while it does not change', async () => {
    reset();
    expect((await load([Y])).jettonWallets.has(Y)).toBe(false);
    expect(asked()).toEqual(['jetton_wallets', 'nft_items', 'nft_sales']);
    reset();
    await load([Y]);
    expect(asked()).toEqual([]);
  });

  it('an account that changes is asked for again, and its new row is found', async () => {
    await wallet(Y, 10n);
    const ctx = await load([Y], [state(Y, 10n)]);
    expect(ctx.jettonWallets.get(Y)).toMatchObject({ owner: OWNER, jetton: MASTER });
  });

  it('a row written batches after the change (grouped writes) is still found', async () => {
    // X changes in this batch, its row is not written yet: not found, but not remembered as absent either
    expect((await load([X], [state(X, 20n)])).jettonWallets.has(X)).toBe(false);
    expect((await load([X])).jettonWallets.has(X)).toBe(false);
    await wallet(X, 20n);
    reset();
    expect((await load([X])).jettonWallets.get(X)).toMatchObject({ owner: OWNER });
    expect(asked()).toContain('jetton_wallets');
  });
});

describe('trace context: each traces-stage context keeps its own memory', () => {
  const ref = tempStore('tg-absent-ctx-');
  const Z = '0:' + '5E'.repeat(32);

  it('an address known absent in one context is asked for again by another on the same store (another stage, an emulation)', async () => {
    const rec = recordQueries(ref.store);
    const recorded = rec.sql;
    const asked = () => recorded.flatMap((sql) => /FROM (jetton_wallets|nft_items|nft_sales)/.exec(sql)?.[1] ?? []);
    const first = createTracesContext({ store: ref.store });
    await loadTraceContext(first, { addresses: new Set([Z]), states: [] });
    expect(asked()).toEqual(['jetton_wallets', 'nft_items', 'nft_sales']);
    recorded.length = 0;
    await loadTraceContext(first, { addresses: new Set([Z]), states: [] });
    expect(asked()).toEqual([]);
    await loadTraceContext(createTracesContext({ store: ref.store }), { addresses: new Set([Z]), states: [] });
    rec.restore();
    expect(asked()).toEqual(['jetton_wallets', 'nft_items', 'nft_sales']);
  });
});
