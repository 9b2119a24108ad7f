/**
 * Multisig v2 (ton-blockchain/multisig-contract-v2): create order, approve, execute.
 * - new_order#f718510f query_id:uint64 order_seqno:uint256 signer:(## 1) index:uint8 expiration_date:uint48
 *   order:^Order, from a signer/proposer to the multisig, which deploys the order contract with
 *   init#9c73fba2 query_id:uint64 threshold:uint8 signers:^(Hashmap 8 MsgAddressInt) expiration_date:uint48
 *   order:^Order approve_on_init:(## 1) signer_index:approve_on_init?uint8.
 * - approve#a762230f query_id:uint64 signer_index:uint8 (or the text comment "approve") from a signer to the
 *   order, answered approve_accepted#82609bf6 query_id:uint64 or approve_rejected#afaf283e query_id:uint64
 *   exit_code:uint32 back to the signer.
 * - execute#75097f5d query_id:uint64 order_seqno:uint256 expiration_date:uint48 approvals_num:uint8
 *   signers_hash:bits256 order:^Order, from the order to the multisig once the threshold is reached.
 * The reference also lists the order's signers (interface lookup of the order contract); a trace does not carry
 * them, so `accounts` has only the accounts of the messages. The order contract is identified by its answers
 * (approve) or by the multisig deploying it (create), not by an interface lookup.
 */
import { childWithOp, makeBlock, type Block, type EventNode } from '../core.ts';
import type { Family } from '../family.ts';
import { bocB64, cellFromBoc, commentText, decodeComment, parseBody } from '../toolkit/cells.ts';
import { OP as COMMON } from '../toolkit/opcodes.ts';

export const MULTISIG_OP = {
  newOrder: 0xf718510f,
  init: 0x9c73fba2,
  approve: 0xa762230f,
  approveAccepted: 0x82609bf6,
  approveRejected: 0xafaf283e,
  execute: 0x75097f5d,
} as const;

const b64 = (b: Buffer) => b.toString('base64');

function createOrder(n: EventNode): Block | null {
  if (n.extOut || n.msg?.opcode !== MULTISIG_OP.newOrder || !n.msg.source) return null;
  const init = childWithOp(n, MULTISIG_OP.init);
  const req = parseBody(n.msg.body, (s) => {
    s.loadUint(32);
    const queryId = s.loadUintBig(64);
    const orderSeqno = s.loadUintBig(256);
    const isSigner = s.loadBit();
    const index = s.loadUint(8);
    const expiration = s.loadUint(48);
    s.loadRef();
    return { queryId, orderSeqno, isSigner, index, expiration };
  });
  const deploy = init && parseBody(init.msg!.body, (s) => {
    s.loadUint(32);
    s.loadUintBig(64);
    s.loadUint(8);
    s.loadRef();
    s.loadUint(48);
    const order = s.loadRef();
    return { order: bocB64(order), approveOnInit: s.loadBit() };
  });
  if (!init || !req || !deploy) return null;
  const b = makeBlock('multisig_create_order', [n, init], {
    source: n.msg.source,
    destination: n.msg.destination,
    destination_secondary: init.msg!.destination,
    multisig_create_order_data: {
      query_id: req.queryId,
      order_seqno: req.orderSeqno,
      is_created_by_signer: req.isSigner,
      is_signed_by_creator: deploy.approveOnInit,
      creator_index: req.index,
      expiration_date: req.expiration,
      order_boc: deploy.order,
    },
  });
  b.failed = n.tx.aborted || init.tx.aborted;
  return b;
}

function isApproveComment(n: EventNode): boolean {
  const { comment, encrypted } = decodeComment(cellFromBoc(n.msg?.body));
  return !encrypted && comment !== null && commentText(comment) === 'approve';
}

function approve(n: EventNode): Block | null {
  if (n.extOut || !n.msg?.source) return null;
  const byOpcode = n.msg.opcode === MULTISIG_OP.approve;
  if (!byOpcode && n.msg.opcode !== COMMON.textComment) return null;
  // the order answers the signer: that answer is what makes this an order approval
  const answer = n.children.find((c) => !c.extOut && c.msg?.destination === n.msg!.source
    && (c.msg?.opcode === MULTISIG_OP.approveAccepted || c.msg?.opcode === MULTISIG_OP.approveRejected));
  if (!answer || (!byOpcode && !isApproveComment(n))) return null;
  const accepted = answer.msg!.opcode === MULTISIG_OP.approveAccepted;
  // a comment carries no signer index (-1, as the reference)
  const signerIndex = byOpcode ? parseBody(n.msg.body, (s) => { s.loadUint(32); s.loadUintBig(64); return s.loadUint(8); }) : -1;
  const exitCode = accepted ? 0 : parseBody(answer.msg!.body, (s) => { s.loadUint(32); s.loadUintBig(64); return s.loadUint(32); });
  if (signerIndex === null || exitCode === null) return null;
  const b = makeBlock('multisig_approve', [n, answer], {
    source: n.msg.source,
    destination: n.msg.destination,
    multisig_approve_data: { signer_index: signerIndex, exit_code: exitCode },
  });
  b.failed = !accepted;
  return b;
}

function execute(n: EventNode): Block | null {
  if (n.extOut || n.msg?.opcode !== MULTISIG_OP.execute || !n.msg.source) return null;
  const p = parseBody(n.msg.body, (s) => {
    s.loadUint(32);
    const queryId = s.loadUintBig(64);
    const orderSeqno = s.loadUintBig(256);
    const expiration = s.loadUint(48);
    const approvals = s.loadUint(8);
    const signersHash = s.loadBuffer(32);
    const order = s.loadRef();
    if (s.remainingBits !== 0 || s.remainingRefs !== 0) throw new Error('trailing data');
    return { queryId, orderSeqno, expiration, approvals, signersHash, order };
  });
  if (!p) return null;
  const b = makeBlock('multisig_execute', [n], {
    source: n.msg.source,
    destination: n.msg.destination,
    multisig_execute_data: {
      query_id: p.queryId,
      order_seqno: p.orderSeqno,
      expiration_date: p.expiration,
      approvals_num: p.approvals,
      signers_hash: b64(p.signersHash),
      order_boc: bocB64(p.order),
    },
  });
  b.failed = n.tx.aborted;
  return b;
}

export const multisigFamily: Family = {
  name: 'multisig',
  match: (n) => createOrder(n) ?? approve(n) ?? execute(n),
};
