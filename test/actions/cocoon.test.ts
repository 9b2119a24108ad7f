// cocoon.py: the real traces of toncenter's suite for worker / proxy payouts, charge, top-up, proxy registration and
// client registration; the client's refund request (direct, via its wallet), the grant refund, increase stake and
// withdraw (newer upstream) built with bodies from Cocoon's TL-B (cocoon.py's message layouts) around the same shape.
import { Address, beginCell, type Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { classifyTrace, toApiAction } from '../../src/actions/index.ts';
import type { ActionRow, Trace } from '../../src/actions/model.ts';
import { body, load } from './defi-fixtures.ts';
import { addr, buildTrace, type TxSpec } from './trace-builder.ts';

const WORKER_PAYOUT = '1LzTIRFPDw1CixKXM9wxSE5zxTg7okb2kstnP3GQhNU=.json';
const WORKER_LAST_PAYOUT = '1gnDaOa5Fh8ZglQELMgsywJaevp2NfPSDg5AmW8jNP8=.json';
const UNREGISTER = '3UJokH6MJ8TSK3Get0x_n975z1gfeALOnnhQYyZ8t-c=.json';
const REGISTER_AND_CHANGE = '5B6Ex8kvs5Qb8lcTKPbFhlz2yhVv7aUIvkvngzWK6dI=.json';

const OWNER = addr(0, 'a1'), CLIENT = addr(0, 'b2'), PROXY = addr(0, 'c3'), WALLET = addr(0, 'd4'), RECIPIENT = addr(0, 'e5');
const TON = 1_000_000_000n;
const A = (raw: string) => Address.parse(raw);
const cocoon = (t: Trace): ActionRow[] => classifyTrace(t).actions.filter((a) => a.type.startsWith('cocoon_'));
const excesses = (to: string, from: string): TxSpec => ({ account: to, from, body: body(0x2565934c) });
const clientRequest = (payload: Cell | null) => body(0x65448ff4, (b) => b.storeUint(0, 64).storeAddress(A(OWNER)).storeRef(beginCell().endCell()).storeMaybeRef(payload));

describe('Cocoon real traces', () => {
  it('a worker payout: proxy, worker, owner, the payout; worker state as a JSON number', () => {
    const [a] = cocoon(load(WORKER_PAYOUT));
    expect(toApiAction(a).details).toEqual({
      payout_type: 'regular', query_id: '10553886210694500674', new_tokens: '9229614747703451079', worker_state: 0, worker_tokens: '73063940556',
      source: '0:B16DB31490EE38ED5DD0258D9B686FF0BA590025E4A4BD232D1CD5A8AA805A16', destination: '0:E572BD4E31B098C7E1AA8BB779D48EAF01D279831502C4029C7B522614873BCA', amount: '4500148290',
    });
  });

  it('the last payout; its expected address is external (rendered len;hex)', () => {
    const t = load(WORKER_LAST_PAYOUT);
    const [a] = cocoon(t);
    expect(a.cocoon_worker_payout_data).toMatchObject({ payout_type: 'last', worker_state: 2 });
    expect(classifyTrace(t).blocks.find((b) => b.btype === 'cocoon_worker_payout')!.data).toMatchObject({ expected_address: '260;8da2c03aaf0c2beb208f6828c3547d4a86e19a98f1bfaaba49ac412277cba6d98' });
  });

  it('unregister proxy: the seqno as a JSON number', () => {
    const [a] = cocoon(load(UNREGISTER));
    const d = toApiAction(a).details;
    expect(typeof d.seqno).toBe('number');
    expect(d).toMatchObject({ destination: a.destination });
  });

  it('register and change secret hash in one trace: both, the hash as bare hex', () => {
    const acts = cocoon(load(REGISTER_AND_CHANGE));
    expect(acts.map((a) => a.type).sort()).toEqual(['cocoon_client_change_secret_hash', 'cocoon_client_register']);
    const change = toApiAction(acts.find((a) => a.type === 'cocoon_client_change_secret_hash')!).details;
    expect(change.new_secret_hash).toMatch(/^[0-9a-f]+$/);
  });

  it('a failed payout (its transaction aborted) fails the worker payout', () => {
    const t = load(WORKER_PAYOUT);
    t.transactions.find((x) => x.inMsg?.opcode === 0xc59a7cd3)!.aborted = true;
    expect(cocoon(t)[0].success).toBe(false);
  });
});

describe('Cocoon client', () => {
  it('refund request, directly or through the owner\'s wallet contract (via_wallet)', () => {
    const refund = (): TxSpec => ({ account: CLIENT, from: WALLET, body: body(0xfafa6cc1, (b) => b.storeUint(5, 64).storeAddress(A(OWNER))), out: [excesses(OWNER, CLIENT), { account: PROXY, from: CLIENT, body: clientRequest(null), aborted: true }] });
    const direct = buildTrace({ account: WALLET, from: null, out: [refund()] });
    const [d] = cocoon(direct);
    expect(toApiAction(d).details).toEqual({ query_id: '5', via_wallet: false, source: OWNER, destination: CLIENT });
    const viaWallet = buildTrace({ account: OWNER, from: null, out: [{ account: WALLET, from: OWNER, body: body(0x9c69f376), out: [refund()] }] });
    const [v] = cocoon(viaWallet);
    expect(v).toMatchObject({ type: 'cocoon_client_request_refund', cocoon_client_request_refund_data: { via_wallet: true } });
    // the wallet's own message is not the refund: its only child is the refund call
    expect(cocoon(viaWallet)).toHaveLength(1);
    // without the client's request to the proxy: nothing
    expect(cocoon(buildTrace({ account: WALLET, from: null, out: [{ ...refund(), out: [excesses(OWNER, CLIENT)] }] }))).toHaveLength(0);
  });

  it('increase stake: the new stake, twice (the row\'s amount and the composite)', () => {
    const t = (aborted = false) => buildTrace({
      account: WALLET, from: null, out: [{
        account: CLIENT, from: WALLET, aborted, body: body(0x6a1f6a60, (b) => b.storeUint(9, 64).storeCoins(3n * TON).storeAddress(A(OWNER))), out: [excesses(OWNER, CLIENT), { account: PROXY, from: CLIENT, body: clientRequest(null) }],
      }],
    });
    const [a] = cocoon(t());
    expect(toApiAction(a).details).toEqual({ query_id: '9', new_stake: '3000000000', source: OWNER, destination: CLIENT, amount: '3000000000' });
    expect(a.success).toBe(true);
    expect(cocoon(t(true))[0].success).toBe(false);
  });

  it('withdraw: the coins of the refund granted in the client\'s request; none readable gives 0; the payout is required', () => {
    const granted = (coins: bigint, op = 0xc68ebc7b) => body(op, (b) => b.storeCoins(coins).storeAddress(A(OWNER)));
    const t = (payload: Cell | null, answers: TxSpec[] = [{ account: OWNER, from: PROXY, body: body(0xc59a7cd3) }, excesses(OWNER, PROXY)]) => buildTrace({
      account: WALLET, from: null, out: [{
        account: CLIENT, from: WALLET, body: body(0xda068e78, (b) => b.storeUint(4, 64).storeAddress(A(OWNER))), out: [{ account: PROXY, from: CLIENT, body: clientRequest(payload), out: answers }],
      }],
    });
    expect(toApiAction(cocoon(t(granted(5n * TON)))[0]).details).toEqual({ query_id: '4', withdraw_amount: '5000000000', source: OWNER, destination: CLIENT, amount: '5000000000' });
    expect(cocoon(t(null))[0].amount).toBe(0n);
    expect(cocoon(t(granted(5n * TON, 0x11111111)))[0].amount).toBe(0n);
    // excesses are optional, the payout is not
    expect(cocoon(t(granted(1n), [{ account: OWNER, from: PROXY, body: body(0xc59a7cd3) }]))).toHaveLength(1);
    expect(cocoon(t(granted(1n), [excesses(OWNER, PROXY)]))).toHaveLength(0);
  });
});

describe('Cocoon grant refund', () => {
  const GRANT = (expected: (b: ReturnType<typeof beginCell>) => ReturnType<typeof beginCell>) => body(0xefd711e1, (b) => expected(b.storeUint(6, 64).storeUint(1234, 64)));
  const trace = (opts: { payoutAborted?: boolean; payout?: boolean; expected?: (b: ReturnType<typeof beginCell>) => ReturnType<typeof beginCell> } = {}) => buildTrace({
    account: PROXY, from: null, body: body(0xd5279a81), out: [{
      account: PROXY, from: WALLET, body: GRANT(opts.expected ?? ((b) => b.storeAddress(A(PROXY)))), out: [{
        account: CLIENT, from: PROXY, body: clientRequest(null), out: [
          ...(opts.payout === false ? [] : [{ account: RECIPIENT, from: CLIENT, value: 2n * TON, body: body(0xc59a7cd3), aborted: opts.payoutAborted }]),
          excesses(OWNER, CLIENT),
        ],
      }],
    }],
  });

  it('the proxy, the client, who the refund was paid to and how much (newest upstream)', () => {
    const [a] = cocoon(trace());
    expect(a).toMatchObject({ source: PROXY, source_secondary: CLIENT, destination: RECIPIENT, amount: 2n * TON, success: true });
    expect(toApiAction(a).details).toEqual({ query_id: '6', new_tokens_used: '1234', expected_address: PROXY, source: PROXY, destination: RECIPIENT, amount: '2000000000' });
  });

  it('fails with the payout; needs it; renders an external or missing expected address', () => {
    expect(cocoon(trace({ payoutAborted: true }))[0].success).toBe(false);
    expect(cocoon(trace({ payout: false }))).toHaveLength(0);
    const external = cocoon(trace({ expected: (b) => b.storeUint(1, 2).storeUint(8, 9).storeUint(0xab, 8) }))[0];
    expect(external.cocoon_grant_refund_data).toMatchObject({ expected_address: '8;ab' });
    expect(cocoon(trace({ expected: (b) => b.storeUint(0, 2) }))[0].cocoon_grant_refund_data).toMatchObject({ expected_address: null });
  });
});
