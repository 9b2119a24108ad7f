import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIndexer } from '../../pipelines/index.ts';
import { MemoryBus } from '../../src/bus/index.ts';
import { loadRecordedChain } from '../../src/devnet/chain/index.ts';
import { startLiteServer, type LiteServer } from '../../src/devnet/liteserver/index.ts';
import { LiteserverPool } from '../../src/source/index.ts';
import { getCheckpoint, openStore, type StoreClient } from '../../src/store/client/index.ts';
import { indexStatusDetail as indexStatus } from '../../src/store/read/index.ts';

// The real recorded acton local-net chain (mc1, mc2, wc0:1, wc0:2; 3 transactions) served over ADNL,
// indexed through the whole pipeline into a real chdb store.
const FIX = join(import.meta.dirname, '..', 'fixtures', 'blocks', 'localnet');
const ACTON = ['mc-1', 'mc-2', 'wc0-8000000000000000-1', 'wc0-8000000000000000-2'].map((f) => join(FIX, `localnet-acton-${f}.boc`));
const TX = {
  tx1: 'e0d6d60a6b679ce0f3284e609ff7a5ebeb840d4f29e029896a249774750e8164',
  tx2: 'a1e15230a9021318f8b6d94bd53922890e42a60fdc3022d09e14cbe7949e7ded',
};

describe('pipeline: acton chain -> chdb', () => {
  let ls: LiteServer;
  let dir: string;
  let store: StoreClient;

  beforeAll(async () => {
    ls = await startLiteServer({ source: loadRecordedChain(ACTON), key: Buffer.alloc(32, 7), host: '127.0.0.1' });
    dir = mkdtempSync(join(tmpdir(), 'tg-pipe-'));
    store = await openStore({ dataDir: dir });
  });
  afterAll(async () => {
    await store?.close();
    await ls?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function index(from: number | undefined, until: number, target: StoreClient = store, traces = true) {
    const pool = new LiteserverPool([{ host: `127.0.0.1:${ls.port}`, publicKey: ls.publicKey }], { timeoutMs: 3000 });
    const bus = new MemoryBus();
    try {
      await pool.start(10_000);
      const h = await runIndexer({ bus, source: pool, store: target, traces, fromSeqno: from, untilSeqno: until });
      await h.done;
      await h.stop();
      return h;
    } finally {
      await bus.close();
      await pool.close();
    }
  }

  it('indexes every block and transaction once, shard blocks tagged with the committing mc seqno', async () => {
    const h = await index(1, 2);
    expect(h.fromSeqno).toBe(1);
    expect(h.stats.blocksStored).toBe(4);
    expect(await getCheckpoint(store, 'ingest')).toBe(2);
    const blocks = await store.query<{ workchain: number; seqno: number; mc: number; root_hash: string }>(
      'SELECT workchain, seqno, mc_block_seqno AS mc, root_hash FROM blocks FINAL ORDER BY workchain, seqno',
    );
    expect(blocks.map((b) => [b.workchain, b.seqno, b.mc])).toEqual([
      [-1, 1, 1],
      [-1, 2, 2],
      [0, 1, 1],
      [0, 2, 2],
    ]);
    expect(blocks[3].root_hash).toBe('ce3df52136fd2af83ad5453d61945de38c4e48ad569983be91635deb6390978e');
    const txs = await store.query<{ hash: string; mc: number }>('SELECT hash, mc_block_seqno AS mc FROM transactions FINAL ORDER BY lt');
    expect(txs.length).toBe(3);
    expect(txs.map((t) => t.hash)).toContain(TX.tx1);
    expect(txs.map((t) => t.hash)).toContain(TX.tx2);
    expect(txs.find((t) => t.hash === TX.tx1)?.mc).toBe(1);
  });

  it('restart resumes after the checkpoint; replaying from 1 changes nothing', async () => {
    const resumed = await index(undefined, 2);
    expect(resumed.fromSeqno).toBe(3); // checkpoint 2 -> nothing left to do
    await index(1, 2);
    const [{ n }] = await store.query<{ n: string }>('SELECT count() AS n FROM transactions FINAL');
    expect(Number(n)).toBe(3);
    const [{ b }] = await store.query<{ b: string }>('SELECT count() AS b FROM blocks FINAL');
    expect(Number(b)).toBe(4);
  });

  it('status: first/last seqno, checkpoint, counts; detects a missing masterchain block and a missing shard block', async () => {
    const st = await indexStatus(store);
    expect(st).toMatchObject({ first: 1, last: 2, checkpoint: 2, mcGaps: [], shardGaps: [], blocks: 4, transactions: 3 });
    // Add a fake mc 5 marker: mc 3-4 become a gap. Drop wc0:1's marker: wc0:2 (committed by mc 2) misses its prev.
    await store.command("INSERT INTO ingested_blocks (workchain, shard, seqno, root_hash, mc_block_seqno, tx_count) VALUES (-1, 9223372036854775808, 5, repeat('0', 64), 5, 0)");
    await store.command('DELETE FROM ingested_blocks WHERE workchain = 0 AND seqno = 1');
    const gaps = await indexStatus(store);
    expect(gaps.mcGaps).toEqual([[3, 4]]);
    expect(gaps.shardGaps).toEqual([{ block: '0:8000000000000000:2', missingPrev: '0:8000000000000000:1', mcSeqno: 2 }]);
  });

  it('each transaction row is written once, by the traces stage, with its trace_id; --no-traces: by decode, without', async () => {
    const parts = await store.query<{ n: string }>("SELECT count() AS n FROM transactions WHERE trace_id IS NULL");
    expect(Number(parts[0].n)).toBe(0);
    const [{ traced }] = await store.query<{ traced: string }>('SELECT count() AS traced FROM transactions FINAL WHERE trace_id IS NOT NULL');
    expect(Number(traced)).toBe(3);
    const plainDir = mkdtempSync(join(tmpdir(), 'tg-pipe-plain-'));
    await store.close();
    const plain = await openStore({ dataDir: plainDir });
    try {
      await index(1, 2, plain, false);
      const rows = await plain.query<{ hash: string; trace_id: string | null }>('SELECT hash, trace_id FROM transactions');
      expect(rows.map((r) => r.hash).sort()).toEqual((await txHashesOf(plain)).sort());
      expect(rows.length).toBe(3);
      expect(rows.every((r) => r.trace_id === null)).toBe(true);
      const [{ t }] = await plain.query<{ t: string }>('SELECT count() AS t FROM traces');
      expect(Number(t)).toBe(0);
      expect(await getCheckpoint(plain, 'ingest')).toBe(2);
    } finally {
      await plain.close();
      rmSync(plainDir, { recursive: true, force: true });
      store = await openStore({ dataDir: dir });
    }
  });
});

/** Transaction hashes as the message rows see them (the other side of the same decode). */
async function txHashesOf(s: StoreClient): Promise<string[]> {
  const rows = await s.query<{ h: string }>('SELECT DISTINCT hash AS h FROM transactions_by_hash');
  return rows.map((r) => r.h);
}
