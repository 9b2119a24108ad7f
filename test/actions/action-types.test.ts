// The action types: one registry (src/actions/action-types.ts) that the serializer's fillers are keyed by and that
// API v3 expands `supported_action_types` from. The version lists are checked against the reference's table
// (ton-index-go models/action_versioning.go, as the API v3 digest quotes it).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ACTION_TYPES, actionDetails, classifyTrace, expandActionTypes, RENAMED_BLOCK_TYPES, traceFromToncenterJson, type ActionRow } from '../../src/actions/index.ts';
import { SERIALIZED_BLOCK_TYPES } from '../../src/actions/serializer.ts';
import { supportedTypes } from '../../src/api/v3/actions.ts';

const V1 = 'call_contract, contract_deploy, ton_transfer, stake_deposit, stake_withdrawal, stake_withdrawal_request, dex_deposit_liquidity, dex_withdraw_liquidity, jetton_transfer, jetton_burn, jetton_mint, jetton_swap, nft_transfer, nft_mint, change_dns, delete_dns, renew_dns, subscribe, unsubscribe, election_deposit, election_recover, auction_bid, tick_tock';
const V2 = 'multisig_create_order, multisig_approve, multisig_execute, vesting_send_message, vesting_add_whitelist, evaa_supply, evaa_withdraw, evaa_liquidate, jvault_stake, jvault_unstake, jvault_claim, jvault_unstake_request, nft_discovery, tonco_deploy_pool, coffee_create_vault, coffee_create_pool_creator, coffee_create_pool, coffee_mev_protect_hold_funds, coffee_mev_protect_failed_swap, coffee_staking_claim_rewards, coffee_staking_deposit, coffee_staking_withdraw, unknown';
const V3 = 'nft_put_on_sale, nft_put_on_auction, auction_outbid, nft_cancel_sale, nft_purchase, nft_cancel_auction, nft_finish_auction, teleitem_start_auction, teleitem_cancel_auction, nft_update_sale, dns_purchase, dns_release, layerzero_send, layerzero_send_tokens, layerzero_receive, layerzero_commit_packet, layerzero_dvn_verify';
const V4 = 'cocoon_worker_payout, cocoon_proxy_payout, cocoon_proxy_charge, cocoon_client_top_up, cocoon_register_proxy, cocoon_unregister_proxy, cocoon_client_register, cocoon_client_change_secret_hash, cocoon_client_request_refund, cocoon_grant_refund, cocoon_client_increase_stake, cocoon_client_withdraw';
const V5 = 'dedust_v2_claim_fees, dedust_v2_claim_reward, change_wallet_key, gasless_request';
const list = (s: string) => s.split(', ');
/** The expansion as a sorted list (upstream's comes out of a Go map: no order). */
const expanded = (l: string[] | undefined, header?: string) => [...expandActionTypes(l, header)].sort();
const sorted = (...xs: string[][]) => xs.flat().sort();

describe('supported_action_types (ton-index-go action_versioning.go, v1.3)', () => {
  it('v1..v5 and latest expand to the reference lists, each version with the ones before it', () => {
    expect(expanded(['v1'])).toEqual(sorted(list(V1)));
    expect(expanded(['v2'])).toEqual(sorted(list(V1), list(V2)));
    expect(expanded(['v3'])).toEqual(sorted(list(V1), list(V2), list(V3)));
    expect(expanded(['v4'])).toEqual(sorted(list(V1), list(V2), list(V3), list(V4)));
    // v5 = v4 + the DeDust v2 claims (v1.3) + the index-only newer Telegram wallet / gasless types; latest = v5
    expect(expanded(['v5'])).toEqual(sorted(list(V1), list(V2), list(V3), list(V4), list(V5)));
    expect(expanded(['latest'])).toEqual(expanded(['v5']));
    expect(expanded(undefined)).toEqual(expanded(['v5']));
    expect(expanded(['v4'])).not.toContain('gasless_request');
  });

  it('the group shortcuts, nested ones opened, v1 always included, a shortcut\'s name never a type', () => {
    expect(expanded(['tgbtc'])).toEqual(sorted(list(V1), ['tgbtc_dkg_log_fallback', 'tgbtc_new_key', 'tgbtc_new_key_fallback', 'tgbtc_burn', 'tgbtc_burn_fallback', 'tgbtc_mint', 'tgbtc_mint_fallback']));
    // nft.v3 lists the shortcut nft; coffee leaves coffee_mev_protect_failed_swap out, as upstream's list does
    expect(expanded(['nft.v3'])).toEqual(expanded(['v1', 'nft_put_on_sale', 'nft_put_on_auction', 'auction_outbid', 'nft_cancel_sale', 'nft_purchase',
      'nft_cancel_auction', 'nft_finish_auction', 'teleitem_start_auction', 'teleitem_cancel_auction', 'nft_update_sale', 'dns_purchase', 'dns_release']));
    expect(expanded(['coffee'])).not.toContain('coffee_mev_protect_failed_swap');
    expect(expanded(['coffee', 'dns.v2', 'cocoon', 'staking'])).toEqual(sorted(list(V1), list(V4), [
      'coffee_create_vault', 'coffee_create_pool_creator', 'coffee_create_pool', 'coffee_mev_protect_hold_funds', 'coffee_staking_claim_rewards',
      'coffee_staking_deposit', 'coffee_staking_withdraw', 'dns_purchase', 'dns_release',
    ]));
    for (const t of expanded(['latest', 'nft.v3', 'dns.v2', 'jettons'])) expect(['latest', 'v5', 'nft', 'nft.v3', 'dns', 'dns.v2', 'jettons']).not.toContain(t);
  });

  it('names are taken as they are, v1 always included; the X-Actions-Version header replaces the list', () => {
    expect(expanded(['tgbtc_mint'])).toEqual(sorted(list(V1), ['tgbtc_mint']));
    expect(expanded(['v4', 'tgbtc_mint'], 'v2')).toEqual(sorted(list(V1), list(V2)));
  });

  it('API v3 expands them with the same function', () => {
    expect(supportedTypes).toBe(expandActionTypes);
  });
});

describe('the registry and the serializer', () => {
  const registered = new Set(Object.keys(ACTION_TYPES));

  it('every serializer case is a registered type or a block type stored under registered ones', () => {
    for (const t of SERIALIZED_BLOCK_TYPES) expect(registered.has(t) || t in RENAMED_BLOCK_TYPES, t).toBe(true);
    for (const targets of Object.values(RENAMED_BLOCK_TYPES)) for (const t of targets) expect(registered.has(t), t).toBe(true);
  });

  it('every registered type is made by a serializer case or a rename, or is the unknown fallback, or comes from a case-less block', () => {
    const made = new Set<string>([...SERIALIZED_BLOCK_TYPES, ...Object.values(RENAMED_BLOCK_TYPES).flat()]);
    // tgbtc's crippled variants are renames by data (fillTgbtc*); coffee_mev_protect_failed_swap has no case upstream
    const byName = ['unknown', 'coffee_mev_protect_failed_swap', 'tgbtc_mint_fallback', 'tgbtc_burn_fallback', 'tgbtc_new_key_fallback'];
    expect([...registered].filter((t) => !made.has(t) && !byName.includes(t))).toEqual([]);
  });

  it('the classifier stores only registered types (every trace of the conformance suite)', () => {
    const dir = join(import.meta.dirname, '../fixtures/traces/toncenter-indexer/json');
    const seen = new Set<string>();
    for (const f of readdirSync(dir)) {
      const trace = traceFromToncenterJson(JSON.parse(readFileSync(join(dir, f), 'utf8')) as unknown);
      for (const a of classifyTrace(trace).actions as ActionRow[]) seen.add(a.type);
    }
    expect(seen.size).toBeGreaterThan(10);
    expect([...seen].filter((t) => !registered.has(t))).toEqual([]);
  });

  it('every versioned type but the Go API\'s case-less ones has a details case', () => {
    // the Go API (v1.3) has no case for these; the newer one's for the Telegram wallet / gasless types was not read
    const noCase = ['unknown', 'coffee_mev_protect_failed_swap', 'change_wallet_key', 'gasless_request'];
    const row = { type: '' } as unknown as ActionRow;
    const missing = Object.entries(ACTION_TYPES)
      .filter(([t, v]) => v !== null && !noCase.includes(t))
      .filter(([t]) => 'error' in actionDetails({ ...row, type: t }));
    expect(missing).toEqual([]);
  });
});
