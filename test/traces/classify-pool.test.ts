// The traces stage's classifier on worker threads (src/traces/classify-pool.ts) against the same classifier on the
// stage's thread: real toncenter traces with their interface records, real mainnet blocks through processMcBatch on
// chdb; a malformed trace; a worker that dies; a process that exits once the pool is closed (sources and dist/).
// The entity-state derivation on the same pool: the fixture states of the entity suites derive to the same rows and
// counts; a worker that dies or an input that cannot be sent rejects; completions run in masterchain order when the
// pool answers out of order.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Address, beginCell, Cell, Dictionary, loadShardAccount } from '@ton/core';
import { parseJsonExact, traceFromToncenterJson, type Trace } from '../../src/actions/index.ts';
import { completeEntityStates, deriveEntityStates, emptyStateStats, planEntityStates, readEntityCodes, type CodeBocs } from '../../src/entities/index.ts';
import { decodeBlock, type AccountStateRow } from '../../src/ton/index.ts';
import { TraceAssembler } from '../../src/traces/assembler.ts';
import { classifierPool, classifyOne, createClassifier, inlineClassifier, type Classifier } from '../../src/traces/classify-pool.ts';
import { processMcBatch, startMcBatch } from '../../src/traces/stage.ts';
import { code, fixtureCodes, memoryLookup, prunedBranch, raw, stateOf } from '../entities/helpers.ts';
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
    const inline = traces.map((t) => classifyOne(t));
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
    const inline = batch.map((t) => classifyOne(t));
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
      const a = await processMcBatch(ref.traces, new TraceAssembler(), mc, [block], undefined, { classifier: inlineClassifier() });
      const b = await processMcBatch(ref.traces, new TraceAssembler(), mc, [block], undefined, { classifier: pool });
      mc++;
      expect(b.tables, f).toEqual(a.tables);
      expect(b.entities, f).toEqual(a.entities);
      actions += a.actions.length;
    }
    expect(actions).toBeGreaterThan(100);
  });
});

/** The blocks of test/entities/state-rows.test.ts: a DNS item, getgems sales, jetton masters, a multisig v2 without data. */
const ENTITY_BLOCKS = [
  'testnet/testnet-wc0-a000000000000000-36993301.boc',
  'mainnet/mainnet-wc0-8000000000000000-27159537.boc',
  'mainnet/mainnet-wc0-8000000000000000-34703989.boc',
  'localnet/localnet-ton4j-wc0-8000000000000000-212538.boc',
  'mainnet/mainnet-wc0-8000000000000000-71398501.boc',
  'mainnet/mainnet-wc0-6000000000000000-52111590.boc',
];

/** The real fixture states the entity suites read (state-rows.test.ts, layouts.test.ts), with their codes as the store would give them. */
async function entityInput(): Promise<{ candidates: AccountStateRow[]; codes: CodeBocs }> {
  const states = ENTITY_BLOCKS.flatMap((f) => decodeBlock(readFileSync(join(FIX, 'blocks', f))).account_states);
  // the telemint collection's full state before block 71398501 (code in the state)
  const sa = loadShardAccount(Cell.fromBoc(readFileSync(join(FIX, 'accounts/mainnet-shardaccount-before-block-wc0-71398501-telegram-telemint-nft-collection.inferred-f5605a75.boc')))[0].beginParse());
  const st = sa.account!.storage.state;
  if (st.type !== 'active') throw new Error('collection not active');
  states.push(stateOf(raw(sa.account!.addr), st.state.code!, st.state.data!, { withCode: true }));
  // a multisig v2 by its layout (layouts.test.ts), read without its code
  const signers = beginCell().storeDictDirect(Dictionary.empty(Dictionary.Keys.Uint(8), Dictionary.Values.Address()).set(0, sa.account!.addr)).endCell();
  states.push(stateOf('0:' + '77'.repeat(32), code('multisig-v2-wallet.boc'), beginCell().storeUint(17, 256).storeUint(1, 8).storeRef(signers).storeUint(1, 8).storeMaybeRef(null).storeBit(false).endCell()));
  // planned apart from the blocks' states: the collection's state before the block is older than the block's
  const plans = [planEntityStates(states.slice(0, -2)), planEntityStates(states.slice(-2))];
  const candidates = plans.flatMap((p) => p.candidates);
  const codes: CodeBocs = new Map();
  for (const p of plans) for (const [h, c] of await readEntityCodes(p, memoryLookup(fixtureCodes()), emptyStateStats())) codes.set(h, c);
  return { candidates, codes };
}

describe('entity-state derivation on the pool: the same rows and counts as on the stage thread', () => {
  let pool: Classifier;
  beforeAll(() => {
    pool = classifierPool(2);
  });
  afterAll(async () => {
    await pool.close();
  });

  it('the entity suites\' fixture states: identical found rows (in order) and counts; completed, identical tables and stats', async () => {
    const { candidates, codes } = await entityInput();
    const inline = await deriveEntityStates(candidates, codes);
    const pooled = await pool.derive({ candidates, codes });
    expect(pooled).toEqual(inline);
    // not vacuous: rows of several tables, and the failure counts the blocks' pruned data gives
    const tables = new Set(inline.found.map((e) => e.table));
    expect(inline.found.length).toBeGreaterThan(5);
    expect(tables).toEqual(new Set(['jetton_masters', 'nft_collections', 'dns_entries', 'nft_sales', 'multisig']));
    expect(inline.no_code + inline.failed).toBeGreaterThan(0);
    // split between the two workers, each message carrying only its accounts' codes
    expect(pool.stats.derive).toMatchObject({ batches: 1, jobs: 2, accounts: candidates.length });
    expect(pool.stats.derive.ms).toBeGreaterThan(0);
    const a = await completeEntityStates(inline, memoryLookup(new Map()), emptyStateStats());
    const b = await completeEntityStates(pooled, memoryLookup(new Map()), emptyStateStats());
    expect(b).toEqual(a);
    expect(a.stats.rows).toBeGreaterThan(5);
  });

  it('an account that cannot be sent fails its batch; the pool still derives the next', async () => {
    const { candidates, codes } = await entityInput();
    await expect(pool.derive({ candidates: [{ ...candidates[0], balance: (() => 1) as never }], codes })).rejects.toThrow(/could not be cloned/);
    expect(await pool.derive({ candidates, codes })).toEqual(await deriveEntityStates(candidates, codes));
  });

  it('a worker that dies (over its heap limit) rejects its derivation', async () => {
    const { candidates, codes } = await entityInput();
    const tiny = classifierPool(1, { resourceLimits: { maxOldGenerationSizeMb: 1, maxYoungGenerationSizeMb: 1 } });
    try {
      await expect(tiny.derive({ candidates, codes })).rejects.toThrow(/classifier worker/);
    } finally {
      await tiny.close();
    }
  });

  it('a closed pool refuses derivations; createClassifier(0) derives on this thread', async () => {
    const { candidates, codes } = await entityInput();
    const p = createClassifier(1);
    await p.close();
    await expect(p.derive({ candidates, codes })).rejects.toThrow(/closed/);
    const inline = createClassifier(0);
    expect(await inline.derive({ candidates, codes })).toEqual(await deriveEntityStates(candidates, codes));
    expect(inline.stats.derive).toMatchObject({ batches: 1, jobs: 0, accounts: candidates.length });
  });
});

describe('entity-state completion in masterchain order (startMcBatch, pool of 2, chdb)', () => {
  const ref = tempStore('tg-derive-order-');

  it('seqno N+1 takes the signers its block pruned from seqno N\'s row (not written yet), even when N+1 is derived first', async () => {
    const dir = join(FIX, 'blocks/mainnet');
    const [f1, f2] = readdirSync(dir).filter((x) => x.startsWith('mainnet-wc0-')).sort();
    const msCode = code('multisig-v2-wallet.boc');
    const signers = beginCell().storeDictDirect(Dictionary.empty(Dictionary.Keys.Uint(8), Dictionary.Values.Address()).set(0, new Address(0, Buffer.alloc(32, 3)))).endCell();
    const addr = '0:' + '78'.repeat(32);
    const at = (seqno: number, sig: Cell) => beginCell().storeUint(seqno, 256).storeUint(1, 8).storeRef(sig).storeUint(1, 8).storeMaybeRef(null).storeBit(false).endCell();
    // real blocks (their transactions fold), their account states those of one multisig: N carries its signers, N+1 prunes them
    const n = { ...decodeBlock(readFileSync(join(dir, f1))), account_states: [stateOf(addr, msCode, at(1, signers), { lt: 10n })] };
    const n1 = { ...decodeBlock(readFileSync(join(dir, f2))), account_states: [stateOf(addr, msCode, at(2, prunedBranch(signers)), { lt: 20n })] };
    const pool = classifierPool(2);
    // the pool answers N after N+1: N's derivation is held until N+1's is back
    let secondBack!: () => void;
    const second = new Promise<void>((r) => (secondBack = r));
    let calls = 0;
    const outOfOrder: Classifier = {
      stats: pool.stats,
      classify: (t) => pool.classify(t),
      derive: async (input) => {
        const i = calls++;
        const out = await pool.derive(input);
        if (i === 0) await second;
        else secondBack();
        return out;
      },
      close: () => pool.close(),
    };
    try {
      const asm = new TraceAssembler();
      const a = await startMcBatch(ref.traces, asm, 2000, [n], undefined, { classifier: outOfOrder });
      const b = await startMcBatch(ref.traces, asm, 2001, [n1], undefined, { classifier: outOfOrder });
      const [outA, outB] = await Promise.all([a.done, b.done]);
      expect(calls).toBe(2);
      expect(outA.entities.multisig).toMatchObject([{ address: addr, next_order_seqno: 1n }]);
      const signersRow = outA.entities.multisig[0].signers;
      expect(signersRow).toEqual([raw(new Address(0, Buffer.alloc(32, 3)))]);
      // N+1's signers are N's: its block pruned them, the store has no row (nothing written), N's row was remembered first
      expect(outB.entities.multisig).toMatchObject([{ address: addr, next_order_seqno: 2n, signers: signersRow, last_transaction_lt: 20n }]);
      expect(outB.entityStats).toMatchObject({ rows: 1, incomplete: 0 });
      expect(await ref.store.query('SELECT * FROM multisig FINAL WHERE address = {a:String}', { a: addr })).toEqual([]);
      // and the lookup this stage's context keeps holds N+1's row now
      expect((await ref.traces.entityLookup.previous('multisig', [addr])).get(addr)).toMatchObject({ next_order_seqno: 2n });
    } finally {
      await pool.close();
    }
  });
});

/**
 * A node process that classifies and derives entity states (the TVM emulator loaded in the workers) on a pool of 2,
 * closes it and must then exit by itself (no thread left). The codes of the derivation: the fixture codes by hash.
 */
function runChild(modulePath: string, withTsx: boolean): ReturnType<typeof spawnSync> {
  const sibling = (dir: string) => JSON.stringify(modulePath.replace(/traces[/\\]classify-pool\.(ts|js)$/, `${dir}/index.$1`));
  const codes = JSON.stringify([...fixtureCodes()].map(([h, c]) => [h, c.toBoc().toString('base64')]));
  const blocks = JSON.stringify(ENTITY_BLOCKS.map((f) => join(FIX, 'blocks', f)));
  const json = `(x) => JSON.stringify(x, (k, v) => typeof v === 'bigint' ? v.toString() : v)`;
  const script = [
    `const { createClassifier, classifyOne } = await import(${JSON.stringify(modulePath)});`,
    `const { readdirSync, readFileSync } = await import('node:fs');`,
    `const { parseJsonExact, traceFromToncenterJson } = await import(${sibling('actions')});`,
    `const { deriveEntityStates, planEntityStates } = await import(${sibling('entities')});`,
    `const { decodeBlock } = await import(${sibling('ton')});`,
    `const json = ${json};`,
    `const dir = ${JSON.stringify(DOCS)};`,
    `const traces = readdirSync(dir).sort().slice(0, 40).map((f) => traceFromToncenterJson(parseJsonExact(readFileSync(dir + '/' + f, 'utf8'))));`,
    `const pool = createClassifier(2);`,
    `const out = await pool.classify(traces);`,
    `const same = json(out) === json(traces.map((t) => classifyOne(t)));`,
    `const candidates = ${blocks}.flatMap((f) => planEntityStates(decodeBlock(readFileSync(f)).account_states).candidates);`,
    `const codes = new Map(${codes});`,
    `const derived = await pool.derive({ candidates, codes });`,
    `const sameDerived = json(derived) === json(await deriveEntityStates(candidates, codes));`,
    `await pool.close();`,
    `console.log(JSON.stringify({ n: out.length, same, rows: derived.found.length, sameDerived }));`,
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
  it('from the TypeScript sources (tsx): classifies and derives entity states (the TVM emulator loads in the workers), and the process exits once the pool is closed', () => {
    const r = runChild(join(ROOT, 'src/traces/classify-pool.ts'), true);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(String(r.stdout))).toMatchObject({ n: 40, same: true, sameDerived: true });
    // rows that only get-methods give (jetton masters, DNS, sales): the emulator ran in the workers
    expect(JSON.parse(String(r.stdout)).rows).toBeGreaterThan(3);
  });

  // dist/ is built by `npm ci` (prepare) and `npm run build`; the worker is then the compiled classify-worker.js
  it.skipIf(!existsSync(join(ROOT, 'dist/src/traces/classify-worker.js')))('from the compiled dist/ (no tsx): the same', () => {
    const r = runChild(join(ROOT, 'dist/src/traces/classify-pool.js'), false);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(String(r.stdout))).toMatchObject({ n: 40, same: true, sameDerived: true });
    expect(JSON.parse(String(r.stdout)).rows).toBeGreaterThan(3);
  });
});
