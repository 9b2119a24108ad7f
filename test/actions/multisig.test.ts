// Multisig v2 actions on real messages:
// - approve + execute: toncenter's "Tonco deploy pools" trace (mainnet), where a signer approves an order with
//   the text comment "approve", the order answers approve_accepted and, at its threshold, sends execute to the
//   multisig, which then creates the five TONCO pools (tonco.yaml names the multisig as their deployer);
// - create order: ton4j's new_order transaction (localnet, TestTlbTransactionReader.java): the multisig receives
//   new_order and deploys the order with init. The order's own transaction is not in the fixture: it is built
//   here around the real init message (body and StateInit as the multisig sent them).
// Expected values are read from the message bodies with multisig-contract-v2's TL-B, independently of the parser.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { classifyTrace, parseJsonExact, toApiAction, traceFromToncenterJson, type Trace } from '../../src/actions/index.ts';
import { decodeTransaction } from '../../src/ton/index.ts';
import { toTraceMessage, toTraceTransaction } from '../../src/traces/to-trace.ts';

const FIX = new URL('../fixtures/', import.meta.url).pathname;

describe('multisig approve and execute (mainnet trace 4Zs27…)', () => {
  const trace = traceFromToncenterJson(parseJsonExact(readFileSync(join(FIX, 'traces/toncenter-indexer/json/4Zs27oXglTqSa90MBUaUOxgYCXpLG7JLnLQKw+CGiws=.json'), 'utf8')));
  const { actions } = classifyTrace(trace);
  const SIGNER = '0:91BB0203A603C4F1F96EAF386F72847C542756B826658E3723001D084CFDF982';
  const ORDER = '0:7D6BF172074583A580E49475E024A710FF8365E5D300DD8D91847F27B2A37701';
  const MULTISIG = '0:911177BF27ED7FCD01D143160ACD1BBC31452506F7B893F4C57495449E12142D';

  it('the "approve" comment answered with approve_accepted is a successful multisig_approve', () => {
    const a = actions.filter((x) => x.type === 'multisig_approve');
    expect(a).toHaveLength(1);
    expect(a[0].success).toBe(true);
    // a comment carries no signer index: -1, as the reference
    expect(toApiAction(a[0]).details).toEqual({ signer_index: -1, exit_code: 0, source: SIGNER, destination: ORDER });
    // the approval's own transactions: the order receiving it and the signer receiving the answer (+ the signer's send)
    const orderTx = trace.transactions.find((t) => t.account === ORDER)!;
    expect(a[0].tx_hashes).toContain(orderTx.hash);
    // the comment stays visible to v1 clients only as the approval's child (multisig_* are not v1 types, §4.2)
    const plain = actions.filter((x) => x.type === 'ton_transfer' && x.destination === ORDER);
    expect(plain.map((x) => [x.parent_action_id, x.ancestor_type])).toEqual([[a[0].action_id, ['multisig_approve']]]);
  });

  it('execute: fields of execute#75097f5d read from the body', () => {
    const msg = trace.transactions.find((t) => t.account === MULTISIG && t.inMsg?.source === ORDER)!.inMsg!;
    const s = Cell.fromBase64(msg.body!).beginParse();
    expect(s.loadUint(32)).toBe(0x75097f5d);
    const queryId = s.loadUintBig(64), seqno = s.loadUintBig(256), expiration = s.loadUint(48), approvals = s.loadUint(8);
    const signersHash = s.loadBuffer(32).toString('base64');
    const order = s.loadRef();
    const e = actions.filter((x) => x.type === 'multisig_execute');
    expect(e).toHaveLength(1);
    const d = toApiAction(e[0]).details;
    expect(d).toMatchObject({
      query_id: queryId.toString(), order_seqno: seqno.toString(), expiration_date: expiration, approvals_num: approvals,
      signers_hash: signersHash, source: ORDER, destination: MULTISIG,
    });
    expect(Cell.fromBase64(d.order_boc as string).hash().equals(order.hash())).toBe(true);
    // the order held one approval (threshold 1) and five create-pool messages: five dictionary entries
    expect(approvals).toBe(1);
    // the pools the order created stay TONCO actions of their own
    expect(actions.filter((x) => x.type === 'tonco_deploy_pool')).toHaveLength(5);
  });
});

describe('multisig create order (ton4j new_order transaction)', () => {
  const boc = readFileSync(join(FIX, 'txs/from-repos/neodix42_ton4j-tx-generic-internal-f718510f-lt2000002-3dc730b4.boc'));
  const multisigTx = toTraceTransaction(decodeTransaction(boc, 0), 1);
  const initRow = decodeTransaction(boc, 0).out_msgs[0];
  const initMsg = toTraceMessage(initRow);
  // the order contract receiving the real init message (its transaction is not in the fixture)
  const orderTx = {
    ...multisigTx, hash: 'ab'.repeat(32), account: initMsg.destination!, lt: initMsg.createdLt! + 1n,
    origStatus: 'nonexist', endStatus: 'active', inMsg: initMsg, outMsgs: [],
  };
  const trace: Trace = {
    traceId: multisigTx.hash, externalHash: null, mcSeqnoStart: 1, mcSeqnoEnd: 1,
    startLt: multisigTx.lt, endLt: orderTx.lt, startUtime: multisigTx.now, endUtime: multisigTx.now,
    transactions: [multisigTx, orderTx],
  };

  it('new_order + init: a multisig_create_order whose fields are the bodies\' (TL-B of multisig-contract-v2)', () => {
    const req = Cell.fromBase64(multisigTx.inMsg!.body!).beginParse();
    expect(req.loadUint(32)).toBe(0xf718510f);
    const queryId = req.loadUintBig(64), seqno = req.loadUintBig(256), isSigner = req.loadBit(), index = req.loadUint(8), expiration = req.loadUint(48);
    const init = Cell.fromBase64(initMsg.body!).beginParse();
    expect(init.loadUint(32)).toBe(0x9c73fba2);
    init.skip(64 + 8);
    init.loadRef();
    init.skip(48);
    const order = init.loadRef();
    const approveOnInit = init.loadBit();

    const { actions } = classifyTrace(trace);
    const c = actions.filter((a) => a.type === 'multisig_create_order');
    expect(c).toHaveLength(1);
    const d = toApiAction(c[0]).details;
    expect(d).toMatchObject({
      query_id: queryId.toString(), order_seqno: seqno.toString(), is_created_by_signer: isSigner, is_signed_by_creator: approveOnInit,
      creator_index: index, expiration_date: expiration,
      source: multisigTx.inMsg!.source, destination: multisigTx.account, destination_order: orderTx.account,
    });
    expect(Cell.fromBase64(d.order_boc as string).hash().equals(order.hash())).toBe(true);
    // the order deploys: its contract_deploy is reported next to the create order
    expect(actions.map((a) => a.type)).toContain('contract_deploy');
  });

  it('a new_order whose init reaches no order contract is not a create order', () => {
    const alone: Trace = { ...trace, transactions: [multisigTx], endLt: multisigTx.lt };
    expect(classifyTrace(alone).actions.map((a) => a.type)).not.toContain('multisig_create_order');
  });
});
