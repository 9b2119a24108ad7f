/** Account state endpoints, answered from liteServer.getAccountState at the latest or a given mc block. */
import { beginCell, type Cell } from '@ton/core';
import { hashToBase64, type AccountAddress } from '../../../format/index.ts';
import { addressParams } from '../../../../schemas/api/v2/params.ts';
import { accountState, mcBlock, type AccountStateResult } from '../chain.ts';
import { accountAddressJson, blockIdJson, tonlibBoc, txIdJson } from '../convert.ts';
import { defineMethod, type V2Context } from '../method.ts';
import { detectWallet } from '../wallets.ts';

export type StateName = 'active' | 'uninitialized' | 'frozen';

export interface AccountView {
  res: AccountStateResult;
  balance: bigint;
  state: StateName;
  code: Cell | null;
  data: Cell | null;
  frozenHash: Buffer | null;
  extraCurrencies: { '@type': 'extraCurrency'; id: number; amount: string }[];
}

export function viewOf(res: AccountStateResult): AccountView {
  const acc = res.account;
  if (!acc) return { res, balance: 0n, state: 'uninitialized', code: null, data: null, frozenHash: null, extraCurrencies: [] };
  const st = acc.storage.state;
  const other = acc.storage.balance.other;
  const extraCurrencies = other ? [...other].map(([id, amount]) => ({ '@type': 'extraCurrency' as const, id: Number(id), amount: amount.toString() })) : [];
  const balance = acc.storage.balance.coins < 0n ? 0n : acc.storage.balance.coins;
  if (st.type === 'active') return { res, balance, state: 'active', code: st.state.code ?? null, data: st.state.data ?? null, frozenHash: null, extraCurrencies };
  if (st.type === 'frozen') {
    return { res, balance, state: 'frozen', code: null, data: null, frozenHash: Buffer.from(st.stateHash.toString(16).padStart(64, '0'), 'hex'), extraCurrencies };
  }
  return { res, balance, state: 'uninitialized', code: null, data: null, frozenHash: null, extraCurrencies };
}

export async function loadAccountView(ctx: V2Context, address: AccountAddress, seqno?: number): Promise<AccountView> {
  const node = ctx.node();
  const block = await mcBlock(node, seqno);
  return viewOf(await accountState(node, address, block));
}

const b64 = (c: Cell | null) => (c ? tonlibBoc(c) : '');

export const getAddressInformation = defineMethod({
  name: 'getAddressInformation',
  params: addressParams,
  async run(ctx, p) {
    const v = await loadAccountView(ctx, p.address, p.seqno);
    return {
      '@type': 'raw.fullAccountState',
      balance: v.balance.toString(),
      extra_currencies: v.extraCurrencies,
      code: b64(v.code),
      data: b64(v.data),
      last_transaction_id: txIdJson(v.res.lastTx.lt, v.res.lastTx.hash),
      block_id: blockIdJson(v.res.block),
      frozen_hash: v.frozenHash ? hashToBase64(v.frozenHash) : '',
      sync_utime: v.res.syncUtime,
      state: v.state,
      suspended: false,
    };
  },
});

export const getExtendedAddressInformation = defineMethod({
  name: 'getExtendedAddressInformation',
  params: addressParams,
  async run(ctx, p) {
    const v = await loadAccountView(ctx, p.address, p.seqno);
    const w = detectWallet(v.code, v.data);
    let accountState: Record<string, unknown>;
    if (v.state !== 'active') {
      accountState = { '@type': 'uninited.accountState', frozen_hash: v.frozenHash ? hashToBase64(v.frozenHash) : '' };
    } else if (w && (w.family === 'v3' || w.family === 'v4') && w.seqno !== undefined) {
      accountState = { '@type': `wallet.${w.family}.accountState`, wallet_id: String(w.wallet_id), seqno: w.seqno };
    } else if (w && w.family === 'highload-v1' && w.seqno !== undefined) {
      accountState = { '@type': 'wallet.highload.v1.accountState', wallet_id: String(w.wallet_id), seqno: w.seqno };
    } else if (w && w.family === 'highload-v2' && w.wallet_id !== undefined) {
      accountState = { '@type': 'wallet.highload.v2.accountState', wallet_id: String(w.wallet_id) };
    } else {
      accountState = { '@type': 'raw.accountState', code: b64(v.code), data: b64(v.data), frozen_hash: '' };
    }
    return {
      '@type': 'fullAccountState',
      address: accountAddressJson(p.address, ctx.render),
      balance: v.balance.toString(),
      extra_currencies: v.extraCurrencies,
      last_transaction_id: txIdJson(v.res.lastTx.lt, v.res.lastTx.hash),
      block_id: blockIdJson(v.res.block),
      sync_utime: v.res.syncUtime,
      account_state: accountState,
      revision: 0,
    };
  },
});

export const getWalletInformation = defineMethod({
  name: 'getWalletInformation',
  params: addressParams,
  async run(ctx, p) {
    const v = await loadAccountView(ctx, p.address, p.seqno);
    const w = detectWallet(v.code, v.data);
    const out: Record<string, unknown> = {
      '@type': 'ext.accounts.walletInformation',
      wallet: w !== null,
      balance: v.balance.toString(),
      extra_currencies: v.extraCurrencies,
      account_state: v.state,
      last_transaction_id: txIdJson(v.res.lastTx.lt, v.res.lastTx.hash),
    };
    if (w) {
      out.wallet_type = w.wallet_type;
      if (w.seqno !== undefined) out.seqno = w.seqno;
      if (w.wallet_id !== undefined) out.wallet_id = w.wallet_id;
      if (w.is_signature_allowed !== undefined) out.is_signature_allowed = w.is_signature_allowed;
    }
    return out;
  },
});

export const getAddressBalance = defineMethod({
  name: 'getAddressBalance',
  params: addressParams,
  async run(ctx, p) {
    return (await loadAccountView(ctx, p.address, p.seqno)).balance.toString();
  },
});

export const getAddressState = defineMethod({
  name: 'getAddressState',
  params: addressParams,
  async run(ctx, p) {
    return (await loadAccountView(ctx, p.address, p.seqno)).state;
  },
});

/**
 * ton-http-api-cpp's getShardAccountCell: the account's ShardAccount as tonlib builds it,
 * account_descr$_ account:^Account last_trans_hash:bits256 last_trans_lt:uint64 = ShardAccount;
 * (account_none$0 for an account that does not exist), as a tvm.cell.
 */
export const getShardAccountCell = defineMethod({
  name: 'getShardAccountCell',
  params: addressParams,
  async run(ctx, p) {
    const { res } = await loadAccountView(ctx, p.address, p.seqno);
    const cell = beginCell()
      .storeRef(res.accountCell ?? beginCell().storeBit(0).endCell())
      .storeBuffer(res.lastTx.hash, 32)
      .storeUint(res.lastTx.lt, 64)
      .endCell();
    return { '@type': 'tvm.cell', bytes: b64(cell) };
  },
});
