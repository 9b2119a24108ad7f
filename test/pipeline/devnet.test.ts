import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GROUPS, newStats, runIndexer, startCheckpointStage, startTracesStage, stepMessages, tracesResumePoint, TRACES_GROUP, TRACES_MARKERS_GROUP } from '../../pipelines/index.ts';
import { TOPICS, type McCompleteMessage } from '../../schemas/bus/index.ts';
import { MemoryBus } from '../../src/bus/index.ts';
import { loadChainDir } from '../../src/devnet/chain/index.ts';
import { generateDevnet } from '../../src/devnet/generate/index.ts';
import { startLiteServer, writeLiteServerJson, type LiteServer } from '../../src/devnet/liteserver/index.ts';
import { followMasterchain, LiteserverPool } from '../../src/source/index.ts';
import { getCheckpoint, openStore, type StoreClient } from '../../src/store/client/index.ts';
import { until } from '../helpers/until.ts';
import { checkStore, type DevnetChain } from './devnet-checks.ts';

// A devnet chain generated at test time (real contracts in the TVM emulator, one split and one merge),
// served by the devnet liteserver over a real ADNL socket, indexed into real chdb stores.
const ROOT = join(import.meta.dirname, '..', '..');
let dir: string;
let chainJson: DevnetChain;
let tip: number;
let ls: LiteServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tg-devnet-'));
  await generateDevnet(dir, { blocks: 12, bulkWallets: 2, bulkFanout: 2, states: 'last', seed: 7 });
  chainJson = JSON.parse(readFileSync(join(dir, 'chain.json'), 'utf8'));
  tip = Math.max(...chainJson.blocks.filter((b) => b.workchain === -1).map((b) => b.seqno));
  ls = await startLiteServer({ source: loadChainDir(dir), key: Buffer.alloc(32, 11), host: '127.0.0.1' });
  writeLiteServerJson(dir, { host: '127.0.0.1', port: ls.port, publicKey: ls.publicKey });
}, 600_000);

afterAll(async () => {
  await ls?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A fresh store, a pool on the devnet liteserver and a bus, for one test; closed and removed after it. */
async function withParts(name: string, bus: MemoryBus, fn: (store: StoreClient, pool: LiteserverPool) => Promise<void>): Promise<void> {
  const data = mkdtempSync(join(tmpdir(), name));
  const store = await openStore({ dataDir: data });
  const pool = new LiteserverPool([{ host: `127.0.0.1:${ls.port}`, publicKey: ls.publicKey }], { timeoutMs: 5000 });
  try {
    await pool.start();
    await fn(store, pool);
  } finally {
    await bus.close();
    await pool.close();
    await store.close();
    rmSync(data, { recursive: true, force: true });
  }
}

describe('pipeline: generated devnet -> chdb', () => {
  it('indexes genesis to tip: every block and transaction of chain.json exactly once, right mc seqnos, split and merge followed', async () => {
    const bus = new MemoryBus();
    await withParts('tg-devnet-data-', bus, async (store, pool) => {
      const h = await runIndexer({ bus, source: pool, store, fromSeqno: 1, untilSeqno: tip });
      await h.done;
      await h.stop();
      expect(await getCheckpoint(store, 'ingest')).toBe(tip);
      await checkStore(store, chainJson);
    });
  });

  it('follows a live devnet at its tip as blocks appear', async () => {
    const chain = loadChainDir(dir, { visibleMc: 2 });
    const live = await startLiteServer({ source: chain, key: Buffer.alloc(32, 12), host: '127.0.0.1' });
    let timer: ReturnType<typeof setInterval> | undefined;
    const data = mkdtempSync(join(tmpdir(), 'tg-devnet-live-'));
    const store = await openStore({ dataDir: data });
    const pool = new LiteserverPool([{ host: `127.0.0.1:${live.port}`, publicKey: live.publicKey }], { timeoutMs: 5000 });
    const bus = new MemoryBus();
    try {
      await pool.start();
      expect((await pool.getMasterchainTip()).seqno).toBe(2);
      timer = setInterval(() => chain.release(), 250);
      // --from-seqno 1, no end given to the follower until the tip appears: it polls and waits.
      const h = await runIndexer({ bus, source: pool, store, fromSeqno: 1, untilSeqno: tip });
      await h.done;
      await h.stop();
      await checkStore(store, chainJson);
    } finally {
      clearInterval(timer);
      await bus.close();
      await pool.close();
      await store.close();
      await live.close();
      rmSync(data, { recursive: true, force: true });
    }
  });

  it('the traces worker restarts alone (as on Kafka): the blocks it held for unwritten seqnos come again', async () => {
    const bus = new MemoryBus({ capacity: 100_000 });
    await withParts('tg-devnet-traces-', bus, async (store, pool) => {
      // decode and store run on as their own workers; ingest's messages are published by hand, so that the first
      // traces worker gets every block but the markers of the first half only
      const workers = await runIndexer({ bus, store, roles: ['decode', 'store'] });
      // (subscribed before the first publish: the in-process bus retains messages for the groups it knows)
      const first = await startTracesStage(bus, store, { fromSeqno: 1 });
      const half = Math.floor(tip / 2);
      const later: McCompleteMessage[] = [];
      let heldBlocks = 0;
      for await (const step of followMasterchain(pool, { fromSeqno: 1, untilSeqno: tip })) {
        const { raw, marker } = stepMessages(step);
        await bus.publish(TOPICS.rawBlocks, raw);
        if (step.mcSeqno <= half) await bus.publish(TOPICS.mcComplete, [{ key: 'mc', value: marker }]);
        else {
          later.push(marker);
          heldBlocks += raw.length;
        }
      }
      await first.reached(half);
      // the blocks of the seqnos after `half` were delivered and are buffered, not written: uncommitted
      await until(() => bus.lag(TOPICS.rawBlocks, TRACES_GROUP) === heldBlocks, `${heldBlocks} raw blocks held`);
      expect(bus.lag(TOPICS.mcComplete, TRACES_MARKERS_GROUP)).toBe(0);
      await first.close();

      await bus.publish(TOPICS.mcComplete, later.map((m) => ({ key: 'mc', value: m })));
      const second = await startTracesStage(bus, store);
      await second.reached(tip);
      await second.close();
      expect(bus.lag(TOPICS.rawBlocks, TRACES_GROUP)).toBe(0);
      await until(() => bus.lag(TOPICS.rawBlocks, 'decode') + bus.lag(TOPICS.decodedBlocks, 'store') === 0, 'decode and store done');
      await workers.stop();
      await checkStore(store, chainJson);
    });
  });

  it('the traces and checkpoint stages keep to tiny buffers by pausing, and still reach the tip', async () => {
    const bus = new MemoryBus({ capacity: 100_000, partitions: 4 });
    await withParts('tg-devnet-pause-', bus, async (store, pool) => {
      const workers = await runIndexer({ bus, store, roles: ['decode', 'store'] });
      // a few blocks and markers at most: the stages pause what they cannot use yet instead of waiting in a handler
      const traces = await startTracesStage(bus, store, { fromSeqno: 1, maxBufferedBlocks: 3, maxBufferedMarkers: 2 });
      const stats = newStats();
      const checkpoint = await startCheckpointStage(bus, store, { stats, pollMs: 50, maxWaiting: 2, tracedUpTo: () => tracesResumePoint(store) });
      // every message first, then the stages catch up
      for await (const step of followMasterchain(pool, { fromSeqno: 1, untilSeqno: tip })) {
        const { raw, marker } = stepMessages(step);
        await bus.publish(TOPICS.rawBlocks, raw);
        await bus.publish(TOPICS.mcComplete, [{ key: 'mc', value: marker }]);
      }
      await traces.reached(tip);
      await until(() => stats.checkpoint === tip, 'the checkpoint at the tip');
      expect(traces.stats.pauses).toBeGreaterThan(0);
      expect(checkpoint.pauses).toBeGreaterThan(0);
      await traces.close();
      await checkpoint.close();
      await workers.stop();
      // everything acknowledged: nothing left held or paused
      for (const [topic, group] of [[TOPICS.rawBlocks, TRACES_GROUP], [TOPICS.mcComplete, TRACES_MARKERS_GROUP], [TOPICS.mcComplete, GROUPS.checkpoint]] as const) {
        expect(bus.lag(topic, group), `${group} on ${topic}`).toBe(0);
      }
      await checkStore(store, chainJson);
    });
  });

  it('a traces stage whose write fails after its fold moved on stops for good, holding what it had: the run ends with the error', async () => {
    const bus = new MemoryBus({ capacity: 100_000 });
    await withParts('tg-devnet-tracesfail-', bus, async (store, pool) => {
      // a traces worker as `index --roles traces` runs it: its run (`done`) ends only on failure, and the CLI exits 1
      const h = await runIndexer({ bus, store, roles: ['traces'] });
      // the write of the assembler state fails: a real insert into a table that is gone
      await store.command('DROP TABLE trace_assembler_state');
      let sent = 0;
      for await (const step of followMasterchain(pool, { fromSeqno: 1, untilSeqno: 1 })) {
        const { raw, marker } = stepMessages(step);
        await bus.publish(TOPICS.rawBlocks, raw);
        await bus.publish(TOPICS.mcComplete, [{ key: 'mc', value: marker }]);
        sent += raw.length;
      }
      await expect(h.done).rejects.toThrow(/trace_assembler_state/);
      await expect(h.traces!.reached(1)).rejects.toThrow(/trace_assembler_state/);
      // nothing it buffered was committed: a restarted worker gets it all again
      expect(bus.lag(TOPICS.rawBlocks, TRACES_GROUP)).toBe(sent);
      expect(bus.lag(TOPICS.mcComplete, TRACES_MARKERS_GROUP)).toBe(1);
      await h.stop();
    });
  });

  it('kill -9 at random points, restart: no gap, no duplicate', async () => {
    const data = mkdtempSync(join(tmpdir(), 'tg-devnet-crash-'));
    const cli = (from: number | null) =>
      spawn(process.execPath, [join(ROOT, 'bin', 'ton-gateway.js'), 'index', '--config', join(dir, 'liteserver.json'), '--until-seqno', String(tip), '--data', data, ...(from !== null ? ['--from-seqno', String(from)] : [])], {
        cwd: ROOT,
        stdio: ['ignore', 'ignore', 'pipe'],
        env: { ...process.env, LOG_LEVEL: 'warn' },
      });
    const checkpoint = async (): Promise<number | null> => {
      const s = await openStore({ dataDir: data });
      try {
        return await getCheckpoint(s, 'ingest');
      } finally {
        await s.close();
      }
    };
    try {
      const kills: (number | null)[] = [];
      for (let round = 0; round < 4; round++) {
        const cp = await checkpoint();
        const child = cli(cp === null ? 1 : null);
        const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
        const delay = 1500 + Math.floor(Math.random() * 4000);
        const t = setTimeout(() => child.kill('SIGKILL'), delay);
        const code = await exited;
        clearTimeout(t);
        kills.push(cp);
        if (code === 0) break; // finished before the kill: fine, the final check still applies
      }
      const cp = await checkpoint();
      const last = cli(cp === null ? 1 : null);
      let err = '';
      last.stderr!.on('data', (d) => (err += d));
      const code = await new Promise<number | null>((r) => last.once('exit', (c) => r(c)));
      expect(code, err).toBe(0);
      expect(await checkpoint()).toBe(tip);
      const store = await openStore({ dataDir: data });
      try {
        await checkStore(store, chainJson);
      } finally {
        await store.close();
      }
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  });

  it('a second index on the same data directory refuses to start, naming the holder', async () => {
    const data = mkdtempSync(join(tmpdir(), 'tg-devnet-lock-'));
    const first = await openStore({ dataDir: data });
    try {
      // A child process: the lock is per process (our own process may reopen its store).
      const child = spawn(process.execPath, [join(ROOT, 'bin', 'ton-gateway.js'), 'index', '--config', join(dir, 'liteserver.json'), '--data', data], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      let err = '';
      child.stderr!.on('data', (d) => (err += d));
      const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
      expect(code).toBe(1);
      expect(err).toMatch(new RegExp(`ton-gateway index: data directory .* in use by pid ${process.pid}: another ton-gateway`));
      expect(err).not.toMatch(/\n\s+at /); // no stack trace
    } finally {
      await first.close();
      rmSync(data, { recursive: true, force: true });
    }
  });
});
