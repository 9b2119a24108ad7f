// Point reads from the key-value store (src/kv) and from ClickHouse's tables answer the same on a generated devnet
// chain written by the store writer as the pipeline's store stage writes it (entries tagged with their masterchain
// seqno): the key-value store shows a block only once the ingest checkpoint has passed it, then every lookup by key
// (transactions, messages, account and wallet states, the address book, metadata) and an account's transaction list
// answer exactly as the tables do.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDevnet } from '../../src/devnet/generate/index.ts';
import { importBlocks } from '../../pipelines/index.ts';
import { INGEST_CHECKPOINT, openStore, setCheckpoint, type StoreClient } from '../../src/store/client/index.ts';
import { decodeBlock } from '../../src/ton/index.ts';
import { recordQueries } from '../helpers/store.ts';
import { get, v3App } from './helpers.ts';

type Row = Record<string, unknown>;
const hex = (b64: unknown) => Buffer.from(String(b64), 'base64').toString('hex');

describe('point reads: the key-value store and the tables on a devnet chain', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tg-points-devnet-'));
  let store: StoreClient;
  let kvApp: FastifyInstance;
  let tablesApp: FastifyInstance;
  let txs: { hash: string; account: string; mc: number; msgs: string[] }[];
  let accounts: string[];

  beforeAll(async () => {
    store = await openStore({ dataDir: dir, pointReads: 'both' });
    const res = await runDevnet({ seed: 7, blocks: 10, splitAt: 3, mergeAt: 7 });
    // as the store stage writes: entries tagged with their block's masterchain seqno, hidden until the checkpoint
    await importBlocks(store, res.devnet.blocks.map((b) => decodeBlock(b.boc)), { gate: true });
    kvApp = await v3App(store, 'kv');
    tablesApp = await v3App(store, 'tables');
    const rows = await store.query<{ hash: string; account: string; mc: number; msgs: string[] }>(
      `SELECT t.hash AS hash, t.account AS account, t.mc_block_seqno AS mc, groupArray(m.msg_hash) AS msgs
       FROM transactions AS t FINAL LEFT JOIN messages AS m FINAL ON m.tx_account = t.account AND m.tx_lt = t.lt
       GROUP BY hash, account, mc ORDER BY mc, hash`,
    );
    txs = rows.map((r) => ({ ...r, mc: Number(r.mc), msgs: r.msgs.filter((h) => h !== '') }));
    accounts = [...new Set(txs.map((t) => t.account))].sort();
  }, 300_000);
  afterAll(async () => {
    await kvApp?.close();
    await tablesApp?.close();
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a block is visible from the key-value store once the ingest checkpoint passes its masterchain seqno', async () => {
    const seqnos = [...new Set(txs.map((t) => t.mc))].sort((a, b) => a - b);
    expect(seqnos.length).toBeGreaterThan(2);
    const mid = seqnos[Math.floor(seqnos.length / 2)];
    const early = txs.find((t) => t.mc > 0 && t.mc <= mid)!;
    const late = txs.find((t) => t.mc > mid)!;
    const byHash = (app: FastifyInstance, t: { hash: string }) => get(app, `/api/v3/transactions?hash=${t.hash}`, { 'X-No-Address-Book': '1' });
    // before any checkpoint: stored in ClickHouse, not yet visible
    expect(((await byHash(kvApp, early)).body.transactions as Row[]).length).toBe(0);
    expect(((await byHash(tablesApp, early)).body.transactions as Row[]).length).toBe(1);
    await setCheckpoint(store, INGEST_CHECKPOINT, mid);
    expect((await byHash(kvApp, early)).body).toEqual((await byHash(tablesApp, early)).body);
    expect(((await byHash(kvApp, late)).body.transactions as Row[]).length).toBe(0);
    // the account's list shows nothing past the checkpoint either
    const list = (await get(kvApp, `/api/v3/transactions?account=${late.account}&limit=100`, { 'X-No-Address-Book': '1' })).body.transactions as Row[];
    expect(list.map((t) => hex(t.hash))).not.toContain(late.hash);
    // the checkpoint never moves back (a replay of older seqnos)
    await setCheckpoint(store, INGEST_CHECKPOINT, 1);
    expect(((await byHash(kvApp, early)).body.transactions as Row[]).length).toBe(1);
    await setCheckpoint(store, INGEST_CHECKPOINT, seqnos[seqnos.length - 1]);
    expect((await byHash(kvApp, late)).body).toEqual((await byHash(tablesApp, late)).body);
  });

  it('every lookup by key answers as the tables do, with no engine statement for the point reads', async () => {
    expect(txs.length).toBeGreaterThan(50);
    const batch = <T>(list: T[], n: number) => Array.from({ length: Math.ceil(list.length / n) }, (_, i) => list.slice(i * n, i * n + n));
    const msgs = [...new Set(txs.flatMap((t) => t.msgs))];
    expect(msgs.length).toBeGreaterThan(50);
    const point = [
      ...txs.map((t) => `/api/v3/transactions?hash=${t.hash}`),
      ...batch(txs.map((t) => t.hash), 7).map((b) => `/api/v3/transactions?${b.map((h) => `hash=${h}`).join('&')}&sort=asc`),
      ...msgs.map((h) => `/api/v3/messages?msg_hash=${h}`),
      ...batch(msgs, 9).map((b) => `/api/v3/messages?${b.map((h) => `msg_hash=${h}`).join('&')}&limit=5&offset=1`),
      ...batch(accounts, 5).map((b) => `/api/v3/accountStates?${b.map((a) => `address=${encodeURIComponent(a)}`).join('&')}`),
      ...batch(accounts, 5).map((b) => `/api/v3/accountStates?${b.map((a) => `address=${encodeURIComponent(a)}`).join('&')}&include_boc=false`),
      ...batch(accounts, 5).map((b) => `/api/v3/walletStates?${b.map((a) => `address=${encodeURIComponent(a)}`).join('&')}`),
      ...batch(accounts, 10).map((b) => `/api/v3/addressBook?${b.map((a) => `address=${encodeURIComponent(a)}`).join('&')}`),
      ...batch(accounts, 10).map((b) => `/api/v3/metadata?${b.map((a) => `address=${encodeURIComponent(a)}`).join('&')}`),
    ];
    let found = 0;
    for (const u of point) {
      const rec = recordQueries(store);
      let kv;
      try {
        kv = await get(kvApp, u);
      } finally {
        rec.restore();
      }
      const tables = await get(tablesApp, u);
      expect(kv.status, u).toBe(200);
      expect(kv.body, u).toEqual(tables.body);
      // (walletStates and accountStates ask the engine nothing either: states, code and methods are key-value reads)
      expect(rec.sql, u).toEqual([]);
      const items = (kv.body.transactions ?? kv.body.messages ?? kv.body.accounts ?? kv.body.wallets) as Row[] | undefined;
      if (items?.length || (!items && Object.keys(kv.body).length)) found++;
    }
    expect(found).toBeGreaterThan(point.length * 0.9);
  });

  it("an account's transactions (the key-value list) page as the tables do, in both orders and lt windows", async () => {
    const busy = accounts
      .map((a) => ({ a, n: txs.filter((t) => t.account === a).length }))
      .sort((x, y) => y.n - x.n)
      .slice(0, 4);
    expect(busy[0].n).toBeGreaterThan(3);
    for (const { a } of busy) {
      const all = (await get(tablesApp, `/api/v3/transactions?account=${encodeURIComponent(a)}&limit=1000&sort=asc`, { 'X-No-Address-Book': '1' })).body.transactions as Row[];
      const mid = String(all[Math.floor(all.length / 2)].lt);
      for (const q of ['limit=1000', 'sort=asc&limit=2&offset=1', 'sort=desc&limit=3', `start_lt=${mid}`, `end_lt=${mid}&sort=asc`, `start_lt=${mid}&end_lt=${mid}`]) {
        const u = `/api/v3/transactions?account=${encodeURIComponent(a)}&${q}`;
        const kv = await get(kvApp, u);
        expect(kv.status, u).toBe(200);
        expect(kv.body, u).toEqual((await get(tablesApp, u)).body);
      }
    }
  });
});
