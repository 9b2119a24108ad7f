// multisig.py: order creation, approval (by opcode or by comment; accepted or rejected) and execution, each needing
// the order contract's record (its signers go to the action's accounts). No fixture has multisig v2 messages (see
// test/fixtures/MANIFEST.md), so the bodies are written from the multisig-contract-v2 TL-B. Upstream reads the init
// message's signers as a HashmapE (a presence bit, then a ref) where the contract stores a plain ref: its order_boc of a
// created order is then the signers dictionary, and "signed by creator" the top bit of the creator index (toncenter's
// multisig.yaml shows both); the port keeps that.
import { Address, beginCell, Dictionary } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { classifyTrace, toApiAction } from '../../src/actions/index.ts';
import type { AccountInterfaces } from '../../src/actions/model.ts';
import { addr, buildTrace } from './trace-builder.ts';

const CREATOR = addr(0, 'a1'), MULTISIG = addr(0, 'b2'), ORDER = addr(0, 'c3'), SIGNER2 = addr(0, 'd4');
const order: Record<string, AccountInterfaces> = { [ORDER]: { raw: { MultisigOrder: { address: ORDER, multisig_address: MULTISIG, signers: [CREATOR, SIGNER2] } } } };

const ORDER_CELL = beginCell().storeUint(0xf1381e5b, 32).storeUint(1, 8).endCell(); // an order body (its content is not read)
const signers = Dictionary.empty(Dictionary.Keys.Uint(8), Dictionary.Values.Address());
signers.set(0, Address.parseRaw(CREATOR));
signers.set(1, Address.parseRaw(SIGNER2));
const SIGNERS_CELL = beginCell().storeDictDirect(signers).endCell();
const EXPIRATION = 1_785_595_662;

const NEW_ORDER = beginCell().storeUint(0xf718510f, 32).storeUint(5, 64).storeUint(17, 256).storeBit(true).storeUint(1, 8).storeUint(EXPIRATION, 48).storeRef(ORDER_CELL).endCell();
/** init#9c73fba2 as the contract sends it: the signers as a plain ref, approve_on_init set, signer index 1 */
const INIT = beginCell().storeUint(0x9c73fba2, 32).storeUint(5, 64).storeUint(2, 8).storeRef(SIGNERS_CELL).storeUint(EXPIRATION, 48).storeRef(ORDER_CELL).storeBit(true).storeUint(1, 8).endCell();
const APPROVE = beginCell().storeUint(0xa762230f, 32).storeUint(6, 64).storeUint(1, 8).endCell();
const ACCEPTED = beginCell().storeUint(0x82609bf6, 32).storeUint(6, 64).endCell();
const REJECTED = beginCell().storeUint(0xafaf283e, 32).storeUint(6, 64).storeUint(107, 32).endCell();
const EXECUTE = beginCell().storeUint(0x75097f5d, 32).storeUint(7, 64).storeUint(17, 256).storeUint(EXPIRATION, 48).storeUint(2, 8).storeBuffer(Buffer.alloc(32, 9)).storeRef(ORDER_CELL).endCell();

describe('multisig_create_order', () => {
  const create = (interfaces: Record<string, AccountInterfaces>) =>
    classifyTrace(buildTrace({ account: CREATOR, from: null, out: [{ account: MULTISIG, from: CREATOR, body: NEW_ORDER, out: [{ account: ORDER, from: MULTISIG, body: INIT, origStatus: 'uninit', endStatus: 'active' }] }] }, { interfaces })).actions;

  it('new_order and the order contract\'s init: the request\'s fields, upstream\'s reading of the init', () => {
    const a = create(order).find((x) => x.type === 'multisig_create_order')!;
    expect(a).toMatchObject({ source: CREATOR, destination: MULTISIG, destination_secondary: ORDER });
    expect(a.multisig_create_order_data).toEqual({
      query_id: 5n, order_seqno: 17n, is_created_by_signer: true, creator_index: 1, expiration_date: EXPIRATION,
      // the signers cell, not the order, and the creator's approval read from the index's top bit (see the file comment)
      is_signed_by_creator: false, order_boc: SIGNERS_CELL.toBoc({ idx: false, crc32: false }).toString('base64'),
    });
    expect(a.accounts).toEqual(expect.arrayContaining([CREATOR, MULTISIG, ORDER, SIGNER2]));
    expect(toApiAction(a).details).toMatchObject({ destination_order: ORDER, order_seqno: '17', creator_index: 1 });
  });

  it('without the order\'s record nothing is built', () => {
    expect(create({}).map((x) => x.type)).not.toContain('multisig_create_order');
  });
});

describe('multisig_approve', () => {
  const approve = (body: typeof APPROVE, answer: typeof ACCEPTED, interfaces = order) =>
    classifyTrace(buildTrace({ account: CREATOR, from: null, out: [{ account: ORDER, from: CREATOR, body, out: [{ account: CREATOR, from: ORDER, body: answer }] }] }, { interfaces })).actions;

  it('by opcode, accepted: the signer index from the request, exit code 0', () => {
    const [a] = approve(APPROVE, ACCEPTED);
    expect(a).toMatchObject({ type: 'multisig_approve', source: CREATOR, destination: ORDER, success: true });
    expect(a.multisig_approve_data).toEqual({ signer_index: 1, exit_code: 0 });
    expect(a.accounts).toContain(SIGNER2);
  });

  it('by the "approve" comment: no signer index; rejected: the exit code, not successful', () => {
    const [c] = approve(beginCell().storeUint(0, 32).storeStringTail('approve').endCell(), ACCEPTED);
    expect(c.multisig_approve_data).toEqual({ signer_index: -1, exit_code: 0 });
    const [r] = approve(APPROVE, REJECTED);
    expect(r).toMatchObject({ type: 'multisig_approve', success: false });
    expect(r.multisig_approve_data).toEqual({ signer_index: 1, exit_code: 107 });
  });

  it('no answer, or no record: no approval', () => {
    const lone = classifyTrace(buildTrace({ account: CREATOR, from: null, out: [{ account: ORDER, from: CREATOR, body: APPROVE }] }, { interfaces: order })).actions;
    expect(lone.map((x) => x.type)).toEqual(['call_contract']);
    expect(approve(APPROVE, ACCEPTED, {}).map((x) => x.type)).not.toContain('multisig_approve');
  });
});

describe('multisig_execute', () => {
  it('the order asking the multisig to execute', () => {
    const run = (interfaces: Record<string, AccountInterfaces>, aborted = false) =>
      classifyTrace(buildTrace({ account: CREATOR, from: null, out: [{ account: ORDER, from: CREATOR, body: APPROVE, out: [{ account: MULTISIG, from: ORDER, body: EXECUTE, aborted }] }] }, { interfaces })).actions;
    const a = run(order).find((x) => x.type === 'multisig_execute')!;
    expect(a).toMatchObject({ source: ORDER, destination: MULTISIG, success: true });
    expect(a.multisig_execute_data).toEqual({
      query_id: 7n, order_seqno: 17n, expiration_date: EXPIRATION, approvals_num: 2, signers_hash: Buffer.alloc(32, 9).toString('base64'),
      order_boc: ORDER_CELL.toBoc({ idx: false, crc32: false }).toString('base64'),
    });
    expect(run(order, true).find((x) => x.type === 'multisig_execute')!.success).toBe(false);
    expect(run({}).map((x) => x.type)).not.toContain('multisig_execute');
  });
});
