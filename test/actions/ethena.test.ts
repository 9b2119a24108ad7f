// ethena_staking.py: the USDe deposit (a real trace of toncenter's suite) and the withdrawal request (built around
// that trace's bodies: the transfer, internal transfer, notification and mint; the timelocked tsUSDe transfer
// written from its layout), every condition of the two matchers.
import { Address } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { ETHENA_TSUSDE_MASTER, ETHENA_USDE_MASTER } from '../../src/actions/families/ethena_staking.ts';
import { classifyTrace, toApiAction } from '../../src/actions/index.ts';
import type { AccountInterfaces, Trace } from '../../src/actions/model.ts';
import { body, bodyOf, load, sortedTypes } from './defi-fixtures.ts';
import { addr, buildTrace } from './trace-builder.ts';

const DEPOSIT = 'vhM4-FbBKgC8khEg0MTKMvPx8MiBuEYbrqHgDjPFHcQ=.json';
const jw = (owner: string, jetton: string): AccountInterfaces => ({ raw: { JettonWallet: { owner, jetton, balance: 0 } } });

describe('Ethena deposit', () => {
  it('a real deposit: USDe in, tsUSDe minted (amount, minted, both assets)', () => {
    const a = classifyTrace(load(DEPOSIT)).actions.find((x) => x.type === 'stake_deposit')!;
    expect(toApiAction(a).details).toEqual({
      provider: 'ethena',
      stake_holder: '0:C2C866D626A17E4C2228FC7385173DC21CDEE4CA9AADF50ACE71A73D6EC9906B',
      pool: '0:A11AE0F5BB47BB2945871F915A621FF281C2D786C746DA74873D71D6F2AAA7A5',
      amount: '2500300127',
      tokens_minted: '1994155249',
      asset: ETHENA_TSUSDE_MASTER,
      source_asset: ETHENA_USDE_MASTER,
    });
  });

  it('only USDe in and tsUSDe out', () => {
    const trace = load(DEPOSIT);
    const wallets = trace.interfaces!;
    const retag = (jetton: string, mintedJetton: string): Trace => {
      const interfaces: Record<string, AccountInterfaces> = {};
      for (const [k, v] of Object.entries(wallets)) {
        const w = (v.raw as { JettonWallet?: { owner: string; jetton: string } } | undefined)?.JettonWallet;
        if (!w) interfaces[k] = v;
        else interfaces[k] = jw(w.owner, w.jetton === ETHENA_USDE_MASTER ? jetton : w.jetton === ETHENA_TSUSDE_MASTER ? mintedJetton : w.jetton);
      }
      return { ...trace, interfaces };
    };
    const other = addr(0, 'a1');
    expect(sortedTypes(classifyTrace(retag(other, ETHENA_TSUSDE_MASTER)).actions)).toEqual(['jetton_mint', 'jetton_transfer']);
    expect(sortedTypes(classifyTrace(retag(ETHENA_USDE_MASTER, other)).actions)).toEqual(['jetton_mint', 'jetton_transfer']);
  });
});

describe('Ethena withdrawal request', () => {
  const USER = addr(0, 'a1'), SW = addr(0, 'b2'), USDE = addr(0, 'c3'), POOL = addr(0, 'd4'), TSMINTER = addr(0, 'e5'), RW = addr(0, 'f6');
  const TIMELOCKED = body(0xb2583ed5, (b) => b.storeUint(0, 64).storeCoins(1234n).storeAddress(Address.parse(POOL)).storeAddress(Address.parse(USER)).storeCoins(0n));
  /** user -> its wallet (transfer) -> USDe (internal) -> pool (notify) -> tsUSDe minter (mint) -> user's tsUSDe wallet */
  const request = (interfaces: Record<string, AccountInterfaces>) => buildTrace({
    account: USER, from: null, out: [{
      account: SW, from: USER, body: bodyOf(DEPOSIT, 0x0f8a7ea5), out: [{
        account: USDE, from: SW, body: bodyOf(DEPOSIT, 0x178d4519), out: [{
          account: POOL, from: USDE, body: bodyOf(DEPOSIT, 0x7362d09c), out: [{
            account: TSMINTER, from: POOL, body: bodyOf(DEPOSIT, 0x642b7d07), out: [{ account: RW, from: TSMINTER, body: TIMELOCKED }],
          }],
        }],
      }],
    }],
  }, { interfaces });

  it('the USDe sent, the tsUSDe locked, the pool that minted', () => {
    const a = classifyTrace(request({ [SW]: jw(USER, USDE), [RW]: jw(USER, TSMINTER) })).actions;
    expect(a.map((x) => x.type)).toEqual(['stake_withdrawal_request']);
    expect(a[0]).toMatchObject({ source: USER, source_secondary: SW, destination: POOL, asset: USDE, amount: 2500300127n, staking_data: { provider: 'ethena', tokens_minted: 1234n } });
    expect(a[0].tx_hashes).toHaveLength(6);
    expect(toApiAction(a[0]).details).toEqual({ provider: 'ethena', stake_holder: USER, pool: POOL, payout_nft: null, asset: USDE, tokens_burnt: null, tokens_minted: '1234' });
  });

  it('both wallets the user\'s, of the jettons of the chain; an unknown wallet is no request', () => {
    const no = (interfaces: Record<string, AccountInterfaces>) => expect(classifyTrace(request(interfaces)).actions.map((x) => x.type)).not.toContain('stake_withdrawal_request');
    no({ [SW]: jw(addr(0, '99'), USDE), [RW]: jw(USER, TSMINTER) });
    no({ [SW]: jw(USER, USDE), [RW]: jw(addr(0, '99'), TSMINTER) });
    no({ [SW]: jw(USER, addr(0, '99')), [RW]: jw(USER, TSMINTER) });
    no({ [SW]: jw(USER, USDE), [RW]: jw(USER, addr(0, '99')) });
    no({ [SW]: jw(USER, USDE) });
    no({ [RW]: jw(USER, TSMINTER) });
  });
});
