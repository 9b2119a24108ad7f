/**
 * Standard contract data layouts, parsed exactly (every bit of the root cell consumed, the expected number
 * of refs): an account is only taken for a jetton wallet / NFT item when its data reads without a leftover.
 * Refs may be pruned (a block's state_update prunes unchanged subtrees): only the root cell's bits are read.
 */
import { Cell, type Slice } from '@ton/core';
import '../format/ton-core-sha256.ts'; // native SHA-256 under @ton/core's cell hashing
import { loadAddr } from './cells.ts';

export interface JettonWalletData {
  balance: bigint;
  owner: string;
  jetton: string;
  /** which layout matched */
  layout: 'standard' | 'status';
}

export interface NftItemData {
  /** false while the item is not initialized (no owner and content yet) */
  init: boolean;
  index: bigint;
  collection: string | null;
  owner: string | null;
}

/** `read` must consume every bit; the cell must have at least `minRefs` refs (extensions add refs, e.g. an NFT editor). */
function exact<T>(cell: Cell, minRefs: number, read: (s: Slice) => T): T | null {
  try {
    const s = cell.beginParse(true);
    const v = read(s);
    return s.remainingBits === 0 && s.remainingRefs >= minRefs ? v : null;
  } catch {
    return null;
  }
}

function addr(s: Slice): string {
  const a = loadAddr(s);
  if (!a) throw new Error('address expected');
  return a;
}

/**
 * TEP-74 token-contract: `balance:Coins owner_address:MsgAddressInt jetton_master_address:MsgAddressInt
 * jetton_wallet_code:^Cell`; stablecoin-style (USDT, jetton v2): `status:uint4 balance:Coins owner_address
 * jetton_master_address` without refs.
 */
export function parseJettonWalletData(cell: Cell): JettonWalletData | null {
  return (
    exact(cell, 1, (s) => ({ balance: s.loadCoins(), owner: addr(s), jetton: addr(s), layout: 'standard' as const })) ??
    exact(cell, 0, (s) => {
      s.skip(4);
      return { balance: s.loadCoins(), owner: addr(s), jetton: addr(s), layout: 'status' as const };
    })
  );
}

/** TEP-62 nft-item: `index:uint64 collection_address:MsgAddress owner_address:MsgAddress content:^Cell` (init), or `index collection` before init. */
export function parseNftItemData(cell: Cell): NftItemData | null {
  return (
    exact(cell, 1, (s) => ({ init: true, index: s.loadUintBig(64), collection: loadAddr(s), owner: loadAddr(s) })) ??
    exact(cell, 0, (s) => ({ init: false, index: s.loadUintBig(64), collection: loadAddr(s), owner: null }))
  );
}

export function cellOf(boc: string | null): Cell | null {
  if (!boc) return null;
  try {
    return Cell.fromBase64(boc);
  } catch {
    return null;
  }
}
