// The decode and traces stages' output for every fixture block, held against digests recorded from an earlier
// commit (test/fixtures/behaviour/fixture-blocks.json, provenance in test/fixtures/MANIFEST.md): a change that only
// moves code (issue 36) must leave every byte of it as it was. Each full block is decoded, turned into the rows of
// every table (the decode stage's, then the traces stage's with trace ids), and folded through the traces stage on
// a real chdb store as a masterchain batch of its own (context read, step, classification, entity states, write),
// in path order, so later blocks read what earlier ones wrote.
// RECORD=1 writes the digests anew (only from a commit whose behaviour is the reference).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blockToRows, PriorStates } from '../../src/decode/index.ts';
import { decodeBlock, type DecodedBlock } from '../../src/ton/index.ts';
import { createTracesContext, loadAssembler, processMcBatch, writeMcBatch } from '../../src/traces/index.ts';
import { tempStore } from '../helpers/store.ts';
import { FIXTURES } from '../store/helpers.ts';

const DIGESTS = join(FIXTURES, 'behaviour', 'fixture-blocks.json');

type BlockDigest = { block: string; error: string } | DecodedDigest;

interface DecodedDigest {
  block: string;
  /** sha256 of the decoded block (decode-block's JSON) */
  decoded: string;
  /** sha256 of the decode stage's rows of every table ('all': as with --no-traces), then of the untraced tables */
  rows: string;
  /** sha256 of the traces stage's output for the block as one masterchain batch */
  traces: string;
  transactions: number;
  actions: number;
}

interface Digests {
  blocks: BlockDigest[];
  /** sha256 over the per-block digests, in order */
  all: string;
}

/** JSON with bigints as decimal strings and Maps as their entries: the same value, the same bytes. */
function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x instanceof Map ? [...x.entries()] : x instanceof Set ? [...x] : x));
}
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe('fixture blocks: decode and traces output as recorded', () => {
  const ref = tempStore('tg-fixture-output-');

  it('every block: decoded, rows, traces stage output byte for byte', { timeout: 600_000 }, async () => {
    const store = ref.store;
    const ctx = createTracesContext({ store });
    const { assembler } = await loadAssembler(ctx);
    const all = new PriorStates();
    const untraced = new PriorStates();
    const out: BlockDigest[] = [];
    let seqno = 0;
    for (const file of allBlockFiles()) {
      let block: DecodedBlock;
      try {
        block = decodeBlock(readFileSync(file));
      } catch (err) {
        // the header proofs and the two blocks whose body is pruned or stripped: their error is part of the output
        out.push({ block: basename(file), error: (err as Error).message });
        continue;
      }
      seqno++;
      const rowsAll = blockToRows(block, { mcSeqno: seqno, tables: 'all', priorStates: all });
      const rowsUntraced = blockToRows(block, { mcSeqno: seqno, tables: 'untraced', priorStates: untraced });
      const batch = await processMcBatch(ctx, assembler, seqno, [block]);
      await writeMcBatch(ctx, assembler, seqno, batch);
      const { traceIds, traces, ...written } = batch;
      out.push({
        block: basename(file),
        decoded: sha(canonical(block)),
        rows: sha(canonical(rowsAll) + '\n' + canonical(rowsUntraced)),
        traces: sha(canonical({ ...written, traceIds: [...traceIds].sort(), traces })),
        transactions: block.transactions.length,
        actions: batch.actions.length,
      });
    }
    const digests: Digests = { blocks: out, all: sha(canonical(out)) };
    if (process.env.RECORD) writeFileSync(DIGESTS, JSON.stringify(digests, null, 1) + '\n');
    const expected = JSON.parse(readFileSync(DIGESTS, 'utf8')) as Digests;
    // every fixture BoC, and actions to compare, not only empty outputs
    expect(out.length).toBe(52);
    expect(out.filter((b) => 'error' in b).length).toBe(7);
    expect(expected.blocks.reduce((n, b) => n + ('actions' in b ? b.actions : 0), 0)).toBeGreaterThan(100);
    for (let i = 0; i < expected.blocks.length; i++) expect(out[i], expected.blocks[i].block).toEqual(expected.blocks[i]);
    expect(out.length).toBe(expected.blocks.length);
    expect(digests.all).toBe(expected.all);
  });
});

/** Every BoC under test/fixtures/blocks (header proofs included), sorted by path. */
function allBlockFiles(): string[] {
  const root = join(FIXTURES, 'blocks');
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.boc'))
    .sort()
    .map((f) => join(root, f));
}
