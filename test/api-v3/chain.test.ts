// API v3 core chain endpoints against chdb filled from the real mainnet fixture blocks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as S from '../../schemas/api/v3/entities.ts';
import { formatFriendly, parseAddress } from '../../src/format/index.ts';
import { get, openFixture, txIndex, type Fixture, type TxIndexEntry } from './helpers.ts';

const b64 = (hex: string) => Buffer.from(hex, 'hex').toString('base64');
const b64url = (hex: string) => Buffer.from(hex, 'hex').toString('base64url');
const upperRaw = (a: string) => { const [wc, h] = a.split(':'); return `${wc}:${h.toUpperCase()}`; };

let f: Fixture;
let index: TxIndexEntry[];
let indexed: TxIndexEntry[];

beforeAll(async () => {
  f = await openFixture();
  index = txIndex().filter((t) => t.network === 'mainnet');
  const loaded = new Set(f.blocks.map((p) => 'blocks/mainnet/' + p.split('/').pop()));
  indexed = index.filter((t) => loaded.has(t.block));
});
afterAll(async () => {
  await f?.close();
});

type Tx = { hash: string; lt: string; account: string; now: number };

describe('masterchainInfo, blocks, indexStatus', () => {
  it('masterchainInfo: first and last indexed masterchain blocks with real hashes', async () => {
    const r = await get(f.app, '/api/v3/masterchainInfo');
    expect(r.status).toBe(200);
    const body = S.MasterchainInfo.parse(r.body);
    expect(body.first.seqno).toBe(1);
    expect(body.first.root_hash).toBe(b64('f0662186b8a077c0b0646ad14f9f62ba52c372089362ebce033149c6e81cd13b'));
    expect(body.first.gen_utime).toBe('1573822385');
    expect(body.last.seqno).toBe(58508098);
    expect(body.last.workchain).toBe(-1);
    expect(body.last.shard).toBe('8000000000000000');
    expect(r.headers['x-api-version']).toBe('1.2.6');
    expect(String(r.headers['server-timing'])).toMatch(/^app;dur=\d+(\.\d+)?$/);
  });

  it('indexStatus: first/last seqno and the gaps between the indexed masterchain blocks', async () => {
    const r = await get(f.app, '/api/v3/indexStatus');
    const s = S.IndexStatus.parse(r.body);
    expect(s.first_mc_seqno).toBe(1);
    expect(s.last_mc_seqno).toBe(58508098);
    const mc = f.blocks.filter((p) => /mainnet-mc-/.test(p)).length;
    expect(s.indexed_mc_blocks).toBe(mc);
    expect(s.gaps).toBe(58508098 - 1 + 1 - mc);
    expect(s.first_gaps[0]).toEqual({ from: 2, to: 17734190 });
    expect(s.network_mc_seqno).toBeNull();
  });

  it('blocks: by id, by root hash in hex / base64 / base64url, by mc_seqno', async () => {
    const hash = '244d0a2f58561995bd57943b0db945cb9fa6a5181d501efc334636aa4401c241';
    for (const form of [hash, hash.toUpperCase(), b64(hash), b64url(hash)]) {
      const r = await get(f.app, `/api/v3/blocks?root_hash=${encodeURIComponent(form)}`);
      expect(r.status).toBe(200);
      const { blocks } = S.BlocksResponse.parse(r.body);
      expect(blocks.map((b) => [b.workchain, b.shard, b.seqno])).toEqual([[0, '8000000000000000', 71398501]]);
      expect(blocks[0].tx_count).toBe(index.filter((t) => t.block.endsWith('71398501.boc')).length);
    }
    const byId = await get(f.app, '/api/v3/blocks?workchain=0&shard=8000000000000000&seqno=71398501');
    expect((byId.body.blocks as unknown[]).length).toBe(1);
    // signed decimal shard form
    const signed = await get(f.app, '/api/v3/blocks?workchain=0&shard=-9223372036854775808&seqno=71398501');
    expect(signed.body).toEqual(byId.body);
    const mc = await get(f.app, '/api/v3/blocks?mc_seqno=58508098');
    expect((mc.body.blocks as { seqno: number }[]).map((b) => b.seqno)).toEqual([58508098]);
  });

  it('blocks: sort and paging over a total order', async () => {
    const all = S.BlocksResponse.parse((await get(f.app, '/api/v3/blocks?sort=asc&limit=1000')).body).blocks;
    expect(all.length).toBe(f.blocks.length);
    const utimes = all.map((b) => Number(b.gen_utime));
    expect(utimes).toEqual([...utimes].sort((a, b) => a - b));
    const desc = S.BlocksResponse.parse((await get(f.app, '/api/v3/blocks?sort=desc&limit=1000')).body).blocks;
    expect(desc.map((b) => b.root_hash)).toEqual(all.map((b) => b.root_hash).reverse());
    const pages: string[] = [];
    for (let off = 0; off < all.length; off += 4) {
      pages.push(...S.BlocksResponse.parse((await get(f.app, `/api/v3/blocks?sort=asc&limit=4&offset=${off}`)).body).blocks.map((b) => b.root_hash));
    }
    expect(pages).toEqual(all.map((b) => b.root_hash));
    const win = S.BlocksResponse.parse((await get(f.app, '/api/v3/blocks?start_utime=1700000000&end_utime=1760000000&sort=asc')).body).blocks;
    expect(win.length).toBeGreaterThan(0);
    for (const b of win) expect(Number(b.gen_utime)).toBeGreaterThanOrEqual(1700000000);
    for (const b of win) expect(Number(b.gen_utime)).toBeLessThanOrEqual(1760000000);
    expect(win.length).toBe(all.filter((b) => Number(b.gen_utime) >= 1700000000 && Number(b.gen_utime) <= 1760000000).length);
  });

  it('masterchainBlockShardState / masterchainBlockShards: the masterchain block itself; 404 for an unknown seqno', async () => {
    const st = await get(f.app, '/api/v3/masterchainBlockShardState?seqno=58508098');
    expect(st.status).toBe(200);
    expect(S.BlocksResponse.parse(st.body).blocks.some((b) => b.workchain === -1 && b.seqno === 58508098)).toBe(true);
    const sh = await get(f.app, '/api/v3/masterchainBlockShards?seqno=58508098');
    expect(S.BlocksResponse.parse(sh.body).blocks.map((b) => b.seqno)).toContain(58508098);
    expect((await get(f.app, '/api/v3/masterchainBlockShards?seqno=5')).status).toBe(404);
    expect((await get(f.app, '/api/v3/masterchainBlockShardState?seqno=5')).body).toEqual({ code: 404, error: 'blocks not found' });
  });
});

describe('transactions', () => {
  it('by hash in every form: real lt, account, now, statuses', async () => {
    const t = indexed.find((x) => x.block.endsWith('71398501.boc') && x.in_type === 'internal')!;
    for (const form of [t.hash, b64(t.hash), b64url(t.hash), '0x' + t.hash]) {
      const r = await get(f.app, `/api/v3/transactions?hash=${encodeURIComponent(form)}`);
      expect(r.status).toBe(200);
      const { transactions, address_book } = S.TransactionsResponse.parse(r.body);
      expect(transactions).toHaveLength(1);
      const tx = transactions[0];
      expect(tx.hash).toBe(b64(t.hash));
      expect(tx.lt).toBe(t.lt);
      expect(tx.now).toBe(t.now);
      expect(tx.account).toBe(upperRaw(t.account));
      expect(tx.orig_status).toBe(t.orig);
      expect(tx.end_status).toBe(t.end);
      expect(tx.description.aborted).toBe(t.aborted);
      expect(tx.block_ref).toEqual({ workchain: 0, shard: '8000000000000000', seqno: 71398501 });
      expect(tx.in_msg?.value).toBe(t.in_value);
      expect(Object.keys(address_book)).toContain(tx.account);
    }
  });

  it('by account (raw and friendly forms): every indexed transaction of the account, newest first', async () => {
    const acc = '-1:3333333333333333333333333333333333333333333333333333333333333333';
    const expected = indexed.filter((t) => t.account === acc).sort((a, b) => (BigInt(b.lt) > BigInt(a.lt) ? 1 : -1));
    const friendly = formatFriendly(parseAddress(acc), { bounceable: true, urlSafe: true });
    for (const form of [acc, friendly, formatFriendly(parseAddress(acc), { bounceable: false, urlSafe: false })]) {
      const r = await get(f.app, `/api/v3/transactions?account=${encodeURIComponent(form)}&limit=1000`);
      const { transactions } = S.TransactionsResponse.parse(r.body);
      expect(transactions.map((t) => t.lt)).toEqual(expected.map((t) => t.lt));
    }
    const asc = S.TransactionsResponse.parse((await get(f.app, `/api/v3/transactions?account=${acc}&sort=asc&limit=1000`)).body).transactions;
    expect(asc.map((t) => t.lt)).toEqual(expected.map((t) => t.lt).reverse());
  });

  it('global list pages never skip or repeat (lt, account, hash order)', async () => {
    const all = S.TransactionsResponse.parse((await get(f.app, '/api/v3/transactions?limit=1000&sort=asc&x_no_address_book=1')).body).transactions as Tx[];
    expect(all.length).toBe(Math.min(1000, indexed.length));
    for (let i = 1; i < all.length; i++) {
      const a = all[i - 1];
      const b = all[i];
      const ok = BigInt(a.lt) < BigInt(b.lt) || (a.lt === b.lt && (a.account < b.account || (a.account === b.account && a.hash <= b.hash)));
      expect(ok).toBe(true);
    }
    const paged: string[] = [];
    for (let off = 0; off < 300; off += 70) {
      const p = S.TransactionsResponse.parse((await get(f.app, `/api/v3/transactions?limit=70&offset=${off}&sort=asc`, { 'X-No-Address-Book': '1' })).body);
      expect(p.address_book).toEqual({});
      paged.push(...p.transactions.map((t) => t.hash));
    }
    expect(paged).toEqual(all.slice(0, paged.length).map((t) => t.hash));
    expect(new Set(paged).size).toBe(paged.length);
  });

  it('lt, lt window and utime window', async () => {
    const t = indexed.find((x) => x.block.endsWith('mc-17734191.boc'))!;
    const byLt = S.TransactionsResponse.parse((await get(f.app, `/api/v3/transactions?lt=${t.lt}`)).body).transactions;
    expect(byLt.map((x) => x.hash)).toContain(b64(t.hash));
    for (const x of byLt) expect(x.lt).toBe(t.lt);
    const lo = 76734069000000n;
    const hi = 76734069000034n;
    const win = S.TransactionsResponse.parse((await get(f.app, `/api/v3/transactions?start_lt=${lo}&end_lt=${hi}&limit=1000`)).body).transactions;
    expect(win.length).toBe(indexed.filter((x) => BigInt(x.lt) >= lo && BigInt(x.lt) <= hi).length);
    const ut = S.TransactionsResponse.parse((await get(f.app, `/api/v3/transactions?start_utime=${t.now}&end_utime=${t.now}&limit=1000`)).body).transactions;
    expect(ut.length).toBe(indexed.filter((x) => x.now === t.now).length);
  });

  it('by block and by masterchain block; 404 for an unknown masterchain block', async () => {
    const blk = await get(f.app, '/api/v3/transactions?workchain=0&shard=8000000000000000&seqno=71398501&limit=1000');
    expect((blk.body.transactions as unknown[]).length).toBe(indexed.filter((x) => x.block.endsWith('71398501.boc')).length);
    // every block the masterchain block commits (itself and the shard blocks the importer assigned to it)
    const committed = S.BlocksResponse.parse((await get(f.app, '/api/v3/masterchainBlockShards?seqno=58508098')).body).blocks;
    const files = new Set(committed.map((b) => (b.workchain === -1 ? `mc-${b.seqno}.boc` : `wc0-${b.shard.toLowerCase()}-${b.seqno}.boc`)));
    const mc = S.TransactionsResponse.parse((await get(f.app, '/api/v3/transactionsByMasterchainBlock?seqno=58508098&limit=1000')).body).transactions;
    const want = indexed.filter((x) => [...files].some((fl) => x.block.endsWith(fl)));
    expect(want.length).toBe(committed.reduce((n, b) => n + b.tx_count, 0));
    expect(mc.map((x) => x.hash).sort()).toEqual(want.map((x) => b64(x.hash)).sort());
    for (const t of mc) expect(t.mc_block_seqno).toBe(58508098);
    expect((await get(f.app, '/api/v3/transactionsByMasterchainBlock?seqno=2')).body).toEqual({ code: 404, error: 'masterchain block 2 not found' });
    expect((await get(f.app, '/api/v3/transactions?mc_seqno=2')).status).toBe(404);
  });

  it('transactionsByMessage and adjacentTransactions link the sender and the receiver of an internal message', async () => {
    const all = S.TransactionsResponse.parse((await get(f.app, '/api/v3/transactions?workchain=0&shard=8000000000000000&seqno=71398501&limit=1000')).body).transactions;
    const sender = all.find((t) => t.out_msgs.some((m) => all.some((r) => r.in_msg?.hash === m.hash)))!;
    const msg = sender.out_msgs.find((m) => all.some((r) => r.in_msg?.hash === m.hash))!;
    const receiver = all.find((r) => r.in_msg?.hash === msg.hash)!;
    const both = S.TransactionsResponse.parse((await get(f.app, `/api/v3/transactionsByMessage?msg_hash=${encodeURIComponent(msg.hash)}`)).body).transactions;
    expect(both.map((t) => t.hash).sort()).toEqual([sender.hash, receiver.hash].sort());
    const inOnly = S.TransactionsResponse.parse((await get(f.app, `/api/v3/transactionsByMessage?msg_hash=${encodeURIComponent(msg.hash)}&direction=in`)).body).transactions;
    expect(inOnly.map((t) => t.hash)).toEqual([receiver.hash]);
    const parent = S.TransactionsResponse.parse((await get(f.app, `/api/v3/adjacentTransactions?hash=${encodeURIComponent(receiver.hash)}&direction=in`)).body).transactions;
    expect(parent.map((t) => t.hash)).toEqual([sender.hash]);
    const children = S.TransactionsResponse.parse((await get(f.app, `/api/v3/adjacentTransactions?hash=${encodeURIComponent(sender.hash)}&direction=out`)).body).transactions;
    expect(children.map((t) => t.hash)).toContain(receiver.hash);
    expect((await get(f.app, '/api/v3/transactionsByMessage')).body).toEqual({ code: 422, error: 'at least one of msg_hash, body_hash, opcode should be specified' });
  });
});

describe('messages', () => {
  it('by hash: one row with both transaction hashes; external-in via source=null; opcode filter', async () => {
    const all = S.TransactionsResponse.parse((await get(f.app, '/api/v3/transactions?workchain=0&shard=8000000000000000&seqno=71398501&limit=1000')).body).transactions;
    const receiver = all.find((t) => t.in_msg?.source && all.some((s) => s.out_msgs.some((m) => m.hash === t.in_msg!.hash)))!;
    const sender = all.find((s) => s.out_msgs.some((m) => m.hash === receiver.in_msg!.hash))!;
    const r = S.MessagesResponse.parse((await get(f.app, `/api/v3/messages?msg_hash=${encodeURIComponent(receiver.in_msg!.hash)}`)).body);
    expect(r.messages).toHaveLength(1);
    expect(r.messages[0].in_msg_tx_hash).toBe(receiver.hash);
    expect(r.messages[0].out_msg_tx_hash).toBe(sender.hash);
    expect(r.messages[0].value).toBe(receiver.in_msg!.value);
    const ext = S.MessagesResponse.parse((await get(f.app, '/api/v3/messages?source=null&limit=1000')).body).messages;
    const extCount = indexed.filter((t) => t.in_type === 'external-in').length;
    expect(ext.length).toBe(extCount);
    for (const m of ext) expect(m.source).toBeNull();
    const op = S.MessagesResponse.parse((await get(f.app, '/api/v3/messages?opcode=0x0f8a7ea5&limit=1000')).body).messages;
    for (const m of op) expect(m.opcode).toBe('0x0f8a7ea5');
    const comments = S.MessagesResponse.parse((await get(f.app, '/api/v3/messages?opcode=0&limit=5')).body).messages;
    for (const m of comments) expect(m.decoded_opcode).toBe('text_comment');
  });
});

describe('accounts', () => {
  const wallet = '0:EB88890F2525CAC9BDE67ED69E826BA3BD09E8153D60C860B75283AE6573EF9C';
  it('accountStates / walletStates / addressInformation / walletInformation of a v5r1 wallet', async () => {
    const st = S.AccountStatesResponse.parse((await get(f.app, `/api/v3/accountStates?address=${wallet}`)).body);
    expect(st.accounts).toHaveLength(1);
    expect(st.accounts[0].status).toBe('active');
    expect(st.accounts[0].interfaces).toEqual(['wallet_v5r1']);
    const lastTx = indexed.filter((t) => upperRaw(t.account) === wallet).sort((a, b) => (BigInt(a.lt) < BigInt(b.lt) ? 1 : -1))[0];
    expect(st.accounts[0].last_transaction_lt).toBe(lastTx.lt);
    expect(st.accounts[0].last_transaction_hash).toBe(b64(lastTx.hash));
    const noBoc = S.AccountStatesResponse.parse((await get(f.app, `/api/v3/accountStates?address=${wallet}&include_boc=false`)).body);
    expect(noBoc.accounts[0].data_boc).toBeUndefined();
    const ws = S.WalletStatesResponse.parse((await get(f.app, `/api/v3/walletStates?address=${wallet}`)).body).wallets[0];
    expect(ws).toMatchObject({ is_wallet: true, wallet_type: 'wallet v5 r1', is_signature_allowed: true, seqno: 48, balance: st.accounts[0].balance });
    const wi = await get(f.app, `/api/v3/walletInformation?address=${wallet}`);
    expect(wi.body).toMatchObject({ wallet_type: 'wallet v5 r1', seqno: 48, balance: st.accounts[0].balance, status: 'active' });
    const unknown = await get(f.app, `/api/v3/addressInformation?address=0:${'AB'.repeat(32)}`);
    expect(unknown.body).toMatchObject({ balance: '0', status: 'uninit', last_transaction_lt: '0' });
  });

  it('addressBook: inputs echoed as keys, wallets non-bounceable, unparseable null', async () => {
    const friendlyB = formatFriendly(parseAddress(wallet), { bounceable: true, urlSafe: true });
    const r = await get(f.app, `/api/v3/addressBook?address=${friendlyB}&address=junk&address=${encodeURIComponent('-1:3333333333333333333333333333333333333333333333333333333333333333')}`);
    const book = S.AddressBook.parse(r.body);
    expect(book[friendlyB]).toEqual({ user_friendly: formatFriendly(parseAddress(wallet), { bounceable: false, urlSafe: true }), domain: null, interfaces: ['wallet_v5r1'] });
    expect(book.junk.user_friendly).toBeNull();
    // elector (has code, not a wallet): bounceable
    expect(book['-1:3333333333333333333333333333333333333333333333333333333333333333'].user_friendly).toMatch(/^Ef/);
  });

  it('topAccountsByBalance: balance desc', async () => {
    const top = S.TopAccounts.parse((await get(f.app, '/api/v3/topAccountsByBalance?limit=20')).body);
    expect(top.length).toBeGreaterThan(1);
    for (let i = 1; i < top.length; i++) expect(BigInt(top[i - 1].balance) >= BigInt(top[i].balance)).toBe(true);
  });
});

describe('strict input', () => {
  const cases: [string, number, RegExp][] = [
    ['/api/v3/transactions?acount=0:00', 422, /unknown parameter: "acount"/],
    ['/api/v3/jetton/wallets?owner_id=x', 422, /unknown parameter: "owner_id"/],
    ['/api/v3/transactions?limit=1001', 422, /invalid limit: 1001 is above the maximum 1000/],
    ['/api/v3/transactions?sort=up', 422, /invalid sort/],
    ['/api/v3/transactions?account=EQnotanaddress', 422, /invalid account/],
    ['/api/v3/transactions?hash=abcd', 422, /invalid hash/],
    ['/api/v3/transactions?lt=-1', 422, /invalid lt/],
    ['/api/v3/transactions?lt=1&lt=2', 422, /invalid lt: given more than once/],
    ['/api/v3/blocks?shard=zz', 422, /invalid shard/],
    ['/api/v3/messages?opcode=0xfffffffff', 422, /invalid opcode/],
    ['/api/v3/messages?direction=up', 422, /invalid direction/],
    ['/api/v3/accountStates', 422, /invalid address: required/],
    ['/api/v3/masterchainBlockShards?seqno=abc', 422, /invalid seqno/],
    ['/api/v3/transactions?start_utime=yesterday', 422, /invalid start_utime/],
    ['/api/v3/accountStates?address=0:00&include_boc=maybe', 422, /invalid address/],
    ['/api/v3/nope', 404, /unknown method/],
  ];
  for (const [url, status, re] of cases) {
    it(`${url} -> ${status}`, async () => {
      const r = await get(f.app, url);
      expect(r.status).toBe(status);
      expect(S.ErrorResponse.parse(r.body).code).toBe(status);
      expect(r.body.error as string).toMatch(re);
    });
  }

  it('a driver failure is a stable error without internals', async () => {
    const { Db } = await import('../../src/api/v3/db.ts');
    const db = new Db(f.store, 1);
    const err = await db.q('SELECT count() FROM numbers(100000000000) WHERE sipHash64(number) % 7 = 3').catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 504 });
    expect((err as Error).message).toMatch(/^query timeout/);
    const bad = await new Db(f.store).q('SELECT * FROM no_such_table').catch((e: unknown) => e);
    expect(bad).toMatchObject({ status: 500, message: 'index database error' });
  });
});

describe('idempotent reads', () => {
  it('blocks written twice answer exactly as before (no FINAL needed for the dedup)', async () => {
    const urls = [
      '/api/v3/transactions?limit=1000&sort=asc',
      '/api/v3/transactions?account=-1:3333333333333333333333333333333333333333333333333333333333333333&limit=5&offset=3',
      '/api/v3/blocks?limit=1000',
      '/api/v3/messages?limit=50',
      '/api/v3/masterchainBlockShards?seqno=58508098',
      '/api/v3/accountStates?address=0:EB88890F2525CAC9BDE67ED69E826BA3BD09E8153D60C860B75283AE6573EF9C',
      '/api/v3/transactionsByMasterchainBlock?seqno=58508098',
    ];
    const before = await Promise.all(urls.map((u) => get(f.app, u)));
    const { importBlocks } = await import('../../pipelines/index.ts');
    const { decodeBlock } = await import('../../src/ton/index.ts');
    const { readFileSync } = await import('node:fs');
    await importBlocks(f.store, f.blocks.map((p) => decodeBlock(readFileSync(p))));
    const [{ n }] = await f.store.query<{ n: string }>('SELECT count() AS n FROM transactions');
    // the duplicates are there until a background merge collapses them
    expect(Number(n)).toBeGreaterThanOrEqual(indexed.length);
    const after = await Promise.all(urls.map((u) => get(f.app, u)));
    for (let i = 0; i < urls.length; i++) expect(after[i].body).toEqual(before[i].body);
  });
});
