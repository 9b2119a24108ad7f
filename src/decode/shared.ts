/**
 * One decode per block per process. The decode and traces stages both read ton.blocks.raw; in one process (the
 * embedded default) the second to ask for a block gets the first one's result instead of decoding it again.
 * Consumers only read decoded blocks. With Kafka the stages run in separate processes and each decodes its own.
 *
 * Ingest in the same process hands over the BoCs it parsed to verify them (`shareParsed`): hashing every cell is
 * most of a decode, and verifying a block's root hash already did it. Keyed by the block id with its root and file
 * hashes, so the cells are those of the very bytes on the bus.
 *
 * The pipeline makes one per process (pipelines/index.ts `runIndexer`) and hands it to ingest and to both stages.
 */
import type { BlockIdJson, RawBlockMessage } from '../../schemas/bus/index.ts';
import { decodeBlock, type Cells, type DecodedBlock } from '../ton/index.ts';
import { BoundedMap } from '../util/index.ts';

export interface SharedDecodeStats {
  decoded: number;
  shared: number;
  /** decodes that reused ingest's parse */
  parsedReused: number;
}

/** Parsed BoCs from ingest not yet decoded; bounded by count and bytes (a miss only parses again). */
const MAX_PARSED = 256;
const MAX_PARSED_BYTES = 64 << 20;

const keyOf = (id: BlockIdJson) => `${id.workchain}:${id.shard}:${id.seqno}:${id.root_hash}:${id.file_hash}`;

export class SharedDecode {
  readonly stats: SharedDecodeStats = { decoded: 0, shared: 0, parsedReused: 0 };
  /** Blocks decoded by one stage and not yet taken by the other; bounded so a stage that never asks costs nothing. */
  // 512: above the in-process bus capacity, the lead of one decoding stage over the other
  private readonly waiting = new BoundedMap<string, DecodedBlock>(512);
  private readonly parsed = new Map<string, Cells>();
  private parsedBytes = 0;

  /**
   * `consumers`: how many stages of this process decode each raw block (2 when the traces stage runs beside decode):
   * a result is kept for the others and handed out once to each.
   */
  constructor(readonly consumers = 1) {}

  /** Offers the verified parse of a block about to be published, for a decoder of this process. */
  shareParsed(id: BlockIdJson, cells: Cells): void {
    const key = keyOf(id);
    if (this.parsed.has(key) || cells.buf.length > MAX_PARSED_BYTES) return;
    this.parsed.set(key, cells);
    this.parsedBytes += cells.buf.length;
    while (this.parsed.size > MAX_PARSED || this.parsedBytes > MAX_PARSED_BYTES) this.takeParsed(this.parsed.keys().next().value!);
  }

  private takeParsed(key: string): Cells | undefined {
    const cells = this.parsed.get(key);
    if (cells) {
      this.parsed.delete(key);
      this.parsedBytes -= cells.buf.length;
    }
    return cells;
  }

  /** The decoded block of a raw block message. */
  decode(msg: RawBlockMessage): DecodedBlock {
    const key = `${msg.id.workchain}:${msg.id.shard}:${msg.id.seqno}:${msg.id.root_hash}`;
    const hit = this.waiting.get(key);
    if (hit) {
      this.waiting.delete(key);
      this.stats.shared++;
      return hit;
    }
    const cells = this.takeParsed(keyOf(msg.id));
    const block = cells ? decodeBlock(cells.buf, cells) : decodeBlock(Buffer.from(msg.boc, 'base64'));
    this.stats.decoded++;
    if (cells) this.stats.parsedReused++;
    if (this.consumers > 1) this.waiting.set(key, block);
    return block;
  }
}
