// TON transfers: the basic blocks (basic_blocks.py: ton_transfer, call_contract, contract_deploy, tick_tock) with
// every branch of their success rule, comments, and the failed wallet external whose intended transfer becomes a
// ghost action (event_processing.py init_from_external, messages/externals.py). Bodies are real mainnet messages
// from test/fixtures/msgs; the traces around them are hand-built (test/actions/trace-builder.ts).
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { beginCell, Cell, loadMessage } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { classifyTrace, toApiAction } from '../../src/actions/index.ts';
import { addr, buildTrace, type TxSpec } from './trace-builder.ts';

const MSGS = new URL('../fixtures/msgs/', import.meta.url);
/** The body and destination of a real message. */
function real(name: string): { body: Cell; dest: string } {
  const m = loadMessage(Cell.fromBoc(readFileSync(new URL(name, MSGS)))[0].beginParse());
  const d = m.info.dest as { workChain: number; hash: Buffer };
  return { body: m.body, dest: `${d.workChain}:${d.hash.toString('hex').toUpperCase()}` };
}
const comment = (text: string) => beginCell().storeUint(0, 32).storeStringTail(text).endCell();

const WALLET = addr(0, 'a1');
const DEST = addr(0, 'b2');
/** wallet external -> one transfer to DEST with the given message and receiving transaction. */
function transfer(msg: Partial<TxSpec>): ReturnType<typeof buildTrace> {
  return buildTrace({ account: WALLET, from: null, body: beginCell().storeUint(1, 32).endCell(), out: [{ account: DEST, from: WALLET, value: 5n, ...msg }] });
}
const transfers = (t: ReturnType<typeof buildTrace>) => classifyTrace(t).actions.filter((a) => a.type === 'ton_transfer');

describe('ton_transfer', () => {
  it('reads text comments (invalid UTF-8 escaped as Python does, NUL dropped) and encrypted ones (base64)', () => {
    expect(transfers(transfer({ body: comment('hello, мир') }))[0].ton_transfer_data).toEqual({ content: 'hello, мир', encrypted: false });
    const bad = beginCell().storeUint(0, 32).storeBuffer(Buffer.from([0x61, 0xff, 0x00, 0xe2, 0x82, 0x62])).endCell();
    expect(transfers(transfer({ body: bad }))[0].ton_transfer_data).toEqual({ content: 'a\\xff\\xe2\\x82b', encrypted: false });
    const enc = beginCell().storeUint(0x2167da4b, 32).storeBuffer(Buffer.from('00112233', 'hex')).endCell();
    expect(transfers(transfer({ body: enc }))[0].ton_transfer_data).toEqual({ content: Buffer.from('00112233', 'hex').toString('base64'), encrypted: true });
    // no body, and a body that is not whole bytes, have no comment
    expect(transfers(transfer({}))[0].ton_transfer_data).toEqual({ content: null, encrypted: false });
    expect(transfers(transfer({ body: beginCell().storeUint(0, 32).storeUint(1, 3).endCell() }))[0].ton_transfer_data).toEqual({ content: null, encrypted: false });
  });

  it('fails when the receiver aborted, unless the message did not bounce and the account stayed uninit, or gas ran out', () => {
    expect(transfers(transfer({}))[0].success).toBe(true);
    expect(transfers(transfer({ aborted: true, bounce: true }))[0].success).toBe(false);
    expect(transfers(transfer({ aborted: true, bounce: false, origStatus: 'uninit', endStatus: 'uninit' }))[0].success).toBe(true);
    expect(transfers(transfer({ aborted: true, bounce: false, skippedReason: 'no_gas' }))[0].success).toBe(true);
    expect(transfers(transfer({ aborted: true, bounce: false }))[0].success).toBe(false);
  });

  it('a transfer that activates its receiver also yields a contract_deploy', () => {
    const t = transfer({ bounce: false, origStatus: 'uninit', endStatus: 'active' });
    const types = classifyTrace(t).actions.map((a) => a.type).sort();
    expect(types).toEqual(['contract_deploy', 'ton_transfer']);
    const deploy = classifyTrace(t).actions.find((a) => a.type === 'contract_deploy')!;
    // a deploy by a message without a body: the Go API leaves out the (omitempty) opcode
    expect(toApiAction(deploy).details).toEqual({ source: WALLET, destination: DEST, value: '5' });
  });
});

describe('call_contract', () => {
  it('a failed call that moved no value is not a failed action; one that moved value is', () => {
    const call = (value: bigint) => classifyTrace(transfer({ body: beginCell().storeUint(0x1234, 32).endCell(), value, aborted: true }))
      .actions.find((a) => a.type === 'call_contract')!;
    expect(call(0n).success).toBe(true);
    expect(call(7n).success).toBe(false);
    expect(toApiAction(call(7n)).details).toEqual({ opcode: '0x00001234', source: WALLET, destination: DEST, value: '7', extra_currencies: {} });
  });

  it('an extra-currency transfer is renamed by the API, as the Go API does', () => {
    const t = transfer({});
    t.transactions[1].inMsg!.valueExtraCurrencies = { '239': '1000' };
    const a = transfers(t)[0];
    expect(a.value_extra_currencies).toEqual({ '239': '1000' });
    expect(toApiAction(a).type).toBe('extra_currency_transfer');
  });

  it('external messages (in and out) are not actions; logs do not fail the trace', () => {
    const t = buildTrace({ account: WALLET, from: null, body: comment('x'), logs: [beginCell().storeUint(0xabcd, 32).endCell()], out: [{ account: DEST, from: WALLET }] });
    const res = classifyTrace(t);
    expect(res.state).toBe('ok');
    expect(res.actions.map((a) => a.type)).toEqual(['ton_transfer']);
  });
});

describe('failed wallet external: intended transfers as ghost actions', () => {
  it('a v5r1 external that sent nothing gives the transfer it asked for, failed, naming only the wallet', () => {
    // a real v5r1 external asking for a 5.1719 TON transfer with a comment, here in a trace where it sent nothing
    const { body, dest: wallet } = real('mainnet-ext-in-wallet-v5r1-in-msg-lt58895241000001-12d9aa60.boc');
    const t = buildTrace({ account: wallet, from: null, body });
    const { actions, state } = classifyTrace(t);
    expect(state).toBe('ok');
    expect(actions).toHaveLength(1);
    const a = actions[0];
    expect(a).toMatchObject({
      type: 'ton_transfer', success: false, value: 5171900000n, source: wallet,
      destination: '0:852443F8599FE6A5DA34FE43049AC4E0BEB3071BB2BFB56635EA9421287C283A',
      ton_transfer_data: { content: '1000 Telegram Stars Ref#uZPILMi9o', encrypted: false },
      tx_hashes: [t.transactions[0].hash], accounts: [wallet],
      start_lt: t.transactions[0].lt, end_lt: t.transactions[0].lt,
    });
    // the ghost message's key: base64(base64 of the intended message cell hash + its index)
    const key = Buffer.from('FYOL4/MOuLl2wEpUK+JYrRtx4QkP0BVpUQZx2E0Z7U8=' + '0').toString('base64');
    expect(a.action_id).toBe(createHash('sha256').update(key + 'ton_transfer').digest('base64'));
  });

  it('reads v3/v4 externals too (a transfer without a body)', () => {
    const { body, dest: wallet } = real('mainnet-ext-in-wallet-v4r2-in-msg-lt76734069000029-1beb7d5f.boc');
    const { actions } = classifyTrace(buildTrace({ account: wallet, from: null, body, aborted: true }));
    expect(actions.map((a) => [a.type, a.success, a.value, a.ton_transfer_data])).toEqual([
      ['ton_transfer', false, 174802557014n, { content: null, encrypted: false }],
    ]);
  });

  it('an intended call stays a call_contract (failed); a trace that did run is not given ghosts', () => {
    // a real v4 external asking for a 0x2 call (a nominator pool deposit)
    const { body, dest: wallet } = real('mainnet-ext-in-wallet-v4r2-in-msg-lt76734069000001-a9558b20.boc');
    const ghost = classifyTrace(buildTrace({ account: wallet, from: null, body })).actions;
    expect(ghost.map((a) => [a.type, a.success, a.opcode])).toEqual([['call_contract', false, 2]]);
    const ran = classifyTrace(buildTrace({ account: wallet, from: null, body, out: [{ account: DEST, from: wallet }] })).actions;
    expect(ran.map((a) => [a.type, a.success])).toEqual([['ton_transfer', true]]);
  });
});
