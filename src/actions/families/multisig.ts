/**
 * ↔ indexer/events/blocks/multisig.py: multisig v2 order creation (new_order -> the order contract's init), approval
 * (by opcode or by the "approve" comment; accepted or rejected with an exit code) and execution (order -> multisig).
 * Each needs the order contract's record (its signers land among the action's accounts); without it nothing is built.
 */
import { CallContractBlock, TonTransferBlock } from '../basic-blocks.ts';
import type { MultisigApproveData, MultisigCreateOrderData, MultisigExecuteData } from '../block-data.ts';
import { getLabeled } from '../block-utils.ts';
import { interfaceRepository } from '../context.ts';
import { Block } from '../core.ts';
import { labeled } from '../labels.ts';
import { BlockMatcher, ContractMatcher, OrMatcher } from '../matchers.ts';
import { MultisigApprove, MultisigApproveAccepted, MultisigApproveRejected, MultisigExecute, MultisigInitOrder, MultisigNewOrder } from '../messages/multisig.ts';
import { accountId } from '../ton-utils.ts';

/** pytoniq's `Cell.to_boc()`: no index, no crc32c. */
const boc = (c: { toBoc(o: { idx: boolean; crc32: boolean }): Buffer }) => c.toBoc({ idx: false, crc32: false }).toString('base64');

export class MultisigCreateOrderBlock extends Block<MultisigCreateOrderData> {
  constructor(data: MultisigCreateOrderData) {
    super('multisig_create_order', [], data);
  }
}

export class MultisigApproveBlock extends Block<MultisigApproveData> {
  constructor(data: MultisigApproveData) {
    super('multisig_approve', [], data);
  }
}

export class MultisigExecuteBlock extends Block<MultisigExecuteData> {
  constructor(data: MultisigExecuteData) {
    super('multisig_execute', [], data);
  }
}

export class MultisigCreateOrderBlockMatcher extends BlockMatcher {
  constructor() {
    super({ childMatcher: labeled('init_order', new ContractMatcher(MultisigInitOrder.opcode, { optional: false })) });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === MultisigNewOrder.opcode;
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const included: Block[] = [block];
    const initMsg = block.getMessage();
    const init = new MultisigNewOrder(block.getBody());
    const deploy = getLabeled('init_order', otherBlocks, CallContractBlock);
    if (deploy === null) throw new Error('assert deploy_block is not None');
    included.push(deploy);
    const deployMsg = deploy.getMessage();
    const deployData = new MultisigInitOrder(deploy.getBody());
    const order = interfaceRepository(block).getMultisigOrder(deployMsg.destination);
    if (order === null) return [];
    const newBlock = new MultisigCreateOrderBlock({
      query_id: init.queryId,
      multisig: accountId(initMsg.destination),
      order_seqno: init.orderSeqno,
      created_by: accountId(initMsg.source),
      is_created_by_signer: init.isSigner,
      creator_index: init.signerIndex,
      order_contract_address: accountId(deployMsg.destination),
      creator_approved: deployData.approveOnInit,
      expiration_date: init.expirationDate,
      order_boc_str: boc(deployData.order),
      // passed as is (upstream has no `or []` here): a record without signers fails the serializer, and the trace
      signers: order.signers as string[],
    });
    newBlock.mergeBlocks(included);
    return [newBlock];
  }
}

export class MultisigApproveBlockMatcher extends BlockMatcher {
  constructor() {
    super({
      childMatcher: new OrMatcher([
        labeled('accepted', new ContractMatcher(MultisigApproveAccepted.opcode, { optional: false })),
        labeled('rejected', new ContractMatcher(MultisigApproveRejected.opcode, { optional: false })),
      ]),
    });
  }

  override testSelf(block: Block): boolean {
    return (block instanceof CallContractBlock && block.opcode === MultisigApprove.opcode) || (block instanceof TonTransferBlock && block.comment === MultisigApprove.comment);
  }

  override buildBlock(block: Block, otherBlocks: Block[]): Block[] {
    const included: Block[] = [block];
    const accepted = getLabeled('accepted', otherBlocks, CallContractBlock);
    let exitCode = 0; // no exit code when accepted
    if (accepted === null) {
      const rejected = getLabeled('rejected', otherBlocks, CallContractBlock);
      if (rejected === null) return [];
      exitCode = new MultisigApproveRejected(rejected.getBody()).exitCode;
      included.push(rejected);
    } else {
      included.push(accepted);
    }
    // a vote by comment has no signer index
    let signerIndex: number;
    try {
      signerIndex = new MultisigApprove(block.getBody()).signerIndex;
    } catch {
      signerIndex = -1;
    }
    const msg = block.getMessage();
    const order = interfaceRepository(block).getMultisigOrder(msg.destination);
    if (order === null) return [];
    const newBlock = new MultisigApproveBlock({
      signer: accountId(msg.source),
      order: accountId(msg.destination),
      success: accepted !== null,
      signer_index: signerIndex,
      exit_code: exitCode,
      signers: order.signers ?? [],
    });
    newBlock.mergeBlocks(included);
    return [newBlock];
  }
}

export class MultisigExecuteBlockMatcher extends BlockMatcher {
  constructor() {
    super();
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === MultisigExecute.opcode;
  }

  override buildBlock(block: Block, _otherBlocks: Block[]): Block[] {
    const exec = new MultisigExecute(block.getBody());
    const msg = block.getMessage();
    const order = interfaceRepository(block).getMultisigOrder(msg.source);
    if (order === null) return [];
    const newBlock = new MultisigExecuteBlock({
      query_id: exec.queryId,
      multisig: accountId(msg.destination),
      success: !block.failed,
      order_contract_address: accountId(msg.source),
      order_seqno: exec.orderSeqno,
      expiration_date: exec.expirationDate,
      approvals_num: exec.approvalsNum,
      signers_hash_str: exec.signersHash.toString('base64'),
      order_boc_str: boc(exec.order),
      signers: order.signers ?? [],
    });
    newBlock.mergeBlocks([block]);
    return [newBlock];
  }
}

/** This family's matchers under upstream's class names (families/index.ts, matcher-order.ts). */
export const MATCHERS = {
  MultisigCreateOrderBlockMatcher: new MultisigCreateOrderBlockMatcher(),
  MultisigApproveBlockMatcher: new MultisigApproveBlockMatcher(),
  MultisigExecuteBlockMatcher: new MultisigExecuteBlockMatcher(),
};
