/**
 * getTokenData: which of get_jetton_data / get_wallet_data / get_collection_data / get_nft_data the
 * contract answers decides its type; jetton wallets are verified with their master
 * (get_wallet_address), NFT items with their collection (get_nft_address_by_index, get_nft_content).
 * Content follows TEP-64 (on-chain dictionary of sha256(key) -> snake/chunked data, or off-chain URI).
 */
import { Address, beginCell, type Cell, type TupleItem } from '@ton/core';
import { readFullContent, snakeBytes, tep64KeyName, type FullContent } from '../../../format/index.ts';
import type { AccountAddress } from '../../../format/index.ts';
import { tokenDataParams } from '../../../../schemas/api/v2/params.ts';
import { ApiError } from '../../errors.ts';
import { coreToAccount, friendly, tonlibBoc, type RenderCtx } from '../convert.ts';
import { defineMethod, type V2Context } from '../method.ts';
import { loadContract, runOn, type LoadedContract } from './run.ts';

export const NOT_A_TOKEN = 'Smart contract is not Jetton or NFT';

export function parseTokenContent(cell: Cell | null): { type: 'onchain' | 'offchain'; data: unknown } {
  if (!cell) return { type: 'offchain', data: '' };
  let c: FullContent;
  try {
    c = readFullContent(cell);
  } catch {
    // neither tag: toncenter reads the whole cell as an off-chain URI
    return { type: 'offchain', data: snakeBytes(cell.beginParse()).toString('utf8') };
  }
  if (c.layout === 'offchain') return { type: 'offchain', data: c.uri.toString('utf8') };
  const data: Record<string, string> = {};
  for (const e of c.entries) {
    let text = '';
    try {
      text = e.value().toString('utf8');
    } catch {
      // an undecodable value is rendered empty, as toncenter does
    }
    data[tep64KeyName(e.keyHex) ?? e.keyHex] = text;
  }
  return { type: 'onchain', data };
}

function addrOf(item: TupleItem | undefined, ctx: RenderCtx): string | null {
  if (!item || (item.type !== 'slice' && item.type !== 'cell')) return null;
  try {
    const a = item.cell.beginParse().loadMaybeAddress();
    return a ? friendly(coreToAccount(a), ctx) : null;
  } catch {
    return null;
  }
}

function rawAddrOf(item: TupleItem | undefined): AccountAddress | null {
  if (!item || (item.type !== 'slice' && item.type !== 'cell')) return null;
  try {
    const a = item.cell.beginParse().loadMaybeAddress();
    return a ? coreToAccount(a) : null;
  } catch {
    return null;
  }
}

const int = (i: TupleItem | undefined): bigint | null => (i && i.type === 'int' ? i.value : null);
const cellOf = (i: TupleItem | undefined): Cell | null => (i && (i.type === 'cell' || i.type === 'slice') ? i.cell : null);
const boc = (c: Cell | null) => (c ? tonlibBoc(c) : '');

function addrSlice(a: AccountAddress): TupleItem {
  return { type: 'slice', cell: beginCell().storeAddress(Address.parseRaw(`${a.workchain}:${a.hash}`)).endCell() };
}

async function tokenData(ctx: V2Context, address: AccountAddress, seqno?: number) {
  const c = await loadContract(ctx, address, seqno);
  if (c.view.state !== 'active') throw new ApiError(409, `${NOT_A_TOKEN} (the account is ${c.view.state})`);
  const [jetton, wallet, collection, nft] = await Promise.all(
    ['get_jetton_data', 'get_wallet_data', 'get_collection_data', 'get_nft_data'].map((m) => runOn(ctx, c, m, [])),
  );
  const r = ctx.render;
  const self = friendly(address, r);
  if (jetton.exitCode === 0 && jetton.stack.length >= 5) {
    const s = jetton.stack;
    return {
      '@type': 'ext.tokens.jettonMasterData',
      contract_type: 'jetton_master',
      address: self,
      total_supply: (int(s[0]) ?? 0n).toString(),
      mintable: (int(s[1]) ?? 0n) !== 0n,
      admin_address: addrOf(s[2], r),
      jetton_content: parseTokenContent(cellOf(s[3])),
      jetton_wallet_code: boc(cellOf(s[4])),
    };
  }
  if (wallet.exitCode === 0 && wallet.stack.length >= 4) {
    const s = wallet.stack;
    const owner = rawAddrOf(s[1]);
    const master = rawAddrOf(s[2]);
    if (!owner || !master) throw new ApiError(409, `${NOT_A_TOKEN} (get_wallet_data returned no owner or master)`);
    const m = await loadContract(ctx, master, seqno);
    const check = await runOn(ctx, m, 'get_wallet_address', [addrSlice(owner)]);
    const expected = check.exitCode === 0 ? rawAddrOf(check.stack[0]) : null;
    if (!expected || expected.hash !== address.hash || expected.workchain !== address.workchain) {
      throw new ApiError(409, `${NOT_A_TOKEN} (verification with the jetton master failed: the master does not know this wallet)`);
    }
    return {
      '@type': 'ext.tokens.jettonWalletData',
      contract_type: 'jetton_wallet',
      address: self,
      balance: (int(s[0]) ?? 0n).toString(),
      owner: friendly(owner, r),
      jetton: friendly(master, r),
      jetton_wallet_code: boc(cellOf(s[3])),
    };
  }
  if (collection.exitCode === 0 && collection.stack.length >= 3) {
    const s = collection.stack;
    return {
      '@type': 'ext.tokens.nftCollectionData',
      contract_type: 'nft_collection',
      address: self,
      next_item_index: (int(s[0]) ?? 0n).toString(),
      collection_content: parseTokenContent(cellOf(s[1])),
      owner_address: addrOf(s[2], r),
    };
  }
  if (nft.exitCode === 0 && nft.stack.length >= 5) {
    const s = nft.stack;
    const index = int(s[1]) ?? 0n;
    const collectionAddr = rawAddrOf(s[2]);
    let content = cellOf(s[4]);
    if (collectionAddr) {
      const col: LoadedContract = await loadContract(ctx, collectionAddr, seqno);
      const check = await runOn(ctx, col, 'get_nft_address_by_index', [{ type: 'int', value: index }]);
      const expected = check.exitCode === 0 ? rawAddrOf(check.stack[0]) : null;
      if (!expected || expected.hash !== address.hash || expected.workchain !== address.workchain) {
        throw new ApiError(409, `${NOT_A_TOKEN} (verification with the NFT collection failed: the collection does not know this item)`);
      }
      const full = await runOn(ctx, col, 'get_nft_content', [{ type: 'int', value: index }, { type: 'cell', cell: content ?? beginCell().endCell() }]);
      if (full.exitCode === 0) content = cellOf(full.stack[0]) ?? content;
    }
    return {
      '@type': 'ext.tokens.nftItemData',
      contract_type: 'nft_item',
      address: self,
      init: (int(s[0]) ?? 0n) !== 0n,
      index: index.toString(),
      collection_address: collectionAddr ? friendly(collectionAddr, r) : null,
      owner_address: addrOf(s[3], r),
      content: parseTokenContent(content),
    };
  }
  throw new ApiError(409, NOT_A_TOKEN);
}

export const getTokenData = defineMethod({
  name: 'getTokenData',
  params: tokenDataParams,
  run: (ctx, p) => tokenData(ctx, p.address, p.seqno),
});
