/**
 * Store benchmark (npm run bench:store): decoded fixture blocks scaled up to BENCH_TX transactions
 * (default 1 000 000) through the real writer into a fresh chdb store, then lookup latencies at that
 * size and the data size on disk.
 *
 * Env: BENCH_TX (default 1000000), BENCH_FORMAT_TX (transactions per format in the JSONEachRow vs
 * JSONCompactEachRow vs Native comparison, default 20000), BENCH_SAMPLES (lookups per kind, default 200),
 * BENCH_DATA (keep the store in this dir instead of a temp dir).
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir, cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { blockById, latestAccountState, messagesByHash, transactionsByAccount, transactionsByHash, transactionDocsByHash, transactionsByMcSeqno } from '../src/store/read/index.ts';
import { openStore, type InsertFormat, type StoreClient } from '../src/store/client/index.ts';
import { fillSyntheticStore, templatesFromBlocks } from './synthetic.ts';
import { fixtureBlocks } from './fixtures.ts';
import { stealSeconds, stealSince } from './steal.ts';

const TX = Number(process.env.BENCH_TX ?? 1_000_000);
const FORMAT_TX = Number(process.env.BENCH_FORMAT_TX ?? 20_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);


const cpuSeconds = (since: NodeJS.CpuUsage) => {
  const c = process.cpuUsage(since);
  return (c.user + c.system) / 1e6;
};

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function timeIt<T>(label: string, inputs: T[], fn: (x: T) => Promise<unknown[] | unknown>, expectRows = true) {
  const ms: number[] = [];
  let empty = 0;
  let firstEmpty: T | undefined;
  for (const x of inputs) {
    const t = performance.now();
    const r = await fn(x);
    ms.push(performance.now() - t);
    if (expectRows && (r === null || (Array.isArray(r) && r.length === 0))) {
      empty++;
      firstEmpty ??= x;
    }
  }
  if (firstEmpty !== undefined) console.log(`  (no rows for ${JSON.stringify(firstEmpty)})`);
  ms.sort((a, b) => a - b);
  const row = { lookup: label, n: inputs.length, p50_ms: +pct(ms, 50).toFixed(2), p99_ms: +pct(ms, 99).toFixed(2), empty };
  console.log(`  ${label.padEnd(34)} p50 ${row.p50_ms.toFixed(2).padStart(8)} ms   p99 ${row.p99_ms.toFixed(2).padStart(8)} ms   (n=${row.n}${empty ? `, EMPTY ${empty}` : ''})`);
  return row;
}

async function fill(store: StoreClient, templates: ReturnType<typeof templatesFromBlocks>, transactions: number, format: InsertFormat | 'Native', firstCopy: number) {
  const c0 = process.cpuUsage();
  const steal0 = stealSeconds();
  const r = await fillSyntheticStore(store, templates, { transactions, firstCopy, writer: { format, maxRows: 300_000 } });
  const cpu = cpuSeconds(c0);
  const s = r.ms / 1000;
  console.log(
    `  ${format.padEnd(19)} ${r.transactions} tx, ${r.rows} rows in ${s.toFixed(1)} s (process CPU ${cpu.toFixed(1)} s, VM steal ${stealSince(steal0)}): ` +
      `${Math.round(r.transactions / s)} tx/s, ${Math.round(r.rows / s)} rows/s`,
  );
  return { ...r, cpu };
}

/** Bytes of the files under `path` (0 when it is not on this machine, as with a ClickHouse server). */
function dirBytes(path: string): number {
  try {
    const st = statSync(path);
    if (!st.isDirectory()) return st.size;
    return readdirSync(path).reduce((n, f) => n + dirBytes(join(path, f)), 0);
  } catch {
    return 0;
  }
}

async function main() {
  console.log(`bench:store  ${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  const blocks = fixtureBlocks();
  const templates = templatesFromBlocks(blocks);
  console.log(`templates: ${blocks.length} decoded fixture blocks, ${blocks.reduce((n, b) => n + b.transactions.length, 0)} transactions`);

  const dir = process.env.BENCH_DATA ?? mkdtempSync(join(tmpdir(), 'tg-bench-store-'));
  const store = await openStore({ dataDir: dir });
  try {
    console.log('\ninsert (real writer: blockToRows rows -> encode -> chdb, all tables, markers last)');
    const a = await fill(store, templates, FORMAT_TX, 'JSONEachRow', 0);
    const b = await fill(store, templates, FORMAT_TX, 'JSONCompactEachRow', a.nextCopy);
    const c = await fill(store, templates, FORMAT_TX, 'Native', b.nextCopy);
    const rest = Math.max(0, TX - a.transactions - b.transactions - c.transactions);
    const main = await fill(store, templates, rest, 'Native', c.nextCopy);
    const [{ n: total }] = await store.query<{ n: string }>('SELECT count() AS n FROM transactions');

    console.log(`\nlookups at ${Number(total).toLocaleString('en')} transactions (FINAL reads, unmerged parts as left by ingestion)`);
    const txs = await store.query<{ hash: string; account: string; lt: string; mc_block_seqno: number }>(
      `SELECT hash, account, lt, mc_block_seqno FROM transactions_by_lt ORDER BY rand() LIMIT {n:UInt32}`,
      { n: SAMPLES },
    );
    const msgs = await store.query<{ msg_hash: string }>(`SELECT msg_hash FROM messages ORDER BY rand() LIMIT {n:UInt32}`, { n: SAMPLES });
    const norms = await store.query<{ hash: string }>(`SELECT hash FROM message_hashes WHERE is_norm = 1 ORDER BY rand() LIMIT {n:UInt32}`, { n: SAMPLES });
    const blks = await store.query<{ workchain: number; shard: string; seqno: number }>(
      `SELECT workchain, lpad(hex(shard), 16, '0') AS shard, seqno FROM blocks ORDER BY rand() LIMIT {n:UInt32}`,
      { n: SAMPLES },
    );
    const lat = [
      await timeIt('SELECT 1 (round trip, reference)', txs, () => store.query('SELECT 1')),
      await timeIt('transaction by hash', txs, (t) => transactionsByHash(store, [t.hash])),
      await timeIt('transaction document by hash', txs, (t) => transactionDocsByHash(store, [t.hash])),
      await timeIt('account txs (latest 20)', txs, (t) => transactionsByAccount(store, t.account, { limit: 20 })),
      await timeIt('account txs, lt range (10 txs)', txs, (t) =>
        transactionsByAccount(store, t.account, { endLt: BigInt(t.lt), limit: 10 })),
      await timeIt('message by hash', msgs, (m) => messagesByHash(store, [m.msg_hash])),
      await timeIt('message by normalized hash', norms, (m) => messagesByHash(store, [m.hash])),
      await timeIt('latest state by account', txs, (t) => latestAccountState(store, t.account)),
      await timeIt('block by (wc, shard, seqno)', blks, (x) => blockById(store, x.workchain, x.shard, x.seqno)),
      await timeIt('transactions by mc_block_seqno', txs, (t) => transactionsByMcSeqno(store, t.mc_block_seqno)),
    ];

    const parts = await store.query<{ table: string; bytes: string; rows: string }>(
      `SELECT table, sum(bytes_on_disk) AS bytes, sum(rows) AS rows FROM system.parts
       WHERE active AND database = currentDatabase() GROUP BY table ORDER BY sum(bytes_on_disk) DESC`,
    );
    // the RocksDB tables (clickhouse/0013) have no parts: their directories' size
    const kv = await store.query<{ table: string; paths: string[] }>(
      "SELECT name AS table, data_paths AS paths FROM system.tables WHERE database = currentDatabase() AND engine = 'EmbeddedRocksDB'",
    );
    for (const t of kv) parts.push({ table: t.table, bytes: String(t.paths.reduce((n, p) => n + dirBytes(p), 0)), rows: '-' });
    parts.sort((x, y) => Number(y.bytes) - Number(x.bytes));
    const bytes = parts.reduce((n, p) => n + Number(p.bytes), 0);
    const perM = bytes / (Number(total) / 1e6);
    console.log(`\ndisk: ${(bytes / 2 ** 20).toFixed(1)} MiB for ${Number(total).toLocaleString('en')} transactions = ${(perM / 2 ** 20).toFixed(1)} MiB per million transactions`);
    for (const p of parts.slice(0, 12)) console.log(`  ${p.table.padEnd(24)} ${(Number(p.bytes) / 2 ** 20).toFixed(1).padStart(8)} MiB  ${(p.rows === '-' ? 'RocksDB' : Number(p.rows).toLocaleString('en')).padStart(12)}${p.rows === '-' ? '' : ' rows'}`);

    const summary = {
      transactions: Number(total),
      insert: {
        json_each_row_tx_per_s: Math.round(a.transactions / (a.ms / 1000)),
        json_compact_tx_per_s: Math.round(b.transactions / (b.ms / 1000)),
        native_tx_per_s: Math.round(c.transactions / (c.ms / 1000)),
        main_tx_per_s: Math.round(main.transactions / (main.ms / 1000)),
        main_rows_per_s: Math.round(main.rows / (main.ms / 1000)),
        main_cpu_s: +main.cpu.toFixed(1),
      },
      lookups: lat,
      disk_mib_per_million_tx: +(perM / 2 ** 20).toFixed(1),
    };
    console.log('\n' + JSON.stringify(summary));
  } finally {
    await store.close();
    if (!process.env.BENCH_DATA) rmSync(dir, { recursive: true, force: true });
  }
}

await main();
