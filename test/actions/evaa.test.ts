// evaa.py: supply, withdraw and liquidate, every outcome and failure path. The real traces of toncenter's suite for
// the cases it has (TON and jetton supply, a failed jetton supply, TON and tsTON withdrawals); the failures and the
// liquidations in traces built around those traces' bodies, with the bodies no real trace has (the user contract's
// refusals, the liquidation messages) written from EVAA's schema.tlb as upstream reads it.
import { Address, type Builder, beginCell, type Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { classifyTrace, toApiAction } from '../../src/actions/index.ts';
import { TON_ASSET_ID } from '../../src/actions/messages/evaa.ts';
import type { AccountInterfaces, ActionRow, Trace } from '../../src/actions/model.ts';
import { body, bodyOf, load } from './defi-fixtures.ts';
import { addr, buildTrace, type TxSpec } from './trace-builder.ts';

const TON_SUPPLY = 'Pz4XQKMBH155_M3Bolebl8ulXipSfJ42eP-wG4Wn5Og=.json';
const JETTON_SUPPLY = 'j-5yrT2HRDFd7Eu9tmXI1IPjZa2VOnfL9vyKVeE18GM=.json';
const JETTON_SUPPLY_FAILED = 'ww5gZmgoXhHJ1a1wukBU5Dp1LxufRT1pzfniQTgUXxE=.json';
const TON_WITHDRAW = 'n7wJbUq7_-Li9GUnwlje3eGe5u1mZQGNEXQlGV8L-cI=.json';
const TSTON_WITHDRAW = 'OyAQgEdEKZcuU2-3dAkKpk_RFjTYJXXQYxCKoZSB7uA=.json';
const STONFI = '01SkGWslZ8iEn3bXyb0ga5dWB5gRzw8zWAuwfUI4ZMA=.json';
const MASTER = '0:BCAD466A47FA565750729565253CD073CA24D856804499090C2100D95C809F9E';

const USER = addr(0, 'a1'), UC = addr(0, 'b2'), OTHER = addr(0, 'c3'), UJW = addr(0, 'd4'), MJW = addr(0, 'e5'), JET = addr(0, 'f6'), OJW = addr(0, '17');
const A = (raw: string) => Address.parse(raw);
const jw = (owner: string, jetton: string): AccountInterfaces => ({ raw: { JettonWallet: { owner, jetton, balance: 0 } } });
const evaa = (t: Trace, type: string): ActionRow[] => classifyTrace(t).actions.filter((a) => a.type === type);
/** a message to a user contract: the user header (version, no upgrade info, upgrade exec 0), then the opcode */
const userMsg = (op: number, f: (b: Builder) => Builder = (b) => b.storeUint(0, 64)) => f(beginCell().storeCoins(1n).storeBit(0).storeUint(0, 2).storeUint(op, 32)).endCell();
/** transfer#0f8a7ea5 with its forward payload in a ref */
const jettonTransfer = (amount: bigint, to: string, payload: Cell | null) => body(0x0f8a7ea5, (b) => {
  b.storeUint(0, 64).storeCoins(amount).storeAddress(A(to)).storeAddress(A(USER)).storeBit(0).storeCoins(1n);
  return payload ? b.storeBit(1).storeRef(payload) : b.storeBit(0);
});
const INTERNAL = bodyOf(STONFI, 0x178d4519), NOTIFY = bodyOf(STONFI, 0x7362d09c);

describe('EVAA supply', () => {
  it('TON: the supply_master call, the amount supply_success reports, the user contract', () => {
    const [a] = evaa(load(TON_SUPPLY), 'evaa_supply');
    const d = toApiAction(a).details;
    expect(d).toMatchObject({
      source: '0:8FDE0001DD5DBA237F221036AB232A7F834A3A5E64BB9B273D62121E49784A69', recipient: '0:8FDE0001DD5DBA237F221036AB232A7F834A3A5E64BB9B273D62121E49784A69',
      recipient_contract: '0:B99157A0246C66C566A89BE7DDAF86EF0163E66F24A2939637C361C3FB25400B', master: MASTER, amount: '1000000000', is_ton: true,
      asset: null, asset_id: '0x' + TON_ASSET_ID.toString(16), sender_jetton_wallet: null, recipient_jetton_wallet: null,
    });
    expect(a.success).toBe(true);
  });

  it('jettons: the transfer carrying supply_master; the recipient\'s wallet is the sender\'s', () => {
    const [a] = evaa(load(JETTON_SUPPLY), 'evaa_supply');
    expect(toApiAction(a).details).toMatchObject({
      source: '0:99DE397CC852047641AB7789474F6BC3535A7E59C5600524B81D5E0D8E4EA68E', is_ton: false, amount: '47133134852',
      asset: '0:BDF3FA8098D129B54B4F73B5BAC5D1E1FD91EB054169C3916DFC8CCD536D1000',
      master_jetton_wallet: '0:910B4B5E961BF54044AF4F1DB89CDA94581EF6CC2CAC5D0D01C7DEE5573B9C43',
      recipient_jetton_wallet: '0:1C9E32F7FC0F998AB7505D2318BFF751A91AF364B4A1563B0F1754321989BFB7', source_wallet: '0:1C9E32F7FC0F998AB7505D2318BFF751A91AF364B4A1563B0F1754321989BFB7',
      // the Go API reads sender_jetton_wallet from a composite field upstream's serializer never fills
      sender_jetton_wallet: null,
    });
  });

  it('a supply the user contract refused is unsuccessful', () => {
    const [a] = evaa(load(JETTON_SUPPLY_FAILED), 'evaa_supply');
    expect(a).toMatchObject({ success: false, amount: 1500000000n, asset: '0:729C13B6DF2C07CBF0A06AB63D34AF454F3D320EC1BCD8FB5C6D24D0806A17C2' });
  });

  /** a jetton supply for `recipient`; the user contract answers with `answer` */
  const onBehalf = (recipient: string, answer: TxSpec) => buildTrace({
    account: USER, from: null, out: [{
      account: UJW, from: USER, body: jettonTransfer(7n, MASTER, body(1, (b) => b.storeInt(0, 2).storeAddress(A(recipient)))), out: [{
        account: MJW, from: UJW, body: INTERNAL, out: [{ account: MASTER, from: MJW, body: NOTIFY, out: [{ account: UC, from: MASTER, body: bodyOf(JETTON_SUPPLY_FAILED, 0x103e0000), out: [answer] }] }],
      }],
    }],
  }, { interfaces: { [UJW]: jw(USER, JET), [MJW]: jw(MASTER, JET), [OJW]: jw(OTHER, JET) } });

  it('on someone else\'s behalf: the recipient\'s wallet is where the master\'s wallet sends to, if among the answers', () => {
    const fail: TxSpec = { account: MASTER, from: UC, body: bodyOf(JETTON_SUPPLY_FAILED, 0x11f) };
    expect(evaa(onBehalf(OTHER, fail), 'evaa_supply')[0]).toMatchObject({ destination: OTHER, success: false, evaa_supply_data: { recipient_jetton_wallet: null, master_jetton_wallet: MJW } });
    const refund: TxSpec = { account: MJW, from: UC, body: jettonTransfer(7n, OTHER, null), out: [{ account: OJW, from: MJW, body: INTERNAL }] };
    expect(evaa(onBehalf(OTHER, refund), 'evaa_supply')[0]).toMatchObject({ destination: OTHER, success: false, evaa_supply_data: { recipient_jetton_wallet: OJW } });
  });

  it('no outcome yet, or a payload of another kind: no supply', () => {
    const t = buildTrace({ account: USER, from: null, out: [{ account: MASTER, from: USER, body: bodyOf(TON_SUPPLY, 1), out: [{ account: UC, from: MASTER, body: bodyOf(TON_SUPPLY, 0x106e0000) }] }] });
    expect(evaa(t, 'evaa_supply')).toHaveLength(0);
    const other = onBehalf(OTHER, { account: MASTER, from: UC, body: bodyOf(JETTON_SUPPLY_FAILED, 0x11f) });
    // the same trace whose transfer carries another payload
    const tx = other.transactions.find((x) => x.account === UJW)!;
    tx.inMsg!.body = jettonTransfer(7n, MASTER, body(2)).toBoc().toString('base64');
    expect(evaa(other, 'evaa_supply')).toHaveLength(0);
  });
});

describe('EVAA withdraw', () => {
  it('TON: collateralized, paid out (0x211a) and the user contract updated', () => {
    const [a] = evaa(load(TON_WITHDRAW), 'evaa_withdraw');
    expect(toApiAction(a).details).toMatchObject({
      source: '0:F4A601F44755743A2259DFEDED666AC795CE55285F2E3411B6A0C7C24DCA09E2', owner_contract: '0:CE29635B425B669DA1A661B9E986C7324A3AB740CC78E565F7FD4948CE855DA0',
      amount: '417016017', asset: null, master: MASTER, fail_reason: null,
    });
    expect(a.success).toBe(true);
  });

  it('jettons: paid out as a jetton transfer, its wallets named', () => {
    const [a] = evaa(load(TSTON_WITHDRAW), 'evaa_withdraw');
    expect(a).toMatchObject({
      amount: 1000000040n, asset: '0:BDF3FA8098D129B54B4F73B5BAC5D1E1FD91EB054169C3916DFC8CCD536D1000',
      evaa_withdraw_data: { recipient_jetton_wallet: '0:FCDA58A21B343F303964401D89ABCD922B6A51EF6EA3A8DC2A4B7BD37494A2D5', master_jetton_wallet: '0:910B4B5E961BF54044AF4F1DB89CDA94581EF6CC2CAC5D0D01C7DEE5573B9C43', is_ton: false },
    });
  });

  /** owner -> master (withdraw_master) -> user contract (withdraw_user) -> `answer` */
  const withdraw = (answer: TxSpec | null) => buildTrace({
    account: USER, from: null, out: [{ account: MASTER, from: USER, body: bodyOf(TON_WITHDRAW, 2), out: [{ account: UC, from: MASTER, body: bodyOf(TON_WITHDRAW, 0x106e0000), out: answer ? [answer] : [] }] }],
  });

  it('refused by the user contract: one reason per opcode, the amount asked for, unsuccessful', () => {
    const reasons: Array<[number, string]> = [[0x21e6, 'withdraw_locked_excess'], [0x21e7, 'withdraw_not_collateralized_excess'], [0x21e8, 'withdraw_missing_prices_excess'], [0x21ec, 'withdraw_execution_crashed']];
    for (const [op, reason] of reasons) {
      const [a] = evaa(withdraw({ account: USER, from: UC, body: body(op) }), 'evaa_withdraw');
      expect(a).toMatchObject({ success: false, source: USER, destination_secondary: UC, asset: null, evaa_withdraw_data: { fail_reason: reason, is_ton: true, master: MASTER } });
      expect(a.amount).toBeGreaterThan(0n);
    }
    // another opcode is no refusal
    expect(evaa(withdraw({ account: USER, from: UC, body: body(0x21e9) }), 'evaa_withdraw')).toHaveLength(0);
  });

  it('collateralized but the master had no funds: withdraw_fail, then the no-funds excess', () => {
    const noFunds: TxSpec = {
      account: MASTER, from: UC, body: bodyOf(TON_WITHDRAW, 0x211), out: [{
        account: UC, from: MASTER, body: userMsg(0x211f, (b) => b.storeUint(0, 64).storeUint(TON_ASSET_ID, 256).storeInt(5, 64)),
        out: [{ account: USER, from: UC, body: body(0x211fe8) }],
      }],
    };
    expect(evaa(withdraw(noFunds), 'evaa_withdraw')[0]).toMatchObject({ success: false, evaa_withdraw_data: { fail_reason: 'withdraw_no_funds_excess' } });
  });

  it('no answer yet: no withdrawal', () => {
    expect(evaa(withdraw(null), 'evaa_withdraw')).toHaveLength(0);
  });
});

describe('EVAA liquidate', () => {
  const LIQ = addr(0, '28'), BORROWER = addr(0, '39');
  const TSTON_ID = 0x3313e2f57ba870af34480350c789b0987d15b43a53172bfce294de21e7d724e7n;
  const LM = body(3, (b) => b.storeUint(0, 64).storeAddress(A(BORROWER)).storeAddress(A(LIQ)).storeUint(TSTON_ID, 256).storeUint(1, 64).storeInt(0, 2).storeUint(500n, 64));
  const LU = userMsg(0x31);
  const SAT = body(0x311, (b) => b.storeUint(0, 64).storeAddress(A(OTHER)).storeAddress(A(LIQ)).storeUint(TON_ASSET_ID, 256)
    .storeRef(beginCell().storeInt(-1, 64).storeUint(450n, 64).storeUint(1, 64).storeInt(0, 64).storeUint(TSTON_ID, 256).storeInt(-2, 64).storeUint(99n, 64).endCell()));
  const UNSAT = (error: number | null) => body(0x31f, (b) => {
    const r = beginCell().storeUint(500n, 64).storeUint(TSTON_ID, 256).storeUint(1, 64).storeUint(0, 64).storeRef(beginCell().endCell());
    return b.storeUint(0, 64).storeAddress(A(BORROWER)).storeAddress(A(LIQ)).storeUint(TON_ASSET_ID, 256).storeRef((error === null ? r : r.storeUint(error, 32)).endCell());
  });
  const report = (op: number): TxSpec => ({ account: LIQ, from: MASTER, body: body(op) });
  /** liquidator -> master (liquidate_master) -> user contract (liquidate_user) -> master (`result`) */
  const liquidate = (result: TxSpec | null, direct: TxSpec[] = []) => buildTrace({
    account: LIQ, from: null, out: [{
      account: MASTER, from: LIQ, body: LM, out: [...(result ? [{ account: UC, from: MASTER, body: LU, out: [result] }] : []), ...direct],
    }],
  });

  it('satisfied: the borrower the user contract names, the collateral rewarded, the debt repaid', () => {
    const t = liquidate({ account: MASTER, from: UC, body: SAT, out: [{ account: UC, from: MASTER, body: userMsg(0x311a) }, report(0x311d)] });
    const [a] = evaa(t, 'evaa_liquidate');
    // upstream renders the accounts with str(): raw, lower-case hex; the collateral as its decimal asset id
    expect(a).toMatchObject({ success: true, source: LIQ.toLowerCase(), destination: OTHER.toLowerCase(), destination_secondary: UC.toLowerCase(), amount: 99n, asset: TSTON_ID.toString() });
    expect(toApiAction(a).details).toMatchObject({
      fail_reason: null, debt_amount: '450', asset_id: '0x' + TSTON_ID.toString(16), asset: '0:BDF3FA8098D129B54B4F73B5BAC5D1E1FD91EB054169C3916DFC8CCD536D1000', is_known_asset: true, amount: '99',
    });
  });

  it('satisfied, but the master lacked liquidity', () => {
    const t = liquidate({ account: MASTER, from: UC, body: SAT, out: [{ account: UC, from: MASTER, body: body(0x311f) }, report(0x311f)] });
    expect(evaa(t, 'evaa_liquidate')[0]).toMatchObject({ success: false, destination: BORROWER.toLowerCase(), amount: 0n, evaa_liquidate_data: { fail_reason: 'master_not_enough_liquidity', debt_amount: 500n } });
  });

  it('unsatisfied: the error the user contract reports (unknown, or none readable)', () => {
    const reason = (error: number | null) => evaa(liquidate({ account: MASTER, from: UC, body: UNSAT(error), out: [report(0x311f)] }), 'evaa_liquidate')[0].evaa_liquidate_data!.fail_reason;
    expect(reason(0xe003)).toBe('not_liquidatable');
    expect(reason(0xe009)).toBe('liquidation_prices_missing');
    expect(reason(0xe0ff)).toBe('unknown');
    expect(reason(null)).toBe('parse_error');
  });

  it('rejected at once: the TON bounced back', () => {
    const t = liquidate(null, [{ account: LIQ, from: MASTER, bounced: true, bounce: false, body: beginCell().storeUint(0xffffffff, 32).storeUint(3, 32).endCell() }]);
    const [a] = evaa(t, 'evaa_liquidate');
    expect(a).toMatchObject({ success: false, destination_secondary: null, amount: 0n, evaa_liquidate_data: { fail_reason: 'immediate_rejection', debt_amount: 500n } });
    expect(toApiAction(a).details).toMatchObject({ asset_id: '0x' + TSTON_ID.toString(16), is_known_asset: true });
  });

  it('in progress (the user contract has not answered): no liquidation', () => {
    expect(evaa(liquidate({ account: MASTER, from: UC, body: body(0x31f) }), 'evaa_liquidate')).toHaveLength(0);
  });

  it('with jettons: the transfer carries liquidate_master; sent back at once is an immediate rejection', () => {
    const LJW = addr(0, '4a');
    const trace = (answers: TxSpec[]) => buildTrace({
      account: LIQ, from: null, out: [{
        account: LJW, from: LIQ, body: jettonTransfer(500n, MASTER, LM), out: [{ account: MJW, from: LJW, body: INTERNAL, out: [{ account: MASTER, from: MJW, body: NOTIFY, out: answers }] }],
      }],
    }, { interfaces: { [LJW]: jw(LIQ, JET), [MJW]: jw(MASTER, JET), [OJW]: jw(LIQ, JET) } });
    const ok = evaa(trace([{ account: UC, from: MASTER, body: LU, out: [{ account: MASTER, from: UC, body: SAT, out: [{ account: UC, from: MASTER, body: userMsg(0x311a) }, report(0x311d)] }] }]), 'evaa_liquidate');
    expect(ok[0]).toMatchObject({ success: true, source: LIQ.toLowerCase(), amount: 99n });
    const back = evaa(trace([{ account: MJW, from: MASTER, body: jettonTransfer(500n, LIQ, null), out: [{ account: OJW, from: MJW, body: INTERNAL }] }]), 'evaa_liquidate');
    expect(back[0]).toMatchObject({ success: false, evaa_liquidate_data: { fail_reason: 'immediate_rejection' } });
  });

  it('the asset id of TON is known without a master; an unlisted one is unknown', () => {
    const withCollateral = (id: bigint) => {
      const lm = body(3, (b) => b.storeUint(0, 64).storeAddress(A(BORROWER)).storeAddress(A(LIQ)).storeUint(id, 256).storeUint(1, 64).storeInt(0, 2).storeUint(500n, 64));
      const t = buildTrace({ account: LIQ, from: null, out: [{ account: MASTER, from: LIQ, body: lm, out: [{ account: LIQ, from: MASTER, bounced: true, bounce: false, body: beginCell().storeUint(0xffffffff, 32).endCell() }] }] });
      return toApiAction(evaa(t, 'evaa_liquidate')[0]).details;
    };
    expect(withCollateral(TON_ASSET_ID)).toMatchObject({ asset: null, is_known_asset: true });
    expect(withCollateral(12345n)).toMatchObject({ asset: null, is_known_asset: false, asset_id: '0x3039' });
  });
});
