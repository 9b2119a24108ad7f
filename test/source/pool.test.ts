import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRecordedChain, type ChainSource } from '../../src/devnet/chain/index.ts';
import { startLiteServer, type LiteServer } from '../../src/devnet/liteserver/index.ts';
import { MASTER_SHARD, refKey } from '../../src/source/block-id.ts';
import { followMasterchain } from '../../src/source/follower.ts';
import { parseGlobalConfig, type LiteserverEndpoint } from '../../src/source/network-config.ts';
import { LiteserverPool, NoLiteserverError } from '../../src/source/pool.ts';
import type { McStep } from '../../src/source/walk.ts';

// The real recorded acton local-net chain served by the devnet liteserver over a real ADNL socket.
const FIX = join(import.meta.dirname, '..', 'fixtures', 'blocks', 'localnet');
const ACTON = ['mc-1', 'mc-2', 'wc0-8000000000000000-1', 'wc0-8000000000000000-2'].map((f) => join(FIX, `localnet-acton-${f}.boc`));
const MC2 = { root: 'b0f2dbe0cb343261fb66a5be59808dd20a6adac7befc78fea496030476a46cec' };

/** The real chain, but every shard block's bytes have one bit flipped (the ids still claim the right hashes). */
function corrupting(chain: ChainSource): ChainSource {
  return new Proxy(chain, {
    get(target, prop, receiver) {
      if (prop === 'getBlock') {
        return (ref: Parameters<ChainSource['getBlock']>[0]) => {
          const b = target.getBlock(ref);
          if (!b || b.id.workchain === -1) return b;
          const boc = Buffer.from(b.boc);
          boc[boc.length - 10] ^= 0x40;
          return { ...b, boc };
        };
      }
      const v = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

const key = (n: number) => Buffer.alloc(32, n);
function endpoint(ls: LiteServer): LiteserverEndpoint {
  return { host: `127.0.0.1:${ls.port}`, publicKey: ls.publicKey };
}

async function collect(gen: AsyncGenerator<McStep>): Promise<McStep[]> {
  const out: McStep[] = [];
  for await (const s of gen) out.push(s);
  return out;
}

describe('liteserver pool against the devnet liteserver', () => {
  let good: LiteServer;
  let bad: LiteServer;
  let dropper: Server;
  let dropperPort: number;

  beforeAll(async () => {
    good = await startLiteServer({ source: loadRecordedChain(ACTON), key: key(1), host: '127.0.0.1' });
    bad = await startLiteServer({ source: corrupting(loadRecordedChain(ACTON)), key: key(2), host: '127.0.0.1' });
    // A TCP server that accepts and immediately drops every connection.
    dropper = createServer((sock) => sock.destroy());
    await new Promise<void>((r) => dropper.listen(0, '127.0.0.1', () => r()));
    dropperPort = (dropper.address() as { port: number }).port;
  });
  afterAll(async () => {
    await good?.close();
    await bad?.close();
    await new Promise((r) => dropper?.close(r));
  });

  it('reads the devnet liteserver.json shape (signed int32 ip)', () => {
    const eps = parseGlobalConfig({ liteservers: [{ ip: 2130706433, port: good.port, id: { '@type': 'pub.ed25519', key: good.publicKey.toString('base64') } }] }, 'test config');
    expect(eps[0].host).toBe(`127.0.0.1:${good.port}`);
    expect(() => parseGlobalConfig({ liteservers: [] }, 'x.json')).toThrow(/x.json is not a TON global config: liteservers/);
    expect(parseGlobalConfig({ liteservers: [{ ip: -1185526007, port: 4701, id: { key: good.publicKey.toString('base64') } }] }, 'x')[0].host).toBe('185.86.79.9:4701');
  });

  it('typed calls: tip, lookupBlock, verified getBlock', async () => {
    const pool = new LiteserverPool([endpoint(good)], { timeoutMs: 3000 });
    try {
      await pool.start(10_000);
      const tip = await pool.getMasterchainTip();
      expect(tip.seqno).toBe(2);
      expect(tip.rootHash).toBe(MC2.root);
      const id1 = await pool.lookupMasterchainBlock(1);
      expect(id1.fileHash).toBe('163e5cb17f1e3adc1f8c10dd2f161962a72d22e19d37fdcea7faddc6347ad5a4');
      const b = await pool.getBlock(id1);
      expect(b.header.seqno).toBe(1);
      expect(b.boc.length).toBe(510);
      const shard = await pool.lookupBlock({ workchain: 0, shard: MASTER_SHARD, seqno: 2 });
      expect(shard.rootHash).toBe('ce3df52136fd2af83ad5453d61945de38c4e48ad569983be91635deb6390978e');
      const shards = await pool.getAllShardsInfo(tip);
      expect(shards.shards['0']?.['-9223372036854775808']).toBe(2);
      expect(pool.info()[0].status).toBe('up');
    } finally {
      await pool.close();
    }
  });

  it('follows mc 1..2 over the real socket: each mc block with the shard blocks it commits', async () => {
    const pool = new LiteserverPool([endpoint(good)], { timeoutMs: 3000 });
    try {
      await pool.start(10_000);
      const steps = await collect(followMasterchain(pool, { fromSeqno: 1, untilSeqno: 2 }));
      expect(steps.map((s) => [s.mcSeqno, s.shardBlocks.map((b) => refKey(b.id))])).toEqual([
        [1, ['0:8000000000000000:1']],
        [2, ['0:8000000000000000:2']],
      ]);
      expect(steps[1].mc.id.rootHash).toBe(MC2.root);
    } finally {
      await pool.close();
    }
  });

  it('carries on through the others when one server serves corrupted blocks and one drops connections', async () => {
    const pool = new LiteserverPool(
      [endpoint(bad), { host: `127.0.0.1:${dropperPort}`, publicKey: key(9) }, endpoint(good)],
      { timeoutMs: 1500, attempts: 6, healthIntervalMs: 60_000 },
    );
    try {
      await pool.start(10_000);
      // Run several rounds so the corrupt server is certainly picked for some shard block.
      for (let round = 0; round < 3; round++) {
        const steps = await collect(followMasterchain(pool, { fromSeqno: 1, untilSeqno: 2, retryMs: 100 }));
        expect(steps.flatMap((s) => s.shardBlocks.map((b) => b.id.fileHash))).toEqual([
          'b88cedf0c58ee678e83cdcd8f6ba8d4c145e0804097015e512a32ded87ac7253',
          '480e8a6ae2378470204a9fcc63a3f180d5426186b77488e743fd2bd37675cb44',
        ]);
      }
      const info = pool.info();
      expect(info[1].status).toBe('down'); // the dropping server never answered
      expect(info[2].status).toBe('up');
      if (info[0].requests > 0 && info[0].lastError) {
        // If the corrupt server served a shard block, it was dropped for it, naming the hash.
        expect(info[0].lastError).toMatch(/file_hash of 0:8000000000000000:\d is [0-9a-f]{64}, expected/);
      }
    } finally {
      await pool.close();
    }
  });

  it('a server serving corrupted blocks is dropped and the block fetched elsewhere', async () => {
    const pool = new LiteserverPool([endpoint(bad), endpoint(good)], { timeoutMs: 2000, healthIntervalMs: 60_000 });
    try {
      await pool.start(10_000);
      const id = await pool.lookupBlock({ workchain: 0, shard: MASTER_SHARD, seqno: 1 });
      // Round-robin between idle servers: within a few fetches the corrupt one serves; every result stays right.
      const id2 = await pool.lookupBlock({ workchain: 0, shard: MASTER_SHARD, seqno: 2 });
      for (let i = 0; i < 6; i++) {
        const b = await pool.getBlock(i % 2 ? id2 : id);
        expect(b.id.fileHash).toBe(i % 2 ? '480e8a6ae2378470204a9fcc63a3f180d5426186b77488e743fd2bd37675cb44' : 'b88cedf0c58ee678e83cdcd8f6ba8d4c145e0804097015e512a32ded87ac7253');
      }
      const info = pool.info();
      expect(info[0].status).toBe('down');
      expect(info[0].lastError).toMatch(/file_hash of 0:8000000000000000:[12] is/);
    } finally {
      await pool.close();
    }
  });

  it('no server answers: one clear error naming the servers and pointing to npm run demo', async () => {
    const pool = new LiteserverPool([{ host: `127.0.0.1:${dropperPort}`, publicKey: key(9) }], { timeoutMs: 500 });
    try {
      await expect(pool.start(1500)).rejects.toThrow(NoLiteserverError);
      await expect(pool.start(500)).rejects.toThrow(new RegExp(`tried 127\\.0\\.0\\.1:${dropperPort}.*npm run demo`));
    } finally {
      await pool.close();
    }
  });
});
