// The pipeline's trace context (src/traces/trace-context.ts) against independent sources:
// - toncenter's own classifier cases: the fixtures are JSON only (no blocks), so the pipeline-side inputs are built
//   from the JSON itself: its transactions through the same adapter (interfaces stripped), and the store rows the
//   pipeline would hold for its accounts (jetton_wallets / nft_items / nft_sales / latest_account_states, made from
//   the JSON's interface records and data_boc) in a real chdb store; the context is then loaded by the real
//   queries and the actions are checked against the cases' expected results (toncenter's YAML);
// - real blocks through processMcBatch on chdb: jetton transfers get their owner and jetton from the block's own
//   account data, checked with an independent @ton/core reader of the block's Merkle state update.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Address, beginCell, Cell, Dictionary, loadMessage, loadShardAccount, loadTransaction, type Slice } from '@ton/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseJsonExact, traceFromToncenterJson } from '../../src/actions/adapters/toncenter-json.ts';
import { classifyTrace } from '../../src/actions/classify.ts';
import { checkEntry, Mismatch } from '../actions/conformance/check.ts';
import { comparableBlock, comparableRow, loadCases, traceFile, type ConformanceCase } from '../actions/conformance/runner.ts';
import { KNOWN_GAPS, PIPELINE_GAPS } from '../actions/known-gaps.ts';
import type { ActionRow, Trace } from '../../src/actions/model.ts';
import { encodeJsonLines, fillKvFromStore, type StoreClient } from '../../src/store/client/index.ts';
import { type Row } from '../../src/util/index.ts';
import { decodeBlock, type DecodedBlock } from '../../src/ton/index.ts';
import { TraceAssembler } from '../../src/traces/assembler.ts';
import { processMcBatch, writeMcBatch } from '../../src/traces/stage.ts';
import { assembleBatch } from '../../src/traces/step.ts';
import { recordQueries, tempStore } from '../helpers/store.ts';
import { addr, buildTrace } from '../actions/trace-builder.ts';
import { bodyAddresses, traceAddresses, traceMessages } from '../../src/traces/addresses.ts';
import { loadTraceContext, prefetchTraceContext } from '../../src/traces/read-context.ts';
import { emptyTraceContext, traceContext, type TraceContextSource } from '../../src/traces/records.ts';

const FIX = join(import.meta.dirname, '../fixtures');
const TC_DIR = join(FIX, 'traces/toncenter-indexer/');

type J = Record<string, unknown>;
const json = (text: string) => parseJsonExact(text) as J;
const up = (v: unknown) => (typeof v === 'string' ? v.toUpperCase() : null);
const str = (v: unknown) => (v === null || v === undefined ? null : typeof v === 'number' ? BigInt(v).toString() : String(v));

// ---------------------------------------------------------------- toncenter's cases, the pipeline way

/** The store rows the pipeline would hold for the accounts a toncenter trace document describes. */
function storeRowsOf(doc: J): Record<string, Row[]> {
  const out: Record<string, Row[]> = { jetton_wallets: [], nft_items: [], nft_sales: [], latest_account_states: [] };
  const zero = '0'.repeat(64);
  for (const [addr, rec] of Object.entries((doc.interfaces ?? {}) as Record<string, J>)) {
    const a = addr.toUpperCase();
    const jw = rec.JettonWallet as J | undefined;
    if (jw) out.jetton_wallets.push({ address: a, balance: str(jw.balance) ?? '0', owner: up(jw.owner), jetton: up(jw.jetton), last_transaction_lt: 0 });
    const nft = rec.NftItem as J | undefined;
    if (nft) {
      out.nft_items.push({
        address: a, init: Boolean(nft.init), index: str(nft.index) ?? '0', collection_address: up(nft.collection_address),
        owner_address: up(nft.owner_address), real_owner: up(nft.owner_address), content: '', last_transaction_lt: 0, code_hash: zero, data_hash: zero,
      });
    }
    const sale = rec.NftSale as J | undefined;
    if (sale) {
      // as src/entities/nft-sales.ts writes a getgems fixed-price sale
      out.nft_sales.push({
        address: a, type: 'getgems_sale', nft_address: up(sale.nft_address), nft_owner_address: up(sale.nft_owner_address),
        marketplace_address: up(sale.marketplace_address), created_at: null,
        details: JSON.stringify({ is_complete: Boolean(sale.is_complete), full_price: str(sale.full_price) }), last_transaction_lt: 0, code_hash: zero, data_hash: zero,
      });
    }
    const db = rec.data_boc as J | undefined;
    if (db && typeof db.data_boc === 'string') {
      out.latest_account_states.push({ account: a, hash: zero, balance: 0, account_status: 'active', timestamp: 0, last_trans_hash: zero, last_trans_lt: 0, data_boc: db.data_boc });
    } else if (rec.DedustPool) {
      // a DeDust pool: its state (no data: a block after the deploy prunes it) with DeDust's mainnet pool code, the
      // code test/fixtures/codes holds; its assets must then come from the chain: the pool's swap events
      out.latest_account_states.push({ account: a, hash: zero, balance: 0, account_status: 'active', timestamp: 0, last_trans_hash: zero, last_trans_lt: 0, code_hash: DEDUST_POOL_CODE.hash().toString('hex'), data_boc: null });
    }
  }
  return out;
}

/** DeDust's v1 pool code (mainnet, test/fixtures/codes; the code of pool 0:3E5FFCA8…, block 71398501). */
const DEDUST_POOL_CODE = Cell.fromBoc(readFileSync(join(FIX, 'codes/mainnet-state-dedust-pool.mainnet-state.boc')))[0];

/** Rows written by SQL; they reach the key-value store (src/kv, where the context reads states) as an upgraded store's do. */
async function insert(store: StoreClient, table: string, rows: Row[]): Promise<void> {
  if (rows.length === 0) return;
  await store.insertFormatted(table, encodeJsonLines(rows), 'JSONEachRow');
  if (store.kv) await fillKvFromStore(store, store.kv, { tables: [table] });
}

/** The case's expectations (toncenter's YAML) against a classification; the mismatches. */
function failures(c: ConformanceCase, trace: Trace): string[] {
  const res = classifyTrace(trace);
  const actions = res.actions.map(comparableRow);
  const blocks = res.blocks.map(comparableBlock);
  const out: string[] = [];
  const check = (kind: 'block' | 'action', entries: ConformanceCase['expectedBlocks'], items: Record<string, unknown>[], typeOf: (x: unknown) => string) => {
    for (const e of entries) {
      try {
        checkEntry(kind, e, items, typeOf);
      } catch (err) {
        if (!(err instanceof Mismatch)) throw err;
        out.push(err.message);
      }
    }
  };
  check('block', c.expectedBlocks, blocks, (x) => String((x as { btype: string }).btype));
  check('action', c.expectedActions, actions, (x) => String((x as { type: string }).type));
  return out;
}

const show = (rows: ActionRow[]) => JSON.stringify(rows.map(comparableRow), (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));

describe('toncenter classifier cases through the pipeline context (chdb)', () => {
  const cases = loadCases(TC_DIR);
  const docs = new Map<string, J>();
  const ref = tempStore('tg-trace-context-');
  let store: StoreClient;

  beforeAll(async () => {
    for (const c of cases) docs.set(c.traceId, json(readFileSync(traceFile(TC_DIR, c.traceId), 'utf8')));
    store = ref.store;
    const all: Record<string, Row[]> = {};
    for (const doc of docs.values()) for (const [t, rows] of Object.entries(storeRowsOf(doc))) (all[t] ??= []).push(...rows);
    for (const [t, rows] of Object.entries(all)) await insert(store, t, rows);
    await insert(store, 'contract_code', [{ code_hash: DEDUST_POOL_CODE.hash().toString('hex'), code_boc: DEDUST_POOL_CODE.toBoc().toString('base64') }]);
    // no DeDust pool list (utils/dedust_pools.py: classifyTrace is given none here): the pipeline reads the pools'
    // assets from the chain
  }, 120_000);

  /** The trace as the pipeline would classify it: the JSON's transactions, the context from the store. */
  async function pipelineTrace(c: ConformanceCase): Promise<Trace> {
    const stripped = { ...traceFromToncenterJson(docs.get(c.traceId)), interfaces: undefined };
    const src = await loadTraceContext(ref.traces, { addresses: traceAddresses(stripped.transactions), states: [], messages: traceMessages(stripped.transactions) });
    return { ...stripped, ...traceContext(stripped, src) };
  }

  it('runs every case', () => expect(cases.length).toBe(72));

  for (const c of cases) {
    // cases of families not ported yet on the new classifier engine fail as the conformance suite's do
    const test = KNOWN_GAPS.has(`${c.file}: ${c.name}`) || PIPELINE_GAPS.has(`${c.file}: ${c.name}`) ? it.fails : it;
    test(`${c.file}: ${c.name}`, async () => {
      const trace = await pipelineTrace(c);
      expect(failures(c, trace)).toEqual([]);
      // and the very actions the conformance path (toncenter's interface records) gives
      const reference = classifyTrace(traceFromToncenterJson(docs.get(c.traceId))).actions;
      expect(show(classifyTrace(trace).actions)).toBe(show(reference));
    });
  }

  it('one prefetch for every case gives each case the same context, with no further reads of the context tables', async () => {
    const traces = cases.map((c) => ({ ...traceFromToncenterJson(docs.get(c.traceId)), interfaces: undefined }));
    const every = new Set<string>();
    for (const t of traces) for (const a of traceAddresses(t.transactions)) every.add(a);
    const prefetched = await prefetchTraceContext(ref.traces, every);
    expect(prefetched.jettonWallets.size + prefetched.nftItems.size + prefetched.sales.size).toBeGreaterThan(10);
    const dump = (ctx: TraceContextSource) =>
      JSON.stringify([ctx.states, ctx.jettonWallets, ctx.nftItems, ctx.sales].map((m) => [...m].sort()), (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
    const asked: string[] = [];
    for (const t of traces) {
      const addresses = traceAddresses(t.transactions);
      const plain = await loadTraceContext(ref.traces, { addresses, states: [] });
      const rec = recordQueries(store);
      const pre = await loadTraceContext(ref.traces, { addresses, states: [], prefetched }).finally(() => rec.restore());
      asked.push(...rec.sql);
      expect(dump(pre)).toBe(dump(plain));
      expect(show(classifyTrace({ ...t, ...traceContext(t, pre) }).actions)).toBe(show(classifyTrace({ ...t, ...traceContext(t, plain) }).actions));
    }
    expect(asked.filter((q) => /latest_account_states|jetton_wallets|nft_items|nft_sales/.test(q))).toEqual([]);
  });

  it('without the context the interface-dependent cases fail (the check can fail)', () => {
    const failing = cases.filter((c) => {
      const t = { ...traceFromToncenterJson(docs.get(c.traceId)), interfaces: undefined };
      return failures(c, { ...t, ...traceContext(t, emptyTraceContext()) }).length > 0;
    });
    const names = failing.map((c) => c.name);
    for (const n of ['Deposit', 'Tonco deposit liquidity (normal)', 'Failed jetton transfer (external only)', 'Getgems purchase', 'Unstake (with referrals)']) {
      expect(names).toContain(n);
    }
  });

  it('a refused jVault unstake: the pool and its lock wallet come from the stake wallet\'s data, though no transaction or message of the trace names them', async () => {
    const c = cases.find((x) => x.file === 'jvault.yaml' && x.name === 'Unstake (failed)')!;
    const doc = docs.get(c.traceId)!;
    const t = traceFromToncenterJson(doc);
    const named = traceAddresses(t.transactions);
    const trace = await pipelineTrace(c);
    // toncenter's records: the stake wallet's data_boc names the pool; the pool's names the lock wallet
    const recs = doc.interfaces as Record<string, J>;
    const pool = up(((Object.values(recs).find((r) => (r.data_boc as J | undefined)?.pool) as J).data_boc as J).pool)!;
    const lock = Object.entries(recs).find(([, r]) => up((r.JettonWallet as J | undefined)?.owner) === pool)![0].toUpperCase();
    expect(named.has(pool) || named.has(lock)).toBe(false);
    expect(trace.interfaces![pool].raw!.data_boc).toEqual({ account: pool, request: 'data_boc', data_boc: (recs[pool].data_boc as J).data_boc });
    expect(trace.interfaces![lock].jettonWallet).toMatchObject({ owner: pool, jetton: up((recs[lock].JettonWallet as J).jetton) });
  });

  it('finds the accounts named only inside message bodies (toncenter: extract_additional_addresses)', () => {
    // each of these traces has interface records for accounts that are neither a transaction's account nor a
    // message's end: the intended jetton transfer of a failed wallet external, TONCO's target / other wallets
    let checked = 0;
    for (const name of ['Failed jetton transfer (external only)', 'Tonco swap TON -> USDT failed', 'Tonco deposit liquidity one side TON (strange case)']) {
      const c = cases.find((x) => x.name === name)!;
      const t = traceFromToncenterJson(docs.get(c.traceId));
      const ends = new Set<string>();
      for (const tx of t.transactions) {
        ends.add(tx.account);
        for (const m of [tx.inMsg, ...tx.outMsgs]) for (const a of [m?.source, m?.destination]) if (a) ends.add(a);
      }
      const named = traceAddresses(t.transactions);
      for (const [a, rec] of Object.entries(t.interfaces ?? {})) {
        if (ends.has(a) || !Object.keys(rec.raw ?? {}).length) continue;
        expect(named.has(a), `${name}: ${a}`).toBe(true);
        checked++;
      }
    }
    expect(checked).toBe(3);
  });
});

describe('bodyAddresses', () => {
  it('reads the addresses of a real body, in its refs too', () => {
    // a TEP-74 transfer from the fixtures (test/fixtures/msgs) whose forward payload, in a ref, is a STON.fi v2
    // swap naming the wallet the pool pays out from (what toncenter's extract_target_wallet_stonfi_v2_swap takes)
    const file = readdirSync(join(FIX, 'msgs')).find((f) => f.startsWith('mainnet-jetton-transfer-in-msg-lt76734069000003'))!;
    const body = loadMessage(Cell.fromBoc(readFileSync(join(FIX, 'msgs', file)))[0].beginParse()).body;
    const raw = (s: Slice) => s.loadAddress().toRawString().toUpperCase();
    const b = body.beginParse();
    expect(b.loadUint(32)).toBe(0x0f8a7ea5); // transfer query_id amount destination response_destination custom_payload forward_ton_amount forward_payload
    b.loadUintBig(64);
    b.loadCoins();
    const destination = raw(b);
    const response = raw(b);
    expect(b.loadMaybeRef()).toBeNull();
    b.loadCoins();
    expect(b.loadBit()).toBe(true); // forward_payload in a ref
    const p = b.loadRef().beginParse();
    expect(p.loadUint(32)).toBe(0x6664de2a); // STON.fi v2 swap token_wallet1 refund_address excesses_address ...
    const targetWallet = raw(p);
    const found = bodyAddresses(body.toBoc().toString('base64'));
    for (const a of [destination, response, targetWallet]) expect(found.has(a), a).toBe(true);
    // a 267-bit window inside other data can look like an address too: an extra lookup that finds nothing
    expect(found.size).toBeLessThanOrEqual(5);
  });

  it('finds what an independent @ton/core walk finds, over 400 bodies of the fixture blocks', () => {
    // the oracle: breadth first over @ton/core cells (each once, ordinary only, 64 at most), every bit offset
    // tried as addr_std$10 anycast$0 workchain (0 or -1) address:bits256
    const oracle = (boc: string) => {
      const out = new Set<string>();
      const queue = [Cell.fromBase64(boc)];
      const seen = new Set<Cell>();
      for (let i = 0; i < queue.length && seen.size < 64; i++) {
        const c = queue[i];
        if (seen.has(c) || c.isExotic) continue;
        seen.add(c);
        queue.push(...c.refs);
        for (let at = 0; at + 267 <= c.bits.length; at++) {
          const s = c.beginParse().skip(at);
          if (s.loadUint(3) !== 0b100) continue;
          const wc = s.loadUint(8);
          if (wc !== 0 && wc !== 255) continue;
          out.add(`${wc === 0 ? 0 : -1}:${s.loadBuffer(32).toString('hex').toUpperCase()}`);
        }
      }
      return out;
    };
    let bodies = 0, found = 0;
    // full blocks only (some fixtures are pruned block proofs)
    const full = readdirSync(join(FIX, 'blocks/mainnet')).filter((f) => /-wc0-/.test(f));
    for (const f of full) {
      for (const tx of decodeBlock(readFileSync(join(FIX, 'blocks/mainnet', f))).transactions) {
        for (const m of [tx.in_msg, ...tx.out_msgs]) {
          if (!m?.body_boc || bodies >= 400) continue;
          const want = oracle(m.body_boc);
          expect([...bodyAddresses(m.body_boc)].sort(), m.body_boc).toEqual([...want].sort());
          bodies++;
          found += want.size;
        }
      }
    }
    expect(bodies).toBe(400);
    expect(found).toBeGreaterThan(50);
  });
});

// ---------------------------------------------------------------- real blocks through the stage

const BLOCK = 'mainnet-wc0-8000000000000000-71398501.boc';
const blockBytes = () => readFileSync(join(FIX, 'blocks/mainnet', BLOCK));

const lenBits = (m: number) => Math.ceil(Math.log2(m + 1));

/** HmLabel ~l m (block.tlb hml_short / hml_long / hml_same) as a 0/1 string. */
function loadLabel(s: Slice, m: number): string {
  const bits = (n: number) => Array.from({ length: n }, () => (s.loadBit() ? '1' : '0')).join('');
  if (!s.loadBit()) {
    let n = 0;
    while (s.loadBit()) n++;
    return bits(n);
  }
  if (!s.loadBit()) return bits(s.loadUint(lenBits(m)));
  const v = s.loadBit() ? '1' : '0';
  return v.repeat(s.loadUint(lenBits(m)));
}

/**
 * An account's data cell after the block, read independently of src/: block#11ef55aa's `state_update` is a
 * MERKLE_UPDATE whose second ref is the new ShardStateUnsplit; its second ref `accounts` is
 * HashmapAugE 256 ShardAccount DepthBalanceInfo; a leaf is `extra:DepthBalanceInfo value:ShardAccount`.
 */
function dataAfterBlock(block: Cell, account: string): Cell | null {
  const accounts = block.refs[2].refs[1].refs[1].beginParse(true);
  if (!accounts.loadBit()) return null;
  let cell = accounts.loadRef();
  const key = BigInt('0x' + account.split(':')[1]).toString(2).padStart(256, '0');
  let pos = 0;
  for (;;) {
    if (cell.isExotic) return null;
    const s = cell.beginParse(true);
    const label = loadLabel(s, 256 - pos);
    if (key.slice(pos, pos + label.length) !== label) return null;
    pos += label.length;
    if (pos === 256) {
      s.skip(5); // split_depth:(#<= 30)
      s.loadCoins(); // balance:CurrencyCollection
      s.loadMaybeRef();
      const st = loadShardAccount(s).account?.storage.state;
      return st?.type === 'active' ? (st.state.data ?? null) : null;
    }
    cell = cell.refs[key[pos] === '0' ? 0 : 1];
    pos += 1;
  }
}

/** TEP-74 wallet data (`balance owner master ^code`, or the stablecoin `status:uint4 balance owner master`). */
function walletOwnerAndMaster(data: Cell): { owner: string; master: string } {
  const s = data.beginParse(true);
  if (data.refs.length === 0) s.skip(4);
  s.loadCoins();
  return { owner: s.loadAddress().toRawString().toUpperCase(), master: s.loadAddress().toRawString().toUpperCase() };
}

/** The TEP-74 transfer a wallet received in a transaction of the block (amount, from the transaction cell). */
function transferAmount(block: Cell, txHash: string): bigint {
  const byHash = new Map<string, Cell>();
  const walk = (c: Cell) => {
    const h = c.hash().toString('hex');
    if (byHash.has(h)) return;
    byHash.set(h, c);
    for (const r of c.refs) walk(r);
  };
  walk(block);
  const tx = loadTransaction(byHash.get(txHash)!.beginParse());
  const body = tx.inMessage!.body.beginParse();
  expect(body.loadUint(32)).toBe(0x0f8a7ea5);
  body.loadUintBig(64);
  return body.loadCoins();
}

describe('processMcBatch over a real block (chdb): jetton transfers get owner and jetton from the block', () => {
  const ref = tempStore('tg-trace-context-block-');
  let store: StoreClient;
  let decoded: DecodedBlock;
  beforeAll(() => {
    store = ref.store;
    decoded = decodeBlock(blockBytes());
  });

  it('classifies jetton_transfer with the sending wallet’s owner and master, as its data in the block says', async () => {
    const root = Cell.fromBoc(blockBytes())[0];
    const asm = new TraceAssembler();
    const out = await processMcBatch(ref.traces, asm, 700, [decoded]);
    const transfers = out.actions.filter((a) => a.type === 'jetton_transfer');
    expect(transfers.length).toBeGreaterThanOrEqual(4);
    for (const a of transfers) {
      const data = dataAfterBlock(root, a.source_secondary!);
      expect(data, a.source_secondary!).not.toBeNull();
      const w = walletOwnerAndMaster(data!);
      expect(a.source).toBe(w.owner);
      expect(a.asset).toBe(w.master);
      // the transfer's first transaction is the sending wallet's: its in-message is the transfer
      expect(a.amount).toBe(transferAmount(root, a.tx_hashes.find((h) => decoded.transactions.find((t) => t.hash === h)?.account === a.source_secondary)!));
    }
    // the same traces without the context: no jetton transfer is recognised (what the context adds)
    const bare = assembleBatch(new TraceAssembler(), 700, decoded.transactions);
    expect(bare.actions.filter((a) => a.type === 'jetton_transfer')).toEqual([]);

    // written and read back as the API reads them
    await writeMcBatch(ref.traces, asm, 700, out);
    const rows = await store.query<{ source: string; asset: string; source_secondary: string }>(
      "SELECT source, asset, source_secondary FROM actions FINAL WHERE type = 'jetton_transfer' ORDER BY source_secondary, source",
    );
    expect(rows.map((r) => [r.source_secondary, r.source, r.asset]).sort()).toEqual(transfers.map((a) => [a.source_secondary, a.source, a.asset]).sort());
  });
});

describe('processMcBatch over real blocks (chdb): NFT transfers get the item’s collection and index from the block', () => {
  const ref = tempStore('tg-trace-context-nft-');

  it('TEP-62 items (index:uint64) and a .ton DNS item (index:uint256, dns-contract)', async () => {
    // mainnet .ton DNS root (ton-blockchain/dns-contract; also src/entities/dns.ts DOT_TON_ROOTS)
    const DOT_TON = '0:B774D95EB20543F186C06B371AB88AD704F7E256130CAF96189368A7D0CB6CCF';
    let checked = 0;
    let dns = 0;
    let mc = 900;
    for (const file of ['mainnet-wc0-8000000000000000-27159537.boc', 'mainnet-wc0-8000000000000000-34703989.boc']) {
      const bytes = readFileSync(join(FIX, 'blocks/mainnet', file));
      const root = Cell.fromBoc(bytes)[0];
      const out = await processMcBatch(ref.traces, new TraceAssembler(), mc++, [decodeBlock(bytes)]);
      for (const a of out.actions.filter((x) => x.type === 'nft_transfer')) {
        const data = dataAfterBlock(root, a.asset_secondary!);
        expect(data, a.asset_secondary!).not.toBeNull();
        // TEP-62 nft-item: index:uint64 collection owner ^content; dns-contract: index:uint256 collection owner ^content ^domain ...
        const s = data!.beginParse(true);
        const std = data!.bits.length === 64 + 267 + 267;
        const index = s.loadUintBig(std ? 64 : 256);
        const collection = s.loadAddress().toRawString().toUpperCase();
        expect(a.asset).toBe(collection);
        expect((a.nft_transfer_data as { nft_item_index: bigint | null }).nft_item_index).toBe(index);
        if (!std) {
          expect(collection).toBe(DOT_TON);
          dns++;
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(4);
    expect(dns).toBeGreaterThanOrEqual(1);
  });
});

describe('a jetton transfer trace cut across two masterchain batches (chdb)', () => {
  const ref = tempStore('tg-trace-context-cut-');

  it('gets the context of the accounts the first batch saw: from the open trace and the states folded before', async () => {
    const root = Cell.fromBoc(blockBytes())[0];
    const block = decodeBlock(blockBytes());
    // a plain USDT transfer of the block (the transfers before it in lt order are DEX swaps): the TEP-74 transfer
    // its sending wallet receives; the trace is cut right after that transaction
    const walletTx = block.transactions.find((t) => t.hash === '93d125127f7d610e8911ab59e84701eafd5462f70d149ecbcebcb8040c0b5afe')!;
    expect(walletTx.in_msg!.opcode! >>> 0).toBe(0x0f8a7ea5);
    const wallet = walletTx.account;
    const first: DecodedBlock = { ...block, transactions: block.transactions.filter((t) => t.lt <= walletTx.lt) };
    // the second batch carries no account state: the wallet's data must come from what the first batch folded
    const second: DecodedBlock = { ...block, transactions: block.transactions.filter((t) => t.lt > walletTx.lt), account_states: [] };

    const asm = new TraceAssembler();
    const a = await processMcBatch(ref.traces, asm, 801, [first]);
    expect(a.actions.find((x) => x.tx_hashes.includes(walletTx.hash))).toBeUndefined(); // still in flight
    // the open trace the second batch continues: the owner's external and the wallet's transfer
    const continued = asm.continuedBy(second.transactions).map((t) => t.hash);
    expect(continued).toContain(walletTx.hash);
    const owner = block.transactions.find((t) => t.out_msgs.some((m) => m.msg_hash === walletTx.in_msg!.msg_hash))!;
    expect(continued).toContain(owner.hash);
    const b = await processMcBatch(ref.traces, asm, 802, [second]);
    const t = b.actions.find((x) => x.type === 'jetton_transfer' && x.source_secondary === wallet);
    expect(t).toBeDefined();
    const w = walletOwnerAndMaster(dataAfterBlock(root, wallet)!);
    expect([t!.source, t!.asset]).toEqual([w.owner, w.master]);
    expect(t!.tx_hashes).toContain(walletTx.hash);
  });
});

describe('multisig orders and GetGems auctions in the pipeline context (chdb)', () => {
  const ref = tempStore('tg-trace-context-multisig-');
  const ORDER_CODE_HASH = 'a01e057fbd4288402b9898d78d67bd4e90254c93c5866879bc2d1d12865436bc'; // src/entities/interfaces.ts
  const SIGNER = addr(0, 'a1'), OTHER = addr(0, 'a2'), ORDER = addr(0, 'b1'), ORDER2 = addr(0, 'b2'), MULTISIG = addr(0, 'c1');
  const zero = '0'.repeat(64);
  const APPROVE = beginCell().storeUint(0xa762230f, 32).storeUint(1, 64).storeUint(0, 8).endCell();
  const ACCEPTED = beginCell().storeUint(0x82609bf6, 32).storeUint(1, 64).endCell();
  const approveTrace = (order: string) => buildTrace({ account: SIGNER, from: null, out: [{ account: order, from: SIGNER, body: APPROVE, out: [{ account: SIGNER, from: order, body: ACCEPTED }] }] });

  /** order.func data: multisig order_seqno:uint256 threshold executed? ^signers approvals_mask approvals_num expiration ^order */
  function orderData(signers: string[]): string {
    const d = Dictionary.empty(Dictionary.Keys.Uint(8), Dictionary.Values.Address());
    signers.forEach((s, i) => d.set(i, Address.parseRaw(s)));
    return beginCell().storeAddress(Address.parseRaw(MULTISIG)).storeUint(3, 256).storeUint(2, 8).storeBit(false).storeRef(beginCell().storeDictDirect(d)).storeUint(1, 256).storeUint(1, 8).storeUint(1_800_000_000, 48)
      .storeRef(beginCell().endCell()).endCell().toBoc().toString('base64');
  }
  const state = (account: string, dataBoc: string | null) => ({ account, hash: zero, balance: 0, account_status: 'active', timestamp: 0, last_trans_hash: zero, last_trans_lt: 0, code_hash: ORDER_CODE_HASH, data_boc: dataBoc });

  beforeAll(async () => {
    await insert(ref.store, 'latest_account_states', [state(ORDER, null), state(ORDER2, orderData([SIGNER, OTHER]))]);
    await insert(ref.store, 'multisig_orders', [{ address: ORDER, multisig_address: MULTISIG, signers: [SIGNER, OTHER], last_transaction_lt: 0, code_hash: zero, data_hash: zero }]);
  });

  async function classified(trace: Trace) {
    const src = await loadTraceContext(ref.traces, { addresses: traceAddresses(trace.transactions), states: [] });
    return classifyTrace({ ...trace, ...traceContext(trace, src) }).actions;
  }

  it('an order the store knows: MultisigOrder from multisig_orders, its signers among the approval\'s accounts', async () => {
    const a = (await classified(approveTrace(ORDER))).find((x) => x.type === 'multisig_approve')!;
    expect(a).toBeDefined();
    expect(a.accounts).toEqual(expect.arrayContaining([SIGNER, OTHER, ORDER]));
  });

  it('an order without a row: the signers read from its state\'s data; not an order: nothing asked, no approval', async () => {
    const a = (await classified(approveTrace(ORDER2))).find((x) => x.type === 'multisig_approve')!;
    expect(a.accounts).toEqual(expect.arrayContaining([SIGNER, OTHER, ORDER2]));
    const rec = recordQueries(ref.store);
    const none = await classified(approveTrace(addr(0, 'b3')));
    rec.restore();
    expect(none.map((x) => x.type)).not.toContain('multisig_approve');
    expect(rec.sql.filter((q) => /multisig_orders/.test(q))).toEqual([]);
  });

  it('a GetGems auction row: NftAuction with toncenter\'s field names', () => {
    const sales = new Map([[ORDER, { type: 'getgems_auction' as const, nftAddress: OTHER, nftOwner: SIGNER, marketplace: MULTISIG, details: { last_bid: '5', mp_fee_address: ORDER2, royalty_fee_address: SIGNER } }]]);
    const ctx = traceContext(approveTrace(ORDER), { ...emptyTraceContext(), sales });
    expect(ctx.interfaces![ORDER].raw!.NftAuction).toMatchObject({ nft_addr: OTHER, nft_owner: SIGNER, mp_addr: MULTISIG, last_bid: '5', mp_fee_addr: ORDER2, royalty_fee_addr: SIGNER });
  });
});
