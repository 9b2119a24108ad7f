// One decode per block per process: the decode and traces stages share it (src/decode/shared.ts); the decode
// stage's rows back from its bus message (src/decode/message.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BLOCK_TABLES, blockToRows, rowsOfMessage, SharedDecode } from '../../src/decode/index.ts';
import { decodeBlock, decodeBlockHeader, parseBoc } from '../../src/ton/index.ts';
import type { RawBlockMessage } from '../../schemas/bus/index.ts';

const FIX = join(import.meta.dirname, '..', 'fixtures', 'blocks', 'localnet');

function message(file: string): RawBlockMessage {
  const boc = readFileSync(join(FIX, file));
  const h = decodeBlockHeader(boc);
  return { mc_seqno: 1, id: { workchain: h.id.workchain, shard: h.id.shard, seqno: h.id.seqno, root_hash: h.id.root_hash, file_hash: h.id.file_hash }, boc: boc.toString('base64') };
}

describe('SharedDecode', () => {
  const msg = message('localnet-acton-wc0-8000000000000000-1.boc');

  it('two consumers: the second gets the decoded block of the first, a third decodes again', () => {
    const shared = new SharedDecode(2);
    const a = shared.decode(msg);
    const b = shared.decode(msg);
    expect(b).toBe(a);
    expect(shared.stats).toEqual({ decoded: 1, shared: 1, parsedReused: 0 });
    const c = shared.decode(msg);
    expect(c).not.toBe(a);
    expect(c).toEqual(a);
    expect(shared.stats).toEqual({ decoded: 2, shared: 1, parsedReused: 0 });
  });

  it('one consumer keeps nothing', () => {
    const shared = new SharedDecode(1);
    const a = shared.decode(msg);
    expect(shared.decode(msg)).not.toBe(a);
    expect(shared.stats).toEqual({ decoded: 2, shared: 0, parsedReused: 0 });
  });

  it('two of them share nothing: each process (or test) has its own', () => {
    const one = new SharedDecode(2);
    const two = new SharedDecode(2);
    const a = one.decode(msg);
    expect(two.decode(msg)).not.toBe(a);
    expect(one.decode(msg)).toBe(a);
  });

  it("reuses ingest's parse of the very block, and only of that block", () => {
    const shared = new SharedDecode(1);
    const bytes = Buffer.from(msg.boc, 'base64');
    shared.shareParsed(msg.id, parseBoc(bytes));
    expect(shared.decode(msg)).toEqual(decodeBlock(bytes));
    expect(shared.stats.parsedReused).toBe(1);
    // taken once: the next decode parses again
    shared.decode(msg);
    expect(shared.stats.parsedReused).toBe(1);
    // another file hash under the same id is not this block
    shared.shareParsed({ ...msg.id, file_hash: 'f'.repeat(64) }, parseBoc(bytes));
    shared.decode(msg);
    expect(shared.stats.parsedReused).toBe(1);
  });
});

describe('rowsOfMessage', () => {
  const msg = message('localnet-acton-wc0-8000000000000000-1.boc');
  const rows = blockToRows(decodeBlock(Buffer.from(msg.boc, 'base64')), { mcSeqno: 1, tables: 'untraced' });

  it("gives the decode stage's rows back, every block table there", () => {
    const back = rowsOfMessage({ id: msg.id, rows: JSON.parse(JSON.stringify(rows, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))) as Record<string, Record<string, unknown>[]> });
    expect(Object.keys(back)).toEqual([...BLOCK_TABLES]);
    expect(back.blocks.length).toBe(1);
    expect(back.transactions).toEqual([]);
    const partial = rowsOfMessage({ id: msg.id, rows: { blocks: rows.blocks } });
    expect(partial.ingested_blocks).toEqual([]);
    expect(partial.blocks).toBe(rows.blocks);
  });

  it('refuses a table it does not know, naming it and the block', () => {
    expect(() => rowsOfMessage({ id: msg.id, rows: { ...rows, transactions_v9: [] } })).toThrow('decoded block 0:8000000000000000:1: rows of an unknown table "transactions_v9"');
  });
});
