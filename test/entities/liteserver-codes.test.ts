// Codes neither the block nor the store has, read from a liteserver (src/entities/liteserver-codes.ts), end to end:
// a devnet chain generated at test time (real contracts in the TVM emulator), served by the devnet liteserver over
// a real ADNL socket, the traces stage's processMcBatch on real chdb stores.
//
// Devnet blocks carry every touched account's code whole, so the case a mainnet block presents (a jetton master or
// NFT collection whose data changes while its code is pruned) is built from a real one: the masterchain batch in
// which the devnet's jetton master and NFT collection change state after their deploy, with those two code cells
// of its shard block replaced by pruned branches (their hash and depth, as a block's state_update prunes unchanged
// cells), and decoded by the real decoder. Run on a store that never saw the deploy block, only a liteserver has
// the codes. Expected values come from the fixture codes (test/fixtures/codes, provenance in MANIFEST.md) and the
// contracts' data read with @ton/core in their source layouts, never from the code under test.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Address, Cell, CellType } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPipelineMetrics, runIndexer } from '../../pipelines/index.ts';
import { TOPICS } from '../../schemas/bus/index.ts';
import { MemoryBus } from '../../src/bus/index.ts';
import { loadChainDir, type ChainJson } from '../../src/devnet/chain/index.ts';
import { generateDevnet } from '../../src/devnet/generate/index.ts';
import { startLiteServer, type LiteServer } from '../../src/devnet/liteserver/index.ts';
import { blockIdExtOf, LiteserverCodeFetcher } from '../../src/entities/index.ts';
import { LiteserverPool } from '../../src/source/index.ts';
import { openStore, type StoreClient } from '../../src/store/client/index.ts';
import { decodeBlock, type DecodedBlock } from '../../src/ton/index.ts';
import { TraceAssembler } from '../../src/traces/assembler.ts';
import { processMcBatch, writeMcBatch } from '../../src/traces/stage.ts';
import { createTracesContext } from '../../src/traces/stage-context.ts';
import type { McBatchOutput } from '../../src/traces/step.ts';
import { code, prunedBranch } from './helpers.ts';

const MINTER = code('jetton-minter-standard.token-contract.discoverable.boc');
const JETTON_WALLET = code('jetton-wallet-standard.token-contract.boc');
const COLLECTION = code('nft-collection.sandbox-example.acton-NftV1Collection.boc');
const hashOf = (c: Cell) => c.hash().toString('hex');
// method ids of TEP-74 / TEP-62 getters: crc16(name) | 0x10000 (toncenter's contract_methods hold the same)
const GET_JETTON_DATA = 106029;
const GET_COLLECTION_DATA = 102491;

/** Copy of `root` with every ordinary cell whose hash is a key of `swap` replaced by what `swap` gives for it. */
function replaceCells(root: Cell, swap: Map<string, (c: Cell) => Cell>): Cell {
  const memo = new Map<Cell, Cell>();
  const go = (c: Cell): Cell => {
    const done = memo.get(c);
    if (done) return done;
    let out = c;
    const f = c.type === CellType.PrunedBranch ? undefined : swap.get(c.hash(0).toString('hex'));
    if (f) out = f(c);
    else if (c.refs.length) {
      const refs = c.refs.map(go);
      if (refs.some((r, i) => r !== c.refs[i])) out = new Cell({ exotic: c.isExotic, bits: c.bits, refs });
    }
    memo.set(c, out);
    return out;
  };
  return go(root);
}

interface Batch {
  mcSeqno: number;
  /** chain.json ids of its blocks, the masterchain block last */
  ids: ChainJson['blocks'];
  /** block BoCs, the two codes pruned */
  bocs: Buffer[];
  blocks: DecodedBlock[];
}

let dir: string;
let ls: LiteServer;
let wrongLs: LiteServer;
let pool: LiteserverPool;
let wrongPool: LiteserverPool;
let deadPool: LiteserverPool;
let target: Batch;
let next: Batch;
let minter: string;
let collection: string;
const tmp: string[] = [];

const blockFile = (b: ChainJson['blocks'][number]) => join(dir, 'blocks', `${b.workchain}_${b.shard.toLowerCase()}_${b.seqno}.boc`);

async function freshStore(): Promise<{ store: StoreClient; data: string }> {
  const data = mkdtempSync(join(tmpdir(), 'tg-lscode-data-'));
  tmp.push(data);
  return { store: await openStore({ dataDir: data }), data };
}

function run(store: StoreClient, batch: Batch, codes?: LiteserverCodeFetcher): Promise<McBatchOutput> {
  return processMcBatch(createTracesContext({ store }), new TraceAssembler(), batch.mcSeqno, batch.blocks, undefined, { codes });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tg-lscode-'));
  await generateDevnet(dir, { blocks: 8, bulkWallets: 0, seed: 3, states: 'all' });
  const chainJson = JSON.parse(readFileSync(join(dir, 'chain.json'), 'utf8')) as ChainJson;

  // masterchain batches in chain order: each masterchain block after the shard blocks it commits
  const batches: { mcSeqno: number; ids: ChainJson['blocks'] }[] = [];
  let pending: ChainJson['blocks'] = [];
  for (const b of chainJson.blocks) {
    pending.push(b);
    if (b.workchain === -1) {
      batches.push({ mcSeqno: b.seqno, ids: pending });
      pending = [];
    }
  }
  // the first batch after the deploy in which the jetton master changes state again (its data: a mint)
  const seen = new Map<string, number>();
  let at = -1;
  for (const [i, b] of batches.entries()) {
    for (const id of b.ids) {
      for (const st of decodeBlock(readFileSync(blockFile(id))).account_states) {
        if (st.code_hash !== hashOf(MINTER) && st.code_hash !== hashOf(COLLECTION)) continue;
        seen.set(st.account, (seen.get(st.account) ?? 0) + 1);
        if (st.code_hash === hashOf(MINTER) && seen.get(st.account) === 2 && at < 0) at = i;
      }
    }
  }
  expect(at).toBeGreaterThan(0);
  const prune = new Map([MINTER, COLLECTION].map((c) => [hashOf(c), prunedBranch] as const));
  const load = (b: { mcSeqno: number; ids: ChainJson['blocks'] }, pruned: boolean): Batch => {
    const bocs = b.ids.map((id) => {
      const boc = readFileSync(blockFile(id));
      if (!pruned) return boc;
      const root = Cell.fromBoc(boc)[0];
      const out = replaceCells(root, prune);
      return out === root ? boc : out.toBoc({ idx: false, crc32: true });
    });
    return { ...b, bocs, blocks: bocs.map((x) => decodeBlock(x)) };
  };
  target = load(batches[at], true);
  next = load(batches[at + 1], false);
  const states = target.blocks.flatMap((b) => b.account_states);
  minter = states.find((s) => s.code_hash === hashOf(MINTER))!.account;
  collection = states.find((s) => s.code_hash === hashOf(COLLECTION))!.account;

  ls = await startLiteServer({ source: loadChainDir(dir), key: Buffer.alloc(32, 21), host: '127.0.0.1' });
  // a liteserver answering other codes for both accounts: the full states after every basechain block, the
  // minter's code swapped for the jetton wallet's and the collection's for the minter's
  const wrong = loadChainDir(dir);
  const swap = new Map<string, (c: Cell) => Cell>([
    [hashOf(MINTER), () => JETTON_WALLET],
    [hashOf(COLLECTION), () => MINTER],
  ]);
  for (const b of wrong.allBlocks()) {
    const st = b.id.workchain === 0 ? wrong.getState(b.id) : undefined;
    if (st) wrong.setState(b.id, replaceCells(st, swap));
  }
  wrongLs = await startLiteServer({ source: wrong, key: Buffer.alloc(32, 22), host: '127.0.0.1' });
  // a liteserver that is gone: its port no longer answers
  const gone = await startLiteServer({ source: loadChainDir(dir), key: Buffer.alloc(32, 23), host: '127.0.0.1' });
  await gone.close();

  pool = new LiteserverPool([{ host: `127.0.0.1:${ls.port}`, publicKey: ls.publicKey }], { timeoutMs: 10_000 });
  wrongPool = new LiteserverPool([{ host: `127.0.0.1:${wrongLs.port}`, publicKey: wrongLs.publicKey }], { timeoutMs: 10_000 });
  deadPool = new LiteserverPool([{ host: `127.0.0.1:${gone.port}`, publicKey: gone.publicKey }], { timeoutMs: 1_000 });
  await pool.start();
  await wrongPool.start();
}, 300_000);

afterAll(async () => {
  await pool?.close();
  await wrongPool?.close();
  await deadPool?.close();
  await ls?.close();
  await wrongLs?.close();
  for (const d of [dir, ...tmp]) if (d) rmSync(d, { recursive: true, force: true });
});

describe('the constructed batch', () => {
  it('prunes the two codes and nothing else: the decoder gives their hashes, no code, and the data', () => {
    const states = target.blocks.flatMap((b) => b.account_states);
    for (const a of [minter, collection]) {
      const st = states.find((s) => s.account === a)!;
      expect(st.account_status).toBe('active');
      expect(st.code_boc).toBeNull();
      expect(st.data_root_boc).not.toBeNull();
    }
    // every other account of the batch still carries its code
    expect(states.filter((s) => s.account_status === 'active' && s.account !== minter && s.account !== collection).every((s) => s.code_boc)).toBe(true);
  });
});

describe('codes from a liteserver in processMcBatch', () => {
  it('without a liteserver: the jetton master and the NFT collection are no_code, no rows', async () => {
    const { store } = await freshStore();
    try {
      const out = await run(store, target);
      expect(out.entityStats.no_code).toBe(2);
      expect(out.entityStats.code_fetched).toBe(0);
      expect(out.entities.jetton_masters).toEqual([]);
      expect(out.entities.nft_collections).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('fetches both codes at the batch block, derives the rows, stores the codes; the next batch finds them in the store', async () => {
    const { store, data } = await freshStore();
    const states = target.blocks.flatMap((b) => b.account_states);
    try {
      const fetcher = new LiteserverCodeFetcher(pool, store, { timeoutMs: 20_000 });
      const out = await run(store, target, fetcher);
      expect(out.entityStats).toMatchObject({ code_fetched: 2, code_mismatch: 0, code_fetch_failed: 0, code_fetch_skipped: 0, no_code: 0 });

      // the jetton master as its data says (token-contract jetton-minter.fc: total_supply admin content wallet_code)
      const md = Cell.fromBase64(states.find((s) => s.account === minter)!.data_root_boc!).beginParse();
      const supply = md.loadCoins();
      const admin = md.loadAddress();
      md.loadRef();
      const walletCode = md.loadRef();
      expect(hashOf(walletCode)).toBe(hashOf(JETTON_WALLET));
      expect(out.entities.jetton_masters).toHaveLength(1);
      const jm = out.entities.jetton_masters[0];
      expect(jm.address).toBe(minter);
      expect(BigInt(jm.total_supply as bigint)).toBe(supply);
      expect(supply).toBeGreaterThan(0n); // a mint happened: the data differs from the deploy's
      expect(Address.parseRaw(jm.admin_address as string).equals(admin)).toBe(true);
      expect(jm.jetton_wallet_code_hash).toBe(hashOf(JETTON_WALLET));
      expect(jm.code_hash).toBe(hashOf(MINTER));

      // the NFT collection (sandbox NftCollection: owner next_item_index:uint64 content item_code royalty)
      const cd = Cell.fromBase64(states.find((s) => s.account === collection)!.data_root_boc!).beginParse();
      const owner = cd.loadAddress();
      const nextIndex = cd.loadUintBig(64);
      expect(out.entities.nft_collections).toHaveLength(1);
      const nc = out.entities.nft_collections[0];
      expect(nc.address).toBe(collection);
      expect(BigInt(nc.next_item_index as bigint)).toBe(nextIndex);
      expect(Address.parseRaw(nc.owner_address as string).equals(owner)).toBe(true);

      await writeMcBatch(createTracesContext({ store }), new TraceAssembler(), target.mcSeqno, out);
      await fetcher.settled();
      const stored = await store.query<{ code_hash: string; code_boc: string }>('SELECT code_hash, code_boc FROM contract_code FINAL ORDER BY code_hash');
      const byHash = new Map(stored.map((r) => [r.code_hash, Cell.fromBase64(r.code_boc)]));
      expect(byHash.get(hashOf(MINTER))?.equals(MINTER)).toBe(true);
      expect(byHash.get(hashOf(COLLECTION))?.equals(COLLECTION)).toBe(true);
      const methods = await store.query<{ code_hash: string; methods: number[] }>('SELECT code_hash, methods FROM contract_methods FINAL');
      expect(methods.find((m) => m.code_hash === hashOf(MINTER))?.methods.map(Number)).toContain(GET_JETTON_DATA);
      expect(methods.find((m) => m.code_hash === hashOf(COLLECTION))?.methods.map(Number)).toContain(GET_COLLECTION_DATA);
    } finally {
      await store.close();
    }
    // a new process on that store, no liteserver: the codes come from contract_code now
    const again = await openStore({ dataDir: data });
    try {
      const out = await run(again, target);
      expect(out.entityStats).toMatchObject({ no_code: 0, code_fetched: 0 });
      expect(out.entities.jetton_masters.map((r) => r.address)).toEqual([minter]);
      expect(out.entities.nft_collections.map((r) => r.address)).toEqual([collection]);
    } finally {
      await again.close();
    }
  });

  it('refuses a liteserver answering another code: counted as mismatch, no rows, nothing stored', async () => {
    const { store } = await freshStore();
    try {
      const fetcher = new LiteserverCodeFetcher(wrongPool, store, { timeoutMs: 20_000 });
      const out = await run(store, target, fetcher);
      expect(out.entityStats).toMatchObject({ code_mismatch: 2, code_fetched: 0, no_code: 2 });
      expect(out.entities.jetton_masters).toEqual([]);
      expect(out.entities.nft_collections).toEqual([]);
      await fetcher.settled();
      const [n] = await store.query<{ n: string }>('SELECT count() AS n FROM contract_code');
      expect(n.n).toBe('0');
    } finally {
      await store.close();
    }
  });

  it('a dead liteserver: the batch completes with the accounts counted, then fetches pause', async () => {
    const { store } = await freshStore();
    try {
      const fetcher = new LiteserverCodeFetcher(deadPool, store, { timeoutMs: 1_500, pauseMs: 60_000 });
      const out = await run(store, target, fetcher);
      expect(out.entityStats).toMatchObject({ code_fetch_failed: 2, code_fetched: 0, no_code: 2 });
      expect(out.entities.jetton_masters).toEqual([]);
      // within the pause nothing is asked: the accounts are skipped at once
      const again = await run(store, target, fetcher);
      expect(again.entityStats).toMatchObject({ code_fetch_skipped: 2, code_fetch_failed: 0, no_code: 2 });
      await fetcher.settled();
    } finally {
      await store.close();
    }
  });
});

describe('LiteserverCodeFetcher', () => {
  const mcId = () => blockIdExtOf(target.blocks[target.blocks.length - 1].id);
  const wanted = () => [
    { account: minter, codeHash: hashOf(MINTER) },
    { account: collection, codeHash: hashOf(COLLECTION) },
  ];

  it('a block the liteserver does not have: the state at the tip, hash checked', async () => {
    const { store } = await freshStore();
    try {
      const fetcher = new LiteserverCodeFetcher(pool, store, { timeoutMs: 20_000 });
      const unknownBlock = { ...mcId(), rootHash: '00'.repeat(32) };
      await expect(pool.getAccountStateBoc(Address.parseRaw(minter), unknownBlock, { attempts: 1 })).rejects.toThrow();
      const got = await fetcher.fetch(wanted(), unknownBlock);
      expect(got.stats).toEqual({ fetched: 2, mismatch: 0, failed: 0, skipped: 0 });
      expect(got.codes.get(hashOf(MINTER))?.equals(MINTER)).toBe(true);
      expect(got.codes.get(hashOf(COLLECTION))?.equals(COLLECTION)).toBe(true);
      await fetcher.settled();
    } finally {
      await store.close();
    }
  });

  it('asks at most perBatch codes per batch; the rest are skipped, and asked in a later batch', async () => {
    const { store } = await freshStore();
    try {
      const fetcher = new LiteserverCodeFetcher(pool, store, { timeoutMs: 20_000, perBatch: 1 });
      const first = await fetcher.fetch(wanted(), mcId());
      expect(first.stats).toEqual({ fetched: 1, mismatch: 0, failed: 0, skipped: 1 });
      expect([...first.codes.keys()]).toEqual([hashOf(MINTER)]);
      // the minter's code is remembered (no request), the collection's is asked now
      const second = await fetcher.fetch(wanted(), mcId());
      expect(second.stats).toEqual({ fetched: 1, mismatch: 0, failed: 0, skipped: 0 });
      expect(second.codes.size).toBe(2);
      await fetcher.settled();
    } finally {
      await store.close();
    }
  });

  it('an account whose state has no such code (not active): failed, not mismatch', async () => {
    const { store } = await freshStore();
    try {
      const fetcher = new LiteserverCodeFetcher(pool, store, { timeoutMs: 20_000 });
      const nobody = `0:${'ab'.repeat(32)}`;
      const got = await fetcher.fetch([{ account: nobody, codeHash: hashOf(MINTER) }], mcId());
      expect(got.stats).toEqual({ fetched: 0, mismatch: 0, failed: 1, skipped: 0 });
      await fetcher.settled();
    } finally {
      await store.close();
    }
  });
});

describe('a liteserver that accepts connections and never answers', () => {
  it('the batch stops waiting at its deadline: the accounts are counted as failed, no rows', async () => {
    const sockets = new Set<Socket>();
    const hung = createServer((s) => sockets.add(s));
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
    const port = (hung.address() as AddressInfo).port;
    const hungPool = new LiteserverPool([{ host: `127.0.0.1:${port}`, publicKey: ls.publicKey }], { timeoutMs: 30_000 });
    const { store } = await freshStore();
    try {
      const fetcher = new LiteserverCodeFetcher(hungPool, store, { timeoutMs: 1_000 });
      const out = await run(store, target, fetcher);
      expect(out.entityStats).toMatchObject({ code_fetch_failed: 2, code_fetched: 0, no_code: 2 });
      expect(out.entities.jetton_masters).toEqual([]);
      await fetcher.settled();
    } finally {
      await store.close();
      await hungPool.close();
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => hung.close(resolve));
    }
  });
});

describe('the traces stage with liteservers (runIndexer --roles traces)', () => {
  async function publish(bus: MemoryBus, b: Batch): Promise<void> {
    const id = (x: ChainJson['blocks'][number]) => ({ workchain: x.workchain, shard: x.shard.toUpperCase(), seqno: x.seqno, root_hash: x.root_hash, file_hash: x.file_hash });
    await bus.publish(
      TOPICS.rawBlocks,
      b.ids.map((x, i) => ({ key: `${x.workchain}:${x.shard}`, value: { mc_seqno: b.mcSeqno, id: id(x), boc: b.bocs[i].toString('base64') } })),
    );
    const mc = b.ids[b.ids.length - 1];
    await bus.publish(TOPICS.mcComplete, [{ key: 'mc', value: { mc_seqno: b.mcSeqno, mc_id: id(mc), blocks: b.ids.map(id) } }]);
  }
  const metrics = createPipelineMetrics();
  const fetches = async (result: string) => (await metrics.entityCodeFetches.get()).values.find((v) => v.labels.result === result)?.value ?? 0;

  it('reads the codes through the ingest source: rows written, stats and metrics count them', async () => {
    const { store } = await freshStore();
    const bus = new MemoryBus();
    const before = await fetches('fetched');
    try {
      const h = await runIndexer({ bus, source: pool, store, roles: ['traces'], metrics });
      await publish(bus, target);
      await h.traces!.reached(target.mcSeqno);
      await h.stop();
      expect(h.traces!.stats.entities).toMatchObject({ code_fetched: 2, no_code: 0 });
      expect(await fetches('fetched')).toBe(before + 2);
      const rows = await store.query<{ address: string }>('SELECT address FROM jetton_masters FINAL');
      expect(rows.map((r) => r.address)).toEqual([minter]);
    } finally {
      await bus.close();
      await store.close();
    }
  });

  it('keeps running when the liteserver is dead: the accounts are counted, later seqnos are processed', async () => {
    const { store } = await freshStore();
    const bus = new MemoryBus();
    const before = { failed: await fetches('failed'), noCode: (await metrics.entitySkipped.get()).values.find((v) => v.labels.reason === 'no_code')?.value ?? 0 };
    try {
      const h = await runIndexer({ bus, source: deadPool, store, roles: ['traces'], metrics });
      await publish(bus, target);
      await publish(bus, next);
      await h.traces!.reached(next.mcSeqno);
      await h.stop();
      expect(h.traces!.stats.lastSeqno).toBe(next.mcSeqno);
      expect(h.traces!.stats.entities).toMatchObject({ code_fetch_failed: 2, code_fetched: 0, no_code: 2 });
      expect(await fetches('failed')).toBe(before.failed + 2);
      expect((await metrics.entitySkipped.get()).values.find((v) => v.labels.reason === 'no_code')?.value).toBe(before.noCode + 2);
      const [n] = await store.query<{ n: string }>('SELECT count() AS n FROM jetton_masters');
      expect(n.n).toBe('0');
      // the stage wrote both seqnos' transactions
      const [t] = await store.query<{ n: string }>('SELECT uniqExact(hash) AS n FROM transactions FINAL');
      expect(Number(t.n)).toBe([...target.blocks, ...next.blocks].reduce((a, b) => a + b.transactions.length, 0));
    } finally {
      await bus.close();
      await store.close();
    }
  });
});
