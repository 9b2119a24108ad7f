// The store suite, run on chdb (store.chdb.test.ts) and on a ClickHouse server (store.server.test.ts).
import { readFileSync } from 'node:fs';
import { methodIdsOfBoc } from '../../src/contracts/code-methods.ts';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assignMcSeqnos, importBlocks } from '../../pipelines/index.ts';
import { blockById, blocksByMcSeqno, latestAccountState, messagesByHash, messagesOfTransactions, ReadOnlyQueryError, runReadOnlySql, tableCounts, transactionsByAccount, transactionsByHash, transactionDocsByHash, transactionsByMcSeqno } from '../../src/store/read/index.ts';
import { duplicateReport, openStore, type StoreClient, type StoreConfig } from '../../src/store/client/index.ts';
import { StoreWriter } from '../../src/store/write/index.ts';
import { BLOCK_TABLES, blockToRows } from '../../src/decode/index.ts';
import { decodeBlock, type DecodedBlock } from '../../src/ton/index.ts';
import { FIXTURES, fixtureBlockFiles, txIndex } from './helpers.ts';
import { kvPointReads } from '../../src/kv/index.ts';

interface Fixture {
  file: string;
  block: DecodedBlock;
}

/** Every fixture block the decoder reads (files it rejects are listed, not imported). */
export function decodedFixtures(): { ok: Fixture[]; failed: string[] } {
  const ok: Fixture[] = [];
  const failed: string[] = [];
  for (const f of fixtureBlockFiles()) {
    const file = relative(FIXTURES, f);
    try {
      ok.push({ file, block: decodeBlock(readFileSync(f)) });
    } catch {
      failed.push(file);
    }
  }
  return { ok, failed };
}

/** tx-index.json names statuses its own way. */
const STATUS: Record<string, string> = { 'non-existing': 'nonexist', uninitialized: 'uninit' };

const up = (a: string) => {
  const i = a.indexOf(':');
  return a.slice(0, i) + ':' + a.slice(i + 1).toUpperCase();
};

/** Expected reader-visible row counts, computed from the decoder output (not from blockToRows). */
function expectedCounts(blocks: DecodedBlock[]): Record<string, number> {
  const sets: Record<string, Set<string>> = {};
  const add = (t: string, k: string) => (sets[t] ??= new Set()).add(k);
  for (const b of blocks) {
    const bid = `${b.id.workchain}:${b.id.shard}:${b.id.seqno}:${b.id.root_hash}`;
    add('blocks', bid);
    add('ingested_blocks', bid);
    for (const s of b.shards ?? []) add('shard_state', `${b.id.seqno}:${s.workchain}:${s.shard}:${s.seqno}:${s.root_hash}`);
    if (b.shards) add('shard_state', `${b.id.seqno}:${bid}`);
    for (const tx of b.transactions) {
      const tk = `${up(tx.account)}:${tx.lt}:${tx.hash}`;
      add('transactions', tk);
      add('transactions_by_hash', tk);
      add('transactions_by_lt', tk);
      add('transaction_docs_kv', tk);
      const msgs: [string, typeof tx.in_msg][] = [['in', tx.in_msg], ...tx.out_msgs.map((m) => ['out', m] as [string, typeof m])];
      for (const [dir, m] of msgs) {
        if (!m) continue;
        add('messages', `${tk}:${dir}:${m.msg_hash}`);
        add('message_hashes', `${m.msg_hash}:${dir}:0:${tk}`);
        if (m.hash_norm && m.hash_norm !== m.msg_hash) add('message_hashes', `${m.hash_norm}:${dir}:1:${tk}`);
        add('message_contents', m.body_hash);
        if (m.init_state_hash) add('message_contents', m.init_state_hash);
      }
    }
    // the states between an account's transactions (a state before the first is the previous block's end state)
    for (const s of b.intermediate_states) {
      add('account_states', `${up(s.account)}:${s.hash}`);
    }
    for (const s of b.account_states) {
      add('account_states', `${up(s.account)}:${s.hash}`);
      add('latest_account_states', up(s.account));
      if (s.code_hash && s.code_boc) add('contract_code', s.code_hash);
      // method tables are parsed by code-methods.ts (tested against the contract sources in test/entities)
      if (s.code_hash && s.code_boc && methodIdsOfBoc(s.code_boc)) add('contract_methods', s.code_hash);
    }
  }
  return Object.fromEntries(BLOCK_TABLES.map((t) => [t, sets[t]?.size ?? 0]));
}

/** msg_hash -> tx hash of the in_msg fixtures listed in MANIFEST.md (`msg_hash=X of tx Y`). */
function manifestInMessages(): { msgHash: string; txHash: string }[] {
  const text = readFileSync(join(FIXTURES, 'MANIFEST.md'), 'utf8');
  const out: { msgHash: string; txHash: string }[] = [];
  for (const m of text.matchAll(/\| msgs\/(?:mainnet|testnet)-[^|]+\| message \(in_msg of tx\)[^|]*\|[^|]*\| msg_hash=([0-9a-f]{64}) of tx ([0-9a-f]{64})/g)) {
    out.push({ msgHash: m[1], txHash: m[2] });
  }
  return out;
}

export function storeSuite(label: string, config: () => StoreConfig | Promise<StoreConfig>): void {
  describe(`store on ${label}`, { timeout: 300_000 }, () => {
    let store: StoreClient;
    const { ok, failed } = decodedFixtures();
    const blocks = ok.map((f) => f.block);
    const expected = expectedCounts(blocks);
    const index = txIndex();
    const importedFiles = new Set(ok.map((f) => f.file));

    let storeConfig: StoreConfig;
    beforeAll(async () => {
      storeConfig = await config();
      store = await openStore(storeConfig);
    });
    afterAll(async () => {
      await store?.close();
    });

    it('the fixture set is the real one (decoder reads most blocks)', () => {
      expect(ok.length + failed.length).toBe(fixtureBlockFiles().length);
      expect(ok.length).toBeGreaterThanOrEqual(40);
      expect(expected.transactions).toBeGreaterThan(2000);
    });

    /**
     * Rows several blocks may carry: bodies and account states (the fixtures hold two blocks of two local nets
     * ending with the same state), and so latest states at one lt. The writer stores them once per writer, not once
     * per store (replay.ts); a replay adds none (compared before and after the second import).
     */
    const CONTENT = ['message_contents', 'account_states', 'latest_account_states'];

    /**
     * Issue 21, hole 5: no table of block rows holds a row twice (same key and version), so plain `count()` equals
     * `count() FINAL` in every table without a version; a versioned one (latest_account_states) also keeps the older
     * states of accounts whose newer state was stored first (the fixtures are imported in file order, not lt order).
     */
    async function noPhysicalDuplicates(): Promise<Record<string, number>> {
      const report = await duplicateReport(store);
      expect(Object.keys(report)).toEqual(expect.arrayContaining(BLOCK_TABLES.filter((t) => !t.endsWith('_kv'))));
      for (const [t, r] of Object.entries(report)) {
        if (CONTENT.includes(t)) continue;
        expect(r.duplicates, `${t}: rows written twice`).toBe(0);
        if (!r.versioned) expect(r.rows, `${t}: count() against count() FINAL`).toBe(r.final);
      }
      // (write_intents is the writers' own bookkeeping: each import records and clears an intent)
      return Object.fromEntries(Object.entries(report).filter(([t]) => t !== 'write_intents').map(([t, r]) => [t, r.rows]));
    }
    let rowsAfterImport: Record<string, number> = {};

    // Writes cut by a crash: the first after its data tables were partly inserted, the second after all of them
    // (before the block markers). The import below then groups the same blocks differently.
    it('writes cut between two tables\' inserts leave their blocks without markers, rows partly stored', async () => {
      for (const [cutAt, part] of [['messages', blocks.slice(0, 10)], ['blocks', blocks.slice(8, 20)]] as const) {
        const cut: StoreClient = { ...store, insertRows: (t, rows, cols) => (t === cutAt ? Promise.reject(new Error(`killed before ${cutAt}`)) : store.insertRows(t, rows, cols)) };
        const writer = new StoreWriter(cut, { attempts: 1 });
        const mc = assignMcSeqnos(blocks);
        for (const b of part) await writer.writeRows(blockToRows(b, { mcSeqno: mc.get(b.id.root_hash.toLowerCase()) }));
        await expect(writer.flush()).rejects.toThrow(`killed before ${cutAt}`);
      }
      const [m] = await store.query<{ markers: string; txs: string }>('SELECT (SELECT count() FROM ingested_blocks) AS markers, (SELECT count() FROM transactions) AS txs');
      expect(m.markers).toBe('0');
      expect(Number(m.txs)).toBeGreaterThan(0);
    });

    it('imports every fixture block: counts per table equal the decoder counts, plain count() included', async () => {
      const r = await importBlocks(store, blocks, { maxRows: 5000 });
      expect(r).toEqual({ blocks: blocks.length, transactions: blocks.reduce((n, b) => n + b.transactions.length, 0), skipped: 0 });
      expect(await tableCounts(store, BLOCK_TABLES)).toEqual(expected);
      rowsAfterImport = await noPhysicalDuplicates();
    });

    it('importing again leaves every count and every answer unchanged', async () => {
      const sample = index.find((e) => e.block.endsWith('71398501.boc'))!;
      const before = await transactionsByAccount(store, sample.account);
      const beforeMsgs = await messagesOfTransactions(store, before.map((t) => ({ account: String(t.account), lt: String(t.lt) })));
      expect((await importBlocks(store, blocks, { maxRows: 100_000 })).skipped).toBe(blocks.length);
      expect(await tableCounts(store, BLOCK_TABLES)).toEqual(expected);
      expect(await transactionsByAccount(store, sample.account)).toEqual(before);
      expect(await messagesOfTransactions(store, before.map((t) => ({ account: String(t.account), lt: String(t.lt) })))).toEqual(beforeMsgs);
      // nothing was written twice: plain SQL sees what FINAL sees, and no table has one row more than before
      const [raw] = await store.query<{ c: string }>('SELECT count() AS c FROM transactions');
      expect(Number(raw.c)).toBe(expected.transactions);
      expect(await noPhysicalDuplicates()).toEqual(rowsAfterImport);
    });

    it('latest_account_states_kv holds each account\'s newest state, as latest_account_states FINAL does; account_states_kv every state, message_txs_kv every message\'s transactions', async () => {
      // the fixture blocks are imported in file order, not lt order, and twice: older states arrive after newer ones
      // (the fixtures mix networks: a few local-net accounts have two different states at one lt, and either may win)
      const cols = 'account, last_trans_lt, last_trans_hash, hash, balance, account_status, code_hash, data_hash';
      const clash = 'account NOT IN (SELECT account FROM account_states GROUP BY account, last_trans_lt HAVING uniqExact(hash) > 1)';
      const kv = await store.query(`SELECT ${cols} FROM latest_account_states_kv WHERE ${clash} ORDER BY account`);
      expect(kv.length).toBeGreaterThan(500);
      expect(kv).toEqual(await store.query(`SELECT ${cols} FROM latest_account_states FINAL WHERE ${clash} ORDER BY account`));
      const [{ n }] = await store.query<{ n: string }>(`SELECT count() AS n FROM latest_account_states_kv`);
      expect(Number(n)).toBe((await store.query('SELECT DISTINCT account FROM latest_account_states')).length);
      if (store.kv) {
        // the key-value store (src/kv) holds the same: latest states, states by hash, every message's transactions
        const reads = kvPointReads(store.kv);
        const accounts = (await store.query<{ account: string }>(`SELECT DISTINCT account FROM latest_account_states WHERE ${clash} ORDER BY account`)).map((r) => r.account);
        const pick = (r: Record<string, unknown>) => Object.fromEntries(cols.split(', ').map((c) => [c, r[c]]));
        expect((await reads.latestStates(accounts)).map(pick)).toEqual(kv);
        const sc = 'account, hash, balance, extra_currencies, account_status, frozen_hash, data_hash, code_hash, last_trans_lt';
        const stored = await store.query<Record<string, unknown>>(`SELECT ${sc} FROM account_states FINAL ORDER BY hash`);
        const pickS = (r: Record<string, unknown>) => Object.fromEntries(sc.split(', ').map((c) => [c, r[c]]));
        expect((await reads.statesByHash(stored.map((r) => String(r.hash)))).map(pickS)).toEqual(stored);
        const index = await store.query<Record<string, unknown>>('SELECT hash, direction, is_norm, msg_hash, tx_account, toString(tx_lt) AS tx_lt, tx_hash FROM message_hashes ORDER BY hash, direction, is_norm, tx_hash');
        const fromKv = await reads.messageTxs([...new Set(index.map((r) => String(r.hash)))]);
        expect(fromKv.map((m) => ({ ...m })).sort((a, b) => (a.hash + a.direction + a.is_norm + a.tx_hash < b.hash + b.direction + b.is_norm + b.tx_hash ? -1 : 1))).toEqual(
          index.map((r) => ({ ...r, is_norm: Number(r.is_norm) })),
        );
        const some = [...new Set(index.slice(0, 50).map((r) => String(r.tx_hash)))];
        const docs = await store.query<{ doc: string }>('SELECT doc FROM transaction_docs_kv WHERE hash IN {h:Array(FixedString(64))}', { h: some });
        expect(docs.length).toBe(some.length);
        expect((await reads.docs(some)).sort()).toEqual(docs.map((r) => r.doc).sort());
      }
      // an older state written late (a replay, or a block written after a later one) never takes an account back
      const before = await store.query(`SELECT ${cols} FROM latest_account_states_kv ORDER BY account`);
      await store.command(
        'INSERT INTO latest_account_states SELECT * REPLACE (last_trans_lt - 1 AS last_trans_lt, balance + 1 AS balance) FROM latest_account_states FINAL WHERE last_trans_lt > 0',
      );
      expect(await store.query(`SELECT ${cols} FROM latest_account_states_kv ORDER BY account`)).toEqual(before);
      // account_states_kv: every account state by its hash, as account_states holds them
      const sc = 'hash, account, balance, extra_currencies, account_status, frozen_hash, data_hash, code_hash, last_trans_lt';
      const byHash = await store.query(`SELECT ${sc} FROM account_states_kv ORDER BY hash`);
      expect(byHash.length).toBe(expected.account_states);
      expect(byHash).toEqual(await store.query(`SELECT ${sc} FROM account_states FINAL ORDER BY hash`));
      // message_txs_kv: each message's sending and receiving transaction by `hash/direction` (64 zeros for a message
      // that more than one transaction received)
      const msgTxs = await store.query<{ key: string; tx_account: string; tx_lt: string; tx_hash: string }>('SELECT * FROM message_txs_kv ORDER BY key');
      expect(msgTxs.length).toBeGreaterThan(expected.transactions);
      const sides = await store.query<{ key: string; txs: [string, string, string][] }>(
        "SELECT concat(msg_hash, '/', toString(direction)) AS key, groupUniqArray((tx_account, toString(tx_lt), tx_hash)) AS txs FROM message_hashes WHERE is_norm = 0 GROUP BY key ORDER BY key",
      );
      expect(msgTxs.map((m) => m.key)).toEqual(sides.map((s) => s.key));
      sides.forEach((s, i) => {
        if (s.txs.length === 1) expect([msgTxs[i].tx_account, msgTxs[i].tx_lt, msgTxs[i].tx_hash]).toEqual(s.txs[0]);
        else expect(msgTxs[i].tx_hash).toBe('0'.repeat(64));
      });
    });

    it('transactions by hash match tx-index.json (account, lt, now, block, statuses, phases)', async () => {
      const entries = index.filter((e) => importedFiles.has(e.block));
      expect(entries.length).toBeGreaterThan(1400);
      const rows = await store.query<Record<string, string | number | boolean | null>>(
        `SELECT hash, account, lt, now, block_workchain, lpad(hex(block_shard), 16, '0') AS shard, block_seqno, mc_block_seqno,
                orig_status, end_status, descr, aborted, destroyed, compute_skipped, skipped_reason, compute_success,
                compute_exit_code, bounce
         FROM transactions FINAL WHERE hash IN {h:Array(FixedString(64))}`,
        { h: entries.map((e) => e.hash) },
      );
      const byHash = new Map(rows.map((r) => [r.hash as string, r]));
      for (const e of entries) {
        const r = byHash.get(e.hash);
        expect(r, `${e.hash} of ${e.block}`).toBeDefined();
        expect(r, e.hash).toMatchObject({
          account: up(e.account),
          lt: e.lt,
          now: e.now,
          block_workchain: e.wc,
          shard: e.shard.toUpperCase(),
          block_seqno: e.block_seqno,
          orig_status: STATUS[e.orig] ?? e.orig,
          end_status: STATUS[e.end] ?? e.end,
          descr: e.desc === 'tick-tock' ? 'tick_tock' : e.desc === 'generic' ? 'ord' : e.desc,
          aborted: e.aborted,
        });
        const c = e.compute;
        if (c?.skipped) expect(r, e.hash).toMatchObject({ compute_skipped: true, skipped_reason: c.skipped.replace('-', '_') });
        else if (c) expect(r, e.hash).toMatchObject({ compute_skipped: false, compute_success: c.success, compute_exit_code: c.exit });
        const bp = e.bounce_phase;
        expect(r!.bounce, e.hash).toBe(bp === null ? null : ({ 'no-funds': 'nofunds', 'neg-funds': 'negfunds', ok: 'ok' } as Record<string, string>)[bp]);
        if (e.wc === -1) expect(r!.mc_block_seqno).toBe(e.block_seqno);
      }
      // the two-step lookup through transactions_by_hash
      const some = entries.filter((_, i) => i % 97 === 0);
      const viaHelper = await transactionsByHash(store, some.map((e) => e.hash.toUpperCase()));
      expect(viaHelper.map((r) => r.hash).sort()).toEqual(some.map((e) => e.hash).sort());
      expect(await transactionsByHash(store, ['00'.repeat(32)])).toEqual([]);
      await expect(transactionsByHash(store, ['xyz'])).rejects.toThrow('invalid hash "xyz": want 64 hex characters');
      // their documents (clickhouse/0012) through the same index: the same rows, once each
      const docs = await transactionDocsByHash(store, some.map((e) => e.hash.toUpperCase()));
      expect(docs.map((d) => d.tx).sort((a, b) => String(a.hash).localeCompare(String(b.hash)))).toEqual(
        some.map((e) => byHash.get(e.hash)).sort((a, b) => String(a!.hash).localeCompare(String(b!.hash))).map((r) => expect.objectContaining({ hash: r!.hash, account: r!.account, lt: r!.lt, now: r!.now })),
      );
      expect(await transactionDocsByHash(store, ['00'.repeat(32)])).toEqual([]);
    });

    it('transactions by account and lt range', async () => {
      // the busiest account of the fixture set (tx-index)
      const perAccount = new Map<string, typeof index>();
      for (const e of index) if (importedFiles.has(e.block)) (perAccount.get(e.account) ?? perAccount.set(e.account, []).get(e.account)!).push(e);
      const [account, txs] = [...perAccount.entries()].sort((a, b) => b[1].length - a[1].length)[0];
      expect(txs.length).toBeGreaterThan(20);
      const lts = txs.map((e) => BigInt(e.lt)).sort((a, b) => (a < b ? -1 : 1));
      const all = await transactionsByAccount(store, account, { limit: 1000 });
      expect(all.map((r) => r.lt)).toEqual([...lts].reverse().map(String));
      const lo = lts[5];
      const hi = lts[15];
      const win = await transactionsByAccount(store, account, { startLt: lo, endLt: hi, sort: 'asc' });
      expect(win.map((r) => r.lt)).toEqual(lts.slice(5, 16).map(String));
      const paged = await transactionsByAccount(store, account, { limit: 3, offset: 2 });
      expect(paged.map((r) => r.lt)).toEqual([...lts].reverse().slice(2, 5).map(String));
      await expect(transactionsByAccount(store, 'EQ-not-raw')).rejects.toThrow('invalid raw address "EQ-not-raw"');
    });

    it('messages by hash (both directions) and by normalized hash', async () => {
      const pairs = manifestInMessages().filter((p) => index.some((e) => e.hash === p.txHash && importedFiles.has(e.block)));
      expect(pairs.length).toBeGreaterThan(20);
      for (const p of pairs) {
        const rows = await messagesByHash(store, [p.msgHash], 'in');
        expect(rows.map((r) => r.tx_hash), p.msgHash).toContain(p.txHash);
        expect(rows.every((r) => r.msg_hash === p.msgHash && r.direction === 'in')).toBe(true);
      }
      // an internal message has an 'out' row in the sender's tx and an 'in' row in the receiver's
      const [internal] = await store.query<{ msg_hash: string }>(
        `SELECT msg_hash FROM messages FINAL WHERE message_type = 'int' GROUP BY msg_hash HAVING uniqExact(direction) = 2 LIMIT 1`,
      );
      const both = await messagesByHash(store, [internal.msg_hash]);
      expect(both.map((r) => r.direction).sort()).toEqual(['in', 'out']);
      // external-in: the normalized hash finds the same row as the real hash
      const ext = blocks.flatMap((b) => b.transactions).find((t) => t.in_msg?.message_type === 'ext_in' && t.in_msg.hash_norm && t.in_msg.hash_norm !== t.in_msg.msg_hash)!;
      expect(ext).toBeDefined();
      const byNorm = await messagesByHash(store, [ext.in_msg!.hash_norm!]);
      const byReal = await messagesByHash(store, [ext.in_msg!.msg_hash]);
      expect(byNorm).toEqual(byReal);
      expect(byNorm).toHaveLength(1);
      expect(byNorm[0]).toMatchObject({ msg_hash: ext.in_msg!.msg_hash, msg_hash_norm: ext.in_msg!.hash_norm, tx_hash: ext.hash, source: null });
    });

    it('latest account state by account', async () => {
      // latest = highest last_trans_lt among the decoder's states of that account
      // (accounts whose latest lt ties between different states -- the same genesis accounts on
      // mainnet and a local net -- have no single answer and are left out)
      const latest = new Map<string, DecodedBlock['account_states'][number]>();
      const tied = new Set<string>();
      for (const b of blocks) for (const s of b.account_states) {
        const k = up(s.account);
        const cur = latest.get(k);
        if (cur && s.last_trans_lt === cur.last_trans_lt && (s.hash !== cur.hash || s.last_trans_hash !== cur.last_trans_hash)) tied.add(k);
        if (!cur || s.last_trans_lt > cur.last_trans_lt) {
          latest.set(k, s);
          tied.delete(k);
        }
      }
      for (const k of tied) latest.delete(k);
      expect(latest.size).toBeGreaterThan(1000);
      const withCode = [...latest.values()].find((s) => s.code_boc && s.account_status === 'active')!;
      const someOther = [...latest.values()].filter((s) => s !== withCode).slice(0, 20);
      for (const s of [withCode, ...someOther]) {
        const row = await latestAccountState(store, s.account);
        expect(row, s.account).toMatchObject({
          account: up(s.account),
          hash: s.hash,
          balance: s.balance.toString(),
          account_status: s.account_status,
          last_trans_lt: s.last_trans_lt.toString(),
          last_trans_hash: s.last_trans_hash,
          code_hash: s.code_hash,
        });
      }
      expect((await latestAccountState(store, withCode.account))!.code_boc).toBe(withCode.code_boc);
      expect(await latestAccountState(store, '0:' + 'ab'.repeat(32))).toBeNull();
    });

    it('blocks by id and by masterchain seqno (linked local chain)', async () => {
      const b = await blockById(store, 0, '8000000000000000', 71398501);
      expect(b).toMatchObject({
        workchain: 0,
        shard: '8000000000000000',
        seqno: 71398501,
        tx_count: 269,
        global_id: -239,
      });
      const mf = blocks.find((x) => x.id.seqno === 71398501)!;
      expect(b!.root_hash).toBe(mf.id.root_hash);
      expect(b!.start_lt).toBe(mf.info.start_lt.toString());
      expect(await blockById(store, 0, '8000000000000000', 1)).not.toBeNull();
      expect(await blockById(store, 5, '8000000000000000', 1)).toBeNull();
      // acton localnet: mc 2 commits wc0:2 (its shard descriptor), found by walking inside the import set
      const acton = blocks.filter((x) => x.global_id === -3 && x.id.seqno <= 2);
      const mc = assignMcSeqnos(blocks);
      const wc0s2 = acton.find((x) => x.id.workchain === 0 && x.id.seqno === 2)!;
      expect(mc.get(wc0s2.id.root_hash)).toBe(2);
      const committed = await blocksByMcSeqno(store, 2);
      expect(committed.map((r) => `${r.workchain}:${r.seqno}:${r.root_hash}`).sort()).toEqual(
        acton.filter((x) => x.id.seqno === 2).map((x) => `${x.id.workchain}:${x.id.seqno}:${x.id.root_hash}`).sort(),
      );
    });

    // Issue 21, hole 1: what `ton-gateway sql` opens. On a server, readonly=1 travels with every request.
    it('a read-only client: the engine refuses writes, DDL, setting changes and table functions; sql payloads are refused', async () => {
      const ro = await openStore({ ...storeConfig, readonly: true, migrate: false });
      try {
        // a server session: readonly = 1; the embedded engine's `reader` user: SELECT grants only
        const refused = /readonly|Not enough privileges/i;
        await expect(ro.command('DROP TABLE blocks')).rejects.toThrow(refused);
        await expect(ro.queryText("INSERT INTO checkpoints (name, mc_seqno) VALUES ('ro', 1)", 'CSV')).rejects.toThrow(refused);
        await expect(ro.queryText("SELECT * FROM url('http://127.0.0.1:9/', 'LineAsString')", 'CSV')).rejects.toThrow(refused);
        for (const q of ["SELECT $$'$$; DROP TABLE blocks; SELECT $$'$$", "SELECT 1 INTO OUTFILE '/tmp/tg-suite-outfile'", "SELECT file('/etc/hostname')", 'SELECT 1 SETTINGS readonly = 0']) {
          await expect(runReadOnlySql(ro, q, 'CSV'), q).rejects.toThrow(ReadOnlyQueryError);
        }
        expect(await runReadOnlySql(ro, 'SELECT count() > 0 FROM blocks', 'CSV')).toBe('1\n');
      } finally {
        await ro.close();
      }
      const [n] = await store.query<{ n: string }>("SELECT count() AS n FROM checkpoints WHERE name = 'ro'");
      expect(n.n).toBe('0');
    });

    it('transactions by masterchain seqno', async () => {
      const mcEntries = index.filter((e) => e.block === 'blocks/mainnet/mainnet-mc-17734191.boc');
      const rows = await transactionsByMcSeqno(store, 17734191, { sort: 'asc' });
      expect(rows.map((r) => r.hash).sort()).toEqual(mcEntries.map((e) => e.hash).sort());
      expect(rows.map((r) => BigInt(r.lt as string))).toEqual(rows.map((r) => BigInt(r.lt as string)).sort((a, b) => (a < b ? -1 : 1)));
      // acton wc0:2 is committed by mc 2: its 2 transactions (and nothing of mc 2, which has none)
      const wc0s2 = blocks.find((x) => x.global_id === -3 && x.id.workchain === 0 && x.id.seqno === 2)!;
      const two = await transactionsByMcSeqno(store, 2);
      expect(two.map((r) => r.hash).sort()).toEqual(wc0s2.transactions.map((t) => t.hash).sort());
      expect(two.every((r) => r.block_shard === '8000000000000000' && r.block_seqno === 2)).toBe(true);
      expect(await transactionsByMcSeqno(store, 999_999_999)).toEqual([]);
    });
  });
}
