import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blockToRows } from '../../src/decode/index.ts';
import { getCheckpoint, setCheckpoint } from '../../src/store/client/index.ts';
import { StoreWriter, type FlushStats } from '../../src/store/write/index.ts';
import { tableCounts } from '../../src/store/read/index.ts';
import { decodeBlock } from '../../src/ton/index.ts';
import { tempStore } from '../helpers/store.ts';
import { FIXTURES } from './helpers.ts';

const block = (rel: string) => decodeBlock(readFileSync(join(FIXTURES, 'blocks', rel)));

describe('StoreWriter', () => {
  const ref = tempStore('tg-store-writer-');

  it('splits into bounded batches, keeps at most maxQueuedBatches waiting, writes everything', async () => {
    const blocks = ['mainnet/mainnet-wc0-8000000000000000-40484416.boc', 'mainnet/mainnet-wc0-8000000000000000-40484438.boc', 'mainnet/mainnet-mc-17734191.boc'].map(block);
    const flushes: FlushStats[] = [];
    const writer = new StoreWriter(ref.store, { maxRows: 2000, maxQueuedBatches: 1, onFlush: (s) => flushes.push(s) });
    for (const b of blocks) await writer.writeRows(blockToRows(b, { mcSeqno: 1 }));
    await writer.flush();
    // 479 + 510 transactions with their messages: several batches, each under ~2000 rows + one block
    expect(flushes.length).toBeGreaterThanOrEqual(3);
    expect(flushes.reduce((n, f) => n + f.blocks, 0)).toBe(3);
    expect(flushes.reduce((n, f) => n + f.transactions, 0)).toBe(479 + 510 + 6);
    const counts = await tableCounts(ref.store, ['transactions', 'blocks', 'ingested_blocks']);
    expect(counts).toEqual({ transactions: 995, blocks: 3, ingested_blocks: 3 });
  });

  it('a batch whose rows are rejected gets no block marker, and the writer reports the table and reason', async () => {
    const b = block('mainnet/mainnet-wc0-8000000000000000-34703989.boc');
    const rows = blockToRows(b, { mcSeqno: 2 });
    rows.transactions[0] = { ...rows.transactions[0], orig_status: 'bogus' };
    const writer = new StoreWriter(ref.store, { attempts: 2, backoffMs: 10 });
    await writer.writeRows(rows);
    await expect(writer.flush()).rejects.toThrow(/^insert into transactions failed: .*bogus/);
    const [marker] = await ref.store.query<{ n: string }>(
      'SELECT count() AS n FROM ingested_blocks FINAL WHERE seqno = {s:UInt32} AND root_hash = {h:FixedString(64)}',
      { s: b.id.seqno, h: b.id.root_hash },
    );
    expect(marker.n).toBe('0');
    const [blk] = await ref.store.query<{ n: string }>('SELECT count() AS n FROM blocks FINAL WHERE seqno = {s:UInt32}', { s: b.id.seqno });
    expect(blk.n).toBe('0');
    // the writer stays failed: later writes are refused with the same error
    await expect(writer.writeRows(blockToRows(b))).rejects.toThrow(/insert into transactions failed/);
    // rewriting the block correctly afterwards completes it (the partial rows are simply replaced)
    const ok = new StoreWriter(ref.store);
    await ok.writeRows(blockToRows(b, { mcSeqno: 2 }));
    await ok.flush();
    const [done] = await ref.store.query<{ n: string }>('SELECT count() AS n FROM transactions FINAL WHERE block_seqno = {s:UInt32}', { s: b.id.seqno });
    expect(Number(done.n)).toBe(b.transactions.length);
  });

  it('checkpoints: the latest value wins', async () => {
    expect(await getCheckpoint(ref.store, 'ingest')).toBeNull();
    await setCheckpoint(ref.store, 'ingest', 10);
    await setCheckpoint(ref.store, 'ingest', 11);
    expect(await getCheckpoint(ref.store, 'ingest')).toBe(11);
  });
});
