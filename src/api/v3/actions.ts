/** Action type versions (reference §4.2) and action rows -> Action entities. */
import type { Row } from './db.ts';
import { b64, num, str } from './render.ts';

const V1 = ['call_contract', 'contract_deploy', 'ton_transfer', 'stake_deposit', 'stake_withdrawal', 'stake_withdrawal_request', 'dex_deposit_liquidity',
  'dex_withdraw_liquidity', 'jetton_transfer', 'jetton_burn', 'jetton_mint', 'jetton_swap', 'nft_transfer', 'nft_mint', 'change_dns', 'delete_dns', 'renew_dns',
  'subscribe', 'unsubscribe', 'election_deposit', 'election_recover', 'auction_bid', 'tick_tock'];
const V2 = [...V1, 'multisig_create_order', 'multisig_approve', 'multisig_execute', 'vesting_send_message', 'vesting_add_whitelist', 'evaa_supply',
  'evaa_withdraw', 'evaa_liquidate', 'jvault_stake', 'jvault_unstake', 'jvault_claim', 'jvault_unstake_request', 'nft_discovery', 'tonco_deploy_pool',
  'coffee_create_vault', 'coffee_create_pool_creator', 'coffee_create_pool', 'coffee_mev_protect_hold_funds', 'coffee_mev_protect_failed_swap',
  'coffee_staking_claim_rewards', 'coffee_staking_deposit', 'coffee_staking_withdraw', 'unknown'];
const V3 = [...V2, 'nft_put_on_sale', 'nft_put_on_auction', 'auction_outbid', 'nft_cancel_sale', 'nft_purchase', 'nft_cancel_auction', 'nft_finish_auction',
  'teleitem_start_auction', 'teleitem_cancel_auction', 'nft_update_sale', 'dns_purchase', 'dns_release', 'layerzero_send', 'layerzero_send_tokens',
  'layerzero_receive', 'layerzero_commit_packet', 'layerzero_dvn_verify'];
const V4 = [...V3, 'cocoon_worker_payout', 'cocoon_proxy_payout', 'cocoon_proxy_charge', 'cocoon_client_top_up', 'cocoon_register_proxy',
  'cocoon_unregister_proxy', 'cocoon_client_register', 'cocoon_client_change_secret_hash', 'cocoon_client_request_refund', 'cocoon_grant_refund',
  'cocoon_client_increase_stake', 'cocoon_client_withdraw'];
const SHORTCUTS: Record<string, string[]> = { v1: V1, v2: V2, v3: V3, v4: V4, latest: V4 };

/** Expands `supported_action_types` (shortcuts v1..v4/latest plus type names); v1 is always included. */
export function supportedTypes(list: string[] | undefined, header?: string): string[] {
  const src = header ? [header] : list?.length ? list : ['latest'];
  const out = new Set<string>(V1);
  for (const s of src) for (const t of SHORTCUTS[s] ?? [s]) out.add(t);
  return [...out];
}

export function actionJson(r: Row, opts: { accounts?: string[]; transactionsFull?: unknown[] } = {}): Record<string, unknown> {
  let details: Record<string, unknown> = {};
  try {
    const d = JSON.parse(String(r.details || '{}')) as unknown;
    if (d && typeof d === 'object' && !Array.isArray(d)) details = d as Record<string, unknown>;
  } catch {
    details = {};
  }
  const extraCur = r.value_extra_currencies && Object.keys(r.value_extra_currencies as object).length > 0;
  const type = (r.type === 'ton_transfer' || r.type === 'call_contract') && extraCur ? 'extra_currency_transfer' : String(r.type);
  const o: Record<string, unknown> = {
    trace_id: b64(r.trace_id),
    action_id: b64(r.action_id),
    start_lt: str(r.start_lt),
    end_lt: str(r.end_lt),
    start_utime: num(r.start_utime),
    end_utime: num(r.end_utime),
    trace_end_lt: str(r.trace_end_lt),
    trace_end_utime: num(r.trace_end_utime),
    trace_mc_seqno_end: num(r.trace_mc_seqno_end),
    transactions: ((r.tx_hashes as string[]) ?? []).map((h) => b64(h)),
    success: r.success === null || r.success === undefined ? null : Boolean(r.success),
    type,
    details,
    finality: 'finalized',
  };
  const eh = b64(r.trace_external_hash);
  if (eh) o.trace_external_hash = eh;
  const ehn = b64(r.trace_external_hash_norm);
  if (ehn) o.trace_external_hash_norm = ehn;
  if (opts.accounts) o.accounts = opts.accounts;
  if (opts.transactionsFull) o.transactions_full = opts.transactionsFull;
  return o;
}

/** Addresses an action names (address_book / metadata keys). */
export function actionAddresses(r: Row): string[] {
  return ['source', 'source_secondary', 'destination', 'destination_secondary', 'asset', 'asset_secondary', 'asset2', 'asset2_secondary']
    .map((k) => r[k])
    .filter((v): v is string => typeof v === 'string');
}
