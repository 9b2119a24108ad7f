// The traces stage's classifier on worker threads (src/traces/classify-pool.ts) against the same classifier on the
// stage's thread: real toncenter traces with their interface records, real mainnet blocks through processMcBatch on
// chdb; a malformed trace; a worker that dies; a process that exits once the pool is closed (sources and dist/).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJsonExact, traceFromToncenterJson, type Trace } from '../../src/actions/index.ts';
import { decodeBlock } from '../../src/ton/index.ts';
import { TraceAssembler } from '../../src/traces/assembler.ts';
import { classifierPool, classifyOne, createClassifier, inlineClassifier, type Classifier } from '../../src/traces/classify-pool.ts';
import { processMcBatch } from '../../src/traces/stage.ts';
import { tempStore } from '../helpers/store.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const FIX = join(ROOT, 'test', 'fixtures');
const DOCS = join(FIX, 'traces/toncenter-indexer/json');

function toncenterTraces(): Trace[] {
  return readdirSync(DOCS)
    .sort()
    .map((f) => traceFromToncenterJson(parseJsonExact(readFileSync(join(DOCS, f), 'utf8')) as never));
}

/** A trace whose transactions carry no out-message list: the classifier throws on it before its own catch. */
function malformed(t: Trace): Trace {
  return { ...t, traceId: 'malformed', transactions: t.transactions.map((x) => ({ ...x, outMsgs: null as never })) };
}

describe('classifier pool: the same classifications as the stage thread', () => {
  let pool: Classifier;
  beforeAll(() => {
    pool = classifierPool(2);
  });
  afterAll(async () => {
    await pool.close();
  });

  it('real toncenter traces (with their interface records): identical actions and states, in input order, across both workers', async () => {
    const traces = toncenterTraces();
    expect(traces.length).toBeGreaterThan(50);
    const inline = traces.map(classifyOne);
    const pooled = await pool.classify(traces);
    expect(pooled).toEqual(inline);
    // not a vacuous comparison: the traces classify into many actions of many types
    const types = new Set(inline.flatMap((c) => c.actions.map((a) => a.type)));
    expect(inline.flatMap((c) => c.actions).length).toBeGreaterThan(100);
    expect(types.size).toBeGreaterThan(15);
    expect(pool.stats).toMatchObject({ workers: 2, batches: 1, traces: traces.length });
    // more traces than MIN_CHUNK per worker: the batch was split, so both workers answered a part
    expect(pool.stats.ms).toBeGreaterThan(0);
  });

  it('a malformed trace is marked failed with no actions, as on the stage thread; its neighbours are classified', async () => {
    const traces = toncenterTraces().slice(0, 20);
    const batch = [...traces.slice(0, 10), malformed(traces[10]), ...traces.slice(11)];
    expect(() => classifyOne(batch[10])).not.toThrow();
    const inline = batch.map(classifyOne);
    expect(inline[10]).toEqual({ actions: [], state: 'failed' });
    const pooled = await pool.classify(batch);
    expect(pooled).toEqual(inline);
    expect(pooled.filter((c) => c.state === 'failed')).toHaveLength(inline.filter((c) => c.state === 'failed').length);
    expect(pooled[9].actions.length + pooled[11].actions.length).toBeGreaterThan(0);
  });

  it('a trace that cannot be sent fails its batch (never marked classified); the pool still classifies the next', async () => {
    const [t] = toncenterTraces();
    await expect(pool.classify([{ ...t, interfaces: { X: { raw: { f: () => 1 } } } }])).rejects.toThrow(/could not be cloned/);
    expect(await pool.classify([t])).toEqual([classifyOne(t)]);
  });

  it('a worker that dies (over its heap limit) rejects its batch', async () => {
    const tiny = classifierPool(1, { resourceLimits: { maxOldGenerationSizeMb: 1, maxYoungGenerationSizeMb: 1 } });
    try {
      await expect(tiny.classify(toncenterTraces())).rejects.toThrow(/classifier worker/);
    } finally {
      await tiny.close();
    }
  });

  it('a closed pool refuses work; createClassifier(0) classifies on this thread', async () => {
    const p = createClassifier(1);
    await p.close();
    await expect(p.classify(toncenterTraces().slice(0, 1))).rejects.toThrow(/closed/);
    const inline = createClassifier(0);
    expect(inline.stats.workers).toBe(0);
    const [t] = toncenterTraces();
    expect(await inline.classify([t])).toEqual([classifyOne(t)]);
  });
});

describe('processMcBatch with the pool over real mainnet blocks (chdb): the same rows as on the stage thread', () => {
  const ref = tempStore('tg-classify-pool-');
  let pool: Classifier;
  beforeAll(() => {
    pool = classifierPool(2);
  });
  afterAll(async () => {
    await pool.close();
  });

  it('traces, actions and action accounts are identical for every fixture block', async () => {
    const dir = join(FIX, 'blocks/mainnet');
    let actions = 0;
    let mc = 1000;
    for (const f of readdirSync(dir).filter((x) => x.startsWith('mainnet-wc0-')).sort()) {
      const block = decodeBlock(readFileSync(join(dir, f)));
      // nothing is written: both runs read the same (empty) store
      const a = await processMcBatch(ref.store, new TraceAssembler(), mc, [block], undefined, { classifier: inlineClassifier() });
      const b = await processMcBatch(ref.store, new TraceAssembler(), mc, [block], undefined, { classifier: pool });
      mc++;
      expect(b.tables, f).toEqual(a.tables);
      expect(b.entities, f).toEqual(a.entities);
      actions += a.actions.length;
    }
    expect(actions).toBeGreaterThan(100);
  });
});

/** A node process that classifies on a pool of 2, closes it and must then exit by itself (no thread left). */
function runChild(modulePath: string, withTsx: boolean): ReturnType<typeof spawnSync> {
  const script = [
    `const { createClassifier, classifyOne } = await import(${JSON.stringify(modulePath)});`,
    `const { readdirSync, readFileSync } = await import('node:fs');`,
    `const { parseJsonExact, traceFromToncenterJson } = await import(${JSON.stringify(modulePath.replace(/traces[/\\]classify-pool\.(ts|js)$/, 'actions/index.$1'))});`,
    `const dir = ${JSON.stringify(DOCS)};`,
    `const traces = readdirSync(dir).sort().slice(0, 40).map((f) => traceFromToncenterJson(parseJsonExact(readFileSync(dir + '/' + f, 'utf8'))));`,
    `const pool = createClassifier(2);`,
    `const out = await pool.classify(traces);`,
    `const same = JSON.stringify(out, (k, v) => typeof v === 'bigint' ? v.toString() : v) === JSON.stringify(traces.map(classifyOne), (k, v) => typeof v === 'bigint' ? v.toString() : v);`,
    `await pool.close();`,
    `console.log(JSON.stringify({ n: out.length, same }));`,
  ].join('\n');
  // a file, not -e: worker threads inherit the parent's node options, and --input-type would refuse a worker file
  const file = join(mkdtempSync(join(tmpdir(), 'tg-pool-child-')), 'child.mjs');
  writeFileSync(file, script);
  try {
    return spawnSync(process.execPath, [...(withTsx ? ['--import', 'tsx'] : []), file], { cwd: ROOT, encoding: 'utf8', timeout: 100_000 });
  } finally {
    rmSync(dirname(file), { recursive: true, force: true });
  }
}

describe('the pool in a process of its own', () => {
  it('from the TypeScript sources (tsx): classifies, and the process exits once the pool is closed', () => {
    const r = runChild(join(ROOT, 'src/traces/classify-pool.ts'), true);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(String(r.stdout))).toEqual({ n: 40, same: true });
  });

  // dist/ is built by `npm ci` (prepare) and `npm run build`; the worker is then the compiled classify-worker.js
  it.skipIf(!existsSync(join(ROOT, 'dist/src/traces/classify-worker.js')))('from the compiled dist/ (no tsx): the same', () => {
    const r = runChild(join(ROOT, 'dist/src/traces/classify-pool.js'), false);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(String(r.stdout))).toEqual({ n: 40, same: true });
  });
});
