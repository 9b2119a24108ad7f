/**
 * What a devnet run must have stored: every block and transaction of chain.json exactly once (FINAL and uniqExact),
 * the right masterchain seqnos, traces and actions consistent with the chain. Shared by the embedded pipeline tests
 * (devnet.test.ts) and the split-layout tests (split.test.ts).
 */
import { expect } from 'vitest';
import type { ChainJson } from '../../src/devnet/chain/index.ts';
import { kvListReads, kvPointReads } from '../../src/kv/index.ts';
import { duplicateReport, type StoreClient, type TableDuplicates } from '../../src/store/client/index.ts';
import { parseTxDoc } from '../../src/decode/index.ts';

export type DevnetChain = { blocks: ChainJson['blocks']; transactions: { hash: string }[]; in_flight: { hash: string; external: boolean }[] };

/** The masterchain seqno that commits each block: chain.json lists each mc block after the shard blocks it commits. */
function expectedMcSeqno(chainJson: DevnetChain): Map<string, number> {
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

export async function checkStore(store: StoreClient, chainJson: DevnetChain): Promise<void> {
  const blocks = await storedBlocks(store);
  const expected = expectedMcSeqno(chainJson);
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
  await checkTraces(store, chainJson);
}

/** The traces stage: every transaction in exactly one trace; what is in flight at the tip is pending, the rest complete. */
async function checkTraces(store: StoreClient, chainJson: DevnetChain): Promise<void> {
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
  if (store.kv && store.pointReads === 'kv') await checkKv(store, chainJson);
  else await checkRocksDbCopies(store, chainJson);
}

/** The RocksDB point-read tables (clickhouse/0012-0014: a store that keeps them) hold what their sources hold. */
async function checkRocksDbCopies(store: StoreClient, chainJson: DevnetChain): Promise<void> {
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

/**
 * The key-value store (src/kv: the embedded default, the RocksDB tables dropped by 0017) holds, visible through the
 * checkpoint, exactly what ClickHouse holds: a document per transaction with its trace id, each trace and its
 * transactions, each account's latest state, the facts of the entity tables; after the crashes and replays too.
 */
async function checkKv(store: StoreClient, chainJson: DevnetChain): Promise<void> {
  const kv = store.kv!;
  const [cp] = await store.query<{ mc: number }>("SELECT mc_seqno AS mc FROM checkpoints FINAL WHERE name = 'ingest'");
  const reads = kvPointReads(kv);
  const hashes = (await store.query<{ hash: string }>('SELECT DISTINCT hash FROM transactions')).map((r) => r.hash);
  expect([...kv.db.docs.getKeys({})].length).toBe(chainJson.transactions.length);
  if (!cp) {
    // a run without the checkpoint stage: every entry is stored, none visible
    expect(kv.visible()).toBe(0);
    expect(await reads.docs(hashes)).toEqual([]);
    return;
  }
  expect(kv.visible()).toBe(Number(cp.mc));
  const docs = (await reads.docs(hashes)).map(parseTxDoc);
  expect(docs.length).toBe(chainJson.transactions.length);
  const traceOf = new Map((await store.query<{ hash: string; trace_id: string }>('SELECT hash, trace_id FROM trace_transactions FINAL')).map((r) => [r.hash, r.trace_id]));
  expect(docs.filter((d) => d.tx.trace_id !== traceOf.get(String(d.tx.hash)))).toEqual([]);
  const traceRows = 'trace_id, toString(end_lt) AS end_lt, state, nodes, edges, pending_edges, classification_state';
  const traces = await store.query<Record<string, unknown>>(`SELECT ${traceRows} FROM traces FINAL ORDER BY trace_id`);
  const ids = traces.map((t) => String(t.trace_id));
  const pick = (r: Record<string, unknown>, cols: string[]) => Object.fromEntries(cols.map((c) => [c, String(r[c])]));
  const tcols = ['trace_id', 'end_lt', 'state', 'nodes', 'edges', 'pending_edges', 'classification_state'];
  expect((await reads.traces(ids)).map((t) => pick(t, tcols)).sort((a, b) => (a.trace_id < b.trace_id ? -1 : 1))).toEqual(traces.map((t) => pick(t, tcols)));
  const key = (t: { trace_id: string; lt: string; hash: string }) => `${t.trace_id} ${t.lt} ${t.hash}`;
  expect((await reads.traceTxs(ids)).map(key).sort()).toEqual(
    (await store.query<{ trace_id: string; lt: string; hash: string }>('SELECT DISTINCT trace_id, toString(lt) AS lt, hash FROM trace_transactions')).map(key).sort(),
  );
  const scols = ['account', 'last_trans_lt', 'hash', 'balance', 'code_hash'];
  const latest = await store.query<Record<string, unknown>>('SELECT account, last_trans_lt, hash, balance, code_hash FROM latest_account_states FINAL ORDER BY account');
  expect((await reads.latestStates(latest.map((r) => String(r.account)))).map((r) => pick(r, scols)).sort((a, b) => (a.account < b.account ? -1 : 1))).toEqual(
    latest.map((r) => pick(r, scols)),
  );
  for (const t of ['jetton_masters', 'jetton_wallets', 'nft_collections', 'nft_items', 'multisig', 'multisig_orders', 'vesting_contracts']) {
    const stored = (await store.query<{ address: string }>(`SELECT DISTINCT address FROM ${t} ORDER BY address`)).map((r) => r.address);
    const all = (await store.query<{ a: string }>('SELECT DISTINCT account AS a FROM transactions')).map((r) => r.a);
    expect((await reads.facts([...new Set([...all, ...stored])], [t])).map((f) => f.address).sort()).toEqual(stored);
  }
  await checkKvLists(store);
}

/** Each account's actions and traces in the key-value lists (src/kv/lists.ts) are exactly ClickHouse's, in the lists' order. */
async function checkKvLists(store: StoreClient): Promise<void> {
  const lists = kvListReads(store.kv!);
  const all = { dir: 'ASC' as const, limit: 1_000_000, offset: 0 };
  const byAccount = new Map<string, string[]>();
  for (const r of await store.query<{ account: string; action_id: string }>(
    'SELECT account, action_id FROM action_accounts FINAL ORDER BY account, trace_end_lt, trace_id, action_end_lt, action_id',
  )) {
    byAccount.set(r.account, [...(byAccount.get(r.account) ?? []), r.action_id]);
  }
  expect(byAccount.size).toBeGreaterThan(0);
  for (const [account, ids] of byAccount) {
    expect((await lists.actionsByAccount(account, { ...all, keep: () => true })).map((a) => a.action_id), account).toEqual(ids);
  }
  const endLt = new Map((await store.query<{ trace_id: string; end_lt: string }>('SELECT trace_id, toString(end_lt) AS end_lt FROM traces FINAL')).map((t) => [t.trace_id, BigInt(t.end_lt)]));
  const traced = await store.query<{ account: string; ids: string[] }>('SELECT account, groupUniqArray(trace_id) AS ids FROM transactions FINAL WHERE trace_id IS NOT NULL GROUP BY account');
  expect(traced.length).toBeGreaterThan(0);
  for (const { account, ids } of traced) {
    const order = (a: string, b: string) => (endLt.get(a)! !== endLt.get(b)! ? (endLt.get(a)! < endLt.get(b)! ? -1 : 1) : a < b ? -1 : 1);
    expect((await lists.tracesByAccount(account, all)).map((t) => t.trace_id), account).toEqual(ids.filter((id) => endLt.has(id)).sort(order));
  }
}

/** The traces stage's output tables compared between a split run and the embedded one. */
export const TRACES_TABLES = ['traces', 'trace_transactions', 'actions', 'action_accounts', 'jetton_transfers', 'jetton_burns', 'nft_transfers'] as const;

/** Every row (FINAL) of the traces stage's tables, each table's rows in one canonical order. */
export async function tracesSnapshot(store: StoreClient): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const t of TRACES_TABLES) out[t] = (await store.query<Record<string, unknown>>(`SELECT * FROM ${t} FINAL`)).map((r) => JSON.stringify(r)).sort();
  return out;
}

/**
 * Plain count() beside FINAL and uniqExact for the tables the store and traces stages write: exactness is checked on
 * FINAL / uniqExact; plain count() shows the physical duplicates a replay left (issue 20, finding 4, fixed in the
 * store writer's replay deduplication), reported rather than asserted here.
 */
export async function physicalCounts(store: StoreClient): Promise<Record<string, { plain: number; final: number }>> {
  const out: Record<string, { plain: number; final: number }> = {};
  for (const t of ['blocks', 'transactions', 'messages', 'account_states', 'traces', 'actions']) {
    const [r] = await store.query<{ plain: string; final: string }>(`SELECT (SELECT count() FROM ${t}) AS plain, (SELECT count() FROM ${t} FINAL) AS final`);
    out[t] = { plain: Number(r.plain), final: Number(r.final) };
  }
  return out;
}

/**
 * Rows several blocks may carry (bodies, account states): each writer stores them once, but a body another process
 * stored before a restart may be stored again until a merge (src/store/write/writer.ts MEMO_TABLES). Checked apart.
 */
export const CONTENT = ['message_contents', 'account_states', 'latest_account_states'];

/** Every table: no row twice; rows = FINAL without a version; the chain's blocks and transactions exactly once. */
export async function expectExactlyOnce(store: StoreClient, chain: { blocks: unknown[]; transactions: unknown[] }, opts: { content?: boolean } = {}): Promise<Record<string, TableDuplicates>> {
  const report = await duplicateReport(store);
  for (const [t, r] of Object.entries(report)) {
    if (CONTENT.includes(t) && !opts.content) continue;
    expect(r.duplicates, `${t}: rows written twice`).toBe(0);
    if (!r.versioned) expect(r.rows, `${t}: count() against count() FINAL`).toBe(r.final);
  }
  // plain SQL, as an analyst runs it
  const [n] = await store.query<{ tx: string; blocks: string; markers: string; traced: string }>(
    'SELECT (SELECT count() FROM transactions) AS tx, (SELECT count() FROM blocks) AS blocks, (SELECT count() FROM ingested_blocks) AS markers, (SELECT count() FROM trace_transactions) AS traced',
  );
  expect(n).toEqual({ tx: String(chain.transactions.length), blocks: String(chain.blocks.length), markers: String(chain.blocks.length), traced: String(chain.transactions.length) });
  // transactions and messages are versioned by trace_version: the traced rows alone, once each
  expect(report.transactions).toMatchObject({ rows: chain.transactions.length, final: chain.transactions.length });
  expect(report.messages.rows).toBe(report.messages.final);
  return report;
}
