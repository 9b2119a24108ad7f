/**
 * Generic actions every node falls back to: ton_transfer (plain / text / encrypted comment),
 * call_contract, tick_tock, and contract_deploy for nodes that activate an account.
 */
import { makeBlock, type Block, type EventNode } from '../core.ts';
import { commentText, decodeComment, cellFromBoc } from '../toolkit/cells.ts';
import { OP } from '../toolkit/opcodes.ts';

export function isTonTransferNode(n: EventNode): boolean {
  const m = n.msg;
  if (!m || n.extOut || m.source === null || m.destination === null) return false;
  return m.opcode === null || m.opcode === OP.textComment || m.opcode === OP.encryptedComment;
}

export function tonTransferBlock(n: EventNode): Block {
  const m = n.msg!;
  const { comment, encrypted } = decodeComment(cellFromBoc(m.body));
  const content = comment === null ? null : encrypted ? comment.toString('base64') : commentText(comment);
  const b = makeBlock('ton_transfer', [n], {
    source: m.source,
    destination: m.destination,
    value: m.value,
    value_extra_currencies: m.valueExtraCurrencies ?? {},
    ton_transfer_data: { content, encrypted },
  }, { data: { source: m.source, destination: m.destination, value: m.value, comment: content, encrypted } });
  if (n.tx.aborted) {
    if (m.bounce === true) b.failed = true;
    else if (n.tx.endStatus === 'uninit') b.failed = false;
    else b.failed = true;
  }
  return b;
}

export function callContractBlock(n: EventNode): Block {
  const m = n.msg!;
  const b = makeBlock('call_contract', [n], {
    opcode: m.opcode,
    source: m.source,
    destination: m.destination,
    value: m.value,
    value_extra_currencies: m.valueExtraCurrencies ?? {},
  });
  b.failed = !n.extOut && n.tx.aborted;
  const hasEc = m.valueExtraCurrencies && Object.keys(m.valueExtraCurrencies).length > 0;
  if (b.failed && !m.value && m.opcode && !hasEc) b.failed = false;
  return b;
}

export function deploys(n: EventNode): boolean {
  return !n.extOut && n.tx.endStatus === 'active' && n.tx.origStatus !== 'active' && n.tx.origStatus !== 'frozen';
}

export function contractDeployBlock(n: EventNode): Block {
  const m = n.msg;
  const b = makeBlock('contract_deploy', [n], {
    opcode: m?.opcode ?? null,
    source: m?.source ?? null,
    destination: m?.destination ?? null,
    value: m?.value ?? null,
  });
  b.failed = n.tx.aborted;
  return b;
}

export function tickTockBlock(n: EventNode): Block {
  const b = makeBlock('tick_tock', [n], { source: n.tx.account });
  b.failed = n.tx.aborted;
  return b;
}

/** The basic block of a node, or null for nodes that never become actions on their own (externals). */
export function basicBlock(n: EventNode): Block | null {
  if (n.tickTock) return tickTockBlock(n);
  if (!n.msg) return null;
  if (isTonTransferNode(n)) return tonTransferBlock(n);
  if (n.msg.source === null || n.msg.destination === null) return null;
  return callContractBlock(n);
}
