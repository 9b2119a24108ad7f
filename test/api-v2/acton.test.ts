/**
 * API v2 against the devnet liteserver serving the recorded acton local-net chain (4 blocks, 3 wallet
 * transactions): a real ADNL socket, ton-lite-client, our NodeClient; values checked against the ids of
 * test/fixtures/MANIFEST.md.
 */
import { createServer, type Server } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cell } from '@ton/core';
import type { FastifyInstance } from 'fastify';
import { LiteSingleEngine } from 'ton-lite-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRecordedChain } from '../../src/devnet/chain/index.ts';
import { seedFromText, startLiteServer, type LiteServer } from '../../src/devnet/liteserver/index.ts';
import { formatFriendly } from '../../src/format/index.ts';
import { LiteNode } from '../../src/api/v2/index.ts';
import { LiteserverPool } from '../../src/source/index.ts';
import * as R from '../../schemas/api/v2/responses.ts';
import { ACTON, ACTON_IDS as IDS, apiOver, b64, call, connectEngine, FIX } from './helpers.ts';

const SHARD = '-9223372036854775808';
const WALLET = `0:${IDS.wallet}`;
const WALLET_FRIENDLY = formatFriendly({ workchain: 0, hash: IDS.wallet }, { bounceable: true, urlSafe: true });

let server: LiteServer;
let engine: LiteSingleEngine;
let app: FastifyInstance;

beforeAll(async () => {
  server = await startLiteServer({ source: loadRecordedChain(ACTON), key: seedFromText('api-v2.acton'), port: 0 });
  engine = await connectEngine(server.port, server.publicKey);
  app = await apiOver(LiteNode.fromEngine(engine, { timeoutMs: 5_000 }));
});
afterAll(async () => {
  await app?.close();
  engine?.close();
  await server?.close();
});

describe('blocks', () => {
  it('getMasterchainInfo: mc 2 with its hashes, the zero state', async () => {
    const r = await call(app, 'getMasterchainInfo');
    expect(r.status).toBe(200);
    expect(r.body.ok).toBe(true);
    expect(r.result['@type']).toBe('blocks.masterchainInfo');
    expect(r.result.last).toMatchObject({ '@type': 'ton.blockIdExt', workchain: -1, shard: SHARD, seqno: 2, root_hash: b64(IDS.mc2.root) });
    expect((r.result.init as { workchain: number }).workchain).toBe(-1);
    expect(typeof r.result.state_root_hash).toBe('string');
  });

  it('getConsensusBlock falls back to the tip when no pool tracks it', async () => {
    const r = await call(app, 'getConsensusBlock');
    expect(r.result).toMatchObject({ '@type': 'ext.blocks.consensusBlock', consensus_block: 2 });
  });

  it('lookupBlock by seqno, lt and unixtime', async () => {
    let r = await call(app, 'lookupBlock', { workchain: 0, shard: SHARD, seqno: 1 });
    expect(r.result).toEqual({ '@type': 'ton.blockIdExt', workchain: 0, shard: SHARD, seqno: 1, root_hash: b64(IDS.wc1.root), file_hash: b64(IDS.wc1.file) });
    r = await call(app, 'lookupBlock', { workchain: -1, shard: '8000000000000000', seqno: 1 });
    expect(r.result).toMatchObject({ seqno: 1, root_hash: b64(IDS.mc1.root), file_hash: b64(IDS.mc1.file) });
    r = await call(app, 'lookupBlock', { workchain: 0, shard: SHARD, lt: 3 });
    expect(r.result).toMatchObject({ seqno: 2, root_hash: b64(IDS.wc2.root) });
    r = await call(app, 'lookupBlock', { workchain: -1, shard: SHARD, unixtime: IDS.genUtime });
    expect(r.result).toMatchObject({ workchain: -1 });
  });

  it('lookupBlock of a block beyond the tip -> 404', async () => {
    const r = await call(app, 'lookupBlock', { workchain: 0, shard: SHARD, seqno: 9 });
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ ok: false, code: 404 });
    expect(r.body.error).toMatch(/^block \(0, -9223372036854775808, seqno 9\) not found/);
  });

  it('getShards: the wc0 shard top committed by each masterchain block', async () => {
    let r = await call(app, 'getShards', { seqno: 2 });
    expect(r.result).toEqual({
      '@type': 'blocks.shards',
      shards: [{ '@type': 'ton.blockIdExt', workchain: 0, shard: SHARD, seqno: 2, root_hash: b64(IDS.wc2.root), file_hash: expect.any(String) }],
    });
    r = await call(app, 'shards', { seqno: 1 });
    expect((r.result.shards as { root_hash: string; file_hash: string }[])[0]).toMatchObject({ seqno: 1, root_hash: b64(IDS.wc1.root), file_hash: b64(IDS.wc1.file) });
  });

  it('getBlockHeader: BlockInfo fields and the previous block of the header proof', async () => {
    const r = await call(app, 'getBlockHeader', { workchain: 0, shard: SHARD, seqno: 2 });
    expect(r.status).toBe(200);
    expect(r.result).toMatchObject({
      '@type': 'blocks.header',
      id: { workchain: 0, shard: SHARD, seqno: 2, root_hash: b64(IDS.wc2.root) },
      global_id: -3,
      after_merge: false,
      after_split: false,
      before_split: false,
      is_key_block: false,
      start_lt: '2',
      end_lt: '3',
      gen_utime: IDS.genUtime,
      prev_blocks: [{ '@type': 'ton.blockIdExt', workchain: 0, shard: SHARD, seqno: 1, root_hash: b64(IDS.wc1.root), file_hash: b64(IDS.wc1.file) }],
    });
  });

  it('getBlockHeader with hashes: the right ones pass, a wrong root_hash is 404', async () => {
    let r = await call(app, 'getBlockHeader', { workchain: 0, shard: SHARD, seqno: 1, root_hash: IDS.wc1.root, file_hash: b64(IDS.wc1.file) });
    expect(r.status).toBe(200);
    r = await call(app, 'getBlockHeader', { workchain: 0, shard: SHARD, seqno: 1, root_hash: IDS.wc2.root });
    expect(r.status).toBe(404);
    expect(r.body.error).toMatch(/root_hash/);
  });
});

describe('transactions', () => {
  it('getBlockTransactions: short ids of the two wallet transactions of wc0 block 2', async () => {
    const r = await call(app, 'getBlockTransactions', { workchain: 0, shard: SHARD, seqno: 2 });
    expect(r.result).toMatchObject({ '@type': 'blocks.transactions', req_count: 40, incomplete: false, id: { seqno: 2 } });
    expect(r.result.transactions).toEqual([
      { '@type': 'blocks.shortTxId', mode: 7, account: `0:${IDS.wallet.toUpperCase()}`, lt: '2', hash: b64(IDS.tx2) },
      { '@type': 'blocks.shortTxId', mode: 7, account: `0:${IDS.wallet.toUpperCase()}`, lt: '4', hash: b64(IDS.tx4) },
    ]);
  });

  it('getBlockTransactionsExt: full transactions, paging with after_lt/after_hash and incomplete', async () => {
    const all = await call(app, 'getBlockTransactionsExt', { workchain: 0, shard: SHARD, seqno: 2 });
    expect(all.result['@type']).toBe('blocks.transactionsExt');
    expect(all.result.incomplete).toBe(false);
    const txs = all.result.transactions as Record<string, unknown>[];
    expect(txs.map((t) => (t.transaction_id as { hash: string }).hash)).toEqual([b64(IDS.tx2), b64(IDS.tx4)]);
    const t4 = txs[1];
    expect(t4).toMatchObject({
      '@type': 'raw.transactionExt',
      address: { '@type': 'accountAddress', account_address: WALLET_FRIENDLY },
      account: `0:${IDS.wallet.toUpperCase()}`,
      utime: IDS.genUtime,
      transaction_id: { '@type': 'internal.transactionId', lt: '4', hash: b64(IDS.tx4) },
    });
    // the data BoC is the transaction cell itself
    expect(Cell.fromBase64(t4.data as string).hash().toString('hex')).toBe(IDS.tx4);
    expect(BigInt(t4.fee as string)).toBe(BigInt(t4.storage_fee as string) + BigInt(t4.other_fee as string));

    const page1 = await call(app, 'getBlockTransactionsExt', { workchain: 0, shard: SHARD, seqno: 2, count: 1 });
    expect(page1.result.incomplete).toBe(true);
    expect(page1.result.req_count).toBe(1);
    const first = (page1.result.transactions as Record<string, unknown>[])[0];
    const page2 = await call(app, 'getBlockTransactionsExt', {
      workchain: 0,
      shard: SHARD,
      seqno: 2,
      count: 1,
      after_lt: (first.transaction_id as { lt: string }).lt,
      after_hash: first.account as string,
    });
    expect(page2.result.incomplete).toBe(false);
    expect((page2.result.transactions as { transaction_id: { hash: string } }[]).map((t) => t.transaction_id.hash)).toEqual([b64(IDS.tx4)]);
  });

  it('getTransactions: the wallet history, newest first, paging with lt/hash and to_lt', async () => {
    const r = await call(app, 'getTransactions', { address: WALLET_FRIENDLY, limit: 10 });
    expect(r.status).toBe(200);
    const list = r.result as unknown as Record<string, unknown>[];
    expect(list.map((t) => (t.transaction_id as { hash: string }).hash)).toEqual([b64(IDS.tx4), b64(IDS.tx2), b64(IDS.tx1)]);
    expect(list[0]).toMatchObject({ '@type': 'ext.transaction', account: `0:${IDS.wallet.toUpperCase()}`, utime: IDS.genUtime });
    // legacy messages: plain string addresses and the decoded `message` field
    // tx4 receives the wallet's own message created at lt 3 (empty body: the reference's "\n" quirk)
    expect(list[0].in_msg).toMatchObject({
      '@type': 'ext.message',
      source: WALLET_FRIENDLY,
      destination: WALLET_FRIENDLY,
      value: '50000000',
      created_lt: '3',
      msg_data: { '@type': 'msg.dataRaw', init_state: '' },
      message: '\n',
    });
    expect(list[0].out_msgs).toEqual([]);
    // tx2 is the external-in deploy: no source; it sends the lt 3 message
    expect(list[1].in_msg).toMatchObject({ source: '', destination: WALLET_FRIENDLY, value: '0', created_lt: '0' });
    expect((list[1].in_msg as { msg_data: { init_state: string } }).msg_data.init_state.length).toBeGreaterThan(0);
    expect(list[1].out_msgs).toMatchObject([{ source: WALLET_FRIENDLY, destination: WALLET_FRIENDLY, created_lt: '3', value: '50000000' }]);
    const page = await call(app, 'getTransactions', { address: WALLET, limit: 2, lt: 2, hash: IDS.tx2 });
    expect((page.result as unknown as { transaction_id: { lt: string } }[]).map((t) => t.transaction_id.lt)).toEqual(['2', '1']);
    const bounded = await call(app, 'getTransactions', { address: WALLET, to_lt: 1 });
    expect((bounded.result as unknown as unknown[]).length).toBe(2);
  });

  it('getTransactionsStd: raw.transactions with the cursor of the next page', async () => {
    const r = await call(app, 'getTransactionsStd', { address: WALLET, limit: 1 });
    expect(r.result['@type']).toBe('raw.transactions');
    expect((r.result.transactions as { '@type': string }[])[0]['@type']).toBe('raw.transaction');
    expect(r.result.previous_transaction_id).toEqual({ '@type': 'internal.transactionId', lt: '2', hash: b64(IDS.tx2) });
  });

  it('getTransactions of an account without history: empty list', async () => {
    const r = await call(app, 'getTransactions', { address: '0:' + '11'.repeat(32) });
    expect(r.status).toBe(200);
    expect(r.result).toEqual([]);
  });

  it('tryLocateResultTx / tryLocateTx find the receiving transaction; tryLocateSourceTx the sending one', async () => {
    const params = { source: WALLET, destination: WALLET_FRIENDLY, created_lt: 3 };
    for (const m of ['tryLocateResultTx', 'tryLocateTx']) {
      const r = await call(app, m, params);
      expect(r.status).toBe(200);
      expect(r.result).toMatchObject({ '@type': 'ext.transaction', transaction_id: { lt: '4', hash: b64(IDS.tx4) } });
    }
    const s = await call(app, 'tryLocateSourceTx', params);
    expect(s.result).toMatchObject({ transaction_id: { lt: '2', hash: b64(IDS.tx2) } });
  });

  it('tryLocateResultTx / tryLocateSourceTx: absent messages -> 404', async () => {
    const r = await call(app, 'tryLocateResultTx', { source: '0:' + '11'.repeat(32), destination: WALLET, created_lt: 3 });
    expect(r.status).toBe(404);
    expect(r.body.error).toBe('transaction was not found');
  });
});

describe('accounts', () => {
  it('getAddressInformation at the tip and at mc 1 (history via seqno)', async () => {
    let r = await call(app, 'getAddressInformation', { address: WALLET });
    expect(r.result).toMatchObject({
      '@type': 'raw.fullAccountState',
      balance: '99998916463',
      state: 'active',
      last_transaction_id: { '@type': 'internal.transactionId', lt: '4', hash: b64(IDS.tx4) },
      block_id: { workchain: -1, seqno: 2, root_hash: b64(IDS.mc2.root) },
      frozen_hash: '',
      suspended: false,
    });
    expect((r.result.code as string).length).toBeGreaterThan(0);
    r = await call(app, 'getAddressInformation', { address: WALLET, seqno: 1 });
    expect(r.result).toMatchObject({ balance: '100000000000', state: 'uninitialized', code: '', data: '', last_transaction_id: { lt: '1', hash: b64(IDS.tx1) } });
  });

  it('getAddressBalance / getAddressState, any address form', async () => {
    expect((await call(app, 'getAddressBalance', { address: WALLET_FRIENDLY })).result).toBe('99998916463');
    expect((await call(app, 'getAddressState', { address: WALLET })).result).toBe('active');
    expect((await call(app, 'getAddressState', { address: '0:' + '11'.repeat(32) })).result).toBe('uninitialized');
    expect((await call(app, 'getAddressBalance', { address: WALLET, seqno: 1 })).result).toBe('100000000000');
  });

  it('getWalletInformation: wallet v5 r1 with seqno and wallet_id from its data', async () => {
    const r = await call(app, 'getWalletInformation', { address: WALLET });
    expect(r.result).toMatchObject({ '@type': 'ext.accounts.walletInformation', wallet: true, wallet_type: 'wallet v5 r1', seqno: 1, is_signature_allowed: true, account_state: 'active' });
    expect(typeof r.result.wallet_id).toBe('number');
    const none = await call(app, 'getWalletInformation', { address: '0:' + '11'.repeat(32) });
    expect(none.result).toMatchObject({ wallet: false, account_state: 'uninitialized', balance: '0' });
  });

  it('getExtendedAddressInformation', async () => {
    const r = await call(app, 'getExtendedAddressInformation', { address: WALLET });
    expect(r.result).toMatchObject({ '@type': 'fullAccountState', address: { account_address: WALLET_FRIENDLY }, balance: '99998916463', account_state: { '@type': 'raw.accountState' } });
  });
});

describe('response shapes (strict schemas of schemas/api/v2/responses.ts)', () => {
  it('every shape parses, errors included', async () => {
    const raw = async (m: string, q: Record<string, unknown>, verb: 'GET' | 'POST' = 'GET') => (await call(app, m, q, verb)).body;
    R.okEnvelope(R.masterchainInfo).parse(await raw('getMasterchainInfo', {}));
    R.okEnvelope(R.fullAccountState).parse(await raw('getAddressInformation', { address: WALLET }));
    R.okEnvelope(R.fullAccountState).parse(await raw('getAddressInformation', { address: '0:' + '11'.repeat(32) }));
    R.okEnvelope(R.blockIdExt).parse(await raw('lookupBlock', { workchain: 0, shard: SHARD, seqno: 2 }));
    R.okEnvelope(R.blockTransactionsExt).parse(await raw('getBlockTransactionsExt', { workchain: 0, shard: SHARD, seqno: 2 }));
    R.okEnvelope(R.blockTransactions).parse(await raw('getBlockTransactions', { workchain: 0, shard: SHARD, seqno: 2 }));
    R.okEnvelope(R.extTransaction.array()).parse(await raw('getTransactions', { address: WALLET }));
    const std = (await raw('getTransactionsStd', { address: WALLET })) as { result: { transactions: unknown[] } };
    for (const t of std.result.transactions) R.rawTransaction.parse(t);
    R.errorEnvelope.parse(await raw('lookupBlock', { workchain: 0, shard: SHARD, seqno: 99 }));
    R.errorEnvelope.parse(await raw('getAddressInformation', { address: 'x' }));
    R.errorEnvelope.parse(await raw('runGetMethod', { address: WALLET, method: 'seqno', stack: [] }, 'POST'));
  });
});

describe('liteserver errors', () => {
  it('a chain without a recorded masterchain state: get-methods need the config -> 500 with the liteserver text (tonlib status of a liteserver error)', async () => {
    const r = await call(app, 'runGetMethod', { address: WALLET, method: 'seqno', stack: [] }, 'POST');
    expect(r.status).toBe(500);
    expect(r.body.error).toMatch(/^LITE_SERVER_UNKNOWN: .*cannot load state/);
  });

  it('sendBoc: the liteserver refuses; the message says why and keeps its text', async () => {
    const msg = readFileSync(join(FIX, 'msgs', 'from-repos', 'ton-blockchain_acton-msg-external-in-7369676e-58085bae.boc'));
    const r = await call(app, 'sendBoc', { boc: msg.toString('base64') }, 'POST');
    expect(r.status).toBe(500);
    expect(r.body.error).toMatch(/^LITE_SERVER_UNKNOWN: cannot apply external message to current state/);
    const notExternal = readFileSync(join(FIX, 'msgs', 'from-repos', 'ton-blockchain_acton-msg-internal-noop-328d91ae.boc'));
    const r2 = await call(app, 'sendBoc', { boc: notExternal.toString('base64') }, 'POST');
    expect(r2.status).toBe(422);
    expect(r2.body.error).toBe('failed to parse boc: expected an external-in message, got internal');
  });

  it('no liteserver answering in time -> 504 node network timeout', async () => {
    // A TCP server that accepts and never speaks ADNL: every query times out.
    const silent: Server = createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    const port = (silent.address() as { port: number }).port;
    const deadEngine = new LiteSingleEngine({ host: `tcp://127.0.0.1:${port}`, publicKey: server.publicKey });
    deadEngine.on('error', () => undefined);
    const dead = await apiOver(LiteNode.fromEngine(deadEngine, { timeoutMs: 300 }));
    try {
      const r = await call(dead, 'getMasterchainInfo');
      expect(r.status).toBe(504);
      expect(r.body).toMatchObject({ ok: false, code: 504, error: 'node network timeout' });
    } finally {
      await dead.close();
      deadEngine.close();
      await new Promise<void>((r) => silent.close(() => r()));
    }
  });
});

describe('block proofs on a recorded chain (no validator signatures, no states), libraries', () => {
  it('getShardBlockProof: the proof of masterchain block 2 hashes to its root and lists basechain block 2 as the shard top', async () => {
    const r = await call(app, 'getShardBlockProof', { workchain: 0, shard: SHARD, seqno: 2 });
    expect(r.status).toBe(200);
    const res = r.result as unknown as { from: { root_hash: string }; mc_id: { seqno: number; root_hash: string }; links: { id: { seqno: number; root_hash: string }; proof: string }[]; mc_proof: unknown[] };
    expect(res.mc_id).toMatchObject({ seqno: 2, root_hash: b64(IDS.mc2.root) });
    expect(res.from).toEqual(res.mc_id); // the last masterchain block committed it: no backward link needed
    expect(res.mc_proof).toEqual([]);
    expect(res.links).toHaveLength(1);
    expect(res.links[0].id).toMatchObject({ seqno: 2, root_hash: b64(IDS.wc2.root) });
    const proof = Cell.fromBoc(Buffer.from(res.links[0].proof, 'base64'))[0];
    expect(proof.isExotic).toBe(true);
    expect(proof.refs[0].hash(0).toString('hex')).toBe(IDS.mc2.root);
    // McBlockExtra shard_hashes: the basechain's one leaf descriptor names basechain block 2
    const mc = proof.refs[0].refs[3].refs[3].beginParse();
    expect(mc.loadUint(16)).toBe(0xcca5);
    mc.loadBit();
    const descr = mc.loadRef().refs[0].beginParse();
    expect(descr.loadBit()).toBe(false);
    expect([0xa, 0xb]).toContain(descr.loadUint(4)); // shard_descr_new#a / shard_descr#b, same leading fields
    expect(descr.loadUint(32)).toBe(2);
    descr.skip(32 + 128);
    expect(descr.loadBuffer(32).toString('hex')).toBe(IDS.wc2.root);
  });

  it('what needs signatures or states the recorded chain lacks: a 500 naming the liteserver refusal (LITE_SERVER_UNKNOWN, tonlib status), never the generic internal error', async () => {
    for (const [m, q, text] of [
      // block 1 is no key block: the proof goes back from block 1 to the zero state, which needs the state of block 1
      ['getMasterchainBlockSignatures', { seqno: 2 }, /state of masterchain block \(-1,8000000000000000,1\) is not available/],
      ['getShardBlockProof', { workchain: 0, shard: SHARD, seqno: 1 }, /state of masterchain block \(-1,8000000000000000,2\) is not available/],
      ['getOutMsgQueueSize', {}, /state of \(-1,8000000000000000,2\) is not available/],
    ] as const) {
      const r = await call(app, m, q);
      expect(r.status, m).toBe(500);
      expect(r.body.error, m).toMatch(/^LITE_SERVER_UNKNOWN: /);
      expect(r.body.error, m).toMatch(text);
    }
  });

  it('getLibraries: unknown hashes give an empty result; more than 16 is 422', async () => {
    const r = await call(app, 'getLibraries', { libraries: IDS.tx1 });
    expect(r.result).toEqual({ '@type': 'smc.libraryResult', result: [] });
    const many = await app.inject({ method: 'GET', url: `/api/v2/getLibraries?${Array.from({ length: 17 }, () => `libraries=${IDS.tx1}`).join('&')}` });
    expect(many.statusCode).toBe(422);
    expect(many.json().error).toBe('failed to parse libraries: give 1..16 library hashes');
  });
});

describe('over the LiteserverPool (src/source)', () => {
  it('the pool serves the same answers; consensus block from its health checks; sendBoc tried once', async () => {
    const pool = new LiteserverPool([{ host: `127.0.0.1:${server.port}`, publicKey: server.publicKey }], { timeoutMs: 5_000, healthIntervalMs: 60_000 });
    await pool.start();
    const api = await apiOver(LiteNode.fromPool(pool));
    try {
      expect((await call(api, 'getAddressBalance', { address: WALLET })).result).toBe('99998916463');
      const c = await call(api, 'getConsensusBlock');
      expect(c.result).toMatchObject({ '@type': 'ext.blocks.consensusBlock', consensus_block: 2 });
      const before = pool.info()[0].requests;
      const msg = readFileSync(join(FIX, 'msgs', 'from-repos', 'ton-blockchain_acton-msg-external-in-7369676e-58085bae.boc'));
      const r = await call(api, 'sendBoc', { boc: msg.toString('base64') }, 'POST');
      expect(r.status).toBe(500);
      expect(pool.info()[0].requests - before).toBe(1);
    } finally {
      await api.close();
      await pool.close();
    }
  });
});

describe('archival fallback', () => {
  it('history a liteserver does not keep is asked from the archival liteserver', async () => {
    // The "regular" liteserver knows only the first masterchain block and its shard block.
    const short = await startLiteServer({ source: loadRecordedChain([ACTON[0], ACTON[2]]), key: seedFromText('api-v2.short'), port: 0 });
    const shortEngine = await connectEngine(short.port, short.publicKey);
    const alone = await apiOver(LiteNode.fromEngine(shortEngine, { timeoutMs: 5_000 }));
    const withArchive = await apiOver(new LiteNode({ run: (fn) => fn(shortEngine), archival: (fn) => fn(engine), timeoutMs: 5_000 }));
    try {
      const q = { address: WALLET, lt: 4, hash: IDS.tx4, limit: 3 };
      const a = await call(alone, 'getTransactions', q);
      expect(a.status).toBe(500);
      expect(a.body.error).toMatch(/^LITE_SERVER_UNKNOWN: .*try archival=true\)$/);
      const b = await call(withArchive, 'getTransactions', q);
      expect(b.status).toBe(200);
      expect((b.result as unknown as { transaction_id: { hash: string } }[]).map((t) => t.transaction_id.hash)).toEqual([b64(IDS.tx4), b64(IDS.tx2), b64(IDS.tx1)]);
      const h = await call(withArchive, 'getBlockHeader', { workchain: 0, shard: SHARD, seqno: 2 });
      expect(h.result).toMatchObject({ id: { seqno: 2, root_hash: b64(IDS.wc2.root) } });
      expect((await call(alone, 'getBlockHeader', { workchain: 0, shard: SHARD, seqno: 2 })).status).toBe(404);
    } finally {
      await alone.close();
      await withArchive.close();
      shortEngine.close();
      await short.close();
    }
  });
});

describe('jsonRPC over the liteserver', () => {
  it('batch of node calls', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v2/jsonRPC',
      payload: [
        { jsonrpc: '2.0', id: 1, method: 'getAddressBalance', params: { address: WALLET } },
        { jsonrpc: '2.0', id: 2, method: 'getMasterchainInfo', params: {} },
        { jsonrpc: '2.0', id: 3, method: 'lookupBlock', params: { workchain: 0, shard: SHARD, seqno: 99 } },
      ],
    });
    const list = res.json() as { ok: boolean; id: number; result?: unknown; code?: number }[];
    expect(list.map((x) => [x.id, x.ok, x.code ?? 200])).toEqual([
      [1, true, 200],
      [2, true, 200],
      [3, false, 404],
    ]);
    expect(list[0].result).toBe('99998916463');
  });
});
