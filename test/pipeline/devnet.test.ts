import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIndexer, startTracesStage, stepMessages, TRACES_GROUP, TRACES_MARKERS_GROUP } from '../../pipelines/index.ts';
import { TOPICS, type McCompleteMessage } from '../../schemas/bus/index.ts';
import { MemoryBus } from '../../src/bus/index.ts';
import { loadChainDir, type ChainJson } from '../../src/devnet/chain/index.ts';
import { generateDevnet } from '../../src/devnet/generate/index.ts';
import { startLiteServer, writeLiteServerJson, type LiteServer } from '../../src/devnet/liteserver/index.ts';
import { followMasterchain, LiteserverPool } from '../../src/source/index.ts';
import { getCheckpoint, openStore, parseTxDoc, type StoreClient } from '../../src/store/index.ts';
import { until } from '../helpers/until.ts';

// A devnet chain generated at test time (real contracts in the TVM emulator, one split and one merge),
// served by the devnet liteserver over a real ADNL socket, indexed into real chdb stores.
const ROOT = join(import.meta.dirname, '..', '..');
let dir: string;
let chainJson: { blocks: ChainJson['blocks']; transactions: { hash: string }[]; in_flight: { hash: string; external: boolean }[] };
let tip: number;
let ls: LiteServer;

/** The masterchain seqno that commits each block: chain.json lists each mc block after the shard blocks it commits. */
function expectedMcSeqno(): Map<string, number> {
  const out = new Map<string, number>();
  let pending: string[] = [];
  for (const b of chainJson.blocks) {
    const k = `${b.workchain}:${b.shard.toUpperCase()}:${b.seqno}`;
    if (b.workchain === -1) {
      for (const p of pending) out.set(p, b.seqno);
      out.set(k, b.seqno);
      pending = [];
    } else pending.push(k);
  }
  return out;
}

async function storedBlocks(store: StoreClient) {
  return store.query<{ k: string; mc: number; root_hash: string; n: string }>(
    `SELECT concat(toString(workchain), ':', upper(leftPad(hex(shard), 16, '0')), ':', toString(seqno)) AS k, any(mc_block_seqno) AS mc, any(root_hash) AS root_hash, count() AS n
     FROM blocks FINAL GROUP BY workchain, shard, seqno`,
  );
}

async function checkStore(store: StoreClient): Promise<void> {
  const blocks = await storedBlocks(store);
  const expected = expectedMcSeqno();
  expect(blocks.length).toBe(chainJson.blocks.length);
  for (const b of blocks) {
    expect(Number(b.n)).toBe(1);
    expect(Number(b.mc), `mc seqno of ${b.k}`).toBe(expected.get(b.k));
  }
  const roots = new Set(chainJson.blocks.map((b) => b.root_hash));
  expect(blocks.every((b) => roots.has(b.root_hash))).toBe(true);
  // The split and the merge were followed: blocks of the two half shards are stored.
  expect(blocks.some((b) => b.k.startsWith('0:4000000000000000:'))).toBe(true);
  expect(blocks.some((b) => b.k.startsWith('0:C000000000000000:'))).toBe(true);
  const [tx] = await store.query<{ n: string; u: string }>('SELECT count() AS n, uniqExact(hash) AS u FROM transactions FINAL');
  expect(Number(tx.n)).toBe(chainJson.transactions.length);
  expect(Number(tx.u)).toBe(chainJson.transactions.length);
  const hashes = new Set((await store.query<{ hash: string }>('SELECT hash FROM transactions FINAL')).map((r) => r.hash));
  expect(chainJson.transactions.every((t) => hashes.has(t.hash))).toBe(true);
  await checkTraces(store);
}

/** The traces stage: every transaction in exactly one trace; what is in flight at the tip is pending, the rest complete. */
async function checkTraces(store: StoreClient): Promise<void> {
  const [tt] = await store.query<{ n: string; u: string }>('SELECT count() AS n, uniqExact(hash) AS u FROM trace_transactions FINAL');
  expect(Number(tt.n)).toBe(chainJson.transactions.length);
  expect(Number(tt.u)).toBe(chainJson.transactions.length);
  const traces = await store.query<{ trace_id: string; state: string; pending_edges: string; nodes: string; mc_seqno_start: number; mc_seqno_end: number }>(
    'SELECT trace_id, state, pending_edges, nodes, mc_seqno_start, mc_seqno_end FROM traces FINAL',
  );
  // indexed from genesis: no transaction lacks its parent
  expect(traces.filter((t) => t.state === 'broken')).toEqual([]);
  expect(traces.reduce((a, t) => a + Number(t.nodes), 0)).toBe(chainJson.transactions.length);
  // the messages in flight at the tip are exactly the pending edges of the pending traces
  const inFlight = chainJson.in_flight.filter((m) => !m.external);
  expect(inFlight.length).toBeGreaterThan(0);
  expect(traces.reduce((a, t) => a + Number(t.pending_edges), 0)).toBe(inFlight.length);
  const pendingOf = await store.query<{ msg_hash: string; state: string }>(
    `SELECT m.msg_hash AS msg_hash, t.state AS state
       FROM (SELECT msg_hash, tx_hash FROM messages FINAL WHERE direction = 'out' AND msg_hash IN {h:Array(FixedString(64))}) AS m
       JOIN (SELECT hash, trace_id FROM trace_transactions FINAL) AS tt ON tt.hash = m.tx_hash
       JOIN (SELECT trace_id, state FROM traces FINAL) AS t ON t.trace_id = tt.trace_id`,
    { h: inFlight.map((m) => m.hash) },
  );
  expect(pendingOf.length).toBe(inFlight.length);
  expect(pendingOf.every((r) => r.state === 'pending')).toBe(true);
  // a complete trace whose transactions landed in three or more consecutive masterchain blocks
  expect(traces.some((t) => t.state === 'complete' && t.mc_seqno_end - t.mc_seqno_start >= 2)).toBe(true);
  // every complete trace was classified into at least one action
  const [unclassified] = await store.query<{ n: string }>(
    `SELECT count() AS n FROM traces FINAL WHERE state = 'complete' AND trace_id NOT IN (SELECT trace_id FROM actions FINAL)`,
  );
  expect(Number(unclassified.n)).toBe(0);
  // transactions and messages carry their trace_id (the traced rows win over the untraced ones)
  const [untraced] = await store.query<{ t: string; m: string }>(
    `SELECT (SELECT countIf(trace_id IS NULL) FROM transactions FINAL) AS t, (SELECT countIf(trace_id IS NULL) FROM messages FINAL) AS m`,
  );
  expect(untraced).toEqual({ t: '0', m: '0' });
  const [mismatch] = await store.query<{ n: string }>(
    `SELECT count() AS n FROM transactions AS t FINAL JOIN (SELECT hash, trace_id FROM trace_transactions FINAL) AS tt ON tt.hash = t.hash WHERE t.trace_id != tt.trace_id`,
  );
  expect(mismatch.n).toBe('0');
  // one document per transaction, written with its trace_id by the traces stage
  const [docs] = await store.query<{ n: string; u: string; traced: string }>(
    'SELECT count() AS n, uniqExact(hash) AS u, countIf(traced = 1) AS traced FROM transaction_docs_kv',
  );
  expect(docs).toEqual({ n: String(chainJson.transactions.length), u: String(chainJson.transactions.length), traced: String(chainJson.transactions.length) });
  const docTraces = (await store.query<{ doc: string }>('SELECT doc FROM transaction_docs_kv')).map((r) => parseTxDoc(r.doc));
  const traceOf = new Map((await store.query<{ hash: string; trace_id: string }>('SELECT hash, trace_id FROM trace_transactions FINAL')).map((r) => [r.hash, r.trace_id]));
  expect(docTraces.filter((d) => d.tx.trace_id !== traceOf.get(String(d.tx.hash)))).toEqual([]);
  // the RocksDB copies kept by views (clickhouse/0013) hold what their sources hold, after the crashes and replays
  const list = "arrayStringConcat(arrayMap(x -> concat(toString(x.1), ' ', x.2, ' ', x.3), txs), ',')";
  expect(await store.query(`SELECT trace_id, ${list} AS l FROM trace_txs_kv ORDER BY trace_id`)).toEqual(
    await store.query(`SELECT trace_id, ${list} AS l FROM (SELECT trace_id, arraySort(groupUniqArray((lt, account, hash))) AS txs FROM trace_transactions GROUP BY trace_id) ORDER BY trace_id`),
  );
  const traceRows = 'trace_id, end_lt, state, nodes, edges, pending_edges, classification_state';
  expect(await store.query(`SELECT ${traceRows} FROM traces_kv ORDER BY trace_id`)).toEqual(await store.query(`SELECT ${traceRows} FROM traces FINAL ORDER BY trace_id`));
  const stateRows = 'account, last_trans_lt, hash, balance, code_hash';
  expect(await store.query(`SELECT ${stateRows} FROM latest_account_states_kv ORDER BY account`)).toEqual(
    await store.query(`SELECT ${stateRows} FROM latest_account_states FINAL ORDER BY account`),
  );
  // what each address is (clickhouse/0014): a fact per address of each entity table
  for (const t of ['jetton_masters', 'jetton_wallets', 'nft_collections', 'nft_items', 'multisig', 'multisig_orders', 'vesting_contracts']) {
    expect(await store.query('SELECT address FROM address_facts_kv WHERE fact = {t:String} ORDER BY address', { t })).toEqual(
      await store.query(`SELECT DISTINCT address FROM ${t} ORDER BY address`),
    );
  }
}

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
      await checkStore(store);
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
      await checkStore(store);
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
      await checkStore(store);
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
        await checkStore(store);
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
