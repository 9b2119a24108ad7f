/**
 * Cocoon (decentralised AI inference) contract flows: worker / proxy payouts, proxy charges, client
 * top-ups, registrations and secret-hash changes. Each starts with one message to a Cocoon contract and
 * is confirmed by its answers (ReturnExcessesBack 0x2565934c, Payout 0xc59a7cd3, proxy requests).
 */
import { Address, ExternalAddress, type Slice } from '@ton/core';
import { childWithOp, makeBlock, type Block, type EventNode } from '../core.ts';
import type { Family } from '../family.ts';
import { loadAddr, parseBody, rawAddr } from '../toolkit/cells.ts';

const OP = {
  returnExcessesBack: 0x2565934c,
  payout: 0xc59a7cd3,
  workerProxyRequest: 0x4d725d2c,
  clientProxyRequest: 0x65448ff4,
  payoutPayload: 0xa040ad28,
  lastPayoutPayload: 0xf5f26a36,
  extProxyPayoutRequest: 0x7610e6eb,
  chargePayload: 0xbb63ff93,
  extClientTopUp: 0xf172e6c2,
  registerProxy: 0x927c7cb5,
  unregisterProxy: 0x6d49eaf2,
  ownerClientRegister: 0xc45f9f3b,
  ownerClientChangeSecretHash: 0xa9357034,
} as const;

/** `address` that may be an external address, rendered as the reference does (`<len>;<hex>`). */
function loadAnyAddr(s: Slice): string | null {
  const a = s.loadAddressAny();
  if (a instanceof Address) return rawAddr(a);
  if (a instanceof ExternalAddress) return `${a.bits};${a.value.toString(16)}`;
  return null;
}

function body<T>(n: EventNode, op: number, read: (s: Slice) => T): T | null {
  // the decoded opcode rules out almost every message before its BoC is parsed (parsing every body was a third
  // of the ingest pipeline's CPU time)
  if (n.msg?.opcode !== op) return null;
  return parseBody(n.msg?.body, (s) => {
    if (s.loadUint(32) !== op) throw new Error('opcode mismatch');
    return read(s);
  });
}

function nodesOf(...ns: (EventNode | undefined)[]): EventNode[] {
  return ns.filter((x): x is EventNode => x !== undefined);
}

function workerPayout(n: EventNode): Block | null {
  const op = n.msg?.opcode;
  if (op !== OP.payoutPayload && op !== OP.lastPayoutPayload) return null;
  const p = body(n, op, (s) => ({ queryId: s.loadUintBig(64), newTokens: s.loadUintBig(64), expected: loadAnyAddr(s) }));
  const req = childWithOp(n, OP.workerProxyRequest);
  if (!p || !req) return null;
  const r = body(req, OP.workerProxyRequest, (s) => ({ queryId: s.loadUintBig(64), owner: loadAddr(s), state: s.loadUint(2), tokens: s.loadUintBig(64) }));
  const payout = childWithOp(req, OP.payout);
  if (!r || !payout) return null;
  const payoutType = op === OP.lastPayoutPayload ? 'last' : 'regular';
  const data = {
    proxy_contract: n.msg!.source, worker_contract: n.msg!.destination, worker_owner: r.owner, payout_type: payoutType,
    query_id: p.queryId, new_tokens: p.newTokens, expected_address: p.expected, payout_amount: payout.msg!.value,
    worker_state: r.state, worker_tokens: r.tokens,
  };
  const b = makeBlock('cocoon_worker_payout', nodesOf(n, req, payout, childWithOp(req, OP.returnExcessesBack)), {
    source: data.proxy_contract,
    source_secondary: data.worker_contract,
    destination: r.owner,
    amount: payout.msg!.value,
    cocoon_worker_payout_data: {
      payout_type: payoutType, query_id: p.queryId, new_tokens: p.newTokens, expected_address: p.expected,
      worker_state: r.state, worker_tokens: r.tokens,
    },
  }, { data });
  b.failed = payout.tx.aborted;
  return b;
}

function proxyPayout(n: EventNode): Block | null {
  const p = body(n, OP.extProxyPayoutRequest, (s) => ({ queryId: s.loadUintBig(64), excesses: loadAddr(s) }));
  const payout = childWithOp(n, OP.payout);
  const exc = childWithOp(n, OP.returnExcessesBack);
  if (!p || !payout || !exc) return null;
  const data = { proxy_contract: n.msg!.destination, proxy_owner: payout.msg!.destination, excesses_recipient: p.excesses, query_id: p.queryId };
  const b = makeBlock('cocoon_proxy_payout', [n, payout, exc], {
    source: data.proxy_contract,
    destination: data.proxy_owner,
    destination_secondary: p.excesses,
    cocoon_proxy_payout_data: { query_id: p.queryId },
  }, { data });
  b.failed = payout.tx.aborted;
  return b;
}

function proxyCharge(n: EventNode): Block | null {
  const p = body(n, OP.chargePayload, (s) => ({ queryId: s.loadUintBig(64), used: s.loadUintBig(64), expected: loadAnyAddr(s) }));
  const exc = childWithOp(n, OP.returnExcessesBack);
  const req = childWithOp(n, OP.clientProxyRequest);
  if (!p || !exc || !req) return null;
  const data = {
    proxy_contract: n.msg!.destination, client_contract: req.msg!.destination, query_id: p.queryId,
    new_tokens_used: p.used, expected_address: p.expected,
  };
  const b = makeBlock('cocoon_proxy_charge', [n, exc, req], {
    source: data.proxy_contract,
    destination: data.client_contract,
    amount: 0n,
    cocoon_proxy_charge_data: { query_id: p.queryId, new_tokens_used: p.used, expected_address: p.expected },
  }, { data });
  b.failed = n.tx.aborted;
  return b;
}

function clientTopUp(n: EventNode): Block | null {
  const p = body(n, OP.extClientTopUp, (s) => ({ queryId: s.loadUintBig(64), amount: s.loadCoins(), sender: loadAddr(s) }));
  const req = childWithOp(n, OP.clientProxyRequest);
  const exc = req && childWithOp(req, OP.returnExcessesBack);
  if (!p || !req || !exc) return null;
  const data = { client_contract: n.msg!.destination, proxy_contract: req.msg!.destination, sender: p.sender, query_id: p.queryId, top_up_amount: p.amount };
  const b = makeBlock('cocoon_client_top_up', [n, req, exc], {
    source: p.sender,
    destination: data.client_contract,
    destination_secondary: data.proxy_contract,
    amount: p.amount,
    cocoon_client_top_up_data: { query_id: p.queryId },
  }, { data });
  b.failed = n.tx.aborted;
  return b;
}

function registerProxy(n: EventNode): Block | null {
  const p = body(n, OP.registerProxy, (s) => ({ queryId: s.loadUintBig(64) }));
  const exc = childWithOp(n, OP.returnExcessesBack);
  if (!p || !exc) return null;
  const data = { root_contract: n.msg!.destination, query_id: p.queryId };
  const b = makeBlock('cocoon_register_proxy', [n, exc], {
    source: n.msg!.source,
    destination: data.root_contract,
    cocoon_register_proxy_data: { query_id: p.queryId },
  }, { data });
  b.failed = n.tx.aborted;
  return b;
}

function unregisterProxy(n: EventNode): Block | null {
  const p = body(n, OP.unregisterProxy, (s) => ({ queryId: s.loadUintBig(64), seqno: s.loadUint(32) }));
  const exc = childWithOp(n, OP.returnExcessesBack);
  if (!p || !exc) return null;
  const data = { root_contract: n.msg!.destination, query_id: p.queryId, seqno: p.seqno };
  const b = makeBlock('cocoon_unregister_proxy', [n, exc], {
    source: n.msg!.source,
    destination: data.root_contract,
    cocoon_unregister_proxy_data: { query_id: p.queryId, seqno: p.seqno },
  }, { data });
  b.failed = n.tx.aborted;
  return b;
}

function clientRegister(n: EventNode): Block | null {
  const p = body(n, OP.ownerClientRegister, (s) => ({ queryId: s.loadUintBig(64), nonce: s.loadUintBig(64), owner: loadAddr(s) }));
  const exc = childWithOp(n, OP.returnExcessesBack);
  const req = childWithOp(n, OP.clientProxyRequest);
  if (!p || !exc || !req) return null;
  const data = { client_contract: n.msg!.destination, owner: p.owner, query_id: p.queryId, nonce: p.nonce };
  const b = makeBlock('cocoon_client_register', [n, exc, req], {
    source: p.owner,
    destination: data.client_contract,
    cocoon_client_register_data: { query_id: p.queryId, nonce: p.nonce },
  }, { data });
  b.failed = n.tx.aborted;
  return b;
}

function clientChangeSecretHash(n: EventNode): Block | null {
  const p = body(n, OP.ownerClientChangeSecretHash, (s) => ({ queryId: s.loadUintBig(64), hash: s.loadUintBig(256), owner: loadAddr(s) }));
  const exc = childWithOp(n, OP.returnExcessesBack);
  const req = childWithOp(n, OP.clientProxyRequest);
  if (!p || !exc || !req) return null;
  const data = { client_contract: n.msg!.destination, owner: p.owner, query_id: p.queryId, new_secret_hash: p.hash };
  const b = makeBlock('cocoon_client_change_secret_hash', [n, exc, req], {
    source: p.owner,
    destination: data.client_contract,
    cocoon_client_change_secret_hash_data: { query_id: p.queryId, new_secret_hash: p.hash.toString(16).padStart(64, '0') },
  }, { data });
  b.failed = n.tx.aborted;
  return b;
}

const MATCHERS = [workerPayout, proxyPayout, proxyCharge, clientTopUp, registerProxy, unregisterProxy, clientRegister, clientChangeSecretHash];

export const cocoonFamily: Family = {
  name: 'cocoon',
  match(n) {
    if (n.extOut || !n.msg) return null;
    for (const m of MATCHERS) {
      const b = m(n);
      if (b) return b;
    }
    return null;
  },
};
