/** `import-blocks`: local blocks decoded into rows (src/decode) and written by the store's writer, no bus. */
import { blockToRows, PriorStates } from '../src/decode/index.ts';
import { StoreWriter, type WriterOptions } from '../src/store/write/index.ts';
import { type StoreClient } from '../src/store/client/index.ts';
import type { DecodedBlock } from '../src/ton/index.ts';

/**
 * Masterchain seqno committing each block of a local set (key: root hash).
 *
 * Masterchain blocks commit themselves. A shard block is committed by the first masterchain block of
 * the set whose shard descriptors name it or a later block of its shard that reaches it through prev
 * links inside the set: walking masterchain blocks in ascending seqno, each walks back from its top
 * shard blocks and claims every block not claimed yet. Blocks no masterchain block of the set reaches
 * get 0 (unknown): committing information outside the set is not guessed.
 */
export function assignMcSeqnos(blocks: readonly DecodedBlock[]): Map<string, number> {
  const byRoot = new Map<string, DecodedBlock>();
  for (const b of blocks) byRoot.set(b.id.root_hash.toLowerCase(), b);
  const out = new Map<string, number>();
  const masters = blocks.filter((b) => b.id.workchain === -1).sort((a, b) => a.id.seqno - b.id.seqno);
  for (const m of masters) out.set(m.id.root_hash.toLowerCase(), m.id.seqno);
  for (const m of masters) {
    for (const d of m.shards ?? []) {
      const stack = [d.root_hash.toLowerCase()];
      while (stack.length) {
        const root = stack.pop()!;
        const b = byRoot.get(root);
        if (!b || out.has(root)) continue;
        out.set(root, m.id.seqno);
        for (const p of b.info.prev_ref) stack.push(p.root_hash.toLowerCase());
      }
    }
  }
  for (const b of blocks) if (!out.has(b.id.root_hash.toLowerCase())) out.set(b.id.root_hash.toLowerCase(), 0);
  return out;
}

export interface ImportResult {
  blocks: number;
  transactions: number;
  /** blocks already stored (their markers exist): not written again unless `rewrite` */
  skipped: number;
}

/** Writes a set of decoded blocks (mc_block_seqno from assignMcSeqnos) and waits until stored. */
export async function importBlocks(store: StoreClient, blocks: readonly DecodedBlock[], writerOptions: WriterOptions = {}): Promise<ImportResult> {
  const mc = assignMcSeqnos(blocks);
  let skipped = 0;
  const writer = new StoreWriter(store, {
    ...writerOptions,
    onFlush: (s) => {
      skipped += s.skipped;
      writerOptions.onFlush?.(s);
    },
  });
  const priorStates = new PriorStates();
  let transactions = 0;
  for (const b of blocks) {
    await writer.writeRows(blockToRows(b, { mcSeqno: mc.get(b.id.root_hash.toLowerCase()) ?? 0, priorStates }), { blocks: 1, txs: b.transactions.length });
    transactions += b.transactions.length;
  }
  await writer.close();
  return { blocks: blocks.length, transactions, skipped };
}
