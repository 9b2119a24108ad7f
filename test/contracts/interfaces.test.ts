// Interface detection on the real contract codes of the fixtures (test/fixtures/codes, MANIFEST names each
// code's contract and source repository): the expected interface is the contract the MANIFEST says it is.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { detectInterfaces, parseMethodIds } from '../../src/contracts/index.ts';
import { methodIdOf } from '../../src/tvm/index.ts';

const CODES = join(import.meta.dirname, '../fixtures/codes');
const code = (f: string) => Cell.fromBoc(readFileSync(join(CODES, f)))[0];
const detect = (f: string) => {
  const c = code(f);
  return detectInterfaces(c.hash().toString('hex'), c);
};

describe('get-method ids from the code', () => {
  it('wallet v4r2 declares the get-methods of its source (wallet-contract wallet-v4-code.fc)', () => {
    const ids = parseMethodIds(code('wallet-v4r2.boc'))!;
    for (const m of ['seqno', 'get_subwallet_id', 'get_public_key', 'is_plugin_installed', 'get_plugin_list']) expect(ids).toContain(methodIdOf(m));
    // recv_internal and recv_external are in the same table
    expect(ids).toContain(0);
    expect(ids).toContain(-1);
  });

  it('multisig v2 declares get_multisig_data, get_order_estimate, get_order_address (multisig.func)', () => {
    const ids = parseMethodIds(code('multisig-v2-wallet.boc'))!;
    expect(ids).toEqual(expect.arrayContaining(['get_multisig_data', 'get_order_estimate', 'get_order_address'].map((m) => methodIdOf(m))));
  });

  it('codes without the FunC method table: wallets v1-v3 (hand-written Fift), library cells', () => {
    for (const f of ['wallet-v1r1.boc', 'wallet-v2r2.boc', 'wallet-v3r2.boc', 'usdt-jetton-wallet-mainnet.library-cell.boc']) expect(parseMethodIds(code(f))).toBeNull();
  });
});

describe('interfaces of the fixture codes', () => {
  const cases: [string, string[]][] = [
    ['wallet-v3r2.boc', ['wallet_v3r2']],
    ['wallet-v4r2.boc', ['wallet_v4r2']],
    ['wallet-v5r1.boc', ['wallet_v5r1']],
    ['highload-wallet-v3.boc', ['wallet_highload_v3']],
    ['jetton-minter-standard.token-contract.discoverable.boc', ['jetton_master']],
    ['jetton-minter-stablecoin.USDT-minter-code.boc', ['jetton_master']],
    ['mainnet-state-tsTON-jetton-minter-tonstakers.inferred.boc', ['jetton_master']],
    ['jetton-wallet-standard.token-contract.boc', ['jetton_wallet']],
    ['nft-collection-editable.getgems.boc', ['nft_collection']],
    ['mainnet-state-telegram-telemint-nft-collection.inferred.boc', ['nft_collection']],
    ['nft-item.getgems-standard.boc', ['nft_item']],
    ['dns-item.ton4j-dns-example.boc', ['nft_item', 'dns_item']],
    ['dns-collection.ton4j-dns-example.boc', ['nft_collection']],
    ['multisig-v2-wallet.boc', ['multisig_v2']],
    ['multisig-v2-order.boc', ['multisig_order_v2']],
    // the order code as the multisig deploys it: a library cell (no method table), known by its hash
    ['acton-MultisigOrderV2.library-cell.boc', ['multisig_order_v2']],
    ['vesting-wallet.boc', ['vesting']],
    ['getgems-nft-fixprice-sale-v2.boc', ['nft_sale']],
    ['getgems-nft-fixprice-sale-v3r3.boc', ['nft_sale']],
    ['getgems-nft-fixprice-sale-v4r1.boc', ['getgems_sale_v4']],
    ['getgems-nft-auction-v3r2.boc', ['nft_sale']],
    ['getgems-nft-auction-v4r1.boc', ['getgems_auction_v4']],
    // a DeDust pool is also the jetton master of its LP token
    ['mainnet-state-dedust-pool.mainnet-state.boc', ['dedust_pool', 'jetton_master']],
    ['mainnet-state-dedust-jetton-vault.inferred.boc', ['dedust_vault']],
    ['mainnet-state-tonstakers-liquid-pool.mainnet-state.boc', ['tonstakers_pool']],
    // STON.fi v2 is deployed as library cells: no method table to read
    ['mainnet-state-stonfi-v2-pool.library-cell.mainnet-state.boc', []],
    ['getgems-nft-marketplace-v2.boc', []],
    ['nominator-pool-v1.boc', []],
  ];
  it.each(cases)('%s -> %j', (f, want) => {
    expect(detect(f).sort()).toEqual([...want].sort());
  });

  it('every fixture code is classified without throwing', () => {
    for (const f of readdirSync(CODES)) expect(Array.isArray(detect(f))).toBe(true);
  });

  it('without the code only the hash speaks: wallets and the layouts read without code', () => {
    expect(detectInterfaces(code('wallet-v4r2.boc').hash().toString('hex'), null)).toEqual(['wallet_v4r2']);
    expect(detectInterfaces(code('vesting-wallet.boc').hash().toString('hex'), null)).toEqual(['vesting']);
    expect(detectInterfaces(code('getgems-nft-fixprice-sale-v2.boc').hash().toString('hex'), null)).toEqual([]);
  });
});
