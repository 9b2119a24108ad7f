// staking.py: Tonstakers (deposit, withdrawal, request, NFT-burn withdrawal), nominator pools, Coffee staking and
// (newer upstream) Hipo, every branch of their matchers. Real traces of toncenter's suite where they have the case;
// otherwise traces built around the real bodies of those traces, and bodies written from the contracts' TL-B where
// no real one exists (Coffee staking, Hipo, the Tonstakers payout after an NFT burn).
import { Address } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { CallContractBlock } from '../../src/actions/basic-blocks.ts';
import { withTraceContext } from '../../src/actions/context.ts';
import { Block } from '../../src/actions/core.ts';
import { MATCHERS, TONStakersDelayedWithdrawalMatcher, TONStakersWithdrawBlock } from '../../src/actions/families/staking.ts';
import { classifyTrace, toApiAction } from '../../src/actions/index.ts';
import { HIPO_PARENT_ADDRESS, HIPO_TREASURY_ADDRESS } from '../../src/actions/messages/staking.ts';
import type { AccountInterfaces, ActionRow, Trace } from '../../src/actions/model.ts';
import { processEvent } from '../../src/actions/processing.ts';
import { blockToAction } from '../../src/actions/serializer.ts';
import { body, bodyOf, comment, graph, load, sortedTypes } from './defi-fixtures.ts';
import { addr, buildTrace, type TxSpec } from './trace-builder.ts';
import { checkEntry } from './conformance/check.ts';
import { comparableBlock, comparableRow } from './conformance/runner.ts';

const TS_DEPOSIT = 'rbzKlyNgAhDnQ15r4tremaPVl_xURNgmSJQSyhGLSX4=.json';
const TS_REQUEST = 'GO-NI0EjOuhj1z4YzHK-VDAAOJsLm710DvyRRRMXhoY=.json';
const STONFI = '01SkGWslZ8iEn3bXyb0ga5dWB5gRzw8zWAuwfUI4ZMA=.json'; // a plain jetton transfer with notify and excess

const USER = addr(0, 'a1'), POOL = addr(0, 'b2'), MINTER = addr(0, 'c3'), WALLET = addr(0, 'd4'), NFT = addr(0, 'e5'), COLL = addr(0, 'f6');
const OTHER = addr(0, '17'), OTHER2 = addr(0, '28');
const TON = 1_000_000_000n;
const A = (raw: string) => Address.parse(raw);
const jw = (owner: string, jetton: string): AccountInterfaces => ({ raw: { JettonWallet: { owner, jetton, balance: 0 } } });
const only = (t: Trace, type: string): ActionRow => {
  const all = classifyTrace(t).actions.filter((a) => a.type === type);
  expect(all).toHaveLength(1);
  return all[0];
};
const types = (t: Trace) => sortedTypes(classifyTrace(t).actions);

describe('Tonstakers deposit', () => {
  it('a real deposit: the value less the 1 TON fee, the tsTON minted, the minter as asset', () => {
    const a = only(load(TS_DEPOSIT), 'stake_deposit');
    expect(toApiAction(a).details).toEqual({
      provider: 'liquid_staking',
      stake_holder: '0:90D9D438C3D05F474DD5ABC232C2A7D493D3D890C43EF74742999A68015AB874',
      pool: '0:A45B17F28409229B78360E3290420F13E4FE20F90D7E2BF8C4AC6703259E22FA',
      amount: '10000000000',
      tokens_minted: '9439323796',
      asset: '0:BDF3FA8098D129B54B4F73B5BAC5D1E1FD91EB054169C3916DFC8CCD536D1000',
    });
    expect(a.success).toBe(true);
  });

  const deposit = (opts: { aborted?: boolean; mint?: boolean } = {}) => buildTrace({
    account: USER, from: null, out: [{
      account: POOL, from: USER, value: 11n * TON, body: bodyOf(TS_DEPOSIT, 0x47d54391), aborted: opts.aborted,
      out: opts.mint === false ? [] : [{
        account: MINTER, from: POOL, body: bodyOf(TS_DEPOSIT, 0x1674b0a0),
        out: [{ account: WALLET, from: MINTER, body: bodyOf(TS_DEPOSIT, 0x178d4519), out: [{ account: USER, from: WALLET, body: bodyOf(TS_DEPOSIT, 0x7362d09c) }, { account: USER, from: WALLET, body: bodyOf(TS_DEPOSIT, 0xd53276db) }] }],
      }],
    }],
  }, { interfaces: { [WALLET]: jw(USER, MINTER) } });

  it('merges the mint, the internal transfer, notification and excess', () => {
    const a = only(deposit(), 'stake_deposit');
    expect(a).toMatchObject({ source: USER, destination: POOL, amount: 10n * TON, asset: MINTER, success: true, staking_data: { provider: 'liquid_staking', tokens_minted: 9439323796n } });
    expect(a.tx_hashes).toHaveLength(6);
  });

  it('a deposit call that failed is a failed deposit without tokens', () => {
    const a = only(deposit({ aborted: true }), 'stake_deposit');
    expect(a).toMatchObject({ success: false, amount: 10n * TON, staking_data: { tokens_minted: null } });
  });

  it('without the mint leg there is no deposit (upstream reads the asset off that leg unguarded)', () => {
    expect(types(deposit({ mint: false }))).toEqual(['call_contract']);
  });
});

describe('Tonstakers withdrawal', () => {
  const BURN = bodyOf(TS_REQUEST, 0x595f07bc), NOTIFICATION = bodyOf(TS_REQUEST, 0x7bdd97de), REQUEST = bodyOf(TS_REQUEST, 0x319b0cdc);

  it('a real request: the tsTON burnt, the wallet, the request NFT the pool minted (its init call)', () => {
    const a = only(load(TS_REQUEST), 'stake_withdrawal_request');
    expect(a).toMatchObject({ source: '0:86530F927FE5C3C25FA6C117332FDC2C626F98DCE1E165FFE73014809FD43FCC', source_secondary: '0:518C1B9462A4073EAD26B9308BEF3350ABBB6D21666E17ECC1D4BB5656C2227A', success: true });
    expect(toApiAction(a).details).toEqual({
      provider: 'liquid_staking',
      stake_holder: '0:86530F927FE5C3C25FA6C117332FDC2C626F98DCE1E165FFE73014809FD43FCC',
      pool: '0:A45B17F28409229B78360E3290420F13E4FE20F90D7E2BF8C4AC6703259E22FA',
      payout_nft: '0:7ABD6C4CD7E44D1E3D293C1F8324F4AF610F69F62966E009662D3442484D3025',
      asset: '0:BDF3FA8098D129B54B4F73B5BAC5D1E1FD91EB054169C3916DFC8CCD536D1000',
      // the Go API shows the burnt amount for provider "tonstakers" only
      tokens_burnt: null,
    });
  });

  const withdraw = (poolOut: TxSpec[]) => buildTrace({
    account: USER, from: null, out: [{
      account: WALLET, from: USER, body: BURN, out: [{
        account: MINTER, from: WALLET, body: NOTIFICATION, out: [{ account: POOL, from: MINTER, value: TON, body: REQUEST, out: poolOut }],
      }],
    }],
  }, { interfaces: { [WALLET]: jw(USER, MINTER) } });

  it('an immediate withdrawal: the payout less what the request carried', () => {
    const a = only(withdraw([{ account: USER, from: POOL, value: 5n * TON, body: body(0x0a77535c) }]), 'stake_withdrawal');
    expect(a).toMatchObject({ source: USER, destination: POOL, amount: 4n * TON, asset: MINTER, success: true, staking_data: { provider: 'liquid_staking', ts_nft: null, tokens_burnt: 67599n } });
  });

  it('a delayed request whose pool minted no NFT is a failed request', () => {
    const a = only(withdraw([{ account: COLL, from: POOL, body: bodyOf(TS_REQUEST, 0x1674b0a0) }]), 'stake_withdrawal_request');
    expect(a).toMatchObject({ success: false, amount: 67599n, source_secondary: WALLET, staking_data: { ts_nft: null } });
  });

  it('a delayed request takes the NFT of an nft_mint block (nft.py\'s) after the mint call', () => {
    // the collection's answer is no init_nft: only as an nft_mint block does it name the NFT
    const trace = withdraw([{ account: COLL, from: POOL, body: bodyOf(TS_REQUEST, 0x1674b0a0), out: [{ account: NFT, from: COLL, body: body(0x12345678) }] }]);
    expect(only(trace, 'stake_withdrawal_request').success).toBe(false);
    const block = withTraceContext(trace, () => {
      // the basic blocks, before any matcher ran
      const nodes = [...graph(trace).bfsIter()];
      const burn = nodes.find((b) => b instanceof CallContractBlock && b.opcode === 0x595f07bc)!;
      const mint = new Block('nft_mint', [], { source: COLL, address: NFT, opcode: 0x12345678, collection: COLL, index: 7n });
      mint.mergeBlocks([nodes.find((b) => b instanceof CallContractBlock && b.opcode === 0x12345678)!]);
      return MATCHERS.TONStakersWithdrawMatcher.tryBuild(burn)!.find((b) => b.btype === 'tonstakers_withdraw_request')!;
    });
    expect(block.failed).toBe(false);
    expect(blockToAction(block, trace)).toMatchObject({ type: 'stake_withdrawal_request', success: true, staking_data: { ts_nft: NFT } });
  });

  it('is not Tonstakers without the pool\'s withdraw request (a plain burn)', () => {
    const trace = buildTrace({ account: USER, from: null, out: [{ account: WALLET, from: USER, body: BURN, out: [{ account: MINTER, from: WALLET, body: NOTIFICATION }] }] }, { interfaces: { [WALLET]: jw(USER, MINTER) } });
    expect(types(trace)).toEqual(['jetton_burn']);
  });
});

describe('Tonstakers payout after a request NFT is burnt', () => {
  const NOTIFY = (amount: bigint, owner: string) => body(0xed58b0b2, (b) => b.storeUint(1, 64).storeCoins(amount).storeAddress(A(owner)));
  const burnChain = (nft: string, owner: string, amount: bigint, paid: bigint): TxSpec => ({
    account: nft, from: COLL, body: body(0xf127fe4e), out: [{ account: COLL, from: nft, body: NOTIFY(amount, owner), out: [{ account: owner, from: COLL, value: paid, body: body(0xdb3b8abd) }] }],
  });

  it('the owner, the burnt NFT, the tokens, the payout; the pool from the distribution start call', () => {
    const trace = buildTrace({ account: POOL, from: null, body: body(0x7c60255d), out: [{ account: COLL, from: POOL, body: body(0x1140a64f), out: [burnChain(NFT, USER, 67599n, 2n * TON)] }] });
    const a = only(trace, 'stake_withdrawal');
    expect(a).toMatchObject({ source: USER, destination: POOL, amount: 2n * TON, asset: null, success: true, staking_data: { provider: 'liquid_staking', ts_nft: NFT, tokens_burnt: 67599n } });
    expect(toApiAction(a).details).toMatchObject({ payout_nft: NFT, tokens_burnt: '67599', amount: '2000000000' });
  });

  it('several burns of one distribution: an action each', () => {
    const trace = buildTrace({
      account: POOL, from: null, body: body(0x7c60255d), out: [{
        account: COLL, from: POOL, body: body(0x1140a64f), out: [burnChain(NFT, USER, 1n, 10n), burnChain(OTHER, OTHER2, 2n, 20n), burnChain(addr(0, '39'), addr(0, '4a'), 3n, 30n)],
      }],
    });
    const acts = classifyTrace(trace).actions.filter((a) => a.type === 'stake_withdrawal');
    expect(acts.map((a) => [a.source, a.staking_data!.ts_nft, a.amount, a.destination]).sort()).toEqual([
      [USER, NFT, 10n, POOL], [OTHER2, OTHER, 20n, POOL], [addr(0, '4a'), addr(0, '39'), 30n, POOL],
    ].sort());
  });

  it('no pool when the chain starts elsewhere', () => {
    const trace = buildTrace({ account: COLL, from: null, body: body(0x7c60255d), out: [burnChain(NFT, USER, 67599n, 2n * TON)] });
    expect(only(trace, 'stake_withdrawal').destination).toBeNull();
  });

  // toncenter's case "TS Withdrawal via nft burn" (tonstakers.yaml) names its block by `value.min_lt` and lists five
  // accounts over four transactions: the distribution's sender of the burns is not the contract the NFT notifies
  it('as toncenter\'s case checks it: the block picked by its min_lt, the action by its start_lt, five accounts', () => {
    const DIST = addr(0, '39');
    const chain = (nft: string, owner: string, amount: bigint, paid: bigint): TxSpec => ({
      account: nft, from: DIST, body: body(0xf127fe4e), out: [{ account: COLL, from: nft, body: NOTIFY(amount, owner), out: [{ account: owner, from: COLL, value: paid, body: body(0xdb3b8abd) }] }],
    });
    const trace = buildTrace({
      account: POOL, from: null, body: body(0x7c60255d), out: [{ account: DIST, from: POOL, body: body(0x1140a64f), out: [chain(OTHER, OTHER2, 1n, 10n), chain(NFT, USER, 4170935n, 85961295n)] }],
    });
    const burnLt = trace.transactions.filter((t) => t.inMsg?.opcode === 0xf127fe4e)[1].inMsg!.createdLt!;
    const res = classifyTrace(trace);
    checkEntry('block', {
      type: 'tonstakers_withdraw', selector: `{{ value.min_lt == ${burnLt} }}`,
      values: { data: { stake_holder: USER, burnt_nft: NFT, pool: POOL, tokens_burnt: 4170935n, amount: 85961295n } },
    }, res.blocks.map(comparableBlock), (x) => String((x as { btype: string }).btype));
    checkEntry('action', {
      type: 'stake_withdrawal', selector: `{{ value.start_lt == ${burnLt} }}`,
      values: {
        accounts: [USER, NFT, POOL, COLL, DIST], amount: 85961295n, source: USER, destination: POOL, asset: null,
        staking_data: { provider: 'liquid_staking', ts_nft: NFT, tokens_burnt: 4170935n },
      },
    }, res.actions.map(comparableRow), (x) => String((x as { type: string }).type));
    expect(res.actions.find((a) => a.start_lt === burnLt)!.tx_hashes).toHaveLength(4);
  });

  it('the pool walk stops at a built Tonstakers withdrawal (its pool) and at any other block', () => {
    const prev = new TONStakersWithdrawBlock({ stake_holder: USER, burnt_nft: null, pool: POOL, tokens_burnt: 1n, amount: 1n, asset: null });
    const start = new Block('x', [], null);
    start.previousBlock = prev;
    expect(TONStakersDelayedWithdrawalMatcher.tryFindPoolAddr(start)).toBe(POOL);
    const other = new Block('y', [], null);
    start.previousBlock = other;
    expect(TONStakersDelayedWithdrawalMatcher.tryFindPoolAddr(start)).toBeNull();
  });
});

describe('nominator pools', () => {
  const NOMINATOR: Record<string, AccountInterfaces> = { [POOL]: { codeHash: '9a3ec14bc098f6b44064c305222caea2800f17dda85ee6a8198a7095ede10dcf' } };
  const to = (text: string, value: bigint, back: TxSpec[] = [], interfaces = NOMINATOR) =>
    buildTrace({ account: USER, from: null, out: [{ account: POOL, from: USER, value, body: comment(text), out: back }] }, { interfaces });

  it('"d" to a nominator pool is a deposit; to another account a transfer', () => {
    expect(toApiAction(only(to('d', 10n * TON), 'stake_deposit')).details).toMatchObject({ provider: 'nominator', stake_holder: USER, pool: POOL, amount: '10000000000' });
    expect(types(to('d', 10n * TON, [], {}))).toEqual(['ton_transfer']);
  });

  it('"w": paid at once (one transfer back, worth more), a request (worth less, or none), or payout and change (two)', () => {
    const back = (v: bigint, lt = 0): TxSpec => ({ account: USER, from: POOL, value: v, body: comment(`r${lt}`) });
    expect(only(to('w', TON, [back(5n * TON)]), 'stake_withdrawal')).toMatchObject({ amount: 5n * TON, source: USER, destination: POOL, staking_data: { provider: 'nominator' } });
    expect(only(to('w', TON, [back(TON / 2n)]), 'stake_withdrawal_request').amount).toBeNull();
    expect(only(to('w', TON), 'stake_withdrawal_request').destination).toBe(POOL);
    // two transfers: the payout is the earlier one
    const two = only(to('w', TON, [back(3n * TON, 1), back(TON / 10n, 2)]), 'stake_withdrawal');
    expect(two.amount).toBe(3n * TON);
    expect(two.tx_hashes).toHaveLength(4);
    expect(types(to('w', TON, [], {}))).toEqual(['ton_transfer']);
  });

  it('the owner\'s "process withdraw requests" (op 2): a completed withdrawal per transfer the pool sends', () => {
    const trace = (interfaces: Record<string, AccountInterfaces>) => buildTrace({
      account: OTHER, from: null, out: [{
        account: POOL, from: OTHER, body: body(2), out: [{ account: USER, from: POOL, value: 3n * TON, body: comment('') }, { account: OTHER2, from: POOL, value: 4n * TON, body: comment('') }],
      }],
    }, { interfaces });
    const acts = classifyTrace(trace(NOMINATOR)).actions.filter((a) => a.type === 'stake_withdrawal');
    expect(acts.map((a) => [a.source, a.destination, a.amount]).sort()).toEqual([[USER, POOL, 3n * TON], [OTHER2, POOL, 4n * TON]].sort());
    expect(classifyTrace(trace({})).actions.some((a) => a.type === 'stake_withdrawal')).toBe(false);
  });
});

describe('Coffee staking', () => {
  const TRANSFER = bodyOf(STONFI, 0x0f8a7ea5), INTERNAL = bodyOf(STONFI, 0x178d4519), NOTIFY = bodyOf(STONFI, 0x7362d09c);
  const USER_JW = addr(0, '51'), POOL_JW = addr(0, '62'), JETTON = addr(0, '73'), VAULT = addr(0, '84'), VAULT_JW = addr(0, '95'), LOG = addr(0, 'a6');
  /** a jetton transfer from `from` (via its wallet) to the wallet `toWallet`, whose owner is `to`, which answers with `then` */
  const transfer = (from: string, fromWallet: string, toWallet: string, to: string, then: TxSpec[] = []): TxSpec => ({
    account: fromWallet, from, body: TRANSFER, out: [{ account: toWallet, from: fromWallet, body: INTERNAL, out: [{ account: to, from: toWallet, body: NOTIFY, out: then }] }],
  });
  const wallets = { [USER_JW]: jw(USER, JETTON), [POOL_JW]: jw(POOL, JETTON), [VAULT_JW]: jw(VAULT, JETTON) };

  it('deposit: a jetton transfer to the pool, its staking call, and the position NFT it mints', () => {
    const trace = buildTrace({
      account: USER, from: null, out: [transfer(USER, USER_JW, POOL_JW, POOL, [{
        account: COLL, from: POOL, body: body(0xf9471134), out: [{ account: LOG, from: COLL, body: body(0xf9471134) }, { account: NFT, from: COLL, body: body(0x5fcc3d14) }],
      }])],
    }, { interfaces: wallets });
    const run = (withMint: boolean) => withTraceContext(trace, () => {
      const nodes = [...processEvent(trace).bfsIter()];
      const jettonTransfer = nodes.find((b) => b.btype === 'jetton_transfer')!;
      if (withMint) {
        const mint = new Block('nft_mint', [], { source: COLL, address: NFT, opcode: 0x5fcc3d14, collection: COLL, index: 12n });
        mint.mergeBlocks([nodes.find((b) => b instanceof CallContractBlock && b.opcode === 0x5fcc3d14)!]);
      }
      const r = MATCHERS.CoffeeStakingDepositMatcher.tryBuild(jettonTransfer);
      return r?.find((b) => b.btype === 'coffee_staking_deposit') ?? null;
    });
    // without nft.py's nft_mint block there is nothing to match
    expect(run(false)).toBeNull();
    const block = run(true)!;
    const a = blockToAction(block, trace);
    expect(toApiAction(a).details).toEqual({
      source: USER, source_jetton_wallet: USER_JW, pool: COLL, pool_jetton_wallet: POOL_JW, asset: JETTON, amount: '1000000000',
      minted_item_address: NFT, minted_item_index: '12',
    });
    // the log was merged too
    expect(a.tx_hashes).toHaveLength(7);
  });

  const W2 = body(0xcb03bfaf, (b) => b.storeUint(9, 64).storeUint(41, 64).storeAddress(A(USER)).storeCoins(500n).storeRef(body(0, (j) => j.storeAddress(A(VAULT_JW)).storeCoins(777n))));
  const W3 = body(0xcb03bfaf, (b) => b.storeUint(9, 64).storeAddress(A(VAULT_JW)).storeCoins(1000n).storeAddress(A(USER)));

  it('withdraw: withdraw_1 -> withdraw_2 -> withdraw_3 -> the jetton payout, with the duplicated log', () => {
    const trace = (opts: { log?: boolean; payout?: boolean } = {}) => buildTrace({
      account: USER, from: null, out: [{
        account: NFT, from: USER, body: body(0xcb03bfaf), out: [{
          account: POOL, from: NFT, body: W2, out: [
            { account: VAULT, from: POOL, body: W3, out: opts.payout === false ? [] : [transfer(VAULT, VAULT_JW, USER_JW, USER)] },
            ...(opts.log === false ? [] : [{ account: LOG, from: POOL, body: W3 }]),
          ],
        }],
      }],
    }, { interfaces: wallets });
    const a = only(trace(), 'coffee_staking_withdraw');
    expect(toApiAction(a).details).toEqual({
      source: USER, source_jetton_wallet: USER_JW, pool: NFT, pool_jetton_wallet: VAULT_JW, asset: JETTON, amount: '1000',
      nft_address: NFT, nft_index: '41', points: '500',
    });
    // the seven transactions of the chain (the log's among them) and the user's external
    expect(a.tx_hashes).toHaveLength(8);
    expect(only(trace({ log: false }), 'coffee_staking_withdraw').tx_hashes).toHaveLength(7);
    expect(types(trace({ payout: false }))).not.toContain('coffee_staking_withdraw');
  });

  it('claim rewards: the pool pays the reward out as a jetton transfer, with a log', () => {
    const CLAIM = body(0xb30c7310, (b) => b.storeUint(3, 64).storeAddress(A(POOL_JW)).storeCoins(888n).storeAddress(A(USER)).storeBit(0));
    const trace = (children: TxSpec[], interfaces = wallets) => buildTrace({ account: OTHER, from: null, out: [{ account: POOL, from: OTHER, body: CLAIM, out: children }] }, { interfaces });
    const a = only(trace([transfer(POOL, POOL_JW, USER_JW, USER), { account: LOG, from: POOL, body: CLAIM }]), 'coffee_staking_claim_rewards');
    expect(toApiAction(a).details).toEqual({ pool: POOL, pool_jetton_wallet: POOL_JW, recipient: USER, recipient_jetton_wallet: USER_JW, asset: JETTON, amount: '888' });
    // no jetton transfer among the answers (the receiving wallet unknown): no claim; no answer at all: not even tried
    expect(types(trace([transfer(POOL, POOL_JW, USER_JW, USER)], {}))).not.toContain('coffee_staking_claim_rewards');
    expect(types(trace([]))).toEqual(['call_contract']);
  });
});

describe('Hipo (newer upstream)', () => {
  const T = HIPO_TREASURY_ADDRESS, P = HIPO_PARENT_ADDRESS, UW = WALLET, BILL = NFT;
  const none = (b: import('@ton/core').Builder) => b.storeUint(0, 2);
  const DEPOSIT = (owner: string | null, coins: bigint) => body(0x3d3761a6, (b) => (owner ? b.storeUint(0, 64).storeAddress(A(owner)) : none(b.storeUint(0, 64))).storeCoins(coins).storeCoins(0n).storeUint(0, 2));
  const MINTED = (op: number, tokens: bigint, coins: bigint, owner: string) => body(op, (b) => b.storeUint(0, 64).storeCoins(tokens).storeCoins(coins).storeAddress(A(owner)).storeUint(5, 32));
  const SAVE = (op: number, coins: bigint, owner: string) => body(op, (b) => b.storeUint(0, 64).storeCoins(coins).storeAddress(A(owner)).storeUint(5, 32));
  const BILL_MSG = (op: number, amount: bigint, owner: string, parent: string) => body(op, (b) => b.storeUint(0, 64).storeCoins(amount).storeBit(1).storeAddress(A(owner)).storeAddress(A(parent)).storeCoins(0n));
  const RESERVE = (op: number, tokens: bigint, owner: string) => body(op, (b) => b.storeUint(0, 64).storeCoins(tokens).storeAddress(A(owner)).storeUint(0, 4).storeCoins(0n));
  const BURNED = (tokens: bigint, coins: bigint, owner: string) => body(0x4476fde0, (b) => b.storeUint(0, 64).storeCoins(tokens).storeCoins(coins).storeAddress(A(owner)));
  const ROLLBACK = (tokens: bigint, owner: string) => body(0x32b67194, (b) => b.storeUint(0, 64).storeCoins(tokens).storeAddress(A(owner)));
  const ROUND = (op: number, amount: bigint, owner: string) => body(op, (b) => b.storeUint(0, 64).storeCoins(amount).storeAddress(A(owner)).storeAddress(A(P)).storeUint(5, 32));
  const instant: TxSpec = { account: P, from: T, body: MINTED(0x5be57626, 9n * TON, 10n * TON, USER), out: [{ account: UW, from: P, body: MINTED(0x5445efee, 9n * TON, 10n * TON, USER), out: [{ account: USER, from: UW, body: body(0x7362d09c) }] }] };
  const bill: TxSpec = { account: COLL, from: T, body: BILL_MSG(0x4b2d7871, 3n * TON, USER, P), out: [{ account: BILL, from: COLL, body: BILL_MSG(0x3275dfc2, 3n * TON, USER, P) }] };
  const deposit = (msg: TxSpec['body'], answers: TxSpec[], value = 10n * TON) => buildTrace({ account: USER, from: null, out: [{ account: T, from: USER, value, body: msg, out: answers }] });

  it('deposit_coins minted at once: the GRAM in, the hGRAM minted, the parent as asset', () => {
    const a = only(deposit(DEPOSIT(null, 0n), [instant]), 'stake_deposit');
    expect(a).toMatchObject({ source: USER, destination: T, amount: 10n * TON, asset: P, success: true, staking_data: { provider: 'hipo', tokens_minted: 9n * TON, ts_nft: null } });
    // staking for another owner
    expect(only(deposit(DEPOSIT(OTHER, 0n), [instant]), 'stake_deposit').source).toBe(OTHER);
  });

  it('a deferred deposit: saved until the round ends, with its bill', () => {
    const saved: TxSpec = { account: P, from: T, body: SAVE(0x47daa10f, 7n * TON, USER), out: [{ account: UW, from: P, body: SAVE(0x4cce0e74, 7n * TON, USER) }] };
    const a = only(deposit(DEPOSIT(null, 0n), [saved, bill]), 'stake_deposit');
    expect(a).toMatchObject({ amount: 7n * TON, success: true, staking_data: { tokens_minted: null, ts_nft: BILL } });
  });

  it('a deposit the treasury answered neither way is failed, with the coins asked for (or the value)', () => {
    expect(only(deposit(DEPOSIT(null, 4n * TON), []), 'stake_deposit')).toMatchObject({ success: false, amount: 4n * TON });
    expect(only(deposit(DEPOSIT(null, 0n), [], 6n * TON), 'stake_deposit')).toMatchObject({ success: false, amount: 6n * TON });
  });

  it('the comment "d" (or "D") is a deposit; another comment, or another account, is not', () => {
    expect(only(deposit(comment('d'), [instant]), 'stake_deposit')).toMatchObject({ source: USER, amount: 10n * TON });
    expect(only(deposit(comment('D'), [instant]), 'stake_deposit').success).toBe(true);
    expect(types(deposit(comment('deposit'), [instant]))).not.toContain('stake_deposit');
  });

  const unstake = (treasuryAnswers: TxSpec[], reserveTo = T) => buildTrace({
    account: USER, from: null, out: [{
      account: UW, from: USER, body: bodyOf(TS_REQUEST, 0x595f07bc), out: [{
        account: P, from: UW, body: RESERVE(0x688b0213, 67599n, USER), out: [{ account: reserveTo, from: P, body: RESERVE(0x386a358b, 67599n, USER), out: treasuryAnswers }],
      }],
    }],
  }, { interfaces: { [UW]: jw(USER, P) } });

  it('unstake: paid at once, requested with a bill, or rolled back (then a plain burn)', () => {
    const paid: TxSpec = { account: P, from: T, body: BURNED(67599n, 2n * TON, USER), out: [{ account: UW, from: P, body: body(0x5b512e25), out: [{ account: USER, from: UW, body: body(0xf0fa223b) }] }] };
    expect(only(unstake([paid]), 'stake_withdrawal')).toMatchObject({ source: USER, destination: T, amount: 2n * TON, asset: P, staking_data: { provider: 'hipo', tokens_burnt: 67599n, ts_nft: null } });
    const requested = only(unstake([bill]), 'stake_withdrawal_request');
    expect(requested).toMatchObject({ source: USER, source_secondary: UW, amount: 3n * TON, staking_data: { ts_nft: BILL } });
    // a bill for 0 falls back to the amount burnt
    const zeroBill: TxSpec = { ...bill, body: BILL_MSG(0x4b2d7871, 0n, USER, P) };
    expect(only(unstake([zeroBill]), 'stake_withdrawal_request').amount).toBe(67599n);
    const rolled: TxSpec = { account: P, from: T, body: ROLLBACK(67599n, USER), out: [{ account: UW, from: P, body: body(0x1b77fd1a) }] };
    expect(types(unstake([rolled]))).not.toContain('stake_withdrawal');
    expect(types(unstake([rolled]))).toContain('jetton_burn');
  });

  it('a reserve that did not reach the treasury is no unstake', () => {
    const paid: TxSpec = { account: P, from: OTHER, body: BURNED(67599n, 2n * TON, USER) };
    expect(types(unstake([paid], OTHER))).not.toContain('stake_withdrawal');
  });

  const roundEnd = (op: number, answers: TxSpec[]) => buildTrace({
    account: COLL, from: null, out: [{ account: BILL, from: COLL, body: body(0x6f89f5e3), out: [{ account: COLL, from: BILL, body: body(0x840f6369), out: [{ account: T, from: COLL, body: ROUND(op, 5n * TON, USER), out: answers }] }] }],
  });

  it('round end, deposit side: the hGRAM minted, no GRAM (the deposit half reported it), the bill that burned', () => {
    const a = only(roundEnd(0x42684479, [instant]), 'stake_deposit');
    expect(a).toMatchObject({ source: USER, amount: null, asset: P, staking_data: { tokens_minted: 9n * TON, ts_nft: BILL } });
    // the bill's burn and report (parents), the treasury's mint, the parent, the wallet, the notification; the external
    expect(a.tx_hashes).toHaveLength(7);
  });

  it('round end, withdrawal side: paid, postponed to a new bill, or rolled back (failed, no amount)', () => {
    const paid: TxSpec = { account: P, from: T, body: BURNED(100n, 2n * TON, USER), out: [{ account: UW, from: P, body: body(0x5b512e25) }] };
    expect(only(roundEnd(0x7cffe1ee, [paid]), 'stake_withdrawal')).toMatchObject({ amount: 2n * TON, success: true, staking_data: { tokens_burnt: 100n, ts_nft: BILL } });
    const next: TxSpec = { account: COLL, from: T, body: BILL_MSG(0x4b2d7871, 8n, OTHER, P), out: [{ account: OTHER2, from: COLL, body: BILL_MSG(0x3275dfc2, 8n, OTHER, P) }] };
    expect(only(roundEnd(0x7cffe1ee, [next]), 'stake_withdrawal_request')).toMatchObject({ source: OTHER, source_secondary: null, amount: 8n, asset: P, staking_data: { ts_nft: OTHER2 } });
    const rolled: TxSpec = { account: P, from: T, body: ROLLBACK(100n, USER), out: [{ account: UW, from: P, body: body(0x1b77fd1a) }] };
    expect(only(roundEnd(0x7cffe1ee, [rolled]), 'stake_withdrawal')).toMatchObject({ amount: null, success: false, staking_data: { tokens_burnt: 100n, ts_nft: BILL } });
  });
});
