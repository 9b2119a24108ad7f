/**
 * The action types: every `type` an action row is stored and served with, by the `supported_action_types` version
 * that lists it first (ton-index-go `models/action_versioning.go`, v1.3: v1..v5, `latest` = v5; each version
 * includes the ones before it; the index-only newer upstream adds change_wallet_key and gasless_request to v5).
 * The serializer's fillers are keyed by these (and by the block types it stores under one of them, below), and
 * API v3 expands `supported_action_types` from the same list and upstream's group shortcuts (SHORTCUTS).
 */

export type ActionTypeVersion = 'v1' | 'v2' | 'v3' | 'v4' | 'v5';

export const ACTION_TYPES = {
  // v1
  call_contract: 'v1', contract_deploy: 'v1', ton_transfer: 'v1', stake_deposit: 'v1', stake_withdrawal: 'v1', stake_withdrawal_request: 'v1',
  dex_deposit_liquidity: 'v1', dex_withdraw_liquidity: 'v1', jetton_transfer: 'v1', jetton_burn: 'v1', jetton_mint: 'v1', jetton_swap: 'v1',
  nft_transfer: 'v1', nft_mint: 'v1', change_dns: 'v1', delete_dns: 'v1', renew_dns: 'v1', subscribe: 'v1', unsubscribe: 'v1',
  election_deposit: 'v1', election_recover: 'v1', auction_bid: 'v1', tick_tock: 'v1',
  // v2
  multisig_create_order: 'v2', multisig_approve: 'v2', multisig_execute: 'v2', vesting_send_message: 'v2', vesting_add_whitelist: 'v2',
  evaa_supply: 'v2', evaa_withdraw: 'v2', evaa_liquidate: 'v2', jvault_stake: 'v2', jvault_unstake: 'v2', jvault_claim: 'v2',
  jvault_unstake_request: 'v2', nft_discovery: 'v2', tonco_deploy_pool: 'v2', coffee_create_vault: 'v2', coffee_create_pool_creator: 'v2',
  coffee_create_pool: 'v2', coffee_mev_protect_hold_funds: 'v2', coffee_mev_protect_failed_swap: 'v2', coffee_staking_claim_rewards: 'v2',
  coffee_staking_deposit: 'v2', coffee_staking_withdraw: 'v2', unknown: 'v2',
  // v3
  nft_put_on_sale: 'v3', nft_put_on_auction: 'v3', auction_outbid: 'v3', nft_cancel_sale: 'v3', nft_purchase: 'v3', nft_cancel_auction: 'v3',
  nft_finish_auction: 'v3', teleitem_start_auction: 'v3', teleitem_cancel_auction: 'v3', nft_update_sale: 'v3', dns_purchase: 'v3',
  dns_release: 'v3', layerzero_send: 'v3', layerzero_send_tokens: 'v3', layerzero_receive: 'v3', layerzero_commit_packet: 'v3',
  layerzero_dvn_verify: 'v3',
  // v4
  cocoon_worker_payout: 'v4', cocoon_proxy_payout: 'v4', cocoon_proxy_charge: 'v4', cocoon_client_top_up: 'v4', cocoon_register_proxy: 'v4',
  cocoon_unregister_proxy: 'v4', cocoon_client_register: 'v4', cocoon_client_change_secret_hash: 'v4', cocoon_client_request_refund: 'v4',
  cocoon_grant_refund: 'v4', cocoon_client_increase_stake: 'v4', cocoon_client_withdraw: 'v4',
  // v5 (v1.3), with the index-only newer upstream's two Telegram wallet / W5 types
  dedust_v2_claim_fees: 'v5', dedust_v2_claim_reward: 'v5', change_wallet_key: 'v5', gasless_request: 'v5',
  // no version lists these: a client names them, or the group shortcut `tgbtc`
  tgbtc_mint: null, tgbtc_mint_fallback: null, tgbtc_burn: null, tgbtc_burn_fallback: null, tgbtc_new_key: null, tgbtc_new_key_fallback: null,
  tgbtc_dkg_log_fallback: null,
} as const satisfies Record<string, ActionTypeVersion | null>;

export type ActionType = keyof typeof ACTION_TYPES;

/**
 * Block types the serializer stores under another type (upstream's renames in block_tree_serializer.py), with the
 * types each may become (some renames depend on the block's data).
 */
export const RENAMED_BLOCK_TYPES = {
  tonstakers_deposit: ['stake_deposit'],
  nominator_pool_deposit: ['stake_deposit'],
  ethena_deposit: ['stake_deposit'],
  hipo_stake_deposit: ['stake_deposit'],
  tonstakers_withdraw_request: ['stake_withdrawal_request'],
  ethena_withdrawal_request: ['stake_withdrawal_request'],
  hipo_stake_withdrawal_request: ['stake_withdrawal_request'],
  nominator_pool_withdraw_request: ['stake_withdrawal_request', 'stake_withdrawal'],
  tonstakers_withdraw: ['stake_withdrawal'],
  hipo_stake_withdrawal: ['stake_withdrawal'],
  dedust_deposit_liquidity: ['dex_deposit_liquidity'],
  dedust_deposit_liquidity_partial: ['dex_deposit_liquidity'],
  dedust_v2_deposit_liquidity: ['dex_deposit_liquidity'],
  dedust_v2_deposit_liquidity_partial: ['dex_deposit_liquidity'],
  coffee_deposit_liquidity: ['dex_deposit_liquidity'],
  tonco_deposit_liquidity: ['dex_deposit_liquidity'],
  tonco_withdraw_liquidity: ['dex_withdraw_liquidity'],
  tgbtc_dkg_log: ['tgbtc_dkg_log_fallback'],
} as const satisfies Record<string, readonly ActionType[]>;

export type RenamedBlockType = keyof typeof RENAMED_BLOCK_TYPES;

const VERSIONS: readonly ActionTypeVersion[] = ['v1', 'v2', 'v3', 'v4', 'v5'];

/** The types a version lists: its own and every earlier version's, in the registry's order. */
export function actionTypesOf(version: ActionTypeVersion): ActionType[] {
  const upTo = VERSIONS.slice(0, VERSIONS.indexOf(version) + 1);
  return (Object.keys(ACTION_TYPES) as ActionType[]).filter((t) => {
    const v = ACTION_TYPES[t] as ActionTypeVersion | null;
    return v !== null && upTo.includes(v);
  });
}

/** Types of one version alone (a version's shortcut names the previous version and these). */
const own = (version: ActionTypeVersion): string[] => (Object.keys(ACTION_TYPES) as ActionType[]).filter((t) => ACTION_TYPES[t] === version);

/**
 * ton-index-go's ActionTypeShortcuts: a shortcut lists types and other shortcuts (v3 lists "v2", "nft.v3" lists
 * "nft", ...). The group shortcuts are upstream's lists as they are (its "coffee" leaves out
 * coffee_mev_protect_failed_swap, "dns.v2" repeats what "dns" has).
 */
const SHORTCUTS: Readonly<Record<string, readonly string[]>> = {
  v1: own('v1'),
  v2: [...own('v1'), ...own('v2')],
  v3: ['v2', ...own('v3')],
  v4: ['v3', ...own('v4')],
  v5: ['v4', ...own('v5')],
  latest: ['v5'],
  staking: ['stake_deposit', 'stake_withdrawal', 'stake_withdrawal_request'],
  jettons: ['jetton_transfer', 'jetton_burn', 'jetton_mint'],
  nft: ['nft_transfer', 'nft_mint', 'auction_bid'],
  'nft.v3': [
    'nft', 'nft_put_on_sale', 'nft_put_on_auction', 'auction_outbid', 'nft_cancel_sale', 'nft_purchase', 'nft_cancel_auction',
    'nft_finish_auction', 'teleitem_start_auction', 'teleitem_cancel_auction', 'nft_update_sale', 'dns_purchase', 'dns_release',
  ],
  dns: ['change_dns', 'delete_dns', 'renew_dns', 'dns_purchase', 'dns_release'],
  'dns.v2': ['dns', 'dns_purchase', 'dns_release'],
  multisig: ['multisig_create_order', 'multisig_approve', 'multisig_execute'],
  vesting: ['vesting_send_message', 'vesting_add_whitelist'],
  evaa: ['evaa_supply', 'evaa_withdraw', 'evaa_liquidate'],
  jvault: ['jvault_stake', 'jvault_unstake', 'jvault_claim', 'jvault_unstake_request'],
  coffee: [
    'coffee_create_vault', 'coffee_create_pool_creator', 'coffee_create_pool', 'coffee_mev_protect_hold_funds', 'coffee_staking_claim_rewards',
    'coffee_staking_deposit', 'coffee_staking_withdraw',
  ],
  tgbtc: ['tgbtc_dkg_log_fallback', 'tgbtc_new_key', 'tgbtc_new_key_fallback', 'tgbtc_burn', 'tgbtc_burn_fallback', 'tgbtc_mint', 'tgbtc_mint_fallback'],
  layerzero: ['layerzero_send', 'layerzero_send_tokens', 'layerzero_receive', 'layerzero_commit_packet', 'layerzero_dvn_verify'],
  cocoon: own('v4'),
};

/** expandShortcutRecursive: shortcuts open (up to depth 10, a cycle cut), anything else is a type. */
function expandInto(name: string, out: Set<string>, seen: Set<string>, depth: number): void {
  if (depth > 10 || seen.has(name)) return;
  seen.add(name);
  const list = Object.hasOwn(SHORTCUTS, name) ? SHORTCUTS[name] : undefined;
  if (list === undefined) out.add(name);
  else {
    for (const t of list) {
      if (Object.hasOwn(SHORTCUTS, t)) expandInto(t, out, seen, depth + 1);
      else out.add(t);
    }
  }
  seen.delete(name);
}

/**
 * ExpandActionTypeShortcuts: `supported_action_types` (shortcuts and type names) into the types shown, the v1
 * types always among them; a shortcut's own name is never a type. `header` (X-Actions-Version) replaces the
 * list; neither given: `latest`.
 */
export function expandActionTypes(list: readonly string[] | undefined, header?: string): string[] {
  const src = header ? [header] : list?.length ? list : ['latest'];
  const out = new Set<string>();
  const seen = new Set<string>();
  for (const s of src) expandInto(s, out, seen, 0);
  expandInto('v1', out, seen, 0);
  return [...out].filter((t) => !Object.hasOwn(SHORTCUTS, t));
}
