/**
 * The few facts of a block the follower needs to link blocks together: its BlockInfo (shard, seqno, prev
 * refs, master ref, split/merge flags) and, for masterchain blocks, the shard tops it registers
 * (McBlockExtra.shard_hashes). `verifyBlock` reads them through src/ton's readers (BlockInfo, ShardDescr);
 * the independent @ton/core readers that cross-check them are test/source/block-header-reader.ts.
 */
import { createHash } from 'node:crypto';
import { decodeBlock, decodeBlockHeader, parseBoc, type BlockRef, type Cells, type BlockInfo as TonBlockInfo, type ExtBlkRef, type ShardDescr as TonShardDescr } from '../ton/index.ts';
import type { BlockIdExt } from './block-id.ts';

export interface BlockHeader {
  globalId: number;
  workchain: number;
  shard: bigint;
  seqno: number;
  afterMerge: boolean;
  afterSplit: boolean;
  beforeSplit: boolean;
  keyBlock: boolean;
  genUtime: number;
  startLt: bigint;
  endLt: bigint;
  /** The master block this (shard) block refers to; null in the masterchain. */
  masterRef: ExtBlkRef | null;
  /** One prev ref, or two after a merge (left, right child). Full ids, shards resolved. */
  prev: BlockIdExt[];
}

/** A shard top registered by a masterchain block. */
export type ShardTop = BlockIdExt & { beforeSplit: boolean; beforeMerge: boolean; endLt: bigint };

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export class BlockHashMismatch extends Error {
  override name = 'BlockHashMismatch';
}

/** A fetched, verified block: its bytes and the linking facts (shard tops for masterchain blocks). */
export interface VerifiedBlock {
  id: BlockIdExt;
  boc: Buffer;
  header: BlockHeader;
  /** Masterchain blocks: the shard tops they register; null for shard blocks. */
  shardTops: ShardTop[] | null;
  /** The parsed BoC, every cell hashed (verifying needs the root hash): a decoder in this process reuses it */
  cells?: Cells;
}

/** src/ton's BlockInfo -> the linking facts the follower uses. */
function headerFromInfo(globalId: number, info: TonBlockInfo): BlockHeader {
  return {
    globalId,
    workchain: info.workchain,
    shard: BigInt('0x' + info.shard),
    seqno: info.seqno,
    afterMerge: info.after_merge,
    afterSplit: info.after_split,
    beforeSplit: info.before_split,
    keyBlock: info.key_block,
    genUtime: info.gen_utime,
    startLt: info.start_lt,
    endLt: info.end_lt,
    masterRef: info.master_ref ? { end_lt: info.master_ref.end_lt, seqno: info.master_ref.seqno, root_hash: info.master_ref.root_hash, file_hash: info.master_ref.file_hash } : null,
    prev: info.prev_ref.map((p) => ({ workchain: p.workchain, shard: BigInt('0x' + p.shard), seqno: p.seqno, rootHash: p.root_hash, fileHash: p.file_hash })),
  };
}

/**
 * Checks a block's bytes against its id: file_hash = sha256(bytes), root_hash = hash of the root cell,
 * and the BlockInfo's own (workchain, shard, seqno). Throws BlockHashMismatch naming what differs.
 * Parsing and hashing go through src/ton (an order of magnitude faster than @ton/core's Cell on blocks).
 */
export function verifyBlock(id: BlockIdExt, boc: Buffer): VerifiedBlock {
  const fileHash = sha256Hex(boc);
  if (fileHash !== id.fileHash) throw new BlockHashMismatch(`file_hash of ${describe(id)} is ${fileHash}, expected ${id.fileHash}`);
  let decoded: { id: { root_hash: string }; global_id: number; info: TonBlockInfo; shards?: TonShardDescr[] | null };
  let cells: Cells;
  try {
    cells = parseBoc(boc);
    decoded = id.workchain === -1 ? decodeBlock(boc, cells) : decodeBlockHeader(boc, cells);
  } catch (err) {
    throw new BlockHashMismatch(`block ${describe(id)} is not a valid block BoC: ${(err as Error).message}`);
  }
  const rootHash = decoded.id.root_hash;
  if (rootHash !== id.rootHash) throw new BlockHashMismatch(`root_hash of ${describe(id)} is ${rootHash}, expected ${id.rootHash}`);
  const header = headerFromInfo(decoded.global_id, decoded.info);
  if (header.workchain !== id.workchain || header.shard !== id.shard || header.seqno !== id.seqno) {
    throw new BlockHashMismatch(`block ${describe(id)} says it is ${header.workchain}:${header.shard.toString(16)}:${header.seqno}`);
  }
  const shardTops = decoded.shards
    ? decoded.shards
        .map((d) => ({
          workchain: d.workchain,
          shard: BigInt('0x' + d.shard),
          seqno: d.seqno,
          rootHash: d.root_hash,
          fileHash: d.file_hash,
          beforeSplit: d.before_split,
          beforeMerge: d.before_merge,
          endLt: d.end_lt,
        }))
        .sort((a, b) => a.workchain - b.workchain || (a.shard < b.shard ? -1 : a.shard > b.shard ? 1 : 0))
    : null;
  return { id, boc, header, shardTops, cells };
}

function describe(id: BlockRef<bigint>): string {
  return `${id.workchain}:${id.shard.toString(16).toUpperCase().padStart(16, '0')}:${id.seqno}`;
}
