/**
 * Multisig v2 wallets and orders -> `multisig` / `multisig_orders` rows, from their exact data layouts
 * (src/contracts/multisig.ts), so that a state whose code is pruned from the block still yields a row.
 * A multisig with arbitrary order seqnos has no next seqno: stored as NULL (the reference stores -1).
 * Signer / proposer dictionaries the block pruned (they change rarely) come from the previous row.
 */
import { parseMultisigData, parseOrderData } from '../contracts/index.ts';
import { stateColumns, type EntityRow, type FamilyInput } from './family.ts';

export function readMultisig({ state, data }: FamilyInput): EntityRow | null {
  const d = parseMultisigData(data);
  if (!d) return null;
  const unknown: string[] = [];
  if (d.signers === null) unknown.push('signers');
  if (d.proposers === null) unknown.push('proposers');
  return {
    table: 'multisig',
    row: { address: state.account, next_order_seqno: d.nextOrderSeqno, threshold: d.threshold, signers: d.signers ?? [], proposers: d.proposers ?? [], ...stateColumns(state) },
    unknown,
  };
}

export function readMultisigOrder({ state, data }: FamilyInput): EntityRow | null {
  const d = parseOrderData(data);
  if (!d) return null;
  const i = d.init;
  const orderWhole = i ? i.order.level() === 0 : true;
  const unknown: string[] = [];
  if (i && i.signers === null) unknown.push('signers');
  if (!orderWhole) unknown.push('order_boc');
  return {
    table: 'multisig_orders',
    row: {
      address: state.account,
      multisig_address: d.multisig,
      order_seqno: d.orderSeqno,
      threshold: i?.threshold ?? null,
      sent_for_execution: i?.executed ?? null,
      approvals_mask: i?.approvalsMask ?? null,
      approvals_num: i?.approvalsNum ?? null,
      expiration_date: i?.expirationDate ?? null,
      order_boc: i && orderWhole ? i.order.toBoc().toString('base64') : null,
      signers: i?.signers ?? [],
      ...stateColumns(state),
    },
    unknown,
  };
}
