/**
 * API v2 against the devnet liteserver serving a generated chain (wallets v4r2/v5r1, a jetton minter with
 * wallets, an NFT collection with an item, bulk transfers), and a live devnet for sendBoc. Get-methods run
 * in our TVM emulator on states fetched over ADNL; expected values come from the scenario the generator ran.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Address, beginCell, Cell, loadMessage, loadTransaction, toNano } from '@ton/core';
import type { FastifyInstance } from 'fastify';
import type { LiteSingleEngine } from 'ton-lite-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveChain, loadChainDir } from '../../src/devnet/chain/index.ts';
import { comment, createDevnet, generateDevnet, walletExternal, type GenerateResult } from '../../src/devnet/generate/index.ts';
import { jettonWalletAddress } from '../../src/devnet/generate/contracts.ts';
import { readServerKeyFile, startLiteServer, type LiteServer } from '../../src/devnet/liteserver/index.ts';
import { formatFriendly, formatRaw } from '../../src/format/index.ts';
import { LiteNode } from '../../src/api/v2/index.ts';
import { apiOver, call, connectEngine } from './helpers.ts';
import * as R from '../../schemas/api/v2/responses.ts';

const BLOCKS = 16; // one full scenario cycle: mint (round 3), transfers (7), burn (11) all complete
const SHARD = '-9223372036854775808';

let dir: string;
let gen: GenerateResult;
let server: LiteServer;
let engine: LiteSingleEngine;
let app: FastifyInstance;
interface TxJson {
  hash: string;
  lt: string;
  account: string;
  workchain: number;
  shard: string;
  seqno: number;
}
let txs: TxJson[];

const raw = (a: Address) => `${a.workChain}:${a.hash.toString('hex')}`;
const fr = (a: Address) => formatFriendly({ workchain: a.workChain, hash: a.hash.toString('hex') }, { bounceable: true, testOnly: true, urlSafe: true });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'api-v2-gen-'));
  // 12 bulk wallets x 4 transfers: blocks with more than 40 transactions; one shard keeps them together.
  gen = await generateDevnet(dir, { seed: 'api-v2', blocks: BLOCKS, bulkWallets: 12, splitAt: null, mergeAt: null });
  txs = (JSON.parse(readFileSync(join(dir, 'chain.json'), 'utf8')) as { transactions: TxJson[] }).transactions;
  server = await startLiteServer({ source: loadChainDir(dir), key: readServerKeyFile(dir)!, port: 0 });
  engine = await connectEngine(server.port, server.publicKey);
  app = await apiOver(LiteNode.fromEngine(engine, { timeoutMs: 10_000 }), { testnet: true });
}, 600_000);

afterAll(async () => {
  await app?.close();
  engine?.close();
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('get-methods in the TVM emulator', () => {
  it('runGetMethod seqno of the wallets equals the externals the scenario sent (v4r2 and v5r1)', async () => {
    for (const w of [gen.scenarios.alice, gen.scenarios.bob]) {
      const r = await call(app, 'runGetMethod', { address: raw(w.address), method: 'seqno', stack: [] }, 'POST');
      expect(r.status).toBe(200);
      expect(r.result).toMatchObject({ '@type': 'smc.runResult', exit_code: 0, stack: [['num', '0x' + w.seqno.toString(16)]] });
      R.okEnvelope(R.runResult).parse(r.body);
      expect(r.result.gas_used as unknown as number).toBeGreaterThan(0);
    }
  });

  it('runGetMethod honours a historical seqno; numeric method ids work', async () => {
    const bob = gen.scenarios.bob;
    const early = await call(app, 'runGetMethod', { address: raw(bob.address), method: 'seqno', stack: [], seqno: 2 }, 'POST');
    const late = await call(app, 'runGetMethod', { address: raw(bob.address), method: '85143', stack: [] }, 'POST');
    expect(late.result.stack).toEqual([['num', '0x' + bob.seqno.toString(16)]]);
    expect(early.result.block_id).toMatchObject({ workchain: -1, seqno: 2 });
    const earlySeqno = BigInt((early.result.stack as unknown as [string, string][])[0][1]);
    expect(earlySeqno).toBeLessThan(BigInt(bob.seqno));
  });

  it('jetton minter: get_jetton_data, and get_wallet_address with a slice argument (legacy and typed stacks)', async () => {
    const { jettonMinter } = gen.scenarios.cycles[0];
    const bob = gen.scenarios.bob.address;
    const expected = jettonWalletAddress(bob, jettonMinter);
    const arg = beginCell().storeAddress(bob).endCell().toBoc().toString('base64');
    const legacy = await call(app, 'runGetMethod', { address: raw(jettonMinter), method: 'get_wallet_address', stack: [['tvm.Slice', arg]] }, 'POST');
    expect(legacy.result.exit_code).toBe(0);
    const out = (legacy.result.stack as unknown as [string, { bytes: string }][])[0];
    expect(out[0]).toBe('cell');
    expect(Cell.fromBase64(out[1].bytes).beginParse().loadAddress().equals(expected)).toBe(true);
    const typed = await call(
      app,
      'runGetMethodStd',
      { address: raw(jettonMinter), method: 'get_wallet_address', stack: [{ '@type': 'tvm.stackEntrySlice', slice: { '@type': 'tvm.slice', bytes: arg } }] },
      'POST',
    );
    const entry = (typed.result.stack as unknown as { '@type': string; slice: { bytes: string } }[])[0];
    expect(entry['@type']).toBe('tvm.stackEntrySlice');
    expect(Cell.fromBase64(entry.slice.bytes).beginParse().loadAddress().equals(expected)).toBe(true);
    const data = await call(app, 'runGetMethodStd', { address: raw(jettonMinter), method: 'get_jetton_data', stack: [] }, 'POST');
    const types = (data.result.stack as unknown as { '@type': string }[]).map((e) => e['@type']);
    expect(types).toEqual(['tvm.stackEntryNumber', 'tvm.stackEntryNumber', 'tvm.stackEntrySlice', 'tvm.stackEntryCell', 'tvm.stackEntryCell']);
    // minted 1000, burned 30 (9 decimals)
    expect((data.result.stack as unknown as { number: { number: string } }[])[0].number.number).toBe('970000000000');
  });

  it('an account without code: exit code -13 (tonlib), empty stack', async () => {
    const r = await call(app, 'runGetMethod', { address: '0:' + '44'.repeat(32), method: 'seqno', stack: [] }, 'POST');
    expect(r.status).toBe(200);
    expect(r.result).toMatchObject({ exit_code: -13, stack: [] });
  });
});

describe('getTokenData', () => {
  it('jetton master: supply, admin, off-chain content', async () => {
    const c = gen.scenarios.cycles[0];
    const r = await call(app, 'getTokenData', { address: raw(c.jettonMinter) });
    expect(r.status).toBe(200);
    expect(r.result).toMatchObject({
      '@type': 'ext.tokens.jettonMasterData',
      contract_type: 'jetton_master',
      address: fr(c.jettonMinter),
      total_supply: '970000000000',
      admin_address: fr(gen.scenarios.carol.address),
      jetton_content: { type: 'offchain', data: 'https://devnet.example/jetton/0.json' },
    });
  });

  it('jetton wallets: balances after mint 1000 -> transfer 100 -> burn 30, verified with the master; history via seqno', async () => {
    const c = gen.scenarios.cycles[0];
    const bobWallet = jettonWalletAddress(gen.scenarios.bob.address, c.jettonMinter);
    const daveWallet = jettonWalletAddress(gen.scenarios.dave.address, c.jettonMinter);
    const bob = await call(app, 'getTokenData', { address: fr(bobWallet) });
    expect(bob.result).toMatchObject({
      '@type': 'ext.tokens.jettonWalletData',
      contract_type: 'jetton_wallet',
      balance: '870000000000',
      owner: fr(gen.scenarios.bob.address),
      jetton: fr(c.jettonMinter),
    });
    expect((await call(app, 'getTokenData', { address: raw(daveWallet) })).result).toMatchObject({ balance: '100000000000', owner: fr(gen.scenarios.dave.address) });
    // before the transfer of round 7 bob held all 1000
    const before = await call(app, 'getTokenData', { address: raw(bobWallet), seqno: 6 });
    expect(before.result).toMatchObject({ balance: '1000000000000' });
  });

  it('NFT collection and item (owner after the transfer dave -> alice), content completed by the collection', async () => {
    const c = gen.scenarios.cycles[0];
    const col = await call(app, 'getTokenData', { address: raw(c.nftCollection) });
    expect(col.result).toMatchObject({
      '@type': 'ext.tokens.nftCollectionData',
      contract_type: 'nft_collection',
      next_item_index: '1',
      owner_address: fr(gen.scenarios.carol.address),
    });
    const item = await call(app, 'getTokenData', { address: raw(c.nftItem) });
    expect(item.result).toMatchObject({
      '@type': 'ext.tokens.nftItemData',
      contract_type: 'nft_item',
      init: true,
      index: '0',
      collection_address: fr(c.nftCollection),
      owner_address: fr(gen.scenarios.alice.address),
    });
    expect(JSON.stringify(item.result.content)).toContain('item-0-0.json');
  });

  it('a wallet is not a token -> 409', async () => {
    const r = await call(app, 'getTokenData', { address: raw(gen.scenarios.alice.address) });
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ ok: false, code: 409, error: 'Smart contract is not Jetton or NFT' });
  });
});

describe('wallets, config, blocks', () => {
  it('getWalletInformation: v4r2 with seqno and wallet_id 698983191', async () => {
    const r = await call(app, 'getWalletInformation', { address: raw(gen.scenarios.alice.address) });
    expect(r.result).toMatchObject({ wallet: true, wallet_type: 'wallet v4 r2', seqno: gen.scenarios.alice.seqno, wallet_id: gen.scenarios.alice.walletId });
    const ext = await call(app, 'getExtendedAddressInformation', { address: raw(gen.scenarios.alice.address) });
    expect(ext.result.account_state).toEqual({ '@type': 'wallet.v4.accountState', wallet_id: String(gen.scenarios.alice.walletId), seqno: gen.scenarios.alice.seqno });
  });

  it('getConfigParam / getConfigAll', async () => {
    const p = await call(app, 'getConfigParam', { config_id: 0 });
    expect(p.status).toBe(200);
    expect(p.result['@type']).toBe('configInfo');
    // param 0: the config contract address (256 bits)
    expect(Cell.fromBase64((p.result.config as { bytes: string }).bytes).bits.length).toBe(256);
    const all = await call(app, 'getConfigAll');
    expect(Cell.fromBase64((all.result.config as { bytes: string }).bytes).hash().length).toBe(32);
    const missing = await call(app, 'getConfigParam', { config_id: 9999 });
    expect(missing.status).toBe(404);
  });

  it('getBlockTransactionsExt pages across a block with more than 40 transactions', async () => {
    const counts = new Map<string, TxJson[]>();
    for (const t of txs) if (t.workchain === 0) counts.set(`${t.shard}:${t.seqno}`, [...(counts.get(`${t.shard}:${t.seqno}`) ?? []), t]);
    const [key, blockTxs] = [...counts.entries()].sort((a, b) => b[1].length - a[1].length)[0];
    expect(blockTxs.length).toBeGreaterThan(40);
    const seqno = Number(key.split(':')[1]);
    const seen: string[] = [];
    let after: { after_lt: string; after_hash: string } | null = null;
    let pages = 0;
    for (;;) {
      const r = await call(app, 'getBlockTransactionsExt', { workchain: 0, shard: SHARD, seqno, ...(after ?? {}) });
      expect(r.status).toBe(200);
      const list = r.result.transactions as { transaction_id: { lt: string; hash: string }; account: string }[];
      pages++;
      expect(list.length).toBeLessThanOrEqual(40);
      for (const t of list) seen.push(Buffer.from(t.transaction_id.hash, 'base64').toString('hex'));
      if (!r.result.incomplete) break;
      expect(list).toHaveLength(40);
      const last = list.at(-1)!;
      after = { after_lt: last.transaction_id.lt, after_hash: last.account };
    }
    expect(pages).toBe(Math.ceil(blockTxs.length / 40));
    // every transaction of the block exactly once, in the liteserver's (account, lt) order
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort()).toEqual(blockTxs.map((t) => t.hash).sort());
    const byHash = new Map(blockTxs.map((t) => [t.hash, t]));
    const keys = seen.map((h) => `${byHash.get(h)!.account.split(':')[1]}:${byHash.get(h)!.lt.padStart(20, '0')}`);
    expect(keys).toEqual([...keys].sort());
    // the short form lists the same transactions in one call
    const short = await call(app, 'getBlockTransactions', { workchain: 0, shard: SHARD, seqno, count: 1000 });
    const shortList = short.result.transactions as { account: string; hash: string }[];
    expect(shortList.map((t) => Buffer.from(t.hash, 'base64').toString('hex'))).toEqual(seen);
    expect(shortList[0].account).toBe(formatRaw({ workchain: 0, hash: byHash.get(seen[0])!.account.split(':')[1] }));
  });
});

describe('live devnet: sendBoc, then the transaction', () => {
  it('sendBocReturnHash -> the external lands in the next block and getTransactions shows it', async () => {
    const start = 1_800_000_000;
    const live = await createDevnet({ seed: 'api-v2-live', startTime: start });
    const zs = live.devnet.zeroState.mc.ref;
    const chain = new LiveChain(live, { globalId: live.devnet.globalId, zeroState: { workchain: -1, rootHash: zs.rootHash, fileHash: zs.fileHash } });
    await chain.produce();
    const srv = await startLiteServer({ source: chain, key: Buffer.alloc(32, 9), port: 0 });
    const eng = await connectEngine(srv.port, srv.publicKey);
    const api = await apiOver(LiteNode.fromEngine(eng), { testnet: true });
    try {
      const [from, to] = live.scenarios.wallets();
      const msg = walletExternal(from, [{ to: to.address, value: toNano('2'), bounce: false, body: comment('via api v2') }], start + 3600, true);
      // estimateFee emulates the external on the state the liteserver serves (signature checked: it is signed)
      const parsed = loadMessage(msg.beginParse());
      const fee = await call(
        api,
        'estimateFee',
        {
          address: fr(from.address),
          body: parsed.body.toBoc().toString('base64'),
          init_code: parsed.init!.code!.toBoc().toString('base64'),
          init_data: parsed.init!.data!.toBoc().toString('base64'),
          ignore_chksig: false,
        },
        'POST',
      );
      expect(fee.status).toBe(200);
      const est = fee.result.source_fees as unknown as Record<string, string>;
      expect(fee.result.destination_fees).toEqual([]);
      for (const k of ['in_fwd_fee', 'gas_fee', 'fwd_fee']) expect(BigInt(est[k])).toBeGreaterThan(0n);
      const sent = await call(api, 'sendBocReturnHash', { boc: msg.toBoc().toString('base64') }, 'POST');
      expect(sent.status).toBe(200);
      expect(sent.result).toMatchObject({ '@type': 'raw.extMessageInfo', hash: msg.hash().toString('base64') });
      await chain.produce();
      const hist = await call(api, 'getTransactions', { address: raw(from.address), limit: 1 });
      const tx = (hist.result as unknown as { in_msg: { hash: string; msg_data: { init_state: string } }; out_msgs: { destination: string; message: string; value: string }[] }[])[0];
      expect(tx.in_msg.hash).toBe(msg.hash().toString('base64'));
      expect(tx.out_msgs).toMatchObject([{ destination: fr(to.address), value: '2000000000', message: 'via api v2' }]);
      // the estimate's gas and forward fees are what the real transaction paid
      const real = loadTransaction(Cell.fromBase64((hist.result as unknown as { data: string }[])[0].data).beginParse());
      const d = real.description;
      if (d.type !== 'generic' || d.computePhase.type !== 'vm') throw new Error('expected a generic transaction with a VM compute phase');
      expect(est.gas_fee).toBe(d.computePhase.gasFees.toString());
      expect(est.fwd_fee).toBe((d.actionPhase?.totalFwdFees ?? 0n).toString());
      // bytes that are no BoC never reach the liteserver
      const junk = await call(api, 'sendBoc', { boc: Buffer.from('junk junk').toString('base64') }, 'POST');
      expect(junk.status).toBe(422);
      expect(junk.body.error).toMatch(/^failed to parse boc: not a valid BoC/);
    } finally {
      await api.close();
      eng.close();
      await srv.close();
    }
  });
});

