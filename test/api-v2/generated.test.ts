/**
 * API v2 against the devnet liteserver serving a generated chain (wallets v4r2/v5r1, a jetton minter with
 * wallets, an NFT collection with an item, bulk transfers), and a live devnet for sendBoc. Get-methods run
 * in our TVM emulator on states fetched over ADNL; expected values come from the scenario the generator ran.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Address, beginCell, Cell, Dictionary, loadMessage, loadShardAccount, loadTransaction, toNano, type Slice } from '@ton/core';
import * as ed from '@noble/ed25519';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveChain, loadChainDir, type ChainSource } from '../../src/devnet/chain/index.ts';
import type { BlockRef } from '../../src/ton/index.ts';
import { comment, createDevnet, walletExternal, type GenerateResult } from '../../src/devnet/generate/index.ts';
import { jettonWalletAddress } from '../../src/devnet/generate/contracts.ts';
import { startLiteServer } from '../../src/devnet/liteserver/index.ts';
import { formatFriendly, formatRaw } from '../../src/format/index.ts';
import { LiteNode } from '../../src/api/v2/index.ts';
import { decodeBlock } from '../../src/ton/index.ts';
import { apiOver, call, connectEngine, devnetV2, type DevnetV2 } from './helpers.ts';
import * as R from '../../schemas/api/v2/responses.ts';

const BLOCKS = 16; // one full scenario cycle: mint (round 3), transfers (7), burn (11), the NFT sale (12-15) all complete
const SHARD = '-9223372036854775808';

let net: DevnetV2 | undefined;
let dir: string;
let gen: GenerateResult;
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
  // 12 bulk wallets x 4 transfers: blocks with more than 40 transactions; one shard keeps them together.
  net = await devnetV2('api-v2-gen-', { seed: 'api-v2', blocks: BLOCKS, bulkWallets: 12, splitAt: null, mergeAt: null });
  ({ dir, gen, app } = net);
  txs = (JSON.parse(readFileSync(join(dir, 'chain.json'), 'utf8')) as { transactions: TxJson[] }).transactions;
}, 600_000);

afterAll(async () => {
  await net?.close();
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

  it('NFT collection and item (owner after dave -> alice and the sale alice -> bob), content completed by the collection', async () => {
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
      owner_address: fr(gen.scenarios.bob.address),
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
      const est = fee.result.source_fees as unknown as Record<string, number>;
      // one destination: a genesis wallet (storage used 0 cells / 0 bits, so it owes no storage), basechain flat gas price
      const toAccount = loadShardAccount(live.devnet.shardAccount(to.address).beginParse()).account!;
      expect(toAccount.storageStats.used).toMatchObject({ cells: 0n, bits: 0n });
      const p21 = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), live.devnet.configRoot).get(21)!.beginParse();
      expect(p21.loadUint(8)).toBe(0xd1);
      p21.skip(64);
      expect(fee.result.destination_fees).toEqual([{ '@type': 'fees', in_fwd_fee: 0, storage_fee: 0, gas_fee: Number(p21.loadUintBig(64)), fwd_fee: 0 }]);
      for (const k of ['in_fwd_fee', 'gas_fee', 'fwd_fee']) expect(est[k]).toBeGreaterThan(0);
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
      expect(est.gas_fee).toBe(Number(d.computePhase.gasFees));
      expect(est.fwd_fee).toBe(Number(d.actionPhase?.totalFwdFees ?? 0n));
      // bytes that are no BoC never reach the liteserver
      const junk = await call(api, 'sendBoc', { boc: Buffer.from('junk junk').toString('base64') }, 'POST');
      expect(junk.status).toBe(422);
      expect(junk.body.error).toBe('failed to parse boc: not a valid bag of cells (the bytes do not parse as a serialized BoC)');
    } finally {
      await api.close();
      eng.close();
      await srv.close();
    }
  });
});


/** The chain's config dictionary, from key block 1's McBlockExtra (read with @ton/core, not the API's readers). */
function chainConfig(): Dictionary<number, Cell> {
  const key = Cell.fromBoc(readFileSync(join(dir, 'blocks', '-1_8000000000000000_1.boc')))[0];
  const mc = key.refs[3].refs[3];
  return Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), mc.refs[mc.refs.length - 1]);
}

/** Config param 34: validators_ext#12 ... list:(HashmapE 16 ValidatorDescr); validator#53 ed25519_pubkey#8e81278a key weight:uint64. */
function validators(config: Dictionary<number, Cell>): { key: Buffer; weight: bigint; nodeId: string }[] {
  const s = config.get(34)!.beginParse();
  s.skip(8 + 32 + 32 + 16 + 16 + 64);
  const dict = s.loadDict(Dictionary.Keys.Uint(16), {
    serialize: () => undefined,
    parse: (v) => {
      v.skip(8 + 32);
      const key = v.loadBuffer(32);
      return { key, weight: v.loadUintBig(64), nodeId: createHash('sha256').update(Buffer.from('c6b41348', 'hex')).update(key).digest('base64') };
    },
  });
  return [...dict.values()];
}

const b64hex = (s: unknown) => Buffer.from(s as string, 'base64').toString('hex');
interface BlockIdJson {
  workchain: number;
  shard: string;
  seqno: number;
  root_hash: string;
  file_hash: string;
}

/** Hashmap(E) lookup by key bits over an ordinary (or proof) tree; returns the leaf slice. */
function lookup(root: Cell, bits: number, key: bigint): Slice | null {
  let c = root;
  let n = bits;
  let pos = 0;
  const bit = (i: number) => Number((key >> BigInt(bits - 1 - i)) & 1n);
  for (;;) {
    const s = c.beginParse();
    const lenBits = Math.ceil(Math.log2(n + 1));
    let label: number[];
    const b0 = s.loadBit();
    const b1 = b0 ? s.loadBit() : false;
    if (!b0) {
      let len = 0;
      while (s.loadBit()) len++;
      label = Array.from({ length: len }, () => Number(s.loadBit()));
    } else if (!b1) {
      const len = s.loadUint(lenBits);
      label = Array.from({ length: len }, () => Number(s.loadBit()));
    } else {
      const v = Number(s.loadBit());
      label = new Array<number>(s.loadUint(lenBits)).fill(v);
    }
    for (const b of label) if (bit(pos++) !== b) return null;
    n -= label.length;
    if (n === 0) return s;
    c = c.refs[bit(pos++)];
    n--;
  }
}

/** The virtual root of a Merkle proof BoC (exotic type 3 with one ref). */
function virtualRoot(b64: unknown): Cell {
  const proof = Cell.fromBoc(Buffer.from(b64 as string, 'base64'))[0];
  expect(proof.isExotic).toBe(true);
  expect(proof.bits.subbuffer(0, 8)![0]).toBe(3);
  return proof.refs[0];
}

describe('block signatures, shard block proofs and out queue sizes (checked with @ton/core and @noble/ed25519)', () => {
  it('getMasterchainBlockSignatures: each signature verifies with a param-34 validator key over ton.blockId; signers hold > 2/3 of the weight', async () => {
    const vals = validators(chainConfig());
    expect(vals).toHaveLength(4);
    const total = vals.reduce((t, v) => t + v.weight, 0n);
    const mcBlocks = (JSON.parse(readFileSync(join(dir, 'chain.json'), 'utf8')) as { blocks: { workchain: number; seqno: number; root_hash: string; file_hash: string }[] }).blocks.filter((b) => b.workchain === -1);
    for (const seqno of [1, 2, 9, BLOCKS]) {
      const r = await call(app, 'getMasterchainBlockSignatures', { seqno });
      expect(r.status, `seqno ${seqno}`).toBe(200);
      const id = r.result.id as unknown as BlockIdJson;
      const known = mcBlocks.find((b) => b.seqno === seqno)!;
      expect([b64hex(id.root_hash), b64hex(id.file_hash)]).toEqual([known.root_hash, known.file_hash]);
      const signed = Buffer.concat([Buffer.from('706e0bc5', 'hex'), Buffer.from(known.root_hash, 'hex'), Buffer.from(known.file_hash, 'hex')]);
      let weight = 0n;
      for (const s of r.result.signatures as unknown as { '@type': string; node_id_short: string; signature: string }[]) {
        expect(s['@type']).toBe('blocks.signature');
        const v = vals.find((x) => x.nodeId === s.node_id_short);
        expect(v, 'signer is a validator of param 34').toBeDefined();
        expect(await ed.verifyAsync(Buffer.from(s.signature, 'base64'), signed, v!.key)).toBe(true);
        weight += v!.weight;
      }
      expect(weight * 3n).toBeGreaterThan(total * 2n);
    }
  });

  it('signatures the validators did not give for that block are refused: 500 LITE_SERVER_UNKNOWN naming the bad signature', async () => {
    // a liteserver whose BlockProof of masterchain block 5 carries the signatures of block 4
    const source = loadChainDir(dir);
    const forged: ChainSource = new Proxy(source, {
      get(target, prop, receiver) {
        if (prop === 'getBlockProof') {
          return (ref: BlockRef<bigint>) => {
            const real = target.getBlockProof(ref)!;
            if (ref.seqno !== 5) return real;
            const other = target.getBlockProof({ ...ref, seqno: 4 })!;
            return new Cell({ bits: real.bits, refs: [real.refs[0], other.refs[1]] });
          };
        }
        const v = Reflect.get(target, prop, receiver);
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
    const srv = await startLiteServer({ source: forged, key: Buffer.alloc(32, 5), port: 0 });
    const eng = await connectEngine(srv.port, srv.publicKey);
    const api = await apiOver(LiteNode.fromEngine(eng), { testnet: true });
    try {
      expect((await call(api, 'getMasterchainBlockSignatures', { seqno: 4 })).status).toBe(200);
      const r = await call(api, 'getMasterchainBlockSignatures', { seqno: 5 });
      expect(r.status).toBe(500);
      expect(r.body.error).toMatch(/^LITE_SERVER_UNKNOWN: got invalid proof: link \(-1,8000000000000000,1\) -> \(-1,8000000000000000,5\): bad signature of NodeIdShort [0-9a-f]{64}$/);
    } finally {
      await api.close();
      eng.close();
      await srv.close();
    }
  });

  it('getShardBlockProof: the link proofs hash to the masterchain block and hold the shard block descriptor; the backward link proves the masterchain block from the last one', async () => {
    const r = await call(app, 'getShardBlockProof', { workchain: 0, shard: SHARD, seqno: 5 });
    expect(r.status).toBe(200);
    const res = r.result as unknown as { from: BlockIdJson; mc_id: BlockIdJson; links: { id: BlockIdJson; proof: string }[]; mc_proof: Record<string, unknown>[] };
    const target = (await call(app, 'lookupBlock', { workchain: 0, shard: SHARD, seqno: 5 })).result as unknown as BlockIdJson;
    const last = ((await call(app, 'getMasterchainInfo')).result as unknown as { last: BlockIdJson }).last;
    expect(res.from).toEqual(last);
    expect(res.links).toHaveLength(1);
    expect(res.links[0].id).toEqual(target);
    // the masterchain block's proof: root hash, then McBlockExtra.shard_hashes holds the shard block as its shard's top
    const mcRoot = virtualRoot(res.links[0].proof);
    expect(mcRoot.hash(0).toString('base64')).toBe(res.mc_id.root_hash);
    const mcExtra = mcRoot.refs[3].refs[3].beginParse();
    expect(mcExtra.loadUint(16)).toBe(0xcca5);
    mcExtra.loadBit();
    const tree = lookup(mcExtra.loadRef(), 32, 0n)!.loadRef().beginParse();
    expect(tree.loadBit()).toBe(false); // bt_leaf: one basechain shard
    expect(tree.loadUint(4)).toBe(0xb);
    expect(tree.loadUint(32)).toBe(5);
    tree.skip(32 + 64 + 64);
    expect(tree.loadBuffer(32).toString('base64')).toBe(target.root_hash);
    expect(tree.loadBuffer(32).toString('base64')).toBe(target.file_hash);
    // mc_proof: last -> mc_id, proven by the last block's state (OldMcBlocksInfo lists mc_id)
    expect(res.mc_proof).toHaveLength(1);
    const link = res.mc_proof[0];
    expect(link).toMatchObject({ '@type': 'blocks.blockLinkBack', from: last, to: res.mc_id, to_key_block: false });
    const src = virtualRoot(link.proof);
    expect(src.hash(0).toString('base64')).toBe(last.root_hash);
    const newStateHash = src.refs[2].bits.subbuffer(8 + 256, 256)!; // !merkle_update#04 old_hash new_hash ...
    const state = virtualRoot(link.state_proof);
    expect(state.hash(0)).toEqual(newStateHash);
    const extra = state.refs[3];
    const es = extra.beginParse();
    expect(es.loadUint(16)).toBe(0xcc26);
    const inner = extra.refs[es.loadBit() ? 2 : 1].beginParse();
    inner.skip(16 + 65);
    expect(inner.loadBit()).toBe(true);
    const leaf = lookup(inner.loadRef(), 32, BigInt(res.mc_id.seqno))!;
    leaf.skip(1 + 64 + 1 + 64); // extra KeyMaxLt, key flag, end_lt
    expect(leaf.loadUint(32)).toBe(res.mc_id.seqno);
    expect(leaf.loadBuffer(32).toString('base64')).toBe(res.mc_id.root_hash);
    expect(leaf.loadBuffer(32).toString('base64')).toBe(res.mc_id.file_hash);
    expect(virtualRoot(link.dest_proof).hash(0).toString('base64')).toBe(res.mc_id.root_hash);
    // from the committing masterchain block itself: no backward link; from an older one: 422 naming from_seqno
    const same = await call(app, 'getShardBlockProof', { workchain: 0, shard: SHARD, seqno: 5, from_seqno: res.mc_id.seqno });
    expect(same.result).toMatchObject({ from: res.mc_id, mc_id: res.mc_id, mc_proof: [] });
    const old = await call(app, 'getShardBlockProof', { workchain: 0, shard: SHARD, seqno: 5, from_seqno: res.mc_id.seqno - 1 });
    expect(old.status).toBe(422);
    expect(old.body.error).toMatch(/^failed to parse from_seqno: /);
  });

  it('getOutMsgQueueSize: the last masterchain block and shard top queue the internal messages they created (in flight); limit 8000', async () => {
    const r = await call(app, 'getOutMsgQueueSize');
    expect(r.status).toBe(200);
    const res = r.result as unknown as { shards: { '@type': string; id: BlockIdJson; size: number }[]; ext_msg_queue_size_limit: number };
    expect(res.ext_msg_queue_size_limit).toBe(8000);
    expect(res.shards.map((s) => [s.id.workchain, s.id.seqno])).toEqual([
      [-1, BLOCKS],
      [0, BLOCKS],
    ]);
    for (const s of res.shards) {
      const shard = BigInt.asUintN(64, BigInt(s.id.shard)).toString(16);
      const tx = decodeBlock(readFileSync(join(dir, 'blocks', `${s.id.workchain}_${shard}_${s.id.seqno}.boc`)));
      const created = tx.transactions.flatMap((t) => t.out_msgs).filter((m) => m.message_type === 'int').length;
      expect(s.size, `${s.id.workchain}`).toBe(created);
    }
    const inFlight = (JSON.parse(readFileSync(join(dir, 'chain.json'), 'utf8')) as { in_flight: { external: boolean }[] }).in_flight.filter((m) => !m.external);
    expect(res.shards.reduce((t, s) => t + s.size, 0)).toBe(inFlight.length);
    expect(inFlight.length).toBeGreaterThan(40); // 12 bulk wallets x 4 transfers in the last round alone
  });

  it('estimateFee destination_fees: per message, flat gas price of the destination workchain and storage owed since its last payment; nothing for an address without code', async () => {
    const config = chainConfig();
    const flat = (id: number) => {
      const s = config.get(id)!.beginParse();
      expect(s.loadUint(8)).toBe(0xd1); // gas_flat_pfx#d1 flat_gas_limit flat_gas_price
      s.skip(64);
      return s.loadUintBig(64);
    };
    const { alice, bob, master } = gen.scenarios;
    const nobody = new Address(0, Buffer.alloc(32, 0x5a));
    const msg = walletExternal(
      { ...alice },
      [
        { to: bob.address, value: toNano('1'), bounce: false },
        { to: nobody, value: toNano('0.5'), bounce: false },
        { to: master.address, value: toNano('1'), bounce: false },
      ],
      Math.floor(Date.now() / 1000) + 3600, // estimateFee runs at the later of now and the state time
    );
    const parsed = loadMessage(msg.beginParse());
    const r = await call(app, 'estimateFee', { address: raw(alice.address), body: parsed.body.toBoc().toString('base64'), ignore_chksig: false }, 'POST');
    expect(r.status).toBe(200);
    const dest = r.result.destination_fees as unknown as Record<string, string>[];
    expect(dest).toHaveLength(3);
    // the destinations' states as the chain's last shard block has them; that block's gen_utime is their sync time
    const tipShard = Cell.fromBoc(readFileSync(join(dir, 'blocks', `0_8000000000000000_${BLOCKS}.boc`)))[0].refs[0].beginParse();
    tipShard.skip(32 + 32 + 8 + 8 + 32 + 32 + 2 + 6 + 32 + 64);
    const now = tipShard.loadUint(32);
    const storage = (a: Address) => {
      const acc = loadShardAccount(gen.devnet.shardAccount(a).beginParse()).account!;
      const { cells, bits } = acc.storageStats.used;
      const lastPaid = acc.storageStats.lastPaid;
      // param 18 holds one period starting before the chain: (bit_price * bits + cell_price * cells) * seconds / 2^16, rounded up
      const entry = loadStoragePrices(config.get(18)!);
      expect(entry.utimeSince).toBeLessThan(lastPaid);
      // tonlib prices a destination's storage with the source's workchain (alice: basechain), also for the masterchain one
      const perSecond = entry.bitPrice * bits + entry.cellPrice * cells;
      return { fee: now > lastPaid ? (perSecond * BigInt(now - lastPaid) + 65535n) >> 16n : 0n, cells };
    };
    const sb = storage(bob.address);
    const sm = storage(master.address);
    expect(sb.cells).toBeGreaterThan(0n);
    expect(dest[0]).toEqual({ '@type': 'fees', in_fwd_fee: 0, storage_fee: Number(sb.fee), gas_fee: Number(flat(21)), fwd_fee: 0 });
    expect(dest[1]).toEqual({ '@type': 'fees', in_fwd_fee: 0, storage_fee: 0, gas_fee: 0, fwd_fee: 0 });
    expect(dest[2]).toEqual({ '@type': 'fees', in_fwd_fee: 0, storage_fee: Number(sm.fee), gas_fee: Number(flat(20)), fwd_fee: 0 });
    expect(sb.fee + sm.fee).toBeGreaterThan(0n);
    expect(flat(20)).not.toBe(flat(21));
  });
});

/** _ (Hashmap 32 StoragePrices) = ConfigParam 18 with a single entry: ton#cc utime_since bit_price_ps cell_price_ps ... */
function loadStoragePrices(p18: Cell): { utimeSince: number; bitPrice: bigint; cellPrice: bigint } {
  const dict = Dictionary.loadDirect(
    Dictionary.Keys.Uint(32),
    {
      serialize: () => undefined,
      parse: (s) => {
        expect(s.loadUint(8)).toBe(0xcc);
        return { utimeSince: s.loadUint(32), bitPrice: s.loadUintBig(64), cellPrice: s.loadUintBig(64) };
      },
    },
    p18,
  );
  expect(dict.size).toBe(1);
  return [...dict.values()][0];
}
