// The interface repository (interface_repository.py over trace.interfaces) and the account selection that says
// what it must hold (address_selectors.py), on real traces and real wallet externals.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cell, loadMessage } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { parseJsonExact, traceFromToncenterJson } from '../../src/actions/adapters/toncenter-json.ts';
import { extractAccountsFromTrace, extractAddressesFromExternal } from '../../src/actions/address-selectors.ts';
import { InterfaceRepository, NOMINATOR_POOL_CODE_HASH } from '../../src/actions/interfaces.ts';
import type { Trace } from '../../src/actions/model.ts';
import { addr, buildTrace } from './trace-builder.ts';

const DIR = new URL('../fixtures/traces/toncenter-indexer/json/', import.meta.url).pathname;
const load = (f: string): Trace => traceFromToncenterJson(parseJsonExact(readFileSync(join(DIR, f), 'utf8')));

describe('address selectors', () => {
  it('a STON.fi v1 swap payload in a jetton transfer names the wallet the swap pays out from', () => {
    const real = load('01SkGWslZ8iEn3bXyb0ga5dWB5gRzw8zWAuwfUI4ZMA=.json');
    const transfer = real.transactions.find((t) => t.inMsg?.opcode === 0x0f8a7ea5)!.inMsg!;
    // the transfer alone, before anything it caused: only the payload names the router's pTON wallet
    const trace = buildTrace({ account: addr(0, 'a1'), from: null, out: [{ account: addr(0, 'b2'), from: addr(0, 'a1'), body: Cell.fromBase64(transfer.body!) }] });
    const { accounts, extraRequests } = extractAccountsFromTrace(trace);
    expect([...accounts].sort()).toEqual([addr(0, 'a1'), addr(0, 'b2'), '0:1150B518B2626AD51899F98887F8824B70065456455F7FE2813F012699A4061F'].sort());
    expect(extraRequests).toEqual([]);
    // the real trace: every account a transaction of it
    for (const t of real.transactions) expect(extractAccountsFromTrace(real).accounts.has(t.account)).toBe(true);
  });

  it('a wallet external names where it sends and who its jetton transfers pay', () => {
    const m = loadMessage(Cell.fromBoc(readFileSync(new URL('../fixtures/msgs/mainnet-ext-in-wallet-subwallet698983191-v3v4-in-msg-lt58969751000001-818cdd96.boc', import.meta.url)))[0].beginParse());
    const names = extractAddressesFromExternal({ hash: '00'.repeat(32), source: null, destination: addr(0, 'aa'), value: null, opcode: 0, body: m.body.toBoc().toString('base64'), bounce: null, bounced: null, createdLt: null, createdAt: null });
    expect(names.size).toBe(2);
    expect(names.has('0:C6214B2261552CD3DF6926D763E74691241BEEC4295E4D52EA4F32670D11141D')).toBe(true);
  });

  it('a jVault unstake asks for the stake wallet\'s data (and its pool\'s, which the wallet asks to update), which the repository then gives', () => {
    const trace = load('62Oe2uSj1TW6uIN-hfzhSE8JpZUn5S5pZiWFIRhgldY=.json');
    const { extraRequests } = extractAccountsFromTrace(trace);
    expect(extraRequests).toEqual([
      { account: '0:AB6523CEDE8BA846048E0756BADB1EBAC7A81E386A14B59F063514D1485D8C05', request: 'data_boc' },
      { account: '0:AA5C2D9CB469BECB874312C79ABC9DA6C2E64C92C108FE31A2F26B00D8134CD7', request: 'data_boc' },
    ]);
    const repo = new InterfaceRepository(trace);
    expect(repo.getExtraData('0:AB6523CEDE8BA846048E0756BADB1EBAC7A81E386A14B59F063514D1485D8C05', 'data_boc')).toMatch(/^te6cc/);
  });
});

describe('interface repository', () => {
  const A = addr(0, 'a1'), B = addr(0, 'b2'), POOL = addr(-1, 'cc');
  const trace = buildTrace({ account: A, from: null }, {
    interfaces: {
      [A]: { raw: { JettonWallet: { address: A.toLowerCase(), owner: B.toLowerCase(), jetton: POOL, balance: '12' } }, dataBoc: 'te6ccA' },
      [B]: { jettonWallet: { owner: A, jetton: POOL }, nftItem: { index: 7n, collection: POOL, owner: A, init: true } },
      [POOL]: { codeHash: Buffer.from(NOMINATOR_POOL_CODE_HASH, 'base64').toString('hex') },
    },
  });
  const repo = new InterfaceRepository(trace);

  it('reads toncenter\'s records (addresses upper-cased), and the typed ones the pipeline builds', () => {
    expect(repo.getJettonWallet(A)).toEqual({ address: A, owner: B, jetton: POOL, balance: 12n });
    expect(repo.getJettonWallet(B)).toEqual({ address: B, owner: A, jetton: POOL, balance: null });
    expect(repo.getNftItem(B)).toMatchObject({ index: 7n, collection_address: POOL, owner_address: A, init: true });
    expect(repo.getJettonWallet(addr(0, 'dd'))).toBeNull();
    expect(repo.getNftSale(A)).toBeNull();
  });

  it('lists interfaces by toncenter name, a nominator pool by its code hash', () => {
    expect(Object.keys(repo.getInterfaces(A))).toEqual(['JettonWallet']);
    expect(Object.keys(repo.getInterfaces(B)).sort()).toEqual(['JettonWallet', 'NftItem']);
    expect(repo.getInterfaces(POOL)).toEqual({ NominatorPool: { address: POOL } });
  });

  it('gives an account\'s data only when the trace asks for it', () => {
    expect(repo.getExtraData(A, 'data_boc')).toBeNull();
  });
});
