/**
 * The real contracts the devnet runs (codes in src/devnet/contracts/, provenance in PROVENANCE.md) and the
 * messages that drive them: wallet v4r2 / v5r1 externals, TEP-74 jetton and TEP-62 NFT bodies.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Address, beginCell, Cell, contractAddress, external, internal, storeMessage, storeMessageRelaxed, type StateInit } from '@ton/core';
import { createPrivateKey, sign as nodeSign, type KeyObject } from 'node:crypto';
import type { KeyPair } from '@ton/crypto';
import { packagePath } from '../../util/index.ts';

const keyObjects = new WeakMap<Buffer, KeyObject>();
/** Ed25519 signature (deterministic, same bytes as tweetnacl) with node's native implementation. */
function sign(data: Buffer, secretKey: Buffer): Buffer {
  let key = keyObjects.get(secretKey);
  if (!key) {
    // PKCS#8 wrapping of the 32-byte seed (the first half of a tweetnacl secret key).
    const der = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), secretKey.subarray(0, 32)]);
    key = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
    keyObjects.set(secretKey, key);
  }
  return nodeSign(null, data, key);
}

const dir = packagePath('src', 'devnet', 'contracts');
const cache = new Map<string, Cell>();
function code(name: string): Cell {
  let c = cache.get(name);
  if (!c) {
    c = Cell.fromBoc(readFileSync(join(dir, name + '.boc')))[0];
    cache.set(name, c);
  }
  return c;
}

export const codes = {
  walletV4r2: () => code('wallet-v4r2'),
  walletV5r1: () => code('wallet-v5r1'),
  jettonMinter: () => code('jetton-minter'),
  jettonWallet: () => code('jetton-wallet'),
  nftCollection: () => code('nft-collection'),
  nftItem: () => code('nft-item'),
  nftFixpriceSaleV3r3: () => code('nft-fixprice-sale-v3r3'),
};

export const OP = {
  jettonTransfer: 0x0f8a7ea5,
  jettonInternalTransfer: 0x178d4519,
  jettonTransferNotification: 0x7362d09c,
  excesses: 0xd53276db,
  jettonBurn: 0x595f07bc,
  jettonBurnNotification: 0x7bdd97de,
  jettonMint: 21,
  nftTransfer: 0x5fcc3d14,
  nftOwnershipAssigned: 0x05138d91,
  nftMint: 1,
} as const;

export type WalletKind = 'v4r2' | 'v5r1';

export interface Wallet {
  kind: WalletKind;
  keyPair: KeyPair;
  walletId: number;
  init: StateInit;
  address: Address;
  /** Seqno of the next external message. */
  seqno: number;
}

/** v5r1 wallet_id: network global id XOR the client context (1 bit, workchain int8, version 0, subwallet 0). */
function v5WalletId(globalId: number, workchain: number): number {
  const context = ((1 << 31) | ((workchain & 0xff) << 23)) >>> 0;
  return (globalId ^ context) >>> 0;
}

export function makeWallet(kind: WalletKind, keyPair: KeyPair, globalId: number, workchain = 0): Wallet {
  let data: Cell;
  let walletId: number;
  if (kind === 'v4r2') {
    // seqno:uint32 subwallet_id:uint32 public_key:bits256 plugins:(HashmapE 256 ...)
    walletId = 698983191 + workchain;
    data = beginCell().storeUint(0, 32).storeUint(walletId, 32).storeBuffer(keyPair.publicKey, 32).storeBit(0).endCell();
  } else {
    // is_signature_allowed:Bool seqno:uint32 wallet_id:uint32 public_key:bits256 extensions:(HashmapE 256 ...)
    walletId = v5WalletId(globalId, workchain);
    data = beginCell().storeBit(1).storeUint(0, 32).storeUint(walletId, 32).storeBuffer(keyPair.publicKey, 32).storeBit(0).endCell();
  }
  const init: StateInit = { code: kind === 'v4r2' ? codes.walletV4r2() : codes.walletV5r1(), data };
  return { kind, keyPair, walletId, init, address: contractAddress(workchain, init), seqno: 0 };
}

export interface Transfer {
  to: Address;
  value: bigint;
  bounce: boolean;
  body?: Cell;
  init?: StateInit;
  mode?: number;
}

export function comment(text: string): Cell {
  return beginCell().storeUint(0, 32).storeStringTail(text).endCell();
}

function relaxed(t: Transfer): Cell {
  return beginCell()
    .store(storeMessageRelaxed(internal({ to: t.to, value: t.value, bounce: t.bounce, body: t.body, init: t.init })))
    .endCell();
}

/**
 * A signed external message from `w` carrying `transfers` (v4r2: at most 4). Uses and advances w.seqno;
 * `deploy` attaches the wallet's StateInit (first message of an uninit wallet).
 */
export function walletExternal(w: Wallet, transfers: Transfer[], validUntil: number, deploy = false): Cell {
  let body: Cell;
  if (w.kind === 'v4r2') {
    if (transfers.length > 4) throw new Error('wallet v4r2 sends at most 4 messages');
    const b = beginCell().storeUint(w.walletId, 32).storeUint(validUntil, 32).storeUint(w.seqno, 32).storeUint(0, 8);
    for (const t of transfers) b.storeUint(t.mode ?? 3, 8).storeRef(relaxed(t));
    const signing = b.endCell();
    body = beginCell().storeBuffer(sign(signing.hash(), w.keyPair.secretKey)).storeSlice(signing.beginParse()).endCell();
  } else {
    if (transfers.length > 255) throw new Error('wallet v5r1 sends at most 255 messages');
    // out_list$_ prev:^(OutList n) action:OutAction; action_send_msg#0ec3c86d mode:(## 8) out_msg:^(MessageRelaxed Any)
    let list = beginCell().endCell();
    for (const t of transfers) {
      list = beginCell().storeRef(list).storeUint(0x0ec3c86d, 32).storeUint(t.mode ?? 3, 8).storeRef(relaxed(t)).endCell();
    }
    const signing = beginCell()
      .storeUint(0x7369676e, 32)
      .storeUint(w.walletId, 32)
      .storeUint(validUntil, 32)
      .storeUint(w.seqno, 32)
      .storeMaybeRef(transfers.length > 0 ? list : null)
      .storeBit(0)
      .endCell();
    body = beginCell().storeSlice(signing.beginParse()).storeBuffer(sign(signing.hash(), w.keyPair.secretKey)).endCell();
  }
  w.seqno++;
  return beginCell()
    .store(storeMessage(external({ to: w.address, init: deploy ? w.init : undefined, body })))
    .endCell();
}

// ---- Jettons (TEP-74, token-contract minter/wallet) ----

export function jettonMinterInit(admin: Address, contentUri: string): StateInit {
  const content = beginCell().storeUint(1, 8).storeStringTail(contentUri).endCell();
  // total_supply:Coins admin_address:MsgAddress content:^Cell jetton_wallet_code:^Cell
  const data = beginCell().storeCoins(0).storeAddress(admin).storeRef(content).storeRef(codes.jettonWallet()).endCell();
  return { code: codes.jettonMinter(), data };
}

export function jettonWalletAddress(owner: Address, minter: Address): Address {
  const data = beginCell().storeCoins(0).storeAddress(owner).storeAddress(minter).storeRef(codes.jettonWallet()).endCell();
  return contractAddress(0, { code: codes.jettonWallet(), data });
}

/** mint#15 query_id:uint64 to_address:MsgAddress amount:Coins master_msg:^internal_transfer */
export function jettonMintBody(queryId: bigint, to: Address, tonAmount: bigint, jettons: bigint, response: Address, forwardTon: bigint, forwardPayload: Cell | null): Cell {
  const master = beginCell()
    .storeUint(OP.jettonInternalTransfer, 32)
    .storeUint(queryId, 64)
    .storeCoins(jettons)
    .storeAddress(null)
    .storeAddress(response)
    .storeCoins(forwardTon);
  if (forwardPayload) master.storeBit(1).storeRef(forwardPayload);
  else master.storeBit(0);
  return beginCell().storeUint(OP.jettonMint, 32).storeUint(queryId, 64).storeAddress(to).storeCoins(tonAmount).storeRef(master.endCell()).endCell();
}

/** transfer#0f8a7ea5 query_id amount destination response_destination custom_payload forward_ton_amount forward_payload */
export function jettonTransferBody(queryId: bigint, jettons: bigint, to: Address, response: Address, forwardTon: bigint, forwardPayload: Cell | null): Cell {
  const b = beginCell().storeUint(OP.jettonTransfer, 32).storeUint(queryId, 64).storeCoins(jettons).storeAddress(to).storeAddress(response).storeBit(0).storeCoins(forwardTon);
  if (forwardPayload) b.storeBit(1).storeRef(forwardPayload);
  else b.storeBit(0);
  return b.endCell();
}

/** burn#595f07bc query_id:uint64 amount:Coins response_destination:MsgAddress custom_payload:(Maybe ^Cell) */
export function jettonBurnBody(queryId: bigint, jettons: bigint, response: Address): Cell {
  return beginCell().storeUint(OP.jettonBurn, 32).storeUint(queryId, 64).storeCoins(jettons).storeAddress(response).storeBit(0).endCell();
}

// ---- NFT (TEP-62, standard collection / item) ----

export function nftCollectionInit(owner: Address, contentUri: string): StateInit {
  const content = beginCell()
    .storeRef(beginCell().storeUint(1, 8).storeStringTail(contentUri).endCell())
    .storeRef(beginCell().storeStringTail(contentUri + '/items/').endCell())
    .endCell();
  const royalty = beginCell().storeUint(5, 16).storeUint(100, 16).storeAddress(owner).endCell();
  // owner_address next_item_index:uint64 content:^Cell nft_item_code:^Cell royalty_params:^Cell
  const data = beginCell().storeAddress(owner).storeUint(0, 64).storeRef(content).storeRef(codes.nftItem()).storeRef(royalty).endCell();
  return { code: codes.nftCollection(), data };
}

export function nftItemAddress(collection: Address, index: bigint): Address {
  const data = beginCell().storeUint(index, 64).storeAddress(collection).endCell();
  return contractAddress(0, { code: codes.nftItem(), data });
}

/** deploy_nft#1 query_id:uint64 item_index:uint64 amount:Coins content:^[owner:MsgAddress individual_content:^Cell] */
export function nftMintBody(queryId: bigint, index: bigint, itemTon: bigint, owner: Address, itemUri: string): Cell {
  const content = beginCell().storeAddress(owner).storeRef(beginCell().storeStringTail(itemUri).endCell()).endCell();
  return beginCell().storeUint(OP.nftMint, 32).storeUint(queryId, 64).storeUint(index, 64).storeCoins(itemTon).storeRef(content).endCell();
}

/** transfer#5fcc3d14 query_id new_owner response_destination custom_payload forward_amount forward_payload */
export function nftTransferBody(queryId: bigint, newOwner: Address, response: Address, forwardTon: bigint, forwardPayload: Cell | null): Cell {
  const b = beginCell().storeUint(OP.nftTransfer, 32).storeUint(queryId, 64).storeAddress(newOwner).storeAddress(response).storeBit(0).storeCoins(forwardTon);
  if (forwardPayload) b.storeBit(1).storeRef(forwardPayload);
  else b.storeBit(0);
  return b.endCell();
}

// ---- NFT sale (getgems nft-fixprice-sale-v3r3) ----

export interface FixpriceSale {
  marketplace: Address;
  nft: Address;
  fullPrice: bigint;
  marketplaceFeeAddress: Address;
  marketplaceFee: bigint;
  royaltyAddress: Address;
  royaltyAmount: bigint;
  createdAt: number;
}

/**
 * The sale's StateInit, laid out as nft-fixprice-sale-v3r3.fc load_data reads it: is_complete:uint1 created_at:uint32
 * marketplace_address nft_address nft_owner_address (addr_none until the item's ownership_assigned sets it)
 * full_price:Coins ^[marketplace_fee_address marketplace_fee:Coins royalty_address royalty_amount:Coins]
 * sold_at:uint32 query_id:uint64. The marketplace deploys it; the owner then transfers the item to it.
 */
export function nftFixpriceSaleInit(sale: FixpriceSale): StateInit {
  const fees = beginCell().storeAddress(sale.marketplaceFeeAddress).storeCoins(sale.marketplaceFee).storeAddress(sale.royaltyAddress).storeCoins(sale.royaltyAmount).endCell();
  const data = beginCell()
    .storeUint(0, 1)
    .storeUint(sale.createdAt, 32)
    .storeAddress(sale.marketplace)
    .storeAddress(sale.nft)
    .storeAddress(null)
    .storeCoins(sale.fullPrice)
    .storeRef(fees)
    .storeUint(0, 32)
    .storeUint(0, 64)
    .endCell();
  return { code: codes.nftFixpriceSaleV3r3(), data };
}
