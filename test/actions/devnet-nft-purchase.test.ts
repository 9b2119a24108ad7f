/**
 * A GetGems fix-price purchase on the devnet (the real nft-fixprice-sale-v3r3: carol deploys the sale, alice lists the
 * item, bob pays the sale with a plain transfer) classified through the real pipeline (devnet liteserver over ADNL,
 * runIndexer, chdb): the item's transfer to bob is a purchase and the trace has toncenter's nft_purchase (v1.3
 * nft.py `_try_get_nft_purchase_data`: the previous block a TON transfer from the new owner to a known sale). The
 * sale's row comes from a seqno processed but not written when the purchase is classified (the traces stage writes
 * several seqnos at once), so this fails without src/traces/pending-sales.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexDevnetDir } from '../helpers/devnet-index.ts';
import { generateDevnet, type GenerateResult } from '../../src/devnet/generate/index.ts';
import type { LiteServer } from '../../src/devnet/liteserver/index.ts';
import { openStore, type StoreClient } from '../../src/store/client/index.ts';
import { decodeBlock } from '../../src/ton/index.ts';

const BLOCKS = 17;
let dir: string;
let data: string;
let gen: GenerateResult;
let ls: LiteServer;
let store: StoreClient;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tg-purchase-devnet-'));
  data = mkdtempSync(join(tmpdir(), 'tg-purchase-store-'));
  gen = await generateDevnet(dir, { blocks: BLOCKS, seed: 5 });
  store = await openStore({ dataDir: data });
  ls = await indexDevnetDir(dir, store, { until: BLOCKS, key: 23 });
}, 300_000);

afterAll(async () => {
  await store?.close();
  await ls?.close();
  for (const d of [dir, data]) if (d) rmSync(d, { recursive: true, force: true });
});

const upper = (a: { toRawString(): string }) => a.toRawString().toUpperCase();

describe('devnet GetGems fix-price purchase', () => {
  it('is an nft_purchase: price, seller, buyer, marketplace and the payout the chain made', async () => {
    const c = gen.scenarios.cycles[0];
    const sale = upper(c.nftSale);
    const alice = upper(gen.scenarios.alice.address);
    const bob = upper(gen.scenarios.bob.address);
    const carol = upper(gen.scenarios.carol.address);
    // the chain's own answer: the sale's payment to alice (its only message to her)
    const txs = gen.devnet.blocks.flatMap((b) => decodeBlock(b.boc).transactions);
    const payouts = txs.filter((t) => t.account.toUpperCase() === alice && t.in_msg?.source?.toUpperCase() === sale);
    expect(payouts).toHaveLength(1);
    const payout = payouts[0].in_msg!.value!;

    const rows = await store.query<{ type: string; details: string; trace_id: string }>(
      `SELECT type, details, trace_id FROM actions FINAL WHERE type IN ('nft_transfer', 'nft_purchase') AND position(details, {s:String}) > 0 ORDER BY end_lt`,
      { s: sale },
    );
    const purchase = rows.filter((r) => r.type === 'nft_purchase');
    expect(purchase).toHaveLength(1);
    const d = JSON.parse(purchase[0].details) as Record<string, unknown>;
    expect(d).toMatchObject({
      nft_item: upper(c.nftItem), old_owner: sale, new_owner: bob, is_purchase: true, price: '5000000000', marketplace: 'getgems',
      real_old_owner: alice, marketplace_address: carol, payout_address: alice, payout_amount: payout.toString(),
    });
    // the listing (alice -> the sale) stays a plain transfer; the purchase's transfer, in the same trace, is marked
    const transfers = rows.filter((r) => r.type === 'nft_transfer').map((r) => ({ trace: r.trace_id, d: JSON.parse(r.details) as Record<string, unknown> }));
    expect(transfers.map((t) => [t.d.new_owner, t.d.is_purchase])).toEqual([[sale, false], [bob, true]]);
    expect(transfers[1].trace).toBe(purchase[0].trace_id);
  });
});
