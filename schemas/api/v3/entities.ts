/**
 * API v3 response shapes (toncenter reference §3, §10) as zod schemas: they generate the OpenAPI
 * document and the tests validate every response body against them. 64-bit values are strings.
 */
import { z } from 'zod';

const s = z.string();
const ns = z.string().nullable();
const n = z.number();
const nn = z.number().nullable();
const b = z.boolean();
const nb = z.boolean().nullable();
const u64 = z.string().regex(/^\d+$/);
const hash = z.string().regex(/^[A-Za-z0-9+/]{43}=$/);
const nhash = hash.nullable();
const raw = z.string().regex(/^-?\d+:[0-9A-F]{64}$/);
const shard = z.string().regex(/^[0-9A-F]{16}$/);
const extraCurrencies = z.record(z.string(), u64);

export const AddressBookRow = z.object({ user_friendly: ns, domain: ns, interfaces: z.array(s) });
export const AddressBook = z.record(z.string(), AddressBookRow);
export const TokenInfo = z.object({
  valid: b.optional(),
  type: z.enum(['jetton_masters', 'jetton_wallets', 'nft_items', 'nft_collections']),
  name: s.optional(),
  symbol: s.optional(),
  description: s.optional(),
  image: s.optional(),
  nft_index: s.optional(),
  is_nsfw: b.optional(),
  is_scam: b.optional(),
  extra: z.record(z.string(), z.unknown()).optional(),
});
export const Metadata = z.record(z.string(), z.object({ is_indexed: b, token_info: z.array(TokenInfo) }));

export const BlockRef = z.object({ workchain: n, shard, seqno: n });
export const Block = z.object({
  workchain: n, shard, seqno: n, root_hash: hash, file_hash: hash, global_id: n, version: n,
  after_merge: b, before_split: b, after_split: b, want_merge: b, want_split: b, key_block: b, vert_seqno_incr: b,
  flags: n, gen_utime: u64, start_lt: u64, end_lt: u64, validator_list_hash_short: n, gen_catchain_seqno: n,
  min_ref_mc_seqno: n, prev_key_block_seqno: n, vert_seqno: n, master_ref_seqno: n, rand_seed: hash, created_by: hash,
  tx_count: n, masterchain_block_ref: BlockRef, prev_blocks: z.array(BlockRef),
});
export const BlocksResponse = z.object({ blocks: z.array(Block) });
export const MasterchainInfo = z.object({ first: Block, last: Block });
export const IndexStatus = z.object({
  first_mc_seqno: nn,
  last_mc_seqno: nn,
  indexed_mc_blocks: n,
  gaps: n,
  first_gaps: z.array(z.object({ from: n, to: n })),
  last_utime: nn,
  lag_seconds: nn,
  checkpoint_mc_seqno: nn,
  network_mc_seqno: nn,
  lag_blocks: nn,
  requested_from_mc_seqno: nn,
  stalled: z.object({ mc_seqno: n, reason: z.string(), since: n }).nullable(),
});

export const MessageContent = z.object({ hash: nhash, body: ns, decoded: z.record(z.string(), z.unknown()).nullable() });
export const Message = z.object({
  hash, source: ns, destination: ns, value: u64.nullable(), value_extra_currencies: extraCurrencies.nullable(),
  fwd_fee: u64.nullable(), ihr_fee: u64.nullable(), extra_flags: u64.nullable(), created_lt: u64.nullable(), created_at: u64.nullable(),
  opcode: z.string().regex(/^0x[0-9a-f]{8}$/).nullable(), decoded_opcode: ns, ihr_disabled: nb, bounce: nb, bounced: nb,
  import_fee: u64.nullable(), in_msg_tx_hash: hash.optional(), out_msg_tx_hash: hash.optional(),
  message_content: MessageContent.nullable(), init_state: MessageContent.nullable(), hash_norm: hash.optional(),
});
export const AccountState = z.object({
  hash: nhash, balance: u64.nullable(), extra_currencies: extraCurrencies.nullable(), account_status: ns,
  frozen_hash: nhash, data_hash: nhash, code_hash: nhash,
});
const Phase = z.record(z.string(), z.unknown());
export const TransactionDescr = z.object({
  type: z.enum(['ord', 'storage', 'tick_tock', 'split_prepare', 'split_install', 'merge_prepare', 'merge_install']),
  aborted: b.optional(), destroyed: b.optional(), credit_first: b.optional(), is_tock: b.optional(), installed: b.optional(),
  storage_ph: Phase.optional(), credit_ph: Phase.optional(), compute_ph: Phase.optional(), action: Phase.optional(),
  bounce: Phase.optional(), split_info: Phase.optional(),
});
export const Transaction = z.object({
  account: raw, hash, lt: u64, now: n, mc_block_seqno: n, trace_id: hash.optional(), trace_external_hash: hash.optional(),
  prev_trans_hash: hash, prev_trans_lt: u64, orig_status: s, end_status: s, total_fees: u64,
  total_fees_extra_currencies: extraCurrencies, description: TransactionDescr, block_ref: BlockRef,
  in_msg: Message.nullable(), out_msgs: z.array(Message), account_state_before: AccountState, account_state_after: AccountState,
  emulated: b, finality: z.enum(['pending', 'confirmed', 'finalized']),
});
export const TransactionsResponse = z.object({ transactions: z.array(Transaction), address_book: AddressBook });
export const MessagesResponse = z.object({ messages: z.array(Message), address_book: AddressBook, metadata: Metadata });

export const AccountStateFull = z.object({
  address: raw, account_state_hash: hash, balance: u64, extra_currencies: extraCurrencies, status: s,
  frozen_hash: hash.optional(), last_transaction_hash: hash, last_transaction_lt: u64, data_hash: hash.optional(),
  code_hash: hash.optional(), data_boc: s.optional(), code_boc: s.optional(), contract_methods: z.array(n).nullable(), interfaces: z.array(s),
});
export const AccountStatesResponse = z.object({ accounts: z.array(AccountStateFull), address_book: AddressBook, metadata: Metadata });
export const WalletState = z.object({
  address: raw, is_wallet: b, wallet_type: s.optional(), seqno: n.optional(), wallet_id: n.optional(), balance: u64.optional(),
  extra_currencies: extraCurrencies.optional(), is_signature_allowed: b.optional(), status: s.optional(), code_hash: hash.optional(),
  last_transaction_hash: hash.nullable(), last_transaction_lt: u64.nullable(),
});
export const WalletStatesResponse = z.object({ wallets: z.array(WalletState), address_book: AddressBook, metadata: Metadata });
export const TopAccounts = z.array(z.object({ account: raw, balance: u64 }));

export const JettonMaster = z.object({
  address: raw, total_supply: u64, mintable: b, admin_address: ns, jetton_content: z.record(z.string(), z.unknown()),
  jetton_wallet_code_hash: hash, code_hash: hash, data_hash: hash, last_transaction_lt: u64,
});
export const JettonWallet = z.object({
  address: raw, balance: u64, owner: s, jetton: s, last_transaction_lt: u64, code_hash: nhash, data_hash: nhash,
  mintless_info: z.object({ amount: u64, start_from: n, expire_at: n, custom_payload_api_uri: z.array(s) }).optional(),
});
export const JettonTransfer = z.object({
  query_id: u64, source: s, destination: s, amount: u64, source_wallet: s, jetton_master: s, transaction_hash: hash,
  transaction_lt: u64, transaction_now: n, transaction_aborted: b, response_destination: ns, custom_payload: ns,
  decoded_custom_payload: z.unknown().nullable(), forward_ton_amount: u64.nullable(), forward_payload: ns,
  decoded_forward_payload: z.unknown().nullable(), trace_id: nhash,
});
export const JettonBurn = z.object({
  query_id: u64, owner: s, jetton_wallet: s, jetton_master: s, transaction_hash: hash, transaction_lt: u64, transaction_now: n,
  transaction_aborted: b, amount: u64, response_destination: ns, custom_payload: ns, decoded_custom_payload: z.unknown().nullable(), trace_id: nhash,
});
export const NFTCollection = z.object({
  address: raw, owner_address: ns, last_transaction_lt: u64, next_item_index: u64, collection_content: z.record(z.string(), z.unknown()),
  data_hash: hash, code_hash: hash,
});
export const NFTItem = z.object({
  address: raw, init: b, index: u64, collection_address: ns, owner_address: ns, content: z.record(z.string(), z.unknown()),
  last_transaction_lt: u64, code_hash: hash, data_hash: hash, collection: NFTCollection.nullable(), on_sale: b,
  sale_contract_address: s.optional(), auction_contract_address: s.optional(), real_owner: s.optional(),
});
export const NFTTransfer = z.object({
  query_id: u64, nft_address: s, nft_collection: ns, transaction_hash: hash, transaction_lt: u64, transaction_now: n,
  transaction_aborted: b, old_owner: s, new_owner: s, response_destination: ns, custom_payload: ns, decoded_custom_payload: z.unknown().nullable(),
  forward_amount: u64.nullable(), forward_payload: ns, decoded_forward_payload: z.unknown().nullable(), trace_id: nhash,
});
export const DNSRecord = z.object({
  nft_item_address: s, nft_item_owner: ns, domain: s, dns_next_resolver: ns, dns_wallet: ns, dns_site_adnl: ns, dns_storage_bag_id: ns,
});
export const DNSAuction = z.object({
  nft_item_address: s, domain: s, max_bid_address: ns, max_bid_amount: ns, auction_end_time: ns, last_fill_up_time: ns, finished: b,
  nft_item: NFTItem.optional(),
});
export const DNSAuctionsResponse = z.object({
  auctions: z.array(DNSAuction), address_book: AddressBook, metadata: Metadata, next_cursor: s.optional(),
});
export const ValidatorEvent = z.object({
  tx_hash: hash, tx_lt: u64, utime: n, type: s, stake_holder_address: s, validator_pubkey: s.optional(), adnl_addr: s.optional(), election_id: n.optional(),
  query_id: s.optional(), amount: s, reason: n.optional(),
});
export const ValidatorEventsResponse = z.object({ start_utime: n.optional(), end_utime: n.optional(), events: z.array(ValidatorEvent), address_book: AddressBook });
export const ValidatorComplaintVote = z.object({ validator_index: n, validator_pubkey: s.optional(), adnl_addr: s.optional(), weight: s.optional() });
export const ValidatorComplaint = z.object({
  cycle_start: n, election_id: n, complaint_hash: s, validator_pubkey: s, adnl_addr: s.nullable(), stake_holder_address: s.optional(), description_boc: s,
  created_at: n, severity: n, reward_address: s, paid: s, suggested_fine: s, suggested_fine_part: n, voted_validators: z.array(ValidatorComplaintVote),
  vset_id: s, weight_remaining: s, approved_percent: n, is_passed: b,
});
export const ValidatorComplaintsResponse = z.object({ complaints: z.array(ValidatorComplaint), address_book: AddressBook });
export const ValidatorElectionParticipant = z.object({
  validator_pubkey: s, validator_index: n.optional(), stake: s, max_factor: n, stake_holder_address: s, adnl_addr: s,
});
export const ValidatorElection = z.object({
  election_id: n, elect_close: n, min_stake: s, total_stake: s, total_participants: n, failed: b, finished: b, participants: z.array(ValidatorElectionParticipant).optional(),
});
export const ValidatorElectionsResponse = z.object({ elections: z.array(ValidatorElection), address_book: AddressBook });
export const ValidatorCycleValidator = z.object({
  validator_index: n, validator_pubkey: s, adnl_addr: s, weight: s, stake_holder_address: s.optional(), stake: s.optional(), max_factor: n.optional(),
  complaints: z.array(ValidatorComplaint),
});
export const ValidatorCycle = z.object({
  election_id: n.optional(), cycle_start: n, cycle_end: n, total: n, main: n, total_weight: s, total_stake: s.optional(), validators_elected_for: n,
  elections_start_before: n, elections_end_before: n, stake_held_for: n, max_validators: n, max_main_validators: n, min_validators: n, min_stake: s.optional(),
  max_stake: s.optional(), min_stake_limit: s, max_stake_limit: s, min_total_stake: s, max_stake_factor: n, validators: z.array(ValidatorCycleValidator).optional(),
});
export const ValidatorCyclesResponse = z.object({ cycles: z.array(ValidatorCycle), address_book: AddressBook });
export const NFTSale = z.object({
  type: z.enum(['getgems_sale', 'getgems_auction', 'telemint']), address: raw, nft_address: raw.optional(), nft_owner_address: raw.optional(),
  marketplace_address: raw.optional(), created_at: n.optional(), last_transaction_lt: u64.optional(), code_hash: hash.optional(),
  data_hash: hash.optional(), details: z.record(z.string(), z.unknown()), nft_item: NFTItem.optional(),
});
/** One action of a multisig order (`parse_actions=true`): a message to send, or new multisig parameters. */
export const OrderAction = z.object({
  destination: ns, value: u64.nullable(), body_raw: ns, parsed: b, error: ns, parsed_body: z.record(z.string(), z.unknown()).nullable(),
  parsed_body_type: s, send_mode: n,
});
export const MultisigOrder = z.object({
  address: s, multisig_address: s, order_seqno: u64.nullable(), threshold: nn, sent_for_execution: nb, approvals_mask: u64.nullable(),
  approvals_num: nn, expiration_date: nn, order_boc: ns, signers: z.array(s), last_transaction_lt: u64, code_hash: hash, data_hash: hash,
  actions: z.array(OrderAction),
});
export const Multisig = z.object({
  address: s, next_order_seqno: u64.nullable(), threshold: nn, signers: z.array(s), proposers: z.array(s), last_transaction_lt: u64,
  code_hash: hash, data_hash: hash, orders: z.array(MultisigOrder).nullable(),
});
export const VestingInfo = z.object({
  address: s, start_time: n, total_duration: n, unlock_period: n, cliff_duration: n, sender_address: s, owner_address: s,
  total_amount: u64, whitelist: z.array(s),
});

export const Action = z.object({
  trace_id: nhash, action_id: hash, start_lt: u64, end_lt: u64, start_utime: n, end_utime: n, trace_end_lt: u64, trace_end_utime: n,
  trace_mc_seqno_end: n, transactions: z.array(hash), success: nb, type: s, details: z.record(z.string(), z.unknown()),
  trace_external_hash: hash.optional(), trace_external_hash_norm: hash.optional(), accounts: z.array(s).optional(),
  transactions_full: z.array(Transaction).optional(), finality: z.enum(['pending', 'confirmed', 'finalized']),
});
export const TraceNode: z.ZodType<{ tx_hash: string; in_msg_hash: string | null; children: unknown[] }> = z.lazy(() =>
  z.object({ tx_hash: hash, in_msg_hash: nhash, children: z.array(TraceNode) }),
);
export const Trace = z.object({
  trace_id: nhash, external_hash: nhash, mc_seqno_start: u64, mc_seqno_end: u64, start_lt: u64, start_utime: n, end_lt: u64.nullable(),
  end_utime: nn, trace_info: z.object({ trace_state: s, messages: n, transactions: n, pending_messages: n, classification_state: s }),
  is_incomplete: b, warning: s.optional(), actions: z.array(Action).optional(), trace: TraceNode.optional(),
  transactions_order: z.array(hash).optional(), transactions: z.record(z.string(), Transaction).optional(),
});
export const TracesResponse = z.object({ traces: z.array(Trace), address_book: AddressBook, metadata: Metadata });
export const ActionsResponse = z.object({
  actions: z.array(Action),
  address_book: AddressBook,
  metadata: Metadata,
  next_cursor: z.string().optional().describe('when the page is full: pass as cursor for the rows after it'),
});

export const ErrorResponse = z.object({ code: n, error: s });
