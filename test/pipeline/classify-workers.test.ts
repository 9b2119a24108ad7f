// The traces stage with its classifier on worker threads (`--workers`), on a devnet chain generated at test time
// (real contracts in the TVM emulator), served over ADNL and indexed into real chdb stores: the same rows as with
// the classifier on the stage's thread; a pool whose worker dies fails the stage before anything is written; the
// stage closes its pool.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIndexer, startTracesStage, stepMessages, tracesResumePoint } from '../../pipelines/index.ts';
import { TOPICS } from '../../schemas/bus/index.ts';
import { MemoryBus } from '../../src/bus/index.ts';
import { loadChainDir } from '../../src/devnet/chain/index.ts';
import { generateDevnet } from '../../src/devnet/generate/index.ts';
import { startLiteServer, type LiteServer } from '../../src/devnet/liteserver/index.ts';
import { followMasterchain, LiteserverPool } from '../../src/source/index.ts';
import type { StoreClient } from '../../src/store/client/index.ts';
import { withStoreAndPool } from '../helpers/store.ts';
import { classifierPool } from '../../src/traces/classify-pool.ts';
import { parseIndexArgs } from '../../src/cli/commands/index-chain.ts';
import { DEFAULT_CLASSIFY_WORKERS } from '../../pipelines/index.ts';

let dir: string;
let tip: number;
let ls: LiteServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tg-classify-workers-'));
  await generateDevnet(dir, { blocks: 12, bulkWallets: 2, bulkFanout: 2, states: 'last', seed: 23 });
  const chain = JSON.parse(readFileSync(join(dir, 'chain.json'), 'utf8')) as { blocks: { workchain: number; seqno: number }[] };
  tip = Math.max(...chain.blocks.filter((b) => b.workchain === -1).map((b) => b.seqno));
  ls = await startLiteServer({ source: loadChainDir(dir), key: Buffer.alloc(32, 23), host: '127.0.0.1' });
}, 600_000);

afterAll(async () => {
  await ls?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const withStore = <T>(fn: (store: StoreClient, pool: LiteserverPool) => Promise<T>): Promise<T> => withStoreAndPool(ls, 'tg-classify-workers-store-', fn);

const TABLES: Record<string, string> = {
  traces: 'SELECT * FROM traces FINAL ORDER BY trace_id',
  trace_transactions: 'SELECT * FROM trace_transactions FINAL ORDER BY trace_id, hash',
  actions: 'SELECT * FROM actions FINAL ORDER BY trace_id, action_id',
  action_accounts: 'SELECT * FROM action_accounts FINAL ORDER BY action_id, account',
  transactions: 'SELECT hash, trace_id FROM transactions FINAL ORDER BY hash',
};
/** The entity tables: the state tables derived on the pool (`--workers` > 0), the event tables on the stage's thread. */
const ENTITY_KEYS: Record<string, string> = {
  jetton_masters: 'address',
  nft_collections: 'address',
  dns_entries: 'nft_item_address',
  multisig: 'address',
  multisig_orders: 'address',
  vesting_contracts: 'address',
  nft_sales: 'address',
  jetton_wallets: 'address',
  nft_items: 'address',
};
for (const [t, key] of Object.entries(ENTITY_KEYS)) TABLES[t] = `SELECT * FROM ${t} FINAL ORDER BY ${key}`;

async function indexWith(workers: number): Promise<Record<string, unknown[]>> {
  return withStore(async (store, pool) => {
    const bus = new MemoryBus();
    try {
      const h = await runIndexer({ bus, source: pool, store, fromSeqno: 1, untilSeqno: tip, classifyWorkers: workers });
      await h.done;
      expect(h.traces!.stats.classify.workers).toBe(workers);
      expect(h.traces!.stats.classify.traces).toBeGreaterThan(0);
      // the accounts whose state changed went through the derivation (on the pool with workers: in messages)
      expect(h.traces!.stats.classify.derive.accounts).toBeGreaterThan(0);
      if (workers) expect(h.traces!.stats.classify.derive.jobs).toBeGreaterThan(0);
      else expect(h.traces!.stats.classify.derive.jobs).toBe(0);
      await h.stop();
      const out: Record<string, unknown[]> = {};
      for (const [t, sql] of Object.entries(TABLES)) out[t] = await store.query(sql);
      return out;
    } finally {
      await bus.close();
    }
  });
}

describe('traces stage with --workers (devnet chain -> chdb)', () => {
  it('--workers 0 and --workers 2 store identical traces, trace transactions, actions, action accounts and entity tables', async () => {
    const inline = await indexWith(0);
    const pooled = await indexWith(2);
    expect(inline.traces.length).toBeGreaterThan(10);
    expect(inline.actions.length).toBeGreaterThan(10);
    // not vacuous: the chain deploys a jetton minter and an NFT collection and mints (their state rows are derived)
    expect(inline.jetton_masters.length).toBeGreaterThan(0);
    expect(inline.nft_collections.length).toBeGreaterThan(0);
    expect(inline.jetton_wallets.length).toBeGreaterThan(0);
    expect(inline.nft_items.length).toBeGreaterThan(0);
    for (const t of Object.keys(TABLES)) expect(pooled[t], t).toEqual(inline[t]);
  });

  it('a worker that dies fails the stage: nothing of the batch is written, no trace marked classified; close ends the pool', async () => {
    await withStore(async (store, pool) => {
      const bus = new MemoryBus({ capacity: 100_000 });
      const dying = classifierPool(1, { resourceLimits: { maxOldGenerationSizeMb: 1, maxYoungGenerationSizeMb: 1 } });
      try {
        const workers = await runIndexer({ bus, store, roles: ['decode', 'store'] });
        const stage = await startTracesStage(bus, store, { fromSeqno: 1, classifier: dying });
        for await (const step of followMasterchain(pool, { fromSeqno: 1, untilSeqno: tip })) {
          const { raw, marker } = stepMessages(step);
          await bus.publish(TOPICS.rawBlocks, raw);
          await bus.publish(TOPICS.mcComplete, [{ key: 'mc', value: marker }]);
        }
        await expect(stage.failed).rejects.toThrow(/classifier worker/);
        await expect(stage.reached(tip)).rejects.toThrow(/classifier worker/);
        // seqnos that complete no trace send the pool nothing and may be written; the first that does stops the stage
        expect((await tracesResumePoint(store)) ?? 0).toBeLessThan(tip);
        expect(await store.query("SELECT trace_id FROM traces WHERE classification_state IN ('ok', 'broken', 'failed')")).toEqual([]);
        expect(await store.query('SELECT action_id FROM actions')).toEqual([]);
        await stage.close();
        await workers.stop();
        // the stage closed the pool it was given
        await expect(dying.classify([])).rejects.toThrow(/closed/);
      } finally {
        await dying.close();
        await bus.close();
      }
    });
  });
});

describe('--workers on index / start', () => {
  it('takes 0 to 64; the default is one per core beyond the first, at most 4; anything else names the option', () => {
    expect(parseIndexArgs(['--workers', '0']).workers).toBe(0);
    expect(parseIndexArgs(['--workers', '3']).workers).toBe(3);
    expect(parseIndexArgs([]).workers).toBe(DEFAULT_CLASSIFY_WORKERS());
    expect(DEFAULT_CLASSIFY_WORKERS()).toBe(Math.min(4, Math.max(0, availableParallelism() - 1)));
    for (const bad of [['--workers', '65'], ['--workers', 'two'], ['--workers', '-1'], ['--workers']]) {
      expect(() => parseIndexArgs(bad)).toThrow(/--workers/);
    }
  });
});
