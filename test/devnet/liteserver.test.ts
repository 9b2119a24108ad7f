/**
 * The local liteserver serving the acton recorded chain (test/fixtures/blocks/localnet), queried over a real
 * ADNL TCP socket by ton-lite-client (LiteClient + LiteSingleEngine / LiteRoundRobinEngine), unchanged.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Address, Cell, loadTransaction, parseTuple, type TupleItemInt } from '@ton/core';
import { LiteClient, LiteRoundRobinEngine, LiteSingleEngine } from 'ton-lite-client';
import { Functions } from 'ton-lite-client/dist/schema.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRecordedChain, type MemoryChain } from '../../src/devnet/chain/index.ts';
import { seedFromText, startLiteServer, type LiteServer } from '../../src/devnet/liteserver/index.ts';
import { ACTON, connect, FIX, IDS, RawClient, SHARD, tlId } from './liteserver-helpers.ts';

const wallet = Address.parseRaw(`0:${IDS.wallet}`);
const hex = (b: Buffer) => b.toString('hex');

let chain: MemoryChain;
let server: LiteServer;
let client: LiteClient;
let engine: LiteSingleEngine;
let raw: RawClient;

beforeAll(async () => {
  chain = loadRecordedChain(ACTON);
  server = await startLiteServer({ source: chain, key: seedFromText('liteserver.test'), port: 0 });
  ({ client, engine } = await connect(server.port, server.publicKey));
  raw = await RawClient.open(server.port, server.publicKey);
});

afterAll(async () => {
  engine?.close();
  raw?.close();
  await server?.close();
});

async function mcId(seqno: number) {
  return (await client.lookupBlockByID({ workchain: -1, shard: SHARD, seqno })).id;
}
async function wcId(seqno: number) {
  return (await client.lookupBlockByID({ workchain: 0, shard: SHARD, seqno })).id;
}

describe('masterchain info, time, version', () => {
  it('getMasterchainInfo reports mc 2, its state hash and the zero state mc 1 links to', async () => {
    const info = await client.getMasterchainInfo();
    expect(info.last.workchain).toBe(-1);
    expect(info.last.shard).toBe(SHARD);
    expect(info.last.seqno).toBe(2);
    expect(hex(info.last.rootHash)).toBe(IDS.mc2.root);
    const mc2 = readFileSync(ACTON[1]);
    expect(hex(info.last.fileHash)).toBe(createHash('sha256').update(mc2).digest('hex'));
    // state_root_hash = the new state's hash from mc 2's state_update Merkle update
    const newState = Cell.fromBoc(mc2)[0].refs[2].refs[1];
    expect(hex(info.stateRootHash)).toBe(hex(newState.hash(0)));
    const prevOfMc1 = Cell.fromBoc(readFileSync(ACTON[0]))[0].refs[0].refs[0].beginParse();
    prevOfMc1.skip(64 + 32);
    expect(info.init.workchain).toBe(-1);
    expect(hex(info.init.rootHash)).toBe(hex(prevOfMc1.loadBuffer(32)));
  });

  it('getMasterchainInfoExt carries version, capabilities and the last block time', async () => {
    const ext = await client.getMasterchainInfoExt();
    expect(ext.version).toBe(0x101);
    expect(BigInt(ext.capabilities)).toBe(7n);
    expect(ext.lastUtime).toBe(1784192438);
    expect(ext.last.seqno).toBe(2);
    expect(Math.abs(ext.now - Date.now() / 1000)).toBeLessThan(600);
  });

  it('getTime and getVersion', async () => {
    const now = await client.getCurrentTime();
    expect(Math.abs(now - Date.now() / 1000)).toBeLessThan(600);
    const v = await client.getVersion();
    expect(v.version).toBe(0x101);
    expect(v.mode).toBe(0);
  });
});

describe('blocks', () => {
  it('lookupBlock by seqno gives the manifest ids of all four blocks', async () => {
    expect(hex((await mcId(1)).rootHash)).toBe(IDS.mc1.root);
    expect(hex((await mcId(1)).fileHash)).toBe(IDS.mc1.file);
    expect(hex((await mcId(2)).rootHash)).toBe(IDS.mc2.root);
    expect(hex((await wcId(1)).rootHash)).toBe(IDS.wc1.root);
    expect(hex((await wcId(1)).fileHash)).toBe(IDS.wc1.file);
    expect(hex((await wcId(2)).rootHash)).toBe(IDS.wc2.root);
  });

  it('lookupBlock by lt and by utime', async () => {
    const byLt1 = await client.lookupBlockByLt({ workchain: 0, shard: SHARD, lt: 1n });
    expect(byLt1.id.seqno).toBe(1);
    const byLt3 = await client.lookupBlockByLt({ workchain: 0, shard: SHARD, lt: 3n });
    expect(byLt3.id.seqno).toBe(2);
    expect(hex(byLt3.id.rootHash)).toBe(IDS.wc2.root);
    const byUtime = await client.lookupBlockByUtime({ workchain: -1, shard: SHARD, utime: 1784192438 });
    expect(byUtime.id.seqno).toBe(2);
    await expect(client.lookupBlockByLt({ workchain: 0, shard: SHARD, lt: 1000n })).rejects.toThrow('ltdb: block not found');
    await expect(client.lookupBlockByUtime({ workchain: -1, shard: SHARD, utime: 1784192438 + 3600 })).rejects.toThrow('ltdb: block not found');
  });

  it('getBlock returns the recorded bytes (sha256 = file hash)', async () => {
    for (const [i, file] of ACTON.entries()) {
      const bytes = readFileSync(file);
      const id = i < 2 ? await mcId(i + 1) : await wcId(i - 1);
      const res = await engine.query(Functions.liteServer_getBlock, { kind: 'liteServer.getBlock', id: { ...id, kind: 'tonNode.blockIdExt' } });
      expect(res.data.equals(bytes)).toBe(true);
      expect(hex(createHash('sha256').update(res.data).digest())).toBe(hex(id.fileHash));
    }
  });

  it('getBlockHeader returns a Merkle proof of the block with BlockInfo unpruned', async () => {
    const id = await wcId(2);
    const h = await client.getBlockHeader(id);
    const proof = Cell.fromBoc(h.headerProof)[0];
    expect(proof.isExotic).toBe(true);
    expect(proof.bits.substring(0, 8).toString()).toBe('03'); // Merkle proof
    const block = proof.refs[0];
    expect(hex(block.hash(0))).toBe(IDS.wc2.root);
    const info = block.refs[0].beginParse();
    expect(info.loadUint(32)).toBe(0x9bc7a987);
    info.skip(32 + 8 + 8);
    expect(info.loadUint(32)).toBe(2); // seq_no
    expect(block.refs[3].isExotic).toBe(true); // extra pruned
  });

  it('getAllShardsInfo lists wc0 shard 8000000000000000 at seqno 1 then 2', async () => {
    const s1 = await client.getAllShardsInfo(await mcId(1));
    expect(s1.shards).toEqual({ '0': { [SHARD]: 1 } });
    const s2 = await client.getAllShardsInfo(await mcId(2));
    expect(s2.shards).toEqual({ '0': { [SHARD]: 2 } });
    const proof = Cell.fromBoc(s2.proof)[0];
    expect(hex(proof.refs[0].hash(0))).toBe(IDS.mc2.root);
  });

  it('getShardInfo returns the top shard block and its descriptor', async () => {
    const mc2 = await mcId(2);
    const res = await engine.query(Functions.liteServer_getShardInfo, {
      kind: 'liteServer.getShardInfo',
      id: { ...mc2, kind: 'tonNode.blockIdExt' },
      workchain: 0,
      shard: SHARD,
      exact: true,
    });
    expect(res.shardblk.seqno).toBe(2);
    expect(hex(res.shardblk.rootHash)).toBe(IDS.wc2.root);
    const descr = Cell.fromBoc(res.shardDescr)[0].beginParse();
    expect(descr.loadUint(4)).toBeGreaterThanOrEqual(0xa);
    expect(descr.loadUint(32)).toBe(2);
  });

  it('getFullBlock(2) follows mc 2 and the wc0 block it commits, with transactions', async () => {
    const full = await client.getFullBlock(2);
    const wc = full.shards.find((s) => s.workchain === 0)!;
    expect(wc.seqno).toBe(2);
    expect(hex(wc.rootHash)).toBe(IDS.wc2.root);
    expect(wc.transactions.map((t) => hex(t.hash!))).toEqual([IDS.tx2, IDS.tx4]);
    expect(full.shards.find((s) => s.workchain === -1)!.transactions).toEqual([]);
  });
});

describe('transactions', () => {
  it('listBlockTransactions pages with count/after and reports the real lt and hashes', async () => {
    const id = await wcId(2);
    const all = await client.listBlockTransactions(id);
    expect(all.incomplete).toBe(false);
    expect(all.ids.map((t) => [hex(t.account!), t.lt, hex(t.hash!)])).toEqual([
      [IDS.wallet, '2', IDS.tx2],
      [IDS.wallet, '4', IDS.tx4],
    ]);
    const first = await client.listBlockTransactions(id, { mode: 7, count: 1 });
    expect(first.incomplete).toBe(true);
    expect(first.ids).toHaveLength(1);
    const next = await client.listBlockTransactions(id, {
      mode: 7 + 128,
      count: 1,
      after: { kind: 'liteServer.transactionId3', account: first.ids[0].account!, lt: first.ids[0].lt! },
    });
    expect(next.incomplete).toBe(false);
    expect(hex(next.ids[0].hash!)).toBe(IDS.tx4);
  });

  it('listBlockTransactionsExt returns the transaction cells as one multi-root BoC', async () => {
    const id = await wcId(2);
    const res = await raw.call({ _: 'liteServer.listBlockTransactionsExt', id: tlId(id), mode: 7, count: 10, after: null });
    expect(res._).toBe('liteServer.blockTransactionsExt');
    const txs = Cell.fromBoc(res.transactions as Buffer);
    expect(txs.map((c) => hex(c.hash()))).toEqual([IDS.tx2, IDS.tx4]);
    expect(loadTransaction(txs[1].beginParse()).lt).toBe(4n);
  });

  it('want_proof gives a Merkle proof of the block', async () => {
    const id = await wcId(2);
    const res = await raw.call({ _: 'liteServer.listBlockTransactions', id: tlId(id), mode: 7 + 32, count: 10, after: null, reverse_order: false, want_proof: true });
    const proof = Cell.fromBoc(res.proof as Buffer)[0];
    expect(hex(proof.refs[0].hash(0))).toBe(IDS.wc2.root);
  });

  it('getTransactions walks the account history back through both blocks', async () => {
    const res = await client.getAccountTransactions(wallet, '4', Buffer.from(IDS.tx4, 'hex'), 10);
    const cells = Cell.fromBoc(res.transactions);
    expect(cells.map((c) => hex(c.hash()))).toEqual([IDS.tx4, IDS.tx2, IDS.tx1]);
    expect(res.ids.map((i) => [i.workchain, i.seqno])).toEqual([
      [0, 2],
      [0, 2],
      [0, 1],
    ]);
    const two = await client.getAccountTransactions(wallet, '4', Buffer.from(IDS.tx4, 'hex'), 2);
    expect(Cell.fromBoc(two.transactions)).toHaveLength(2);
  });

  it('getOneTransaction finds a transaction by lt, empty when absent', async () => {
    const id = await wcId(2);
    const one = await client.getAccountTransaction(wallet, '2', id);
    expect(hex(Cell.fromBoc(one.transaction)[0].hash())).toBe(IDS.tx2);
    expect(hex(Cell.fromBoc(one.proof)[0].refs[0].hash(0))).toBe(IDS.wc2.root);
    const none = await client.getAccountTransaction(wallet, '3', id);
    expect(none.transaction.length).toBe(0);
  });
});

describe('accounts and get-methods', () => {
  it('getAccountState answers from the state updates: balance and last transaction at mc 2 and mc 1', async () => {
    const s2 = await client.getAccountState(wallet, await mcId(2));
    expect(s2.balance.coins).toBe(99998916463n);
    expect(s2.lastTx!.lt).toBe(4n);
    expect(s2.lastTx!.hash.toString(16).padStart(64, '0')).toBe(IDS.tx4);
    expect(s2.state!.storage.state.type).toBe('active');
    expect(s2.shardBlock.seqno).toBe(2);
    expect(hex(s2.shardBlock.rootHash)).toBe(IDS.wc2.root);
    const s1 = await client.getAccountState(wallet, await mcId(1));
    expect(s1.balance.coins).toBe(100000000000n);
    expect(s1.lastTx!.lt).toBe(1n);
    expect(s1.lastTx!.hash.toString(16).padStart(64, '0')).toBe(IDS.tx1);
  });

  it('getAccountState of an account that does not exist answers an empty state', async () => {
    const res = await client.getAccountState(Address.parseRaw('0:' + '11'.repeat(32)), await mcId(2));
    expect(res.state).toBeNull();
    expect(res.balance.coins).toBe(0n);
  });

  it('runSmcMethod runs the wallet code in the emulator: seqno and public key', async () => {
    const mc2 = await mcId(2);
    const seqno = await client.runMethod(wallet, 'seqno', Buffer.alloc(0), mc2);
    expect(seqno.exitCode).toBe(0);
    expect((parseTuple(Cell.fromBase64(seqno.result!))[0] as TupleItemInt).value).toBe(1n);
    // at mc 1 the wallet is not deployed yet (its state_init comes with the external message at lt 2)
    const seqno1 = await client.runMethod(wallet, 'seqno', Buffer.alloc(0), await mcId(1));
    expect(seqno1.exitCode).toBe(-256);
    expect((await client.getAccountState(wallet, await mcId(1))).state!.storage.state.type).toBe('uninit');
    const pk = await client.runMethod(wallet, 'get_public_key', Buffer.alloc(0), mc2);
    const st = await client.getAccountState(wallet, mc2);
    const data = st.state!.storage.state.type === 'active' ? st.state!.storage.state.state.data! : null;
    const ds = data!.beginParse();
    ds.skip(1 + 32 + 32); // wallet v5: is_signature_allowed seqno wallet_id
    expect((parseTuple(Cell.fromBase64(pk.result!))[0] as TupleItemInt).value).toBe(ds.loadUintBig(256));
    expect(hex(pk.shardBlock.rootHash)).toBe(IDS.wc2.root);
  });

  it('runSmcMethod on a missing account answers exit code -256', async () => {
    const res = await client.runMethod(Address.parseRaw('0:' + '22'.repeat(32)), 'seqno', Buffer.alloc(0), await mcId(2));
    expect(res.exitCode).toBe(-256);
  });
});

describe('config, libraries, sendMessage on a recorded chain', () => {
  it('getConfigAll / getConfigParams: no masterchain state recorded -> 651', async () => {
    const mc2 = await mcId(2);
    const all = await raw.call({ _: 'liteServer.getConfigAll', mode: 0, id: tlId(mc2) });
    expect(all).toMatchObject({ _: 'liteServer.error', code: 651 });
    expect(all.message).toContain('cannot load state');
    const params = await raw.call({ _: 'liteServer.getConfigParams', mode: 0, id: tlId(mc2), param_list: [34] });
    expect(params).toMatchObject({ _: 'liteServer.error', code: 651 });
    await expect(client.getConfig(mc2)).rejects.toThrow('cannot load state');
  });

  it('getLibraries answers an empty list', async () => {
    const res = await client.getLibraries([Buffer.alloc(32, 7)]);
    expect(res.result).toEqual([]);
  });

  it('sendMessage: a static chain rejects the external message like a liteserver that cannot apply it', async () => {
    const msg = readFileSync(join(FIX, 'msgs', 'from-repos', 'ton-blockchain_acton-msg-external-in-7369676e-58085bae.boc'));
    const res = await raw.call({ _: 'liteServer.sendMessage', body: msg });
    expect(res).toMatchObject({ _: 'liteServer.error', code: 0 });
    expect(res.message).toContain('External message was not accepted');
    await expect(client.sendMessage(msg)).rejects.toThrow('cannot apply external message to current state');
    const bad = await raw.call({ _: 'liteServer.sendMessage', body: Buffer.from('not a boc') });
    expect(bad.message).toContain('cannot deserialize message');
  });
});

describe('errors', () => {
  it('unknown block (seqno beyond the tip) -> 651 block is not applied', async () => {
    const id = await mcId(2);
    const res = await raw.call({ _: 'liteServer.getBlock', id: tlId({ ...id, seqno: 3 }) });
    expect(res).toEqual({ _: 'liteServer.error', code: 651, message: 'block is not applied' });
    await expect(client.getBlockHeader({ ...id, seqno: 7 })).rejects.toThrow('block is not applied');
  });

  it('wrong root or file hash -> 651', async () => {
    const id = await wcId(1);
    const badRoot = await raw.call({ _: 'liteServer.getBlock', id: tlId({ ...id, rootHash: Buffer.alloc(32, 1) }) });
    expect(badRoot).toMatchObject({ code: 651, message: 'block is not applied' });
    const badFile = await raw.call({ _: 'liteServer.getBlockHeader', id: tlId({ ...id, fileHash: Buffer.alloc(32, 1) }), mode: 0 });
    expect(badFile).toMatchObject({ code: 651 });
  });

  it('invalid block id (shard 0) -> -400 invalid BlockIdExt', async () => {
    const id = await wcId(1);
    const res = await raw.call({ _: 'liteServer.getBlock', id: tlId({ ...id, shard: 0n }) });
    expect(res).toEqual({ _: 'liteServer.error', code: -400, message: 'invalid BlockIdExt' });
  });

  it('getAllShardsInfo of a shard block -> -400', async () => {
    const res = await raw.call({ _: 'liteServer.getAllShardsInfo', id: tlId(await wcId(1)) });
    expect(res).toMatchObject({ _: 'liteServer.error', code: -400 });
  });

  it('malformed and unknown queries -> 621', async () => {
    const garbage = await raw.query(Buffer.from([1, 2, 3, 4, 5, 6, 7, 8]));
    expect(garbage).toMatchObject({ _: 'liteServer.error', code: 621 });
    expect(garbage.message).toContain('cannot parse query');
    // a known constructor cut short
    const { liteApi } = await import('../../src/tl/index.ts');
    const getBlock = liteApi.encode({ _: 'liteServer.getBlock', id: tlId(await wcId(1)) });
    const truncated = await raw.query(getBlock.subarray(0, 20));
    expect(truncated).toMatchObject({ _: 'liteServer.error', code: 621 });
    // a valid TL object that is not a liteServer function
    const notAFunction = await raw.call({ _: 'liteServer.currentTime', now: 5 });
    expect(notAFunction).toEqual({ _: 'liteServer.error', code: 621, message: 'unknown query' });
    // a lite_api function the devnet does not implement
    const stats = await raw.call({ _: 'liteServer.getValidatorStats', mode: 0, id: tlId(await mcId(1)), limit: 10 });
    expect(stats).toEqual({ _: 'liteServer.error', code: 621, message: 'liteServer.getValidatorStats is not supported by the devnet liteserver' });
  });

  it('waitMasterchainSeqno beyond the tip times out with 652', async () => {
    const prefix = { _: 'liteServer.waitMasterchainSeqno', seqno: 10, timeout_ms: 50 };
    const { liteApi } = await import('../../src/tl/index.ts');
    const res = await raw.query(Buffer.concat([liteApi.encode(prefix), liteApi.encode({ _: 'liteServer.getTime' })]));
    expect(res).toEqual({ _: 'liteServer.error', code: 652, message: 'timeout' });
    await expect(client.getMasterchainInfo({ awaitSeqno: 50, timeout: 300 })).rejects.toThrow();
    const ok = await client.getMasterchainInfo({ awaitSeqno: 2, timeout: 1000 });
    expect(ok.last.seqno).toBe(2);
  });
});

describe('connections', () => {
  it('serves several clients at once, and a round-robin engine', async () => {
    const clients = await Promise.all([1, 2, 3, 4, 5].map(() => connect(server.port, server.publicKey)));
    const fulls = await Promise.all(clients.map((c) => c.client.getFullBlock(2)));
    for (const f of fulls) expect(f.shards.find((s) => s.workchain === 0)!.transactions.map((t) => hex(t.hash!))).toEqual([IDS.tx2, IDS.tx4]);
    for (const c of clients) c.engine.close();

    const second = await startLiteServer({ source: chain, key: seedFromText('second'), port: 0 });
    const e1 = new LiteSingleEngine({ host: `tcp://127.0.0.1:${server.port}`, publicKey: server.publicKey });
    const e2 = new LiteSingleEngine({ host: `tcp://127.0.0.1:${second.port}`, publicKey: second.publicKey });
    await Promise.all([e1, e2].map((e) => new Promise((r) => e.once('ready', r))));
    const rr = new LiteClient({ engine: new LiteRoundRobinEngine([e1, e2]) });
    const infos = await Promise.all([1, 2, 3, 4].map(() => rr.getMasterchainInfo()));
    for (const i of infos) expect(hex(i.last.rootHash)).toBe(IDS.mc2.root);
    e1.close();
    e2.close();
    await second.close();
  });

  it('survives a client disconnecting mid-query and keeps serving others', async () => {
    const { liteApi } = await import('../../src/tl/index.ts');
    const r = await RawClient.open(server.port, server.publicKey);
    const pending = r.query(
      Buffer.concat([liteApi.encode({ _: 'liteServer.waitMasterchainSeqno', seqno: 3, timeout_ms: 300 }), liteApi.encode({ _: 'liteServer.getMasterchainInfo' })]),
    );
    void pending;
    r.destroy();
    await new Promise((res) => setTimeout(res, 500)); // let the waiting query finish against a gone socket
    const info = await client.getMasterchainInfo();
    expect(info.last.seqno).toBe(2);
    const fresh = await connect(server.port, server.publicKey);
    expect((await fresh.client.getMasterchainInfo()).last.seqno).toBe(2);
    fresh.engine.close();
  });

  it('drops a handshake for another key id', async () => {
    const { Socket } = await import('node:net');
    const s = new Socket();
    const closed = new Promise<boolean>((res) => s.on('close', () => res(true)));
    s.connect(server.port, '127.0.0.1', () => s.write(Buffer.alloc(256, 9)));
    expect(await closed).toBe(true);
  });
});
