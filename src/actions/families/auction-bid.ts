/**
 * auction_bid: a plain TON transfer (no comment, or a comment that is not one of the auction's commands) to an
 * NFT auction contract. The auction is identified as the reference does it, by the trace's interface record of
 * the destination (`NftAuction`, which also names the NFT: `nft_addr`), or by the auction's code hash: the
 * GetGems auction builds v1, v2, v3r2, v3r3 and v4r1 published in getgems-io/nft-contracts (NftAuction*.source.ts).
 * The NFT's index and collection come from its NftItem interface when the trace has it.
 * Not covered: Telegram (telemint) item auctions, which the reference recognises by the item's content URL.
 */
import { makeBlock, type Block, type Ctx, type EventNode } from '../core.ts';
import type { Family } from '../family.ts';
import { cellFromBoc, commentText, decodeComment } from '../toolkit/cells.ts';
import { codeHashOf, hasInterface } from '../toolkit/code.ts';
import { isTonTransferNode } from './generic.ts';

export const GETGEMS_AUCTION_CODE_HASHES: ReadonlySet<string> = new Set([
  'fc00a29dd0205bcdcc0d3ffb9ca38cc3c8c159ec60d8aa543240a92f10592d40', // v1
  '6668872fa79705443ffd47523e8e9ea9f76ab99f9a0b59d27de8f81a1c27b9d4', // v2
  '1bd9c5a39bffb7a0f341588b5dd92b813a842bf65ef14109382200ceaf8f72df', // v3r2
  'bb6f62ade0feb2d79fab3b8aebf0930af98553df60093b2027f0a8bf169bfcec', // v3r3
  'ce5a78534eaaa6ceed8dafd486d076eb60a9b0d6dbfb53676f662649c0689956', // v4r1
]);

// text commands of the GetGems auction (owner / marketplace actions), never bids
const COMMANDS = new Set(['cancel', 'stop', 'finish', 'repeat_end_auction', 'emergency_message']);

function match(n: EventNode, ctx: Ctx): Block | null {
  if (!isTonTransferNode(n) || n.tx.origStatus !== 'active') return null;
  const m = n.msg!;
  const hash = codeHashOf(ctx, m.destination);
  const isAuction = hasInterface(ctx, m.destination, 'NftAuction') || (hash !== null && GETGEMS_AUCTION_CODE_HASHES.has(hash));
  if (!isAuction) return null;
  const { comment, encrypted } = decodeComment(cellFromBoc(m.body));
  if (comment !== null && !encrypted && COMMANDS.has(commentText(comment).trim())) return null;
  const auction = ctx.iface(m.destination)?.raw?.NftAuction as { nft_addr?: string } | undefined;
  const nft = auction?.nft_addr ? auction.nft_addr.toUpperCase() : null;
  const item = nft ? ctx.iface(nft)?.nftItem : undefined;
  const b = makeBlock('auction_bid', [n], {
    source: m.source,
    destination: m.destination,
    value: m.value,
    asset: item?.collection ?? null,
    asset_secondary: nft,
    nft_transfer_data: { nft_item_index: item?.index ?? null },
  });
  b.failed = n.tx.aborted;
  return b;
}

export const auctionBidFamily: Family = { name: 'auction_bid', match };
