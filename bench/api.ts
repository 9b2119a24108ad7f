/**
 * API v3 load benchmark (npm run bench:api): an embedded store of BENCH_TX transactions (default 1 000 000,
 * the store's synthetic generator over the decoded fixture blocks), the real server (shell + v3 group)
 * on 127.0.0.1, and autocannon against the point lookups and lists. Prints requests/s and p50/p99 per
 * scenario. Traffic goes to the loopback address only; every run is bounded by BENCH_SECONDS.
 *
 * Env: BENCH_TX (default 1000000), BENCH_SECONDS per scenario (default 10), BENCH_CONNECTIONS
 * (default 8), BENCH_DATA (reuse / keep the store in this dir; filled only when it holds fewer
 * transactions than BENCH_TX), BENCH_LEAN=1 (requests send X-No-Address-Book and X-No-Metadata), BENCH_WORKERS
 * (default 1: the server in this process; N >= 2: N HTTP workers as `start --api-workers N` runs them, this process
 * the primary holding the key-value store's writer, src/api/cluster.ts), BENCH_WRITE_TPS (transactions a second written
 * while the scenarios run, default 0), BENCH_ONLY (comma-separated parts of
 * scenario names: run only those, in that order), BENCH_WARMUP (unmeasured passes over each scenario's sample per
 * serving process before it is measured, default 2). BENCH_PROFILE=DIR (one V8 CPU profile of this process per
 * scenario, taken while its load runs only, written to DIR). Each scenario also prints the CPU its requests cost,
 * per process.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { buildServer, isApiWorker, KeyStore, MemoryRateLimiter, prepareApiWorker, PrimaryChannel, PrimaryRateLimiter, primaryStoreInfo, startApiWorkers, workerListening, type ApiWorkers } from '../src/api/index.ts';
import { v3Group } from '../src/api/v3/index.ts';
import { fillKvFromStore, openClient, openStore, type StoreClient } from '../src/store/client/index.ts';
import { fillSyntheticStore, templatesFromBlocks } from './synthetic.ts';
import { fixtureBlocks } from './fixtures.ts';
import { stealSeconds, stealSince } from './steal.ts';
import { processCpuSeconds } from './process-cpu.ts';

interface CannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; max: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
type Req = Record<string, unknown>;
// autocannon ships no types (and @types/autocannon is not a dependency): the part used here
const autocannon = createRequire(import.meta.url)('autocannon') as (opts: {
  url: string;
  connections: number;
  duration?: number;
  /** requests in all, instead of a duration */
  amount?: number;
  requests: { setupRequest: (req: Req) => Req }[];
}) => Promise<CannonResult>;

const TX = Number(process.env.BENCH_TX ?? 1_000_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 1);
const SAMPLES = 500;
const PROFILE_DIR = process.env.BENCH_PROFILE;
/** BENCH_LEAN=1: responses without address book and metadata (the headers clients send to skip them). */
const LEAN = process.env.BENCH_LEAN === '1';
const LEAN_HEADERS = { 'X-No-Address-Book': '1', 'X-No-Metadata': '1' };
/**
 * BENCH_WRITE_TPS=N: while the scenarios run, this process writes N synthetic transactions a second into the store
 * through the real writer (every table, the key-value store, the checkpoint's markers), as an indexer would: the API
 * measured on a store that is being written. 0 (default): none.
 */
const WRITE_TPS = Number(process.env.BENCH_WRITE_TPS ?? 0);

/** Writes WRITE_TPS transactions a second until stopped; resolves with what it wrote and how long it took. */
function startWriter(store: StoreClient, templates: ReturnType<typeof templatesFromBlocks>): { stop(): Promise<{ transactions: number; seconds: number }> } {
  let stopped = false;
  let written = 0;
  const t0 = performance.now();
  // copies far above any a bench store holds (a 1M store holds about 22,000), new each run: every write is new rows
  // (below 140,000: copy k adds k * LT_STRIDE to lt, which stays a UInt64)
  let copy = 100_000 + Math.floor(Math.random() * 40_000);
  const loop = (async () => {
    while (!stopped) {
      const tick = performance.now();
      const r = await fillSyntheticStore(store, templates, { transactions: Math.max(1, Math.round(WRITE_TPS / 2)), firstCopy: copy });
      copy = r.nextCopy;
      written += r.transactions;
      const wait = 500 - (performance.now() - tick);
      if (wait > 0) await new Promise((res) => setTimeout(res, wait));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return { transactions: written, seconds: (performance.now() - t0) / 1000 };
    },
  };
}


/** Tables the derived entity and metadata rows go to. */
const ENTITY_SOURCES = ['jetton_wallets', 'nft_items', 'nft_collections', 'dns_entries', 'multisig', 'multisig_orders', 'vesting_contracts', 'jetton_masters', 'address_metadata'];

const b64 = (hex: string) => encodeURIComponent(Buffer.from(hex, 'hex').toString('base64'));

/**
 * Derived rows the entity / trace stages would write, so their endpoints have data at this size:
 * jetton transfers from messages carrying transfer#0f8a7ea5, one trace per transaction of a sample,
 * and entity rows (below).
 */
async function deriveEntities(store: StoreClient): Promise<void> {
  await deriveEntityRows(store);
  const [{ n }] = await store.query<{ n: string }>('SELECT count() AS n FROM jetton_transfers');
  if (Number(n) > 0) return;
  await store.command(`
    INSERT INTO jetton_transfers (tx_hash, tx_lt, tx_now, tx_aborted, mc_seqno, query_id, amount, source, destination, jetton_wallet_address,
                                  jetton_master_address, response_destination, custom_payload, forward_ton_amount, forward_payload, trace_id)
    SELECT tx_hash, tx_lt, ifNull(created_at, 0), false, mc_seqno, 0, ifNull(value, 0), ifNull(source, ''), ifNull(destination, ''), tx_account,
           '0:B113A994B5024A16719F69139328EB759596C38A25F59028B146FECDC3621DFE', source, NULL, NULL, NULL, NULL
    FROM messages WHERE direction = 'in' AND opcode = 260734629`);
  await store.command(`
    INSERT INTO traces (trace_id, external_hash, external_hash_norm, mc_seqno_start, mc_seqno_end, start_lt, start_utime, end_lt, end_utime,
                        state, pending_edges, edges, nodes, classification_state)
    SELECT hash, NULL, NULL, mc_block_seqno, mc_block_seqno, lt, now, lt, now, 'complete', 0, 1, 1, 'unclassified'
    FROM transactions_by_lt WHERE cityHash64(hash) % 50 = 0`);
  await store.command(`
    INSERT INTO trace_transactions (trace_id, lt, account, hash)
    SELECT hash, lt, account, hash FROM transactions_by_lt WHERE cityHash64(hash) % 50 = 0`);
  await deriveActions(store);
}

/**
 * One action per trace (a ton_transfer of the trace's transaction), indexed by its account in action_accounts: the
 * `/actions?account=` list reads real rows, as on an indexed network.
 */
async function deriveActions(store: StoreClient): Promise<void> {
  const [{ n }] = await store.query<{ n: string }>('SELECT count() AS n FROM actions');
  if (Number(n) > 0) return;
  await store.command(`
    INSERT INTO actions (trace_id, action_id, type, start_lt, end_lt, start_utime, end_utime, trace_end_lt, trace_end_utime, trace_mc_seqno_end,
                         tx_hashes, success, source, destination, value, details)
    SELECT hash, hash, 'ton_transfer', lt, lt, now, now, lt, now, mc_block_seqno, [hash], true, account, account, 1000000000, '{}'
    FROM transactions_by_lt WHERE cityHash64(hash) % 50 = 0`);
  await store.command(`
    INSERT INTO action_accounts (account, trace_end_lt, trace_id, action_end_lt, action_id, trace_end_utime, action_end_utime)
    SELECT account, lt, hash, lt, hash, now, now FROM transactions_by_lt WHERE cityHash64(hash) % 50 = 0`);
}

/**
 * Rows in every entity table, for accounts picked by hash: 10% jetton wallets, 10% NFT items, 2% DNS wallets, 0.1%
 * each of the others, with metadata for the jetton masters and NFT collections. An index of a real network has rows
 * in all of them, and the address book and metadata blocks read them for every response: without them the figures
 * would leave that cost out. Four inserts per table, so each has parts to open as a live store does.
 */
async function deriveEntityRows(store: StoreClient): Promise<void> {
  const [{ n }] = await store.query<{ n: string }>('SELECT count() AS n FROM jetton_wallets');
  if (Number(n) > 0) return;
  const pick = (mod: number, rest: number) =>
    `SELECT account FROM latest_account_states WHERE cityHash64(account) % ${mod} = ${rest} AND cityHash64(account, 7) % 4 = {part:UInt8}`;
  const zeros = "repeat('0', 64)";
  const master = `'0:B113A994B5024A16719F69139328EB759596C38A25F59028B146FECDC3621DFE'`;
  for (let part = 0; part < 4; part++) {
    for (const sql of [
      `INSERT INTO jetton_wallets (address, balance, owner, jetton, last_transaction_lt) SELECT account, 1000, account, ${master}, 1 FROM (${pick(10, 0)})`,
      `INSERT INTO nft_items (address, init, index, owner_address, content, last_transaction_lt, code_hash, data_hash)
       SELECT account, true, cityHash64(account) % 10000, account, '', 1, ${zeros}, ${zeros} FROM (${pick(10, 1)})`,
      `INSERT INTO nft_collections (address, next_item_index, collection_content, last_transaction_lt, code_hash, data_hash)
       SELECT account, 1, '', 1, ${zeros}, ${zeros} FROM (${pick(1000, 2)})`,
      `INSERT INTO dns_entries (nft_item_address, nft_item_owner, domain, dns_wallet, last_transaction_lt)
       SELECT account, account, concat(lower(substring(account, 3, 8)), '.ton'), account, 1 FROM (${pick(50, 3)})`,
      `INSERT INTO multisig (address, last_transaction_lt, code_hash, data_hash) SELECT account, 1, ${zeros}, ${zeros} FROM (${pick(1000, 4)})`,
      `INSERT INTO multisig_orders (address, multisig_address, last_transaction_lt, code_hash, data_hash) SELECT account, account, 1, ${zeros}, ${zeros} FROM (${pick(1000, 5)})`,
      `INSERT INTO vesting_contracts (address, vesting_sender_address, owner_address, last_transaction_lt, code_hash, data_hash)
       SELECT account, account, account, 1, ${zeros}, ${zeros} FROM (${pick(1000, 6)})`,
      `INSERT INTO jetton_masters (address, total_supply, mintable, jetton_content, jetton_wallet_code_hash, code_hash, data_hash, last_transaction_lt)
       SELECT account, 1, true, '', ${zeros}, ${zeros}, ${zeros}, 1 FROM (${pick(1000, 7)} UNION ALL SELECT ${master} WHERE {part:UInt8} = 0)`,
      `INSERT INTO address_metadata (address, type, valid, name, symbol, extra, updated_at)
       SELECT account, 'jetton_masters', true, 'Token', 'TKN', '{}', now64(3) FROM (${pick(1000, 7)} UNION ALL SELECT ${master} WHERE {part:UInt8} = 0)`,
      `INSERT INTO address_metadata (address, type, valid, name, extra, updated_at)
       SELECT account, 'nft_collections', true, 'Collection', '{}', now64(3) FROM (${pick(1000, 2)})`,
    ]) {
      await store.command(sql, { part });
    }
  }
}

interface Scenario {
  name: string;
  paths: string[];
}

async function sample(store: StoreClient): Promise<Scenario[]> {
  const txs = await store.query<{ hash: string; account: string }>('SELECT hash, account FROM transactions_by_lt ORDER BY rand() LIMIT {n:UInt32}', { n: SAMPLES });
  const msgs = await store.query<{ msg_hash: string }>('SELECT msg_hash FROM message_hashes ORDER BY rand() LIMIT {n:UInt32}', { n: SAMPLES });
  const owners = await store.query<{ source: string }>("SELECT source FROM jetton_transfers WHERE source != '' ORDER BY rand() LIMIT {n:UInt32}", { n: SAMPLES });
  const traces = await store.query<{ trace_id: string }>('SELECT trace_id FROM traces ORDER BY rand() LIMIT {n:UInt32}', { n: SAMPLES });
  // accounts with traces and actions, for the lists ClickHouse answers
  const traced = await store.query<{ account: string }>('SELECT account FROM action_accounts ORDER BY rand() LIMIT {n:UInt32}', { n: SAMPLES });
  return [
    { name: 'transactions by account (limit 10)', paths: txs.map((t) => `/api/v3/transactions?account=${t.account}&limit=10`) },
    { name: 'transaction by hash', paths: txs.map((t) => `/api/v3/transactions?hash=${b64(t.hash)}`) },
    { name: 'message by hash', paths: msgs.map((m) => `/api/v3/messages?msg_hash=${b64(m.msg_hash)}`) },
    { name: 'accountStates', paths: txs.map((t) => `/api/v3/accountStates?address=${t.account}`) },
    { name: 'jetton/transfers by owner (limit 10)', paths: owners.map((o) => `/api/v3/jetton/transfers?owner_address=${o.source}&limit=10`) },
    { name: 'traces by trace_id', paths: traces.map((t) => `/api/v3/traces?trace_id=${b64(t.trace_id)}`) },
    { name: '/actions by account (limit 10)', paths: traced.map((t) => `/api/v3/actions?account=${t.account}&limit=10`) },
    { name: '/traces by account (limit 10)', paths: traced.map((t) => `/api/v3/traces?account=${t.account}&limit=10`) },
  ];
}

/** Statements the server sent to the store so far (each costs a fixed ~2 ms in chdb before it reads anything). */
let statements = 0;

/** The server's processes: this one (with autocannon in it), and the HTTP workers when there are. */
let serverPids: () => number[] = () => [];
/** The engine's own process, where it has one (an in-process engine's CPU counts in this process's). */
let enginePid: number | undefined;

/**
 * Unmeasured passes over a scenario's sample paths per serving process before it is measured (BENCH_WARMUP, default
 * 2; 0: none). Each process warms on its own: JIT, and the body decoder's memo of decoded BoCs, which on this
 * synthetic store (bodies repeat across templated transactions) makes a warm request about half the CPU of a cold
 * one. Without it the first scenario paid for that, N times over with N workers (bench/README.md, "API workers").
 * Counted in requests, not seconds: on a loaded machine a few seconds warm little.
 */
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);

/** BENCH_PROFILE: the profiler's session, started once. */
let profiler: Session | null = null;

async function run(url: string, s: Scenario) {
  let i = 0;
  const requests = [{ setupRequest: (req: Req) => ({ ...req, path: s.paths[i++ % s.paths.length], ...(LEAN ? { headers: { ...(req.headers as object), ...LEAN_HEADERS } } : {}) }) }];
  if (WARMUP > 0) await autocannon({ url, connections: CONNECTIONS, amount: WARMUP * s.paths.length * Math.max(1, WORKERS), requests });
  const before = statements;
  const steal0 = stealSeconds();
  const pids = [process.pid, ...serverPids()];
  const cpu0 = pids.map(processCpuSeconds);
  const engine0 = enginePid ? processCpuSeconds(enginePid) : 0;
  if (PROFILE_DIR && !profiler) {
    profiler = new Session();
    profiler.connect();
    await profiler.post('Profiler.enable');
  }
  if (profiler) await profiler.post('Profiler.start');
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests,
  });
  const cpu = pids.map((p, k) => processCpuSeconds(p) - cpu0[k]);
  const engineCpu = enginePid ? processCpuSeconds(enginePid) - engine0 : null;
  const perReq = (sec: number) => Number(((sec * 1000) / Math.max(1, result.requests.total)).toFixed(2));
  if (profiler && PROFILE_DIR) {
    const { profile } = await profiler.post('Profiler.stop');
    mkdirSync(PROFILE_DIR, { recursive: true });
    writeFileSync(join(PROFILE_DIR, `${s.name.replace(/[^a-z0-9]+/gi, '_')}-${CONNECTIONS}.cpuprofile`), JSON.stringify(profile));
  }
  return {
    scenario: s.name,
    'req/s': Math.round(result.requests.average),
    'p50 ms': result.latency.p50,
    'p99 ms': result.latency.p99,
    'max ms': result.latency.max,
    requests: result.requests.total,
    'statements/req': Number(((statements - before) / Math.max(1, result.requests.total)).toFixed(1)),
    // CPU per request: this process (the server or the primary, and autocannon either way), then the workers together
    'cpu ms/req': pids.length > 1 ? `${perReq(cpu[0])} + ${perReq(cpu.slice(1).reduce((a, b) => a + b, 0))}` : perReq(cpu[0]),
    // the engine's process (its own column: in-process, it is in the first figure)
    'engine cpu ms/req': engineCpu === null ? '-' : perReq(engineCpu),
    // CPU time the VM lost to other guests during the scenario (bench/steal.ts)
    steal: stealSince(steal0),
    'non-2xx': result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** An HTTP worker (BENCH_WORKERS >= 2): the v3 group over the store read-only, a client of the primary's engine. */
async function worker() {
  const info = primaryStoreInfo();
  const store = await openClient({ dataDir: process.env.BENCH_API_DIR, readonly: true, pointReads: info.pointReads });
  const app = buildServer({
    networks: [{ name: 'mainnet', testnet: false, services: {} }],
    keys: new KeyStore({ anonymous: { rps: 1_000_000_000 } }),
    limiter: new PrimaryRateLimiter(new PrimaryChannel()),
    groups: [v3Group({ store })],
  });
  await prepareApiWorker();
  await app.listen({ host: '127.0.0.1', port: 0 });
  workerListening((app.server.address() as { port: number }).port);
  await new Promise<void>((r) => process.once('SIGTERM', () => r()));
  await app.close();
  process.exit(0);
}

const rssMiB = (pid: number) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
};

async function main() {
  console.log(`bench:api  ${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  const dir = process.env.BENCH_DATA ?? mkdtempSync(join(tmpdir(), 'tg-bench-api-'));
  const store = await openStore({ dataDir: dir });
  // API workers open the same data directory
  process.env.BENCH_API_DIR = dir;
  const query = store.query.bind(store);
  store.query = ((...args: Parameters<typeof query>) => {
    statements++;
    return query(...args);
  }) as typeof store.query;
  // the workers' statements arrive as queryText
  const queryText = store.queryText.bind(store);
  store.queryText = ((...args: Parameters<typeof queryText>) => {
    statements++;
    return queryText(...args);
  }) as typeof store.queryText;
  let workers: ApiWorkers | null = null;
  const app = buildServer({
    networks: [{ name: 'mainnet', testnet: false, services: {} }],
    keys: new KeyStore({ anonymous: { rps: 1_000_000_000 } }),
    groups: [v3Group({ store })],
  });
  try {
    const templates = templatesFromBlocks(fixtureBlocks());
    const [{ n }] = await store.query<{ n: string }>('SELECT count() AS n FROM transactions_by_lt');
    if (Number(n) < TX) {
      const t0 = performance.now();
      const r = await fillSyntheticStore(store, templates, { transactions: TX - Number(n), writer: { maxRows: 300_000 } });
      console.log(`filled ${r.transactions.toLocaleString('en')} synthetic transactions in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }
    await deriveEntities(store);
    // rows derived by SQL reach the key-value store (src/kv) as an upgraded store's do: filled from ClickHouse
    if (store.kv) {
      const t0 = performance.now();
      await fillKvFromStore(store, store.kv, { tables: ['traces', 'trace_transactions', 'actions', 'action_accounts', 'jetton_transfers', ...ENTITY_SOURCES] });
      console.log(`key-value store: derived rows filled in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }
    const [{ total }] = await store.query<{ total: string }>('SELECT count() AS total FROM transactions_by_lt');
    const [{ jt }] = await store.query<{ jt: string }>('SELECT count() AS jt FROM jetton_transfers');
    const [{ tr }] = await store.query<{ tr: string }>('SELECT count() AS tr FROM traces');
    const [{ ent }] = await store.query<{ ent: string }>(`SELECT (${ENTITY_SOURCES.map((t) => `(SELECT count() FROM ${t})`).join(' + ')}) AS ent`);
    console.log(
      `store: ${Number(total).toLocaleString('en')} transactions, ${Number(jt).toLocaleString('en')} jetton transfers, ${Number(tr).toLocaleString('en')} traces, ` +
        `${Number(ent).toLocaleString('en')} entity and metadata rows (${dir})`,
    );
    enginePid = (store as { engine?: { pid: number } | null }).engine?.pid;
    let url: string;
    if (WORKERS >= 2) {
      workers = await startApiWorkers({ count: WORKERS, store, limiter: new MemoryRateLimiter(), log: { info: () => undefined, warn: console.warn, error: console.error } });
      url = `http://127.0.0.1:${workers.port}`;
      serverPids = () => workers?.pids() ?? [];
    } else url = await app.listen({ host: '127.0.0.1', port: 0 });
    const fetchStatus = async (p: string) => {
      const r = await fetch(url + p, { headers: LEAN ? LEAN_HEADERS : {} });
      return { statusCode: r.status, body: await r.text() };
    };
    // BENCH_ONLY=text[,text]: the scenarios whose name contains each text, in that order (one may come twice)
    const only = process.env.BENCH_ONLY?.split(',').filter(Boolean);
    const all = await sample(store);
    const scenarios = only ? only.flatMap((o) => all.filter((s) => s.name.includes(o))) : all;
    if (scenarios.length === 0) throw new Error(`BENCH_ONLY=${process.env.BENCH_ONLY}: no scenario named so (${all.map((s) => s.name).join('; ')})`);
    // warm-up: one pass over every sample path (first reads load marks and primary keys); every worker gets some
    for (const s of scenarios) for (const p of s.paths.slice(0, 50)) await fetchStatus(p);
    const rows = [];
    const writer = WRITE_TPS > 0 ? startWriter(store, templates) : null;
    for (const s of scenarios) {
      const probe = await fetchStatus(s.paths[0]);
      if (probe.statusCode !== 200) throw new Error(`${s.name}: ${probe.statusCode} ${probe.body.slice(0, 200)}`);
      rows.push(await run(url, s));
    }
    const wrote = await writer?.stop();
    if (wrote) console.log(`\nwritten while measuring: ${wrote.transactions.toLocaleString('en')} transactions in ${wrote.seconds.toFixed(0)} s (${Math.round(wrote.transactions / wrote.seconds)} tx/s, asked ${WRITE_TPS})`);
    console.log(`\n${CONNECTIONS} connections, ${SECONDS} s per scenario after ${WARMUP} warm-up passes, ${Number(total).toLocaleString('en')} transactions, ${WORKERS >= 2 ? `${WORKERS} API workers` : 'one process'}${LEAN ? ', without address book and metadata' : ''}`);
    console.table(rows);
    const primaryRss = (process.memoryUsage().rss / 2 ** 20).toFixed(0);
    // the engine's own process where it has one (an in-process engine counts in the primary's)
    const engineRss = enginePid ? `, engine ${rssMiB(enginePid)} MiB` : '';
    if (workers) console.log(`memory: rss primary ${primaryRss} MiB (the key-value store's writer${enginePid ? '' : ', the engine'}), workers ${workers.pids().map((p) => `${rssMiB(p)} MiB`).join(', ')}${engineRss}`);
    else console.log(`memory: rss ${primaryRss} MiB (one process: server and the key-value store's map${enginePid ? '' : ', the engine'})${engineRss}`);
    console.log(JSON.stringify({ transactions: Number(total), connections: CONNECTIONS, seconds: SECONDS, workers: WORKERS, results: rows }));
  } finally {
    await workers?.stop();
    await app.close();
    await store.close();
    if (!process.env.BENCH_DATA) rmSync(dir, { recursive: true, force: true });
  }
}

if (isApiWorker()) await worker();
else await main();
