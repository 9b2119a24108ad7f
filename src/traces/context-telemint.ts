/**
 * The content of Telegram items (TelegramMessenger/telemint: usernames, numbers, gifts), for the classifier's `NftItem`
 * records: toncenter's record carries the item's TEP-64 content as its worker decodes it (`{"uri": ...}`), and the
 * NFT and auction families tell a Fragment item by that uri (nft.fragment.com): bids, auction starts and cancels,
 * purchases. A telemint collection's `get_nft_content(index, individual)` returns the individual content as it is
 * (func/nft-collection.fc), so the item's own `nft_content` cell is the content. The chain has it in two places:
 *
 *   teleitem_msg_deploy#299a3e15 sender_address:MsgAddressInt bid:Grams token_info:^TelemintTokenInfo
 *     nft_content:^Cell auction_config:^TeleitemAuctionConfig royalty_params:^NftRoyaltyParams = TeleitemMsg;
 *   teleitem_data$_ config:^TeleitemConfig state:(Maybe ^TeleitemState) = TeleitemData;
 *   teleitem_state$_ owner_address:MsgAddressInt content:^TeleitemContent auction:(Maybe ^TeleitemAuction)
 *     royalty_params:^NftRoyaltyParams = TeleitemState;
 *   teleitem_content$_ nft_content:^Cell dns:DNS_RecordSet token_info:^TelemintTokenInfo = TeleitemContent;
 *
 * (telemint.tlb): the deploy message the collection sends the item (a trace's, or one the store keeps), and the
 * item's data when a block carries its content subtree (the deploy's block; the content never changes after, so
 * later blocks prune it).
 *
 * Which accounts are Telegram items: those whose code declares telemint's get-methods, and those deployed by a
 * teleitem deploy message that carried the account's own StateInit (the account's address is that StateInit's
 * hash, so the message made exactly this account). The second is how a gift is known: its code is a library cell,
 * whose get-methods are in the masterchain's libraries, which blocks do not carry. An item told by its deploy only
 * gets its content from the deploy, never from a data layout alone.
 */
import { Cell } from '@ton/core';
import { contentFromDeploy, contentFromItemData, deploysAccount, TELEITEM_DEPLOY_OPCODE, type ItemContent } from '../contracts/index.ts';
import { readMessageBodies } from '../store/traces/index.ts';
import { type StoreClient } from '../store/client/index.ts';
import { BoundedMap } from '../util/index.ts';
import type { ContextMessage } from './context-dedust.ts';

function stateInitHash(boc: string | null | undefined): string | null {
  if (!boc) return null;
  try {
    return Cell.fromBase64(boc).hash().toString('hex');
  } catch {
    return null;
  }
}

/** One stored teleitem deploy message per item (its body BoC) that carried the item's own StateInit, read by src/store. */
async function readStoredDeploys(store: StoreClient, items: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const r of await readMessageBodies(store, items, 'in', TELEITEM_DEPLOY_OPCODE)) {
    if (!out.has(r.account) && deploysAccount(r.account, r.initStateHash) && contentFromDeploy(r.boc)) out.set(r.account, r.boc);
  }
  return out;
}

/** Items' content read, and the items found nowhere (not asked again for a while); the stage's context keeps one. */
export interface ContentCache {
  known: Map<string, ItemContent>;
  /** item -> time (ms) it was last looked up in the store without an answer */
  unknown: Map<string, number>;
}

const MAX_ITEMS = 100_000;
const UNKNOWN_RETRY_MS = 10 * 60_000;

export function createContentCache(): ContentCache {
  return { known: new BoundedMap(MAX_ITEMS), unknown: new BoundedMap(MAX_ITEMS) };
}

export interface TelemintInput {
  /** the accounts whose code (or NFT sale row) says they are telemint items: their data is read too */
  items: readonly string[];
  /** accounts that may be Telegram items told by their deploy only (context-telemint.ts file comment) */
  candidates: readonly string[];
  /** the item's data as the context holds it (a block's, pruned below what changed, or whole) */
  dataBoc: (account: string) => string | null | undefined;
  /** every message of the batch */
  messages: readonly ContextMessage[];
  now?: () => number;
}

/**
 * The content of the batch's Telegram items: the data of an item its code tells when it carries the content (newest
 * first: an item's content, if it ever changed, would be in the block that changed it), the deploy messages of the
 * batch, what this process read before, else a deploy message the store keeps.
 */
export async function loadTelemintContents(ctx: { store: StoreClient; itemContents: ContentCache }, input: TelemintInput): Promise<Map<string, ItemContent>> {
  const { store, itemContents: cache } = ctx;
  const now = input.now ?? Date.now;
  for (const m of input.messages) {
    if (m.destination === null || m.opcode === null || m.opcode >>> 0 !== TELEITEM_DEPLOY_OPCODE) continue;
    if (!deploysAccount(m.destination, stateInitHash(m.initState))) continue;
    const c = contentFromDeploy(m.body);
    if (c) cache.known.set(m.destination, c);
  }
  const out = new Map<string, ItemContent>();
  const ask: string[] = [];
  const byCode = new Set(input.items);
  for (const a of new Set([...input.items, ...input.candidates])) {
    const fromData = byCode.has(a) ? contentFromItemData(input.dataBoc(a)) : null;
    if (fromData) cache.known.set(a, fromData);
    const c = fromData ?? cache.known.get(a);
    if (c) out.set(a, c);
    else {
      const at = cache.unknown.get(a);
      if (at === undefined || now() - at > UNKNOWN_RETRY_MS) ask.push(a);
    }
  }
  const deploys = await readStoredDeploys(store, ask);
  for (const a of ask) {
    const c = contentFromDeploy(deploys.get(a));
    if (c) {
      cache.known.set(a, c);
      cache.unknown.delete(a);
      out.set(a, c);
    } else cache.unknown.set(a, now());
  }
  return out;
}
