// The key-value store on its own: what each mirrored table's rows become, what a reader sees at each `visible`,
// versions kept and dropped, replays, and the lists in lt order (src/kv).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Kv, kvPointReads, mirrorRows, type PointReads } from '../../src/kv/index.ts';

const A = '0:' + 'A1'.repeat(32);
const B = '0:' + 'B2'.repeat(32);
const C = '-1:' + 'C3'.repeat(32);
const h = (n: number) => n.toString(16).padStart(64, '0');

describe('kv store', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tg-kv-'));
  let kv: Kv;
  let reads: PointReads;
  beforeAll(() => {
    kv = Kv.open({ dataDir: dir });
    reads = kvPointReads(kv);
  });
  afterAll(async () => {
    await kv.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const latest = (account: string, lt: bigint, balance: bigint) => ({ account, hash: h(Number(lt)), balance, last_trans_lt: lt, account_status: 'active', code_hash: null, data_boc: null });

  it('a versioned entry: readers see the newest version whose tag is visible, writers drop the ones below it', async () => {
    expect(kv.visible()).toBe(0);
    await mirrorRows(kv, [{ table: 'latest_account_states', rows: [latest(A, 10n, 1n)], tag: 5 }]);
    // tag 5 is not visible yet
    expect(await reads.latestStates([A])).toEqual([]);
    await kv.setVisible(5);
    expect(await reads.latestStates([A])).toEqual([expect.objectContaining({ account: A, last_trans_lt: '10', balance: '1' })]);
    await mirrorRows(kv, [{ table: 'latest_account_states', rows: [latest(A, 20n, 2n)], tag: 7 }]);
    // the newer version waits for its seqno; the older one still answers
    expect((await reads.latestStates([A]))[0].balance).toBe('1');
    await kv.setVisible(7);
    expect((await reads.latestStates([A]))[0].balance).toBe('2');
    // a replay of the older block writes nothing (the newer one is visible) and the next write drops the old version
    await mirrorRows(kv, [{ table: 'latest_account_states', rows: [latest(A, 10n, 1n)], tag: 5 }]);
    expect([...kv.db.latest.getKeys()].length).toBe(1);
    expect((await reads.latestStates([A]))[0].balance).toBe('2');
    // visible never goes back
    await kv.setVisible(3);
    expect(kv.visible()).toBe(7);
  });

  it('documents, states by hash, message and trace indexes are visible from their tag on', async () => {
    await mirrorRows(kv, [
      { table: 'transaction_docs_kv', rows: [{ hash: h(1), account: A, lt: 1n, traced: 1, doc: 'doc-1' }, { hash: h(2), account: A, lt: 2n, traced: 0, doc: 'doc-2' }], tag: 7 },
      { table: 'transaction_docs_kv', rows: [{ hash: h(3), account: B, lt: 3n, traced: 1, doc: 'doc-3' }], tag: 8 },
      { table: 'message_hashes', rows: [{ hash: h(9), direction: 'out', is_norm: 0, msg_hash: h(9), tx_account: A, tx_lt: 1n, tx_hash: h(1) }, { hash: h(9), direction: 'in', is_norm: 0, msg_hash: h(9), tx_account: B, tx_lt: 3n, tx_hash: h(3) }], tag: 7 },
      { table: 'trace_transactions', rows: [{ trace_id: h(1), lt: 1n, account: A, hash: h(1) }, { trace_id: h(1), lt: 3n, account: B, hash: h(3) }], tag: 8 },
    ]);
    expect((await reads.docs([h(1), h(2), h(3), h(4)])).sort()).toEqual(['doc-1', 'doc-2']);
    expect(await reads.messageTxs([h(9)])).toEqual([
      { hash: h(9), direction: 'in', is_norm: 0, msg_hash: h(9), tx_account: B, tx_lt: '3', tx_hash: h(3) },
      { hash: h(9), direction: 'out', is_norm: 0, msg_hash: h(9), tx_account: A, tx_lt: '1', tx_hash: h(1) },
    ]);
    expect(await reads.traceTxs([h(1)])).toEqual([]);
    await kv.setVisible(8);
    expect((await reads.docs([h(3)]))).toEqual(['doc-3']);
    expect(await reads.traceTxs([h(1)])).toEqual([
      { trace_id: h(1), account: A, lt: '1', hash: h(1) },
      { trace_id: h(1), account: B, lt: '3', hash: h(3) },
    ]);
    // a document with its trace id is never replaced by one without
    await mirrorRows(kv, [{ table: 'transaction_docs_kv', rows: [{ hash: h(1), account: A, lt: 1n, traced: 0, doc: 'untraced' }], tag: 8 }]);
    expect(await reads.docs([h(1)])).toEqual(['doc-1']);
  });

  it('facts keep their earliest tag; dns domains follow the item that names a wallet while the wallet owns it', async () => {
    await mirrorRows(kv, [
      { table: 'jetton_wallets', rows: [{ address: A, owner: B, jetton: C, balance: 5n, last_transaction_lt: 1n }], tag: 9 },
      { table: 'jetton_wallets', rows: [{ address: A, owner: B, jetton: C, balance: 6n, last_transaction_lt: 2n }], tag: 10 },
      { table: 'nft_items', rows: [{ address: B, init: true, index: 42n, collection_address: C, owner_address: A, last_transaction_lt: 1n }], tag: 9 },
    ]);
    await kv.setVisible(9);
    expect(await reads.facts([A, B], ['jetton_wallets', 'nft_items'])).toEqual([
      { address: A, fact: 'jetton_wallets', value: null },
      { address: B, fact: 'nft_items', value: '42' },
    ]);
    expect(await reads.jettonWallets([A])).toEqual([{ address: A, owner: B, jetton: C, balance: '5' }]);
    await kv.setVisible(10);
    expect((await reads.jettonWallets([A]))[0].balance).toBe('6');
    const item1 = '0:' + 'D4'.repeat(32);
    const item2 = '0:' + 'E5'.repeat(32);
    await mirrorRows(kv, [
      { table: 'dns_entries', rows: [{ nft_item_address: item1, nft_item_owner: A, domain: 'long-name.ton', dns_wallet: A, last_transaction_lt: 1n }], tag: 10 },
      { table: 'dns_entries', rows: [{ nft_item_address: item2, nft_item_owner: A, domain: 'ab.ton', dns_wallet: A, last_transaction_lt: 1n }], tag: 10 },
    ]);
    expect(await reads.domains([A])).toEqual(new Map([[A, 'ab.ton']]));
    expect(await reads.facts([A], ['dns_entries'])).toEqual([{ address: A, fact: 'dns_entries', value: null }]);
    // the shorter name's item changes owner: its wallet is no longer named by an item it owns
    await mirrorRows(kv, [{ table: 'dns_entries', rows: [{ nft_item_address: item2, nft_item_owner: B, domain: 'ab.ton', dns_wallet: A, last_transaction_lt: 5n }], tag: 10 }]);
    expect(await reads.domains([A])).toEqual(new Map([[A, 'long-name.ton']]));
  });

  it("an account's transactions and jetton transfers by owner, paged in lt order within a window", async () => {
    const txs = [1n, 2n, 3n, 4n, 5n].map((lt) => ({ lt, account: C, hash: h(100 + Number(lt)) }));
    await mirrorRows(kv, [{ table: 'transactions_by_lt', rows: txs, tag: 10 }, { table: 'transactions_by_lt', rows: [{ lt: 6n, account: C, hash: h(106) }], tag: 11 }]);
    const keys = async (page: Partial<Parameters<PointReads['accountTxKeys']>[1]>) =>
      (await reads.accountTxKeys(C, { dir: 'DESC', limit: 10, offset: 0, ...page }))!.map((k) => k.lt);
    expect(await keys({})).toEqual(['5', '4', '3', '2', '1']);
    expect(await keys({ dir: 'ASC', offset: 1, limit: 2 })).toEqual(['2', '3']);
    expect(await keys({ startLt: 2n, endLt: 4n })).toEqual(['4', '3', '2']);
    const transfer = (lt: bigint, source: string, destination: string, aborted = false) => ({
      tx_hash: h(200 + Number(lt)), tx_lt: lt, tx_now: 1, tx_aborted: aborted, mc_seqno: 1, query_id: 0n, amount: 10n ** 30n, source, destination,
      jetton_wallet_address: C, jetton_master_address: C, response_destination: null, custom_payload: null, forward_ton_amount: null, forward_payload: null, trace_id: null,
    });
    await mirrorRows(kv, [{ table: 'jetton_transfers', rows: [transfer(1n, A, B), transfer(2n, B, A), transfer(3n, A, A), transfer(4n, A, B, true)], tag: 10 }]);
    const lts = async (owners: string[], dir: 'in' | 'out' | 'both', page: Partial<Parameters<PointReads['accountTxKeys']>[1]> = {}) =>
      (await reads.jettonTransfers(owners, dir, { dir: 'DESC', limit: 10, offset: 0, ...page }))!.map((r) => r.tx_lt);
    expect(await lts([A], 'both')).toEqual(['3', '2', '1']);
    expect(await lts([A], 'out')).toEqual(['3', '1']);
    expect(await lts([A], 'in')).toEqual(['3', '2']);
    // both owners: each transfer once
    expect(await lts([A, B], 'both', { dir: 'ASC' })).toEqual(['1', '2', '3']);
    expect((await reads.jettonTransfers([A], 'both', { dir: 'DESC', limit: 1, offset: 0 }))![0].amount).toBe((10n ** 30n).toString());
  });

  it('a second process reads what the writer committed, read-only', async () => {
    const reader = Kv.open({ dataDir: dir, readOnly: true });
    try {
      expect(reader.visible()).toBe(kv.visible());
      expect(await kvPointReads(reader).docs([h(1)])).toEqual(['doc-1']);
    } finally {
      await reader.close();
    }
  });
  it('a document read again after its entry changed gives the new entry (the read cache compares stored bytes)', async () => {
    const key = h(77);
    await mirrorRows(kv, [{ table: 'transaction_docs_kv', rows: [{ hash: key, account: A, lt: 77n, traced: 0, doc: 'untraced-77' }], tag: 1 }]);
    expect(await reads.docs([key])).toEqual(['untraced-77']);
    expect(await reads.docs([key])).toEqual(['untraced-77']);
    // rewritten with its trace id (same length, so only the bytes differ), then past the checkpoint
    await mirrorRows(kv, [{ table: 'transaction_docs_kv', rows: [{ hash: key, account: A, lt: 77n, traced: 1, doc: 'traced---77' }], tag: 1 }]);
    expect(await reads.docs([key])).toEqual(['traced---77']);
    await mirrorRows(kv, [{ table: 'transaction_docs_kv', rows: [{ hash: key, account: A, lt: 77n, traced: 1, doc: 'traced---77' }], tag: 1_000_000 }]);
    // the same text under a tag past `visible`: not shown, whatever was read before
    expect(await reads.docs([key])).toEqual([]);
  });
});
