// dedust_v2/ (newer upstream): DeDust CPMM V2 swaps (single and multi-hop, TON and jetton carriers, failed and
// refunded), withdrawals, deposits (completed, rejected, the partial leg merged in) and claims. No real V2 trace is
// among the fixtures: the traces are built with trace-builder, every body written from the TL-B upstream's
// messages/dedust_v2.py documents (and TEP-74 for the jetton legs).
import { Address, beginCell, type Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { actionDetails } from '../../src/actions/details.ts';
import { classifyTrace } from '../../src/actions/classify.ts';
import type { AccountInterfaces, Trace } from '../../src/actions/model.ts';
import { V1_OPS } from '../../src/actions/serializer.ts';
import { data } from './dex-helpers.ts';
import { addr, buildTrace, type TxSpec } from './trace-builder.ts';

const USER = addr(0, 'a1'), POOL = addr(0, 'b2'), POOL2 = addr(0, 'b3'), ESCROW = addr(0, 'c4'), POSITION = addr(0, 'c5');
const J1 = addr(0, 'd1'), J2 = addr(0, 'd2');
const USER_J1 = addr(0, 'e1'), USER_J2 = addr(0, 'e2'), POOL_J1 = addr(0, 'f1'), POOL_J2 = addr(0, 'f2'), POOL2_J1 = addr(0, '91'), POOL2_J2 = addr(0, '92'), POSITION_J1 = addr(0, '93');
const A = (s: string) => Address.parseRaw(s);

const jw = (owner: string, jetton: string): AccountInterfaces => ({ raw: { JettonWallet: { owner, jetton, balance: 0 } } });
const INTERFACES: Record<string, AccountInterfaces> = {
  [USER_J1]: jw(USER, J1), [USER_J2]: jw(USER, J2), [POOL_J1]: jw(POOL, J1), [POOL_J2]: jw(POOL, J2), [POOL2_J1]: jw(POOL2, J1), [POOL2_J2]: jw(POOL2, J2), [POSITION_J1]: jw(POSITION, J1),
  [POOL]: { raw: { DedustPool: { assets: [{ is_ton: true, address: null }, { is_ton: false, address: J1 }] } } },
};

// ---- bodies (TL-B of messages/dedust_v2.py and TEP-74)
const empty = () => beginCell().endCell();
const swapStep = (pool: string, minOut: bigint, next: Cell | null = null) => beginCell().storeAddress(A(pool)).storeCoins(minOut).storeUint(0, 40).storeMaybeRef(next).endCell();
const swapPayload = (minOut: bigint, next: Cell | null = null) => beginCell().storeUint(0xc442500f, 32).storeCoins(minOut).storeUint(0, 40).storeMaybeRef(next).storeBit(false).storeBit(false).endCell();
const depositPayload = (x: bigint, y: bigint) => beginCell().storeUint(0xc9a015da, 32).storeCoins(x).storeCoins(y).storeCoins(0).storeUint(0, 16).endCell();
const payNative = (amount: bigint, payload: Cell) => beginCell().storeUint(0xa5a7cbf8, 32).storeUint(1, 64).storeCoins(amount).storeRef(payload).storeRef(empty()).endCell();
const payJetton = (payload: Cell) => beginCell().storeUint(0xcbc33949, 32).storeRef(payload).storeRef(empty()).endCell();
const payout = (amount: bigint, exitCode = 0) => beginCell().storeUint(0x3216ca09, 32).storeUint(1, 64).storeCoins(amount).storeInt(exitCode, 32).storeMaybeRef(null).endCell();
const swapEvent = (amountIn: bigint, amountOut: bigint) => beginCell().storeUint(0x78e79ba4, 32).storeBit(true).storeCoins(amountIn).storeCoins(amountOut)
  .storeAddress(A(USER)).storeAddress(A(USER)).storeRef(empty()).storeRef(empty()).endCell();
const excess = () => beginCell().storeUint(0xd53276db, 32).storeUint(1, 64).endCell();
const op64 = (opcode: number) => beginCell().storeUint(opcode, 32).storeUint(1, 64);

/** sender's wallet -> receiver's wallet -> receiver (notify, with `children` and `logs`) */
function jettonLeg(o: { sender: string; senderWallet: string; receiverWallet: string; receiver: string; amount: bigint; payload?: Cell | null; children?: TxSpec[]; logs?: Cell[]; aborted?: boolean }): TxSpec {
  const fwd = o.payload ?? null;
  const either = (b: ReturnType<typeof beginCell>) => (fwd ? b.storeBit(true).storeRef(fwd) : b.storeBit(false));
  const transfer = either(op64(0x0f8a7ea5).storeCoins(o.amount).storeAddress(A(o.receiver)).storeAddress(A(o.sender)).storeMaybeRef(null).storeCoins(100n)).endCell();
  const internal = either(op64(0x178d4519).storeCoins(o.amount).storeAddress(A(o.sender)).storeAddress(A(o.sender)).storeCoins(100n)).endCell();
  const notify = either(op64(0x7362d09c).storeCoins(o.amount).storeAddress(A(o.sender))).endCell();
  return {
    account: o.senderWallet, from: o.sender, body: transfer, out: [{
      account: o.receiverWallet, from: o.senderWallet, body: internal,
      out: [{ account: o.receiver, from: o.receiverWallet, body: notify, out: o.children ?? [], logs: o.logs, aborted: o.aborted }],
    }],
  };
}
const payoutTo = (from: string, to: string, amount: bigint, exitCode = 0): TxSpec => ({ account: to, from, body: payout(amount, exitCode) });
const trace = (...out: TxSpec[]) => buildTrace({ account: USER, from: null, out }, { interfaces: INTERFACES });
const actions = (t: Trace, type: string) => classifyTrace(t).actions.filter((a) => a.type === type);

describe('DeDust V2 swap', () => {
  const tonToJ1 = (o: { aborted?: boolean; payload?: Cell } = {}) => trace({
    account: POOL, from: USER, value: 5_000_000_000n, body: payNative(5_000_000_000n, o.payload ?? swapPayload(90n)), aborted: o.aborted,
    logs: [swapEvent(5_000_000_000n, 100n)],
    out: [jettonLeg({ sender: POOL, senderWallet: POOL_J1, receiverWallet: USER_J1, receiver: USER, amount: 100n })],
  });

  it('TON in (PayNative), jettons out: amounts from the Swap event, the floor from the payload, one action', () => {
    const t = tonToJ1();
    const [a] = actions(t, 'jetton_swap');
    expect(a).toMatchObject({ success: true, source: USER, asset: null, asset2: J1, destination: USER, destination_secondary: USER_J1 });
    const d = data(a, 'jetton_swap_data');
    expect(d).toMatchObject({ dex: 'dedust_v2', sender: USER, min_out_amount: 90n });
    // the Go API (v1.3) shows min_out_amount for TONCO and DeDust v2 swaps
    expect(actionDetails(a)).toMatchObject({ dex: 'dedust_v2', min_out_amount: '90' });
    expect(d.dex_incoming_transfer).toMatchObject({ amount: 5_000_000_000n, source: USER, destination: POOL, asset: null });
    expect(d.dex_outgoing_transfer).toMatchObject({ amount: 100n, source: POOL, source_jetton_wallet: POOL_J1, destination: USER, asset: J1 });
    expect(d.peer_swaps).toEqual([]);
    expect(classifyTrace(t).actions.filter((x) => x.parent_action_id === null).map((x) => x.type)).toEqual(['jetton_swap']);
  });

  it('a pool transaction that failed fails the swap', () => {
    expect(actions(tonToJ1({ aborted: true }), 'jetton_swap')[0].success).toBe(false);
  });

  it('a PayNative carrying another payload (a deposit) is no swap', () => {
    expect(actions(tonToJ1({ payload: depositPayload(1n, 2n) }), 'jetton_swap')).toHaveLength(0);
  });

  it('jettons in (PayJetton forward payload), TON out (a payout with exit code 0)', () => {
    const t = trace(jettonLeg({
      sender: USER, senderWallet: USER_J1, receiverWallet: POOL_J1, receiver: POOL, amount: 100n, payload: payJetton(swapPayload(4n)),
      logs: [swapEvent(100n, 5n)], children: [payoutTo(POOL, USER, 5n)],
    }));
    const [a] = actions(t, 'jetton_swap');
    expect(a).toMatchObject({ success: true, source: USER, source_secondary: USER_J1, asset: J1, asset2: null });
    const d = data(a, 'jetton_swap_data');
    expect(d.dex_incoming_transfer).toMatchObject({ amount: 100n, source_jetton_wallet: USER_J1, destination: POOL, destination_jetton_wallet: POOL_J1 });
    expect(d.dex_outgoing_transfer).toMatchObject({ amount: 5n, source: POOL, destination: USER, asset: null });
    expect(d.min_out_amount).toBe(4n);
  });

  it('two hops (TON -> J1 in one pool, J1 -> J2 in the next): peer swaps, the floor from the last step', () => {
    const route = swapPayload(90n, swapStep(POOL2, 40n));
    const t = trace({
      account: POOL, from: USER, body: payNative(1000n, route), logs: [swapEvent(1000n, 100n)],
      out: [jettonLeg({
        sender: POOL, senderWallet: POOL_J1, receiverWallet: POOL2_J1, receiver: POOL2, amount: 100n, payload: payJetton(swapPayload(40n)),
        logs: [swapEvent(100n, 50n)], children: [jettonLeg({ sender: POOL2, senderWallet: POOL2_J2, receiverWallet: USER_J2, receiver: USER, amount: 50n })],
      })],
    });
    const [a] = actions(t, 'jetton_swap');
    expect(a).toMatchObject({ success: true, asset: null, asset2: J2 });
    const d = data(a, 'jetton_swap_data');
    expect(d.min_out_amount).toBe(40n);
    expect(d.peer_swaps).toEqual([
      { amount_in: 1000n, asset_in: null, amount_out: 100n, asset_out: J1 },
      { amount_in: 100n, asset_in: J1, amount_out: 50n, asset_out: J2 },
    ]);
    expect(d.dex_outgoing_transfer).toMatchObject({ amount: 50n, source: POOL2, asset: J2 });
  });
});

describe('DeDust V2 failed swap', () => {
  const refunded = (exitCode: number, to = USER) => trace({ account: POOL, from: USER, body: payNative(7n, swapPayload(1n)), out: [payoutTo(POOL, to, 7n, exitCode)] });

  it('TON in, refunded with an exit code: failed, the other asset from the pool\'s record, nothing out', () => {
    const [a] = actions(refunded(0x100), 'jetton_swap');
    expect(a).toMatchObject({ success: false, asset: null, asset2: J1 });
    const d = data(a, 'jetton_swap_data');
    expect(d.dex_incoming_transfer).toMatchObject({ amount: 7n, source: USER, destination: POOL });
    expect(d.dex_outgoing_transfer).toMatchObject({ amount: 0n, source: POOL, destination: USER, asset: J1 });
    expect(d.min_out_amount).toBe(1n);
  });

  it('a payout with exit code 0, or one to another account, is no refund', () => {
    expect(actions(refunded(0), 'jetton_swap')).toHaveLength(0);
    expect(actions(refunded(0x100, POSITION), 'jetton_swap')).toHaveLength(0);
  });

  it('jettons in, the same jettons back to the sender: failed; another jetton back is no refund', () => {
    const t = (jetton: string, wallet: string) => trace(jettonLeg({
      sender: USER, senderWallet: USER_J1, receiverWallet: POOL_J1, receiver: POOL, amount: 100n, payload: payJetton(swapPayload(3n)),
      children: [jettonLeg({ sender: POOL, senderWallet: wallet, receiverWallet: jetton === J1 ? USER_J1 : USER_J2, receiver: USER, amount: 100n })],
    }));
    const [a] = actions(t(J1, POOL_J1), 'jetton_swap');
    expect(a).toMatchObject({ success: false, asset: J1, asset2: null, source_secondary: USER_J1 });
    expect(data(a, 'jetton_swap_data').dex_incoming_transfer).toMatchObject({ amount: 100n, destination_jetton_wallet: POOL_J1 });
    expect(actions(t(J2, POOL_J2), 'jetton_swap')).toHaveLength(0);
  });
});

describe('DeDust V2 withdrawal', () => {
  const withdraw = (autoClaim = false) => op64(0x20b5ef89).storeCoins(1000n).storeCoins(0).storeCoins(0).storeBit(autoClaim).storeRef(empty()).endCell();
  const withdrawal = beginCell().storeUint(0xc0d77b54, 32).storeCoins(990n).storeCoins(11n).storeCoins(22n).storeAddress(A(USER)).storeAddress(A(USER)).storeRef(empty()).endCell();
  const t = (o: { event?: boolean; autoClaim?: boolean } = {}) => trace({
    account: POOL, from: USER, body: withdraw(o.autoClaim), out: [{
      account: POSITION, from: POOL, body: op64(0xbc1531a9).endCell(), out: [{
        account: POOL, from: POSITION, body: op64(0xf6f6a3aa).endCell(), logs: o.event === false ? [] : [withdrawal],
        out: [payoutTo(POOL, USER, 11n), jettonLeg({ sender: POOL, senderWallet: POOL_J1, receiverWallet: USER_J1, receiver: USER, amount: 22n })],
      }],
    }],
  });

  it('withdraw -> position -> exit_liquidity -> the event and two payouts: LP from the event, each payout\'s side', () => {
    const [a] = actions(t(), 'dex_withdraw_liquidity');
    expect(a).toMatchObject({ success: true, source: USER, destination: POOL, source_secondary: null, asset: null });
    expect(data(a, 'dex_withdraw_liquidity_data')).toMatchObject({
      dex: 'dedust_v2', lp_tokens_burnt: 990n, is_refund: false, amount1: 11n, asset1_out: null, dex_wallet_1: POOL,
      amount2: 22n, asset2_out: J1, dex_wallet_2: POOL, dex_jetton_wallet_2: POOL_J1, user_jetton_wallet_2: USER_J1,
    });
  });

  it('no Withdrawal event: failed and refunded, the LP the request named', () => {
    const [a] = actions(t({ event: false }), 'dex_withdraw_liquidity');
    expect(a.success).toBe(false);
    expect(data(a, 'dex_withdraw_liquidity_data')).toMatchObject({ lp_tokens_burnt: 1000n, is_refund: true });
  });

  it('a withdrawal that auto-claims fees is not reported (its payouts mix in the fees)', () => {
    expect(actions(t({ autoClaim: true }), 'dex_withdraw_liquidity')).toHaveLength(0);
  });
});

describe('DeDust V2 deposit', () => {
  const credit = (isX: boolean, amount: bigint) => op64(0xdc5ddba1).storeBit(isX).storeCoins(amount).endCell();
  const join = op64(0x25251ee0).storeRef(empty()).storeCoins(500n).storeCoins(60n).storeAddress(A(USER)).endCell();
  const depositEvent = beginCell().storeUint(0x35df2e12, 32).storeCoins(500n).storeCoins(55n).storeCoins(777n).storeAddress(A(USER)).storeAddress(A(USER)).storeRef(empty()).endCell();
  const payload = depositPayload(500n, 60n);
  /** the TON leg (X) credited first, the jetton leg (Y) second: its credit's escrow joins the pool */
  const t = (o: { accepted: boolean; refundTo?: string }) => {
    const joinTx: TxSpec = o.accepted
      ? {
        account: POOL, from: ESCROW, body: join, logs: [depositEvent],
        out: [{ account: POSITION, from: POOL, body: op64(0x855afcbd).endCell() }, jettonLeg({ sender: POOL, senderWallet: POOL_J1, receiverWallet: o.refundTo ? POSITION_J1 : USER_J1, receiver: o.refundTo ?? USER, amount: 5n })],
      }
      : { account: POOL, from: ESCROW, body: join, out: [payoutTo(POOL, o.refundTo ?? USER, 500n, 1), jettonLeg({ sender: POOL, senderWallet: POOL_J1, receiverWallet: USER_J1, receiver: USER, amount: 60n })] };
    return trace(
      { account: POOL, from: USER, body: payNative(500n, payload), out: [{ account: ESCROW, from: POOL, body: credit(true, 500n), origStatus: 'nonexist', out: [{ account: USER, from: ESCROW, body: excess() }] }] },
      jettonLeg({
        sender: USER, senderWallet: USER_J1, receiverWallet: POOL_J1, receiver: POOL, amount: 60n, payload: payJetton(payload),
        children: [{ account: ESCROW, from: POOL, body: credit(false, 60n), out: [joinTx] }],
      }),
    );
  };

  it('completed: the event\'s amounts and LP, the legs\' assets and wallets (the TON leg merged in), the targets, dust refunds', () => {
    const res = classifyTrace(t({ accepted: true }));
    const deposits = res.actions.filter((a) => a.type === 'dex_deposit_liquidity');
    expect(deposits).toHaveLength(1);
    const [a] = deposits;
    expect(a).toMatchObject({ success: true, source: USER, destination: POOL, destination_secondary: ESCROW });
    expect(data(a, 'dex_deposit_liquidity_data')).toEqual({
      dex: 'dedust_v2', asset1: null, amount1: 500n, asset2: J1, amount2: 55n, user_jetton_wallet_1: null, user_jetton_wallet_2: USER_J1,
      lp_tokens_minted: 777n, target_asset_1: null, target_amount_1: 500n, target_asset_2: J1, target_amount_2: 60n,
      vault_excesses: [{ asset: J1, amount: 5n }],
    });
    expect(res.actions.filter((x) => x.parent_action_id === null).map((x) => x.type).sort()).toEqual(['contract_deploy', 'dex_deposit_liquidity']);
  });

  it('a refund to someone else than the initiator: the completing leg is not reported, the legs stay partial', () => {
    const deposits = actions(t({ accepted: true, refundTo: POSITION }), 'dex_deposit_liquidity');
    expect(deposits.map((a) => data(a, 'dex_deposit_liquidity_data').lp_tokens_minted)).toEqual([null, null]);
  });

  it('rejected (no Deposit event): failed, the join\'s attempted amounts, both refunds as excesses', () => {
    const [a, ...rest] = actions(t({ accepted: false }), 'dex_deposit_liquidity');
    expect(rest).toHaveLength(0);
    expect(a.success).toBe(false);
    expect(data(a, 'dex_deposit_liquidity_data')).toMatchObject({
      amount1: 500n, amount2: 60n, asset1: null, asset2: J1, lp_tokens_minted: null,
      vault_excesses: [{ asset: J1, amount: 60n }, { asset: null, amount: 500n }],
    });
  });

  it('a leg alone (its escrow never joins): a partial deposit, eight data columns and the escrow', () => {
    const lone = trace({ account: POOL, from: USER, body: payNative(500n, payload), out: [{ account: ESCROW, from: POOL, body: credit(true, 500n) }] });
    const [a] = actions(lone, 'dex_deposit_liquidity');
    expect(a).toMatchObject({ source: USER, destination: POOL, destination_secondary: ESCROW });
    expect(data(a, 'dex_deposit_liquidity_data')).toEqual({
      dex: 'dedust_v2', amount1: 500n, amount2: null, asset1: null, asset2: null, user_jetton_wallet_1: null, user_jetton_wallet_2: null, lp_tokens_minted: null,
    });
  });

  it('both deposit block types are v1 types (their children are not stored)', () => {
    expect(V1_OPS.has('dedust_v2_deposit_liquidity') && V1_OPS.has('dedust_v2_deposit_liquidity_partial')).toBe(true);
  });
});

describe('DeDust V2 claims', () => {
  const claimFees = (x: bigint, y: bigint) => trace({
    account: POOL, from: USER, body: op64(0x5652f1df).storeAddress(A(USER)).endCell(), out: [{
      account: POSITION, from: POOL, body: op64(0x25f19752).endCell(), out: [{
        account: POOL, from: POSITION, body: op64(0x29ff1bcf).storeCoins(x).storeCoins(y).storeAddress(A(USER)).storeAddress(A(USER)).endCell(),
        out: [
          ...(y > 0n ? [jettonLeg({ sender: POOL, senderWallet: POOL_J1, receiverWallet: USER_J1, receiver: USER, amount: y })] : []),
          ...(x > 0n ? [payoutTo(POOL, USER, x)] : []),
          { account: USER, from: POOL, body: excess() },
        ],
      }],
    }],
  });

  it('fees: each payout in the slot its amount names, a zero side empty; the type stays dedust_v2_claim_fees', () => {
    const [a] = actions(claimFees(30n, 40n), 'dedust_v2_claim_fees');
    expect(a).toMatchObject({ success: true, source: USER, destination: POOL, destination_secondary: POSITION });
    expect(data(a, 'dex_withdraw_liquidity_data')).toEqual({
      dex: 'dedust_v2', amount1: 30n, amount2: 40n, asset1_out: null, asset2_out: J1, user_jetton_wallet_1: null, user_jetton_wallet_2: USER_J1,
      dex_wallet_1: POOL, dex_wallet_2: POOL, dex_jetton_wallet_1: null, dex_jetton_wallet_2: POOL_J1, is_refund: false, lp_tokens_burnt: null,
    });
    const [zero] = actions(claimFees(0n, 40n), 'dedust_v2_claim_fees');
    expect(data(zero, 'dex_withdraw_liquidity_data')).toMatchObject({ amount1: 0n, asset1_out: null, dex_wallet_1: null, asset2_out: J1 });
    // not a v1 type: its children are stored too; the Go API's v1.3 case renders it from the withdraw columns
    const all = classifyTrace(claimFees(30n, 40n)).actions;
    expect(all.some((x) => x.parent_action_id === a.action_id)).toBe(true);
    expect(actionDetails(a)).toEqual({
      dex: 'dedust_v2', source: USER, pool: POOL, position: POSITION, asset_1: null, asset_2: J1, amount_1: '30', amount_2: '40',
      user_jetton_wallet_1: null, user_jetton_wallet_2: USER_J1, dex_jetton_wallet_1: null, dex_jetton_wallet_2: POOL_J1,
    });
  });

  it('a reward: the position\'s amount, the payout\'s asset and wallets', () => {
    const t = trace({
      account: POOL, from: USER, body: op64(0x909fdb65).storeUint(2, 2).storeAddress(A(USER)).endCell(), out: [{
        account: POSITION, from: POOL, body: op64(0x2e0cccba).endCell(), out: [{
          account: POOL, from: POSITION, body: op64(0x9e17fbbe).storeCoins(9n).storeUint(2, 2).storeAddress(A(USER)).storeAddress(A(USER)).endCell(),
          out: [jettonLeg({ sender: POOL, senderWallet: POOL_J1, receiverWallet: USER_J1, receiver: USER, amount: 9n })],
        }],
      }],
    });
    const [a] = actions(t, 'dedust_v2_claim_reward');
    expect(a).toMatchObject({ success: true, destination_secondary: POSITION });
    expect(data(a, 'dex_withdraw_liquidity_data')).toMatchObject({ amount1: 9n, asset1_out: J1, user_jetton_wallet_1: USER_J1, dex_wallet_1: POOL, dex_jetton_wallet_1: POOL_J1, amount2: null });
    expect(actionDetails(a)).toEqual({
      dex: 'dedust_v2', source: USER, pool: POOL, position: POSITION, asset: J1, amount: '9', user_jetton_wallet: USER_J1, dex_jetton_wallet: POOL_J1,
    });
  });
});
