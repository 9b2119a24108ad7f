/**
 * The README's DEX report ("SQL for analysts") on real mainnet swaps: block 71398501's STON.fi v2 and DeDust swaps,
 * classified by the real traces stage into a real chdb store (the devnet runs no DEX; its store is in
 * analyst-reports.test.ts, a process of its own: chdb opens one data directory per process).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cell, loadShardAccount } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { encodeJsonLines, fillKvFromStore, type StoreClient } from '../../src/store/client/index.ts';
import { type Row } from '../../src/util/index.ts';
import { decodeBlock } from '../../src/ton/index.ts';
import { TraceAssembler } from '../../src/traces/assembler.ts';
import { processMcBatch, writeMcBatch } from '../../src/traces/stage.ts';
import { tempStore } from '../helpers/store.ts';
import { report, run } from './readme-reports.ts';

const FIX = join(import.meta.dirname, '..', 'fixtures');

/** Rows written by SQL; they reach the key-value store as an upgraded store's do. */
async function insert(s: StoreClient, table: string, rows: Row[]): Promise<void> {
  await s.insertFormatted(table, encodeJsonLines(rows), 'JSONEachRow');
  if (s.kv) await fillKvFromStore(s, s.kv, { tables: [table] });
}

const DEDUST_POOL = '0:3E5FFCA8DDFCF36C36C9FF46F31562AAB51B9914845AD6C26CBDE649D58A5588';

describe('README: SQL for analysts, DEX swaps on real mainnet blocks', () => {
  const mainnet = tempStore('tg-analyst-dex-');

  it('3. DEX swaps: block 71398501’s STON.fi v2 and DeDust swaps, by the contract each trader paid', async () => {
    // the DeDust pool's state as its deploy left it (the traces stage reads its assets from it; test/traces/context-records)
    const sa = loadShardAccount(Cell.fromBoc(readFileSync(join(FIX, 'accounts/mainnet-shardaccount-before-block-wc0-71398501-dedust-pool.mainnet-state-3e5ffca8.boc')))[0].beginParse());
    const st = sa.account!.storage.state;
    if (st.type !== 'active') throw new Error('pool not active');
    const zero = '0'.repeat(64);
    await insert(mainnet.store, 'contract_code', [{ code_hash: st.state.code!.hash().toString('hex'), code_boc: st.state.code!.toBoc().toString('base64') }]);
    await insert(mainnet.store, 'latest_account_states', [{
      account: DEDUST_POOL, hash: zero, balance: sa.account!.storage.balance.coins.toString(), account_status: 'active', timestamp: 0, last_trans_hash: zero,
      last_trans_lt: sa.lastTransactionLt.toString(), code_hash: st.state.code!.hash().toString('hex'), data_hash: st.state.data!.hash().toString('hex'), data_boc: st.state.data!.toBoc().toString('base64'),
    }]);
    const block = decodeBlock(readFileSync(join(FIX, 'blocks/mainnet/mainnet-wc0-8000000000000000-71398501.boc')));
    const out = await processMcBatch(mainnet.traces, new TraceAssembler(), 700, [block]);
    await writeMcBatch(mainnet.traces, new TraceAssembler(), 700, out);

    // what the report must add up: each classified swap's trader, and the jetton transfer the trader sent (the
    // entity events, a path apart from the classifier) into the DEX contract
    const swaps = out.actions.filter((a) => a.type === 'jetton_swap');
    expect(swaps.length).toBeGreaterThanOrEqual(3);
    const transfers = await run(mainnet.store, 'SELECT trace_id, source, destination, amount, jetton_master_address FROM jetton_transfers FINAL');
    const want = new Map<string, { dex: string; dex_contract: string; asset_in: string; swaps: number; succeeded: number; traders: Set<string>; amount: bigint }>();
    for (const s of swaps) {
      const d = s.jetton_swap_data as { dex: string };
      const paid = transfers.filter((t) => t.trace_id === s.trace_id && t.source === s.source);
      expect(paid).toHaveLength(1);
      const key = `${d.dex} ${paid[0].destination}`;
      const g = want.get(key) ?? { dex: d.dex, dex_contract: paid[0].destination, asset_in: paid[0].jetton_master_address, swaps: 0, succeeded: 0, traders: new Set(), amount: 0n };
      g.swaps++;
      if (s.success) g.succeeded++;
      g.traders.add(s.source as string);
      g.amount += BigInt(paid[0].amount);
      want.set(key, g);
    }
    expect(new Set([...want.values()].map((g) => g.dex))).toEqual(new Set(['dedust', 'stonfi_v2']));
    const rows = await run(mainnet.store, report('DEX swaps by DEX and contract'));
    expect(rows.map((r) => ({ dex: r.dex, dex_contract: r.dex_contract, asset_in: r.asset_in, swaps: r.swaps, succeeded: r.succeeded, traders: r.traders, amount_in_raw: r.amount_in_raw })).sort((a, b) => (a.dex + a.dex_contract < b.dex + b.dex_contract ? -1 : 1))).toEqual(
      [...want.values()]
        .map((g) => ({ dex: g.dex, dex_contract: g.dex_contract, asset_in: g.asset_in, swaps: String(g.swaps), succeeded: String(g.succeeded), traders: String(g.traders.size), amount_in_raw: String(g.amount) }))
        .sort((a, b) => (a.dex + a.dex_contract < b.dex + b.dex_contract ? -1 : 1)),
    );
    // the pair's outgoing side: DeDust's refunded swaps have none (null), STON.fi's name the jetton
    expect(rows.find((r) => r.dex === 'dedust')?.asset_out).toBeNull();
  }, 300_000);
});
