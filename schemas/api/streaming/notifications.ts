/**
 * Streaming API v2 (toncenter's protocol): the subscription request and what the server sends, as zod schemas over
 * API v3's entity schemas (a notification's transactions, actions, trace and jetton wallet are API v3's objects).
 * `mc_seqno` is this gateway's: the masterchain seqno whose processing (confirmed) / checkpoint (finalized) sent it.
 */
import { z } from 'zod';
import * as V3 from '../v3/entities.ts';

const finality = z.enum(['confirmed', 'finalized']);
const hash = z.string();
const strings = z.array(z.string());

export const SubscribeRequest = z
  .object({
    id: z.string().optional(),
    operation: z.literal('subscribe').optional(),
    types: z.array(z.enum(['transactions', 'actions', 'trace', 'trace_invalidated', 'account_state_change', 'jettons_change'])).min(1),
    addresses: strings.optional(),
    trace_external_hash_norms: strings.optional(),
    min_finality: z.enum(['pending', 'confirmed', 'finalized']).optional(),
    include_address_book: z.boolean().optional(),
    include_metadata: z.boolean().optional(),
    action_types: strings.optional(),
    supported_action_types: strings.optional(),
  })
  .strict();

/** WebSocket answers (and the SSE `connected` frame): `{id?, status}` or `{id?, error}`. */
export const StatusResponse = z.object({ id: z.string().optional(), status: z.enum(['subscribed', 'unsubscribed', 'pong']) }).strict();
export const ErrorResponse = z.object({ id: z.string().optional(), error: z.string() }).strict();

const book = { address_book: V3.AddressBook.optional(), metadata: V3.Metadata.optional() };
const traceHead = { finality, trace_external_hash_norm: hash, mc_seqno: z.number().int() };

export const TransactionsNotification = z.object({ type: z.literal('transactions'), ...traceHead, transactions: z.array(V3.Transaction).min(1), ...book }).strict();
export const ActionsNotification = z.object({ type: z.literal('actions'), ...traceHead, actions: z.array(V3.Action).min(1), ...book }).strict();
/** toncenter's trace notification (trace, transactions, actions) over the whole trace as /api/v3/traces renders it. */
export const TraceNotification = V3.Trace.extend({ type: z.literal('trace'), ...traceHead, ...book }).strict();
export const AccountStateNotification = z.object({ type: z.literal('account_state_change'), finality, account: z.string(), state: V3.AccountState, mc_seqno: z.number().int() }).strict();
export const JettonsNotification = z.object({ type: z.literal('jettons_change'), finality, jetton: V3.JettonWallet, mc_seqno: z.number().int(), ...book }).strict();

export const Notification = z.discriminatedUnion('type', [TransactionsNotification, ActionsNotification, TraceNotification, AccountStateNotification, JettonsNotification]);
export type Notification = z.infer<typeof Notification>;
