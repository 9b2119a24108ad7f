// Migration 0013 (point-read tables in RocksDB): a store written at 0012 keeps its transaction documents (moved
// from the MergeTree table, the traced one of two versions winning) and gets its latest states and traces keyed for
// gets; the migration applied again whole, as after a crash inside it, changes nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMigrations, migrate, migrationsUpTo, openClient, type StoreClient } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'tg-store-0013-'));

const H = (c: string) => c.repeat(64);
const state = (account: string, lt: number, code: string) => ({
  account, hash: H('A'), balance: 7n, extra_currencies: {}, account_status: 'active', timestamp: 1, last_trans_hash: H('B'),
  last_trans_lt: BigInt(lt), frozen_hash: null, data_hash: null, code_hash: H(code), data_boc: null,
});

const accountState = (account: string, hash: string) => ({
  account, hash: H(hash), balance: 3n, extra_currencies: {}, account_status: 'active', frozen_hash: null, data_hash: null, code_hash: H('C'), last_trans_lt: 9n,
});
const msgHash = (hash: string, direction: string, isNorm: number, tx: string) => ({
  hash: H(hash), direction, is_norm: isNorm, msg_hash: H(isNorm ? '7' : hash), tx_account: '0:A', tx_lt: 10n, tx_hash: H(tx),
});
const trace = (id: string, endLt: number, state: string, nodes: number) => ({
  trace_id: H(id), external_hash: null, external_hash_norm: null, mc_seqno_start: 1, mc_seqno_end: 2, start_lt: 1n, start_utime: 1,
  end_lt: BigInt(endLt), end_utime: 2, state, pending_edges: 0n, edges: BigInt(nodes - 1), nodes: BigInt(nodes), classification_state: 'unclassified',
});

describe('migration 0013 on a store written at 0012', () => {
  let store: StoreClient;
  beforeAll(async () => {
    store = await openClient({ dataDir: join(dir, 'data'), pointReads: 'tables' });
    expect((await migrate(store, migrationsUpTo(dir, 12))).current).toBe(12);
    // documents as 0012 stored them: one transaction written untraced, then traced; another only untraced
    await store.insertRows('transaction_docs', [
      { account: '0:A', lt: 10n, hash: H('1'), traced: 0, doc: '[1,"untraced"]' },
      { account: '0:A', lt: 10n, hash: H('1'), traced: 1, doc: '[1,"traced"]' },
      { account: '0:B', lt: 11n, hash: H('2'), traced: 0, doc: '[1,"only"]' },
    ]);
    await store.insertRows('latest_account_states', [state('0:A', 10, 'C'), state('0:A', 12, 'D'), state('0:B', 11, 'E')]);
    await store.insertRows('traces', [trace('1', 5, 'pending', 2), trace('1', 7, 'complete', 3)]);
    await store.insertRows('account_states', [accountState('0:A', 'E'), accountState('0:B', 'F')]);
    await store.insertRows('message_hashes', [msgHash('5', 'out', 0, '1'), msgHash('5', 'in', 0, '2'), msgHash('6', 'in', 1, '2')]);
  });
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const docs = () => store.query('SELECT hash, account, lt, traced, doc FROM transaction_docs_kv ORDER BY hash');
  const states = () => store.query('SELECT account, last_trans_lt, code_hash FROM latest_account_states_kv ORDER BY account');
  const traces = () => store.query('SELECT trace_id, end_lt, state, nodes FROM traces_kv ORDER BY trace_id');
  const byHash = () => store.query('SELECT hash, account, balance FROM account_states_kv ORDER BY hash');
  const msgTxs = () => store.query('SELECT key, tx_hash FROM message_txs_kv ORDER BY key');

  it('moves the documents into transaction_docs_kv and drops the MergeTree table', async () => {
    // (and the later migrations)
    expect((await migrate(store)).applied.map((m) => m.version)[0]).toBe(13);
    expect(await docs()).toEqual([
      { hash: H('1'), account: '0:A', lt: '10', traced: 1, doc: '[1,"traced"]' },
      { hash: H('2'), account: '0:B', lt: '11', traced: 0, doc: '[1,"only"]' },
    ]);
    expect(await store.query("SELECT name FROM system.tables WHERE database = currentDatabase() AND name = 'transaction_docs'")).toEqual([]);
    expect(await states()).toEqual([
      { account: '0:A', last_trans_lt: '12', code_hash: H('D') },
      { account: '0:B', last_trans_lt: '11', code_hash: H('E') },
    ]);
    expect(await traces()).toEqual([{ trace_id: H('1'), end_lt: '7', state: 'complete', nodes: '3' }]);
    expect(await byHash()).toEqual([{ hash: H('E'), account: '0:A', balance: '3' }, { hash: H('F'), account: '0:B', balance: '3' }]);
    await store.insertRows('account_states', [accountState('0:C', 'D')]);
    expect((await byHash()).map((r) => r.account)).toEqual(['0:C', '0:A', '0:B']);
    // a message's sender and receiver, by its own hash (normalized-hash rows are not copied)
    expect(await msgTxs()).toEqual([{ key: `${H('5')}/in`, tx_hash: H('2') }, { key: `${H('5')}/out`, tx_hash: H('1') }]);
  });

  it('applied again whole (a crash before it was recorded), changes nothing', async () => {
    const before = [await docs(), await states(), await traces(), await byHash(), await msgTxs()];
    for (const stmt of loadMigrations().find((m) => m.version === 13)!.statements) await store.command(stmt);
    expect([await docs(), await states(), await traces(), await byHash(), await msgTxs()]).toEqual(before);
  });

  it('later writes: a newer state replaces, an older one does not; in one insert the newest wins', async () => {
    await store.insertRows('latest_account_states', [state('0:A', 11, 'F'), state('0:B', 13, 'G'), state('0:C', 5, 'H'), state('0:C', 4, 'I')]);
    expect(await states()).toEqual([
      { account: '0:A', last_trans_lt: '12', code_hash: H('D') },
      { account: '0:B', last_trans_lt: '13', code_hash: H('G') },
      { account: '0:C', last_trans_lt: '5', code_hash: H('H') },
    ]);
  });

  it('traces: the greatest end_lt wins, and at equal end_lt the row written last, in one insert or across inserts', async () => {
    await store.insertRows('traces', [trace('1', 6, 'pending', 9), trace('2', 8, 'pending', 2), trace('2', 8, 'complete', 2)]);
    expect(await traces()).toEqual([
      { trace_id: H('1'), end_lt: '7', state: 'complete', nodes: '3' },
      { trace_id: H('2'), end_lt: '8', state: 'complete', nodes: '2' },
    ]);
    await store.insertRows('traces', [trace('2', 8, 'broken', 2)]);
    expect((await traces())[1]).toEqual({ trace_id: H('2'), end_lt: '8', state: 'broken', nodes: '2' });
  });

  it('messages: a receiver written again changes nothing; a second receiver (an external-in accepted twice) leaves the zero marker', async () => {
    const zeros = '0'.repeat(64);
    await store.insertRows('message_hashes', [msgHash('5', 'in', 0, '2'), msgHash('8', 'in', 0, '1'), msgHash('8', 'in', 0, '3'), msgHash('9', 'in', 0, '1')]);
    await store.insertRows('message_hashes', [msgHash('9', 'in', 0, '4')]);
    await store.insertRows('message_hashes', [msgHash('9', 'in', 0, '1')]);
    expect(await msgTxs()).toEqual([
      { key: `${H('5')}/in`, tx_hash: H('2') },
      { key: `${H('5')}/out`, tx_hash: H('1') },
      { key: `${H('8')}/in`, tx_hash: zeros },
      { key: `${H('9')}/in`, tx_hash: zeros },
    ]);
  });

  it('trace transactions: each insert merged into the stored list, sorted, each once', async () => {
    const tt = (trace: string, lt: number, tx: string) => ({ trace_id: H(trace), lt: BigInt(lt), account: '0:A', hash: H(tx) });
    await store.insertRows('trace_transactions', [tt('1', 20, '2'), tt('1', 10, '1')]);
    await store.insertRows('trace_transactions', [tt('1', 30, '3'), tt('1', 10, '1'), tt('2', 5, '4')]);
    const lists = await store.query<{ trace_id: string; txs: { lt: string; hash: string }[] }>('SELECT trace_id, txs FROM trace_txs_kv ORDER BY trace_id');
    expect(lists.map((l) => [l.trace_id, l.txs.map((t) => `${t.lt}:${t.hash}`)])).toEqual([
      [H('1'), [`10:${H('1')}`, `20:${H('2')}`, `30:${H('3')}`]],
      [H('2'), [`5:${H('4')}`]],
    ]);
  });
});
