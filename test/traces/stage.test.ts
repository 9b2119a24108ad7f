import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type StoreClient } from '../../src/store/client/index.ts';
import { decodeBlock, type TransactionRow } from '../../src/ton/index.ts';
import { loadAssembler, saveAssemblerState, writeTraceTables } from '../../src/traces/stage.ts';
import { createTracesContext } from '../../src/traces/stage-context.ts';
import { assembleBatch } from '../../src/traces/step.ts';

const FIX = join(import.meta.dirname, '../fixtures');
const BLOCK = 'blocks/mainnet/mainnet-wc0-8000000000000000-71398501.boc';

// The 6-transaction Tonstakers deposit of block 71398501 (ext-in -> pool -> tsTON mint), rooted here:
const ROOT = 'f5924c4dadf3ab90625b8bf17a8a5fb242230e604c6a720fe1b3fc84a389ee36';

describe('traces stage on chdb: a trace cut by a crash completes after restart', () => {
  let dir: string;
  let txs: TransactionRow[];
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tg-traces-'));
    txs = decodeBlock(readFileSync(join(FIX, BLOCK))).transactions;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function withStore<T>(fn: (s: StoreClient) => Promise<T>): Promise<T> {
    const store = await openStore({ dataDir: dir });
    try {
      return await fn(store);
    } finally {
      await store.close();
    }
  }

  it('writes pending, restarts from the saved state, writes complete with actions', async () => {
    // batch 1: every transaction up to the root's first child; batch 2: the rest
    const root = txs.find((t) => t.hash === ROOT)!;
    expect(root).toBeDefined();
    const cut = root.lt + 1n;
    const first = txs.filter((t) => t.lt <= cut);
    const rest = txs.filter((t) => t.lt > cut);

    await withStore(async (store) => {
      const { assembler, mcSeqno } = await loadAssembler(createTracesContext({ store }));
      expect(mcSeqno).toBeNull();
      const b = assembleBatch(assembler, 500, first);
      expect(b.traceIds.get(ROOT)).toBe(ROOT);
      await writeTraceTables(store, b.tables);
      await saveAssemblerState(store, 500, assembler);
      const [t] = await store.query<{ state: string; nodes: string }>(
        'SELECT state, nodes FROM traces FINAL WHERE trace_id = {id:FixedString(64)}',
        { id: ROOT },
      );
      expect(t.state).toBe('pending');
    });

    // "crash": a new process opens the store and continues from the saved state
    await withStore(async (store) => {
      const { assembler, mcSeqno } = await loadAssembler(createTracesContext({ store }));
      expect(mcSeqno).toBe(500);
      const b = assembleBatch(assembler, 501, rest);
      await writeTraceTables(store, b.tables);
      // replaying the same batch writes the same rows: nothing changes
      await writeTraceTables(store, b.tables);
      await saveAssemblerState(store, 501, assembler);
      const [t] = await store.query<{ state: string; nodes: string; mc_seqno_start: number; mc_seqno_end: number; classification_state: string }>(
        'SELECT state, nodes, mc_seqno_start, mc_seqno_end, classification_state FROM traces FINAL WHERE trace_id = {id:FixedString(64)}',
        { id: ROOT },
      );
      expect(t).toMatchObject({ state: 'complete', classification_state: 'ok', mc_seqno_start: 500, mc_seqno_end: 501 });
      expect(Number(t.nodes)).toBe(6);
      const txRows = await store.query<{ n: string }>(
        'SELECT count() AS n FROM trace_transactions FINAL WHERE trace_id = {id:FixedString(64)}',
        { id: ROOT },
      );
      expect(Number(txRows[0].n)).toBe(6);
      const acts = await store.query<{ type: string; n: string }>(
        'SELECT type, count() AS n FROM actions FINAL WHERE trace_id = {id:FixedString(64)} GROUP BY type ORDER BY type',
        { id: ROOT },
      );
      // the Tonstakers deposit: a stake_deposit (staking.py), provider 'liquid_staking' as upstream's serializer names it
      expect(acts.map((a) => a.type)).toContain('stake_deposit');
      // details are stored in the API v3 shape of the type (reference §4.3)
      const deps = await store.query<{ details: string; source: string; destination: string }>(
        `SELECT details, source, destination FROM actions FINAL WHERE trace_id = {id:FixedString(64)} AND type = 'stake_deposit'`,
        { id: ROOT },
      );
      expect(deps).toHaveLength(1);
      const dep = JSON.parse(deps[0].details) as Record<string, unknown>;
      expect(dep).toMatchObject({ provider: 'liquid_staking', stake_holder: deps[0].source, pool: deps[0].destination });
      expect(typeof dep.amount).toBe('string');
      expect(typeof dep.tokens_minted).toBe('string');
      // each action stored once
      const ids = await store.query<{ n: string; u: string }>('SELECT count() AS n, uniqExact(action_id) AS u FROM actions FINAL WHERE trace_id = {id:FixedString(64)}', { id: ROOT });
      expect(ids[0].n).toBe(ids[0].u);
      // every transaction of the block is in exactly one trace
      const all = await store.query<{ n: string }>('SELECT count() AS n FROM trace_transactions FINAL');
      expect(Number(all[0].n)).toBe(txs.length);
    });
  });
});
