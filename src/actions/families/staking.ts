/**
 * Liquid staking (Tonstakers): deposit 0x47d54391 to the pool, which mints tsTON (0x1674b0a0 to the
 * minter, then internal_transfer to the user's wallet); withdrawal request = tsTON burn whose
 * notification makes the minter call the pool (0x319b0cdc), which either pays out at once (0x0a77535c)
 * or mints a withdrawal NFT (0x1674b0a0 to the NFT collection).
 */
import { childWithOp, makeBlock, type Block, type Ctx, type EventNode } from '../core.ts';
import type { Family } from '../family.ts';
import { parseJettonInternalTransfer } from '../toolkit/jetton.ts';
import { OP } from '../toolkit/opcodes.ts';

const POOL_WITHDRAWAL = 0x0a77535c;
const INIT_NFT = 0x132f9a45;
const DEPOSIT_FEE = 1_000_000_000n;

function deposit(n: EventNode): Block | null {
  if (n.extOut || n.msg?.opcode !== OP.tonstakersDeposit || !n.msg.source) return null;
  const mint = childWithOp(n, OP.tonstakersPayoutMint);
  const transfer = mint && childWithOp(mint, OP.jettonInternalTransfer);
  const nodes = [n];
  let minted: bigint | null = null;
  if (mint) nodes.push(mint);
  if (transfer) {
    nodes.push(transfer);
    for (const op of [OP.jettonNotify, OP.excesses]) {
      const c = childWithOp(transfer, op);
      if (c) nodes.push(c);
    }
    minted = parseJettonInternalTransfer(transfer.msg!.body)?.amount ?? null;
  }
  const failed = n.tx.aborted || !transfer;
  const value = (n.msg.value ?? 0n) - DEPOSIT_FEE;
  const asset = mint?.msg?.destination ?? null;
  const b = makeBlock('tonstakers_deposit', nodes, {
    source: n.msg.source,
    destination: n.msg.destination,
    amount: value,
    asset,
    staking_data: { provider: 'liquid_staking', tokens_minted: failed ? null : minted },
  }, {
    outType: 'stake_deposit',
    data: { source: n.msg.source, user_jetton_wallet: failed ? null : transfer!.msg!.destination, pool: n.msg.destination, value, tokens_minted: failed ? null : minted },
  });
  b.failed = failed;
  return b;
}

function withdrawRequest(n: EventNode, ctx: Ctx): Block | null {
  const burnBlock = ctx.ownerOf(n);
  if (!burnBlock || burnBlock.type !== 'jetton_burn' || burnBlock.nodes[0] !== n) return null;
  const notif = burnBlock.nodes.find((x) => x.msg?.opcode === OP.jettonBurnNotification);
  const request = notif && childWithOp(notif, OP.tonstakersWithdraw);
  if (!request) return null;
  const d = burnBlock.data as { owner: string; jetton_wallet: string; amount: bigint; asset: string };
  const immediate = childWithOp(request, POOL_WITHDRAWAL);
  const pool = request.msg!.destination;
  if (immediate) {
    const b = makeBlock('tonstakers_withdraw', [n, notif!, request, immediate], {
      source: d.owner,
      destination: pool,
      amount: d.amount,
      asset: d.asset,
      staking_data: { provider: 'liquid_staking', ts_nft: null, tokens_burnt: null },
    }, { outType: 'stake_withdrawal' });
    b.failed = n.tx.aborted;
    return b;
  }
  const mintNft = childWithOp(request, OP.tonstakersPayoutMint);
  if (!mintNft) return null;
  const init = mintNft.children.find((c) => ctx.ownerOf(c)?.type === 'nft_mint') ?? childWithOp(mintNft, INIT_NFT);
  const mintedNft = init?.msg?.destination ?? null;
  const b = makeBlock('tonstakers_withdraw_request', [n, notif!, request, mintNft], {
    source: d.owner,
    source_secondary: d.jetton_wallet,
    destination: pool,
    amount: d.amount,
    asset: d.asset,
    staking_data: { provider: 'liquid_staking', ts_nft: mintedNft },
  }, {
    outType: 'stake_withdrawal_request',
    data: { source: d.owner, tsTON_wallet: d.jetton_wallet, pool, tokens_burnt: d.amount, minted_nft: mintedNft },
  });
  b.failed = n.tx.aborted || !mintedNft;
  return b;
}

export const tonstakersFamily: Family = {
  name: 'tonstakers',
  absorbs: ['jetton_burn'],
  match(n, ctx) {
    return deposit(n) ?? withdrawRequest(n, ctx);
  },
};
