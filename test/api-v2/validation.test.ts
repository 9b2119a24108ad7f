/**
 * API v2 input that must never reach a liteserver (422 naming the parameter), limits as ton-http-api-cpp has
 * them, the unknown-parameter check against prototype names, and the endpoints ton-http-api-cpp added
 * (getShardAccountCell, sendBocReturnHashNoError, dnsResolve) plus the reference's sendQuery; over a devnet
 * liteserver (and a live devnet where a message has to land).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Address, beginCell, Cell, contractAddress, loadMessage, loadShardAccount } from '@ton/core';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveChain } from '../../src/devnet/chain/index.ts';
import { comment, createDevnet, walletExternal, type GenerateResult } from '../../src/devnet/generate/index.ts';
import { startLiteServer } from '../../src/devnet/liteserver/index.ts';
import { LiteNode } from '../../src/api/v2/index.ts';
import { apiOver, call, connectEngine, FIX as FIXTURES, devnetV2, type DevnetV2 } from './helpers.ts';

let net: DevnetV2 | undefined;
let gen: GenerateResult;
let app: FastifyInstance;
const MASTER = '-9223372036854775808';
const raw = (a: Address) => `${a.workChain}:${a.hash.toString('hex')}`;

beforeAll(async () => {
  net = await devnetV2('api-v2-validation-', { seed: 'validation', blocks: 8, bulkWallets: 2, splitAt: null, mergeAt: null });
  ({ gen, app } = net);
}, 600_000);

afterAll(async () => {
  await net?.close();
});

describe('bad input is refused before the liteserver', () => {
  it('shard ids: 0 (also written -0), a prefix deeper than 60 bits, a masterchain shard other than the one: 422 naming shard', async () => {
    for (const [workchain, shard] of [[0, '-0'], [0, '0'], [0, '0x0000000000000004'], [-1, '4000000000000000'], [-1, '0xc000000000000000']] as const) {
      for (const m of ['lookupBlock', 'getBlockHeader', 'getBlockTransactions', 'getShardBlockProof'] as const) {
        const r = await call(app, m, { workchain, shard, seqno: 1 });
        expect(r.status, `${m} ${workchain} ${shard}`).toBe(422);
        expect(r.body.error, `${m} ${shard}`).toMatch(/^failed to parse shard: /);
      }
    }
    // a proper shard id is asked from the liteserver: the basechain block that holds the prefix
    const ok = await call(app, 'getBlockHeader', { workchain: 0, shard: '0x10', seqno: 1 });
    expect(ok.status).toBe(200);
    expect((ok.result.id as { shard: string }).shard).toBe(MASTER);
  });

  it('an address outside the masterchain and the basechain: 422 naming address', async () => {
    const hex = gen.scenarios.alice.address.hash.toString('hex');
    const r = await call(app, 'runGetMethod', { address: `1:${hex}`, method: 'seqno', stack: [] }, 'POST');
    expect(r.status).toBe(422);
    expect(r.body.error).toBe('failed to parse address: workchain 1 does not exist (accounts live in -1 and 0)');
    expect((await call(app, 'getAddressBalance', { address: `7:${hex}` })).status).toBe(422);
    expect((await call(app, 'getAddressBalance', { address: `-1:${hex}` })).status).toBe(200);
  });

  it('a stack the emulator cannot take: 422 naming stack; one it can take runs', async () => {
    const addr = raw(gen.scenarios.alice.address);
    const big = await call(app, 'runGetMethod', { address: addr, method: 'seqno', stack: Array.from({ length: 5000 }, () => ['num', '1']) }, 'POST');
    expect(big.status).toBe(422);
    expect(big.body.error).toBe('failed to parse stack: 5000 entries (tuple elements included); at most 255');
    const num = { '@type': 'tvm.stackEntryNumber', number: { '@type': 'tvm.numberDecimal', number: '1' } };
    const typed = await call(app, 'runGetMethodStd', { address: addr, method: 'seqno', stack: [{ '@type': 'tvm.stackEntryTuple', tuple: { '@type': 'tvm.tuple', elements: Array.from({ length: 255 }, () => num) } }] }, 'POST');
    expect(typed.status).toBe(422);
    expect(typed.body.error).toBe('failed to parse stack: 256 entries (tuple elements included); at most 255');
    // one argument cell 300 cells deep: too deep for the emulator, whatever the entry count
    let deepCell = beginCell().endCell();
    for (let i = 0; i < 300; i++) deepCell = beginCell().storeRef(deepCell).endCell();
    const deep = await call(app, 'runGetMethod', { address: addr, method: 'seqno', stack: [['tvm.Cell', deepCell.toBoc().toString('base64')]] }, 'POST');
    expect(deep.status).toBe(422);
    expect(deep.body.error).toBe('failed to parse stack: the stack with its cells serializes 301 cells deep; at most 256');
    // the largest stack taken runs, and get-methods keep working after the refusals
    const fine = await call(app, 'runGetMethod', { address: addr, method: 'seqno', stack: Array.from({ length: 255 }, () => ['num', '7']) }, 'POST');
    expect(fine.status).toBe(200);
    // seqno ignores its arguments and pushes one more value on top
    expect((fine.result.stack as unknown as unknown[]).length).toBe(256);
    const seqno = await call(app, 'runGetMethod', { address: addr, method: 'seqno', stack: [] }, 'POST');
    expect(seqno.result.stack).toEqual([['num', '0x' + gen.scenarios.alice.seqno.toString(16)]]);
  });

  it('estimateFee with a BoC of no root cell (te6ccgAA): 422 naming the parameter (was a 500)', async () => {
    const addr = raw(gen.scenarios.alice.address);
    for (const param of ['body', 'init_code', 'init_data']) {
      const q = { address: addr, body: Cell.EMPTY.toBoc().toString('base64'), [param]: 'te6ccgAA' };
      const r = await call(app, 'estimateFee', q, 'POST');
      expect(r.status, param).toBe(422);
      expect(r.body.error).toBe(`failed to parse ${param}: expected one root cell, got 0`);
    }
  });

  it('getBlockTransactions count: up to 10000 as ton-http-api-cpp, 10001 refused', async () => {
    const ok = await call(app, 'getBlockTransactions', { workchain: -1, shard: MASTER, seqno: 2, count: 10000 });
    expect(ok.status).toBe(200);
    expect(ok.result.req_count).toBe(10000);
    const ext = await call(app, 'getBlockTransactionsExt', { workchain: -1, shard: MASTER, seqno: 2, count: 10001 });
    expect(ext.status).toBe(422);
    expect(ext.body.error).toBe('failed to parse count: 10001 is out of range (1..10000)');
  });
});

describe('unknown parameters: prototype names are unknown too (query, body, jsonRPC)', () => {
  for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
    it(name, async () => {
      const addr = raw(gen.scenarios.alice.address);
      const get = await app.inject({ method: 'GET', url: `/api/v2/getAddressBalance?address=${addr}&${name}=1` });
      expect(get.statusCode).toBe(422);
      expect(get.json().error).toBe(`unknown parameter: ${name}`);
      const post = await app.inject({ method: 'POST', url: '/api/v2/getAddressBalance', headers: { 'content-type': 'application/json' }, payload: `{"address":"${addr}","${name}":1}` });
      expect(post.statusCode).toBe(422);
      const rpc = await app.inject({ method: 'POST', url: '/api/v2/jsonRPC', headers: { 'content-type': 'application/json' }, payload: `{"jsonrpc":"2.0","id":1,"method":"getAddressBalance","params":{"address":"${addr}","${name}":1}}` });
      expect(rpc.statusCode).toBe(422);
      // Fastify refuses a JSON body carrying __proto__ before it is parsed; the others name the parameter
      if (name !== '__proto__') {
        expect(post.json().error).toBe(`unknown parameter: ${name}`);
        expect(rpc.json().error).toBe(`unknown parameter: ${name}`);
      }
    });
  }
});

describe('getShardAccountCell', () => {
  it('the account ShardAccount cell the chain holds (hash-equal), account_none for an address without account', async () => {
    const { alice } = gen.scenarios;
    const r = await call(app, 'getShardAccountCell', { address: alice.address.toString() });
    expect(r.status).toBe(200);
    expect(r.result['@type']).toBe('tvm.cell');
    const cell = Cell.fromBase64(r.result.bytes as string);
    expect(cell.hash().equals(gen.devnet.shardAccount(alice.address).hash())).toBe(true);
    expect(loadShardAccount(cell.beginParse()).account?.storage.balance.coins).toBe(gen.devnet.balance(alice.address));
    const none = await call(app, 'getShardAccountCell', { address: `0:${'77'.repeat(32)}` });
    const sa = Cell.fromBase64(none.result.bytes as string).beginParse();
    expect(sa.loadRef().bits.length).toBe(1);
    expect(sa.loadBuffer(32).equals(Buffer.alloc(32))).toBe(true);
    expect(sa.loadUintBig(64)).toBe(0n);
    // a historical state: before its first transaction alice's ShardAccount names no last transaction... (seqno 1 is the key block)
    const early = await call(app, 'getShardAccountCell', { address: raw(alice.address), seqno: 1 });
    expect(early.status).toBe(200);
    expect(Cell.fromBase64(early.result.bytes as string).hash().equals(cell.hash())).toBe(false);
  });
});

describe('sendBocReturnHashNoError and sendQuery', () => {
  it('sendBocReturnHashNoError: failures after the empty-boc check are 400 with the reason', async () => {
    const unsigned = walletExternal({ ...gen.scenarios.alice, keyPair: { ...gen.scenarios.alice.keyPair, secretKey: Buffer.alloc(64, 1) } }, [], 2_000_000_000);
    const refused = await call(app, 'sendBocReturnHashNoError', { boc: unsigned.toBoc().toString('base64') }, 'POST');
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/^LITE_SERVER_UNKNOWN: cannot apply external message/);
    const junk = await call(app, 'sendBocReturnHashNoError', { boc: Buffer.from('junk').toString('base64') }, 'POST');
    expect(junk.status).toBe(400);
    expect(junk.body.error).toMatch(/^failed to parse boc: /);
    const empty = await call(app, 'sendBocReturnHashNoError', { boc: '' }, 'POST');
    expect(empty.status).toBe(422);
    expect((await call(app, 'sendBocReturnHashNoError', { boc: 'x' }, 'GET')).status).toBe(405);
  });

  it('on a live devnet: sendQuery sends address + body (+ init) as an external, sendBocReturnHashNoError returns the hashes', async () => {
    const start = 1_800_000_000;
    const live = await createDevnet({ seed: 'v2-validation-live', startTime: start });
    const zs = live.devnet.zeroState.mc.ref;
    const chain = new LiveChain(live, { globalId: live.devnet.globalId, zeroState: { workchain: -1, rootHash: zs.rootHash, fileHash: zs.fileHash } });
    await chain.produce();
    const srv = await startLiteServer({ source: chain, key: Buffer.alloc(32, 3), port: 0 });
    const eng = await connectEngine(srv.port, srv.publicKey);
    const api = await apiOver(LiteNode.fromEngine(eng), { testnet: true });
    try {
      const [from, to, third] = live.scenarios.wallets();
      const msg = loadMessage(walletExternal(from, [{ to: to.address, value: 3_000_000_000n, bounce: false, body: comment('sendQuery') }], start + 3600).beginParse());
      const q = await call(api, 'sendQuery', { address: raw(from.address), body: msg.body.toBoc().toString('base64'), init_code: '', init_data: '' }, 'POST');
      expect(q.status).toBe(200);
      expect(q.result).toEqual({ '@type': 'ok' });
      const signed = walletExternal(third, [{ to: to.address, value: 1_000_000_000n, bounce: false }], start + 3600);
      const h = await call(api, 'sendBocReturnHashNoError', { boc: signed.toBoc().toString('base64') }, 'POST');
      expect(h.status).toBe(200);
      expect(h.result).toMatchObject({ '@type': 'raw.extMessageInfo', hash: signed.hash().toString('base64') });
      // the externals run in the next round, their internal messages arrive in the one after
      await chain.produce();
      await chain.produce();
      const received = await call(api, 'getTransactions', { address: raw(to.address), limit: 2 });
      const values = (received.result as unknown as { in_msg: { source: string; value: string } }[]).map((t) => [t.in_msg.source, t.in_msg.value]);
      expect(values.sort()).toEqual([[raw(from.address), '3000000000'], [raw(third.address), '1000000000']].map(([a, v]) => [Address.parse(a).toString({ urlSafe: true, bounceable: true, testOnly: true }), v]).sort());
      const hist = await call(api, 'getTransactions', { address: raw(from.address), limit: 1 });
      const tx = (hist.result as unknown as { in_msg: { msg_data: { body: string } }; out_msgs: { message: string }[] }[])[0];
      expect(tx.out_msgs[0].message).toBe('sendQuery');
      // a body that is no BoC names the parameter
      const bad = await call(api, 'sendQuery', { address: raw(from.address), body: 'te6ccgAA' }, 'POST');
      expect(bad.status).toBe(422);
      expect(bad.body.error).toBe('failed to parse body: expected one root cell, got 0');
    } finally {
      await api.close();
      eng.close();
      await srv.close();
    }
  });
});

describe('dnsResolve', () => {
  it('the parameters it replaced are refused by name; a bad domain is 422; a root resolver without an account: 502', async () => {
    for (const k of ['name', 'category', 'ttl', 'address']) {
      const r = await call(app, 'dnsResolve', { domain: 'foundation.ton', [k]: raw(gen.scenarios.alice.address) });
      expect(r.status, k).toBe(422);
      expect(r.body.error).toBe(`failed to parse ${k}: unsupported parameter (dnsResolve takes domain, resolver_address and seqno)`);
    }
    for (const [domain, why] of [['a..ton', 'domain must contain nonempty labels'], ['.ton', 'domain must contain nonempty labels'], ['a b.ton', 'domain must not contain spaces or control characters'], ['x'.repeat(130), 'encoded domain must not exceed 127 bytes']]) {
      const r = await call(app, 'dnsResolve', { domain });
      expect(r.status, domain).toBe(422);
      expect(r.body.error).toBe(`failed to parse domain: ${why}`);
    }
    expect((await call(app, 'dnsResolve', {})).body.error).toBe('failed to parse domain: required parameter is missing');
    // the devnet's config names a root resolver (param 4) with no account behind it
    const noRoot = await call(app, 'dnsResolve', { domain: 'foundation.ton' });
    expect(noRoot.status).toBe(502);
    expect(noRoot.body.error).toBe('DNS resolution: dnsresolve get-method failed with exit code -13');
  });

  it('a real TON DNS collection (dns-contract code, deployed on a live devnet) delegates the label to its item', async () => {
    const start = 1_800_000_000;
    const live = await createDevnet({ seed: 'v2-dns-live', startTime: start });
    const zs = live.devnet.zeroState.mc.ref;
    const chain = new LiveChain(live, { globalId: live.devnet.globalId, zeroState: { workchain: -1, rootHash: zs.rootHash, fileHash: zs.fileHash } });
    await chain.produce();
    const srv = await startLiteServer({ source: chain, key: Buffer.alloc(32, 4), port: 0 });
    const eng = await connectEngine(srv.port, srv.publicKey);
    const api = await apiOver(LiteNode.fromEngine(eng), { testnet: true });
    try {
      const code = (f: string) => Cell.fromBoc(readFileSync(join(FIXTURES, 'codes', f)))[0];
      const itemCode = code('dns-item.ton4j-dns-example.boc');
      // nft-collection.fc of dns-contract: content:^Cell nft_item_code:^Cell
      const init = { code: code('dns-collection.ton4j-dns-example.boc'), data: beginCell().storeRef(beginCell().endCell()).storeRef(itemCode).endCell() };
      const collection = contractAddress(0, init);
      const [from] = live.scenarios.wallets();
      live.sendMessage(walletExternal(from, [{ to: collection, value: 1_000_000_000n, bounce: false, init }], start + 3600).toBoc());
      // the external runs in the next round, the deploying internal message arrives in the one after
      await chain.produce();
      await chain.produce();
      expect((await call(api, 'getAddressState', { address: raw(collection) })).result).toBe('active');
      // the item the collection names for "foo": index = the label's slice hash, state init (index, collection)
      const index = BigInt('0x' + beginCell().storeBuffer(Buffer.from('foo')).endCell().hash().toString('hex'));
      const item = contractAddress(0, { code: itemCode, data: beginCell().storeUint(index, 256).storeAddress(collection).endCell() });
      const direct = await call(api, 'runGetMethod', { address: raw(collection), method: 'dnsresolve', stack: [['tvm.Slice', beginCell().storeBuffer(Buffer.from('\0foo\0')).endCell().toBoc().toString('base64')], ['num', '0']] }, 'POST');
      expect(direct.result.exit_code).toBe(0);
      const [bits, rec] = direct.result.stack as unknown as [[string, string], [string, { bytes: string }]];
      expect(BigInt(bits[1])).toBeGreaterThan(0n);
      const recSlice = Cell.fromBase64(rec[1].bytes).beginParse();
      expect(recSlice.loadUint(16)).toBe(0xba93);
      expect(recSlice.loadAddress().equals(item)).toBe(true);
      // dnsResolve follows that delegation to the item, which has no account here: the reference's 502 for its run
      const r = await call(api, 'dnsResolve', { domain: 'FOO.', resolver_address: raw(collection) });
      expect(r.status).toBe(502);
      expect(r.body.error).toBe('DNS resolution: dnsresolve get-method failed with exit code -13');
    } finally {
      await api.close();
      eng.close();
      await srv.close();
    }
  });

  it('a resolver that is no DNS contract: its dnsresolve run fails, 502 naming the exit code', async () => {
    const r = await call(app, 'dnsResolve', { domain: 'alice', resolver_address: raw(gen.scenarios.alice.address) });
    expect(r.status).toBe(502);
    expect(r.body.error).toBe('DNS resolution: dnsresolve get-method failed with exit code 11');
    const none = await call(app, 'dnsResolve', { domain: 'alice', resolver_address: `0:${'66'.repeat(32)}` });
    expect(none.body.error).toBe('DNS resolution: dnsresolve get-method failed with exit code -13');
  });
});
