/**
 * Ethena staking deposit (USDe -> tsUSDe): a jetton_transfer of USDe to the staking contract whose notification
 * makes that contract mint (0x642b7d07, a jetton_mint block) the staked token back to the depositor.
 *
 * The reference matcher recognises it by the two jetton master addresses. Here it is recognised by what the
 * contracts are: the staking contract turns a jetton deposit into a mint of a different jetton for the same
 * user, and the minted jetton's wallet is Ethena's timelocked staked-USDe wallet, i.e. its code (the StateInit
 * every TEP-74 minter attaches to the internal_transfer it sends) declares the `get_timelock_data` get-method
 * next to `get_wallet_data` (Ethena's tsUSDe wallet: `(int, int) get_timelock_data() method_id` = locked USDe
 * balance and unlock time; wrapper `TsUSDeWallet.getTimeLockData` in Ethena integrations).
 * Serialised as stake_deposit with provider `ethena`; asset = minted jetton, asset2 = deposited jetton.
 */
import { makeBlock, type Block, type Ctx, type EventNode } from '../core.ts';
import type { Family } from '../family.ts';
import { codeOfStateInit, declaresGetMethods } from '../toolkit/code.ts';
import { OP } from '../toolkit/opcodes.ts';

/** Get-methods of Ethena's timelocked staked-USDe (tsUSDe) jetton wallet. */
export const TIMELOCKED_WALLET_METHODS = ['get_wallet_data', 'get_timelock_data'] as const;

type JtData = { sender: string; sender_wallet: string | null; receiver: string | null; amount: bigint; asset: string | null };
type MintData = { asset: string; amount: bigint; to: string | null; to_jetton_wallet: string | null };

function deposit(n: EventNode, ctx: Ctx): Block | null {
  const transfer = ctx.ownerOf(n);
  if (!transfer || transfer.type !== 'jetton_transfer' || transfer.nodes[0] !== n) return null;
  const t = transfer.data as JtData;
  const notify = transfer.nodes.find((x) => x.msg?.opcode === OP.jettonNotify);
  if (!notify || !t.asset) return null;
  // the pool (receiver of the deposit) asks a master to mint to the depositor
  const mintNode = notify.children.find((c) => c.msg?.opcode === OP.jettonMint && c.msg.source === t.receiver);
  const mint = mintNode && ctx.ownerOf(mintNode);
  if (!mint || mint.type !== 'jetton_mint' || mint.nodes[0] !== mintNode) return null;
  const m = mint.data as MintData;
  if (m.asset === t.asset || m.to !== t.sender) return null;
  const internal = mint.nodes.find((x) => x.msg?.opcode === OP.jettonInternalTransfer);
  const walletCode = codeOfStateInit(internal?.msg?.initState);
  if (!declaresGetMethods(walletCode, TIMELOCKED_WALLET_METHODS)) return null;
  const b = makeBlock('ethena_deposit', [...transfer.nodes, ...mint.nodes], {
    source: t.sender,
    source_secondary: t.sender_wallet,
    destination: t.receiver,
    amount: t.amount,
    asset: m.asset,
    asset2: t.asset,
    staking_data: { provider: 'ethena', tokens_minted: m.amount },
  }, {
    outType: 'stake_deposit',
    data: { source: t.sender, user_jetton_wallet: t.sender_wallet, pool: t.receiver, value: t.amount, tokens_minted: m.amount, asset: m.asset, source_asset: t.asset },
  });
  b.failed = transfer.failed || mint.failed;
  return b;
}

export const ethenaFamily: Family = { name: 'ethena', absorbs: ['jetton_transfer', 'jetton_mint'], match: deposit };
