import { describe, expect, it } from 'vitest';
import { loadTrustedBlocks, nextIngestVersion, readIngestState, saveTrustedBlocks, writeIngestState } from '../../src/store/ingest/index.ts';
import { tempStore } from '../helpers/store.ts';

const h = (c: string) => c.repeat(64);

describe('ingest state in the store (clickhouse/0015)', { timeout: 120_000 }, () => {
  const ref = tempStore('tg-ingest-state-');

  it('trusted blocks are kept per init block', async () => {
    const { store } = ref;
    await saveTrustedBlocks(store, h('a'), [{ seqno: 5, rootHash: h('1'), fileHash: h('2') }, { seqno: 1, rootHash: h('3'), fileHash: h('4') }]);
    await saveTrustedBlocks(store, h('b'), [{ seqno: 7, rootHash: h('5'), fileHash: h('6') }]);
    await saveTrustedBlocks(store, h('a'), [{ seqno: 5, rootHash: h('1'), fileHash: h('2') }]);
    expect(await loadTrustedBlocks(store, h('a'))).toEqual([
      { seqno: 1, rootHash: h('3'), fileHash: h('4') },
      { seqno: 5, rootHash: h('1'), fileHash: h('2') },
    ]);
    expect(await loadTrustedBlocks(store, h('c'))).toEqual([]);
  });

  it('the last write of the ingest state wins, stall and range alike', async () => {
    const { store } = ref;
    expect(await readIngestState(store)).toBeNull();
    // the writer's versions, each past the one before (the writes of one millisecond too)
    let v = 0n;
    const next = () => (v = nextIngestVersion(v));
    await writeIngestState(store, { range: { from: 1, until: null }, firstRequested: 1, checkpointAtRequest: null, stall: null }, next());
    const stall = { seqno: 4_000_000_000, reason: "masterchain block 4000000000: bad signature 'x'", since: 1_700_000_000_123 };
    await writeIngestState(store, { range: { from: 10, until: 20 }, firstRequested: 1, checkpointAtRequest: 9, stall }, next());
    expect(await readIngestState(store)).toEqual({ range: { from: 10, until: 20 }, firstRequested: 1, checkpointAtRequest: 9, stall });
    await writeIngestState(store, { range: { from: 10, until: 20 }, firstRequested: 1, checkpointAtRequest: 9, stall: null }, next());
    expect(await readIngestState(store)).toEqual({ range: { from: 10, until: 20 }, firstRequested: 1, checkpointAtRequest: 9, stall: null });
    await writeIngestState(store, { range: null, firstRequested: 1, checkpointAtRequest: 20, stall: null }, next());
    expect((await readIngestState(store))?.range).toBeNull();
  });
});
