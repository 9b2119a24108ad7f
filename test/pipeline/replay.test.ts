/**
 * Issue 21, hole 5: replays leave no physical duplicates. A devnet chain (real contracts, a split and a merge) over
 * the real liteserver protocol, indexed into chdb; then replayed through the pipeline, cut by a failure between two
 * tables' inserts of the traces stage, and killed with SIGKILL mid-write. Afterwards, in every table, plain SQL
 * sees what FINAL sees: no (key, version) twice, `count()` = `count() FINAL` where rows have no version.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIndexer, startTracesStage, stepMessages, TRACES_MARKERS_GROUP } from '../../pipelines/index.ts';
import { TOPICS } from '../../schemas/bus/index.ts';
import { MemoryBus } from '../../src/bus/index.ts';
import { loadChainDir, type ChainJson } from '../../src/devnet/chain/index.ts';
import { generateDevnet } from '../../src/devnet/generate/index.ts';
import { startLiteServer, writeLiteServerJson, type LiteServer } from '../../src/devnet/liteserver/index.ts';
import { followMasterchain, LiteserverPool } from '../../src/source/index.ts';
import { duplicateReport, getCheckpoint, openIntents, openStore, type StoreClient, type TableDuplicates } from '../../src/store/client/index.ts';
import { storedBlocks } from '../../src/store/write/index.ts';
import { CONTENT, expectExactlyOnce } from './devnet-checks.ts';
import { withStoreAndPool } from '../helpers/store.ts';
import { until } from '../helpers/until.ts';

const ROOT = join(import.meta.dirname, '..', '..');
let dir: string;
let chain: { blocks: ChainJson['blocks']; transactions: { hash: string }[] };
let tip: number;
let ls: LiteServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tg-replay-'));
  await generateDevnet(dir, { blocks: 10, bulkWallets: 2, bulkFanout: 2, states: 'last', seed: 21 });
  chain = JSON.parse(readFileSync(join(dir, 'chain.json'), 'utf8'));
  tip = Math.max(...chain.blocks.filter((b) => b.workchain === -1).map((b) => b.seqno));
  ls = await startLiteServer({ source: loadChainDir(dir), key: Buffer.alloc(32, 21), host: '127.0.0.1' });
  writeLiteServerJson(dir, { host: '127.0.0.1', port: ls.port, publicKey: ls.publicKey });
}, 600_000);

afterAll(async () => {
  await ls?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const withStore = <T>(name: string, fn: (store: StoreClient, pool: LiteserverPool) => Promise<T>): Promise<T> => withStoreAndPool(ls, name, fn);

describe('replays leave no physical duplicates', { timeout: 600_000 }, () => {
  it('the whole chain indexed, then replayed through the pipeline from seqno 1: not one row more', async () => {
    await withStore('tg-replay-pipe-', async (store, pool) => {
      for (let run = 0; run < 2; run++) {
        const bus = new MemoryBus();
        const h = await runIndexer({ bus, source: pool, store, fromSeqno: 1, untilSeqno: tip });
        await h.done;
        await h.stop();
        await bus.close();
        expect(await getCheckpoint(store, 'ingest')).toBe(tip);
      }
      const first = await expectExactlyOnce(store, chain, { content: true });
      // a third run, compared table by table with the second: the replay wrote nothing
      const bus = new MemoryBus();
      const h = await runIndexer({ bus, source: pool, store, fromSeqno: 1, untilSeqno: tip });
      await h.done;
      await h.stop();
      await bus.close();
      // ingest_state records each run's requested range (a restart continues it): the one table a run writes by design
      const withoutRunState = (r: Record<string, TableDuplicates>) => Object.fromEntries(Object.entries(r).filter(([t]) => t !== 'ingest_state'));
      expect(withoutRunState(await duplicateReport(store))).toEqual(withoutRunState(first));
    });
  });

  it('the traces stage cut between two tables\' inserts, restarted: the rows it had written are not written again', async () => {
    await withStore('tg-replay-traces-', async (store, pool) => {
      const bus = new MemoryBus({ capacity: 100_000 });
      const workers = await runIndexer({ bus, store, roles: ['decode', 'store'] });
      // the first traces worker dies in its third write, after the entity, transaction and message rows, before the
      // trace tables and its state
      let writes = 0;
      let killed = false;
      const cut: StoreClient = {
        ...store,
        insertRows: (t, rows, cols) => {
          if (t === 'trace_assembler_state') writes++;
          if (writes >= 2 && t === 'traces' && !killed) {
            killed = true;
            return Promise.reject(new Error('killed between two inserts'));
          }
          return killed ? Promise.reject(new Error('dead')) : store.insertRows(t, rows, cols);
        },
      };
      const first = await startTracesStage(bus, cut, { fromSeqno: 1 });
      for await (const step of followMasterchain(pool, { fromSeqno: 1, untilSeqno: tip })) {
        const { raw, marker } = stepMessages(step);
        await bus.publish(TOPICS.rawBlocks, raw);
        await bus.publish(TOPICS.mcComplete, [{ key: 'mc', value: marker }]);
        // one seqno at a time, so the writes are many
        await until(() => bus.lag(TOPICS.mcComplete, TRACES_MARKERS_GROUP) === 0 || killed, `seqno ${step.mcSeqno} taken`);
      }
      expect(killed).toBe(true);
      let failure = '';
      await until(() => {
        // (reached() rejects once the stage has failed; before that it waits)
        void first.reached(tip).catch((e: Error) => (failure = e.message));
        return failure !== '';
      }, 'the first traces stage failed');
      expect(failure).toBe('killed between two inserts');
      await first.close();
      const [partial] = await store.query<{ n: string; saved: string }>(
        "SELECT (SELECT count() FROM transactions) AS n, (SELECT max(mc_seqno) FROM trace_assembler_state WHERE name = 'main') AS saved",
      );
      expect(Number(partial.n)).toBeGreaterThan(0);
      expect(Number(partial.saved)).toBeLessThan(tip);
      const second = await startTracesStage(bus, store);
      await second.reached(tip);
      await second.close();
      await until(() => bus.lag(TOPICS.rawBlocks, 'decode') + bus.lag(TOPICS.decodedBlocks, 'store') === 0, 'decode and store done');
      await workers.stop();
      await bus.close();
      await expectExactlyOnce(store, chain, { content: true });
    });
  });

  it('kill -9 inside writes (between two tables\' inserts) and at random points of `index`, restart: every row exactly once', async () => {
    const data = mkdtempSync(join(tmpdir(), 'tg-replay-kill-'));
    const cli = (from: number | null, killBefore = '') =>
      spawn(process.execPath, [join(ROOT, 'bin', 'ton-gateway.js'), 'index', '--config', join(dir, 'liteserver.json'), '--until-seqno', String(tip), '--data', data, ...(from !== null ? ['--from-seqno', String(from)] : [])], {
        cwd: ROOT,
        stdio: ['ignore', 'ignore', 'pipe'],
        env: { ...process.env, LOG_LEVEL: 'warn', TON_GATEWAY_KILL_BEFORE_INSERT: killBefore },
      });
    /** The checkpoint, and whether the last kill cut a write (an open intent beyond what is complete). */
    const checkpoint = async (): Promise<number | null> => {
      const s = await openStore({ dataDir: data });
      try {
        const blocks = await openIntents(s, 'blocks/');
        for (const i of blocks) if ((await storedBlocks(s, i.items)).size < i.items.length) cutWrites.blocks.add(`${i.writer} ${i.version}`);
        const [traces] = await openIntents(s, 'traces/');
        const [saved] = await s.query<{ m: string | null }>("SELECT max(mc_seqno) AS m FROM trace_assembler_state WHERE name = 'main'");
        if (traces && Number(traces.items[1]) > Number(saved?.m ?? -1)) cutWrites.traces.add(String(traces.version));
        return await getCheckpoint(s, 'ingest');
      } finally {
        await s.close();
      }
    };
    const cutWrites = { blocks: new Set<string>(), traces: new Set<string>() };
    try {
      let killed = 0;
      // SIGKILL at chosen points inside writes: the store writer after its data tables (before the markers) and
      // between two of them; the traces stage after its entity and transaction rows, and before its state
      for (const point of ['blocks:1', 'traces:1', 'message_hashes:1', 'trace_assembler_state:1', 'transactions:1', 'ingested_blocks:1']) {
        const cp = await checkpoint();
        const child = cli(cp === null ? 1 : null, point);
        const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
        if (code !== 0) killed++;
      }
      // and at random moments
      for (let round = 0; round < 2; round++) {
        const cp = await checkpoint();
        const child = cli(cp === null ? 1 : null);
        const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
        const t = setTimeout(() => child.kill('SIGKILL'), 2000 + Math.floor(Math.random() * 4000));
        const code = await exited;
        clearTimeout(t);
        if (code !== 0) killed++;
      }
      const cp = await checkpoint();
      const last = cli(cp === null ? 1 : null);
      let err = '';
      last.stderr!.on('data', (d) => (err += d));
      expect(await new Promise<number | null>((r) => last.once('exit', (c) => r(c))), err).toBe(0);
      const store = await openStore({ dataDir: data });
      try {
        expect(await getCheckpoint(store, 'ingest')).toBe(tip);
        const report = await expectExactlyOnce(store, chain);
        // the chosen points did cut writes of both writers (seen as intents beyond what was complete)
        expect(cutWrites.blocks.size).toBeGreaterThan(0);
        expect(cutWrites.traces.size).toBeGreaterThan(0);
        console.log(
          `kill -9: ${killed} kills (cutting ${cutWrites.blocks.size} block writes, ${cutWrites.traces.size} traces writes), then a clean run; ` +
            `transactions ${report.transactions.rows} of ${chain.transactions.length}, messages ${report.messages.rows} (FINAL ${report.messages.final}); ` +
            CONTENT.map((t) => `${t} ${report[t].rows} (FINAL ${report[t].final}, twice ${report[t].duplicates})`).join(', '),
        );
      } finally {
        await store.close();
      }
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  });
});
