/**
 * Validator elections (elector-code.fc, ton-blockchain/ton crypto/smartcont):
 * - election_deposit: new_stake 0x4e73744b to the elector, answered to the sender with the confirmation
 *   0xf374484c (accepted) or return_stake 0xee6f454c (refused: failed);
 * - election_recover: recover_stake 0x47657424 to the elector, answered with 0xf96f7324 (the credit, carried as
 *   the answer's value) or 0xfffffffe (nothing to recover: failed).
 * The reference checks the destination against the elector's address; the address is ConfigParam 1, which the
 * classifier does not see, so the elector is recognised by what only it does: a masterchain account answering
 * the request with one of its answer opcodes. A deposit the elector accepts silently (query_id 0 gets no
 * confirmation) therefore stays a call_contract.
 */
import { makeBlock, type Block, type EventNode } from '../core.ts';
import type { Family } from '../family.ts';
import { OP } from '../toolkit/opcodes.ts';

const RETURN_STAKE = 0xee6f454c;
const RECOVER_ERROR = 0xfffffffe;

function answer(n: EventNode, ops: readonly number[]): EventNode | undefined {
  return n.children.find((c) => !c.extOut && c.msg?.destination === n.msg!.source && ops.includes(c.msg?.opcode ?? -1));
}

function toElector(n: EventNode, op: number): boolean {
  return !n.extOut && n.msg?.opcode === op && !!n.msg.source && !!n.msg.destination?.startsWith('-1:');
}

function deposit(n: EventNode): Block | null {
  if (!toElector(n, OP.electorNewStake)) return null;
  const ans = answer(n, [OP.electorNewStakeOk, RETURN_STAKE]);
  if (!ans) return null;
  const b = makeBlock('election_deposit', [n, ans], { source: n.msg!.source, amount: n.msg!.value });
  b.failed = ans.msg!.opcode !== OP.electorNewStakeOk;
  return b;
}

function recover(n: EventNode): Block | null {
  if (!toElector(n, OP.electorRecover)) return null;
  const ans = answer(n, [OP.electorRecoverOk, RECOVER_ERROR]);
  if (!ans) return null;
  const ok = ans.msg!.opcode === OP.electorRecoverOk;
  // the amount is what the elector paid back; a refused recover has none
  const b = makeBlock('election_recover', [n, ans], { source: n.msg!.source, amount: ok ? ans.msg!.value : null });
  b.failed = !ok;
  return b;
}

export const electionsFamily: Family = { name: 'elections', match: (n) => deposit(n) ?? recover(n) };
