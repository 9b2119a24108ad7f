// One decode per block per process: the decode and traces stages share it (pipelines/shared-decode.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeShared, shareParsed, sharedDecodeStats } from '../../pipelines/shared-decode.ts';
import { decodeBlock, decodeBlockHeader, parseBoc } from '../../src/ton/index.ts';
import type { RawBlockMessage } from '../../schemas/bus/index.ts';

const FIX = join(import.meta.dirname, '..', 'fixtures', 'blocks', 'localnet');

function message(file: string): RawBlockMessage {
  const boc = readFileSync(join(FIX, file));
  const h = decodeBlockHeader(boc);
  return { mc_seqno: 1, id: { workchain: h.id.workchain, shard: h.id.shard, seqno: h.id.seqno, root_hash: h.id.root_hash, file_hash: h.id.file_hash }, boc: boc.toString('base64') };
}

describe('decodeShared', () => {
  const msg = message('localnet-acton-wc0-8000000000000000-1.boc');

  it('two consumers: the second gets the decoded block of the first, a third decodes again', () => {
    const before = { ...sharedDecodeStats };
    const a = decodeShared(msg, 2);
    const b = decodeShared(msg, 2);
    expect(b).toBe(a);
    expect(sharedDecodeStats.decoded - before.decoded).toBe(1);
    expect(sharedDecodeStats.shared - before.shared).toBe(1);
    const c = decodeShared(msg, 2);
    expect(c).not.toBe(a);
    expect(c).toEqual(a);
    decodeShared(msg, 2); // take it back out
  });

  it('one consumer keeps nothing', () => {
    const a = decodeShared(msg, 1);
    expect(decodeShared(msg, 1)).not.toBe(a);
  });

  it("reuses ingest's parse of the very block, and only of that block", () => {
    const bytes = Buffer.from(msg.boc, 'base64');
    const before = sharedDecodeStats.parsedReused;
    shareParsed(msg.id, parseBoc(bytes));
    expect(decodeShared(msg, 1)).toEqual(decodeBlock(bytes));
    expect(sharedDecodeStats.parsedReused - before).toBe(1);
    // taken once: the next decode parses again
    decodeShared(msg, 1);
    expect(sharedDecodeStats.parsedReused - before).toBe(1);
    // another file hash under the same id is not this block
    shareParsed({ ...msg.id, file_hash: 'f'.repeat(64) }, parseBoc(bytes));
    decodeShared(msg, 1);
    expect(sharedDecodeStats.parsedReused - before).toBe(1);
  });
});
