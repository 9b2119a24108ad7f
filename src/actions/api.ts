/**
 * Action row -> API v3 `Action` JSON (reference §3 Action entity, §4.3 generic columns -> details).
 * Hashes render as standard base64, lt and amounts as decimal strings, addresses in raw upper-case form.
 */
import { hashToBase64 } from '../format/index.ts';
import type { ActionRow } from './model.ts';

export interface ApiAction {
  trace_id: string | null;
  action_id: string;
  start_lt: string;
  end_lt: string;
  start_utime: number;
  end_utime: number;
  trace_end_lt: string;
  trace_end_utime: number;
  trace_mc_seqno_end: number | null;
  transactions: string[];
  success: boolean;
  type: string;
  details: Record<string, unknown>;
  trace_external_hash?: string;
  trace_external_hash_norm?: string;
  accounts?: string[];
  finality: 'finalized';
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** bigint -> decimal string, recursively (API v3 never emits 64-bit values as JSON numbers). */
export function toJson(v: unknown): Json {
  if (v === undefined || v === null) return null;
  if (typeof v === 'bigint') return v.toString();
  if (Array.isArray(v)) return v.map(toJson);
  if (typeof v === 'object') {
    const o: { [k: string]: Json } = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) o[k] = toJson(x);
    return o;
  }
  return v as Json;
}

const str = (v: bigint | null | undefined): string | null => (v === null || v === undefined ? null : v.toString());
const opHex = (op: number | null): string | null => (op === null ? null : '0x' + (op >>> 0).toString(16).padStart(8, '0'));
function d(r: ActionRow, col: string): Record<string, unknown> {
  return (r[col as `${string}_data`] as Record<string, unknown> | null | undefined) ?? {};
}

/** The `details` object of one action type, built from the generic and composite columns. */
export function actionDetails(r: ActionRow): Record<string, unknown> {
  switch (r.type) {
    case 'ton_transfer': {
      const t = d(r, 'ton_transfer_data');
      return { source: r.source, destination: r.destination, value: str(r.value), value_extra_currencies: r.value_extra_currencies, comment: t.content ?? null, encrypted: t.encrypted ?? false };
    }
    case 'call_contract':
      return { opcode: opHex(r.opcode), source: r.source, destination: r.destination, value: str(r.value), extra_currencies: r.value_extra_currencies };
    case 'contract_deploy':
      return { opcode: opHex(r.opcode), source: r.source, destination: r.destination, value: str(r.value) };
    case 'tick_tock':
      return {};
    case 'jetton_transfer': {
      const t = d(r, 'jetton_transfer_data');
      return {
        asset: r.asset, sender: r.source, receiver: r.destination, sender_jetton_wallet: r.source_secondary,
        receiver_jetton_wallet: r.destination_secondary, amount: str(r.amount), comment: t.comment ?? null,
        is_encrypted_comment: t.is_encrypted_comment ?? false, query_id: toJson(t.query_id), response_destination: t.response_destination ?? null,
        custom_payload: t.custom_payload ?? null, forward_payload: t.forward_payload ?? null, forward_amount: toJson(t.forward_amount),
      };
    }
    case 'jetton_burn':
      return { owner: r.source, owner_jetton_wallet: r.source_secondary, asset: r.asset, amount: str(r.amount) };
    case 'jetton_mint':
      return { asset: r.asset, receiver: r.destination, receiver_jetton_wallet: r.destination_secondary, amount: str(r.amount), ton_amount: str(r.value) };
    case 'jetton_swap': {
      const s = d(r, 'jetton_swap_data');
      const out: Record<string, unknown> = {
        dex: s.dex ?? null, sender: r.source, asset_in: r.asset, asset_out: r.asset2,
        dex_incoming_transfer: toJson(s.dex_incoming_transfer), dex_outgoing_transfer: toJson(s.dex_outgoing_transfer),
        peer_swaps: toJson(s.peer_swaps ?? []),
      };
      if (s.dex === 'tonco') out.min_out_amount = toJson(s.min_out_amount);
      return out;
    }
    case 'nft_mint': {
      const n = d(r, 'nft_mint_data');
      return { owner: r.source, nft_item: r.asset_secondary, nft_collection: r.asset, nft_item_index: toJson(n.nft_item_index) };
    }
    case 'nft_transfer':
    case 'nft_purchase': {
      const n = d(r, 'nft_transfer_data');
      return toJson({
        nft_collection: r.asset, nft_item: r.asset_secondary, nft_item_index: n.nft_item_index, old_owner: r.source,
        new_owner: r.destination, is_purchase: n.is_purchase ?? false, price: n.price ?? null, query_id: n.query_id,
        response_destination: n.response_destination ?? null, custom_payload: n.custom_payload ?? null,
        forward_payload: n.forward_payload ?? null, forward_amount: n.forward_amount ?? null,
        marketplace: n.marketplace ?? null, real_old_owner: n.real_prev_owner ?? null, marketplace_address: n.marketplace_address ?? null,
        payout_amount: n.payout_amount ?? null, payout_comment: n.payout_comment ?? null,
      }) as Record<string, unknown>;
    }
    case 'stake_deposit': {
      const s = d(r, 'staking_data');
      const out: Record<string, unknown> = { provider: s.provider ?? null, stake_holder: r.source, pool: r.destination, amount: str(r.amount), tokens_minted: toJson(s.tokens_minted), asset: r.asset };
      // Ethena deposits name the jetton deposited too (the minted one is `asset`)
      if (s.provider === 'ethena') out.source_asset = r.asset2;
      return out;
    }
    case 'stake_withdrawal': {
      const s = d(r, 'staking_data');
      return { provider: s.provider ?? null, stake_holder: r.source, pool: r.destination, amount: str(r.amount), payout_nft: s.ts_nft ?? null, tokens_burnt: toJson(s.tokens_burnt), asset: r.asset };
    }
    case 'stake_withdrawal_request': {
      const s = d(r, 'staking_data');
      return { provider: s.provider ?? null, stake_holder: r.source, pool: r.destination, payout_nft: s.ts_nft ?? null, asset: r.asset, tokens_burnt: str(r.amount) };
    }
    case 'dex_deposit_liquidity': {
      const x = d(r, 'dex_deposit_liquidity_data');
      const excesses = (x.vault_excesses as Array<{ asset: string | null; amount: bigint }> | undefined) ?? [];
      const s2 = (v: unknown) => (v === null || v === undefined ? null : String(v));
      return {
        dex: x.dex ?? null, source: r.source, pool: r.destination,
        // DeDust deposits go through a deposit contract; the others straight to the pool
        destination_liquidity: x.dex === 'dedust' ? r.destination_secondary : r.destination,
        amount_1: s2(x.amount1), amount_2: s2(x.amount2), asset_1: x.asset1 ?? null, asset_2: x.asset2 ?? null,
        user_jetton_wallet_1: x.user_jetton_wallet_1 ?? null, user_jetton_wallet_2: x.user_jetton_wallet_2 ?? null,
        lp_tokens_minted: s2(x.lp_tokens_minted), target_asset_1: x.target_asset_1 ?? null, target_asset_2: x.target_asset_2 ?? null,
        target_amount_1: s2(x.target_amount_1), target_amount_2: s2(x.target_amount_2),
        vault_excesses: excesses.map((e) => ({ asset: e.asset ?? null, amount: s2(e.amount) })),
        tick_lower: s2(x.tick_lower), tick_upper: s2(x.tick_upper), nft_index: s2(x.nft_index), nft_address: x.nft_address ?? null,
      };
    }
    case 'change_dns': {
      const x = d(r, 'change_dns_record_data');
      const schema = (x.value_schema as string | null | undefined) ?? null;
      const v = (x.value as string | null | undefined) ?? null;
      // the reference puts a DNSText value into dns_storage_address (Go parse/actions.go); kept for compatibility
      return {
        key: x.key ?? null,
        value: {
          sum_type: schema,
          dns_smc_address: schema === 'DNSSmcAddress' ? v : null,
          dns_adnl_address: schema === 'DNSAdnlAddress' ? v : null,
          dns_text: null,
          dns_next_resolver_address: schema === 'DNSNextResolver' ? v : null,
          dns_storage_address: schema === 'DNSStorageAddress' || schema === 'DNSText' ? v : null,
          flags: x.flags ?? null,
        },
        source: r.source, asset: r.destination, nft_collection: r.asset,
      };
    }
    case 'delete_dns':
      return { hash: d(r, 'change_dns_record_data').key ?? null, source: r.source, asset: r.destination, nft_collection: r.asset };
    case 'renew_dns':
      return { source: r.source, asset: r.destination, nft_collection: r.asset };
    case 'election_deposit':
    case 'election_recover':
      return r.amount === null ? { stake_holder: r.source } : { stake_holder: r.source, amount: str(r.amount) };
    case 'auction_bid':
      return {
        amount: str(r.value), bidder: r.source, auction: r.destination, nft_item: r.asset_secondary, nft_collection: r.asset,
        nft_item_index: toJson(d(r, 'nft_transfer_data').nft_item_index),
      };
    case 'subscribe':
    case 'unsubscribe': {
      const out: Record<string, unknown> = { subscriber: r.source, subscription: r.destination_secondary, amount: str(r.amount) };
      if (r.destination !== null) out.beneficiary = r.destination;
      if (r.type === 'unsubscribe' && r.amount === null) delete out.amount;
      return out;
    }
    case 'multisig_create_order': {
      const x = d(r, 'multisig_create_order_data');
      return toJson({
        query_id: x.query_id, order_seqno: x.order_seqno, is_created_by_signer: x.is_created_by_signer, is_signed_by_creator: x.is_signed_by_creator,
        creator_index: x.creator_index, expiration_date: x.expiration_date, order_boc: x.order_boc,
        source: r.source, destination: r.destination, destination_order: r.destination_secondary,
      }) as Record<string, unknown>;
    }
    case 'multisig_approve': {
      const x = d(r, 'multisig_approve_data');
      return toJson({ signer_index: x.signer_index, exit_code: x.exit_code, source: r.source, destination: r.destination }) as Record<string, unknown>;
    }
    case 'multisig_execute': {
      const x = d(r, 'multisig_execute_data');
      return toJson({
        query_id: x.query_id, order_seqno: x.order_seqno, expiration_date: x.expiration_date, approvals_num: x.approvals_num,
        signers_hash: x.signers_hash, order_boc: x.order_boc, source: r.source, destination: r.destination,
      }) as Record<string, unknown>;
    }
    case 'vesting_send_message': {
      const v = d(r, 'vesting_send_message_data');
      return { query_id: toJson(v.query_id), message_boc: v.message_boc ?? null, source: r.source, vesting: r.destination, destination: r.destination_secondary, amount: str(r.amount) };
    }
    case 'vesting_add_whitelist': {
      const v = d(r, 'vesting_add_whitelist_data');
      return { query_id: toJson(v.query_id), accounts_added: v.accounts_added ?? [], source: r.source, vesting: r.destination };
    }
    case 'evaa_supply': {
      const e = d(r, 'evaa_supply_data');
      return toJson({
        sender_jetton_wallet: r.source_secondary, recipient_jetton_wallet: e.recipient_jetton_wallet, master_jetton_wallet: e.master_jetton_wallet,
        master: e.master, asset_id: e.asset_id, is_ton: e.is_ton, source: r.source, source_wallet: r.source_secondary,
        recipient: r.destination, recipient_contract: r.destination_secondary, asset: r.asset, amount: r.amount,
      }) as Record<string, unknown>;
    }
    case 'evaa_withdraw': {
      const e = d(r, 'evaa_withdraw_data');
      return toJson({
        recipient_jetton_wallet: e.recipient_jetton_wallet, master_jetton_wallet: e.master_jetton_wallet, master: e.master,
        fail_reason: e.fail_reason, asset_id: e.asset_id, source: r.source, recipient: r.destination,
        owner_contract: r.destination_secondary, asset: r.asset, amount: r.amount,
      }) as Record<string, unknown>;
    }
    case 'jvault_stake': {
      const j = d(r, 'jvault_stake_data');
      return toJson({ period: j.period, minted_stake_jettons: null, stake_wallet: j.stake_wallet, source: r.source, source_jetton_wallet: r.source_secondary, asset: r.asset, pool: r.destination, amount: r.amount }) as Record<string, unknown>;
    }
    case 'jvault_unstake':
    case 'jvault_unstake_request':
      return toJson({ source: r.source, stake_wallet: r.source_secondary, pool: r.destination, amount: r.amount, exit_code: r.opcode, asset: r.asset, staking_asset: r.asset2 }) as Record<string, unknown>;
    case 'jvault_claim': {
      const j = d(r, 'jvault_claim_data');
      const jettons = (j.claimed_jettons as string[] | undefined) ?? [];
      const amounts = (j.claimed_amounts as bigint[] | undefined) ?? [];
      return toJson({ claimed_rewards: jettons.map((jetton, i) => ({ jetton, amount: amounts[i] ?? null })), source: r.source, stake_wallet: r.source_secondary, pool: r.destination }) as Record<string, unknown>;
    }
    default: {
      // newer families (tgbtc_*, cocoon_*, …): generic columns plus the type's composite column
      const out: Record<string, unknown> = {
        source: r.source, source_secondary: r.source_secondary, destination: r.destination, destination_secondary: r.destination_secondary,
        asset: r.asset, asset_secondary: r.asset_secondary, amount: str(r.amount), value: str(r.value),
      };
      const composite = r[`${r.type}_data`];
      if (composite) Object.assign(out, toJson(composite) as Record<string, unknown>);
      return out;
    }
  }
}

const b64 = (h: string | null) => (h ? hashToBase64(h) : null);

export function toApiAction(r: ActionRow, opts: { includeAccounts?: boolean } = {}): ApiAction {
  const out: ApiAction = {
    trace_id: b64(r.trace_id),
    action_id: r.action_id,
    start_lt: r.start_lt.toString(),
    end_lt: r.end_lt.toString(),
    start_utime: r.start_utime,
    end_utime: r.end_utime,
    trace_end_lt: r.trace_end_lt.toString(),
    trace_end_utime: r.trace_end_utime,
    trace_mc_seqno_end: r.trace_mc_seqno_end,
    transactions: r.tx_hashes.map((h) => hashToBase64(h)),
    success: r.success,
    type: r.type,
    details: actionDetails(r),
    finality: 'finalized',
  };
  // the API renames plain transfers that carry extra currencies
  if ((r.type === 'ton_transfer' || r.type === 'call_contract') && Object.keys(r.value_extra_currencies ?? {}).length > 0) {
    out.type = 'extra_currency_transfer';
  }
  if (r.trace_external_hash) out.trace_external_hash = hashToBase64(r.trace_external_hash);
  if (r.trace_external_hash_norm) out.trace_external_hash_norm = hashToBase64(r.trace_external_hash_norm);
  if (opts.includeAccounts) out.accounts = [...r.accounts];
  return out;
}
