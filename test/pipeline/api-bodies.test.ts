// API v3 bodies over a devnet chain indexed by the whole pipeline (ingest from the devnet liteserver over ADNL,
// decode, store, checkpoint, traces stage; and again with --no-traces), held against bodies recorded from an
// earlier commit (test/fixtures/behaviour/api-bodies.json: each URL's status and the sha256 of its body; provenance
// in test/fixtures/MANIFEST.md). A change that only moves code (issue 36) must answer every URL byte for byte as
// before. The URLs are found from the answers themselves (accounts, hashes, trace ids, entities), so the list is
// the same on every run of the same code. RECORD=1 writes the file anew (only from a commit whose behaviour is the
// reference); a body that differs is written beside the temp store for a look (its path is in the failure).
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIndexer } from '../../pipelines/index.ts';
import { KeyStore } from '../../src/api/auth/index.ts';
import { buildServer } from '../../src/api/server.ts';
import { v3Group } from '../../src/api/v3/index.ts';
import { MemoryBus } from '../../src/bus/index.ts';
import { loadChainDir } from '../../src/devnet/chain/index.ts';
import { generateDevnet } from '../../src/devnet/generate/index.ts';
import { startLiteServer, type LiteServer } from '../../src/devnet/liteserver/index.ts';
import { LiteserverPool } from '../../src/source/index.ts';
import { openStore, type StoreClient } from '../../src/store/client/index.ts';
import { FIXTURES } from '../store/helpers.ts';

const RECORDED = join(FIXTURES, 'behaviour', 'api-bodies.json');
/** Two scenario cycles and a half (jetton mint / transfer / burn, NFT mint / transfer / sale, a bounce), one split and one merge. */
const BLOCKS = 40;

interface Answer {
  status: number;
  sha256: string;
  bytes: number;
}
type Recorded = Record<'traces' | 'no-traces', Record<string, Answer>>;

let dir: string;
let ls: LiteServer;
let tip: number;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tg-api-bodies-'));
  await generateDevnet(join(dir, 'chain'), { blocks: BLOCKS, bulkWallets: 2, bulkFanout: 2, states: 'last', seed: 36 });
  const chain = JSON.parse(readFileSync(join(dir, 'chain', 'chain.json'), 'utf8')) as { blocks: { workchain: number; seqno: number }[] };
  tip = Math.max(...chain.blocks.filter((b) => b.workchain === -1).map((b) => b.seqno));
  ls = await startLiteServer({ source: loadChainDir(join(dir, 'chain')), key: Buffer.alloc(32, 36), host: '127.0.0.1' });
}, 600_000);

afterAll(async () => {
  await ls?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The chain indexed from genesis to its tip into a fresh store, the v3 API over it. */
async function withIndexed<T>(name: string, traces: boolean, fn: (app: FastifyInstance, store: StoreClient) => Promise<T>): Promise<T> {
  const store = await openStore({ dataDir: join(dir, name) });
  const pool = new LiteserverPool([{ host: `127.0.0.1:${ls.port}`, publicKey: ls.publicKey }], { timeoutMs: 5000 });
  const bus = new MemoryBus();
  let app: FastifyInstance | undefined;
  try {
    await pool.start();
    const h = await runIndexer({ bus, source: pool, store, fromSeqno: 1, untilSeqno: tip, traces });
    await h.done;
    await h.stop();
    app = buildServer({ networks: [{ name: 'devnet', testnet: true, services: {} }], keys: new KeyStore({ anonymous: { rps: 1_000_000 } }), groups: [v3Group({ store, testnet: true })] });
    await app.ready();
    return await fn(app, store);
  } finally {
    await app?.close();
    await bus.close();
    await pool.close();
    await store.close();
  }
}

type Json = Record<string, unknown>;

/** Asks every URL (found from earlier answers) and keeps each answer's status and digest; the bodies for a diff. */
async function answers(app: FastifyInstance, traces: boolean): Promise<{ digests: Record<string, Answer>; bodies: Map<string, string> }> {
  const digests: Record<string, Answer> = {};
  const bodies = new Map<string, string>();
  const ask = async (path: string): Promise<Json> => {
    const url = `/api/v3/${path}`;
    const r = await app.inject({ method: 'GET', url });
    digests[url] = { status: r.statusCode, sha256: createHash('sha256').update(r.body).digest('hex'), bytes: r.body.length };
    bodies.set(url, r.body);
    return r.statusCode === 200 ? (JSON.parse(r.body) as Json) : {};
  };
  const list = (v: unknown) => (Array.isArray(v) ? (v as Json[]) : []);
  const uniq = <T,>(xs: T[]) => [...new Set(xs)];
  const enc = encodeURIComponent;

  const info = await ask('masterchainInfo');
  const lastMc = Number((info.last as Json | undefined)?.seqno ?? 0);
  await ask('blocks?limit=200&sort=asc');
  await ask('blocks?workchain=0&limit=50&sort=desc');
  for (const s of [1, Math.floor(lastMc / 2), lastMc]) {
    await ask(`masterchainBlockShardState?seqno=${s}`);
    await ask(`masterchainBlockShards?seqno=${s}`);
    await ask(`transactionsByMasterchainBlock?seqno=${s}&limit=100&sort=asc`);
  }
  const txs = list((await ask('transactions?limit=1000&sort=asc')).transactions);
  await ask('transactions?limit=20&offset=10&sort=desc');
  const accounts = uniq(txs.map((t) => String(t.account)));
  const busiest = [...accounts].sort((a, b) => txs.filter((t) => t.account === b).length - txs.filter((t) => t.account === a).length || (a < b ? -1 : 1)).slice(0, 8);
  for (const a of busiest) {
    await ask(`transactions?account=${enc(a)}&limit=50`);
    await ask(`addressBook?address=${enc(a)}`);
    await ask(`metadata?address=${enc(a)}`);
    await ask(`actions?account=${enc(a)}&limit=50`);
    await ask(`traces?account=${enc(a)}&limit=20`);
  }
  await ask(`accountStates?${accounts.slice(0, 40).map((a) => `address=${enc(a)}`).join('&')}`);
  await ask(`walletStates?${accounts.slice(0, 40).map((a) => `address=${enc(a)}`).join('&')}`);
  await ask('topAccountsByBalance?limit=20');
  const sample = txs.filter((_, i) => i % 9 === 0);
  for (const t of sample) {
    await ask(`transactions?hash=${enc(String(t.hash))}`);
    await ask(`adjacentTransactions?hash=${enc(String(t.hash))}`);
    const inMsg = t.in_msg as Json | null;
    if (inMsg?.hash) {
      await ask(`transactionsByMessage?msg_hash=${enc(String(inMsg.hash))}`);
      await ask(`messages?msg_hash=${enc(String(inMsg.hash))}`);
    }
    if (traces && t.trace_id) {
      await ask(`traces?trace_id=${enc(String(t.trace_id))}`);
      await ask(`balanceChanges?trace_id=${enc(String(t.trace_id))}`);
    }
  }
  await ask('messages?limit=200&sort=asc');
  await ask(`messages?source=${enc(busiest[0])}&limit=50`);
  for (const a of busiest.slice(0, 3)) await ask(`pendingTransactions?account=${enc(a)}&limit=50`);
  const bodiesSeen = uniq(txs.flatMap((t) => [(t.in_msg as Json | null)?.message_content, ...list(t.out_msgs).map((m) => m.message_content)]).map((c) => String((c as Json | undefined)?.body ?? '')).filter(Boolean)).slice(0, 10);
  for (const b of bodiesSeen) await ask(`decode?bodies=${enc(b)}`);
  const opcodes = uniq(txs.flatMap((t) => list(t.out_msgs).map((m) => m.opcode)).filter((o) => o !== null && o !== undefined).map(String)).slice(0, 10);
  if (opcodes.length) await ask(`decode?${opcodes.map((o) => `opcodes=${enc(o)}`).join('&')}`);

  if (traces) {
    const tr = list((await ask('traces?limit=200&sort=asc&include_actions=true')).traces);
    await ask('events?limit=50&sort=desc');
    const acts = list((await ask('actions?limit=500&sort=asc')).actions);
    await ask('actions?limit=100&sort=desc&include_accounts=true');
    for (const a of acts.filter((_, i) => i % 7 === 0)) await ask(`balanceChanges?action_id=${enc(String(a.action_id))}`);
    for (const t of tr.filter((_, i) => i % 11 === 0)) await ask(`actions?trace_id=${enc(String(t.trace_id))}`);
    for (const a of busiest.slice(0, 3)) {
      await ask(`pendingTraces?account=${enc(a)}&limit=50`);
      await ask(`pendingActions?account=${enc(a)}&limit=50`);
    }
    const masters = list((await ask('jetton/masters?limit=50')).jetton_masters);
    const wallets: Json[] = [];
    await ask('jetton/transfers?limit=100&sort=asc');
    await ask('jetton/burns?limit=100&sort=asc');
    for (const m of masters) {
      wallets.push(...list((await ask(`jetton/wallets?jetton_address=${enc(String(m.address))}`)).jetton_wallets));
      await ask(`jetton/transfers?jetton_master=${enc(String(m.address))}&limit=50`);
    }
    for (const w of wallets.slice(0, 5)) await ask(`jetton/transfers?owner_address=${enc(String(w.owner))}&limit=50`);
    const collections = list((await ask('nft/collections?limit=50')).nft_collections);
    const items = list((await ask('nft/items?limit=50')).nft_items);
    await ask('nft/transfers?limit=100&sort=asc');
    await ask(`nft/sales?${accounts.map((a) => `address=${enc(a)}`).join('&')}`);
    for (const c of collections) await ask(`nft/items?collection_address=${enc(String(c.address))}`);
    for (const i of items.slice(0, 5)) {
      await ask(`nft/transfers?item_address=${enc(String(i.address))}&limit=50`);
      await ask(`nft/items?owner_address=${enc(String(i.owner_address))}`);
    }
    await ask(`multisig/wallets?address=${enc(busiest[0])}`);
    await ask(`vesting?contract_address=${enc(busiest[0])}`);
    await ask(`dns/records?wallet=${enc(busiest[0])}`);
    await ask('validators/events?limit=20');
    await ask('validators/cycles?limit=20');
  }
  return { digests, bodies };
}

describe('API v3 bodies over an indexed devnet, as recorded', () => {
  const got: Partial<Recorded> = {};
  const bodies = new Map<string, string>();

  for (const [mode, traces] of [['traces', true], ['no-traces', false]] as const) {
    it(`indexed ${mode === 'traces' ? 'with the traces stage' : 'with --no-traces'}: every URL answers as recorded`, { timeout: 900_000 }, async () => {
      const run = await withIndexed(`store-${mode}`, traces, (app) => answers(app, traces));
      got[mode] = run.digests;
      for (const [u, b] of run.bodies) bodies.set(`${mode} ${u}`, b);
      if (process.env.RECORD) return;
      const expected = (JSON.parse(readFileSync(RECORDED, 'utf8')) as Recorded)[mode];
      const oks = Object.values(expected).filter((a) => a.status === 200).length;
      // most URLs answer (a 4xx recorded is compared too)
      expect(oks).toBeGreaterThan(Object.keys(expected).length * 0.9);
      const diff = Object.keys({ ...expected, ...run.digests }).filter((u) => JSON.stringify(expected[u]) !== JSON.stringify(run.digests[u]));
      if (diff.length) {
        const file = join(tmpdir(), `api-bodies-${mode}-diff.json`);
        writeFileSync(file, JSON.stringify(Object.fromEntries(diff.map((u) => [u, { expected: expected[u], got: run.digests[u], body: run.bodies.get(u) }])), null, 1));
        expect.soft(diff, `bodies that differ: ${file}`).toEqual([]);
      }
      expect(diff).toEqual([]);
    });
  }

  afterAll(() => {
    if (process.env.RECORD && got.traces && got['no-traces']) writeFileSync(RECORDED, JSON.stringify(got, null, 1) + '\n');
  });
});
