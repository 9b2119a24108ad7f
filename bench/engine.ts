/**
 * Engine-level measurements behind bench/README.md's "What bounds the figures" (npm run bench:engine): how the
 * embedded engine (src/engine: ClickHouse in a process of its own, over HTTP on loopback) takes inserts (JSON or
 * Native bodies), what a statement costs before it reads anything, how statements share the engine when they run
 * side by side, what a wide row costs, and a point read of `transactions` under other table layouts.
 *
 * Env: BENCH_TX synthetic transactions for the insert and layout parts (default 50000), BENCH_LAYOUT_TX for the
 * layout part (default 200000), BENCH_SAMPLES reads per figure (default 60).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { BLOCK_TABLES, emptyRows } from '../src/decode/index.ts';
import { encodeCompact, encodeNative, openStore, type StoreClient } from '../src/store/client/index.ts';
import { type Row } from '../src/util/index.ts';
import { fillSyntheticStore, syntheticBlocks, templatesFromBlocks } from './synthetic.ts';
import { fixtureBlocks } from './fixtures.ts';

const TX = Number(process.env.BENCH_TX ?? 50_000);
const LAYOUT_TX = Number(process.env.BENCH_LAYOUT_TX ?? 200_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 60);

async function ms(fn: () => Promise<unknown> | unknown): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

/** p50 of SAMPLES runs (after 5 warm-up runs) of fn(i). */
async function p50(fn: (i: number) => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 5; i++) await fn(i);
  const t: number[] = [];
  for (let i = 0; i < SAMPLES; i++) t.push(await ms(() => fn(i)));
  return t.sort((a, b) => a - b)[Math.floor(t.length / 2)];
}

const line = (label: string, v: number, unit = 'ms') => console.log(`  ${label.padEnd(62)} ${v.toFixed(1).padStart(8)} ${unit}`);

async function inserts(store: StoreClient, rows: Row[]) {
  console.log(`\ninsert of ${rows.length} transactions rows into a Null-engine copy of transactions (parsing only)`);
  await store.command('CREATE TABLE tx_null AS transactions ENGINE = Null');
  let json = encodeCompact(rows);
  line('JS: encode JSONCompactEachRow', await ms(() => (json = encodeCompact(rows))));
  const schema = new Map((await store.query<{ name: string; type: string }>("SELECT name, type FROM system.columns WHERE database = currentDatabase() AND table = 'transactions'")).map((c) => [c.name, c.type]));
  line('JS: encode Native', await ms(() => encodeNative(rows, schema, 'transactions')));
  line('HTTP body of JSONCompactEachRow (insertFormatted)', await ms(() => store.insertFormatted('tx_null', json.body, 'JSONCompactEachRow', json.columns)));
  line('HTTP body of Native (insertRows), incl. encode', await ms(() => store.insertRows('tx_null', rows, Object.keys(rows[0]))));
}

/**
 * The engine's share of a store write, alone: every table's rows for the synthetic transactions, encoded as Native
 * and written to files beforehand, then inserted table by table as the writer does (`INSERT ... SELECT * FROM
 * file()`), materialized views included. Background merges come after and are not counted: a lower bound on what
 * the engine spends per transaction, so an upper bound on the store's transactions/s whatever the JS side does.
 */
async function engineInserts(store: StoreClient, all: Record<string, Row[]>, transactions: number) {
  console.log(`
engine only: every table's rows of ${transactions} transactions, pre-encoded Native files, one insert per table`);
  const schemas = new Map<string, Map<string, string>>();
  for (const c of await store.query<{ table: string; name: string; type: string }>('SELECT table, name, type FROM system.columns WHERE database = currentDatabase()')) {
    if (!schemas.has(c.table)) schemas.set(c.table, new Map());
    schemas.get(c.table)!.set(c.name, c.type);
  }
  const dir = mkdtempSync(join(tmpdir(), 'tg-bench-native-'));
  try {
    const files: { table: string; file: string; columns: readonly string[]; rows: number }[] = [];
    for (const [table, rows] of Object.entries(all)) {
      if (rows.length === 0) continue;
      const block = encodeNative(rows, schemas.get(table)!, table, [...new Set(rows.flatMap((r) => Object.keys(r)))]);
      const file = join(dir, `${table}.native`);
      writeFileSync(file, block.body);
      files.push({ table, file, columns: block.columns, rows: rows.length });
    }
    let total = 0;
    for (const f of files) {
      const t = await ms(() =>
        store.command(`INSERT INTO ${f.table} (${f.columns.join(', ')}) SELECT * FROM file({f:String}, Native) SETTINGS input_format_parallel_parsing = 0, optimize_on_insert = 0`, { f: f.file }),
      );
      total += t;
      line(`${f.table} (${f.rows} rows)`, t);
    }
    line('all tables', total);
    line('engine time per transaction', (total * 1000) / transactions, 'µs');
    line('so at most, with the JS side free', transactions / (total / 1000), 'tx/s');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function statements(store: StoreClient) {
  console.log(`\nstatement cost before reading anything (p50 of ${SAMPLES})`);
  line('store.query: SELECT 1', await p50(() => store.query('SELECT 1')));
  // the engine's profiles turn parallel output formatting off (src/engine/config.ts): both ways, as a setting
  for (const on of [1, 0]) {
    line(`SELECT 1, output_format_parallel_formatting=${on}`, await p50(() => store.query('SELECT 1', undefined, { output_format_parallel_formatting: on })));
  }
  line('store.query: bound SELECT, 2 more settings', await p50(() => store.query('SELECT {a:UInt32} AS x', { a: 1 }, { max_execution_time: 3, timeout_overflow_mode: 'throw' })));
  await store.command('CREATE TABLE tx_mem AS transactions ENGINE = Memory');
  await store.command('INSERT INTO tx_mem SELECT * FROM transactions LIMIT 100');
  line('SELECT * LIMIT 1 from a 100-row Memory copy of transactions', await p50(() => store.query('SELECT * FROM tx_mem LIMIT 1')));
  line('the same, 10 columns', await p50(() => store.query('SELECT hash, account, lt, now, orig_status, end_status, total_fees, descr, aborted, destroyed FROM tx_mem LIMIT 1')));
}

/** Statements side by side: the engine runs them at the same time (the in-process engine of earlier versions ran one at a time). */
async function concurrency(store: StoreClient) {
  const heavy = 'SELECT count() FROM numbers(60000000) WHERE cityHash64(number) % 7 = 1';
  console.log('\na CPU-bound statement alone and side by side (wall time of the batch, median of 3)');
  for (const n of [1, 2, 4]) {
    const t: number[] = [];
    for (let k = 0; k < 3; k++) t.push(await ms(() => Promise.all(Array.from({ length: n }, () => store.query(heavy)))));
    line(`${n} at once`, t.sort((a, b) => a - b)[1]);
  }
}

async function layouts(store: StoreClient) {
  const variants: Record<string, string> = {
    'index_granularity 8192 (the schema)': '',
    'index_granularity 256': 'index_granularity = 256',
    '256 + 4-16 KiB compress blocks': 'index_granularity = 256, min_compress_block_size = 4096, max_compress_block_size = 16384',
    '256 + small blocks + compact parts': 'index_granularity = 256, min_compress_block_size = 4096, max_compress_block_size = 16384, min_bytes_for_wide_part = 1000000000000, min_rows_for_wide_part = 1000000000000',
  };
  const [{ create }] = await store.query<{ create: string }>("SELECT create_table_query AS create FROM system.tables WHERE database = currentDatabase() AND name = 'transactions'");
  const keys = await store.query<{ account: string; lt: string }>('SELECT account, lt FROM transactions ORDER BY rand() LIMIT {n:UInt32}', { n: SAMPLES });
  const [{ n }] = await store.query<{ n: string }>('SELECT count() AS n FROM transactions');
  console.log(`\nSELECT * point read by (account, lt) of a merged single-part copy of ${Number(n).toLocaleString('en')} transactions (p50 of ${SAMPLES})`);
  let i = 0;
  for (const [label, settings] of Object.entries(variants)) {
    const t = `tx_layout_${i++}`;
    let sql = create.replace(/CREATE TABLE (\S+)\.transactions/, `CREATE TABLE $1.${t}`);
    if (settings) sql = /SETTINGS/.test(sql) ? sql.replace(/SETTINGS (.*)$/s, `SETTINGS $1, ${settings}`) : `${sql} SETTINGS ${settings}`;
    await store.command(sql);
    await store.command(`INSERT INTO ${t} SELECT * FROM transactions`);
    await store.command(`OPTIMIZE TABLE ${t} FINAL`);
    const [{ size }] = await store.query<{ size: string }>('SELECT sum(bytes_on_disk) AS size FROM system.parts WHERE active AND database = currentDatabase() AND table = {t:String}', { t });
    const v = await p50((k) => store.query(`SELECT * FROM ${t} WHERE account = {a:String} AND lt = {l:UInt64}`, { a: keys[k].account, l: keys[k].lt }));
    console.log(`  ${label.padEnd(40)} ${v.toFixed(1).padStart(8)} ms   ${(Number(size) / 2 ** 20).toFixed(1).padStart(7)} MiB`);
  }
}

async function main() {
  console.log(`bench:engine  ${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  const templates = templatesFromBlocks(fixtureBlocks());
  const dir = mkdtempSync(join(tmpdir(), 'tg-bench-engine-'));
  const store = await openStore({ dataDir: dir });
  try {
    const all = emptyRows();
    for (const b of syntheticBlocks(templates, { transactions: TX })) for (const t of BLOCK_TABLES) for (const r of b.rows[t]) all[t].push(r);
    await inserts(store, all.transactions);
    await fillSyntheticStore(store, templates, { transactions: LAYOUT_TX, firstCopy: 1000 });
    await statements(store);
    await concurrency(store);
    await layouts(store);
    await engineInserts(store, all, all.transactions.length);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
