/**
 * Messages between pipeline stages. JSON-compatible: 64-bit numbers (lt, shard ids) as strings, shard as 16
 * upper-case hex digits (as API v3 renders it), hashes as lower-case hex, BoCs as base64.
 */
import { z } from 'zod';

export const TOPICS = {
  /** ingest -> decode: one raw, verified block (keyed by workchain:shard). */
  rawBlocks: 'ton.blocks.raw',
  /** decode -> store: a block's rows (keyed by workchain:shard). */
  decodedBlocks: 'ton.blocks.decoded',
  /** ingest -> checkpoint: every block of a masterchain seqno has been published (keyed "mc"). */
  mcComplete: 'ton.mc.complete',
  /** traces stage + checkpoint -> streaming API: what each seqno changed, then its finality (keyed "mc"; notifications.ts). */
  notifications: 'ton.notifications',
} as const;

const hex256 = z.string().regex(/^[0-9a-f]{64}$/, 'expected 64 lower-case hex digits');
const shardHex = z.string().regex(/^[0-9A-F]{16}$/, 'expected 16 upper-case hex digits');

export const blockIdSchema = z.object({
  workchain: z.number().int(),
  shard: shardHex,
  seqno: z.number().int().nonnegative(),
  root_hash: hex256,
  file_hash: hex256,
});
export type BlockIdJson = z.infer<typeof blockIdSchema>;

export const rawBlockMessageSchema = z.object({
  /** Masterchain seqno that commits this block (its own seqno for masterchain blocks). */
  mc_seqno: z.number().int().nonnegative(),
  id: blockIdSchema,
  /** The block BoC exactly as the liteserver served it (sha256 = file_hash). */
  boc: z.string().min(1),
});
export type RawBlockMessage = z.infer<typeof rawBlockMessageSchema>;

export const mcCompleteMessageSchema = z.object({
  mc_seqno: z.number().int().nonnegative(),
  mc_id: blockIdSchema,
  /** Every block committed by this masterchain block, itself included. */
  blocks: z.array(blockIdSchema).min(1),
  tx_count: z.number().int().nonnegative().optional(),
});
export type McCompleteMessage = z.infer<typeof mcCompleteMessageSchema>;

export const decodedBlockMessageSchema = z.object({
  mc_seqno: z.number().int().nonnegative(),
  id: blockIdSchema,
  /** Rows per store table, in the store writer's JSON form (bigints as decimal strings). */
  rows: z.record(z.string(), z.array(z.record(z.string(), z.unknown()))),
});
export type DecodedBlockMessage = z.infer<typeof decodedBlockMessageSchema>;

export * from './notifications.ts';
