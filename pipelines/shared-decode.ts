/**
 * One decode per block per process. The decode and traces stages both read ton.blocks.raw; in one process (the
 * embedded default) the second to ask for a block gets the first one's result instead of decoding it again.
 * Consumers only read decoded blocks. With Kafka the stages run in separate processes and each decodes its own.
 */
import type { RawBlockMessage } from '../schemas/bus/index.ts';
import { decodeBlock, type DecodedBlock } from '../src/ton/index.ts';

/** Blocks decoded by one stage and not yet taken by the other; bounded so a stage that never asks costs nothing. */
const waiting = new Map<string, DecodedBlock>();
const MAX_WAITING = 256;

export interface SharedDecodeStats {
  decoded: number;
  shared: number;
}

export const sharedDecodeStats: SharedDecodeStats = { decoded: 0, shared: 0 };

/**
 * The decoded block of a raw block message. `consumers` is how many stages of this process decode the block (2
 * when the traces stage runs beside decode): the result is kept for the others and handed out once to each.
 */
export function decodeShared(msg: RawBlockMessage, consumers: number): DecodedBlock {
  const key = `${msg.id.workchain}:${msg.id.shard}:${msg.id.seqno}:${msg.id.root_hash}`;
  const hit = waiting.get(key);
  if (hit) {
    waiting.delete(key);
    sharedDecodeStats.shared++;
    return hit;
  }
  const block = decodeBlock(Buffer.from(msg.boc, 'base64'));
  sharedDecodeStats.decoded++;
  if (consumers > 1) {
    if (waiting.size >= MAX_WAITING) waiting.delete(waiting.keys().next().value!);
    waiting.set(key, block);
  }
  return block;
}
