/**
 * Ingest's own bookkeeping (clickhouse/0015): the masterchain blocks it trusts, the range it was asked for, and
 * where it is stalled. Written by the ingest process, read by `status`, /api/v3/indexStatus and the next start.
 */
import type { StoreClient } from '../client/index.ts';

export interface StoredBlockId {
  seqno: number;
  rootHash: string;
  fileHash: string;
}

/** The key blocks proved from the init block whose root hash is `anchor` (hex). */
export async function loadTrustedBlocks(store: StoreClient, anchor: string): Promise<StoredBlockId[]> {
  const rows = await store.query<{ seqno: number | string; root_hash: string; file_hash: string }>(
    'SELECT seqno, root_hash, file_hash FROM trusted_blocks FINAL WHERE anchor = {anchor:FixedString(64)} ORDER BY seqno',
    { anchor },
  );
  return rows.map((r) => ({ seqno: Number(r.seqno), rootHash: r.root_hash, fileHash: r.file_hash }));
}

export async function saveTrustedBlocks(store: StoreClient, anchor: string, blocks: readonly StoredBlockId[]): Promise<void> {
  if (blocks.length === 0) return;
  await store.insertRows(
    'trusted_blocks',
    blocks.map((b) => ({ anchor, seqno: b.seqno, root_hash: b.rootHash, file_hash: b.fileHash })),
  );
}

/** The id of the stored masterchain block `seqno`, if the store has it. */
export async function storedMcBlock(store: StoreClient, seqno: number): Promise<StoredBlockId | null> {
  const rows = await store.query<{ root_hash: string; file_hash: string }>(
    'SELECT root_hash, file_hash FROM blocks FINAL WHERE workchain = -1 AND seqno = {seqno:UInt32} LIMIT 2',
    { seqno },
  );
  if (rows.length === 0) return null;
  return { seqno, rootHash: rows[0].root_hash, fileHash: rows[0].file_hash };
}

export interface IngestStall {
  seqno: number;
  reason: string;
  /** ms since the epoch */
  since: number;
}

export interface IngestRange {
  from: number;
  /** null: follow the tip */
  until: number | null;
}

export interface IngestState {
  /** The requested range being worked on; null once it was done. */
  range: IngestRange | null;
  /** The lowest masterchain seqno ever requested. */
  firstRequested: number;
  /** The checkpoint when the range was requested (null: none): until it moves, the range has no confirmed progress. */
  checkpointAtRequest: number | null;
  stall: IngestStall | null;
}

const NAME = 'ingest';

/** The version of a write after one at `last`: the time in µs, past `last` when the clock has not moved on. */
export function nextIngestVersion(last: bigint): bigint {
  const version = BigInt(Date.now()) * 1000n;
  return version <= last ? last + 1n : version;
}

export async function readIngestState(store: StoreClient): Promise<IngestState | null> {
  const rows = await store.query<{
    range_from: number | string;
    range_until: number | string;
    first_requested: number | string;
    checkpoint_at_request: number | string;
    stalled_seqno: number | string;
    stall_reason: string;
    since_ms: number | string;
  }>(
    `SELECT range_from, range_until, first_requested, checkpoint_at_request, stalled_seqno, stall_reason, toUnixTimestamp64Milli(stalled_since) AS since_ms
     FROM ingest_state FINAL WHERE name = {name:String}`,
    { name: NAME },
  );
  if (rows.length === 0) return null;
  const r = rows[0];
  const cp = Number(r.checkpoint_at_request);
  return {
    range: Number(r.range_from) === 0 ? null : { from: Number(r.range_from), until: Number(r.range_until) === 0 ? null : Number(r.range_until) },
    firstRequested: Number(r.first_requested),
    checkpointAtRequest: cp < 0 ? null : cp,
    stall: Number(r.stalled_seqno) === 0 ? null : { seqno: Number(r.stalled_seqno), reason: r.stall_reason, since: Number(r.since_ms) },
  };
}

/**
 * Writes the whole row (one writer: the ingest process's IngestBook, pipelines/ingest-book.ts). The version orders
 * the writes, within a millisecond too: the writer passes each write the one after its last (`nextIngestVersion`).
 */
export async function writeIngestState(store: StoreClient, s: IngestState, version = nextIngestVersion(0n)): Promise<void> {
  await store.command(
    `INSERT INTO ingest_state (name, range_from, range_until, first_requested, checkpoint_at_request, stalled_seqno, stall_reason, stalled_since, version)
     VALUES ({name:String}, {from:UInt32}, {until:UInt32}, {first:UInt32}, {cp:Int64}, {stalled:UInt32}, {reason:String}, fromUnixTimestamp64Milli({since:Int64}), {version:UInt64})`,
    {
      name: NAME,
      from: s.range?.from ?? 0,
      until: s.range?.until ?? 0,
      first: s.firstRequested,
      cp: s.checkpointAtRequest ?? -1,
      stalled: s.stall?.seqno ?? 0,
      reason: s.stall?.reason ?? '',
      since: s.stall?.since ?? 0,
      version: version.toString(),
    },
  );
}
