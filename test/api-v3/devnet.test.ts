// API v3 over a generated devnet chain (real contracts in the TVM emulator, split and merge of the
// basechain shard), imported with the store's importer: every transaction is reachable through the
// masterchain block that commits it, and wallet states parse.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as S from '../../schemas/api/v3/entities.ts';
import { KeyStore } from '../../src/api/auth/index.ts';
import { buildServer } from '../../src/api/server.ts';
import { v3Group } from '../../src/api/v3/index.ts';
import { runDevnet } from '../../src/devnet/generate/index.ts';
import { importBlocks } from '../../pipelines/index.ts';
import { openStore, type StoreClient } from '../../src/store/client/index.ts';
import { decodeBlock, type DecodedBlock } from '../../src/ton/index.ts';
import { get } from './helpers.ts';
import type { FastifyInstance } from 'fastify';

const BLOCKS = 12;
let dir: string;
let store: StoreClient;
let app: FastifyInstance;
let decoded: DecodedBlock[];

beforeAll(async () => {
  const res = await runDevnet({ seed: 11, blocks: BLOCKS, splitAt: 4, mergeAt: 8 });
  decoded = res.devnet.blocks.map((b) => decodeBlock(b.boc));
  dir = mkdtempSync(join(tmpdir(), 'tg-api-v3-devnet-'));
  store = await openStore({ dataDir: dir });
  await importBlocks(store, decoded);
  app = buildServer({ networks: [{ name: 'devnet', testnet: true, services: {} }], keys: new KeyStore({ anonymous: { rps: 1_000_000 } }), groups: [v3Group({ store, testnet: true })] });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await store?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('devnet chain', () => {
  it('masterchainInfo spans the generated chain; indexStatus has no gaps', async () => {
    const mcs = decoded.filter((b) => b.id.workchain === -1).map((b) => b.id.seqno).sort((a, b) => a - b);
    const info = S.MasterchainInfo.parse((await get(app, '/api/v3/masterchainInfo')).body);
    expect(info.first.seqno).toBe(mcs[0]);
    expect(info.last.seqno).toBe(mcs[mcs.length - 1]);
    const st = S.IndexStatus.parse((await get(app, '/api/v3/indexStatus')).body);
    expect(st.gaps).toBe(0);
    expect(st.indexed_mc_blocks).toBe(mcs.length);
  });

  it('every transaction belongs to exactly one masterchain block (through split and merge)', async () => {
    const total = decoded.reduce((n, b) => n + b.transactions.length, 0);
    expect(total).toBeGreaterThan(0);
    const shards = new Set(decoded.filter((b) => b.id.workchain === 0).map((b) => b.id.shard));
    expect(shards.size).toBeGreaterThan(1); // the shard split
    const seen = new Set<string>();
    for (const b of decoded.filter((x) => x.id.workchain === -1)) {
      const blocks = S.BlocksResponse.parse((await get(app, `/api/v3/masterchainBlockShards?seqno=${b.id.seqno}`)).body).blocks;
      for (const blk of blocks) expect(blk.masterchain_block_ref.seqno).toBe(b.id.seqno);
      const txs = S.TransactionsResponse.parse((await get(app, `/api/v3/transactionsByMasterchainBlock?seqno=${b.id.seqno}&limit=1000&sort=asc`)).body).transactions;
      expect(txs.length).toBe(blocks.reduce((n, x) => n + x.tx_count, 0));
      for (const t of txs) {
        expect(seen.has(t.hash)).toBe(false);
        seen.add(t.hash);
      }
    }
    // only transactions of shard blocks no masterchain block of the chain commits (yet) are outside
    const all = decoded.flatMap((b) => b.transactions.map((t) => Buffer.from(t.hash, 'hex').toString('base64')));
    const missing = all.filter((h) => !seen.has(h));
    const uncommittedTx = (await store.query<{ n: string }>('SELECT count() AS n FROM transactions FINAL WHERE mc_block_seqno = 0'))[0].n;
    expect(missing.length).toBe(Number(uncommittedTx));
  });

  it('wallet states of the generated wallets parse; address book uses the testnet flag', async () => {
    const accounts = (await store.query<{ account: string }>("SELECT account FROM latest_account_states FINAL WHERE account_status = 'active' AND startsWith(account, '0:')")).map((r) => r.account);
    const ws = S.WalletStatesResponse.parse((await get(app, `/api/v3/walletStates?${accounts.map((a) => `address=${a}`).join('&')}`)).body);
    const wallets = ws.wallets.filter((w) => w.is_wallet);
    expect(wallets.length).toBeGreaterThan(0);
    for (const w of wallets) {
      expect(w.wallet_type).toMatch(/^wallet v/);
      expect(w.seqno).toBeGreaterThanOrEqual(0);
      // testnet deployment: non-bounceable testnet form 0Q...
      expect(ws.address_book[w.address].user_friendly).toMatch(/^0Q/);
    }
    const busiest = wallets.sort((a, b) => (b.seqno ?? 0) - (a.seqno ?? 0))[0];
    const txs = S.TransactionsResponse.parse((await get(app, `/api/v3/transactions?account=${busiest.address}&limit=1000`)).body).transactions;
    // every external message of a wallet bumps its seqno once
    expect(txs.filter((t) => t.in_msg && t.in_msg.source === null && t.description.compute_ph?.success === true).length).toBe(busiest.seqno);
  });
});
