/**
 * `npm run bench:decode`: full decode (transactions + messages + account states + shards/config) of every full
 * fixture block, many times, against the @ton/core baseline over the same blocks (Cell.fromBoc of the block,
 * walk of ShardAccountBlocks, loadTransaction + hash() per transaction). Prints transactions per second and the
 * ratio. One process; `BENCH_SECONDS` (default 10) is the CPU-time budget per contender.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Cell, Dictionary, loadCurrencyCollection, loadTransaction, type DictionaryValue, type Slice } from '@ton/core';
import { decodeBlock } from '../src/ton/index.ts';

const FIX = join(import.meta.dirname, '..', 'test', 'fixtures');
const manifest: { file: string; kind?: string }[] = JSON.parse(readFileSync(join(FIX, 'manifest.json'), 'utf8'));
const full = new Set(manifest.filter((r) => (r.kind ?? '').startsWith('full block')).map((r) => r.file));
const blocks: { file: string; bytes: Buffer }[] = [];
for (const net of ['mainnet', 'testnet', 'localnet']) {
  for (const f of readdirSync(join(FIX, 'blocks', net)).sort()) {
    const rel = `blocks/${net}/${f}`;
    if (full.has(rel)) blocks.push({ file: rel, bytes: readFileSync(join(FIX, rel)) });
  }
}
const totalBytes = blocks.reduce((a, b) => a + b.bytes.length, 0);

function ours(): number {
  let n = 0;
  for (const b of blocks) {
    const d = decodeBlock(b.bytes);
    n += d.transactions.length;
  }
  return n;
}

// @ton/core baseline: AccountBlock values of the augmented dict (extra CurrencyCollection first), transactions
// dict (HashmapAug 64 ^Transaction CurrencyCollection) read the same way.
const txValue: DictionaryValue<Cell> = {
  serialize: () => {
    throw new Error('read only');
  },
  parse: (s: Slice) => {
    loadCurrencyCollection(s);
    return s.loadRef();
  },
};
const accountBlockValue: DictionaryValue<Cell[]> = {
  serialize: () => {
    throw new Error('read only');
  },
  parse: (s: Slice) => {
    loadCurrencyCollection(s);
    if (s.loadUint(4) !== 5) throw new Error('acc_trans#5 expected');
    s.loadUintBig(256);
    const txs = Dictionary.loadDirect(Dictionary.Keys.BigUint(64), txValue, s);
    return txs.values();
  },
};
function tonCore(): number {
  let n = 0;
  for (const b of blocks) {
    const root = Cell.fromBoc(b.bytes)[0];
    const extra = root.refs[3];
    const ab = extra.refs[2].beginParse();
    const dict = Dictionary.load(Dictionary.Keys.BigUint(256), accountBlockValue, ab);
    for (const txs of dict.values()) {
      for (const c of txs) {
        const tx = loadTransaction(c.beginParse());
        tx.hash();
        n++;
      }
    }
  }
  return n;
}

/**
 * Rates are per CPU second of this process (process.cpuUsage), which stays meaningful on a shared, loaded
 * machine; wall-clock rates are printed beside them.
 */
function measure(name: string, fn: () => number, seconds: number): { txs: number; secs: number; wall: number; passes: number } {
  fn(); // warm-up (JIT)
  let txs = 0;
  let passes = 0;
  const t0 = process.hrtime.bigint();
  const c0 = process.cpuUsage();
  let secs: number;
  let wall: number;
  do {
    txs += fn();
    passes++;
    const c = process.cpuUsage(c0);
    secs = (c.user + c.system) / 1e6;
    wall = Number(process.hrtime.bigint() - t0) / 1e9;
  } while (secs < seconds);
  console.log(
    `${name.padEnd(28)} ${passes} passes  ${txs} txs  cpu ${secs.toFixed(2)} s: ${(txs / secs).toFixed(0)} tx/s, ` +
      `${((totalBytes * passes) / secs / 1e6).toFixed(1)} MB/s  (wall ${wall.toFixed(2)} s: ${(txs / wall).toFixed(0)} tx/s)`,
  );
  return { txs, secs, wall, passes };
}

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const perPass = ours();
const basePerPass = tonCore();
console.log(`fixture blocks: ${blocks.length} full blocks, ${(totalBytes / 1e6).toFixed(2)} MB, ${perPass} transactions per pass`);
if (basePerPass !== perPass) console.log(`warning: @ton/core baseline found ${basePerPass} transactions, decoder ${perPass}`);
const a = measure('decoder (full decodeBlock)', ours, seconds);
const b = measure('@ton/core baseline', tonCore, seconds);
const ra = a.txs / a.secs;
const rb = b.txs / b.secs;
console.log(`ratio (per cpu second): ${(ra / rb).toFixed(1)}x  (decoder ${ra.toFixed(0)} tx/s vs @ton/core ${rb.toFixed(0)} tx/s)`);
console.log(`ratio (wall clock):     ${(a.txs / a.wall / (b.txs / b.wall)).toFixed(1)}x`);
