// How protocols are recognised without their addresses: get-method interfaces read from real contract code,
// Ethena's deposit recognised by its staked-token wallet code (and not without it), and the TONCO fields the
// reference defines (min_out_amount, liquidity deposits) rendered as API v3 details.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { classifyTrace, parseJsonExact, toApiAction, traceFromToncenterJson, type Trace } from '../../src/actions/index.ts';
import { declaredMethodIds, declaresGetMethods, getMethodId } from '../../src/actions/toolkit/code.ts';

const FIX = new URL('../fixtures/', import.meta.url).pathname;
const code = (f: string) => Cell.fromBoc(readFileSync(join(FIX, 'codes', f)))[0];
const load = (id: string) => traceFromToncenterJson(parseJsonExact(readFileSync(join(FIX, 'traces/toncenter-indexer/json', `${id}.json`), 'utf8')));

describe('get-method interfaces from code', () => {
  it('computes method ids as FunC does (seqno = 85143, get_wallet_data = 97026, the ids wallets and TEP-74 tools call)', () => {
    expect(getMethodId('seqno')).toBe(85143);
    expect(getMethodId('get_wallet_data')).toBe(97026);
  });
  it('reads the get-methods the contracts declare in their sources', () => {
    // ton-blockchain/nominator-pool func/pool.fc
    expect(declaresGetMethods(code('nominator-pool-v1.boc'), ['get_pool_data', 'get_nominator_data', 'has_withdraw_requests'])).toBe(true);
    // ton-blockchain/multisig-contract-v2 contracts/multisig.func
    expect(declaresGetMethods(code('multisig-v2-wallet.boc'), ['get_multisig_data', 'get_order_estimate', 'get_order_address'])).toBe(true);
    // wallet v4: seqno, get_plugin_list; it is no jetton wallet
    expect(declaresGetMethods(code('wallet-v4r2.boc'), ['seqno', 'get_plugin_list'])).toBe(true);
    expect(declaresGetMethods(code('wallet-v4r2.boc'), ['get_wallet_data'])).toBe(false);
    expect(declaredMethodIds(code('jetton-wallet-standard.token-contract.boc'))!.has(97026)).toBe(true);
  });
  it('gives up on code it cannot read (a library cell: the USDT wallet)', () => {
    expect(declaredMethodIds(code('usdt-jetton-wallet-mainnet.library-cell.boc'))).toBeNull();
  });
});

// toncenter's ethena.yaml case: USDe deposited into the staking contract, tsUSDe minted back
const ETHENA = 'vhM4-FbBKgC8khEg0MTKMvPx8MiBuEYbrqHgDjPFHcQ=';
const TS_USDE_MASTER = '0:D0E545323C7ACB7102653C073377F7E3C67F122EB94D430A250739F109D4A57D';
const USDE_MASTER = '0:086FA2A675F74347B08DD4606A549B8FDB98829CB282BC1949D3B12FBAED9DCC';

/** The master's internal_transfer minting tsUSDe to the depositor's wallet (carries the wallet's StateInit). */
function mintTransfer(t: Trace) {
  return t.transactions.find((x) => x.inMsg?.opcode === 0x178d4519 && x.inMsg.source === TS_USDE_MASTER)!.inMsg!;
}

describe('Ethena deposit is recognised by the staked-token wallet code, not by address', () => {
  it('the minted wallet code (carried by the mint) declares get_timelock_data; the deposited USDe wallet code does not', () => {
    const t = load(ETHENA);
    expect(declaresGetMethods(codeOf(mintTransfer(t).initState!), ['get_wallet_data', 'get_timelock_data'])).toBe(true);
    const usdeInit = t.transactions.find((x) => x.inMsg?.opcode === 0x178d4519 && x.inMsg.initState && x.inMsg.source !== TS_USDE_MASTER)!.inMsg!.initState!;
    expect(declaresGetMethods(codeOf(usdeInit), ['get_timelock_data'])).toBe(false);
  });
  it('classifies the deposit as stake_deposit (provider ethena) and renders source_asset', () => {
    const { actions } = classifyTrace(load(ETHENA));
    const dep = actions.find((a) => a.type === 'stake_deposit')!;
    expect(dep).toBeDefined();
    expect(toApiAction(dep).details).toEqual({
      provider: 'ethena',
      stake_holder: '0:C2C866D626A17E4C2228FC7385173DC21CDEE4CA9AADF50ACE71A73D6EC9906B',
      pool: '0:A11AE0F5BB47BB2945871F915A621FF281C2D786C746DA74873D71D6F2AAA7A5',
      amount: '2500300127',
      tokens_minted: '1994155249',
      asset: TS_USDE_MASTER,
      source_asset: USDE_MASTER,
    });
  });
  it('the same messages with a plain jetton wallet code minted are not an Ethena deposit', () => {
    const t = load(ETHENA);
    const usdeInit = t.transactions.find((x) => x.inMsg?.opcode === 0x178d4519 && x.inMsg.initState && x.inMsg.source !== TS_USDE_MASTER)!.inMsg!.initState!;
    mintTransfer(t).initState = usdeInit;
    const types = classifyTrace(t).actions.map((a) => a.type);
    expect(types).not.toContain('stake_deposit');
    expect(types).toEqual(expect.arrayContaining(['jetton_transfer', 'jetton_mint']));
    mintTransfer(t).initState = null;
    expect(classifyTrace(t).actions.map((a) => a.type)).not.toContain('stake_deposit');
  });
});

function codeOf(initBoc: string): Cell {
  const s = Cell.fromBase64(initBoc).beginParse();
  // StateInit: split_depth (Maybe), special (Maybe), code (Maybe ^Cell), …
  if (s.loadBit()) s.skip(5);
  if (s.loadBit()) s.skip(2);
  if (!s.loadBit()) throw new Error('no code');
  return s.loadRef();
}

describe('TONCO details as the reference defines them', () => {
  it('min_out_amount: what the swap paid out when it went through, the requested minimum when it failed', () => {
    // tonco.yaml "Tonco swap TON -> KUKU": 48774167123703 paid out
    const ok = classifyTrace(load('03dhjTFKdEV_03M0b0aDfZvdlWxVoUutqXaXRyYG9nw=')).actions.find((a) => a.type === 'jetton_swap')!;
    expect(toApiAction(ok).details).toMatchObject({ dex: 'tonco', min_out_amount: '48774167123703', dex_outgoing_transfer: { amount: '48774167123703' } });
    // "Tonco swap TON -> USDT failed": the POOLV3_SWAP params cell asks for at least this much
    const t = load('02TsVcC_MOggAZvHHBITbHCvzAt_hCq5WVAiKcZFMno=');
    const swapMsg = t.transactions.find((x) => x.inMsg?.opcode === 0xa7fb58f8)!.inMsg!;
    const s = Cell.fromBase64(swapMsg.body!).beginParse();
    s.skip(32 + 64);
    s.loadAddressAny();
    s.loadAddressAny();
    const params = s.loadRef().beginParse(); // amount:Coins sqrt_price_limit_x96:uint160 min_out_amount:Coins
    params.loadCoins();
    params.skip(160);
    const requested = params.loadCoins();
    const failed = classifyTrace(t).actions.find((a) => a.type === 'jetton_swap')!;
    expect(failed.success).toBe(false);
    expect(toApiAction(failed).details).toMatchObject({ min_out_amount: requested.toString() });
  });
  it('a liquidity deposit completing the position renders the dex_deposit_liquidity details of API v3', () => {
    // tonco.yaml "Tonco deposit liquidity (normal)", second side (USDT) that mints position NFT #3086
    const { actions } = classifyTrace(load('0GW2kNF4nRhw5xA3b5E35-EhF9H25H3Nvm5MJJo2VD0='));
    const deps = actions.filter((a) => a.type === 'dex_deposit_liquidity');
    expect(deps).toHaveLength(2);
    const done = deps.find((a) => (a.dex_deposit_liquidity_data as Record<string, unknown>).lp_tokens_minted !== null)!;
    expect(toApiAction(done).details).toEqual({
      dex: 'tonco',
      source: '0:400FC42F5A69D0B901DCDF210E4FC03D6FB6DF4DF785EF76D997E3A0DDE9511C',
      pool: '0:F6E6F4AD13073E875413D6A96C60F430A94E4888E868C79208D02FF1B0336931',
      destination_liquidity: '0:F6E6F4AD13073E875413D6A96C60F430A94E4888E868C79208D02FF1B0336931',
      amount_1: '5765664447', amount_2: null,
      asset_1: '0:B113A994B5024A16719F69139328EB759596C38A25F59028B146FECDC3621DFE', asset_2: null,
      user_jetton_wallet_1: null, user_jetton_wallet_2: '0:2BC21F6C2C85ECCF0DFC7FC5CAEC8A124799E6BB47E37206D014322F0DE33EFA',
      lp_tokens_minted: '1398855824493',
      // the position's two sides: TON (the pTON wallet side) first, USDT second
      target_asset_1: null, target_asset_2: '0:B113A994B5024A16719F69139328EB759596C38A25F59028B146FECDC3621DFE',
      target_amount_1: '2999999999829', target_amount_2: '5708578661',
      vault_excesses: [
        { asset: null, amount: '29999999998' },
        { asset: '0:B113A994B5024A16719F69139328EB759596C38A25F59028B146FECDC3621DFE', amount: '57085786' },
      ],
      tick_lower: '-57180', tick_upper: '-52980', nft_index: '3086',
      nft_address: '0:A74CC446A0805F61AF677B3754167DFC5CBB37D94488F9B3D9FA04C91262A06F',
    });
    // the refunds and the position NFT belong to the deposit, not to actions of their own
    expect(actions.map((a) => a.type)).not.toContain('nft_mint');
  });
});
