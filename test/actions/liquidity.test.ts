// liquidity.py: DeDust deposits (final, half, merged, rejected) and withdrawals, STON.fi v2 provide / withdraw,
// TONCO deposit / withdraw / pool deploy, swap.coffee deposit / withdraw / vault / pool creation / MEV protection.
// Real traces from toncenter's cases where they show the branch; else traces built with trace-builder around real
// bodies from those traces, and bodies written from the contracts' TL-B where no real one exists (STON.fi v2
// provision, TONCO withdrawal, coffee vault and MEV protection, DeDust's rejection).
import { readFileSync } from 'node:fs';
import { Address, beginCell, Cell, loadMessage } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { classifyTrace } from '../../src/actions/classify.ts';
import { combineDeposits } from '../../src/actions/families/liquidity.ts';
import type { AccountInterfaces, Trace } from '../../src/actions/model.ts';
import { Asset } from '../../src/actions/ton-utils.ts';
import { actionsOf, bodyOf, data, editMessages, load } from './dex-helpers.ts';
import { addr, buildTrace, type TxSpec } from './trace-builder.ts';

const FINAL = 'IlYj6neBD7lYZ0WKxfFIrrrkK3fhiEK_VfH48ihb6ZU=.json';
const FIRST = 'xu061_cOVdxLMa4sn1JJXEK5XkBiPdCzEDRNI_wWKPs=.json';
const MERGED = '-0M6pWgvSrqN06gIYbqrG2UbMCBKwiSuhR3-mZzRCS0=.json';
const MULTIPLE = 'WyDZqNoT4YsuauWAnRh5kVXWBsRzkFG5VRTEq96XuEA=.json';
const STONFI = '01SkGWslZ8iEn3bXyb0ga5dWB5gRzw8zWAuwfUI4ZMA=.json';
const TONCO_FAILED = '02TsVcC_MOggAZvHHBITbHCvzAt_hCq5WVAiKcZFMno=.json';
const TONCO_DEPLOY = '4Zs27oXglTqSa90MBUaUOxgYCXpLG7JLnLQKw+CGiws=.json';
const TONCO_DEPOSIT = '0GW2kNF4nRhw5xA3b5E35-EhF9H25H3Nvm5MJJo2VD0=.json';
const TSTON_BURN = 'GO-NI0EjOuhj1z4YzHK-VDAAOJsLm710DvyRRRMXhoY=.json';
const COFFEE_DEPOSIT = 'NVBb_A--g2M72byFHECct41iFyC7T53sbr6R11CltLw=.json';
const COFFEE_WITHDRAW = 'b0QdK2TPX7Pv7NiXvpJxf_0PEumbW1FMewsnbFi-nqs=.json';
const COFFEE_CREATE_POOL = '1VcQkyvd9V-HG0lNytSst83ap9KP46eoVvLvQi7wsx0=.json';

const jw = (owner: string, jetton: string): AccountInterfaces => ({ raw: { JettonWallet: { owner, jetton, balance: 0 } } });
const op = (opcode: number) => beginCell().storeUint(opcode, 32).storeUint(7, 64);
const USER = addr(0, 'a1'), POOL = addr(0, 'b2'), MASTER = addr(0, 'c3');
const deposits = (t: Trace) => actionsOf(t, 'dex_deposit_liquidity');
const withdrawals = (t: Trace) => actionsOf(t, 'dex_withdraw_liquidity');

describe('DeDust deposits', () => {
  it('a final deposit: the LP mint, the pool, both targets', () => {
    const [a] = deposits(load(FINAL));
    expect(a).toMatchObject({ success: true, destination: '0:A0D1BC3A139CBC6B39A3E3633F74476BE441343F9D0FD88B949FCA0327B65A75' });
    expect(data(a, 'dex_deposit_liquidity_data')).toMatchObject({ dex: 'dedust', amount1: 100000000000n, lp_tokens_minted: 8364000000000n, target_amount_2: 8364000000000n });
  });

  it('a half: the top-up of the deposit contract alone, no pool, no LP; a top-up that went on to the pool is no half', () => {
    const [a] = deposits(load(FIRST));
    expect(a.destination).toBeNull();
    expect(data(a, 'dex_deposit_liquidity_data')).toMatchObject({ amount1: 8364000000000n, lp_tokens_minted: null, asset2: null });
    expect(deposits(load(FINAL))).toHaveLength(1);
  });

  it('both halves in one trace merge into the final deposit (post_process_dedust_liquidity)', () => {
    const res = classifyTrace(load(MERGED));
    const all = res.actions.filter((x) => x.type === 'dex_deposit_liquidity');
    expect(all).toHaveLength(1);
    const d = data(all[0], 'dex_deposit_liquidity_data');
    expect(d.asset1 !== d.asset2).toBe(true);
    expect(d.amount1).not.toBeNull();
    expect(d.amount2).not.toBeNull();
    expect((d.vault_excesses as unknown[]).length).toBe(1);
  });

  it('more than two deposits through one contract: nothing is merged', () => {
    expect(deposits(load(MULTIPLE)).length).toBeGreaterThan(2);
  });

  it('a deposit the pool rejects (0xe1a36cd4 instead of the LP mint): failed, the pool from the rejection, no LP', () => {
    const t = load(FINAL);
    const pool = '0:A0D1BC3A139CBC6B39A3E3633F74476BE441343F9D0FD88B949FCA0327B65A75';
    const rejected = editMessages(t, (m) => (m.opcode === 0x178d4519 && m.source === pool ? { ...m, opcode: 0xe1a36cd4, body: op(0xe1a36cd4).endCell().toBoc().toString('base64') } : m));
    const [a] = deposits(rejected);
    expect(a.success).toBe(false);
    expect(a.destination).toBe(pool);
    expect(data(a, 'dex_deposit_liquidity_data').lp_tokens_minted).toBeNull();
  });

  it('joining the halves checks what upstream checks', () => {
    const ton = new Asset(true), jet = new Asset(false, MASTER), other = new Asset(false, addr(0, 'dd'));
    const half = { asset_1: jet, amount_1: 5n, asset_2: null, amount_2: null, user_jetton_wallet_1: addr(0, 'ee'), user_jetton_wallet_2: null, target_asset_1: jet, target_asset_2: ton };
    const final = { asset_1: ton, amount_1: 7n, asset_2: null, amount_2: null, user_jetton_wallet_1: null, user_jetton_wallet_2: null, target_asset_1: ton, target_asset_2: jet, lp_tokens_minted: 1n };
    expect(combineDeposits(half, final)).toMatchObject({ asset_1: jet, amount_1: 5n, asset_2: ton, amount_2: 7n, user_jetton_wallet_1: addr(0, 'ee'), target_asset_1: jet, target_asset_2: ton, lp_tokens_minted: 1n });
    expect(() => combineDeposits({ ...half, target_asset_2: other }, final)).toThrow(/Target assets/);
    expect(() => combineDeposits(half, { ...final, asset_1: jet, user_jetton_wallet_1: addr(0, 'ff') })).toThrow(/User wallet mismatch/);
    expect(() => combineDeposits(half, { ...final, asset_1: jet, user_jetton_wallet_1: addr(0, 'ee') })).toThrow(/exactly 2/);
  });
});

describe('DeDust withdrawal', () => {
  const payoutFromPool = (f: string) => loadMessage(Cell.fromBoc(readFileSync(new URL(`../fixtures/msgs/${f}`, import.meta.url)))[0].beginParse()).body;
  const P1 = payoutFromPool('mainnet-dedust-payout-from-pool-in-msg-lt76734069000012-18aa8e2e.boc');
  const P2 = payoutFromPool('mainnet-dedust-payout-from-pool-in-msg-lt76734069000014-18aa8e2e.boc');
  const LPW = addr(0, 'd4'), VAULT = addr(0, 'e5');
  const trace = (interfaces: Record<string, AccountInterfaces>) => buildTrace({
    account: USER, from: null, out: [{
      account: LPW, from: USER, body: bodyOf(TSTON_BURN, 0x595f07bc), out: [{
        account: POOL, from: LPW, body: bodyOf(TSTON_BURN, 0x7bdd97de), out: [P1, P2].map((p): TxSpec => ({
          account: VAULT, from: POOL, body: p, out: [{ account: USER, from: VAULT, body: bodyOf(MULTIPLE, 0x474f86cf) }],
        })),
      }],
    }],
  }, { interfaces });

  it('burn -> burn notification -> two payouts: the LP burnt, each payout\'s amount and asset', () => {
    const [a] = withdrawals(trace({ [LPW]: jw(USER, MASTER) }));
    expect(a).toMatchObject({ source: USER, source_secondary: LPW, destination: POOL, asset: MASTER });
    const d = data(a, 'dex_withdraw_liquidity_data');
    expect(d).toMatchObject({ dex: 'dedust', asset1_out: null, asset2_out: null, dex_wallet_1: VAULT, is_refund: false });
    expect([d.amount1, d.amount2]).toEqual([P1, P2].map((c) => { const s = c.beginParse(); s.loadUintBig(32 + 64); s.loadRef(); return s.loadCoins(); }));
  });

  it('an LP wallet the repository does not know is no withdrawal', () => {
    expect(withdrawals(trace({}))).toHaveLength(0);
  });
});

describe('STON.fi v2 provision', () => {
  const PTONW = addr(0, '11'), ROUTER = addr(0, '22'), LPACC = addr(0, '33'), LPW = addr(0, '44');
  const provide = (a1: bigint, a2: bigint) => op(0x37c096df).storeAddress(Address.parseRaw(USER)).storeCoins(a1).storeCoins(a2).endCell();
  const leg = (amount: bigint, end: 'lp' | 'refund' | 'none'): TxSpec => ({
    account: PTONW, from: USER, body: bodyOf(TONCO_FAILED, 0x01f3835d), out: [{
      account: ROUTER, from: PTONW, body: bodyOf(TONCO_FAILED, 0x7362d09c), out: [{
        account: POOL, from: ROUTER, body: provide(amount, 0n), out: [{
          account: LPACC, from: POOL, body: op(0x50c6a654).endCell(),
          out: end === 'none' ? [] : [{
            account: POOL, from: LPACC, body: op(0x06ecd527).endCell(),
            out: [end === 'lp' ? { account: LPW, from: POOL, body: bodyOf(STONFI, 0x178d4519) } : { account: LPACC, from: POOL, body: op(0x50c6a654).endCell() }],
          }],
        }],
      }],
    }],
  });

  it('a TON leg: the provision\'s amount, the pool, the LP minted', () => {
    const [a] = deposits(buildTrace({ account: USER, from: null, out: [leg(5n, 'lp')] }));
    expect(a).toMatchObject({ source: USER, destination: POOL, success: true });
    expect(data(a, 'dex_deposit_liquidity_data')).toMatchObject({ dex: 'stonfi_v2', amount1: 5n, asset1: null, lp_tokens_minted: 1000000000n });
  });

  it('a refund of the add is a failed deposit', () => {
    const [a] = deposits(buildTrace({ account: USER, from: null, out: [leg(5n, 'refund')] }));
    expect(a.success).toBe(false);
    expect(data(a, 'dex_deposit_liquidity_data').lp_tokens_minted).toBeNull();
  });

  it('two legs of one wallet message: the later one takes the earlier in (same sender and pool, other LP)', () => {
    const res = classifyTrace(buildTrace({ account: USER, from: null, out: [leg(5n, 'none'), leg(9n, 'lp')] }));
    const all = res.actions.filter((x) => x.type === 'dex_deposit_liquidity');
    expect(all).toHaveLength(1);
    expect(data(all[0], 'dex_deposit_liquidity_data')).toMatchObject({ amount1: 9n, amount2: 5n, lp_tokens_minted: 1000000000n });
  });
});

describe('STON.fi v2 withdrawal', () => {
  const LPW = addr(0, '55'), ROUTER = addr(0, '66'), RW = addr(0, '77'), UW = addr(0, '88');
  const payout = (): TxSpec => ({
    account: ROUTER, from: POOL, body: bodyOf('00BTqIs6w2qgKXyjfUIwS1WMPbYzWvOn0P16eku_O-4=.json', 0x657b54f5), out: [{
      account: RW, from: ROUTER, body: bodyOf(STONFI, 0x0f8a7ea5), out: [{ account: UW, from: RW, body: bodyOf(STONFI, 0x178d4519) }],
    }],
  });
  const trace = (first: TxSpec) => buildTrace({ account: USER, from: null, out: [first] }, {
    interfaces: { [LPW]: jw(USER, MASTER), [UW]: jw(USER, addr(0, '99')), [RW]: jw(ROUTER, addr(0, '99')) },
  });

  it('LP burn -> the pool\'s burn notification -> two pay-to with their payouts: one withdrawal', () => {
    const [a] = withdrawals(trace({
      account: LPW, from: USER, body: bodyOf(TSTON_BURN, 0x595f07bc), out: [{ account: POOL, from: LPW, body: op(0x297437cf).endCell(), out: [payout(), payout()] }],
    }));
    expect(a).toMatchObject({ source: USER, source_secondary: LPW, destination: POOL, asset: MASTER });
    const d = data(a, 'dex_withdraw_liquidity_data');
    expect(d).toMatchObject({ dex: 'stonfi_v2', amount1: 1000000000n, amount2: 1000000000n, is_refund: false, user_jetton_wallet_1: UW });
  });

  it('a refunded provision\'s withdrawal: is_refund, the sender from the refund request', () => {
    const [a] = withdrawals(trace({
      account: LPW, from: USER, body: op(0x132b9a2c).endCell(), out: [{ account: POOL, from: LPW, body: op(0x0f98e2b8).endCell(), out: [payout()] }],
    }));
    expect(a.source).toBe(USER);
    expect(data(a, 'dex_withdraw_liquidity_data')).toMatchObject({ is_refund: true, lp_tokens_burnt: null, amount2: null });
  });
});

describe('TONCO', () => {
  it('a pool deploy: router, pool, the create message\'s parameters', () => {
    const all = actionsOf(load(TONCO_DEPLOY), 'tonco_deploy_pool');
    expect(all.length).toBeGreaterThan(1);
    expect(all.every((a) => a.success && data(a, 'tonco_deploy_pool_data').tick_spacing === 60)).toBe(true);
  });

  it('a deposit half (no position NFT yet): its side\'s amount and asset, no LP', () => {
    const halves = deposits(load(TONCO_DEPOSIT));
    const ton = halves.find((a) => data(a, 'dex_deposit_liquidity_data').amount1 === 3029999999827n)!;
    expect(ton.source_secondary).toBeNull();
    expect(data(ton, 'dex_deposit_liquidity_data')).toMatchObject({ dex: 'tonco', asset1: null, lp_tokens_minted: null, tick_lower: -57180, tick_upper: -52980 });
  });

  // ROUTERV3_PAY_TO#a1daa96d: the router's declared amounts and wallets of the pool's two assets
  const WTTON_WALLET = '0:871DA9215B14902166F0EA2A16DB56278D528108377F8158C5F4CCFDFDD22E17';
  const J1W = addr(0, 'ab'), J1 = addr(0, 'cd'), NFT = addr(0, 'ef'), ROUTER = addr(0, 'fa');
  const withdraw = (exit: number) => {
    const coins = beginCell().storeCoins(11n).storeAddress(Address.parseRaw(WTTON_WALLET)).storeCoins(22n).storeAddress(Address.parseRaw(J1W)).endCell();
    const payTo = op(0xa1daa96d).storeAddress(Address.parseRaw(USER)).storeAddress(Address.parseRaw(USER)).storeUint(exit, 32).storeUint(0, 64).storeMaybeRef(coins).storeMaybeRef(null).endCell();
    const fees = beginCell().storeUint(0, 256).storeUint(0, 256).endCell();
    const startBurn = op(0x530b5f2c).storeUint(3, 64).storeUint(1000, 128).storeInt(-60, 24).storeInt(60, 24).endCell();
    const positionBurn = op(0x46ca335a).storeAddress(Address.parseRaw(USER)).storeUint(1000, 128).storeInt(-60, 24).storeInt(60, 24).storeRef(fees).endCell();
    const poolBurn = op(0xd73ac09d).storeAddress(Address.parseRaw(USER)).storeUint(4, 64).storeUint(5000, 128).storeInt(-60, 24).storeInt(60, 24).storeUint(1000, 128).storeRef(fees).storeRef(fees).endCell();
    return buildTrace({
      account: USER, from: null, out: [{
        account: POOL, from: USER, body: startBurn, out: [{
          account: NFT, from: POOL, body: positionBurn, out: [{ account: POOL, from: NFT, body: poolBurn, out: [{ account: ROUTER, from: POOL, body: payTo }] }],
        }],
      }],
    }, { interfaces: { [J1W]: jw(ROUTER, J1) } });
  };

  it('a withdrawal without payout transfers: the router\'s pay-to figures (the pool, its sender, as dex wallet), its pTON wallet as TON, the pool burn\'s index', () => {
    const [a] = withdrawals(withdraw(201));
    expect(a).toMatchObject({ source: USER, destination: POOL, source_secondary: null, asset: null, success: true });
    expect(data(a, 'dex_withdraw_liquidity_data')).toMatchObject({
      dex: 'tonco', amount1: 11n, asset1_out: null, amount2: 22n, asset2_out: J1, dex_wallet_1: POOL, dex_jetton_wallet_1: null,
      dex_jetton_wallet_2: J1W, user_jetton_wallet_1: USER, lp_tokens_burnt: 1000n, burned_nft_index: 4n, burned_nft_address: NFT, tick_lower: -60,
    });
  });

  it('the router refusing (exit code other than 0 / 201) fails it', () => {
    expect(withdrawals(withdraw(0))[0].success).toBe(true);
    expect(withdrawals(withdraw(7))[0].success).toBe(false);
  });
});

describe('swap.coffee', () => {
  it('a deposit in two halves: the depository, the pool and LP once the second lands', () => {
    const all = deposits(load(COFFEE_DEPOSIT));
    expect(all).toHaveLength(2);
    const last = all.find((a) => a.destination !== null)!;
    expect(data(last, 'dex_deposit_liquidity_data')).toMatchObject({ dex: 'coffee', lp_tokens_minted: 6589203740n, target_amount_1: null });
  });

  it('a withdrawal: the burn, both payouts\' assets and wallets, the amounts from the withdrawal event', () => {
    const [a] = withdrawals(load(COFFEE_WITHDRAW));
    expect(data(a, 'dex_withdraw_liquidity_data')).toMatchObject({ dex: 'coffee', amount1: 100000n, amount2: 100000000n, lp_tokens_burnt: 3162270n });
  });

  it('a pool creator, then the pool: the pool\'s order decides which creator is first', () => {
    const res = classifyTrace(load(COFFEE_CREATE_POOL));
    const pool = res.actions.find((a) => a.type === 'coffee_create_pool')!;
    expect(data(pool, 'coffee_create_pool_data')).toMatchObject({ amount_1: 1000000000000000n, amount_2: 2005112716n, lp_tokens_minted: 1416020025694n });
  });

  const VAULT = addr(0, '12'), FACTORY = addr(0, '34'), MEV = addr(0, '56');
  it('a vault creation: create_vault -> the vault\'s deploy; the asset from the request, the value sent', () => {
    const createVault = op(0xc0ffee06).storeUint(0b01, 2).storeUint(0, 8).storeBuffer(Buffer.alloc(32, 0xc3)).endCell();
    const deploy = op(0xc0ffee22).storeRef(beginCell().endCell()).storeRef(beginCell().endCell()).storeMaybeRef(null).endCell();
    const t = buildTrace({ account: USER, from: null, out: [{ account: FACTORY, from: USER, value: 5n, body: createVault, out: [{ account: VAULT, from: FACTORY, body: deploy }] }] });
    const [a] = actionsOf(t, 'coffee_create_vault');
    expect(a).toMatchObject({ source: USER, destination: VAULT, asset: MASTER, value: 5n });
    // without the deploy there is no vault creation
    expect(actionsOf(buildTrace({ account: USER, from: null, out: [{ account: FACTORY, from: USER, body: createVault }] }), 'coffee_create_vault')).toHaveLength(0);
  });

  it('MEV protection: TON held (the service fee beside it), and a failed swap\'s return', () => {
    const hold = op(0x6bc79e7e).endCell();
    const t = buildTrace({ account: USER, from: null, out: [{ account: MEV, from: USER, value: 9n, body: hold }, { account: FACTORY, from: USER, body: beginCell().storeUint(0xc0ffeea0, 32).endCell() }] });
    const [a] = actionsOf(t, 'coffee_mev_protect_hold_funds');
    expect(a).toMatchObject({ source: USER, destination: MEV, amount: 9n, asset: null, source_secondary: null });
    const failed = op(0xee51ce51).storeAddress(Address.parseRaw(USER)).endCell();
    const f = classifyTrace(buildTrace({ account: MEV, from: null, out: [{ account: USER, from: MEV, body: failed }] })).blocks.find((b) => b.btype === 'coffee_mev_protect_failed_swap')!;
    expect(f.data).toEqual({ recipient: USER, asset: new Asset(true) });
  });
});
