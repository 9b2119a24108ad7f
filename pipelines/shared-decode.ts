/**
 * One decode per block per process. The decode and traces stages both read ton.blocks.raw; in one process (the
 * embedded default) the second to ask for a block gets the first one's result instead of decoding it again.
 * Consumers only read decoded blocks. With Kafka the stages run in separate processes and each decodes its own.
 *
 * Ingest in the same process hands over the BoCs it parsed to verify them (`shareParsed`): hashing every cell is
 * most of a decode, and verifying a block's root hash already did it. Keyed by the block id with its root and file
 * hashes, so the cells are those of the very bytes on the bus.
 */
import type { BlockIdJson, RawBlockMessage } from '../schemas/bus/index.ts';
import { decodeBlock, type Cells, type DecodedBlock } from '../src/ton/index.ts';
import { BoundedMap } from '../src/util/index.ts';

/** Blocks decoded by one stage and not yet taken by the other; bounded so a stage that never asks costs nothing. */
// 512: above the in-process bus capacity, the lead of one decoding stage over the other
const waiting = new BoundedMap<string, DecodedBlock>(512);

export interface SharedDecodeStats {
  decoded: number;
  shared: number;
  /** decodes that reused ingest's parse */
  parsedReused: number;
}

export const sharedDecodeStats: SharedDecodeStats = { decoded: 0, shared: 0, parsedReused: 0 };

/** Parsed BoCs from ingest not yet decoded; bounded by count and bytes (a miss only parses again). */
const parsed = new Map<string, Cells>();
let parsedBytes = 0;
const MAX_PARSED = 256;
const MAX_PARSED_BYTES = 64 << 20;

const keyOf = (id: BlockIdJson) => `${id.workchain}:${id.shard}:${id.seqno}:${id.root_hash}:${id.file_hash}`;

/** Offers the verified parse of a block about to be published, for a decoder of this process. */
export function shareParsed(id: BlockIdJson, cells: Cells): void {
  const key = keyOf(id);
  if (parsed.has(key) || cells.buf.length > MAX_PARSED_BYTES) return;
  parsed.set(key, cells);
  parsedBytes += cells.buf.length;
  while (parsed.size > MAX_PARSED || parsedBytes > MAX_PARSED_BYTES) takeParsed(parsed.keys().next().value!);
}

function takeParsed(key: string): Cells | undefined {
  const cells = parsed.get(key);
  if (cells) {
    parsed.delete(key);
    parsedBytes -= cells.buf.length;
  }
  return cells;
}

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
  const cells = takeParsed(keyOf(msg.id));
  const block = cells ? decodeBlock(cells.buf, cells) : decodeBlock(Buffer.from(msg.boc, 'base64'));
  sharedDecodeStats.decoded++;
  if (cells) sharedDecodeStats.parsedReused++;
  if (consumers > 1) waiting.set(key, block);
  return block;
}
