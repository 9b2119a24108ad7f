// End to end: real fixture blocks through the traces stage (processMcBatch + writeMcBatch) into chdb, then the
// API v3 entity endpoints answer the rows. contract_code holds the fixture codes, as it would after the store
// had indexed the blocks deploying them (the blocks here prune those codes).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Address, beginCell, Cell, Dictionary, internal, storeMessageRelaxed } from '@ton/core';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as S from '../../schemas/api/v3/entities.ts';
import { KeyStore } from '../../src/api/auth/index.ts';
import { buildServer } from '../../src/api/server.ts';
import { v3Group } from '../../src/api/v3/index.ts';
import { encodeJsonLines, openStore, type StoreClient } from '../../src/store/client/index.ts';
import { importBlocks } from '../../pipelines/index.ts';
import { decodeBlock, type DecodedBlock } from '../../src/ton/index.ts';
import { TraceAssembler } from '../../src/traces/assembler.ts';
import { processMcBatch, writeMcBatch } from '../../src/traces/stage.ts';
import { createTracesContext, type TracesContext } from '../../src/traces/stage-context.ts';
import { code, fixtureCodes, prunedBranch, raw, stateOf } from '../entities/helpers.ts';
import { entityStateRows, storeEntityLookup } from '../../src/entities/index.ts';
import { get } from './helpers.ts';

const FIX = join(import.meta.dirname, '../fixtures');
const BLOCKS = [
  'testnet/testnet-wc0-a000000000000000-36993301.boc', // DNS item simple2.ton
  'mainnet/mainnet-wc0-8000000000000000-27159537.boc', // getgems fix-price sale v2
  'mainnet/mainnet-wc0-8000000000000000-34703989.boc', // getgems auction v3r2
  'mainnet/mainnet-wc0-8000000000000000-71398501.boc', // tsTON minter
  'localnet/localnet-ton4j-wc0-8000000000000000-212538.boc', // TEP-74 minter
];
const SALE = '0:56755BEB3EA0AE49D81236673C6A55C4F202AC5E5BA3CB5282CAA053F8164475';
const AUCTION = '0:2DDB657DFECA384C6DC7008A777065F871CAAF6F2CC15DBD6C364827748A0446';
const TSTON = '0:BDF3FA8098D129B54B4F73B5BAC5D1E1FD91EB054169C3916DFC8CCD536D1000';
const DNS_ITEM = '0:AA923AB5FB9C1EC5017332A35A29685F7E3C5C2ACCEC21F08C813CE0D74734B6';
const b64 = (hex: string) => Buffer.from(hex, 'hex').toString('base64');
const EARLIER_CONTENT = JSON.stringify({ name: 'Tonstakers TON', symbol: 'tsTON' });

const A = (n: number) => new Address(0, Buffer.alloc(32, n));
const MULTISIG = raw(A(0x77));
const ORDER = raw(A(0x44));
const VESTING = raw(A(0x55));

/** A block whose account states are the given ones (no transactions): the states a later batch would carry. */
function withStates(template: DecodedBlock, states: DecodedBlock['account_states']): DecodedBlock {
  return { ...template, transactions: [], account_states: states };
}

let dir: string;
let store: StoreClient;
let traces: TracesContext;
let app: FastifyInstance;
const blocks: Record<string, DecodedBlock> = {};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tg-entity-state-'));
  store = await openStore({ dataDir: dir });
  traces = createTracesContext({ store });
  const codes = [...fixtureCodes()].map(([code_hash, c]) => ({ code_hash, code_boc: c.toBoc().toString('base64') }));
  await store.insertFormatted('contract_code', encodeJsonLines(codes), 'JSONEachRow');
  for (const f of BLOCKS) blocks[f] = decodeBlock(readFileSync(join(FIX, 'blocks', f)));
  await importBlocks(store, Object.values(blocks));
  // an earlier batch (another process) wrote tsTON with its content; the block prunes the content
  await store.insertFormatted('jetton_masters', encodeJsonLines([{
    address: TSTON, total_supply: 1n, mintable: true, admin_address: null, jetton_content: EARLIER_CONTENT, jetton_wallet_code_hash: '0'.repeat(64),
    code_hash: '0'.repeat(64), data_hash: '0'.repeat(64), last_transaction_lt: 1n,
  }]), 'JSONEachRow');

  // multisig v2 + one of its orders + a vesting wallet, built by their layouts over the real codes
  const signers = beginCell().storeDictDirect(Dictionary.empty(Dictionary.Keys.Uint(8), Dictionary.Values.Address()).set(0, A(1)).set(1, A(2))).endCell();
  const ms = beginCell().storeUint(5, 256).storeUint(2, 8).storeRef(signers).storeUint(2, 8).storeMaybeRef(null).storeBit(false).endCell();
  const body = beginCell().storeUint(0, 32).storeStringTail('payout').endCell();
  const msg = beginCell().store(storeMessageRelaxed(internal({ to: A(4), value: 7n, bounce: false, body }))).endCell();
  const order = beginCell().storeDictDirect(Dictionary.empty(Dictionary.Keys.Uint(8), Dictionary.Values.Cell()).set(0, beginCell().storeUint(0xf1381e5b, 32).storeUint(1, 8).storeRef(msg).endCell())).endCell();
  const od = beginCell().storeAddress(A(0x77)).storeUint(4, 256).storeUint(2, 8).storeBit(false).storeRef(signers).storeUint(1, 256).storeUint(1, 8).storeUint(1_800_000_000, 48).storeRef(order).endCell();
  const params = beginCell().storeUint(1_700_000_000, 64).storeUint(3600, 32).storeUint(600, 32).storeUint(0, 32).storeCoins(10n ** 12n).storeAddress(A(0x21)).storeAddress(A(0x22)).endCell();
  const vd = beginCell().storeUint(0, 32).storeUint(698983191, 32).storeUint(1n, 256).storeMaybeRef(null).storeRef(params).endCell();
  const synthetic = withStates(blocks[BLOCKS[0]], [
    stateOf(MULTISIG, code('multisig-v2-wallet.boc'), ms),
    stateOf(ORDER, code('multisig-v2-order.boc'), od),
    stateOf(VESTING, code('vesting-wallet.boc'), vd),
  ]);

  const asm = new TraceAssembler();
  let seqno = 100;
  for (const b of [...Object.values(blocks), synthetic]) {
    const out = await processMcBatch(traces, asm, seqno, [b]);
    await writeMcBatch(traces, asm, seqno, out);
    seqno++;
  }
  app = buildServer({
    networks: [{ name: 'mainnet', testnet: false, services: {} }],
    keys: new KeyStore({ anonymous: { rps: 1_000_000 } }),
    groups: [v3Group({ store })],
  });
  await app.ready();
}, 120_000);

afterAll(async () => {
  await app?.close();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('entity state through the traces stage and API v3', () => {
  it('dns/records: the DNS item of the testnet block, by domain; by its owner as wallet nothing (no wallet record)', async () => {
    const r = await get(app, '/api/v3/dns/records?domain=simple2.ton');
    expect(r.status).toBe(200);
    const recs = S.DNSRecord.array().parse(r.body.records);
    expect(recs).toEqual([{
      nft_item_address: DNS_ITEM, nft_item_owner: '0:81D39EA2C32941092D5762D76A1C88B2DFB7C18EB27DD1A173F293E072DCE48B', domain: 'simple2.ton',
      dns_next_resolver: null, dns_wallet: null, dns_site_adnl: null, dns_storage_bag_id: null,
    }]);
    const byWallet = await get(app, '/api/v3/dns/records?wallet=0:81D39EA2C32941092D5762D76A1C88B2DFB7C18EB27DD1A173F293E072DCE48B');
    expect(byWallet.body.records).toEqual([]);
  });

  it('nft/sales: the sale and the auction with their details, the item the sale holds', async () => {
    const r = await get(app, `/api/v3/nft/sales?address=${SALE}&address=${AUCTION}`);
    expect(r.status).toBe(200);
    const sales = S.NFTSale.array().parse(r.body.nft_sales);
    expect(sales.map((s) => [s.address, s.type])).toEqual([[AUCTION, 'getgems_auction'], [SALE, 'getgems_sale']]);
    const sale = sales.find((s) => s.address === SALE)!;
    // the stored row (derived from the block, checked against the data in test/entities/state-rows.test.ts)
    const [row] = await store.query<Record<string, unknown>>('SELECT * FROM nft_sales FINAL WHERE address = {a:String}', { a: SALE });
    expect(sale).toMatchObject({
      nft_address: row.nft_address, nft_owner_address: row.nft_owner_address, marketplace_address: row.marketplace_address, created_at: Number(row.created_at),
      last_transaction_lt: String(row.last_transaction_lt), code_hash: b64(String(row.code_hash)), data_hash: b64(String(row.data_hash)),
      details: JSON.parse(String(row.details)),
    });
    expect(sale.details).toMatchObject({ is_complete: false, full_price: '20000000000' });
    expect(r.body.address_book).toHaveProperty(SALE);
    expect(r.body.address_book).toHaveProperty(String(row.marketplace_address));
    // the item the sale holds: an NFT item of the same block (its transfer to the sale contract is in the block)
    const items = await store.query<{ owner_address: string }>('SELECT owner_address FROM nft_items FINAL WHERE address = {a:String}', { a: sale.nft_address! });
    expect(items).toEqual([{ owner_address: SALE }]);
    expect(sale.nft_item).toMatchObject({ address: sale.nft_address, owner_address: SALE, on_sale: true, sale_contract_address: SALE, real_owner: sale.nft_owner_address });
    const it = S.NFTItem.array().parse((await get(app, `/api/v3/nft/items?address=${sale.nft_address}`)).body.nft_items)[0];
    expect(it).toMatchObject({ on_sale: true, sale_contract_address: SALE, real_owner: sale.nft_owner_address });
    // include_on_sale: the seller finds the item it put on sale
    const mine = S.NFTItem.array().parse((await get(app, `/api/v3/nft/items?owner_address=${sale.nft_owner_address}&include_on_sale=true`)).body.nft_items);
    expect(mine.map((x) => x.address)).toContain(sale.nft_address);
    const notOnSale = S.NFTItem.array().parse((await get(app, `/api/v3/nft/items?owner_address=${sale.nft_owner_address}`)).body.nft_items);
    expect(notOnSale.map((x) => x.address)).not.toContain(sale.nft_address);
  });

  it('nft/sales validates like the other routes', async () => {
    expect((await get(app, '/api/v3/nft/sales')).body).toEqual({ code: 422, error: 'invalid address: required' });
    // limit / offset / sort are the reference's (NFTSalesRequest carries LimitParams); other names are refused
    expect((await get(app, `/api/v3/nft/sales?address=${SALE}&limit=5&offset=0&sort=desc`)).status).toBe(200);
    expect((await get(app, `/api/v3/nft/sales?address=${SALE}&limits=5`)).status).toBe(422);
    expect((await get(app, '/api/v3/nft/sales?address=nope')).body.error).toMatch(/^invalid address/);
    expect((await get(app, `/api/v3/nft/sales?address=${raw(A(0x12))}`)).body.nft_sales).toEqual([]);
    const doc = (await get(app, '/api/v3/openapi.json')).body as unknown as { paths: Record<string, { get: { parameters: { name: string; required: boolean }[] } }> };
    expect(doc.paths['/nft/sales'].get.parameters).toContainEqual(expect.objectContaining({ name: 'address', required: true }));
  });

  it('jetton/masters: tsTON from the mainnet block, the TEP-74 minter with its content', async () => {
    const r = await get(app, `/api/v3/jetton/masters?address=${TSTON}&address=0:F929EB200A98BF2ED8E80EA2F5963897CE506B916648A6C7FD676278D8E2DA36`);
    const masters = S.JettonMaster.array().parse(r.body.jetton_masters);
    expect(masters.map((m) => m.address)).toEqual([TSTON, '0:F929EB200A98BF2ED8E80EA2F5963897CE506B916648A6C7FD676278D8E2DA36'].sort());
    const ts = masters.find((m) => m.address === TSTON)!;
    // values checked against the block's own mint/burn and the state before it in test/entities/state-rows.test.ts
    expect(ts).toMatchObject({ total_supply: '72281696014872561', mintable: true, admin_address: '0:A45B17F28409229B78360E3290420F13E4FE20F90D7E2BF8C4AC6703259E22FA' });
    // the content the block prunes comes from the earlier row in the store; the rest is the block's
    expect(ts.jetton_content).toEqual(JSON.parse(EARLIER_CONTENT));
    expect(BigInt(ts.last_transaction_lt)).toBeGreaterThan(1n);
    const local = masters.find((m) => m.address !== TSTON)!;
    expect(local.jetton_content).toEqual({ uri: 'http://localhost/nft-marketplace/my_collection_1.json' });
    expect(local.jetton_wallet_code_hash).toBe(b64(code('jetton-wallet-standard.token-contract.boc').hash().toString('hex')));
  });

  it('multisig/wallets with orders, multisig/orders with parse_actions, vesting', async () => {
    const w = await get(app, `/api/v3/multisig/wallets?wallet_address=${raw(A(2))}`);
    const ms = S.Multisig.array().parse(w.body.multisigs);
    expect(ms).toHaveLength(1);
    expect(ms[0]).toMatchObject({ address: MULTISIG, next_order_seqno: '5', threshold: 2, signers: [raw(A(1)), raw(A(2))], proposers: [] });
    expect(ms[0].orders!.map((o) => [o.address, o.order_seqno, o.actions])).toEqual([[ORDER, '4', []]]);
    const o = await get(app, `/api/v3/multisig/orders?multisig_address=${MULTISIG}&parse_actions=true`);
    const orders = S.MultisigOrder.array().parse(o.body.orders);
    expect(orders[0]).toMatchObject({ address: ORDER, threshold: 2, sent_for_execution: false, approvals_num: 1, approvals_mask: '1', expiration_date: 1_800_000_000 });
    expect(orders[0].actions).toEqual([{
      destination: raw(A(4)), value: '7', body_raw: beginCell().storeUint(0, 32).storeStringTail('payout').endCell().toBoc().toString('base64'), parsed: true, error: null,
      parsed_body: { comment: 'payout', encrypted: false }, parsed_body_type: 'ton_transfer', send_mode: 1,
    }]);
    const v = await get(app, `/api/v3/vesting?wallet_address=${raw(A(0x22))}`);
    expect(S.VestingInfo.array().parse(v.body.vesting_contracts)).toEqual([{
      address: VESTING, start_time: 1_700_000_000, total_duration: 3600, unlock_period: 600, cliff_duration: 0, sender_address: raw(A(0x21)),
      owner_address: raw(A(0x22)), total_amount: (10n ** 12n).toString(), whitelist: [],
    }]);
  });

  it('a seqno processed before the previous one is written still finds its row (several seqnos per write)', async () => {
    const msCode = code('multisig-v2-wallet.boc');
    const signers = beginCell().storeDictDirect(Dictionary.empty(Dictionary.Keys.Uint(8), Dictionary.Values.Address()).set(0, A(3))).endCell();
    const at = (seqno: number, sig: Cell) => beginCell().storeUint(seqno, 256).storeUint(1, 8).storeRef(sig).storeUint(1, 8).storeMaybeRef(null).storeBit(false).endCell();
    const addr = raw(A(0x78));
    const lookup = storeEntityLookup(store);
    const first = await entityStateRows([stateOf(addr, msCode, at(1, signers), { lt: 10n })], lookup);
    expect(first.tables.multisig).toHaveLength(1);
    // not written: the next seqno's state prunes the signers, which only the first output knows
    const second = await entityStateRows([stateOf(addr, msCode, at(2, prunedBranch(signers)), { lt: 20n })], lookup);
    expect(second.tables.multisig[0]).toMatchObject({ next_order_seqno: 2n, signers: [raw(A(3))], last_transaction_lt: 20n });
    expect(await store.query('SELECT * FROM multisig FINAL WHERE address = {a:String}', { a: addr })).toEqual([]);
  });

  it('replaying a batch changes nothing (entity tables are keyed by address)', async () => {
    const before = await store.query<{ n: string }>('SELECT count() AS n FROM nft_sales FINAL');
    const asm = new TraceAssembler();
    const out = await processMcBatch(traces, asm, 100, [blocks[BLOCKS[1]]]);
    await writeMcBatch(traces, asm, 100, out);
    expect(await store.query<{ n: string }>('SELECT count() AS n FROM nft_sales FINAL')).toEqual(before);
    expect(out.entities.nft_sales.map((r) => r.address)).toEqual([SALE]);
  });
});

