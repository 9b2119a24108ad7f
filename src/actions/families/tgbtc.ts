/**
 * ↔ indexer/events/blocks/tgbtc.py: tgBTC (the TON teleport for BTC). The teleport and coordinator report what
 * they did in external-out logs, which the matchers anchor on:
 * - mint: the chain's tail (0xe42a879b) with its success log and the jetton mint; the whole chain up to its head
 *   (0x3f781d24, at most 20 levels up) is merged, with the siblings met on the way; no head, no mint;
 * - burn: a jetton_burn whose notification (or the old 0x587643a2 one) the teleport logs as a burn; the amount
 *   is the burn's, capped by the log's (the log's alone when the burn says 0);
 * - new key: 0x690f357a to the coordinator, logged as a new key, after the teleport logged the DKG's completion;
 * - and, for a log none of those took (old or odd schemas), an action of the log alone, marked crippled
 *   (`*_fallback`), the DKG log always so.
 * The burn log of early contracts may lack readable addresses: they are kept as none (messages/tgbtc.ts).
 */
import { CallContractBlock } from '../basic-blocks.ts';
import { getLabeled } from '../block-utils.ts';
import type { JettonBurnData, JettonMintData, TgBTCBurnData, TgBTCDkgLogData, TgBTCMintData, TgBTCNewKeyData } from '../block-data.ts';
import { Block } from '../core.ts';
import { labeled } from '../labels.ts';
import { BlockMatcher, BlockTypeMatcher, ContractMatcher, GenericMatcher, OrMatcher } from '../matchers.ts';
import { JettonBurnNotification } from '../messages/jettons.ts';
import { TgBTCBurnEvent, TgBTCDkgCompletedEvent, TgBTCMintEvent, TgBTCNewKeyEvent } from '../messages/tgbtc.ts';
import { accountId } from '../ton-utils.ts';

export const TGBTC_MINT_HEAD = 0x3f781d24;
export const TGBTC_MINT_TAIL = 0xe42a879b;
export const TGBTC_NEW_KEY = 0x690f357a;
export const TGBTC_OLD_BURN_NOTIFICATION = 0x587643a2;
/** what the teleport sends on along with a burn / new key log, and its reply (both optional) */
const TGBTC_PEGOUT = 0xbe44e7a6;
const TGBTC_PEGOUT_REPLY = 0x1a84c0e0;

export class TgBTCMintBlock extends Block<TgBTCMintData> {
  constructor(data: TgBTCMintData) {
    super('tgbtc_mint', [], data);
  }
}

export class TgBTCBurnBlock extends Block<TgBTCBurnData> {
  constructor(data: TgBTCBurnData) {
    super('tgbtc_burn', [], data);
  }
}

export class TgBTCNewKeyBlock extends Block<TgBTCNewKeyData> {
  constructor(data: TgBTCNewKeyData) {
    super('tgbtc_new_key', [], data);
  }
}

export class TgBTCDkgLogBlock extends Block<TgBTCDkgLogData> {
  constructor(data: TgBTCDkgLogData) {
    super('tgbtc_dkg_log', [], data);
  }
}

const isCall = (b: Block, opcode: number): boolean => b instanceof CallContractBlock && b.opcode === opcode >>> 0;

/** Python's `int.to_bytes(32, 'little').hex()`: the txid as Bitcoin shows it. */
function txidHex(v: bigint): string {
  const be = Buffer.from(v.toString(16).padStart(64, '0'), 'hex');
  return Buffer.from(be.reverse()).toString('hex');
}

/** `hex(x)[2:]` */
const bareHex = (v: bigint): string => v.toString(16);

/** The optional pegout message, its reply and a TON transfer, after a burn or new-key log. */
const pegout = () => new ContractMatcher(TGBTC_PEGOUT, {
  optional: true,
  childrenMatchers: [new ContractMatcher(TGBTC_PEGOUT_REPLY, { optional: true }), new BlockTypeMatcher('ton_transfer', { optional: true })],
});

export class TgBTCMintBlockMatcher extends BlockMatcher {
  constructor() {
    super({
      childrenMatchers: [
        labeled('success_log', new ContractMatcher(TgBTCMintEvent.opcode, { optional: false })),
        labeled('jetton_mint', new BlockTypeMatcher('jetton_mint', { optional: false })),
      ],
    });
  }

  override testSelf(block: Block): boolean {
    return isCall(block, TGBTC_MINT_TAIL);
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const successLog = getLabeled('success_log', otherBlocks, CallContractBlock);
    const jettonMint = getLabeled('jetton_mint', otherBlocks);
    if (successLog === null || jettonMint === null || jettonMint.btype !== 'jetton_mint') return [];
    const collected = new Set<Block>([block, successLog, jettonMint, ...otherBlocks]);
    let head: Block | null = null;
    let cur: Block = block;
    for (let i = 0; i < 20; i++) {
      const prev = cur.previousBlock;
      if (prev === null) break;
      collected.add(prev);
      for (const c of prev.childrenBlocks) if (c !== cur) collected.add(c);
      cur = prev;
      if (isCall(cur, TGBTC_MINT_HEAD)) {
        head = cur;
        break;
      }
    }
    if (head === null) return [];
    const sender = accountId(head.getMessage().source);
    // assigned one by one as upstream does inside its try: a failure after the log read keeps what was read
    let recipient: TgBTCMintData['recipient'] = null;
    let amount: bigint | null = null;
    let asset: TgBTCMintData['asset'] = null;
    let bitcoinTxid: string | null = null;
    let recipientWallet: TgBTCMintData['recipient_wallet'] = null;
    let teleport: TgBTCMintData['teleport_contract'] = null;
    let success = false;
    try {
      const log = new TgBTCMintEvent(successLog.getBody());
      success = true;
      recipient = log.recipientAddress;
      teleport = accountId(successLog.getMessage().source);
      amount = log.amount;
      bitcoinTxid = txidHex(log.bitcoinTxid);
      const mint = jettonMint.data as JettonMintData;
      asset = mint.asset;
      recipientWallet = accountId(mint.to_jetton_wallet);
    } catch {
      // the log did not read (or the mint's data): logged upstream
    }
    if (!success) return [];
    const data: TgBTCMintData = {
      crippled: false, sender, recipient, amount, asset, bitcoin_txid: bitcoinTxid, success, recipient_wallet: recipientWallet, teleport_contract: teleport,
    };
    const newBlock = new TgBTCMintBlock(data);
    newBlock.mergeBlocks([...collected]);
    return [newBlock];
  }
}

export class TgBTCBurnBlockMatcher extends BlockMatcher {
  constructor() {
    const children = [labeled('tgbtc_burn_log', new ContractMatcher(TgBTCBurnEvent.opcode, { optional: false })), pegout()];
    super({
      childMatcher: new OrMatcher([
        new ContractMatcher(JettonBurnNotification.opcode, { optional: false, childrenMatchers: children }),
        new ContractMatcher(TGBTC_OLD_BURN_NOTIFICATION, { optional: false, childrenMatchers: children }),
      ]),
    });
  }

  override testSelf(block: Block): boolean {
    return block.btype === 'jetton_burn';
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const burn = block.data as JettonBurnData;
    const log = getLabeled('tgbtc_burn_log', otherBlocks, CallContractBlock);
    if (log === null) return [];
    const event = new TgBTCBurnEvent(log.getBody());
    // the burnt amount is the jetton burn's; the log's only where the burn names none (0), and never more than
    // the log says: a log of another layout reads a wrong, larger amount
    const burnt = burn.amount;
    const amount = burnt === null || burnt === 0n ? event.amount : (burnt < event.amount ? burnt : event.amount);
    const newBlock = new TgBTCBurnBlock({
      crippled: false, sender: burn.owner, jetton_wallet: burn.jetton_wallet, asset: burn.asset, amount, pegout_address: event.pegoutAddress,
    });
    newBlock.mergeBlocks([...otherBlocks, block]);
    return [newBlock];
  }
}

export class TgBTCNewKeyBlockMatcher extends BlockMatcher {
  constructor() {
    super({
      parentMatcher: new GenericMatcher(() => true, {
        optional: false,
        childMatcher: labeled('dkg_completed_log', new ContractMatcher(TgBTCDkgCompletedEvent.opcode, { optional: false })),
      }),
      childrenMatchers: [labeled('new_key_log', new ContractMatcher(TgBTCNewKeyEvent.opcode, { optional: false })), pegout()],
    });
  }

  override testSelf(block: Block): boolean {
    return isCall(block, TGBTC_NEW_KEY);
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const dkgLog = getLabeled('dkg_completed_log', otherBlocks);
    const newKeyLog = getLabeled('new_key_log', otherBlocks);
    if (dkgLog === null || newKeyLog === null) return [];
    const dkg = new TgBTCDkgCompletedEvent(dkgLog.getBody());
    const key = new TgBTCNewKeyEvent(newKeyLog.getBody());
    const newBlock = new TgBTCNewKeyBlock({
      crippled: false,
      teleport_contract: accountId(dkgLog.getMessage().source),
      coordinator_contract: accountId(newKeyLog.getMessage().source),
      pubkey: bareHex(key.newInternalPubkey),
      pegout_address: key.pegoutAddress,
      timestamp: dkg.timestamp,
      amount: key.amount,
    });
    newBlock.mergeBlocks([...otherBlocks, block]);
    return [newBlock];
  }
}

// ---------------------------------------------------------------- fallbacks for logs alone

export class TgBTCMintLogOnlyMatcher extends BlockMatcher {
  override testSelf(block: Block): boolean {
    return isCall(block, TgBTCMintEvent.opcode);
  }

  override buildBlock(block: Block): Block[] {
    const log = new TgBTCMintEvent(block.getBody());
    const sender = accountId(block.getMessage().source);
    const newBlock = new TgBTCMintBlock({
      crippled: true, sender, recipient: log.recipientAddress, amount: log.amount, asset: null, bitcoin_txid: txidHex(log.bitcoinTxid),
      success: true, recipient_wallet: null, teleport_contract: sender,
    });
    newBlock.mergeBlocks([block]);
    return [newBlock];
  }
}

export class TgBTCBurnLogOnlyMatcher extends BlockMatcher {
  override testSelf(block: Block): boolean {
    return isCall(block, TgBTCBurnEvent.opcode);
  }

  override buildBlock(block: Block): Block[] {
    const log = new TgBTCBurnEvent(block.getBody());
    const newBlock = new TgBTCBurnBlock({
      crippled: true, sender: log.senderAddress, jetton_wallet: null, asset: null, amount: log.amount, pegout_address: log.pegoutAddress,
    });
    newBlock.mergeBlocks([block]);
    return [newBlock];
  }
}

export class TgBTCNewKeyLogOnlyMatcher extends BlockMatcher {
  override testSelf(block: Block): boolean {
    return isCall(block, TgBTCNewKeyEvent.opcode);
  }

  override buildBlock(block: Block): Block[] {
    const log = new TgBTCNewKeyEvent(block.getBody());
    const newBlock = new TgBTCNewKeyBlock({
      crippled: true, coordinator_contract: accountId(block.getMessage().source), pubkey: bareHex(log.newInternalPubkey),
      pegout_address: log.pegoutAddress, amount: log.amount, teleport_contract: null, timestamp: null,
    });
    newBlock.mergeBlocks([block]);
    return [newBlock];
  }
}

export class TgBTCDkgLogOnlyMatcher extends BlockMatcher {
  override testSelf(block: Block): boolean {
    return isCall(block, TgBTCDkgCompletedEvent.opcode);
  }

  override buildBlock(block: Block): Block[] {
    const log = new TgBTCDkgCompletedEvent(block.getBody());
    const newBlock = new TgBTCDkgLogBlock({
      coordinator_contract: accountId(block.getMessage().source), timestamp: log.timestamp, internal_pubkey: bareHex(log.internalPubkey),
    });
    newBlock.mergeBlocks([block]);
    return [newBlock];
  }
}

export const MATCHERS = {
  TgBTCMintBlockMatcher: new TgBTCMintBlockMatcher(),
  TgBTCBurnBlockMatcher: new TgBTCBurnBlockMatcher(),
  TgBTCNewKeyBlockMatcher: new TgBTCNewKeyBlockMatcher(),
  TgBTCMintLogOnlyMatcher: new TgBTCMintLogOnlyMatcher(),
  TgBTCBurnLogOnlyMatcher: new TgBTCBurnLogOnlyMatcher(),
  TgBTCNewKeyLogOnlyMatcher: new TgBTCNewKeyLogOnlyMatcher(),
  TgBTCDkgLogOnlyMatcher: new TgBTCDkgLogOnlyMatcher(),
};
