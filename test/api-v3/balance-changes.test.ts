// /balanceChanges over real traces: the fixture blocks go through the real traces stage (trace assembly,
// classification, jetton transfers), and the answers are checked against values derived independently from
// the block BoCs with @ton/core: transaction fees and message values of the transaction cells, and the
// accounts' balances before and after the block read from the block's Merkle state update.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cell, loadTransaction, type Slice, type Transaction } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeBlock } from '../../src/ton/index.ts';
import { TraceAssembler } from '../../src/traces/assembler.ts';
import { processMcBatch, writeMcBatch } from '../../src/traces/stage.ts';
import { createTracesContext } from '../../src/traces/stage-context.ts';
import { actionScope, computeBalanceChanges, type BcTransaction } from '../../src/api/v3/queries/balance-changes.ts';
import { FIXTURES, get, openFixture, type Fixture } from './helpers.ts';

// Blocks run through the traces stage, each as its own masterchain batch (fixture blocks are not consecutive).
const BLOCKS = [
  'mainnet-wc0-8000000000000000-71398501.boc', 'mainnet-wc0-8000000000000000-40484416.boc', 'mainnet-wc0-2000000000000000-54593195.boc',
  'mainnet-wc0-8000000000000000-34703989.boc',
];
const b64 = (hex: string) => encodeURIComponent(Buffer.from(hex, 'hex').toString('base64'));
const raw = (wc: number, hash: Buffer | string) => `${wc}:${(typeof hash === 'string' ? hash : hash.toString('hex')).toUpperCase()}`;

// ---------------------------------------------------------------- independent readers over the block BoC

/** Every cell of a BoC by hash (hex). */
function cellsByHash(root: Cell): Map<string, Cell> {
  const out = new Map<string, Cell>();
  const walk = (c: Cell) => {
    const h = c.hash().toString('hex');
    if (out.has(h)) return;
    out.set(h, c);
    for (const r of c.refs) walk(r);
  };
  walk(root);
  return out;
}

/** `#<= m`: the bit width that holds 0..m. */
const lenBits = (m: number) => Math.ceil(Math.log2(m + 1));

/** HmLabel ~l m (block.tlb hml_short / hml_long / hml_same) -> the label bits as a 0/1 string. */
function loadLabel(s: Slice, m: number): string {
  if (!s.loadBit()) {
    let n = 0;
    while (s.loadBit()) n++;
    let out = '';
    for (let i = 0; i < n; i++) out += s.loadBit() ? '1' : '0';
    return out;
  }
  if (!s.loadBit()) {
    const n = s.loadUint(lenBits(m));
    let out = '';
    for (let i = 0; i < n; i++) out += s.loadBit() ? '1' : '0';
    return out;
  }
  const v = s.loadBit() ? '1' : '0';
  return v.repeat(s.loadUint(lenBits(m)));
}

/**
 * Balance of `addrHex` in a ShardStateUnsplit cell: `accounts:^ShardAccounts` is the state's second ref;
 * ShardAccounts = HashmapAugE 256 ShardAccount DepthBalanceInfo, whose leaf extra holds the balance
 * (`depth_balance$_ split_depth:(#<= 30) balance:CurrencyCollection`). null: not in the state (nonexist);
 * undefined: the path runs into a pruned branch (the fixture's update does not carry this account's old leaf).
 */
function stateBalance(state: Cell, addrHex: string): bigint | null | undefined {
  const accounts = state.refs[1].beginParse(true);
  if (!accounts.loadBit()) return null; // ahme_empty
  let cell = accounts.loadRef();
  const key = BigInt('0x' + addrHex).toString(2).padStart(256, '0');
  let pos = 0;
  for (;;) {
    // a pruned branch on the way: this update does not carry the account's leaf (unknown, not absent)
    if (cell.isExotic) return undefined;
    const s = cell.beginParse(true);
    const label = loadLabel(s, 256 - pos);
    if (key.slice(pos, pos + label.length) !== label) return null;
    pos += label.length;
    if (pos === 256) {
      s.loadUint(5); // split_depth
      return s.loadCoins();
    }
    cell = cell.refs[key[pos] === '0' ? 0 : 1];
    pos += 1;
  }
}

interface BlockView {
  txs: Map<string, Transaction>;
  /** accounts (raw) -> hashes of their transactions in the block */
  txsOf: Map<string, string[]>;
  /** balance before / after the block; undefined when the update does not carry it */
  before(account: string): bigint | undefined;
  after(account: string): bigint | undefined;
}

function blockView(file: string): BlockView {
  const bytes = readFileSync(join(FIXTURES, 'blocks/mainnet', file));
  const root = Cell.fromBoc(bytes)[0];
  const byHash = cellsByHash(root);
  const decoded = decodeBlock(bytes); // only for the list of the block's transaction hashes
  const txs = new Map<string, Transaction>();
  const txsOf = new Map<string, string[]>();
  for (const t of decoded.transactions) {
    const tx = loadTransaction(byHash.get(t.hash)!.beginParse());
    txs.set(t.hash, tx);
    const acc = raw(decoded.id.workchain, tx.address.toString(16).padStart(64, '0'));
    txsOf.set(acc, [...(txsOf.get(acc) ?? []), t.hash]);
  }
  const update = root.refs[2]; // block#11ef55aa global_id info:^ value_flow:^ state_update:^(MERKLE_UPDATE) extra:^
  const [oldState, newState] = update.refs;
  const bal = (state: Cell) => (account: string) => {
    const b = stateBalance(state, account.split(':')[1]);
    return b === null ? 0n : b;
  };
  return { txs, txsOf, before: bal(oldState), after: bal(newState) };
}

// ---------------------------------------------------------------- the fixture

let f: Fixture;
const views = new Map<string, BlockView>();

beforeAll(async () => {
  f = await openFixture({
    extra: async (store) => {
      let mc = 900_000_000;
      const traces = createTracesContext({ store });
      for (const file of BLOCKS) {
        const block = decodeBlock(readFileSync(join(FIXTURES, 'blocks/mainnet', file)));
        const asm = new TraceAssembler();
        const out = await processMcBatch(traces, asm, mc, [block]);
        await writeMcBatch(traces, asm, mc, out);
        mc++;
      }
    },
  });
  for (const file of BLOCKS) views.set(file, blockView(file));
}, 120_000);
afterAll(async () => {
  await f?.close();
});

async function traceTxs(traceId: string): Promise<string[]> {
  const rows = await f.store.query<{ hash: string }>('SELECT DISTINCT hash FROM trace_transactions WHERE trace_id = {t:FixedString(64)}', { t: traceId });
  return rows.map((r) => r.hash);
}

/** Balance changes of the trace's transactions straight from the transaction cells (the reference's per-node rule). */
function expectedFromCells(view: BlockView, hashes: string[]) {
  const fees = new Map<string, bigint>();
  const value = new Map<string, bigint>();
  const add = (m: Map<string, bigint>, k: string, v: bigint) => m.set(k, (m.get(k) ?? 0n) + v);
  for (const h of hashes) {
    const tx = view.txs.get(h)!;
    const acc = raw(0, tx.address.toString(16).padStart(64, '0'));
    add(fees, acc, tx.totalFees.coins);
    const info = tx.inMessage?.info;
    if (info?.type === 'internal') {
      const src = raw(info.src.workChain, info.src.hash);
      add(value, src, -info.value.coins);
      add(value, acc, info.value.coins);
      add(fees, src, info.forwardFee);
    }
  }
  const changes = new Map(value);
  for (const [a, v] of fees) add(changes, a, -v);
  return { fees, changes };
}

/**
 * Physical check: every account of the answer whose transactions in the block all belong to the trace, and
 * whose balances before and after the block the Merkle update carries, changed by exactly `changes`.
 */
function checkAgainstState(view: BlockView, hashes: string[], changes: Map<string, bigint>): number {
  let checked = 0;
  for (const [acc, delta] of changes) {
    const own = view.txsOf.get(acc) ?? [];
    const before = view.before(acc);
    const after = view.after(acc);
    if (own.length === 0 || !own.every((h) => hashes.includes(h)) || before === undefined || after === undefined) continue;
    expect(delta, acc).toBe(after - before);
    checked++;
  }
  return checked;
}

async function bc(q: string) {
  const r = await f.app.inject({ method: 'GET', url: `/api/v3/balanceChanges?${q}` });
  if (r.statusCode === 200) expect(r.headers['content-type']).toMatch(/^application\/json/);
  return { status: r.statusCode, text: r.body, body: JSON.parse(r.body) as Record<string, Record<string, unknown>> };
}

/** JSON numbers as exact bigints (the body is parsed by hand: JSON.parse would round beyond 2^53). */
function exactInts(text: string, key: 'changes' | 'fees'): Map<string, bigint> {
  const part = new RegExp(`"${key}":\\{([^}]*)\\}`).exec(text)![1];
  const out = new Map<string, bigint>();
  for (const m of part.matchAll(/"(-?\d+:[0-9A-F]{64})":(-?\d+)/g)) out.set(m[1], BigInt(m[2]));
  return out;
}

describe('balanceChanges of real traces', () => {
  it('complete DEX trace with two jetton transfers (block 71398501): fees, changes and jettons match the block', async () => {
    const traceId = '499a41c7858222e2ba8a815abb75a4d136a7c011f93d458d622d3485def66e24';
    const view = views.get(BLOCKS[0])!;
    const hashes = await traceTxs(traceId);
    expect(hashes.length).toBe(11);
    const r = await bc(`trace_id=${b64(traceId)}`);
    expect(r.status).toBe(200);
    const fees = exactInts(r.text, 'fees');
    const changes = exactInts(r.text, 'changes');
    const exp = expectedFromCells(view, hashes);
    expect(fees).toEqual(exp.fees);
    expect(changes).toEqual(exp.changes);
    // the Merkle update of this fixture carries the old leaf of one of the trace's accounts
    expect(checkAgainstState(view, hashes, changes)).toBe(1);
    // jettons: every transfer request (op 0x0f8a7ea5 in-message of a jetton wallet) of the trace, parsed from the body
    const expJ: Record<string, Record<string, string>> = {};
    // USDT's master (EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs): both wallets of the trace are USDT wallets
    const master = '0:B113A994B5024A16719F69139328EB759596C38A25F59028B146FECDC3621DFE';
    for (const h of hashes) {
      const tx = view.txs.get(h)!;
      const body = tx.inMessage?.body.beginParse();
      if (!body || body.remainingBits < 32 || body.preloadUint(32) !== 0x0f8a7ea5) continue;
      expect(tx.description.type === 'generic' && !tx.description.aborted).toBe(true);
      body.loadUint(32);
      body.loadUintBig(64);
      const amount = body.loadCoins();
      const to = body.loadAddress();
      const info = tx.inMessage!.info;
      if (info.type !== 'internal') throw new Error('transfer request must be internal');
      const from = raw(info.src.workChain, info.src.hash);
      const toRaw = raw(to.workChain, to.hash);
      expJ[from] = { [master]: String(BigInt(expJ[from]?.[master] ?? 0) - amount) };
      expJ[toRaw] = { [master]: String(BigInt(expJ[toRaw]?.[master] ?? 0) + amount) };
    }
    expect(Object.keys(expJ).length).toBe(2);
    expect(r.body.jettons).toEqual(expJ);
  });

  it('complete trace of block 40484416 with a jetton transfer; ints are JSON numbers', async () => {
    const traceId = 'd030bc6ada82007f1e20500c6ec40f7d54c3f98812834020a9350e0e08c0991f';
    const view = views.get(BLOCKS[1])!;
    const hashes = await traceTxs(traceId);
    const r = await bc(`trace_id=${traceId}`);
    expect(r.status).toBe(200);
    const exp = expectedFromCells(view, hashes);
    expect(exactInts(r.text, 'fees')).toEqual(exp.fees);
    expect(exactInts(r.text, 'changes')).toEqual(exp.changes);
    expect(checkAgainstState(view, hashes, exactInts(r.text, 'changes'))).toBe(2);
    for (const v of Object.values(r.body.fees)) expect(typeof v).toBe('number');
    // the transfer of 432151000000 units moved from the sender owner to the receiver owner
    const jets = r.body.jettons as Record<string, Record<string, string>>;
    const amounts = Object.values(jets).flatMap((row) => Object.values(row));
    expect(amounts.sort()).toEqual(['-432151000000', '432151000000']);
  });

  it('a complete 7-transaction trace (block 34703989): every account\'s change is its balance change', async () => {
    const traceId = '4541c69fde726ec0698be73496f63b6cd00d9383558291ba84ceee4d971055be';
    const view = views.get(BLOCKS[3])!;
    const hashes = await traceTxs(traceId);
    expect(hashes.length).toBe(7);
    const r = await bc(`trace_id=${traceId}`);
    expect(r.status).toBe(200);
    const changes = exactInts(r.text, 'changes');
    expect(changes).toEqual(expectedFromCells(view, hashes).changes);
    expect(checkAgainstState(view, hashes, changes)).toBe(4);
    expect(changes.size).toBe(4);
  });

  it('a pending trace: messages in flight are debited from their sender, as the balances show', async () => {
    const traceId = 'faa897623808c6d2f8eaf3effb04d1944451c08323064ab4d11aeb568a2179d7';
    const view = views.get(BLOCKS[2])!;
    const [t] = await f.store.query<{ state: string; pending_edges: string }>('SELECT state, pending_edges FROM traces FINAL WHERE trace_id = {t:FixedString(64)}', { t: traceId });
    expect(t.state).toBe('pending');
    expect(Number(t.pending_edges)).toBeGreaterThan(0);
    const hashes = await traceTxs(traceId);
    const r = await bc(`trace_id=${traceId}`);
    expect(r.status).toBe(200);
    expect(checkAgainstState(view, hashes, exactInts(r.text, 'changes'))).toBe(3);
  });

  it('action_id: the action\'s transactions without its earliest when an internal message started it', async () => {
    const traceId = '499a41c7858222e2ba8a815abb75a4d136a7c011f93d458d622d3485def66e24';
    const view = views.get(BLOCKS[0])!;
    const actions = await f.store.query<{ action_id: string; tx_hashes: string[] }>(
      'SELECT action_id, tx_hashes FROM actions FINAL WHERE trace_id = {t:FixedString(64)} ORDER BY action_id',
      { t: traceId },
    );
    expect(actions.length).toBeGreaterThan(0);
    let internalStarted = 0;
    for (const a of actions) {
      const sorted = [...a.tx_hashes].sort((x, y) => (view.txs.get(x)!.lt < view.txs.get(y)!.lt ? -1 : 1));
      const first = view.txs.get(sorted[0])!;
      const scope = first.inMessage?.info.type === 'internal' ? sorted.slice(1) : sorted;
      if (scope.length < sorted.length) internalStarted++;
      const r = await bc(`action_id=${b64(a.action_id)}`);
      expect(r.status).toBe(200);
      const exp = expectedFromCells(view, scope);
      expect(exactInts(r.text, 'fees')).toEqual(exp.fees);
      expect(exactInts(r.text, 'changes')).toEqual(exp.changes);
    }
    expect(internalStarted).toBeGreaterThan(0);
  });

  it('unknown ids are 404; missing, doubled, malformed or unknown parameters are 422 naming them', async () => {
    const zero = '0'.repeat(64);
    expect(await get(f.app, `/api/v3/balanceChanges?trace_id=${zero}`)).toMatchObject({ status: 404, body: { code: 404, error: 'trace_id not found' } });
    expect(await get(f.app, `/api/v3/balanceChanges?action_id=${zero}`)).toMatchObject({ status: 404, body: { error: 'action_id not found' } });
    expect(await get(f.app, '/api/v3/balanceChanges')).toMatchObject({ status: 422, body: { error: 'trace_id or action_id is required' } });
    expect(await get(f.app, `/api/v3/balanceChanges?trace_id=${zero}&action_id=${zero}`)).toMatchObject({ status: 422, body: { error: 'only one of trace_id, action_id should be specified' } });
    const bad = await get(f.app, '/api/v3/balanceChanges?trace_id=nothash');
    expect(bad.status).toBe(422);
    expect(bad.body.error).toMatch(/^invalid trace_id: /);
    const unk = await get(f.app, `/api/v3/balanceChanges?traceid=${zero}`);
    expect(unk.status).toBe(422);
    expect(unk.body.error).toMatch(/unknown parameter: "traceid"/);
  });
});

describe('computeBalanceChanges (pure)', () => {
  const A = '0:' + 'A'.repeat(64);
  const B = '0:' + 'B'.repeat(64);
  const C = '0:' + 'C'.repeat(64);
  // A sends 5 TON to B (fwd 10) and 1 TON to C still in flight (fwd 7); B answers A with 2 TON (fwd 3)
  const txs: BcTransaction[] = [
    { hash: 'a1', account: A, lt: 1n, totalFees: 100n, inMsg: { hash: 'ext', type: 'ext_in', source: null, destination: A, value: null, fwdFee: null },
      outMsgs: [{ hash: 'm1', type: 'int', source: A, destination: B, value: 5_000_000_000n, fwdFee: 10n }, { hash: 'm2', type: 'int', source: A, destination: C, value: 1_000_000_000n, fwdFee: 7n },
        { hash: 'log', type: 'ext_out', source: A, destination: null, value: null, fwdFee: null }] },
    { hash: 'b1', account: B, lt: 2n, totalFees: 50n, inMsg: { hash: 'm1', type: 'int', source: A, destination: B, value: 5_000_000_000n, fwdFee: 10n },
      outMsgs: [{ hash: 'm3', type: 'int', source: B, destination: A, value: 2_000_000_000n, fwdFee: 3n }] },
    { hash: 'a2', account: A, lt: 3n, totalFees: 20n, inMsg: { hash: 'm3', type: 'int', source: B, destination: A, value: 2_000_000_000n, fwdFee: 3n }, outMsgs: [] },
  ];

  it('trace: fees inside changes, in-flight value and fee on the sender, ext-out free', () => {
    const r = computeBalanceChanges(txs, []);
    expect(Object.fromEntries(r.fees)).toEqual({ [A]: 100n + 10n + 7n + 20n, [B]: 50n + 3n });
    expect(Object.fromEntries(r.changes)).toEqual({ [A]: -5_000_000_000n - 1_000_000_000n + 2_000_000_000n - 137n, [B]: 3_000_000_000n - 53n });
  });

  it('action scope drops an internally started first transaction; jettons: aborted ignored, burns debit', () => {
    expect([...actionScope(txs, ['b1', 'a2'])]).toEqual(['a2']);
    expect([...actionScope(txs, ['a1', 'b1'])]).toEqual(['a1', 'b1']);
    const M = '0:' + 'D'.repeat(64);
    const r = computeBalanceChanges(txs, [
      { txHash: 'b1', master: M, from: A, to: B, amount: 7n, aborted: false },
      { txHash: 'b1', master: M, from: A, to: C, amount: 9n, aborted: true },
      { txHash: 'a2', master: M, from: B, to: null, amount: 2n, aborted: false },
    ], new Set(['b1', 'a2']));
    expect(Object.fromEntries([...r.jettons].map(([k, v]) => [k, Object.fromEntries(v)]))).toEqual({ [A]: { [M]: -7n }, [B]: { [M]: 5n } });
    expect(Object.fromEntries(r.fees)).toEqual({ [A]: 10n + 20n, [B]: 50n + 3n });
  });
});
