// The publisher across an indexer restart: a devnet indexed in two runs (the second a new process's publisher, its
// memory empty): every transaction published once, in its own seqno, also in traces still in flight at the tip; every
// completed trace marked complete once, with all its transactions: the documents of the seqnos before the restart
// come from the store.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedEvent, FeedSeqno } from '../../schemas/bus/index.ts';
import { runIndexer } from '../../pipelines/index.ts';
import { MemoryBus } from '../../src/bus/index.ts';
import { loadChainDir } from '../../src/devnet/chain/index.ts';
import { generateDevnet } from '../../src/devnet/generate/index.ts';
import { startLiteServer, type LiteServer } from '../../src/devnet/liteserver/index.ts';
import { LiteserverPool } from '../../src/source/index.ts';
import { openStore, type StoreClient } from '../../src/store/client/index.ts';
import { parseTxDoc } from '../../src/decode/index.ts';
import { NotificationPublisher } from '../../src/feed/index.ts';
import { kvPointReads } from '../../src/kv/index.ts';

let dir: string;
let data: string;
let tip: number;
let ls: LiteServer;
let store: StoreClient;
let pool: LiteserverPool;
const events: FeedEvent[] = [];
let half: number;

async function run(until: number, sink = { publish: (e: FeedEvent[]) => void events.push(...e) }): Promise<void> {
  const bus = new MemoryBus();
  // a new publisher per run: what the first one held in memory is gone, as after a crash
  const h = await runIndexer({ bus, source: pool, store, untilSeqno: until, fromSeqno: until === half ? 1 : undefined, notifications: new NotificationPublisher(sink, { store, partDocChars: 20_000 }) });
  await h.done;
  await h.stop();
  await bus.close();
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tg-stream-pub-'));
  await generateDevnet(dir, { blocks: 12, bulkWallets: 2, bulkFanout: 2, states: 'last', seed: 7 });
  const chain = JSON.parse(readFileSync(join(dir, 'chain.json'), 'utf8')) as { blocks: { workchain: number; seqno: number }[] };
  tip = Math.max(...chain.blocks.filter((b) => b.workchain === -1).map((b) => b.seqno));
  half = Math.floor(tip / 2);
  ls = await startLiteServer({ source: loadChainDir(dir), key: Buffer.alloc(32, 23), host: '127.0.0.1' });
  data = mkdtempSync(join(tmpdir(), 'tg-stream-pub-data-'));
  store = await openStore({ dataDir: data });
  pool = new LiteserverPool([{ host: `127.0.0.1:${ls.port}`, publicKey: ls.publicKey }], { timeoutMs: 10_000 });
  await pool.start();
  await run(half);
  await run(tip);
}, 600_000);

afterAll(async () => {
  await pool?.close();
  await store?.close();
  await ls?.close();
  for (const d of [dir, data]) if (d) rmSync(d, { recursive: true, force: true });
});

describe('notification publisher', () => {
  it('publishes every transaction once, in its seqno; every completed trace once as complete, with all its transactions (across the restart)', async () => {
    const parts = events.filter((e): e is FeedSeqno => e.kind === 'seqno');
    const published = parts.flatMap((p) => p.traces.map((t) => ({ seqno: p.mc_seqno, t })));
    const traces = await store.query<{ trace_id: string; mc_seqno_start: number; mc_seqno_end: number; nodes: number; state: string }>(
      'SELECT trace_id, mc_seqno_start, mc_seqno_end, nodes, state FROM traces FINAL',
    );
    const txs = await store.query<{ trace_id: string; hash: string; mc: number }>('SELECT trace_id, hash, mc_block_seqno AS mc FROM transactions FINAL');
    // the store's documents: the key-value store's (the embedded store keeps them there alone, clickhouse/0017)
    const docs = new Map((await kvPointReads(store.kv!).docs(txs.map((t) => t.hash))).map((d) => [String(parseTxDoc(d).tx.hash), d]));
    expect(docs.size).toBe(txs.length);
    // each transaction exactly once, in the seqno of its block, under its trace, as the very document the store has
    const seen = published.flatMap(({ seqno, t }) => t.docs.map((d) => ({ seqno, trace: String(t.trace.trace_id), d })));
    expect(seen.map((x) => String(parseTxDoc(x.d).tx.hash)).sort()).toEqual(txs.map((t) => t.hash).sort());
    const byHash = new Map(txs.map((t) => [t.hash, t]));
    for (const x of seen) {
      const hash = String(parseTxDoc(x.d).tx.hash);
      expect(x.seqno, hash).toBe(Number(byHash.get(hash)!.mc));
      expect(x.trace).toBe(byHash.get(hash)!.trace_id);
      expect(x.d).toBe(docs.get(hash));
    }
    // traces still in flight at the tip are there too (their transactions), never as complete
    const pending = traces.filter((t) => t.state === 'pending');
    expect(pending.length).toBeGreaterThan(0);
    for (const t of pending) expect(published.some((p) => p.t.trace.trace_id === t.trace_id && !p.t.complete)).toBe(true);
    // each completed trace once as complete, in the seqno that completes it, with every transaction (earlier + this seqno's)
    const completed = traces.filter((t) => t.state !== 'pending');
    const complete = published.filter((p) => p.t.complete);
    expect(complete.map((p) => String(p.t.trace.trace_id)).sort()).toEqual(completed.map((t) => t.trace_id).sort());
    // a trace the restart cut in two: its first transactions' documents came from the store
    const spanning = completed.filter((t) => t.mc_seqno_start <= half && t.mc_seqno_end > half);
    expect(spanning.length).toBeGreaterThan(0);
    const txsOf = new Map<string, string[]>();
    for (const t of txs) txsOf.set(t.trace_id, [...(txsOf.get(t.trace_id) ?? []), t.hash]);
    for (const { seqno, t } of complete) {
      const id = String(t.trace.trace_id);
      expect(seqno).toBe(completed.find((x) => x.trace_id === id)!.mc_seqno_end);
      expect([...t.earlier, ...t.docs].map((d) => String(parseTxDoc(d).tx.hash)).sort(), id).toEqual([...txsOf.get(id)!].sort());
      for (const d of t.earlier) expect(d).toBe(docs.get(String(parseTxDoc(d).tx.hash)));
    }
    for (const { t } of published) {
      expect(t.norm).toMatch(/^[0-9a-f]{64}$/);
      expect([...t.accounts].sort()).toEqual([...new Set(t.docs.map((d) => String(parseTxDoc(d).tx.account)))].sort());
      if (!t.complete) expect([t.earlier, t.actions]).toEqual([[], []]);
    }
  });

  it('parts: large seqnos split, the last carries the account states; the checkpoint follows every seqno', async () => {
    const parts = events.filter((e): e is FeedSeqno => e.kind === 'seqno');
    const bySeqno = new Map<number, FeedSeqno[]>();
    for (const p of parts) bySeqno.set(p.mc_seqno, [...(bySeqno.get(p.mc_seqno) ?? []), p]);
    expect([...bySeqno.keys()]).toEqual(Array.from({ length: tip }, (_, i) => i + 1));
    expect([...bySeqno.values()].some((l) => l.length > 1)).toBe(true);
    for (const l of bySeqno.values()) {
      expect(l.map((p) => p.part)).toEqual(l.map((_, i) => i));
      expect(l.map((p) => p.last)).toEqual(l.map((_, i) => i === l.length - 1));
      expect(l.slice(0, -1).every((p) => p.accounts.length === 0)).toBe(true);
    }
    const [accounts] = await store.query<{ n: string }>('SELECT uniqExact(account, mc_block_seqno) AS n FROM transactions FINAL');
    expect(parts.reduce((n, p) => n + p.accounts.length, 0)).toBe(Number(accounts.n));
    const marks = events.filter((e) => e.kind === 'finalized').map((e) => e.mc_seqno);
    expect(marks[marks.length - 1]).toBe(tip);
    expect(marks).toEqual([...marks].sort((a, b) => a - b));
    // a seqno's content before its checkpoint
    for (const s of bySeqno.keys()) {
      const content = events.findIndex((e) => e.kind === 'seqno' && e.mc_seqno === s);
      const mark = events.findIndex((e) => e.kind === 'finalized' && e.mc_seqno >= s);
      expect(content).toBeLessThan(mark);
    }
  });
});
