// vesting.py (newer upstream): add_whitelist (the real fixture trace, and its chained-address form) and send_message,
// successful only when the vesting transaction really sent the requested message (it sends with "ignore errors").
// No fixture has a vesting send_message, so its body is written from the vesting-contract TL-B
// (send_message#a7733acd query_id:uint64 send_mode:uint8 message:^MessageRelaxed).
import { Address, beginCell, internal, storeMessageRelaxed, type Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { classifyTrace, toApiAction } from '../../src/actions/index.ts';
import { loadTrace } from './fixture-bodies.ts';
import { addr, buildTrace, type TxSpec } from './trace-builder.ts';

const OWNER = addr(0, 'a1'), VESTING = addr(0, 'b2'), TARGET = addr(0, 'c3');
const RESPONSE = beginCell().storeUint(0xf7733acd, 32).storeUint(0, 64).endCell();
const PAYLOAD = beginCell().storeUint(0, 32).storeStringTail('Deposit').endCell();
const MESSAGE = beginCell().store(storeMessageRelaxed(internal({ to: Address.parseRaw(TARGET), value: 100_000_000_000n, bounce: true, body: PAYLOAD }))).endCell();
const SEND = (msg: Cell = MESSAGE) => beginCell().storeUint(0xa7733acd, 32).storeUint(0, 64).storeUint(3, 8).storeRef(msg).endCell();

/** owner -> vesting (send_message) -> [owner (response), the requested message when it was sent] */
function send(opts: { sent?: { to?: string; body?: Cell; value?: bigint } | null; request?: Cell; response?: boolean } = {}) {
  const out: TxSpec[] = opts.response === false ? [] : [{ account: OWNER, from: VESTING, body: RESPONSE }];
  if (opts.sent !== null) out.push({ account: opts.sent?.to ?? TARGET, from: VESTING, body: opts.sent?.body ?? PAYLOAD, value: opts.sent?.value ?? 100_000_000_000n });
  return classifyTrace(buildTrace({ account: OWNER, from: null, out: [{ account: VESTING, from: OWNER, body: opts.request ?? SEND(), out }] })).actions;
}

describe('vesting_send_message', () => {
  it('the message sent: successful, its destination, value and BoC', () => {
    const a = send().find((x) => x.type === 'vesting_send_message')!;
    expect(a).toMatchObject({ source: OWNER, destination: VESTING, destination_secondary: TARGET, amount: 100_000_000_000n, success: true });
    expect(a.vesting_send_message_data).toEqual({ query_id: 0n, message_boc: MESSAGE.toBoc({ idx: false, crc32: false }).toString('base64') });
    expect(toApiAction(a).details).toEqual({ query_id: '0', message_boc: MESSAGE.toBoc({ idx: false, crc32: false }).toString('base64'), source: OWNER, vesting: VESTING, destination: TARGET, amount: '100000000000' });
  });

  it('dropped by the action phase (no such out-message), or another body to that destination: not successful', () => {
    expect(send({ sent: null }).find((x) => x.type === 'vesting_send_message')!.success).toBe(false);
    expect(send({ sent: { body: beginCell().storeUint(1, 32).endCell() } }).find((x) => x.type === 'vesting_send_message')!.success).toBe(false);
    expect(send({ sent: { to: addr(0, 'd4') } }).find((x) => x.type === 'vesting_send_message')!.success).toBe(false);
  });

  it('a requested message whose body does not read: matched on destination and value', () => {
    // the internal header alone (no init / body bits): the body cannot be hashed
    const header = beginCell().storeBit(0).storeBit(true).storeBit(true).storeBit(false).storeAddress(null).storeAddress(Address.parseRaw(TARGET)).storeCoins(5n)
      .storeBit(false).storeCoins(0n).storeCoins(0n).storeUint(0, 64).storeUint(0, 32).endCell();
    expect(send({ request: SEND(header), sent: { value: 5n } }).find((x) => x.type === 'vesting_send_message')!.success).toBe(true);
    expect(send({ request: SEND(header), sent: { value: 6n } }).find((x) => x.type === 'vesting_send_message')!.success).toBe(false);
  });

  it('no answer from the vesting contract: no action', () => {
    expect(send({ response: false }).map((x) => x.type)).not.toContain('vesting_send_message');
  });
});

describe('vesting_add_whitelist', () => {
  it('the real trace (toncenter\'s case): one masterchain address added', () => {
    const a = classifyTrace(loadTrace('03XZQ1CkN3nBPi4IICznU8BWFghrneCV17qcdq33BrA=.json')).actions.find((x) => x.type === 'vesting_add_whitelist')!;
    expect(a.vesting_add_whitelist_data).toEqual({ query_id: 0n, accounts_added: ['-1:ECB7B7B4C200424F8D837AC9E0C5EDCA800A162546CD5706FB86549C0FE03038'] });
  });

  it('addresses chained through refs, all of them', () => {
    const [x, y, z] = [addr(0, 'e1'), addr(0, 'e2'), addr(-1, 'e3')].map((r) => Address.parseRaw(r));
    const body = beginCell().storeUint(0x7258a69b, 32).storeUint(4, 64).storeAddress(x).storeRef(beginCell().storeAddress(y).storeRef(beginCell().storeAddress(z))).endCell();
    const answer = beginCell().storeUint(0xf258a69b, 32).storeUint(4, 64).endCell();
    const [a] = classifyTrace(buildTrace({ account: OWNER, from: null, out: [{ account: VESTING, from: OWNER, body, out: [{ account: OWNER, from: VESTING, body: answer }] }] })).actions;
    expect(a.vesting_add_whitelist_data).toEqual({ query_id: 4n, accounts_added: [x, y, z].map((v) => v.toRawString().toUpperCase()) });
  });
});
