/**
 * The README's "SQL for analysts": each report's SQL, taken from the README as written, run by the `sql` command's
 * own path (runReadOnlySql) on a store the real pipeline filled from a generated devnet (served over ADNL), and
 * compared with what the generator made: its decoded blocks and its scenarios (who sold which NFT at what price, which
 * jetton moved how much). The DEX report also runs on real mainnet swaps (analyst-reports-dex.test.ts): the devnet
 * has no DEX.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexDevnetDir } from '../helpers/devnet-index.ts';
import { generateDevnet, type GenerateResult } from '../../src/devnet/generate/index.ts';
import { jettonWalletAddress } from '../../src/devnet/generate/contracts.ts';
import type { LiteServer } from '../../src/devnet/liteserver/index.ts';
import { openStore, type StoreClient } from '../../src/store/client/index.ts';
import { raw, readmeReports, report, run } from './readme-reports.ts';
import { decodeBlock, type DecodedBlock } from '../../src/ton/index.ts';


// ---------------------------------------------------------------- the devnet store

const BLOCKS = 34;
const START = 1_790_000_000;
/** two hours a round: the chain spans four UTC days */
const INTERVAL = 7200;
let dir: string;
let data: string;
let gen: GenerateResult;
let blocks: DecodedBlock[];
let ls: LiteServer;
let store: StoreClient;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tg-analyst-devnet-'));
  data = mkdtempSync(join(tmpdir(), 'tg-analyst-store-'));
  gen = await generateDevnet(dir, { blocks: BLOCKS, seed: 5, startTime: START, blockInterval: INTERVAL, bulkWallets: 4, bulkFanout: 2 });
  blocks = gen.devnet.blocks.map((b) => decodeBlock(b.boc));
  store = await openStore({ dataDir: data });
  ls = await indexDevnetDir(dir, store, { until: BLOCKS, key: 21 });
}, 600_000);

afterAll(async () => {
  await store?.close();
  await ls?.close();
  for (const d of [dir, data]) if (d) rmSync(d, { recursive: true, force: true });
});

function allTxs() {
  return blocks.flatMap((b) => b.transactions);
}

/** The scripted cycles whose round `off` (0-based in the cycle) is inside the chain. */
function cyclesReaching(off: number) {
  return gen.scenarios.cycles.filter((c) => c.startRound + off <= BLOCKS);
}

describe('README: SQL for analysts, on a devnet store', () => {
  it('has the five reports', () => {
    expect([...readmeReports().keys()]).toEqual(['Daily active wallets', 'Top jettons by transfer volume', 'DEX swaps by DEX and contract', 'NFT sales', 'Fees by contract type']);
  });

  it('1. daily active wallets: the accounts whose externals ran, per UTC day', async () => {
    const want = new Map<string, { accounts: Set<string>; txs: number }>();
    for (const t of allTxs()) {
      if (t.in_msg?.message_type !== 'ext_in') continue;
      const day = new Date(t.now * 1000).toISOString().slice(0, 10);
      const d = want.get(day) ?? { accounts: new Set(), txs: 0 };
      d.accounts.add(t.account);
      d.txs++;
      want.set(day, d);
    }
    expect(want.size).toBeGreaterThanOrEqual(4);
    const rows = await run(store, report('Daily active wallets'));
    expect(rows).toEqual([...want.entries()].sort().map(([day, d]) => ({ day, active_wallets: String(d.accounts.size), transactions: String(d.txs) })));
  });

  it('2. top jettons: each cycle’s jetton, its one transfer (bob -> dave, 100 + cycle jettons), biggest first', async () => {
    const cycles = cyclesReaching(8);
    expect(cycles.length).toBeGreaterThanOrEqual(2);
    const want = cycles
      .map((c) => ({ jetton: raw(c.jettonMinter), content: JSON.stringify({ uri: `https://devnet.example/jetton/${c.cycle}.json` }), transfers: '1', senders: '1', volume_raw: String((100n + BigInt(c.cycle)) * 1_000_000_000n) }))
      .sort((a, b) => Number(BigInt(b.volume_raw) - BigInt(a.volume_raw)));
    expect(await run(store, report('Top jettons by transfer volume'))).toEqual(want);
  });

  it('3. DEX swaps: none on the devnet (it runs no DEX contract)', async () => {
    expect(await run(store, report('DEX swaps by DEX and contract'))).toEqual([]);
  });

  it('4. NFT sales: each cycle’s GetGems sale, alice -> bob at its price, fee to carol, royalty to dave', async () => {
    const { alice, bob, carol } = gen.scenarios;
    const cycles = cyclesReaching(14);
    expect(cycles.length).toBeGreaterThanOrEqual(2);
    const want = cycles.map((c) => ({
      // the item's transfer to bob runs two rounds after bob pays (off 11 -> the sale at off 12 -> the item at off 13)
      sold_at: String(START + (c.startRound + 13) * INTERVAL),
      nft: raw(c.nftItem),
      seller: raw(alice.address),
      buyer: raw(bob.address),
      price_nanoton: '5000000000',
      marketplace_fee: '250000000',
      royalty: '500000000',
      marketplace: raw(carol.address),
      sale: raw(c.nftSale),
    }));
    const rows = await run(store, report('NFT sales'));
    expect(rows.map((r) => ({ ...r, sold_at: String(r.sold_at) }))).toEqual(want);
  });

  it('5. fees by contract type: every transaction’s fee counted once, in its contract’s group', async () => {
    const { bob, dave } = gen.scenarios;
    const kinds = new Map<string, string>();
    for (const c of gen.scenarios.cycles) {
      kinds.set(raw(c.jettonMinter), 'jetton_master');
      kinds.set(raw(c.nftCollection), 'nft_collection');
      kinds.set(raw(c.nftItem), 'nft_item');
      kinds.set(raw(c.nftSale), 'nft_sale');
      for (const owner of [bob, dave]) kinds.set(raw(jettonWalletAddress(owner.address, c.jettonMinter)), 'jetton_wallet');
    }
    const wallets = new Set(allTxs().filter((t) => t.in_msg?.message_type === 'ext_in').map((t) => t.account));
    const want = new Map<string, { accounts: Set<string>; txs: number; fees: bigint }>();
    for (const t of allTxs()) {
      const kind = kinds.get(t.account) ?? (wallets.has(t.account) ? 'wallet' : 'other');
      const g = want.get(kind) ?? { accounts: new Set(), txs: 0, fees: 0n };
      g.accounts.add(t.account);
      g.txs++;
      g.fees += BigInt(t.total_fees);
      want.set(kind, g);
    }
    expect([...want.keys()].sort()).toEqual(['jetton_master', 'jetton_wallet', 'nft_collection', 'nft_item', 'nft_sale', 'other', 'wallet']);
    const rows = await run(store, report('Fees by contract type'));
    expect(rows).toEqual(
      [...want.entries()]
        .map(([contract_type, g]) => ({ contract_type, accounts: String(g.accounts.size), transactions: String(g.txs), fees_nanoton: String(g.fees) }))
        .sort((a, b) => (BigInt(b.fees_nanoton) > BigInt(a.fees_nanoton) ? 1 : BigInt(b.fees_nanoton) < BigInt(a.fees_nanoton) ? -1 : a.contract_type < b.contract_type ? -1 : 1)),
    );
  });
});
