/**
 * The local liteserver serving a chain made by the devnet generator (`generateDevnet`, with states, a shard
 * split and merge) and a live devnet that executes messages sent through the liteserver.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cell, loadShardStateUnsplit, parseTuple, toNano, type TupleItemInt } from '@ton/core';
import { LiteClient, LiteSingleEngine } from 'ton-lite-client';
import { Functions } from 'ton-lite-client/dist/schema.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockFileName, LiveChain, loadChainDir, type ChainJsonBlock, type MemoryChain } from '../../src/devnet/chain/index.ts';
import { comment, createDevnet, generateDevnet, walletExternal, type GenerateResult } from '../../src/devnet/generate/index.ts';
import { readLiteServerJson, readServerKeyFile, serverKeyFromSeed, startLiteServer, writeLiteServerJson, type LiteServer } from '../../src/devnet/liteserver/index.ts';
import { connect, RawClient, tlId } from './liteserver-helpers.ts';

const hex = (b: Buffer) => b.toString('hex');
const BLOCKS = 9;

let dir: string;
let gen: GenerateResult;
interface ChainTxJson {
  hash: string;
  lt: string;
  account: string;
  workchain: number;
  shard: string;
  seqno: number;
}
let json: { blocks: ChainJsonBlock[]; transactions: ChainTxJson[]; zero_state: { root_hash: string; file_hash: string } };
let chain: MemoryChain;
let server: LiteServer;
let client: LiteClient;
let engine: LiteSingleEngine;
let raw: RawClient;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ls-gen-'));
  gen = await generateDevnet(dir, { seed: 'liteserver-test', blocks: BLOCKS });
  json = JSON.parse(readFileSync(join(dir, 'chain.json'), 'utf8'));
  chain = loadChainDir(dir);
  server = await startLiteServer({ source: chain, key: readServerKeyFile(dir)!, port: 0 });
  writeLiteServerJson(dir, server);
  ({ client, engine } = await connect(server.port, server.publicKey));
  raw = await RawClient.open(server.port, server.publicKey);
});

afterAll(async () => {
  engine?.close();
  raw?.close();
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const mcIds = () => json.blocks.filter((b) => b.workchain === -1);

describe('generated chain', () => {
  it('serves with the key the generator wrote; liteserver.json updated in place with the real port', () => {
    const [entry] = readLiteServerJson(dir);
    expect(entry.port).toBe(server.port);
    expect(entry.host).toBe('127.0.0.1');
    expect(hex(entry.publicKey)).toBe(hex(serverKeyFromSeed(readServerKeyFile(dir)!).publicKey));
    // the generator's validator section (64-bit shard numbers) is kept byte for byte
    expect(readFileSync(join(dir, 'liteserver.json'), 'utf8')).toContain('"shard": -9223372036854775808');
  });

  it('getMasterchainInfo: the last masterchain block, its state hash and the zero state of chain.json', async () => {
    const info = await client.getMasterchainInfo();
    const last = mcIds().at(-1)!;
    expect(info.last.seqno).toBe(BLOCKS);
    expect(hex(info.last.rootHash)).toBe(last.root_hash);
    expect(hex(info.last.fileHash)).toBe(last.file_hash);
    const state = Cell.fromBoc(readFileSync(join(dir, 'states', blockFileName(-1, last.shard, last.seqno))))[0];
    expect(hex(info.stateRootHash)).toBe(hex(state.hash()));
    expect(hex(info.init.rootHash)).toBe(json.zero_state.root_hash);
  });

  it('every block of chain.json is found by lookupBlock and served byte for byte', async () => {
    for (const b of json.blocks) {
      const r = await client.lookupBlockByID({ workchain: b.workchain, shard: BigInt.asIntN(64, BigInt('0x' + b.shard)).toString(), seqno: b.seqno });
      expect(hex(r.id.rootHash)).toBe(b.root_hash);
      expect(hex(r.id.fileHash)).toBe(b.file_hash);
      const data = await engine.query(Functions.liteServer_getBlock, { kind: 'liteServer.getBlock', id: { ...r.id, kind: 'tonNode.blockIdExt' } });
      expect(data.data.equals(readFileSync(join(dir, 'blocks', blockFileName(b.workchain, b.shard, b.seqno))))).toBe(true);
    }
  });

  it('following the masterchain with getFullBlock yields exactly the transactions of chain.json, across split and merge', async () => {
    const seen: string[] = [];
    const shardsPerMc: number[] = [];
    for (let s = 2; s <= BLOCKS; s++) {
      const full = await client.getFullBlock(s);
      shardsPerMc.push(new Set(full.shards.filter((x) => x.workchain === 0).map((x) => x.shard)).size);
      for (const sh of full.shards) for (const t of sh.transactions) seen.push(hex(t.hash!));
    }
    const first = await client.getFullBlock(1).catch(() => null); // mc 1: its prev (the zero state) is not a block
    expect(first).toBeNull();
    const expected = json.transactions.filter((t) => !(t.workchain === -1 && t.seqno === 1) && !(t.workchain === 0 && t.seqno === 1)).map((t) => t.hash);
    expect(seen.sort()).toEqual(expected.sort());
    expect(Math.max(...shardsPerMc)).toBe(2); // split into two shards at some point
    expect(shardsPerMc.at(-1)).toBe(1); // merged back
  });

  it('listBlockTransactions of each block matches chain.json', async () => {
    for (const b of json.blocks) {
      const id = { workchain: b.workchain, shard: BigInt.asIntN(64, BigInt('0x' + b.shard)).toString(), seqno: b.seqno, rootHash: Buffer.from(b.root_hash, 'hex'), fileHash: Buffer.from(b.file_hash, 'hex') };
      const ids: string[] = [];
      let after: { kind: 'liteServer.transactionId3'; account: Buffer; lt: string } | null = null;
      for (;;) {
        const page = await client.listBlockTransactions(id, { mode: 7 + (after ? 128 : 0), count: 8, after: after ?? undefined });
        ids.push(...page.ids.map((t) => hex(t.hash!)));
        if (!page.incomplete) break;
        const lastId = page.ids.at(-1)!;
        after = { kind: 'liteServer.transactionId3', account: lastId.account!, lt: lastId.lt! };
      }
      const want = json.transactions.filter((t) => t.workchain === b.workchain && t.shard === b.shard && t.seqno === b.seqno).map((t) => t.hash);
      expect(ids.sort()).toEqual(want.sort());
    }
  });

  it('getAccountState comes from the full state: balance and last transaction of a wallet', async () => {
    const alice = gen.scenarios.alice.address;
    const mc = await client.getMasterchainInfo();
    const st = await client.getAccountState(alice, mc.last);
    const sb = st.shardBlock;
    const stateFile = join(dir, 'states', blockFileName(sb.workchain, BigInt.asUintN(64, BigInt(sb.shard)), sb.seqno));
    const state = loadShardStateUnsplit(Cell.fromBoc(readFileSync(stateFile))[0].beginParse());
    const acc = state.accounts!.get(BigInt('0x' + alice.hash.toString('hex')))!;
    expect(st.balance.coins).toBe(acc.shardAccount.account!.storage.balance.coins);
    expect(st.lastTx!.lt).toBe(acc.shardAccount.lastTransactionLt);
    const aliceTxs = json.transactions.filter((t) => t.account === alice.toRawString());
    expect(st.lastTx!.lt.toString()).toBe(aliceTxs.map((t) => BigInt(t.lt)).reduce((a, b) => (a > b ? a : b)).toString());
    // and the history walks back to the first transaction
    const hist = await client.getAccountTransactions(alice, st.lastTx!.lt.toString(), Buffer.from(st.lastTx!.hash.toString(16).padStart(64, '0'), 'hex'), 16);
    expect(Cell.fromBoc(hist.transactions).length).toBe(Math.min(16, aliceTxs.length));
  });

  it('runSmcMethod: wallet seqno equals the number of externals the scenario sent', async () => {
    const mc = await client.getMasterchainInfo();
    for (const w of [gen.scenarios.alice, gen.scenarios.bob]) {
      const r = await client.runMethod(w.address, 'seqno', Buffer.alloc(0), mc.last);
      expect(r.exitCode).toBe(0);
      expect((parseTuple(Cell.fromBase64(r.result!))[0] as TupleItemInt).value).toBe(BigInt(w.seqno));
    }
  });

  it('getConfigParams / getConfigAll prove the masterchain state configuration', async () => {
    const mc = await client.getMasterchainInfo();
    const stateCell = Cell.fromBoc(readFileSync(join(dir, 'states', blockFileName(-1, 0x8000000000000000n, mc.last.seqno))))[0];
    const custom = stateCell.refs[3];
    const cfgDict = custom.refs[custom.beginParse().skip(16).loadBit() ? 1 : 0];
    const res = await engine.query(Functions.liteServer_getConfigParams, { kind: 'liteServer.getConfigParams', mode: 0, id: { ...mc.last, kind: 'tonNode.blockIdExt' }, paramList: [0, 34] });
    const proof = Cell.fromBoc(res.configProof)[0];
    expect(hex(proof.refs[0].hash(0))).toBe(hex(stateCell.hash()));
    const all = await raw.call({ _: 'liteServer.getConfigAll', mode: 0, id: tlId(mc.last) });
    const pAll = Cell.fromBoc(all.config_proof as Buffer)[0];
    const provenCustom = pAll.refs[0].refs[3];
    const provenDict = provenCustom.refs[provenCustom.beginParse().skip(16).loadBit() ? 1 : 0];
    expect(provenDict.isExotic).toBe(false);
    expect(hex(provenDict.hash(0))).toBe(hex(cfgDict.hash()));
  });

  it('getState returns the recorded ShardState of a block', async () => {
    const b = json.blocks.find((x) => x.workchain === 0)!;
    const id = { workchain: 0, shard: BigInt.asIntN(64, BigInt('0x' + b.shard)).toString(), seqno: b.seqno, rootHash: Buffer.from(b.root_hash, 'hex'), fileHash: Buffer.from(b.file_hash, 'hex') };
    const res = await engine.query(Functions.liteServer_getState, { kind: 'liteServer.getState', id: { ...id, kind: 'tonNode.blockIdExt' } });
    const want = Cell.fromBoc(readFileSync(join(dir, 'states', blockFileName(0, b.shard, b.seqno))))[0];
    expect(hex(res.rootHash)).toBe(hex(want.hash()));
    expect(hex(Cell.fromBoc(res.data)[0].hash())).toBe(hex(want.hash()));
  });

  it('sendMessage on a directory chain without a producer is refused; getLibraries answers', async () => {
    const w = gen.scenarios.carol;
    const msg = walletExternal({ ...w }, [{ to: gen.scenarios.dave.address, value: toNano('1'), bounce: false, body: comment('x') }], Math.floor(Date.now() / 1000) + 60);
    await expect(client.sendMessage(msg.toBoc())).rejects.toThrow('External message was not accepted');
    const libs = await client.getLibraries([Buffer.alloc(32, 3)]);
    expect(libs.result).toEqual([]);
  });
});

describe('live devnet', () => {
  it('an external message sent through the liteserver lands in a following block', async () => {
    const live = await createDevnet({ seed: 'liteserver-live', startTime: 1_800_000_000 });
    const zs = live.devnet.zeroState.mc.ref;
    const lchain = new LiveChain(live, { globalId: live.devnet.globalId, zeroState: { workchain: -1, rootHash: zs.rootHash, fileHash: zs.fileHash } });
    await lchain.produce();
    const srv = await startLiteServer({ source: lchain, key: Buffer.alloc(32, 5), port: 0 });
    const { client: c, engine: e } = await connect(srv.port, srv.publicKey);
    try {
      const before = await c.getMasterchainInfo();
      expect(before.last.seqno).toBe(1);
      const [from, to] = live.scenarios.wallets();
      const msg = walletExternal(from, [{ to: to.address, value: toNano('2'), bounce: false, body: comment('via liteserver') }], 1_800_000_000 + 3600, true);
      await c.sendMessage(msg.toBoc());
      // a client waiting for the next masterchain block gets it once the producer cuts it
      const waiting = c.getMasterchainInfo({ awaitSeqno: 2, timeout: 20_000 });
      await lchain.produce();
      const after = await waiting;
      expect(after.last.seqno).toBe(2);
      const st = await c.getAccountState(from.address, after.last);
      expect(st.state!.storage.state.type).toBe('active');
      const hist = await c.getAccountTransactions(from.address, st.lastTx!.lt.toString(), Buffer.from(st.lastTx!.hash.toString(16).padStart(64, '0'), 'hex'), 1);
      expect(Cell.fromBoc(hist.transactions)).toHaveLength(1);
      const bad = await c.sendMessage(Buffer.from('junk')).catch((err: Error) => err.message);
      expect(bad).toContain('cannot deserialize message');
    } finally {
      e.close();
      await srv.close();
    }
  });
});
