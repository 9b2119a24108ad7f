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
const list = (s: string) => s.split(', ');

describe('supported_action_types', () => {
  it('v1..v4 and latest expand to the reference lists, each version with the ones before it', () => {
    expect(expandActionTypes(['v1'])).toEqual(list(V1));
    expect(expandActionTypes(['v2'])).toEqual([...list(V1), ...list(V2)]);
    expect(expandActionTypes(['v3'])).toEqual([...list(V1), ...list(V2), ...list(V3)]);
    expect(expandActionTypes(['v4'])).toEqual([...list(V1), ...list(V2), ...list(V3), ...list(V4)]);
    expect(expandActionTypes(['latest'])).toEqual(expandActionTypes(['v4']));
    expect(expandActionTypes(undefined)).toEqual(expandActionTypes(['v4']));
  });

  it('names are taken as they are, v1 always included; the X-Actions-Version header replaces the list', () => {
    expect(expandActionTypes(['tgbtc_mint'])).toEqual([...list(V1), 'tgbtc_mint']);
    expect(expandActionTypes(['v4', 'tgbtc_mint'], 'v2')).toEqual([...list(V1), ...list(V2)]);
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
    const noCase = ['unknown', 'coffee_mev_protect_failed_swap'];
    const row = { type: '' } as unknown as ActionRow;
    const missing = Object.entries(ACTION_TYPES)
      .filter(([t, v]) => v !== null && !noCase.includes(t))
      .filter(([t]) => 'error' in actionDetails({ ...row, type: t }));
    expect(missing).toEqual([]);
  });
});
