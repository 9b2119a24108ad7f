/**
 * A liteserver cannot lie to the indexer: a devnet chain generated here (its four validators sign every masterchain
 * block) is served over real ADNL by an honest devnet liteserver and by liars (test/source/liars.ts). Ingest runs
 * through the production wiring (src/cli/trusted-ingest.ts: TrustedSource over a LiteserverPool, trust from the
 * config's init block, trusted key blocks in a real chdb store) and the real pipeline into that store.
 */
import { getEventListeners } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { createPipelineMetrics, runIndexer } from '../../pipelines/index.ts';
import * as S from '../../schemas/api/v3/entities.ts';
import { KeyStore } from '../../src/api/auth/index.ts';
import { buildServer } from '../../src/api/server.ts';
import { v3Group } from '../../src/api/v3/index.ts';
import { MemoryBus } from '../../src/bus/index.ts';
import { CliError } from '../../src/cli/command.ts';
import { trustedSource } from '../../src/cli/trusted-ingest.ts';
import { loadChainDir } from '../../src/devnet/chain/index.ts';
import { generateDevnet } from '../../src/devnet/generate/index.ts';
import { startLiteServer, type LiteServer } from '../../src/devnet/liteserver/index.ts';
import { followMasterchain, FollowStalled, LiteserverPool, loadTrustAnchor, refKey, type McStep } from '../../src/source/index.ts';
import { sleep } from '../../src/source/follower.ts';
import { getCheckpoint, openStore, type StoreClient } from '../../src/store/client/index.ts';
import { loadTrustedBlocks, readIngestState } from '../../src/store/ingest/index.ts';
import type { TlObject } from '../../src/tl/index.ts';
import { fabricatedLookup, flippedByte, forgedSignature, futureTip, reencodedTip, type Liar } from './liars.ts';

interface ChainBlock {
  workchain: number;
  shard: string;
  seqno: number;
  root_hash: string;
  file_hash: string;
}

let dir: string;
let config: string;
let blocks: ChainBlock[];
let tip: number;
let honest: LiteServer;
/** known_block seqnos of the getBlockProof queries the honest server answered */
const proofFrom: number[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tg-trust-'));
  await generateDevnet(dir, { seed: 'trust', blocks: 6, bulkWallets: 1, bulkFanout: 1 });
  blocks = (JSON.parse(readFileSync(join(dir, 'chain.json'), 'utf8')) as { blocks: ChainBlock[] }).blocks;
  tip = Math.max(...blocks.filter((b) => b.workchain === -1).map((b) => b.seqno));
  config = join(dir, 'liteserver.json');
  honest = await startLiteServer({
    source: loadChainDir(dir),
    key: Buffer.alloc(32, 21),
    host: '127.0.0.1',
    intercept: (q, answer) => {
      if (q._ === 'liteServer.getBlockProof') proofFrom.push((q.known_block as TlObject).seqno as number);
      return answer(q);
    },
  });
}, 300_000);

afterAll(async () => {
  await honest?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const endpoint = (ls: LiteServer) => ({ host: `127.0.0.1:${ls.port}`, publicKey: ls.publicKey });

async function withPool<T>(servers: LiteServer[], fn: (pool: LiteserverPool) => Promise<T>): Promise<T> {
  const pool = new LiteserverPool(servers.map(endpoint), { timeoutMs: 3000, attempts: 4, healthIntervalMs: 60_000 });
  try {
    await pool.start(10_000);
    return await fn(pool);
  } finally {
    await pool.close();
  }
}

async function withStore<T>(fn: (store: StoreClient) => Promise<T>): Promise<T> {
  const data = mkdtempSync(join(tmpdir(), 'tg-trust-store-'));
  const store = await openStore({ dataDir: data });
  try {
    return await fn(store);
  } finally {
    await store.close();
    rmSync(data, { recursive: true, force: true });
  }
}

/** GET /api/v3/indexStatus over the store (the v3 layer as `serve` mounts it). */
async function indexStatusOf(store: StoreClient): Promise<z.infer<typeof S.IndexStatus>> {
  const app = buildServer({ networks: [{ name: 'devnet', testnet: true, services: {} }], keys: new KeyStore({ anonymous: { rps: 1_000_000 } }), groups: [v3Group({ store, testnet: true })] });
  try {
    await app.ready();
    const r = await app.inject({ method: 'GET', url: '/api/v3/indexStatus' });
    expect(r.statusCode).toBe(200);
    return S.IndexStatus.parse(r.json());
  } finally {
    await app.close();
  }
}

async function storedBlocks(store: StoreClient): Promise<{ rows: number; ids: string[] }> {
  const [n] = await store.query<{ n: string }>('SELECT count() AS n FROM blocks');
  const ids = await store.query<{ k: string }>(
    "SELECT concat(toString(workchain), ':', toString(seqno), ':', root_hash, ':', file_hash) AS k FROM blocks FINAL ORDER BY workchain, shard, seqno",
  );
  return { rows: Number(n.n), ids: ids.map((r) => r.k) };
}

/** The masterchain seqno that commits each block: chain.json lists each mc block after the shard blocks it commits. */
function committedBy(): Map<ChainBlock, number> {
  const out = new Map<ChainBlock, number>();
  let pending: ChainBlock[] = [];
  for (const b of blocks) {
    if (b.workchain !== -1) {
      pending.push(b);
      continue;
    }
    for (const p of [...pending, b]) out.set(p, b.seqno);
    pending = [];
  }
  return out;
}

const chainIds = (filter: (b: ChainBlock) => boolean = () => true) =>
  blocks
    .filter(filter)
    .sort((a, b) => a.workchain - b.workchain || (a.shard < b.shard ? -1 : a.shard > b.shard ? 1 : 0) || a.seqno - b.seqno)
    .map((b) => `${b.workchain}:${b.seqno}:${b.root_hash}:${b.file_hash}`);

describe('every masterchain block is proved from the init block', { timeout: 300_000 }, () => {
  it('the honest devnet is followed genesis to tip, each masterchain block proved by a checked proof chain', async () => {
    proofFrom.length = 0;
    const anchor = loadTrustAnchor({ configPath: config });
    expect(anchor.seqno).toBe(1); // the devnet's init_block: its first masterchain block (a key block)
    await withPool([honest], async (pool) => {
      const source = await trustedSource(pool, undefined, { configPath: config });
      const steps: McStep[] = [];
      for await (const s of followMasterchain(source, { fromSeqno: 1, untilSeqno: tip })) steps.push(s);
      expect(steps.map((s) => s.mcSeqno)).toEqual(Array.from({ length: tip }, (_, i) => i + 1));
      const mcIds = steps.map((s) => `-1:${s.mc.id.seqno}:${s.mc.id.rootHash}:${s.mc.id.fileHash}`);
      expect(mcIds).toEqual(chainIds((b) => b.workchain === -1));
      // every masterchain block but the anchor itself was proved, from the anchor (the only key block)
      expect(proofFrom.length).toBeGreaterThanOrEqual(tip - 1);
      expect(new Set(proofFrom)).toEqual(new Set([1]));
      expect(source.trust.blocks().map((b) => b.seqno)).toEqual([1]);
    });
  });

  it('from the zero state: the key block reached is kept in the store, and a restart proves from it', async () => {
    // a config naming only the zero state: the walk goes zero state -> key block 1 -> the block
    const json = JSON.parse(readFileSync(config, 'utf8')) as { liteservers: unknown[]; validator: { zero_state: unknown } };
    const zsConfig = join(dir, 'zero-state-config.json');
    writeFileSync(zsConfig, JSON.stringify({ liteservers: json.liteservers, validator: { zero_state: json.validator.zero_state } }));
    const anchor = loadTrustAnchor({ configPath: zsConfig });
    expect(anchor.seqno).toBe(0);
    await withStore(async (store) => {
      await withPool([honest], async (pool) => {
        proofFrom.length = 0;
        const source = await trustedSource(pool, store, { configPath: zsConfig });
        const id = await source.lookupMasterchainBlock(tip);
        expect(`-1:${id.seqno}:${id.rootHash}:${id.fileHash}`).toBe(chainIds((b) => b.workchain === -1 && b.seqno === tip)[0]);
        expect(proofFrom).toEqual([0]);
        expect((await loadTrustedBlocks(store, anchor.rootHash)).map((b) => b.seqno)).toEqual([0, 1]);
      });
      await withPool([honest], async (pool) => {
        proofFrom.length = 0;
        const source = await trustedSource(pool, store, { configPath: zsConfig });
        expect(source.trust.blocks().map((b) => b.seqno)).toEqual([0, 1]);
        for (let s = 2; s <= tip; s++) await source.lookupMasterchainBlock(s);
        // no walk from the zero state again: every proof starts at the stored key block
        expect(proofFrom.length).toBe(tip - 1);
        expect(new Set(proofFrom)).toEqual(new Set([1]));
      });
    });
  });
});

/** `lieAt`: the first masterchain seqno the liar lies about (once it is dropped, the seqnos before it wait too). */
const CASES: { name: string; make: () => Liar; refused: RegExp; lieAt: () => number }[] = [
  { name: 'a forged signature', make: forgedSignature, refused: /bad signature of NodeIdShort/, lieAt: () => 2 },
  { name: 'a re-encoded tip block (same cells, other bytes and file hash)', make: () => reencodedTip(tip), refused: /bad signature of NodeIdShort/, lieAt: () => tip },
  { name: 'a flipped byte in every masterchain block', make: flippedByte, refused: /file_hash of -1:8000000000000000:\d+ is [0-9a-f]{64}, expected [0-9a-f]{64}/, lieAt: () => 1 },
  { name: 'a fabricated lookupBlock id', make: () => fabricatedLookup(2), refused: /destination proof has root hash [0-9a-f]{64} instead of [0-9a-f]{64}/, lieAt: () => 2 },
];

describe('a liteserver that lies is refused, nothing of its lie is stored, the honest one carries on', { timeout: 300_000 }, () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const liar = c.make();
      const ls = await startLiteServer({ source: loadChainDir(dir), key: Buffer.alloc(32, 31), host: '127.0.0.1', intercept: liar.intercept });
      try {
        await withStore(async (store) => {
          // the liar alone: ingest stops at the lie (a bounded range gives up), nothing of the lie stored
          await withPool([ls], async (pool) => {
            const source = await trustedSource(pool, store, { configPath: config });
            const bus = new MemoryBus();
            const h = await runIndexer({ bus, source, store, fromSeqno: 1, untilSeqno: tip, giveUpMs: 1500 });
            const err = await h.done.then(() => null, (e: Error) => e);
            await h.stop();
            await bus.close();
            expect(err).toBeInstanceOf(FollowStalled);
            expect((err as FollowStalled).stall.seqno).toBeLessThanOrEqual(c.lieAt());
            expect(err!.message).toMatch(c.refused);
            expect(liar.lies).toBeGreaterThan(0);
          });
          // what was stored before the lie is the network's (at most the blocks of the masterchain blocks before it),
          // nothing of the block lied about or after it
          const afterLie = await storedBlocks(store);
          const mcOf = committedBy();
          const before = new Set(chainIds((b) => mcOf.get(b)! < c.lieAt()));
          expect(afterLie.ids.filter((k) => !before.has(k))).toEqual([]);
          if (c.lieAt() === 1) expect(afterLie.rows).toBe(0);
          const state = await readIngestState(store);
          expect(state?.stall?.seqno).toBeLessThanOrEqual(c.lieAt());
          expect(state?.stall?.reason).toMatch(c.refused);
          expect(state?.range).toEqual({ from: 1, until: tip });
          // and /api/v3/indexStatus says where and why
          const st = await indexStatusOf(store);
          expect(st.stalled?.mc_seqno).toBe(state?.stall?.seqno);
          expect(st.stalled?.reason).toMatch(c.refused);
          expect(st.requested_from_mc_seqno).toBe(1);
          if (afterLie.rows === 0) expect(st.first_mc_seqno).toBeNull();

          // the liar and an honest server: no flags, the stored range is continued and completed
          const liesBefore = liar.lies;
          await withPool([ls, honest], async (pool) => {
            const source = await trustedSource(pool, store, { configPath: config });
            const bus = new MemoryBus();
            const h = await runIndexer({ bus, source, store, giveUpMs: 30_000 });
            expect(h.untilSeqno).toBe(tip);
            await h.done;
            await h.stop();
            await bus.close();
          });
          expect((await storedBlocks(store)).ids).toEqual(chainIds());
          expect(await getCheckpoint(store, 'ingest')).toBe(tip);
          const after = await readIngestState(store);
          expect(after?.stall).toBeNull();
          expect(after?.range).toBeNull();
          expect(after?.firstRequested).toBe(1);
          const st2 = await indexStatusOf(store);
          expect([st2.stalled, st2.gaps, st2.first_mc_seqno, st2.last_mc_seqno, st2.checkpoint_mc_seqno]).toEqual([null, 0, 1, tip, tip]);
          // (with two servers the liar is asked too unless the honest one happens to take every lie-able call)
          expect(liar.lies).toBeGreaterThanOrEqual(liesBefore);

          // a stored checkpoint block that is not the network's stops the next start with one clear line
          const real = blocks.find((b) => b.workchain === -1 && b.seqno === tip)!;
          await store.command(`ALTER TABLE blocks UPDATE file_hash = '${'0'.repeat(64)}' WHERE workchain = -1 AND seqno = ${tip} SETTINGS mutations_sync = 1`);
          await withPool([honest], async (pool) => {
            const err = await trustedSource(pool, store, { configPath: config }).then(() => null, (e: Error) => e);
            expect(err).toBeInstanceOf(CliError);
            expect(err!.message).toBe(
              `the store's masterchain block -1:8000000000000000:${tip} is not the network's: file_hash ${'0'.repeat(64)}, the network's ${real.file_hash}. ` +
                'The data directory holds another chain (another network, or blocks from a lying liteserver); use another --data directory',
            );
          });
        });
      } finally {
        await ls.close();
      }
    });
  }
});

describe('a tip that cannot be proved', { timeout: 120_000 }, () => {
  it('drops the server claiming it, and its tip no longer makes the honest servers lag', async () => {
    const liar = futureTip(1000);
    const ls = await startLiteServer({ source: loadChainDir(dir), key: Buffer.alloc(32, 32), host: '127.0.0.1', intercept: liar.intercept });
    try {
      await withPool([ls, honest], async (pool) => {
        const source = await trustedSource(pool, undefined, { configPath: config });
        // the health check believed the claim: the honest server lags behind it and is not used
        expect(pool.bestTip).toBe(tip + 1000);
        expect(pool.info().map((s) => s.status)).toEqual(['up', 'lagging']);
        const err = await source.getMasterchainTip().then(() => null, (e: Error) => e);
        expect(err?.message).toMatch(new RegExp(`masterchain block ${tip + 1000} .* from 127\\.0\\.0\\.1:${ls.port} is not proved`));
        // dropped for it: the next health check believes the others only
        await pool.healthCheck();
        expect(pool.bestTip).toBe(tip);
        expect(pool.info().map((s) => s.status)).toEqual(['down', 'up']);
        const id = await source.getMasterchainTip();
        expect(id.seqno).toBe(tip);
        // proved once: the follower's lookup of the tip needs no new proof
        proofFrom.length = 0;
        expect(await source.lookupMasterchainBlock(tip)).toEqual(id);
        expect(proofFrom).toEqual([]);
      });
    } finally {
      await ls.close();
    }
  });
});

describe('the requested range in indexStatus', { timeout: 300_000 }, () => {
  it('a range asked for from 1 and indexed from 3 has the gap 1-2', async () => {
    await withStore(async (store) => {
      await withPool([honest], async (pool) => {
        const source = await trustedSource(pool, store, { configPath: config });
        // an earlier run asked for seqno 1 on (and stored nothing); this one is told to start at 3
        const first = await runIndexer({ bus: new MemoryBus(), source, store, fromSeqno: 1, untilSeqno: 1 });
        first.done.catch(() => undefined); // stopped at once: its ingest ends aborted
        await first.stop();
        await store.command('TRUNCATE TABLE blocks');
        await store.command('TRUNCATE TABLE ingested_blocks');
        await store.command('TRUNCATE TABLE checkpoints');
        const bus = new MemoryBus();
        const h = await runIndexer({ bus, source, store, fromSeqno: 3, untilSeqno: tip });
        await h.done;
        await h.stop();
        await bus.close();
      });
      const st = await indexStatusOf(store);
      expect([st.requested_from_mc_seqno, st.first_mc_seqno, st.last_mc_seqno, st.gaps, st.first_gaps]).toEqual([1, 3, tip, 2, [{ from: 1, to: 2 }]]);
    });
  });
});

describe('follower and pool hygiene', { timeout: 120_000 }, () => {
  it('polling at the tip leaves no abort listeners behind (one per poll before)', async () => {
    await withPool([honest], async (pool) => {
      const abort = new AbortController();
      let polls = 0;
      const gen = followMasterchain(pool, { fromSeqno: tip + 1, pollMs: 1, signal: abort.signal, onTip: () => polls++ });
      const first = gen.next();
      while (polls < 200) await sleep(5);
      expect(getEventListeners(abort.signal, 'abort').length).toBeLessThanOrEqual(1);
      abort.abort();
      await first.catch(() => undefined);
      // and the helper itself: a finished sleep takes its listener with it
      const signal = new AbortController().signal;
      for (let i = 0; i < 50; i++) await sleep(1, signal);
      expect(getEventListeners(signal, 'abort')).toEqual([]);
    });
  });

  it('ton_liteservers_up counts the servers the pools use', async () => {
    const registry = createPipelineMetrics().registry;
    const value = async () => (await registry.getSingleMetric('ton_liteservers_up')!.get()).values[0]?.value;
    expect(await value()).toBe(0);
    const dead = { host: '127.0.0.1:1', publicKey: honest.publicKey };
    const pool = new LiteserverPool([endpoint(honest), dead], { timeoutMs: 2000, healthIntervalMs: 60_000 });
    try {
      await pool.start(10_000);
      expect(await value()).toBe(1);
    } finally {
      await pool.close();
    }
    expect(await value()).toBe(0);
    expect(refKey({ workchain: -1, shard: 0x8000000000000000n, seqno: tip })).toBe(`-1:8000000000000000:${tip}`);
  });
});
