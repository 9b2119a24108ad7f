/**
 * ↔ indexer/events/blocks/ethena_staking.py: Ethena's USDe staking on TON.
 * - withdrawal request: a USDe transfer to the staking contract that mints timelocked tsUSDe back. The chain is
 *   transfer -> internal transfer -> notify -> mint -> 0xb2583ed5 (the tsUSDe transfer); both the sending and the
 *   receiving jetton wallet must be the user's, the sending one of the jetton the internal transfer went to, the
 *   receiving one of the contract that sent the tsUSDe. An unknown wallet makes the build fail (upstream reads
 *   the records' fields unguarded).
 * - deposit: a jetton transfer of USDe followed by a tsUSDe mint (both masters fixed), amounts from the two.
 */
import { CallContractBlock } from '../basic-blocks.ts';
import { getLabeled } from '../block-utils.ts';
import type { EthenaDepositData, EthenaWithdrawalRequestData, JettonMintData, JettonTransferData } from '../block-data.ts';
import { interfaceRepository } from '../context.ts';
import { Block } from '../core.ts';
import { labeled } from '../labels.ts';
import { BlockMatcher, BlockTypeMatcher, ContractMatcher, childSequenceMatcher } from '../matchers.ts';
import { JettonInternalTransfer, JettonMint, JettonNotify, JettonTransfer } from '../messages/jettons.ts';
import { accountId } from '../ton-utils.ts';
import { JettonMintBlock, JettonTransferBlock } from './jettons.ts';

/** USDe and tsUSDe masters the deposit matcher accepts */
export const ETHENA_USDE_MASTER = '0:086FA2A675F74347B08DD4606A549B8FDB98829CB282BC1949D3B12FBAED9DCC';
export const ETHENA_TSUSDE_MASTER = '0:D0E545323C7ACB7102653C073377F7E3C67F122EB94D430A250739F109D4A57D';
/** the timelocked tsUSDe transfer */
export const EthenaTimelockedTransfer = { opcode: 0xb2583ed5 } as const;

export class EthenaDepositBlock extends Block<EthenaDepositData> {
  constructor(data: EthenaDepositData) {
    super('ethena_deposit', [], data);
  }
}

export class EthenaWithdrawalRequestBlock extends Block<EthenaWithdrawalRequestData> {
  constructor(data: EthenaWithdrawalRequestData) {
    super('ethena_withdrawal_request', [], data);
  }
}

function need<T>(v: T | null, what: string): T {
  if (v === null) throw new TypeError(`'NoneType' object has no attribute '${what}'`);
  return v;
}

export class EthenaWithdrawalRequestBlockMatcher extends BlockMatcher {
  constructor() {
    super({
      childMatcher: childSequenceMatcher([
        labeled('internal_transfer', new ContractMatcher(JettonInternalTransfer.opcode)),
        new ContractMatcher(JettonNotify.opcode),
        labeled('mint', new ContractMatcher(JettonMint.opcode)),
        labeled('ts_usde_transfer', new ContractMatcher(EthenaTimelockedTransfer.opcode)),
      ]),
    });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === JettonTransfer.opcode;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const internal = need(getLabeled('internal_transfer', otherBlocks, CallContractBlock), 'get_message');
    const tsUsde = need(getLabeled('ts_usde_transfer', otherBlocks, CallContractBlock), 'get_message');
    const mint = need(getLabeled('mint', otherBlocks, CallContractBlock), 'get_message');
    const source = accountId(block.getMessage().source);
    const sourceWallet = accountId(block.getMessage().destination);
    const receiverWallet = accountId(tsUsde.getMessage().destination);
    const usdeMaster = accountId(internal.getMessage().destination);
    const repo = interfaceRepository(block);
    const sourceInfo = need(repo.getJettonWallet(sourceWallet), 'owner');
    const receiverInfo = need(repo.getJettonWallet(receiverWallet), 'owner');
    if (sourceInfo.owner !== source || receiverInfo.owner !== source || sourceInfo.jetton !== usdeMaster || receiverInfo.jetton !== tsUsde.getMessage().source) {
      return [];
    }
    const timelocked = new JettonInternalTransfer(tsUsde.getBody());
    const internalBody = new JettonInternalTransfer(internal.getBody());
    const newBlock = new EthenaWithdrawalRequestBlock({
      amount: internalBody.amount,
      ts_usde_amount: timelocked.amount,
      source,
      source_wallet: sourceWallet,
      receiver_wallet: receiverWallet,
      asset: accountId(sourceInfo.jetton),
      pool: accountId(mint.getMessage().source),
    });
    newBlock.mergeBlocks([block, ...otherBlocks]);
    return [newBlock];
  }
}

export class EthenaDepositBlockMatcher extends BlockMatcher {
  constructor() {
    super({ childMatcher: new BlockTypeMatcher('jetton_mint', { optional: false }) });
  }

  override testSelf(block: Block): boolean {
    return block instanceof JettonTransferBlock;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const mint = otherBlocks.find((b) => b instanceof JettonMintBlock);
    if (mint === undefined) return [];
    const t = block.data as JettonTransferData;
    const m = mint.data as JettonMintData;
    const transferAsset = t.asset;
    const mintAsset = m.asset;
    if (transferAsset === null || !transferAsset.jettonAddress) return [];
    if (transferAsset.jettonAddress !== ETHENA_USDE_MASTER) return [];
    if (!mintAsset || !mintAsset.jettonAddress) return [];
    if (mintAsset.jettonAddress !== ETHENA_TSUSDE_MASTER) return [];
    const newBlock = new EthenaDepositBlock({
      source: t.sender,
      user_jetton_wallet: t.sender_wallet,
      pool: t.receiver,
      value: t.amount,
      tokens_minted: m.amount,
      asset: mintAsset,
      source_asset: transferAsset,
    });
    newBlock.mergeBlocks([block, mint]);
    return [newBlock];
  }
}

export const MATCHERS = {
  EthenaWithdrawalRequestBlockMatcher: new EthenaWithdrawalRequestBlockMatcher(),
  EthenaDepositBlockMatcher: new EthenaDepositBlockMatcher(),
};
