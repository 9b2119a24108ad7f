/**
 * The streaming API's feed (`ton.notifications`, src/feed): what the traces stage and the checkpoint publish for
 * the API processes that push notifications to subscribers (src/api/streaming). One key ("mc") keeps the messages in
 * masterchain order. Rows are in the store's JSON form (64-bit values as decimal strings, hashes lower-case hex,
 * addresses raw upper-case), so the API renders them with the same functions as rows read from ClickHouse.
 */
import { z } from 'zod';

const hex256 = z.string().regex(/^[0-9a-f]{64}$/, 'expected 64 lower-case hex digits');
const row = z.record(z.string(), z.unknown());

/**
 * One trace the seqno added transactions to: what its transactions notifications render from, and, once the seqno
 * completes it, its actions and trace notifications. (`complete` and `earlier` default to a publisher from before
 * they existed, which published completed traces alone, every transaction in `docs`.)
 */
export const feedTraceSchema = z.object({
  /** the `traces` row (api-v3 trace_info and bounds) */
  trace: row,
  /** trace_external_hash_norm (hex): the normalized hash of the root's external message, else its in-message hash, else the trace id */
  norm: hex256,
  /** transaction_docs_kv documents (src/decode/docs.ts) of the trace's transactions in this seqno */
  docs: z.array(z.string()),
  /** the accounts of those transactions (raw): who subscribed is known without parsing the documents */
  accounts: z.array(z.string()),
  /** whether this seqno completed the trace (no message of it in flight any more) */
  complete: z.boolean().default(true),
  /** a completed trace's documents of the seqnos before (its trace notification is whole); [] otherwise */
  earlier: z.array(z.string()).default([]),
  /** a completed trace's `actions` rows, each with the accounts it involves (`action_accounts`); [] otherwise */
  actions: z.array(z.object({ row, accounts: z.array(z.string()) })),
});
export type FeedTrace = z.infer<typeof feedTraceSchema>;

/**
 * What one masterchain seqno changed, published once the traces stage has processed it (blocks fetched and verified,
 * traces assembled and classified) and before its rows are written: the `confirmed` level. Large seqnos come in parts
 * (`part` 0.., `last` on the final one); account states and jetton wallets ride on the last part.
 */
export const feedSeqnoSchema = z.object({
  kind: z.literal('seqno'),
  mc_seqno: z.number().int().nonnegative(),
  part: z.number().int().nonnegative(),
  last: z.boolean(),
  /** ms since the epoch when it was published (latency measurements) */
  at: z.number(),
  traces: z.array(feedTraceSchema),
  /** account states at the end of the seqno, one per account that had a transaction (account_states rows) */
  accounts: z.array(row),
  /** jetton wallets whose state the seqno changed (jetton_wallets rows) */
  jetton_wallets: z.array(row),
});
export type FeedSeqno = z.infer<typeof feedSeqnoSchema>;

/** The checkpoint passed `mc_seqno`: every row of it and of the seqnos before is in the store (the `finalized` level). */
export const feedFinalizedSchema = z.object({
  kind: z.literal('finalized'),
  mc_seqno: z.number().int().nonnegative(),
  at: z.number(),
});
export type FeedFinalized = z.infer<typeof feedFinalizedSchema>;

export const feedEventSchema = z.discriminatedUnion('kind', [feedSeqnoSchema, feedFinalizedSchema]);
export type FeedEvent = z.infer<typeof feedEventSchema>;
