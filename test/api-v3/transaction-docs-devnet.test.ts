// Transaction documents on a generated devnet chain (consecutive blocks, so the writer holds earlier blocks'
// end states): the API renders every transaction from its document exactly as from the flattened tables.
import { beforeAll, describe, expect, it } from 'vitest';
import { runDevnet } from '../../src/devnet/generate/index.ts';
import { importBlocks } from '../../pipelines/index.ts';
import { decodeBlock } from '../../src/ton/index.ts';
import { tempStore } from '../helpers/store.ts';
import { bothWays, docsOf, withDocStatesBefore } from './helpers.ts';

describe('transaction documents on a devnet chain (consecutive blocks)', () => {
  const ref = tempStore('tg-docs-devnet-');
  beforeAll(async () => {
    const res = await runDevnet({ seed: 5, blocks: 10, splitAt: 3, mergeAt: 7 });
    await importBlocks(ref.store, res.devnet.blocks.map((b) => decodeBlock(b.boc)));
  });

  it('render every transaction exactly as the flattened tables do', async () => {
    const { docs, flat } = await bothWays(ref.store);
    expect(flat.length).toBeGreaterThan(50);
    expect(docs).toEqual(withDocStatesBefore(flat, docs));
  });

  it('states before come from the writer when it held the earlier block: the reader looks up only the rest', async () => {
    const docs = await docsOf(ref.store);
    let held = 0;
    let lookups = 0;
    for (const d of docs) {
      const before = String(d.tx.account_state_hash_before);
      if (d.states[before]) held++;
      else if (!d.absent.includes(before)) lookups++;
    }
    // each account's first transaction of the import has no earlier block in memory; later ones do
    const accounts = new Set(docs.map((d) => d.tx.account)).size;
    expect(held).toBeGreaterThan(0);
    expect(lookups).toBeLessThanOrEqual(accounts);
    expect(held + lookups).toBeGreaterThan(lookups);
  });
});

