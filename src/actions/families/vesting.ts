/**
 * Vesting wallet: send_message 0xa7733acd (answered 0xf7733acd) and add_whitelist 0x7258a69b
 * (answered 0xf258a69b), both from the vesting owner / creator to the vesting contract.
 */
import { loadMessageRelaxed } from '@ton/core';
import { childWithOp, makeBlock, type Block, type EventNode } from '../core.ts';
import type { Family } from '../family.ts';
import { bocB64, loadAddr, parseBody, rawAddr } from '../toolkit/cells.ts';

const SEND_MESSAGE = 0xa7733acd, SEND_MESSAGE_RESP = 0xf7733acd;
const ADD_WHITELIST = 0x7258a69b, ADD_WHITELIST_RESP = 0xf258a69b;

function sendMessage(n: EventNode): Block | null {
  if (n.msg?.opcode !== SEND_MESSAGE || n.extOut || !n.msg.source) return null;
  const p = parseBody(n.msg.body, (s) => {
    s.loadUint(32);
    const queryId = s.loadUintBig(64);
    s.loadUint(8);
    const cell = s.loadRef();
    const m = loadMessageRelaxed(cell.beginParse());
    const dest = m.info.type === 'internal' ? rawAddr(m.info.dest) : null;
    const value = m.info.type === 'internal' ? m.info.value.coins : null;
    return { queryId, boc: bocB64(cell), dest, value };
  });
  if (!p) return null;
  const resp = childWithOp(n, SEND_MESSAGE_RESP);
  const b = makeBlock('vesting_send_message', [n, ...(resp ? [resp] : [])], {
    source: n.msg.source,
    destination: n.msg.destination,
    destination_secondary: p.dest,
    amount: p.value,
    vesting_send_message_data: { query_id: p.queryId, message_boc: p.boc },
  });
  b.failed = n.tx.aborted;
  return b;
}

function addWhitelist(n: EventNode): Block | null {
  if (n.msg?.opcode !== ADD_WHITELIST || n.extOut || !n.msg.source) return null;
  const p = parseBody(n.msg.body, (s) => {
    s.loadUint(32);
    const queryId = s.loadUintBig(64);
    const addrs: (string | null)[] = [];
    let cur = s;
    while (cur.remainingRefs > 0) {
      addrs.push(loadAddr(cur));
      cur = cur.loadRef().beginParse();
    }
    addrs.push(loadAddr(cur));
    return { queryId, addrs };
  });
  if (!p) return null;
  const resp = childWithOp(n, ADD_WHITELIST_RESP);
  const b = makeBlock('vesting_add_whitelist', [n, ...(resp ? [resp] : [])], {
    source: n.msg.source,
    destination: n.msg.destination,
    vesting_add_whitelist_data: { query_id: p.queryId, accounts_added: p.addrs },
  });
  b.failed = n.tx.aborted;
  return b;
}

export const vestingFamily: Family = {
  name: 'vesting',
  match: (n) => sendMessage(n) ?? addWhitelist(n),
};
