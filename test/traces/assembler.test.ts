import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeBlock, type TransactionRow } from '../../src/ton/index.ts';
import { TraceAssembler, decodeState, encodeState } from '../../src/traces/assembler.ts';

const FIX = join(import.meta.dirname, '../fixtures');

interface Chain {
  root_tx: string;
  txs: number;
  blocks: string[];
  order: Array<{ depth: number; tx_hash: string; account: string; lt: string }>;
}

const chains = (JSON.parse(readFileSync(join(FIX, 'traces/in-block-message-chains.json'), 'utf8')) as Chain[]).filter((c) =>
  c.blocks.every((b) => existsSync(join(FIX, b))),
);

const blockCache = new Map<string, TransactionRow[]>();
function txsOf(file: string): TransactionRow[] {
  let txs = blockCache.get(file);
  if (!txs) {
    txs = decodeBlock(readFileSync(join(FIX, file))).transactions;
    blockCache.set(file, txs);
  }
  return txs;
}

describe('trace assembly on real mainnet message chains (fixtures/traces/in-block-message-chains.json)', () => {
  it('has chains to check', () => {
    expect(chains.length).toBeGreaterThan(40);
  });

  for (const chain of chains) {
    it(`chain rooted at ${chain.root_tx.slice(0, 12)} (${chain.txs} txs)`, () => {
      const txs = chain.blocks.flatMap(txsOf);
      const result = new TraceAssembler().addBatch(1, txs);
      const edges = result.edges.filter((e) => e.trace_id === chain.root_tx);
      expect(new Set(edges.map((e) => e.tx_hash))).toEqual(new Set(chain.order.map((o) => o.tx_hash)));
      // depth from parent links equals the recorded depth
      const parent = new Map(edges.map((e) => [e.tx_hash, e.parent_tx_hash]));
      const depth = (h: string): number => (parent.get(h) ? 1 + depth(parent.get(h)!) : 0);
      for (const o of chain.order) expect(depth(o.tx_hash), o.tx_hash).toBe(o.depth);
      const row = result.traces.find((t) => t.trace_id === chain.root_tx)!;
      expect(row.nodes).toBe(chain.txs);
      expect(row.start_lt).toBe(BigInt(chain.order[0].lt));
      expect(row.end_lt).toBe(chain.order.map((o) => BigInt(o.lt)).reduce((a, b) => (a > b ? a : b)));
    });
  }
});

describe('trace assembly across batches and restarts', () => {
  // The 11-transaction DeDust swap of block 71398501, split by depth into consecutive batches, as if each hop
  // had landed in the next masterchain block.
  const file = 'blocks/mainnet/mainnet-wc0-8000000000000000-71398501.boc';
  const chain = chains.filter((c) => c.blocks[0] === file).sort((a, b) => b.txs - a.txs)[0];

  function batches(): TransactionRow[][] {
    const all = new Map(txsOf(file).map((t) => [t.hash, t]));
    const maxDepth = Math.max(...chain.order.map((o) => o.depth));
    return Array.from({ length: maxDepth + 1 }, (_, d) => chain.order.filter((o) => o.depth === d).map((o) => all.get(o.tx_hash)!));
  }

  it('keeps the trace pending while messages are in flight, completes it with the last hop', () => {
    const asm = new TraceAssembler();
    const bs = batches();
    expect(bs.length).toBeGreaterThanOrEqual(3);
    bs.forEach((batch, i) => {
      const r = asm.addBatch(100 + i, batch);
      const row = r.traces.find((t) => t.trace_id === chain.root_tx)!;
      expect(row.mc_seqno_start).toBe(100);
      expect(row.mc_seqno_end).toBe(100 + i);
      if (i < bs.length - 1) {
        expect(row.state).toBe('pending');
        expect(row.pending_edges).toBeGreaterThan(0);
        expect(r.completed.find((c) => c.row.trace_id === chain.root_tx)).toBeUndefined();
      } else {
        expect(row.state).toBe('complete');
        expect(row.pending_edges).toBe(0);
        const done = r.completed.find((c) => c.row.trace_id === chain.root_tx)!;
        expect(done.transactions.map((t) => t.tx.hash).sort()).toEqual(chain.order.map((o) => o.tx_hash).sort());
      }
    });
    expect(asm.openTraces).toBe(0);
  });

  it('survives a restart between batches: the persisted state continues the same trace', () => {
    const bs = batches();
    const first = new TraceAssembler();
    first.addBatch(100, bs[0]);
    // a crash: only the encoded snapshot survives
    const restored = new TraceAssembler(decodeState(encodeState(first.snapshot())));
    let last;
    for (let i = 1; i < bs.length; i++) last = restored.addBatch(100 + i, bs[i]);
    const done = last!.completed.find((c) => c.row.trace_id === chain.root_tx)!;
    expect(done.row.state).toBe('complete');
    expect(done.row.nodes).toBe(chain.txs);
    expect(done.transactions[0].tx.lt).toBe(BigInt(chain.order[0].lt));
    expect(typeof done.transactions[0].tx.lt).toBe('bigint');
  });

  it('marks a transaction whose parent was never seen as the root of a broken trace', () => {
    const bs = batches();
    const r = new TraceAssembler().addBatch(7, bs[1]);
    for (const tx of bs[1]) {
      const e = r.edges.find((x) => x.tx_hash === tx.hash)!;
      expect(e.trace_id).toBe(tx.hash);
      expect(r.traces.find((t) => t.trace_id === tx.hash)!.state).toBe('broken');
    }
  });
});
