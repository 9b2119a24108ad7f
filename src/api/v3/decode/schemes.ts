/**
 * Message body schemes, each quoting its line of ton-marker's `schemes.tlb` (toncenter/ton-indexer,
 * ton-index-worker/ton-marker/src/schemes/schemes.tlb): the TEP-74 / TEP-62 standards, comments,
 * elector, DNS, Tonstakers, STON.fi v1/v2, DeDust, subscriptions and multisig v2. Constructor and field names
 * are the reference's, so decoded bodies read the same (including its `mulisig_new_order` spelling).
 * `kind`: 'internal' (InternalMsgBody*: also names opcodes) or 'forward' (a ForwardPayload only, tried after
 * every internal scheme of the opcode, as the reference does).
 */
import {
  addr, addrInt, bin, bits, bool, coins, cons, currencies, either, eitherCell, hex, int, maybe, maybeRefCell, ref, refCell, restCell,
  snakeText, type, uint, varuint, type Constructor, type Field, type Reader,
} from './tlb.ts';

export interface Scheme {
  cons: Constructor;
  kind: 'internal' | 'forward';
}

const qid: Field = ['query_id', uint(64)];
const v16 = varuint(16);
const internal = (name: string, tag: string, fields: Field[]): Scheme => ({ cons: cons(name, hex(tag), fields), kind: 'internal' });
const forward = (name: string, tag: string, fields: Field[]): Scheme => ({ cons: cons(name, hex(tag), fields), kind: 'forward' });

// ---------------------------------------------------------------- shared types

// native$0000 = DedustAsset; jetton$0001 workchain_id:int8 address:bits256 = DedustAsset;
// extra_currency$0010 currency_id:int32 = DedustAsset;
const DedustAsset = type(
  cons('native', bin('0000'), []),
  cons('jetton', bin('0001'), [['workchain_id', int(8)], ['address', bits(256)]]),
  cons('extra_currency', bin('0010'), [['currency_id', int(32)]]),
);
// swap_params#_ deadline:uint32 recipient_addr:MsgAddress referral_addr:MsgAddress
//   fulfill_payload:(Maybe ^Cell) reject_payload:(Maybe ^Cell) = DedustSwapParams;
const DedustSwapParams = type(cons('swap_params', null, [
  ['deadline', uint(32)], ['recipient_addr', addr], ['referral_addr', addr], ['fulfill_payload', maybeRefCell], ['reject_payload', maybeRefCell],
]));
// step_params#_ kind_out:Bool limit:(VarUInteger 16) next:(Maybe ^DedustSwapStep) = DedustSwapStepParams;
// step#_ pool_addr:MsgAddress params:DedustSwapStepParams = DedustSwapStep;
const DedustSwapStepParams: Reader = (s, ctx) => type(cons('step_params', null, [['kind_out', bool], ['limit', v16], ['next', maybe(ref(DedustSwapStep))]]))(s, ctx);
const DedustSwapStep: Reader = (s, ctx) => type(cons('step', null, [['pool_addr', addr], ['params', DedustSwapStepParams]]))(s, ctx);
// volatile_pool$0 = DedustPoolType; stable_pool$1 = DedustPoolType;
// pool_params#_ pool_type:DedustPoolType asset0:DedustAsset asset1:DedustAsset = DedustPoolParams;
const DedustPoolParams = type(cons('pool_params', null, [
  ['pool_type', type(cons('volatile_pool', bin('0'), []), cons('stable_pool', bin('1'), []))], ['asset0', DedustAsset], ['asset1', DedustAsset],
]));
// _ min_lp_amount:Coins asset0_target_balance:Coins asset1_target_balance:Coins = DedustDepositLiquidityParams;
const DedustDepositLiquidityParams = type(cons('', null, [['min_lp_amount', coins], ['asset0_target_balance', coins], ['asset1_target_balance', coins]]));

// pay_to_params#_ amount0_out:(VarUInteger 16) token0_address:MsgAddress amount1_out:(VarUInteger 16) token1_address:MsgAddress = StonfiPayToParams;
const StonfiPayToParams = type(cons('pay_to_params', null, [['amount0_out', v16], ['token0_address', addr], ['amount1_out', v16], ['token1_address', addr]]));
// swap_addresses#_ from_user:MsgAddress = StonfiSwapAddrs;
const StonfiSwapAddrs = type(cons('swap_addresses', null, [['from_user', addr]]));
// swap_body#_ min_out:(VarUInteger 16) receiver:MsgAddress fwd_gas:Coins custom_payload:(Maybe ^Cell) refund_fwd_gas:Coins
//   refund_payload:(Maybe ^Cell) ref_fee:uint16 ref_address:MsgAddress = SwapBody;   (CrossSwapBody: same fields)
const swapBodyFields: Field[] = [
  ['min_out', v16], ['receiver', addr], ['fwd_gas', coins], ['custom_payload', maybeRefCell], ['refund_fwd_gas', coins],
  ['refund_payload', maybeRefCell], ['ref_fee', uint(16)], ['ref_address', addr],
];
const SwapBody = type(cons('swap_body', null, swapBodyFields));
const CrossSwapBody = type(cons('cross_swap_body', null, swapBodyFields));
// dex_payload#_ transferred_op:uint32 token_wallet1:MsgAddress refund_address:MsgAddress excesses_address:MsgAddress tx_deadline:uint64 _:^SwapBody = DexPayload;
const DexPayload = type(cons('dex_payload', null, [
  ['transferred_op', uint(32)], ['token_wallet1', addr], ['refund_address', addr], ['excesses_address', addr], ['tx_deadline', uint(64)], ['', ref(SwapBody)],
]));
// provide_lp_body_v2#_ min_lp_out:(VarUInteger 16) to_address:MsgAddress both_positive:uint1 fwd_amount:Coins custom_payload:(Maybe ^Cell) = ProvideLpBodyV2;
const provideLpFields: Field[] = [['min_lp_out', v16], ['to_address', addr], ['both_positive', uint(1)], ['fwd_amount', coins], ['custom_payload', maybeRefCell]];
const ProvideLpBodyV2 = type(cons('provide_lp_body_v2', null, provideLpFields));
const CrossProvideLpBody = type(cons('cross_provide_lp_body', null, provideLpFields));
// dex_payload_provide_lp_v2#_ transferred_op:uint32 token_wallet1:MsgAddress refund_address:MsgAddress excesses_address:MsgAddress
//   tx_deadline:uint64 _:^ProvideLpBodyV2 = DexPayloadProvideLpV2;
const DexPayloadProvideLpV2 = type(cons('dex_payload_provide_lp_v2', null, [
  ['transferred_op', uint(32)], ['token_wallet1', addr], ['refund_address', addr], ['excesses_address', addr], ['tx_deadline', uint(64)], ['', ref(ProvideLpBodyV2)],
]));
// additional_info_pay_to_v2#_ fwd_ton_amount:Coins amount0_out:(VarUInteger 16) token0_address:MsgAddress amount1_out:(VarUInteger 16) token1_address:MsgAddress = AdditionalInfoPayToV2;
const AdditionalInfoPayToV2 = type(cons('additional_info_pay_to_v2', null, [
  ['fwd_ton_amount', coins], ['amount0_out', v16], ['token0_address', addr], ['amount1_out', v16], ['token1_address', addr],
]));
// additional_info_pay_vault_v2#_ amount0_out:(VarUInteger 16) token0_address:MsgAddress amount1_out:(VarUInteger 16) token1_address:MsgAddress = AdditionalInfoPayVaultV2;
const AdditionalInfoPayVaultV2 = type(cons('additional_info_pay_vault_v2', null, [['amount0_out', v16], ['token0_address', addr], ['amount1_out', v16], ['token1_address', addr]]));

// dns_next_resolver#ba93 resolver:MsgAddressInt = DNSRecord;
// dns_adnl_address#ad01 adnl_addr:bits256 flags:(## 8) { flags <= 1 } proto_list:flags . 0?ProtoList = DNSRecord;
// dns_smc_address#9fd3 smc_addr:MsgAddressInt flags:(## 8) { flags <= 1 } cap_list:flags . 0?SmcCapList = DNSRecord;
// dns_storage_address#7473 bag_id:bits256 = DNSRecord;  dns_text#1eda _:Text = DNSRecord;
// (the optional proto / capability lists are printed as the rest of the cell)
const flagged = (name: string): Reader => (s, ctx) => {
  const flags = s.loadUint(8);
  if (flags > 1) throw new Error('flags > 1');
  return { flags: String(flags), [name]: flags & 1 ? restCell(s, ctx) : null };
};
const DNSRecord: Reader = (s, ctx) => {
  const tag = s.preloadUint(16);
  if (tag === 0xad01 || tag === 0x9fd3) {
    s.loadUint(16);
    const head = tag === 0xad01 ? { '@type': 'dns_adnl_address', adnl_addr: bits(256)(s, ctx) } : { '@type': 'dns_smc_address', smc_addr: addrInt(s, ctx) };
    return { ...head, ...(flagged(tag === 0xad01 ? 'proto_list' : 'cap_list')(s, ctx) as object) };
  }
  return type(
    cons('dns_next_resolver', hex('ba93'), [['resolver', addrInt]]),
    cons('dns_storage_address', hex('7473'), [['bag_id', bits(256)]]),
    cons('dns_text', hex('1eda'), [['', restCell]]),
  )(s, ctx);
};

// ---------------------------------------------------------------- W5 and out actions

/** `OutList n` (out_list$_ prev:^(OutList n) action:OutAction, out_list_empty$_) as an array, oldest action first. */
export const outList = (outAction: Reader): Reader => (s, ctx) => {
  const actions: unknown[] = [];
  let cur = s;
  for (let i = 0; cur.remainingRefs > 0 || cur.remainingBits > 0; i++) {
    if (i > 255) throw new Error('out list longer than 255');
    const prev = cur.loadRef().beginParse();
    actions.push(outAction(cur, ctx));
    cur = prev;
  }
  return actions.reverse();
};

// ---------------------------------------------------------------- the schemes, in the reference's order per opcode

export const SCHEMES: Scheme[] = [
  // jetton_transfer#0f8a7ea5 query_id:uint64 amount:(VarUInteger 16) destination:MsgAddress response_destination:MsgAddress
  //   custom_payload:(Maybe ^Cell) forward_ton_amount:(VarUInteger 16) forward_payload:(Either Cell ^Cell) = InternalMsgBody0;
  internal('jetton_transfer', '0f8a7ea5', [qid, ['amount', v16], ['destination', addr], ['response_destination', addr], ['custom_payload', maybeRefCell],
    ['forward_ton_amount', v16], ['forward_payload', eitherCell]]),
  // jetton_internal_transfer#178d4519 query_id:uint64 amount:(VarUInteger 16) from:MsgAddress response_address:MsgAddress
  //   forward_ton_amount:(VarUInteger 16) forward_payload:(Either Cell ^Cell) = InternalMsgBody0;  (then the same with forward_payload:Any)
  internal('jetton_internal_transfer', '178d4519', [qid, ['amount', v16], ['from', addr], ['response_address', addr], ['forward_ton_amount', v16], ['forward_payload', eitherCell]]),
  internal('jetton_internal_transfer', '178d4519', [qid, ['amount', v16], ['from', addr], ['response_address', addr], ['forward_ton_amount', v16], ['forward_payload', restCell]]),
  // jetton_burn#595f07bc query_id:uint64 amount:(VarUInteger 16) response_destination:MsgAddress custom_payload:(Maybe ^Cell) = InternalMsgBody0;
  internal('jetton_burn', '595f07bc', [qid, ['amount', v16], ['response_destination', addr], ['custom_payload', maybeRefCell]]),
  // jetton_burn_notification#7bdd97de query_id:uint64 amount:(VarUInteger 16) sender:MsgAddress response_destination:MsgAddress = InternalMsgBody1;
  internal('jetton_burn_notification', '7bdd97de', [qid, ['amount', v16], ['sender', addr], ['response_destination', addr]]),
  // jetton_notify#7362d09c query_id:uint64 amount:(VarUInteger 16) sender:MsgAddress forward_payload:(Either Cell ^Cell) = InternalMsgBody1;
  internal('jetton_notify', '7362d09c', [qid, ['amount', v16], ['sender', addr], ['forward_payload', eitherCell]]),
  // jetton_set_status#eed236d3 query_id:uint64 status:uint4 = InternalMsgBody1;
  internal('jetton_set_status', 'eed236d3', [qid, ['status', uint(4)]]),
  // jetton_mint#642b7d07 query_id:uint64 to_address:MsgAddressInt ton_amount:Coins = InternalMsgBody1;
  internal('jetton_mint', '642b7d07', [qid, ['to_address', addrInt], ['ton_amount', coins]]),
  // minter_jetton_mint#00000015 query_id:uint64 to_address:MsgAddress ton_amount:Coins master_msg:^Cell = InternalMsgBody1;
  internal('minter_jetton_mint', '00000015', [qid, ['to_address', addr], ['ton_amount', coins], ['master_msg', refCell]]),
  // jetton_change_admin#6501f354 query_id:uint64 new_admin_address:MsgAddress = InternalMsgBody1;
  internal('jetton_change_admin', '6501f354', [qid, ['new_admin_address', addr]]),

  // bounce#ffffffff payload:Cell = InternalMsgBody1;
  internal('bounce', 'ffffffff', [['payload', restCell]]),
  // text_comment#00000000 text:SnakeString = InternalMsgBody1;
  internal('text_comment', '00000000', [['text', snakeText]]),
  // encrypted_text_comment#2167da4b cipher_text:Bytes = InternalMsgBody1;   (_ _:Cell = Bytes)
  internal('encrypted_text_comment', '2167da4b', [['cipher_text', restCell]]),
  // excess#d53276db query_id:uint64 = InternalMsgBody1;
  internal('excess', 'd53276db', [qid]),
  // elector_new_stake#4e73744b query_id:uint64 validator_pubkey:bits256 stake_at:uint32 max_factor:uint32 adnl_addr:bits256 signature:^bits512 = InternalMsgBody1;
  internal('elector_new_stake', '4e73744b', [qid, ['validator_pubkey', bits(256)], ['stake_at', uint(32)], ['max_factor', uint(32)], ['adnl_addr', bits(256)], ['signature', ref(bits(512))]]),
  // elector_new_stake_confirmation#f374484c / elector_recover_stake_request#47657424 / elector_recover_stake_response#f96f7324 query_id:uint64 = InternalMsgBody1;
  internal('elector_new_stake_confirmation', 'f374484c', [qid]),
  internal('elector_recover_stake_request', '47657424', [qid]),
  internal('elector_recover_stake_response', 'f96f7324', [qid]),

  // nft_transfer#5fcc3d14 query_id:uint64 new_owner:MsgAddress response_destination:MsgAddress custom_payload:(Maybe ^Cell)
  //   forward_amount:(VarUInteger 16) forward_payload:(Either Cell ^Cell) = InternalMsgBody2;
  internal('nft_transfer', '5fcc3d14', [qid, ['new_owner', addr], ['response_destination', addr], ['custom_payload', maybeRefCell], ['forward_amount', v16], ['forward_payload', eitherCell]]),
  // nft_ownership_assigned#05138d91 query_id:uint64 prev_owner:MsgAddress forward_payload:(Either Cell ^Cell) = InternalMsgBody2;
  internal('nft_ownership_assigned', '05138d91', [qid, ['prev_owner', addr], ['forward_payload', eitherCell]]),
  // get_static_data#2fcb26a2 query_id:uint64 = InternalMsgBody2;
  internal('get_static_data', '2fcb26a2', [qid]),
  // report_static_data#8b771735 query_id:uint64 index:uint256 collection:MsgAddress = InternalMsgBody2;
  internal('report_static_data', '8b771735', [qid, ['index', uint(256)], ['collection', addr]]),
  // get_royalty_params#693d3950 query_id:uint64 = InternalMsgBody2;
  internal('get_royalty_params', '693d3950', [qid]),
  // report_royalty_params#a8cb00ad query_id:uint64 numerator:uint16 denominator:uint16 destination:MsgAddress = InternalMsgBody2;
  internal('report_royalty_params', 'a8cb00ad', [qid, ['numerator', uint(16)], ['denominator', uint(16)], ['destination', addr]]),

  // change_dns_record#4eb1f0f9 query_id:uint64 key:bits256 value:^DNSRecord = InternalMsgBody0;
  internal('change_dns_record', '4eb1f0f9', [qid, ['key', bits(256)], ['value', ref(DNSRecord)]]),
  // delete_dns_record#4eb1f0f9 query_id:uint64 key:bits256 = InternalMsgBody1;
  internal('delete_dns_record', '4eb1f0f9', [qid, ['key', bits(256)]]),

  // tonstake_pool_deposit#47d54391 query_id:uint64 referral:Cell = InternalMsgBody1;
  internal('tonstake_pool_deposit', '47d54391', [qid, ['referral', restCell]]),
  // tonstake_pool_withdraw#319b0cdc query_id:uint64 jetton_amount:Coins from_address:MsgAddress response_address:MsgAddress = InternalMsgBody1;
  internal('tonstake_pool_withdraw', '319b0cdc', [qid, ['jetton_amount', coins], ['from_address', addr], ['response_address', addr]]),
  // tonstake_pool_withdrawal#0a77535c query_id:uint64 = InternalMsgBody1;
  internal('tonstake_pool_withdrawal', '0a77535c', [qid]),
  // tonstake_payout_mint_jettons#1674b0a0 query_id:uint64 destination:MsgAddress amount:Coins notification:Coins forward:Coins = InternalMsgBody1;
  internal('tonstake_payout_mint_jettons', '1674b0a0', [qid, ['destination', addr], ['amount', coins], ['notification', coins], ['forward', coins]]),

  // dedust_swap_external#61ee542d query_id:uint64 proof:^Cell amount:(VarUInteger 16) sender_addr:MsgAddress current:DedustSwapStepParams
  //   swap_params:^DedustSwapParams = InternalMsgBody0;
  internal('dedust_swap_external', '61ee542d', [qid, ['proof', refCell], ['amount', v16], ['sender_addr', addr], ['current', DedustSwapStepParams], ['swap_params', ref(DedustSwapParams)]]),
  // dedust_swap_peer#72aca8aa query_id:uint64 proof:^Cell asset:DedustAsset amount:(VarUInteger 16) sender_addr:MsgAddress
  //   current:DedustSwapStepParams swap_params:^DedustSwapParams = InternalMsgBody0;
  internal('dedust_swap_peer', '72aca8aa', [qid, ['proof', refCell], ['asset', DedustAsset], ['amount', v16], ['sender_addr', addr], ['current', DedustSwapStepParams],
    ['swap_params', ref(DedustSwapParams)]]),
  // dedust_payout_from_pool#ad4eb6f5 query_id:uint64 proof:^Cell amount:(VarUInteger 16) recipient_addr:MsgAddress payload:(Maybe ^Cell) = InternalMsgBody0;
  internal('dedust_payout_from_pool', 'ad4eb6f5', [qid, ['proof', refCell], ['amount', v16], ['recipient_addr', addr], ['payload', maybeRefCell]]),
  // dedust_payout#474f86cf query_id:uint64 payload:(Maybe ^Cell) = InternalMsgBody0;
  internal('dedust_payout', '474f86cf', [qid, ['payload', maybeRefCell]]),
  // dedust_swap#ea06185d query_id:uint64 amount:Coins step:DedustSwapStep swap_params:^DedustSwapParams = InternalMsgBody0;
  internal('dedust_swap', 'ea06185d', [qid, ['amount', coins], ['step', DedustSwapStep], ['swap_params', ref(DedustSwapParams)]]),
  // dedust_swap_second_opcode#e3a0d482 query_id:uint64 amount:Coins step:DedustSwapStep swap_params:^DedustSwapParams = InternalMsgBody0;
  internal('dedust_swap_second_opcode', 'e3a0d482', [qid, ['amount', coins], ['step', DedustSwapStep], ['swap_params', ref(DedustSwapParams)]]),
  // dedust_deposit_liquidity#d55e4686 query_id:uint64 amount:Coins pool_params:DedustPoolParams deposit_params:^DedustDepositLiquidityParams
  //   fulfill_payload:(Maybe ^Cell) reject_payload:(Maybe ^Cell) = InternalMsgBody0;
  internal('dedust_deposit_liquidity', 'd55e4686', [qid, ['amount', coins], ['pool_params', DedustPoolParams], ['deposit_params', ref(DedustDepositLiquidityParams)],
    ['fulfill_payload', maybeRefCell], ['reject_payload', maybeRefCell]]),
  // dedust_create_vault#21cfe02b query_id:uint64 asset:DedustAsset = InternalMsgBody0;
  internal('dedust_create_vault', '21cfe02b', [qid, ['asset', DedustAsset]]),

  // stonfi_swap#25938561 query_id:uint64 to_address:MsgAddress sender_address:MsgAddress jetton_amount:(VarUInteger 16) min_out:(VarUInteger 16)
  //   has_ref_address:Bool addrs:^StonfiSwapAddrs = InternalMsgBody2;
  internal('stonfi_swap', '25938561', [qid, ['to_address', addr], ['sender_address', addr], ['jetton_amount', v16], ['min_out', v16], ['has_ref_address', bool], ['addrs', ref(StonfiSwapAddrs)]]),
  // stonfi_payment_request#f93bb43f query_id:uint64 owner:MsgAddress exit_code:uint32 params:(Either StonfiPayToParams ^StonfiPayToParams) = InternalMsgBody3;
  internal('stonfi_payment_request', 'f93bb43f', [qid, ['owner', addr], ['exit_code', uint(32)], ['params', either(StonfiPayToParams)]]),
  // pton_ton_transfer#01f3835d query_id:uint64 ton_amount:Coins refund_address:MsgAddress forward_payload:(Either Cell ^Cell) = InternalMsgBody3;
  internal('pton_ton_transfer', '01f3835d', [qid, ['ton_amount', coins], ['refund_address', addr], ['forward_payload', eitherCell]]),
  // stonfi_provide_lp_v2#37c096df query_id:uint64 from_user:MsgAddress left_amount:(VarUInteger 16) right_amount:(VarUInteger 16) _:^DexPayloadProvideLpV2 = InternalMsgBody3;
  internal('stonfi_provide_lp_v2', '37c096df', [qid, ['from_user', addr], ['left_amount', v16], ['right_amount', v16], ['', ref(DexPayloadProvideLpV2)]]),
  // stonfi_pay_to_v2#657b54f5 query_id:uint64 to_address:MsgAddress excesses_address:MsgAddress original_caller:MsgAddress exit_code:uint32
  //   custom_payload:(Maybe ^Cell) _:^AdditionalInfoPayToV2 = InternalMsgBody3;
  internal('stonfi_pay_to_v2', '657b54f5', [qid, ['to_address', addr], ['excesses_address', addr], ['original_caller', addr], ['exit_code', uint(32)],
    ['custom_payload', maybeRefCell], ['', ref(AdditionalInfoPayToV2)]]),
  // stonfi_swap_v2#6664de2a query_id:uint64 from_user:MsgAddress left_amount:(VarUInteger 16) right_amount:(VarUInteger 16) _:^DexPayload = InternalMsgBody3;
  internal('stonfi_swap_v2', '6664de2a', [qid, ['from_user', addr], ['left_amount', v16], ['right_amount', v16], ['', ref(DexPayload)]]),
  // stonfi_pay_vault_v2#63381632 query_id:uint64 owner:MsgAddress excesses_address:MsgAddress _:^AdditionalInfoPayVaultV2 = InternalMsgBody3;
  internal('stonfi_pay_vault_v2', '63381632', [qid, ['owner', addr], ['excesses_address', addr], ['', ref(AdditionalInfoPayVaultV2)]]),

  // mulisig_new_order#f718510f query_id:uint64 order_seqno:uint256 signer:Bool index:uint8 expiration_date:uint48 order:^MultisigOrder = InternalMsgBody2;
  internal('mulisig_new_order', 'f718510f', [qid, ['order_seqno', uint(256)], ['signer', bool], ['index', uint(8)], ['expiration_date', uint(48)], ['order', refCell]]),
  // multisig_execute#75097f5d query_id:uint64 order_seqno:uint256 expiration_date:uint48 approvals_num:uint8 signers_hash:bits256 order:^MultisigOrder = InternalMsgBody2;
  internal('multisig_execute', '75097f5d', [qid, ['order_seqno', uint(256)], ['expiration_date', uint(48)], ['approvals_num', uint(8)], ['signers_hash', bits(256)], ['order', refCell]]),
  // multisig_approve#a762230f query_id:uint64 signer_index:uint8 = InternalMsgBody2;
  internal('multisig_approve', 'a762230f', [qid, ['signer_index', uint(8)]]),
  // multisig_approve_accepted#82609bf6 query_id:uint64 = InternalMsgBody2;
  internal('multisig_approve_accepted', '82609bf6', [qid]),
  // multisig_approve_rejected#afaf283e query_id:uint64 exit_code:uint32 = InternalMsgBody2;
  internal('multisig_approve_rejected', 'afaf283e', [qid, ['exit_code', uint(32)]]),

  // subscription_payment#73756273 = InternalMsgBody4;
  internal('subscription_payment', '73756273', []),
  // wallet_plugin_destruct#64737472 query_id:uint64 = InternalMsgBody5;
  internal('wallet_plugin_destruct', '64737472', [qid]),
  // wallet_plugin_destruct_response#e4737472 query_id:uint64 = InternalMsgBody5;
  internal('wallet_plugin_destruct_response', 'e4737472', [qid]),
  // payment_request#706c7567 query_id:uint64 amount:CurrencyCollection = InternalMsgBody5;
  internal('payment_request', '706c7567', [qid, ['amount', currencies]]),
  // payment_confirmed#f06c7567 query_id:uint64 = InternalMsgBody5;
  internal('payment_confirmed', 'f06c7567', [qid]),

  // ---- ForwardPayload only
  // dedust_swap_forward_payload#e3a0d482 step:DedustSwapStep swap_params:^DedustSwapParams = ForwardPayload;
  forward('dedust_swap_forward_payload', 'e3a0d482', [['step', DedustSwapStep], ['swap_params', ref(DedustSwapParams)]]),
  // dedust_deposit_liquidity_forward_payload#40e108d6 pool_params:DedustPoolParams min_lp_amount:Coins asset0_target_balance:Coins
  //   asset1_target_balance:Coins fulfill_payload:(Maybe ^Cell) reject_payload:(Maybe ^Cell) = ForwardPayload;
  forward('dedust_deposit_liquidity_forward_payload', '40e108d6', [['pool_params', DedustPoolParams], ['min_lp_amount', coins], ['asset0_target_balance', coins],
    ['asset1_target_balance', coins], ['fulfill_payload', maybeRefCell], ['reject_payload', maybeRefCell]]),
  // stonfi_swap_forward_payload#25938561 token_wallet:MsgAddress min_out:(VarUInteger 16) to_address:MsgAddress referral_address:(Maybe MsgAddress) = ForwardPayload;
  forward('stonfi_swap_forward_payload', '25938561', [['token_wallet', addr], ['min_out', v16], ['to_address', addr], ['referral_address', maybe(addr)]]),
  // stonfi_provide_liquidity_forward_payload#fcf9e58f token_wallet:MsgAddress min_lp_out:(VarUInteger 16) = ForwardPayload;
  forward('stonfi_provide_liquidity_forward_payload', 'fcf9e58f', [['token_wallet', addr], ['min_lp_out', v16]]),
  // stonfi_swap_v2_forward_payload#6664de2a token_wallet1:MsgAddress refund_address:MsgAddress excesses_address:MsgAddress tx_deadline:uint64 _:^CrossSwapBody = ForwardPayload;
  forward('stonfi_swap_v2_forward_payload', '6664de2a', [['token_wallet1', addr], ['refund_address', addr], ['excesses_address', addr], ['tx_deadline', uint(64)], ['', ref(CrossSwapBody)]]),
  // stonfi_provide_lp_v2_forward_payload#37c096df token_wallet1:MsgAddress refund_address:MsgAddress excesses_address:MsgAddress tx_deadline:uint64 _:^CrossProvideLpBody = ForwardPayload;
  forward('stonfi_provide_lp_v2_forward_payload', '37c096df', [['token_wallet1', addr], ['refund_address', addr], ['excesses_address', addr], ['tx_deadline', uint(64)], ['', ref(CrossProvideLpBody)]]),
  // encrypted_text_comment_forward_payload#2167da4b cipher_text:Bytes = ForwardPayload;  (never reached: the internal one always parses)
];
