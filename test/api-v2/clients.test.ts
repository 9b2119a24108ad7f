/**
 * Third-party clients, unchanged, against the gateway: @ton/ton's TonClient and tonweb's HttpProvider (with
 * its jetton, NFT and wallet classes) talk JSON-RPC over real HTTP to API v2, which answers from a devnet
 * liteserver over ADNL. Expected values come from the devnet itself (its account states and chain.json),
 * read with @ton/core and ton-lite-client, never from the gateway.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { Address, beginCell, Cell, external, loadMessage, loadShardAccount, storeMessage } from '@ton/core';
import { JettonMaster, JettonWallet, TonClient, WalletContractV4, WalletContractV5R1 } from '@ton/ton';
import type { FastifyInstance } from 'fastify';
import { LiteClient, type LiteSingleEngine } from 'ton-lite-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveChain } from '../../src/devnet/chain/index.ts';
import { comment, createDevnet, walletExternal, type GenerateResult } from '../../src/devnet/generate/index.ts';
import { jettonWalletAddress } from '../../src/devnet/generate/contracts.ts';
import { startLiteServer } from '../../src/devnet/liteserver/index.ts';
import { LiteNode } from '../../src/api/v2/index.ts';
import { apiOver, connectEngine, devnetV2, type DevnetV2 } from './helpers.ts';

// tonweb is CommonJS without types: loaded as its users load it.
const TonWeb = createRequire(import.meta.url)('tonweb') as TonWebModule;

interface Bn {
  toString(base?: number): string;
  toNumber(): number;
}
interface TwAddress {
  toString(userFriendly?: boolean): string;
}
interface TonWebModule {
  new (provider: unknown): { wallet: { all: Record<string, new (p: unknown, o: Record<string, unknown>) => TwWallet> } };
  HttpProvider: new (host: string) => TwProvider;
  token: {
    jetton: {
      JettonMinter: new (p: TwProvider, o: { address: string }) => {
        getJettonData(): Promise<{ totalSupply: Bn; isMutable: boolean; adminAddress: TwAddress; jettonContentUri: string | null }>;
        getJettonWalletAddress(owner: unknown): Promise<TwAddress>;
      };
      JettonWallet: new (p: TwProvider, o: { address: string }) => { getData(): Promise<{ balance: Bn; ownerAddress: TwAddress; jettonMinterAddress: TwAddress }> };
    };
    nft: {
      NftItem: new (p: TwProvider, o: { address: string }) => {
        getData(): Promise<{ isInitialized: boolean; index: number; collectionAddress: TwAddress; ownerAddress: TwAddress; contentUri: string | null }>;
      };
      NftCollection: new (p: TwProvider, o: { address: string }) => {
        getCollectionData(): Promise<{ nextItemIndex: number; ownerAddress: TwAddress; collectionContentUri: string | null }>;
        getNftItemAddressByIndex(index: unknown): Promise<TwAddress>;
      };
    };
  };
  utils: { Address: new (a: string) => TwAddress; BN: new (n: number | string) => Bn };
}
interface TwProvider {
  getBalance(a: string): Promise<string>;
  getTransactions(a: string, limit?: number, lt?: string, hash?: string): Promise<{ transaction_id: { lt: string; hash: string }; in_msg?: { source: string; message: string } }[]>;
  getAddressInfo(a: string): Promise<{ balance: string; state: string; code: string; last_transaction_id: { lt: string; hash: string } }>;
  call(a: string, method: string, params?: unknown[]): Promise<{ exit_code: number; stack: [string, unknown][]; gas_used: number }>;
  getMasterchainInfo(): Promise<{ last: { seqno: number } }>;
}
interface TwWallet {
  getAddress(): Promise<TwAddress>;
  methods: { seqno(): { call(): Promise<number> } };
}

const BLOCKS = 16;

let net: DevnetV2 | undefined;
let dir: string;
let gen: GenerateResult;
let engine: LiteSingleEngine;
let app: FastifyInstance;
let endpoint: string;
let client: TonClient;
let provider: TwProvider;
let chainTxs: { hash: string; lt: string; account: string }[];

const raw = (a: Address) => `${a.workChain}:${a.hash.toString('hex')}`;
const balanceOf = (a: Address) => loadShardAccount(gen.devnet.shardAccount(a).beginParse()).account?.storage.balance.coins ?? 0n;
/** Hashes of an account's transactions in the chain, newest first (base64, as the clients show them). */
const historyOf = (a: Address) =>
  chainTxs
    .filter((t) => t.account === raw(a))
    .sort((x, y) => (BigInt(y.lt) > BigInt(x.lt) ? 1 : -1))
    .map((t) => Buffer.from(t.hash, 'hex').toString('base64'));

beforeAll(async () => {
  net = await devnetV2('api-v2-clients-', { seed: 'clients', blocks: BLOCKS, bulkWallets: 2, splitAt: null, mergeAt: null });
  ({ dir, gen, engine, app } = net);
  chainTxs = (JSON.parse(readFileSync(join(dir, 'chain.json'), 'utf8')) as { transactions: typeof chainTxs }).transactions;
  await app.listen({ host: '127.0.0.1', port: 0 });
  endpoint = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/v2/jsonRPC`;
  client = new TonClient({ endpoint });
  provider = new TonWeb.HttpProvider(endpoint);
}, 600_000);

afterAll(async () => {
  await net?.close();
});

describe('@ton/ton TonClient', () => {
  it('getMasterchainInfo: the tip the liteserver reports', async () => {
    const lite = await new LiteClient({ engine }).getMasterchainInfo();
    const info = await client.getMasterchainInfo();
    expect(info.latestSeqno).toBe(lite.last.seqno);
    expect(info.latestSeqno).toBe(BLOCKS);
    expect(info.workchain).toBe(-1);
  });

  it('getBalance, getContractState, isContractDeployed', async () => {
    const { alice } = gen.scenarios;
    const { jettonMinter } = gen.scenarios.cycles[0];
    expect(await client.getBalance(alice.address)).toBe(balanceOf(alice.address));
    const st = await client.getContractState(jettonMinter);
    expect(st.state).toBe('active');
    expect(st.balance).toBe(balanceOf(jettonMinter));
    const acc = loadShardAccount(gen.devnet.shardAccount(jettonMinter).beginParse()).account!;
    if (acc.storage.state.type !== 'active') throw new Error('minter is not active in the devnet');
    expect(Cell.fromBoc(st.code!)[0].hash().equals(acc.storage.state.state.code!.hash())).toBe(true);
    expect(st.lastTransaction?.hash).toBe(historyOf(jettonMinter)[0]);
    expect(await client.isContractDeployed(jettonMinter)).toBe(true);
    const nobody = new Address(0, Buffer.alloc(32, 0x5a));
    expect(await client.isContractDeployed(nobody)).toBe(false);
    expect((await client.getContractState(nobody)).state).toBe('uninitialized');
  });

  it('getTransactions pages through an account history: every transaction once, newest first', async () => {
    const { alice } = gen.scenarios;
    const expected = historyOf(alice.address);
    expect(expected.length).toBeGreaterThanOrEqual(6);
    const seen: string[] = [];
    let cursor: { lt: string; hash: string } | undefined;
    let pages = 0;
    for (; pages < 50; pages++) {
      const txs = await client.getTransactions(alice.address, { limit: 4, ...(cursor ?? {}) });
      for (const t of txs) seen.push(t.hash().toString('base64'));
      if (txs.length < 4) break;
      const last = txs[txs.length - 1];
      cursor = { lt: last.lt.toString(), hash: last.hash().toString('base64') };
    }
    expect(seen).toEqual(expected);
    expect(pages).toBeGreaterThan(0);
    // inclusive paging repeats the cursor transaction first
    const incl = await client.getTransactions(alice.address, { limit: 2, lt: cursor!.lt, hash: cursor!.hash, inclusive: true });
    expect(incl[0].hash().toString('base64')).toBe(cursor!.hash);
  });

  it('runMethod: wallet seqno through the wallet contracts (v4r2 and v5r1)', async () => {
    const { alice, bob } = gen.scenarios;
    const v4 = client.open(WalletContractV4.create({ workchain: 0, publicKey: alice.keyPair.publicKey }));
    expect(v4.address.equals(alice.address)).toBe(true);
    expect(await v4.getSeqno()).toBe(alice.seqno);
    const v5 = client.open(WalletContractV5R1.create({ publicKey: bob.keyPair.publicKey, walletId: { networkGlobalId: gen.devnet.globalId } }));
    expect(v5.address.equals(bob.address)).toBe(true);
    expect(await v5.getSeqno()).toBe(bob.seqno);
  });

  it('runMethod: jetton get_wallet_data and JettonMaster.getWalletAddress with a slice argument', async () => {
    const { bob, dave } = gen.scenarios;
    const { jettonMinter } = gen.scenarios.cycles[0];
    const master = client.open(JettonMaster.create(jettonMinter));
    const bobWallet = await master.getWalletAddress(bob.address);
    expect(bobWallet.equals(jettonWalletAddress(bob.address, jettonMinter))).toBe(true);
    // minted 1000, sent 100 to dave, burned 30 (9 decimals)
    expect(await client.open(JettonWallet.create(bobWallet)).getBalance()).toBe(870_000_000_000n);
    const data = await client.runMethod(jettonWalletAddress(dave.address, jettonMinter), 'get_wallet_data');
    expect(data.stack.readBigNumber()).toBe(100_000_000_000n);
    expect(data.stack.readAddress().equals(dave.address)).toBe(true);
    expect(data.stack.readAddress().equals(jettonMinter)).toBe(true);
    const jd = await master.getJettonData();
    expect(jd.totalSupply).toBe(970_000_000_000n);
  });

  it('runMethod: NFT get_nft_data (owner after dave -> alice and the sale alice -> bob)', async () => {
    const { nftItem, nftCollection } = gen.scenarios.cycles[0];
    const r = await client.runMethod(nftItem, 'get_nft_data');
    expect(r.stack.readBoolean()).toBe(true);
    expect(r.stack.readBigNumber()).toBe(0n);
    expect(r.stack.readAddress().equals(nftCollection)).toBe(true);
    expect(r.stack.readAddress().equals(gen.scenarios.bob.address)).toBe(true);
    expect(r.stack.readCell().refs.length + r.gas_used).toBeGreaterThan(0);
    // a numeric argument: the collection finds the item by index
    const byIndex = await client.runMethod(nftCollection, 'get_nft_address_by_index', [{ type: 'int', value: 0n }]);
    expect(byIndex.stack.readAddress().equals(nftItem)).toBe(true);
  });

  it('estimateExternalMessageFee: numbers, as tonlib sends them', async () => {
    const { carol } = gen.scenarios;
    // a transfer signed for carol's current seqno: its gas and forward fees are what the chain would charge
    const msg = walletExternal({ ...carol }, [{ to: gen.scenarios.dave.address, value: 1_000_000n, bounce: false, body: comment('fee estimate') }], 2_000_000_000);
    const parsed = loadMessage(msg.beginParse());
    const fee = await client.estimateExternalMessageFee(carol.address, { body: parsed.body, initCode: null, initData: null, ignoreSignature: true });
    const f = fee.source_fees;
    for (const k of ['in_fwd_fee', 'storage_fee', 'gas_fee', 'fwd_fee'] as const) expect(typeof f[k]).toBe('number');
    expect(f.gas_fee).toBeGreaterThan(0);
    expect(f.in_fwd_fee).toBeGreaterThan(0);
    expect(f.fwd_fee).toBeGreaterThan(0);
  });

  it('sendFile with a bad BoC: a clear 4xx, nothing reaches the liteserver', async () => {
    const err = (await client.sendFile(Buffer.from('definitely not a bag of cells')).then(
      () => null,
      (e: unknown) => e,
    )) as { response?: { status: number; data: { ok: boolean; error: string } } } | null;
    expect(err?.response?.status).toBe(422);
    expect(err!.response!.data).toMatchObject({ ok: false, error: expect.stringMatching(/^failed to parse boc: /) });
    // an internal message is no external: refused the same way
    const internalMsg = beginCell()
      .store(storeMessage({ info: { type: 'internal', ihrDisabled: true, bounce: false, bounced: false, src: gen.scenarios.alice.address, dest: gen.scenarios.bob.address, value: { coins: 1n }, ihrFee: 0n, forwardFee: 0n, createdLt: 0n, createdAt: 0 }, body: Cell.EMPTY }))
      .endCell();
    const err2 = (await client.sendFile(internalMsg.toBoc()).then(() => null, (e: unknown) => e)) as { response?: { status: number; data: { error: string } } };
    expect(err2.response?.status).toBe(422);
    expect(err2.response!.data.error).toMatch(/external-in/);
    // an unsigned external reaches the liteserver, which refuses it: toncenter's status (500) and the reason
    const unsigned = beginCell().store(storeMessage(external({ to: gen.scenarios.alice.address, body: comment('ping') }))).endCell();
    const err3 = (await client.sendFile(unsigned.toBoc()).then(() => null, (e: unknown) => e)) as { response?: { status: number; data: { error: string } } };
    expect(err3.response?.status).toBe(500);
    expect(err3.response!.data.error).toMatch(/^LITE_SERVER_UNKNOWN: /);
  });

  it('on a live devnet: sendFile of a signed transfer is accepted and lands in the next block', async () => {
    const start = 1_800_000_000;
    const live = await createDevnet({ seed: 'clients-live', startTime: start });
    const zs = live.devnet.zeroState.mc.ref;
    const chain = new LiveChain(live, { globalId: live.devnet.globalId, zeroState: { workchain: -1, rootHash: zs.rootHash, fileHash: zs.fileHash } });
    await chain.produce();
    const srv = await startLiteServer({ source: chain, key: Buffer.alloc(32, 7), port: 0 });
    const eng = await connectEngine(srv.port, srv.publicKey);
    const api = await apiOver(LiteNode.fromEngine(eng), { testnet: true });
    try {
      await api.listen({ host: '127.0.0.1', port: 0 });
      const tc = new TonClient({ endpoint: `http://127.0.0.1:${(api.server.address() as AddressInfo).port}/api/v2/jsonRPC` });
      const [from, to] = live.scenarios.wallets();
      const signed = walletExternal(from, [{ to: to.address, value: 2_000_000_000n, bounce: false, body: comment('via TonClient') }], start + 3600, true);
      await expect(tc.sendFile(signed.toBoc())).resolves.toBeUndefined();
      await chain.produce();
      const [tx] = await tc.getTransactions(from.address, { limit: 1 });
      expect(tx.inMessage?.body.hash().equals(loadMessage(signed.beginParse()).body.hash())).toBe(true);
      expect(await tc.getBalance(to.address)).toBe(live.devnet.balance(to.address));
    } finally {
      await api.close();
      eng.close();
      await srv.close();
    }
  });
});

describe('tonweb HttpProvider and contract classes', () => {
  it('getMasterchainInfo, getBalance, getAddressInfo', async () => {
    const { alice } = gen.scenarios;
    expect((await provider.getMasterchainInfo()).last.seqno).toBe(BLOCKS);
    expect(await provider.getBalance(alice.address.toString())).toBe(balanceOf(alice.address).toString());
    const info = await provider.getAddressInfo(raw(alice.address));
    expect(info).toMatchObject({ balance: balanceOf(alice.address).toString(), state: 'active' });
    expect(info.last_transaction_id.hash).toBe(historyOf(alice.address)[0]);
  });

  it('getTransactions with tonweb paging (lt + hash of the last item, inclusive)', async () => {
    const { bob } = gen.scenarios;
    const expected = historyOf(bob.address);
    const first = await provider.getTransactions(bob.address.toString(), 4);
    expect(first.map((t) => t.transaction_id.hash)).toEqual(expected.slice(0, 4));
    const last = first[first.length - 1].transaction_id;
    const second = await provider.getTransactions(bob.address.toString(), 4, last.lt, last.hash);
    expect(second.map((t) => t.transaction_id.hash)).toEqual(expected.slice(3, 7));
  });

  it('call: seqno of a wallet as the legacy stack', async () => {
    const r = await provider.call(raw(gen.scenarios.alice.address), 'seqno');
    expect(r.exit_code).toBe(0);
    expect(r.stack).toEqual([['num', '0x' + gen.scenarios.alice.seqno.toString(16)]]);
  });

  it('wallet class: v4R2 address and seqno', async () => {
    const { alice } = gen.scenarios;
    const tw = new TonWeb(provider);
    const wallet = new tw.wallet.all.v4R2(provider, { publicKey: alice.keyPair.publicKey, wc: 0 });
    expect((await wallet.getAddress()).toString(false)).toBe(raw(alice.address));
    expect(await wallet.methods.seqno().call()).toBe(alice.seqno);
  });

  it('jetton classes: minter data, wallet address by owner (slice argument), wallet data', async () => {
    const { bob, carol } = gen.scenarios;
    const { jettonMinter } = gen.scenarios.cycles[0];
    const minter = new TonWeb.token.jetton.JettonMinter(provider, { address: jettonMinter.toString() });
    const data = await minter.getJettonData();
    expect(data.totalSupply.toString()).toBe('970000000000');
    expect(data.adminAddress.toString(false)).toBe(raw(carol.address));
    expect(data.jettonContentUri).toBe('https://devnet.example/jetton/0.json');
    const bobWalletAddr = await minter.getJettonWalletAddress(new TonWeb.utils.Address(bob.address.toString()));
    expect(bobWalletAddr.toString(false)).toBe(raw(jettonWalletAddress(bob.address, jettonMinter)));
    const wallet = new TonWeb.token.jetton.JettonWallet(provider, { address: bobWalletAddr.toString(true) });
    const wd = await wallet.getData();
    expect(wd.balance.toString()).toBe('870000000000');
    expect(wd.ownerAddress.toString(false)).toBe(raw(bob.address));
    expect(wd.jettonMinterAddress.toString(false)).toBe(raw(jettonMinter));
  });

  it('NFT classes: collection data, item address by index, item data', async () => {
    const { nftCollection, nftItem } = gen.scenarios.cycles[0];
    const col = new TonWeb.token.nft.NftCollection(provider, { address: nftCollection.toString() });
    const cd = await col.getCollectionData();
    expect(cd.nextItemIndex).toBe(1);
    expect(cd.ownerAddress.toString(false)).toBe(raw(gen.scenarios.carol.address));
    expect((await col.getNftItemAddressByIndex(new TonWeb.utils.BN(0))).toString(false)).toBe(raw(nftItem));
    const item = new TonWeb.token.nft.NftItem(provider, { address: nftItem.toString() });
    const d = await item.getData();
    expect(d.isInitialized).toBe(true);
    expect(d.index).toBe(0);
    expect(d.collectionAddress.toString(false)).toBe(raw(nftCollection));
    // alice got it from dave, then sold it to bob (the cycle's GetGems sale)
    expect(d.ownerAddress.toString(false)).toBe(raw(gen.scenarios.bob.address));
  });
});
