// subscriptions.py: wallet v4 plugin payments and unsubscriptions. The wallet's payment to the plugin (0xf06c7567) is
// a real body (block 0:2000000000000000:54593195); the plugin's request (0x706c7567), its payment to the beneficiary
// (0x73756273) and the destruct message (0x64737472) are written from the plugin standard's TL-B.
import { beginCell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { classifyTrace, toApiAction } from '../../src/actions/index.ts';
import { blockBody } from './fixture-bodies.ts';
import { addr, buildTrace, type TxSpec } from './trace-builder.ts';

const RESPONSE = blockBody('mainnet/mainnet-wc0-2000000000000000-54593195.boc', 0xf06c7567);
const REQUEST = beginCell().storeUint(0x706c7567, 32).storeUint(9, 64).storeCoins(2_000_000_000n).storeBit(false).endCell();
const PAYMENT = beginCell().storeUint(0x73756273, 32).storeUint(9, 64).endCell();
const DESTRUCT = beginCell().storeUint(0x64737472, 32).storeUint(0, 64).endCell();
const WALLET = addr(0, 'a1'), PLUGIN = addr(0, 'b2'), BENEFICIARY = addr(0, 'c3');

describe('subscribe', () => {
  /** (plugin -> wallet request) -> wallet -> plugin (payment) -> beneficiary */
  const trace = (opts: { request?: boolean; requestAborted?: boolean; payment?: boolean } = {}) => {
    const pay: TxSpec = { account: PLUGIN, from: WALLET, body: RESPONSE, value: 2_100_000_000n, out: opts.payment === false ? [] : [{ account: BENEFICIARY, from: PLUGIN, body: PAYMENT, value: 2_000_000_000n }] };
    if (opts.request === false) return buildTrace({ account: WALLET, from: null, out: [pay] });
    return buildTrace({ account: PLUGIN, from: null, out: [{ account: WALLET, from: PLUGIN, body: REQUEST, aborted: opts.requestAborted, out: [pay] }] });
  };

  it('the plugin\'s request, the wallet\'s payment, the plugin\'s payment to the beneficiary', () => {
    const [a, ...rest] = classifyTrace(trace()).actions;
    expect(rest).toEqual([]);
    expect(a).toMatchObject({ type: 'subscribe', source: WALLET, destination: BENEFICIARY, destination_secondary: PLUGIN, amount: 2_000_000_000n, success: true });
    expect(toApiAction(a).details).toEqual({ subscriber: WALLET, beneficiary: BENEFICIARY, subscription: PLUGIN, amount: '2000000000' });
  });

  it('without the request: the amount the wallet sent; a failed request makes it failed', () => {
    const [a] = classifyTrace(trace({ request: false })).actions;
    expect(a).toMatchObject({ type: 'subscribe', amount: 2_100_000_000n, success: true });
    const [b] = classifyTrace(trace({ requestAborted: true })).actions;
    expect(b).toMatchObject({ type: 'subscribe', success: false });
  });

  it('no payment to a beneficiary: no subscription', () => {
    expect(classifyTrace(trace({ payment: false })).actions.map((a) => a.type)).not.toContain('subscribe');
  });
});

describe('unsubscribe', () => {
  it('the destruct message and the plugin\'s answer (the beneficiary); without the answer no beneficiary', () => {
    const withAnswer = buildTrace({ account: WALLET, from: null, out: [{ account: PLUGIN, from: WALLET, body: DESTRUCT, out: [{ account: BENEFICIARY, from: PLUGIN, body: DESTRUCT }] }] });
    const [a] = classifyTrace(withAnswer).actions;
    expect(a).toMatchObject({ type: 'unsubscribe', source: WALLET, destination: BENEFICIARY, destination_secondary: PLUGIN });
    const [b] = classifyTrace(buildTrace({ account: WALLET, from: null, out: [{ account: PLUGIN, from: WALLET, body: DESTRUCT }] })).actions;
    expect(b).toMatchObject({ type: 'unsubscribe', destination: null });
    expect(toApiAction(b).details).toEqual({ subscriber: WALLET, subscription: PLUGIN }); // beneficiary and amount are omitempty
  });
});
