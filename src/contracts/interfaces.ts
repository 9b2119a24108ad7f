/**
 * Which contract interfaces an account implements, from its code hash and (when the code is known) the get-method
 * ids its code declares. Pure. Wallets are told by their code hash (they have no distinctive get-methods, v1-v3
 * have no method table at all); everything else by the get-methods its standard declares, as toncenter's worker
 * does, plus the code hashes of the official multisig v2 / vesting contracts, whose data layouts are read
 * without the code (their code is pruned from most blocks).
 */
import { highloadTypeOfCodeHash, walletTypeOfCodeHash } from '../format/index.ts';
import { methodIdOf } from '../tvm/index.ts';
import { methodsOfCode } from './code-methods.ts';
import type { Cell } from '@ton/core';

export type Interface =
  | 'wallet_v1r1' | 'wallet_v1r2' | 'wallet_v1r3' | 'wallet_v2r1' | 'wallet_v2r2' | 'wallet_v3r1' | 'wallet_v3r2'
  | 'wallet_v4r1' | 'wallet_v4r2' | 'wallet_v5_beta' | 'wallet_v5r1'
  | 'wallet_highload_v1r1' | 'wallet_highload_v1r2' | 'wallet_highload_v2' | 'wallet_highload_v2r1' | 'wallet_highload_v2r2' | 'wallet_highload_v3'
  | 'jetton_master' | 'jetton_wallet' | 'nft_collection' | 'nft_item' | 'dns_item'
  | 'multisig_v2' | 'multisig_order_v2' | 'vesting'
  /** getgems fix-price sale or auction v1-v3 (`get_sale_data`; the magic it returns tells which) */
  | 'nft_sale'
  | 'getgems_sale_v4' | 'getgems_auction_v4' | 'telemint'
  /** DEX and staking contracts of the action cases (method names checked on their mainnet codes in test/fixtures/codes) */
  | 'dedust_pool' | 'dedust_vault' | 'tonstakers_pool';

/** Get-method ids by name (crc16 | 0x10000). */
const M = Object.fromEntries(
  [
    'get_jetton_data', 'get_wallet_address', 'get_wallet_data', 'get_collection_data', 'get_nft_address_by_index', 'get_nft_data',
    'dnsresolve', 'get_multisig_data', 'get_order_data', 'get_vesting_data', 'get_sale_data', 'get_fix_price_data_v4',
    'get_auction_data_v4', 'get_telemint_token_name', 'get_telemint_auction_state',
    'get_assets', 'get_reserves', 'estimate_swap_out', 'get_asset', 'get_pool_full_data',
  ].map((n) => [n, methodIdOf(n)]),
) as Record<string, number>;

/**
 * Code hashes of contracts whose data this project reads by layout (no code needed), from the contracts' own
 * builds (test/fixtures/codes: multisig-v2-wallet, multisig-v2-order, acton-MultisigOrderV2 library cell, vesting-wallet).
 */
export const KNOWN_CODE_HASHES: Readonly<Record<string, Interface>> = {
  d3d14da9a627f0ec3533341829762af92b9540b21bf03665fac09c2b46eabbac: 'multisig_v2',
  '6305a8061c856c2ccf05dcb0df5815c71475870567cab5f049e340bcf59251f3': 'multisig_order_v2',
  // the order code as deployed by the multisig (a library cell pointing to the code above)
  a01e057fbd4288402b9898d78d67bd4e90254c93c5866879bc2d1d12865436bc: 'multisig_order_v2',
  b48b531abec3b714638291f7d77ed6dc9f6a2729efca20477137374d4ae8b590: 'vesting',
};

function walletInterface(codeHash: string): Interface | null {
  const w = walletTypeOfCodeHash(codeHash);
  if (w) return w.replace(/^wallet v(\d) (r\d|beta)$/, (_m, v: string, r: string) => `wallet_v${v}${r === 'beta' ? '_beta' : r}`) as Interface;
  const h = highloadTypeOfCodeHash(codeHash);
  if (h) return `wallet_${h.replace(/ /g, '_').replace(/_(r\d)$/, '$1')}` as Interface;
  return null;
}

/** Interfaces implied by a set of declared get-method ids. */
export function interfacesOfMethods(methods: Iterable<number>): Interface[] {
  const has = new Set(methods);
  const out: Interface[] = [];
  if (has.has(M.get_jetton_data)) out.push('jetton_master');
  if (has.has(M.get_wallet_data)) out.push('jetton_wallet');
  if (has.has(M.get_collection_data)) out.push('nft_collection');
  if (has.has(M.get_nft_data)) out.push('nft_item');
  if (has.has(M.get_nft_data) && has.has(M.dnsresolve)) out.push('dns_item');
  if (has.has(M.get_multisig_data)) out.push('multisig_v2');
  if (has.has(M.get_order_data)) out.push('multisig_order_v2');
  if (has.has(M.get_vesting_data)) out.push('vesting');
  if (has.has(M.get_sale_data)) out.push('nft_sale');
  if (has.has(M.get_fix_price_data_v4)) out.push('getgems_sale_v4');
  if (has.has(M.get_auction_data_v4)) out.push('getgems_auction_v4');
  if (has.has(M.get_telemint_token_name) && has.has(M.get_telemint_auction_state)) out.push('telemint');
  // DeDust (dedust.io pool.fc / vault.fc): a pool prices swaps between its two assets; a vault holds one asset
  if (has.has(M.get_assets) && has.has(M.get_reserves) && has.has(M.estimate_swap_out)) out.push('dedust_pool');
  else if (has.has(M.get_asset) && !has.has(M.get_assets)) out.push('dedust_vault');
  if (has.has(M.get_pool_full_data)) out.push('tonstakers_pool');
  return out;
}

/**
 * Interfaces of an account: by code hash (wallets, known layouts), then by the code's method table when the
 * code is at hand. `code` null: only what the hash tells.
 */
export function detectInterfaces(codeHash: string, code: Cell | null): Interface[] {
  const h = codeHash.toLowerCase();
  const w = walletInterface(h);
  if (w) return [w];
  const out = new Set<Interface>();
  const known = KNOWN_CODE_HASHES[h];
  if (known) out.add(known);
  const methods = code ? methodsOfCode(h, code) : null;
  if (methods) for (const i of interfacesOfMethods(methods)) out.add(i);
  return [...out];
}

/** Interfaces whose rows this stage derives (the others are detected only to be skipped quickly). */
export const STATE_INTERFACES: ReadonlySet<Interface> = new Set<Interface>([
  'jetton_master', 'nft_collection', 'dns_item', 'multisig_v2', 'multisig_order_v2', 'vesting', 'nft_sale', 'getgems_sale_v4',
  'getgems_auction_v4', 'telemint',
]);

/** True when the code hash alone says the account is a wallet (no code lookup needed). */
export function isWalletCodeHash(codeHash: string): boolean {
  return walletInterface(codeHash.toLowerCase()) !== null;
}
