// swaps.py: jetton_swap of STON.fi v1 / v2, DeDust, TONCO and swap.coffee. Real traces from toncenter's cases for
// what they show; for the failure, partial and fallback branches, the same real traces with one message's body
// re-written (an exit code), a log removed or an interface record dropped.
import { Address, beginCell, Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { classifyTrace } from '../../src/actions/classify.ts';
import type { JettonSwapData } from '../../src/actions/block-data.ts';
import { toApiAction } from '../../src/actions/index.ts';
import { STONFI_SWAP_NO_LIQ_EXIT_CODE } from '../../src/actions/families/swaps.ts';
import type { AccountInterfaces, Trace } from '../../src/actions/model.ts';
import { actionsOf, data, load, withBody, withoutInterface, withoutLogs } from './dex-helpers.ts';
import { buildTrace, type TxSpec } from './trace-builder.ts';

const STONFI_TO_TON = '01SkGWslZ8iEn3bXyb0ga5dWB5gRzw8zWAuwfUI4ZMA=.json';
const STONFI_REFERRAL = 'utNOlIUjzWv7MRoSUfkjHkBaIg40RkYMLOy9ljAaykQ=.json';
const STONFI_V2_MULTI = '00BTqIs6w2qgKXyjfUIwS1WMPbYzWvOn0P16eku_O-4=.json';
const DEDUST_COFFEE_STONFI = 'C7bHOfSrBJPLHXMZkVnIQladzgYZHIlKOiJRvbxRRuI=.json';
const TONCO_FAILED = '02TsVcC_MOggAZvHHBITbHCvzAt_hCq5WVAiKcZFMno=.json';
const TONCO_HOP = 'CjtIXjqazbSFrtPqqMMFBgMG6-huwp5CfNtXpQAf8xY=.json';
const COFFEE_HOP = 'dp1xdxzIC7tCyZfy80VTW5be7SimpOOTnuf3_8BZjb0=.json';
/** a swap.coffee route whose STON.fi v2 leg is TON -> USDT through router 0:92E1, paid in through pTON wallet 0:9220 */
const COFFEE_STONFI_TON_IN = 'cq7UujFWNfSnpHdRKseD41yHqj4Yx3SCWsnkw8IRPoU=.json';

const PTON = '0:8CDC1D7640AD5EE326527FC1AD0514F468B30DC84B0173F0E155F451B4E11F7C';
const USDT = '0:B113A994B5024A16719F69139328EB759596C38A25F59028B146FECDC3621DFE';
const swapsOf = (t: ReturnType<typeof load>) => actionsOf(t, 'jetton_swap');

/** STON.fi v1 pay_to#f93bb43f with another exit code (its other fields as they were). */
function stonfiPayTo(exit: number) {
  return (old: Cell) => {
    const s = old.beginParse();
    const op = s.loadUint(32), q = s.loadUintBig(64), owner = s.loadAddressAny();
    s.loadUint(32);
    return beginCell().storeUint(op, 32).storeUint(q, 64).storeAddress(owner).storeUint(exit, 32).storeRef(s.loadRef()).endCell();
  };
}
/** STON.fi v2 pay_to#657b54f5 with another exit code. */
function stonfiV2PayTo(exit: number) {
  return (old: Cell) => {
    const s = old.beginParse();
    const b = beginCell().storeUint(s.loadUint(32), 32).storeUint(s.loadUintBig(64), 64).storeAddress(s.loadAddressAny()).storeAddress(s.loadAddressAny()).storeAddress(s.loadAddressAny());
    s.loadUint(32);
    return b.storeUint(exit, 32).storeMaybeRef(s.loadMaybeRef()).storeRef(s.loadRef()).endCell();
  };
}

describe('STON.fi v1', () => {
  it('a real jetton -> TON swap: the user\'s transfer in, the router\'s pTON payout out, successful', () => {
    const [a] = swapsOf(load(STONFI_TO_TON));
    const d = data(a, 'jetton_swap_data');
    expect(a).toMatchObject({ success: true, asset: USDT, asset2: PTON, destination: '0:1007AD6C70F8F159342BE66A8845294FDAF0F14C8539295DBE2AFB5FA7D70FB7' });
    expect(d.dex).toBe('stonfi');
    expect((d.dex_outgoing_transfer as Record<string, unknown>).amount).toBe(325487694953n);
    // the swap payload's target wallet is the destination wallet
    expect(a.destination_secondary).toBe('0:1150B518B2626AD51899F98887F8824B70065456455F7FE2813F012699A4061F');
  });

  it('a referral payment (0x45078540) stays out of the swap: it is its own jetton transfer', () => {
    const t = load(STONFI_REFERRAL);
    const res = classifyTrace(t);
    const swap = res.blocks.find((b) => b.btype === 'jetton_swap')!;
    const sd = swap.data as JettonSwapData & { referral_amount: bigint; referral_address: string };
    expect(sd.referral_amount).toBe(14272848n);
    expect(sd.referral_address).not.toBeNull();
    expect(res.actions.filter((a) => a.type === 'jetton_transfer' && a.parent_action_id === null && a.amount === 14272848n)).toHaveLength(1);
  });

  it('a payment request without liquidity (or reserve error) fails the swap; an unknown exit code pays nothing out', () => {
    const noLiq = withBody(load(STONFI_TO_TON), 0xf93bb43f, stonfiPayTo(STONFI_SWAP_NO_LIQ_EXIT_CODE));
    const [a] = swapsOf(noLiq);
    expect(a.success).toBe(false);
    expect(data(a, 'jetton_swap_data').dex).toBe('stonfi');
    // neither ok, nor a referral, nor a sender-related refusal: no outgoing payment, no swap (upstream's None.to_str)
    expect(swapsOf(withBody(load(STONFI_TO_TON), 0xf93bb43f, stonfiPayTo(0x12345678)))).toHaveLength(0);
  });

  it('needs the DEX\'s incoming wallet in the repository (upstream reads its owner)', () => {
    const t = load(STONFI_TO_TON);
    expect(swapsOf(withoutInterface(t, ['0:4EEC921B9D4D56A0D94676016D49C26B39B1D7901A7E153E66033F146A0886F4']))).toHaveLength(0);
  });
});

describe('STON.fi v2', () => {
  it('a real multi-hop jetton -> jetton swap: hops as peer swaps', () => {
    const [a] = swapsOf(load(STONFI_V2_MULTI));
    const d = data(a, 'jetton_swap_data');
    expect(d.dex).toBe('stonfi_v2');
    expect((d.peer_swaps as unknown[]).length).toBe(2);
    expect(a.success).toBe(true);
  });

  it('a hop whose pay_to is not ok fails the swap; the destination asset is the route\'s last pool wallet\'s jetton', () => {
    const ok = swapsOf(load(STONFI_V2_MULTI))[0];
    const failed = swapsOf(withBody(load(STONFI_V2_MULTI), 0x657b54f5, stonfiV2PayTo(0x5ffe1295), 1));
    expect(failed).toHaveLength(1);
    expect(failed[0].success).toBe(false);
    expect(failed[0].asset2).toBe(ok.asset2);
    // a failed first hop stops the peer swaps at it
    const first = swapsOf(withBody(load(STONFI_V2_MULTI), 0x657b54f5, stonfiV2PayTo(0x5ffe1295), 0))[0];
    expect(first.success).toBe(false);
    expect(data(first, 'jetton_swap_data').peer_swaps).toEqual([]);
  });
});

/**
 * A jetton -> TON -> jetton STON.fi v2 swap through two routers, laid out as upstream's intermediate pTON hop
 * expects (swaps.py `_validate_intermediate_pton_transfer`): router A's pay_to, its transfer to its pTON wallet
 * naming router B's pTON wallet as destination, that wallet's ton_transfer (its forward payload the next swap),
 * the notification to router B, B's swap, pay_to and jetton payout. Hop 1 is the first hop of the real multi-hop
 * trace (router A's out wallet made its pTON wallet), hop 2 the real TON -> USDT leg of the coffee route; the
 * transfer to the pTON wallet is the real one with its destination re-written.
 */
function jettonTonJettonSwap(opts: { forwardPayload?: Cell | null; lastTo?: 'receiver' | 'elsewhere' } = {}): { trace: Trace; at: Record<string, string> } {
  const m = load(STONFI_V2_MULTI), c = load(COFFEE_STONFI_TON_IN);
  const acct = (t: Trace, prefix: string) => t.transactions.find((x) => x.account.startsWith(prefix))!.account;
  const bodyAt = (t: Trace, account: string, opcode: number, nth = 0) =>
    Cell.fromBase64(t.transactions.filter((x) => x.account === account && x.inMsg?.opcode === opcode)[nth].inMsg!.body!);
  const at = {
    user: acct(m, '0:1FB0'), userWallet: acct(m, '0:A01E'), routerAWallet: acct(m, '0:0DA4'), routerA: acct(m, '0:6280'), pool1: acct(m, '0:5BB0'),
    ptonA: acct(m, '0:6301'), ptonB: acct(c, '0:9220'), routerB: acct(c, '0:92E1'), pool2: acct(c, '0:8649'), routerBWallet: acct(c, '0:922D'),
    receiverWallet: acct(c, '0:7465'), receiver: acct(c, '0:EFC7'), elsewhere: acct(m, '0:3F64'),
  };
  // transfer#0f8a7ea5 query_id amount destination ...: the same transfer with another destination
  const realTransfer = bodyAt(m, at.ptonA, 0x0f8a7ea5).beginParse();
  const b = beginCell().storeUint(realTransfer.loadUint(32), 32).storeUint(realTransfer.loadUintBig(64), 64).storeCoins(realTransfer.loadCoins());
  realTransfer.loadAddressAny();
  const toPtonB = b.storeAddress(Address.parseRaw(opts.lastTo === 'elsewhere' ? at.elsewhere : at.ptonB)).storeSlice(realTransfer).endCell();
  // ton_transfer#01f3835d query_id ton_amount refund_address forward_payload:(Maybe ^Cell)
  const realTon = bodyAt(c, at.ptonB, 0x01f3835d).beginParse();
  const tonTransfer = opts.forwardPayload === undefined ? bodyAt(c, at.ptonB, 0x01f3835d)
    : beginCell().storeUint(realTon.loadUint(32), 32).storeUint(realTon.loadUintBig(64), 64).storeCoins(realTon.loadCoins()).storeAddress(realTon.loadAddressAny()).storeMaybeRef(opts.forwardPayload).endCell();
  const excess = bodyAt(m, at.user, 0xd53276db);
  const hop2: TxSpec = {
    account: at.ptonB, from: at.ptonA, body: tonTransfer, out: [{
      account: at.routerB, from: at.ptonB, body: bodyAt(c, at.routerB, 0x7362d09c), out: [{
        account: at.pool2, from: at.routerB, body: bodyAt(c, at.pool2, 0x6664de2a), out: [{
          account: at.routerB, from: at.pool2, body: bodyAt(c, at.routerB, 0x657b54f5), out: [{
            account: at.routerBWallet, from: at.routerB, body: bodyAt(c, at.routerBWallet, 0x0f8a7ea5), out: [{
              account: at.receiverWallet, from: at.routerBWallet, body: bodyAt(c, at.receiverWallet, 0x178d4519), out: [{ account: at.receiver, from: at.receiverWallet, body: excess }],
            }],
          }],
        }],
      }],
    }],
  };
  const trace = buildTrace({
    account: at.user, from: null, body: bodyAt(m, at.user, 0xa1ed1592), out: [{
      account: at.userWallet, from: at.user, body: bodyAt(m, at.userWallet, 0x0f8a7ea5), out: [{
        account: at.routerAWallet, from: at.userWallet, body: bodyAt(m, at.routerAWallet, 0x178d4519), out: [{
          account: at.routerA, from: at.routerAWallet, body: bodyAt(m, at.routerA, 0x7362d09c), out: [{
            account: at.pool1, from: at.routerA, body: bodyAt(m, at.pool1, 0x6664de2a), out: [{
              account: at.routerA, from: at.pool1, body: bodyAt(m, at.routerA, 0x657b54f5), out: [{ account: at.ptonA, from: at.routerA, body: toPtonB, out: [hop2] }],
            }],
          }],
        }, { account: at.user, from: at.routerAWallet, body: excess }],
      }],
    }],
  }, {
    interfaces: {
      ...m.interfaces, ...c.interfaces,
      // router A's out wallet of the real hop, as its pTON wallet
      [at.ptonA]: { raw: { JettonWallet: { owner: at.routerA, jetton: PTON, balance: 0 } } } as AccountInterfaces,
    },
  });
  return { trace, at };
}

describe('STON.fi v2 through TON between two routers (the intermediate pTON hop)', () => {
  it('one swap over both hops: every account of both routers\' legs, TON as the middle peer swap\'s asset', () => {
    const { trace, at } = jettonTonJettonSwap();
    const swaps = swapsOf(trace);
    expect(swaps).toHaveLength(1);
    const [a] = swaps;
    const d = data(a, 'jetton_swap_data');
    expect(a.success).toBe(true);
    expect(d.dex).toBe('stonfi_v2');
    // nodes of both legs, the initiator, and the source / destination columns (swaps.py -> block_to_action)
    expect([...a.accounts].sort()).toEqual([
      at.user, at.userWallet, at.routerAWallet, at.routerA, at.pool1, at.ptonA, at.ptonB, at.routerB, at.pool2, at.routerBWallet, at.receiverWallet, at.receiver,
    ].sort());
    expect(a).toMatchObject({ source: at.user, source_secondary: at.userWallet, destination: at.receiver, destination_secondary: at.receiverWallet, asset2: USDT });
    const out = d.dex_outgoing_transfer as Record<string, unknown>;
    expect(out).toMatchObject({ source: at.routerB, source_jetton_wallet: at.routerBWallet, asset: USDT });
    const peers = d.peer_swaps as Array<Record<string, unknown>>;
    expect(peers).toHaveLength(2);
    expect(peers[0].asset_out).toBeNull();
    expect(peers[1].asset_in).toBeNull();
    expect(peers[1].amount_in).toBe(peers[0].amount_out);
    expect(peers[1].asset_out).toBe(USDT);
    // nothing of the second leg is left over as its own action
    expect(classifyTrace(trace).actions.map((x) => x.type).sort()).toEqual(['jetton_swap']);
  });

  it('a ton_transfer that carries no swap, or goes elsewhere than the transfer named, ends the swap at the TON payout', () => {
    for (const opts of [{ forwardPayload: null }, { forwardPayload: beginCell().storeUint(0x12345678, 32).endCell() }, { lastTo: 'elsewhere' as const }]) {
      const { trace, at } = jettonTonJettonSwap(opts);
      const first = swapsOf(trace).find((x) => x.source === at.user)!;
      expect(first.asset2).toBeNull(); // TON out: the router's pTON transfer
      expect(first.accounts).not.toContain(at.pool2);
      expect(data(first, 'jetton_swap_data').peer_swaps).toEqual([]);
    }
  });
});

describe('DeDust', () => {
  const dedustOf = (t: ReturnType<typeof load>) => swapsOf(t).filter((a) => data(a, 'jetton_swap_data').dex === 'dedust');
  const POOLS = ['0:A1D92FB606164F65C41A1D3E2BAA54691243BA1B83D55304C22AE2AD39E6C0F5', '0:948673A596FC6D2C3123DFFF64D3231E4D0E16BFAAC506D5EBDB09F32B3B9C65'];

  it('a real two-pool swap: both hops as peer swaps, the route\'s output asset from the pool records', () => {
    const [a] = dedustOf(load(DEDUST_COFFEE_STONFI));
    expect(a.success).toBe(true);
    expect((data(a, 'jetton_swap_data').peer_swaps as unknown[]).length).toBe(2);
    expect(a.asset2).toBe('0:2F956143C461769579BAEF2E32CC2D7BC18283F40D20BB03E432CD603AC33FFC');
  });

  it('a swap request without its swap event fails the swap', () => {
    const [a] = dedustOf(withoutLogs(load(DEDUST_COFFEE_STONFI), 0x9c610de3, 1));
    expect(a.success).toBe(false);
  });

  it('a route pool without a pool record is no swap (upstream\'s None.assets)', () => {
    for (const pool of POOLS) expect(dedustOf(withoutInterface(load(DEDUST_COFFEE_STONFI), [pool]))).toHaveLength(0);
  });
});

describe('TONCO', () => {
  it('a failed TON -> USDT swap: the refund out, the asset and minimum the pTON request asked for', () => {
    const [a] = swapsOf(load(TONCO_FAILED));
    expect(a.success).toBe(false);
    expect(a.asset2).toBe(USDT);
    expect(data(a, 'jetton_swap_data').min_out_amount).toBe(2856642750n);
    expect(toApiAction(a).details.min_out_amount).toBe('2856642750');
  });

  it('a hop through the router\'s own wallet: one swap with the hops as peer swaps', () => {
    const [a] = swapsOf(load(TONCO_HOP));
    expect((data(a, 'jetton_swap_data').peer_swaps as unknown[]).length).toBe(2);
  });

  it('a payout the router refuses (exit code not 0 / 200) fails the swap; a jetton-in request payload is never read', () => {
    const refused = withBody(load(TONCO_HOP), 0xa1daa96d, (old) => {
      const s = old.beginParse();
      const b = beginCell().storeUint(s.loadUint(32), 32).storeUint(s.loadUintBig(64), 64).storeAddress(s.loadAddressAny()).storeAddress(s.loadAddressAny());
      s.loadUint(32);
      return b.storeUint(300, 32).storeUint(s.loadUintBig(64), 64).storeMaybeRef(s.loadMaybeRef()).endCell();
    }, 1);
    const [a] = swapsOf(refused);
    const ok = swapsOf(load(TONCO_HOP))[0];
    expect(a.success).toBe(false);
    // the destination and minimum stay the outgoing transfer's (the jetton transfer's payload is not a Cell upstream)
    expect(a.asset2).toBe(ok.asset2);
    expect(data(a, 'jetton_swap_data').min_out_amount).toBe((data(a, 'jetton_swap_data').dex_outgoing_transfer as Record<string, unknown>).amount);
  });
});

describe('swap.coffee', () => {
  it('a real USDT -> TON -> CES route: a peer swap per hop, the hop\'s output asset the next one\'s input', () => {
    const [a] = swapsOf(load(COFFEE_HOP));
    const peers = data(a, 'jetton_swap_data').peer_swaps as Array<Record<string, unknown>>;
    expect(peers).toHaveLength(2);
    expect(peers[0].asset_out).toBeNull();
    expect(peers[1].asset_in).toBeNull();
    expect(a.success).toBe(true);
  });

  it('every hop needs its success event: the chain matcher requires it (so the build\'s own per-hop check never fails a hop)', () => {
    expect(swapsOf(withoutLogs(load(COFFEE_HOP), 0xc0ffee30, 0))).toHaveLength(0);
    expect(swapsOf(withoutLogs(load(COFFEE_HOP), 0xc0ffee30, 1))).toHaveLength(0);
  });
});

describe('the routes\' addresses (address selectors)', () => {
  it('a STON.fi v2 swap body names its route\'s pool wallets', async () => {
    const { StonfiSwapV2 } = await import('../../src/actions/messages/swaps.ts');
    const { bodyOf } = await import('./dex-helpers.ts');
    const s = new StonfiSwapV2(bodyOf(STONFI_V2_MULTI, 0x6664de2a).beginParse());
    const pools = s.getPoolAccountsRecursive();
    expect(pools.length).toBeGreaterThanOrEqual(1);
    expect(pools[0]).toBe(Address.parseRaw(pools[0]).toRawString().toUpperCase());
  });
});
