/**
 * NFT item layouts beyond TEP-62's (data-layouts.ts): the .ton DNS item's data, the Telegram item's data, and a
 * Telegram item's TEP-64 content as its deploy message or its data carries it (TelegramMessenger/telemint
 * telemint.tlb):
 *
 *   teleitem_msg_deploy#299a3e15 sender_address:MsgAddressInt bid:Grams token_info:^TelemintTokenInfo
 *     nft_content:^Cell auction_config:^TeleitemAuctionConfig royalty_params:^NftRoyaltyParams = TeleitemMsg;
 *   teleitem_data$_ config:^TeleitemConfig state:(Maybe ^TeleitemState) = TeleitemData;
 *   teleitem_state$_ owner_address:MsgAddressInt content:^TeleitemContent auction:(Maybe ^TeleitemAuction)
 *     royalty_params:^NftRoyaltyParams = TeleitemState;
 *   teleitem_content$_ nft_content:^Cell dns:DNS_RecordSet token_info:^TelemintTokenInfo = TeleitemContent;
 *
 * Read exactly (the root's bits; refs may be pruned). Pure.
 */
import { Cell } from '@ton/core';
import { loadAddr } from './cells.ts';
import { parseTokenContent } from './content.ts';

/** An item's index, collection and owner as its data says (index / collection null where a block pruned them). */
export interface ItemData {
  index: bigint | null;
  collection: string | null;
  owner: string | null;
  init: boolean;
}

/**
 * ton-blockchain/dns-contract func/nft-item.fc `store_data`: `index:uint256 collection_address:MsgAddress
 * owner_address:MsgAddress content:^Cell domain:^Cell auction:(Maybe ^Cell) last_fill_up_time:uint64`, or only
 * `index collection_address` before init. Read exactly (the root's bits; refs may be pruned).
 */
export function parseDnsItemData(cell: Cell): ItemData | null {
  try {
    const s = cell.beginParse(true);
    const index = s.loadUintBig(256);
    const collection = loadAddr(s);
    if (s.remainingBits === 0) return s.remainingRefs === 0 ? { index, collection, owner: null, init: false } : null;
    const owner = loadAddr(s);
    const hasAuction = s.loadBit();
    s.loadUintBig(64);
    return s.remainingBits === 0 && s.remainingRefs === 2 + (hasAuction ? 1 : 0) ? { index, collection, owner, init: true } : null;
  } catch {
    return null;
  }
}

/**
 * TelegramMessenger/telemint nft-item: `config:^(item_index:uint256 collection_address:MsgAddressInt)
 * state:(Maybe ^(owner_address:MsgAddressInt content:^Cell auction:(Maybe ^Cell) royalty_params:^Cell))`.
 * The config never changes, so a block usually prunes it: index and collection are then unknown.
 */
export function parseTelemintItemData(cell: Cell): ItemData | null {
  try {
    const s = cell.beginParse(true);
    const config = s.loadRef();
    const state = s.loadMaybeRef();
    if (s.remainingBits !== 0 || s.remainingRefs !== 0) return null;
    let index: bigint | null = null;
    let collection: string | null = null;
    if (!config.isExotic) {
      const c = config.beginParse();
      index = c.loadUintBig(256);
      collection = loadAddr(c);
    }
    const owner = state && !state.isExotic ? loadAddr(state.beginParse()) : null;
    return { index, collection, owner, init: state !== null };
  } catch {
    return null;
  }
}

/** The deploy message a telemint collection sends a new item. */
export const TELEITEM_DEPLOY_OPCODE = 0x299a3e15;

export type ItemContent = Record<string, string>;


/** A cell read whole: a pruned branch gives nothing. */
function content(cell: Cell): ItemContent | null {
  return cell.isExotic ? null : parseTokenContent(cell);
}

/** The content a teleitem deploy message carries, or null when the body is not one. */
export function contentFromDeploy(body: string | null | undefined): ItemContent | null {
  if (!body) return null;
  try {
    const s = Cell.fromBase64(body).beginParse();
    if (s.loadUint(32) !== TELEITEM_DEPLOY_OPCODE) return null;
    s.loadAddress();
    s.loadCoins();
    if (s.remainingBits !== 0 || s.remainingRefs !== 4) return null;
    s.loadRef();
    return content(s.loadRef());
  } catch {
    return null;
  }
}

/** The content in an item's data (teleitem_data), or null when the data does not read so or prunes it. */
export function contentFromItemData(dataBoc: string | null | undefined): ItemContent | null {
  if (!dataBoc) return null;
  try {
    const d = Cell.fromBase64(dataBoc).beginParse(true);
    d.loadRef(); // config
    const state = d.loadMaybeRef();
    if (state === null || state.isExotic || d.remainingBits !== 0 || d.remainingRefs !== 0) return null;
    const s = state.beginParse();
    s.loadAddress();
    const c = s.loadRef();
    if (c.isExotic) return null;
    return content(c.beginParse().loadRef());
  } catch {
    return null;
  }
}

/** Does a StateInit (its hash, hex) make this account (`wc:HEX`): the address is the StateInit's hash. */
export function deploysAccount(account: string, stateInitHash: string | null | undefined): boolean {
  return !!stateInitHash && account.slice(account.indexOf(':') + 1).toLowerCase() === stateInitHash.toLowerCase();
}
