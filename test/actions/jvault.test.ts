// jvault.py: stake (simple, referral chains, cancelled), unstake (with referrals, refused by the stake wallet),
// claim, unstake request; the staked asset from the pool's data (its lock wallet) and the JVault token from the
// stake wallet's. Real traces from toncenter's jvault cases; the unstake request (no case upstream) is the real
// unstake with its opcode changed to unstake_request's, which has the same leading fields.
import { beginCell, type Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { poolLockWallet } from '../../src/actions/families/jvault.ts';
import type { Trace } from '../../src/actions/model.ts';
import { actionsOf, data, load, withBody, withoutInterface } from './dex-helpers.ts';

const STAKE_SIMPLE = '00vuJ5v4lkaAELRDh9hh7LyCwiLfpHUpiudpNOiHdnA=.json';
const STAKE_PARTIAL = '02lXjywHnaBuI4CGq55IpcuxA0Q5QMOlYsoJwii4SNI=.json';
const STAKE_FULL = '-OII6CIrWH76IRnP252ExZ3hWGxs3hUjm1JGCFLF3cU=.json';
const STAKE_CANCELLED = '3gHUMt8h1SyaO7pMTIWZ3d0adXpyHbvb7j-0RZQFjiU=.json';
const UNSTAKE = '62Oe2uSj1TW6uIN-hfzhSE8JpZUn5S5pZiWFIRhgldY=.json';
const UNSTAKE_FAILED = 'mTVGq-A5PCaXAdu-Xuab0J-vtygXRJ1GwqZbW-aYN84=.json';
const CLAIM = 'Lsy5I_gotIvt0EYwoPuqd-1s-IyYNR3Sc0XmM_lWKa8=.json';

const JVT_POOL = '0:AA5C2D9CB469BECB874312C79ABC9DA6C2E64C92C108FE31A2F26B00D8134CD7';
const JVT_LOCK_WALLET = '0:A048BDFAAC1F51AEAE2C1100CF5F1C1D1D316AD4E013A4030F7E2DF2A4ADE68D';
const JVT = '0:BC16864C941719859E8FAFDB071B21F3905BFDCB60795FDB4DEB546FB9C2D1CC';
const JVT_STAKE_WALLET = '0:AB6523CEDE8BA846048E0756BADB1EBAC7A81E386A14B59F063514D1485D8C05';
const JVT_JVAULT_TOKEN = '0:6686D5CE2FEE0D29705BB4ACD9CF64D165A520E5EAF39D8CAA13D23FA5D15D90';
const MY_POOL = '0:B7AE84E2451B282F37D854AEF2555A086634C4A808D05378EEEDA43B1D64D52F';
const MY_LOCK_WALLET = '0:BFB857A24A8CF963041C4EF6DCD19E8BA558ED4DB26674E2F3C8197135ECDDFA';
const MY = '0:8554D9516FE3471C341FBF743DC6F0D704B2656B2F39E7FC5112CAB96435FA28';
const MY_STAKE_WALLET = '0:E3C257DF3F8AF0EBD28AB14EF3C994E1CAD17A2FFCD03A42E862EE0C53D3830F';
const MY_JVAULT_TOKEN = '0:9B655B1FC1063FD5E5BC5BA52FEB4796C2815818E5D7924A61741148939522CF';

const UNSTAKE_JETTONS = 0x499a9262, UNSTAKE_REQUEST = 0x0168d4b7;
/** the unstake_jettons message as an unstake_request (query_id and jettons_to_unstake lead both) */
const asRequest = (t: Trace): Trace => withBody(t, UNSTAKE_JETTONS, (old: Cell) => beginCell().storeUint(UNSTAKE_REQUEST, 32).storeSlice(old.beginParse().skip(32)).endCell());
const only = (t: Trace, type: string) => {
  const all = actionsOf(t, type);
  expect(all).toHaveLength(1);
  return all[0];
};
/** the data_boc record toncenter gives for an account in a fixture */
const dataBoc = (t: Trace, account: string) => t.interfaces![account].raw!.data_boc as Record<string, unknown>;

describe('jVault stake', () => {
  it('a stake whose pool updates the rewards: sender, wallet, pool, the staked jetton, the period from the forward payload', () => {
    const a = only(load(STAKE_SIMPLE), 'jvault_stake');
    expect(a).toMatchObject({
      success: true, source: '0:DABD8F4D9B50321C038E873EC24E19868965A3902B06256ADE528AB5A2BE5648', destination: '0:A22E95FD1B3A5C55FD2BC574C1C0C0E9DF041D6F64E13A4FABAC9EF9B4B62C6D',
      asset: '0:DC94DD61FFCFE3CE97D79DA86325DB67E10613269CB948D6B553357C3DB5D462', amount: 12266000000000n,
    });
    expect(data(a, 'jvault_stake_data')).toEqual({ period: 2592000, stake_wallet: '0:7941C7152CDFC0029AA5FC9B138707AB7378E76840B9CC9F941079C1FFB61A52' });
  });

  it('referral updates (a partial chain, the full request/update chain) stay inside the stake', () => {
    const partial = only(load(STAKE_PARTIAL), 'jvault_stake');
    expect(partial).toMatchObject({ success: true, amount: 3000000000000n });
    expect(data(partial, 'jvault_stake_data')).toMatchObject({ period: 86400 });
    const full = only(load(STAKE_FULL), 'jvault_stake');
    expect(full).toMatchObject({ destination: JVT_POOL, asset: JVT, amount: 33303403955n });
    // the top level beside the stake: the deploys of the stake wallet and of the referrer's contract only
    expect(actionsOf(load(STAKE_FULL)).filter((x) => x.parent_action_id === null).map((x) => x.type).sort()).toEqual(['contract_deploy', 'contract_deploy', 'jvault_stake']);
  });

  it('a stake the stake wallet cancels is failed; the jettons sent back are a child transfer', () => {
    const t = load(STAKE_CANCELLED);
    const a = only(t, 'jvault_stake');
    expect(a.success).toBe(false);
    expect(data(a, 'jvault_stake_data')).toMatchObject({ stake_wallet: '0:84DE3BCB1566A2700345DE26DF54CCEA0963D5CC2CDA9C2E52B2AAC8489096AE' });
    expect(actionsOf(t, 'jetton_transfer').filter((x) => x.parent_action_id === a.action_id)).toHaveLength(2);
  });
});

describe('jVault unstake', () => {
  it('with the pool\'s round trip: the pool, the staked asset (the lock wallet\'s jetton), the JVault token (the stake wallet\'s minter)', () => {
    const a = only(load(UNSTAKE), 'jvault_unstake');
    expect(a).toMatchObject({
      success: true, source: '0:317CD3B4473DC95A98D046FD58F0DB3D5FE456A61909C37BFD202C00B35B47D9', source_secondary: JVT_STAKE_WALLET,
      destination: JVT_POOL, amount: 300731712275n, asset: JVT, asset2: JVT_JVAULT_TOKEN, opcode: null,
    });
  });

  it('refused by the stake wallet (no round trip): the pool and assets from the data, the exit code as opcode', () => {
    const a = only(load(UNSTAKE_FAILED), 'jvault_unstake');
    // upstream sets no failed flag on this block: the action stays a success carrying the exit code
    expect(a).toMatchObject({ success: true, source_secondary: MY_STAKE_WALLET, destination: MY_POOL, asset: MY, asset2: MY_JVAULT_TOKEN, opcode: 56, amount: 716000000000n });
  });

  it('an unstake whose staked asset cannot be told (no data for the pool) is not reported', () => {
    expect(actionsOf(withoutInterface(load(UNSTAKE_FAILED), [MY_POOL], 'data_boc'), 'jvault_unstake')).toHaveLength(0);
  });

  it('the stake wallet is a requested account: without toncenter\'s data record its account state\'s data serves', () => {
    expect(only(withoutInterface(load(UNSTAKE_FAILED), [MY_STAKE_WALLET], 'data_boc'), 'jvault_unstake')).toMatchObject({ asset: MY, asset2: MY_JVAULT_TOKEN });
    expect(only(withoutInterface(load(UNSTAKE), [JVT_STAKE_WALLET], 'data_boc'), 'jvault_unstake')).toMatchObject({ asset: JVT, asset2: JVT_JVAULT_TOKEN });
  });

  it('a payout in another jetton than the pool\'s lock wallet holds fails the match (upstream raises)', () => {
    const t = load(UNSTAKE);
    const rec = dataBoc(t, JVT_POOL);
    const edited: Trace = { ...t, interfaces: { ...t.interfaces, [JVT_POOL]: { ...t.interfaces![JVT_POOL], raw: { ...t.interfaces![JVT_POOL].raw, data_boc: { ...rec, lock_wallet_address: JVT_STAKE_WALLET } } } } };
    expect(actionsOf(edited, 'jvault_unstake')).toHaveLength(0);
    expect(actionsOf(edited, 'jetton_transfer')).toHaveLength(1);
  });
});

describe('jVault claim', () => {
  it('claim -> send_claimed_rewards -> the jettons: the claimed jettons from the request, the amount sent', () => {
    const a = only(load(CLAIM), 'jvault_claim');
    expect(a).toMatchObject({ success: true, source_secondary: '0:32F3F3C9881BF73850082C9F5F4D5B654F4062E71EDD93D868BC59447F9AA2AA', destination: JVT_POOL });
    expect(data(a, 'jvault_claim_data')).toEqual({ claimed_jettons: [JVT_LOCK_WALLET], claimed_amounts: [7919563n] });
  });
});

describe('jVault unstake request', () => {
  it('reaching the pool: the requested amount, the pool from the request, both assets, no exit code', () => {
    const t = asRequest(load(UNSTAKE));
    const a = only(t, 'jvault_unstake_request');
    expect(a).toMatchObject({ success: true, source_secondary: JVT_STAKE_WALLET, destination: JVT_POOL, amount: 300731712275n, asset: JVT, asset2: JVT_JVAULT_TOKEN, opcode: null });
    expect(actionsOf(t, 'jvault_unstake')).toHaveLength(0);
  });

  it('refused by the stake wallet: failed, the exit code; nothing when the assets cannot be told', () => {
    const a = only(asRequest(load(UNSTAKE_FAILED)), 'jvault_unstake_request');
    expect(a).toMatchObject({ success: false, destination: MY_POOL, asset: MY, asset2: MY_JVAULT_TOKEN, opcode: 56, amount: 716000000000n });
    expect(actionsOf(withoutInterface(asRequest(load(UNSTAKE_FAILED)), [MY_POOL], 'data_boc'), 'jvault_unstake_request')).toHaveLength(0);
  });
});

describe('poolLockWallet', () => {
  it('reads the lock wallet from a pool\'s data (the wallet toncenter\'s records name for both pools we have)', () => {
    expect(poolLockWallet({ data_boc: dataBoc(load(UNSTAKE), JVT_POOL).data_boc })).toBe(JVT_LOCK_WALLET);
    expect(poolLockWallet({ data_boc: dataBoc(load(UNSTAKE_FAILED), MY_POOL).data_boc })).toBe(MY_LOCK_WALLET);
  });

  it('a record\'s lock_wallet_address comes first; neither is upstream\'s KeyError', () => {
    expect(poolLockWallet({ lock_wallet_address: '0:01', data_boc: 'x' })).toBe('0:01');
    expect(() => poolLockWallet({})).toThrow(/lock_wallet_address/);
  });
});
