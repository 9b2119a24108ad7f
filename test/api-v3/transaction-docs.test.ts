// Transaction documents (clickhouse/0012, src/decode/docs.ts): the API renders a transaction from its document
// exactly as from the flattened tables, on real mainnet blocks (a devnet chain: transaction-docs-devnet.test.ts); a transaction
// without a document (stored before 0012) still answers the same; a point read is no engine statement with the
// key-value store (src/kv) and one with ClickHouse's tables, and both answer the same.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MSG_FIELDS, STATE_FIELDS, TX_FIELDS } from '../../src/decode/docs.ts';
import { blockDocRows, blockToRows, parseTxDoc, PriorStates, statesBeforeRows } from '../../src/decode/index.ts';
import { type Row } from '../../src/util/index.ts';
import { type StoreClient } from '../../src/store/client/index.ts';
import { decodeBlock } from '../../src/ton/index.ts';
import { recordQueries } from '../helpers/store.ts';
import type { FastifyInstance } from 'fastify';
import { bothWays, docsOf, get, mainnetBlockFiles, withDocStatesBefore } from './helpers.ts';
import { seededFixture } from './seed.ts';

/**
 * Runs `fn` with the documents matching `where` moved aside, as a store written before 0012 has none; puts them back
 * after (rows of the key are deleted, then re-inserted).
 */
async function withoutDocs<T>(store: StoreClient, where: string, params: Record<string, unknown>, fn: () => Promise<T>): Promise<T> {
  await store.command('CREATE TABLE docs_aside ENGINE = Memory AS SELECT * FROM transaction_docs_kv WHERE 0');
  await store.command(`INSERT INTO docs_aside SELECT * FROM transaction_docs_kv WHERE ${where}`, params);
  await store.command(`ALTER TABLE transaction_docs_kv DELETE WHERE ${where} SETTINGS mutations_sync = 1`, params);
  try {
    return await fn();
  } finally {
    await store.command('INSERT INTO transaction_docs_kv SELECT * FROM docs_aside');
    await store.command('DROP TABLE docs_aside');
  }
}

// mainnet fixture blocks, with the seeded trace (test/api-v3/seed.ts) for the traces endpoint
const ref = seededFixture();

/** The response and the statements it sent to the engine. */
async function traced(app: FastifyInstance, url: string, headers: Record<string, string> = {}) {
  const rec = recordQueries(ref.fx.store);
  try {
    const r = await get(app, url, headers);
    // (which entity tables hold rows is cached for seconds, so that statement may or may not be among them)
    return { r, sql: rec.sql.filter((q) => !q.includes('system.parts')) };
  } finally {
    rec.restore();
  }
}

describe('transaction documents on mainnet fixture blocks', () => {
  it('render every transaction exactly as the flattened tables do', async () => {
    const { docs, flat } = await bothWays(ref.fx.store);
    expect(flat.length).toBeGreaterThan(1000);
    // states before a block's first transactions: the flattened tables know them from the earlier block only
    expect(docs).toEqual(withDocStatesBefore(flat, docs));
    expect(flat.filter((t) => (t.account_state_before as Row | null)?.balance === null).length).toBeGreaterThan(0);
    const [{ n }] = await ref.fx.store.query<{ n: string }>('SELECT count() AS n FROM transaction_docs_kv');
    expect(Number(n)).toBe(flat.length);
    // the answers carry real content: bodies, states before/after with balances
    expect(flat.filter((t) => (t.in_msg as Row | null)?.message_content).length).toBeGreaterThan(500);
    expect(flat.filter((t) => (t.account_state_after as Row).balance !== null).length).toBeGreaterThan(300);
  });

  it('a transaction by hash: a key-value get and no statement; on the tables one statement (its document); the same answer', async () => {
    // a transaction whose states the document holds or knows absent (not first of its account in its block)
    const t = (await docsOf(ref.fx.store))
      .map((d) => ({ d, hash: String(d.tx.hash), account: String(d.tx.account) }))
      .find(({ d }) => [d.tx.account_state_hash_before, d.tx.account_state_hash_after].every((h) => d.states[String(h)] || d.absent.includes(String(h))))!;
    expect(t).toBeDefined();
    const url = `/api/v3/transactions?hash=${t.hash}`;
    const kv = await traced(ref.fx.app, url, { 'X-No-Address-Book': '1' });
    expect(kv.r.status).toBe(200);
    expect((kv.r.body.transactions as Row[]).map((x) => x.account)).toEqual([t.account]);
    expect(kv.sql).toEqual([]);
    const tables = await traced(ref.fx.tablesApp, url, { 'X-No-Address-Book': '1' });
    expect(tables.sql).toHaveLength(1);
    expect(tables.sql[0]).toMatch(/FROM transaction_docs_kv/);
    expect(tables.r.body).toEqual(kv.r.body);
  });

  it('a state the document lacks is a key-value get (a statement on the tables), the address book too; the answer is the same without documents', async () => {
    const d = (await docsOf(ref.fx.store)).find((x) =>
      [x.tx.account_state_hash_before, x.tx.account_state_hash_after].some((h) => !x.states[String(h)] && !x.absent.includes(String(h))),
    )!;
    expect(d).toBeDefined();
    const url = `/api/v3/transactions?hash=${String(d.tx.hash)}`;
    const { r, sql } = await traced(ref.fx.app, url);
    expect(r.status).toBe(200);
    expect(sql).toEqual([]);
    expect(Object.keys(r.body.address_book as Row).length).toBeGreaterThan(0);
    const tables = await traced(ref.fx.tablesApp, url);
    expect(tables.sql.some((q) => /FROM account_states_kv/.test(q))).toBe(true);
    expect(tables.r.body).toEqual(r.body);
    // the tables' path without the document (stored before 0012): the flattened rows
    await withoutDocs(ref.fx.store, 'hash = {h:FixedString(64)}', { h: String(d.tx.hash) }, async () => {
      expect((await get(ref.fx.tablesApp, url)).body).toEqual(r.body);
    });
  });

  it('transactions stored without a document answer the same', async () => {
    const [t] = await ref.fx.store.query<{ account: string }>(
      'SELECT account FROM transactions GROUP BY account HAVING count() >= 3 ORDER BY account LIMIT 1',
    );
    const url = `/api/v3/transactions?account=${t.account}&limit=20`;
    const before = await get(ref.fx.app, url);
    expect((before.body.transactions as Row[]).length).toBeGreaterThanOrEqual(3);
    expect((await get(ref.fx.tablesApp, url)).body).toEqual(before.body);
    // as a store written before migration 0012 has them: no document for this account's transactions
    await withoutDocs(ref.fx.store, 'account = {a:String}', { a: t.account }, async () => {
      const [{ n }] = await ref.fx.store.query<{ n: string }>('SELECT count() AS n FROM transaction_docs_kv WHERE account = {a:String}', { a: t.account });
      expect(Number(n)).toBe(0);
      const flat = (await get(ref.fx.tablesApp, url)).body;
      const docs = before.body.transactions as Row[];
      expect({ ...flat, transactions: withDocStatesBefore(flat.transactions as Row[], docs) }).toEqual(before.body);
      const one = (before.body.transactions as Row[])[1];
      const byHash = await get(ref.fx.tablesApp, `/api/v3/transactions?hash=${encodeURIComponent(String(one.hash))}`);
      expect(withDocStatesBefore(byHash.body.transactions as Row[], docs)).toEqual([one]);
    });
  });
});

describe('blockDocRows (pure)', () => {
  const block = decodeBlock(readFileSync(mainnetBlockFiles().find((f) => f.endsWith('mainnet-wc0-8000000000000000-71398501.boc'))!));
  const rows = blockToRows(block, { mcSeqno: 1 });
  const contents = new Map(rows.message_contents.map((c) => [c.hash as string, c.boc as string]));
  const endKeys = new Set(block.account_states.map((st) => `${st.account}|${st.hash}`));
  const endRows = rows.account_states.filter((st) => endKeys.has(`${st.account}|${st.hash}`));
  // as the writer gives them (appendBlockRows): the complete states before, which are not stored, and the derived ones
  const transitional = [...statesBeforeRows(block), ...rows.account_states.filter((st) => !endKeys.has(`${st.account}|${st.hash}`))];
  const input = { transactions: rows.transactions, messages: rows.messages, contents, states: endRows, transitional };

  it('the stored layout names every column the row builders give (a new column needs a new layout version)', () => {
    const msgFromTx = ['tx_account', 'tx_lt', 'tx_hash', 'mc_seqno', 'trace_id'];
    expect(Object.keys(rows.transactions[0])).toEqual([...TX_FIELDS]);
    expect(Object.keys(rows.messages[0]).filter((k) => !msgFromTx.includes(k))).toEqual([...MSG_FIELDS]);
    expect(Object.keys(rows.messages[0]).filter((k) => msgFromTx.includes(k)).sort()).toEqual([...msgFromTx].sort());
    expect(Object.keys(rows.account_states[0])).toEqual(['account', ...STATE_FIELDS]);
  });

  it('one document per transaction with its own messages and their bodies', () => {
    const docs = blockDocRows(input).map((r) => parseTxDoc(String(r.doc)));
    expect(docs).toHaveLength(rows.transactions.length);
    for (const d of docs) {
      const own = rows.messages.filter((m) => m.tx_account === d.tx.account && m.tx_lt === BigInt(String(d.tx.lt)));
      expect(d.msgs.map((m) => m.msg_hash).sort()).toEqual(own.map((m) => m.msg_hash).sort());
      for (const m of d.msgs) expect(d.contents[String(m.body_hash)]).toBe(contents.get(String(m.body_hash)));
    }
  });

  it('states: the end state after the last transaction, the derived ones between, the state before from the prior block, else the block', () => {
    const byAccount = new Map<string, Row[]>();
    for (const t of rows.transactions) byAccount.set(String(t.account), [...(byAccount.get(String(t.account)) ?? []), t]);
    // an account with several transactions whose state before its first the block does not give completely
    const partialBefore = new Set(block.states_before.filter((st) => !st.complete).map((st) => st.account));
    const multi = [...byAccount.values()].find((l) => l.length >= 2 && partialBefore.has(String(l[0].account)))!;
    expect(multi).toBeDefined();
    const account = String(multi[0].account);
    const end = endRows.find((st) => st.account === account)!;
    const firstBefore = String(multi[0].account_state_hash_before);
    const json = (r: Row) => JSON.parse(JSON.stringify(r, (_k, v) => (typeof v === 'bigint' ? String(v) : v)));

    const wrong = new PriorStates();
    wrong.set(account, { ...end, hash: 'f'.repeat(64) });
    const right = new PriorStates();
    right.set(account, { ...end, hash: firstBefore });
    const docsOfAccount = (prior: PriorStates) =>
      blockDocRows(input, prior)
        .map((r) => parseTxDoc(String(r.doc)))
        .filter((d) => d.tx.account === account);

    const withWrong = docsOfAccount(wrong);
    expect(withWrong[0].states[firstBefore]).toBeUndefined();
    expect(withWrong[0].absent).not.toContain(firstBefore);
    const last = withWrong[withWrong.length - 1];
    expect(last.states[String(last.tx.account_state_hash_after)]).toEqual(json(end));
    // every state between the account's transactions is in the document, as the block derives it, and none is absent
    for (const d of withWrong) expect(d.absent).toEqual([]);
    for (const d of withWrong.slice(1)) {
      const h = String(d.tx.account_state_hash_before);
      expect(d.states[h]).toEqual(json(transitional.find((st) => st.account === account && st.hash === h)!));
    }
    for (const d of withWrong.slice(0, -1)) expect(d.states[String(d.tx.account_state_hash_after)]?.balance).toMatch(/^\d+$/);

    expect(docsOfAccount(right)[0].states[firstBefore]?.hash).toBe(firstBefore);
    // the block's end states replace the prior ones
    expect(right.get(account)?.hash).toBe(end.hash);
    // an account whose state before the block gives completely has it in its first document without a prior state
    const complete = block.states_before.find((st) => st.complete && st.account_status === 'active' && byAccount.get(st.account)!.length >= 2)!;
    expect(complete).toBeDefined();
    const first = blockDocRows(input)
      .map((r) => parseTxDoc(String(r.doc)))
      .find((d) => d.tx.account === complete.account && d.tx.account_state_hash_before === complete.hash)!;
    expect(first.states[complete.hash]).toMatchObject({ hash: complete.hash, balance: String(complete.balance), code_hash: complete.code_hash, data_hash: complete.data_hash });
  });
});

describe('messages by hash from documents', () => {
  it('answer as the flattened tables do: both transaction hashes, normalized hashes, order and paging; no statement on the key-value store', async () => {
    // internal messages with both ends stored, external-ins by their normalized hash, and external-outs
    const both = await ref.fx.store.query<{ msg_hash: string }>(
      "SELECT msg_hash FROM messages GROUP BY msg_hash HAVING countDistinct(direction) = 2 ORDER BY msg_hash LIMIT 5",
    );
    const norm = await ref.fx.store.query<{ h: string }>("SELECT msg_hash_norm AS h FROM messages WHERE msg_hash_norm IS NOT NULL ORDER BY h LIMIT 3");
    const extOut = await ref.fx.store.query<{ msg_hash: string }>("SELECT msg_hash FROM messages WHERE message_type = 'ext_out' ORDER BY msg_hash LIMIT 3");
    const extIn = await ref.fx.store.query<{ msg_hash: string }>("SELECT msg_hash FROM messages WHERE message_type = 'ext_in' ORDER BY msg_hash LIMIT 1");
    expect(both.length).toBe(5);
    expect(norm.length).toBe(3);
    expect(extOut.length).toBe(3);
    const hashes = [...both.map((r) => r.msg_hash), ...norm.map((r) => r.h), ...extOut.map((r) => r.msg_hash)];
    const urls = [
      `/api/v3/messages?${hashes.map((h) => `msg_hash=${h}`).join('&')}`,
      `/api/v3/messages?${hashes.map((h) => `msg_hash=${h}`).join('&')}&sort=asc&limit=4&offset=2`,
      `/api/v3/messages?hash=${norm[0].h}`,
      `/api/v3/messages?${[...both, ...extOut].map((r) => `msg_hash=${r.msg_hash}`).join('&')}`,
      `/api/v3/messages?msg_hash=${extIn[0].msg_hash}`,
    ];
    const headers = { 'X-No-Address-Book': '1', 'X-No-Metadata': '1' };
    const fromDocs: Awaited<ReturnType<typeof get>>[] = [];
    for (const u of urls) {
      const kv = await traced(ref.fx.app, u, headers);
      // the message index and the documents: key-value reads, no statement
      expect(kv.sql, u).toEqual([]);
      fromDocs.push(kv.r);
      // on the tables: message_hashes (a primary-key range), then the documents (RocksDB gets); the same answer
      const tables = await traced(ref.fx.tablesApp, u, headers);
      expect(tables.sql.map((q) => q.match(/FROM (\w+)/)![1]), u).toEqual(['message_hashes', 'transaction_docs_kv']);
      expect(tables.r.body, u).toEqual(kv.r.body);
    }
    expect((fromDocs[3].body.messages as Row[]).filter((m) => m.in_msg_tx_hash && m.out_msg_tx_hash)).toHaveLength(5);
    const first = fromDocs[0].body.messages as Row[];
    expect(first).toHaveLength(11);
    expect(first.filter((m) => m.in_msg_tx_hash && m.out_msg_tx_hash)).toHaveLength(5);
    expect(first.filter((m) => m.hash_norm)).toHaveLength(3);
    // the same requests once the documents are gone (a store written before 0012) take the flattened tables
    await withoutDocs(ref.fx.store, '1', {}, async () => {
      for (const [i, u] of urls.entries()) expect((await get(ref.fx.tablesApp, u, headers)).body, u).toEqual(fromDocs[i].body);
    });
  });
});

describe('traces from documents', () => {
  it('a trace by id: its row, transactions and their documents are key-value reads (gets on the tables), and answer as the flattened tables do', async () => {
    const url = `/api/v3/traces?trace_id=${ref.seeded.trace.traceId}&include_actions=false`;
    const headers = { 'X-No-Address-Book': '1', 'X-No-Metadata': '1' };
    const { r: withDocs, sql } = await traced(ref.fx.app, url, headers);
    expect(withDocs.status).toBe(200);
    const trace = (withDocs.body.traces as Row[])[0];
    expect(Object.keys(trace.transactions as Row)).toHaveLength(ref.seeded.trace.txHashes.length);
    expect(sql).toEqual([]);
    const tables = await traced(ref.fx.tablesApp, url, headers);
    expect(tables.sql.filter((q) => /FROM (traces_kv|trace_txs_kv|transaction_docs_kv)\b/.test(q)).length).toBe(3);
    expect(tables.sql.some((q) => /FROM transactions\b/.test(q))).toBe(false);
    expect(tables.r.body).toEqual(withDocs.body);
    await withoutDocs(ref.fx.store, '1', {}, async () => {
      const flat = (await get(ref.fx.tablesApp, url, headers)).body;
      const txsOf = (b: Record<string, unknown>) => (b.traces as Row[])[0].transactions as Record<string, Row>;
      const patched = withDocStatesBefore(Object.values(txsOf(flat)), Object.values(txsOf(withDocs.body)));
      const [t0] = flat.traces as Row[];
      expect({ ...flat, traces: [{ ...t0, transactions: Object.fromEntries(patched.map((t) => [String(t.hash), t])) }] }).toEqual(withDocs.body);
    });
  });
});
