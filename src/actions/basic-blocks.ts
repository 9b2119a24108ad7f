/**
 * ↔ indexer/events/blocks/basic_blocks.py: the block every event node starts as (processing.ts `initBlock`):
 * `ton_transfer` (a plain or commented transfer), `call_contract` (anything else, externals included),
 * `tick_tock`, and a `contract_deploy` child for a node whose transaction activated its account. Newer upstream
 * (the Telegram wallet / W5 gasless change): a call_contract's opcode is a Telegram wallet request's own, read from
 * behind its signature (`get_call_contract_opcode`), and a signed wallet request that came as an internal message
 * carries a `gasless_request` marker child (a relayer paid its gas), unwound onto the top level after matching.
 */
import { Block, type AccountValueFlow } from './core.ts';
import { commentText, TonTransferMessage } from './messages/common.ts';
import { GASLESS_REQUEST_OPCODES, tgWalletRequestOpcode } from './messages/tgwallet.ts';
import { cellFromBoc } from '../contracts/index.ts';
import type { AccountId, Amount } from './ton-utils.ts';
import type { EventNode } from './tree.ts';

function fillFlowFromNode(flow: AccountValueFlow, node: EventNode): void {
  const m = node.message;
  const fees = m.transaction.totalFees ?? 0n;
  if (m.value !== null) {
    if (m.direction !== 'in') throw new Error('value flow of an outgoing message');
    flow.addTon(m.destination, m.value);
    flow.addTon(m.source, -m.value);
    flow.addFees(m.destination, fees);
  } else if (m.direction === 'in') {
    flow.addFees(m.destination, fees);
  }
  for (const out of m.transaction.outMsgs) {
    if (out.fwdFee !== null && out.fwdFee !== undefined) flow.addFees(out.source, out.fwdFee);
  }
}

/** A node's transaction activated its account (from anything but active or frozen). */
function deploysContract(node: EventNode): boolean {
  const tx = node.getTx();
  return tx !== null && tx.endStatus === 'active' && tx.origStatus !== 'active' && tx.origStatus !== 'frozen';
}

export interface TonTransferData {
  extra_currencies: Record<string, string> | null;
  source: AccountId;
  destination: AccountId;
  value: Amount;
  /** text, or base64 of the encrypted bytes */
  comment: string | null;
  encrypted: boolean;
}

export class TonTransferBlock extends Block<TonTransferData> {
  value: bigint | null;
  encrypted: boolean;
  comment: string | null;
  commentEncoded = false;

  constructor(node: EventNode) {
    const cell = cellFromBoc(node.message.body);
    if (!cell) throw new Error(`cannot parse the body of ${node.message.msgHash}`);
    const msg = new TonTransferMessage(cell.beginParse(true));
    let comment: string | null = null;
    let encoded = false;
    if (msg.comment !== null) {
      if (msg.encrypted) {
        encoded = true;
        comment = msg.comment.toString('base64');
      } else {
        comment = commentText(msg.comment);
      }
    }
    super('ton_transfer', [node], {
      extra_currencies: node.message.valueExtraCurrencies,
      source: node.message.source,
      destination: node.message.destination,
      value: node.message.value,
      comment,
      encrypted: msg.encrypted,
    });
    this.encrypted = msg.encrypted;
    this.comment = comment;
    this.commentEncoded = encoded;
    if (node.failed) {
      const tx = node.getTx();
      if (node.message.bounce === true) this.failed = true;
      else if (tx !== null && tx.endStatus === 'uninit') this.failed = false;
      // no gas on an incoming transfer is not a failed transfer
      else if (node.message.source !== null && tx !== null && tx.computeSkippedReason === 'no_gas') this.failed = false;
      else this.failed = true;
    }
    this.value = node.message.value;
    fillFlowFromNode(this.valueFlow, node);
    if (deploysContract(node)) this.childrenBlocks.push(new ContractDeploy(node));
  }
}

export interface CallContractData {
  extra_currencies: Record<string, string> | null;
  opcode: number | null;
  source: AccountId;
  destination: AccountId;
  value: Amount;
}

export class CallContractBlock extends Block<CallContractData> {
  opcode: number | null;
  isExternal: boolean;

  constructor(node: EventNode) {
    // the stored opcode of a Telegram wallet request is a piece of its signature: the request's own follows it
    const opcode = tgWalletRequestOpcode(node.message.body) ?? node.getOpcode();
    super('call_contract', [node], {
      extra_currencies: node.message.valueExtraCurrencies,
      opcode,
      source: node.message.source,
      destination: node.message.destination,
      value: node.message.value,
    });
    this.failed = node.failed;
    this.isExternal = node.message.source === null;
    this.opcode = opcode;
    const ec = node.message.valueExtraCurrencies;
    // a call that moved no value (nor extra currencies) cannot fail anyone: not a failed action
    if (this.failed && !node.message.value && this.opcode && (ec === null || Object.keys(ec).length === 0)) this.failed = false;
    fillFlowFromNode(this.valueFlow, node);
    // a relayed signed request: the marker before the deploy child, as upstream appends them
    if (!this.isExternal && opcode !== null && GASLESS_REQUEST_OPCODES.has(opcode)) this.childrenBlocks.push(new GaslessRequestBlock(node));
    if (deploysContract(node)) this.childrenBlocks.push(new ContractDeploy(node));
  }

  override toString(): string {
    return `!${this.btype}:=0x${(this.opcode ?? 0).toString(16)}`;
  }
}

export interface ContractDeployData {
  opcode: number | null;
  source: AccountId;
  destination: AccountId;
  value: Amount;
}

export class ContractDeploy extends Block<ContractDeployData> {
  opcode: number | null;
  isExternal: boolean;

  constructor(node: EventNode) {
    super('contract_deploy', [node], {
      opcode: node.getOpcode(),
      source: node.message.source,
      destination: node.message.destination,
      value: node.message.value,
    });
    this.failed = node.failed;
    this.isExternal = node.message.source === null;
    this.opcode = node.getOpcode();
  }
}

export interface GaslessRequestData {
  source: AccountId;
  destination: AccountId;
  value: Amount;
}

/**
 * The marker of a signed wallet request a relayer delivered (and paid the gas of): the request's node, failed with
 * it, no opcode; its own action (`gasless_request`), and the actions that come straight from the request name it
 * as their `parent_gasless_action` (serializer.ts).
 */
export class GaslessRequestBlock extends Block<GaslessRequestData> {
  constructor(node: EventNode) {
    super('gasless_request', [node], { source: node.message.source, destination: node.message.destination, value: node.message.value });
    this.failed = node.failed;
  }
}

export class TickTockBlock extends Block<{ account: AccountId }> {
  isExternal: boolean;

  constructor(node: EventNode) {
    super('tick_tock', [node], { account: node.getTx()!.account });
    this.failed = node.failed;
    this.isExternal = node.message.source === null;
  }
}
