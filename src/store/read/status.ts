/**
 * How far the index is, from the store alone: the indexed masterchain range (blocks whose rows are all written:
 * their `ingested_blocks` markers), the holes in it and below it down to the first seqno ingest was asked for,
 * the checkpoint, where ingest is stalled and why. One reading for `ton-gateway status` and /api/v3/indexStatus.
 */
import { getCheckpoint, INGEST_CHECKPOINT, type StoreClient } from '../client/index.ts';
import { readIngestState, type IngestRange } from '../ingest/index.ts';

/** At most this many gap ranges are listed (the count of missing seqnos is always whole). */
const MAX_GAP_RANGES = 1000;

export interface IndexStatus {
  first: number | null;
  last: number | null;
  /** Distinct masterchain seqnos indexed. */
  mcBlocks: number;
  checkpoint: number | null;
  /**
   * Masterchain seqnos missing between the first requested one (or the first indexed) and the last indexed
   * (ranges, inclusive, in order; at most 1000): a range that was asked for and not indexed is a gap too.
   */
  mcGaps: [number, number][];
  /** How many masterchain seqnos those gaps hold, all of them. */
  mcMissing: number;
  /** The lowest masterchain seqno ever requested (the start of the first range ingest was given). */
  requestedFrom: number | null;
  /** The range ingest works on (until null: the tip), null when the last one was done. */
  range: IngestRange | null;
  /** A masterchain seqno no liteserver gives valid: where ingest stands still, and why (since: ms since the epoch). */
  stall: { seqno: number; reason: string; since: number } | null;
  /** gen_utime of the newest stored masterchain block. */
  lastUtime: number | null;
}

export interface IndexStatusDetail extends IndexStatus {
  /** Shard blocks whose prev block is not stored (a hole between consecutive masterchain blocks); at most 1000. */
  shardGaps: { block: string; missingPrev: string; mcSeqno: number }[];
  blocks: number;
  transactions: number;
  /** Blocks and transactions per second over the last minute of ingestion. */
  recent: { blocksPerSec: number; txPerSec: number } | null;
}

type Settings = Record<string, unknown> | undefined;

/**
 * The index's range, gaps, checkpoint and ingest state. `settings` go with each statement of this reading (the
 * API's statement timeout).
 */
export async function indexStatus(store: StoreClient, settings?: Settings): Promise<IndexStatus> {
  const [mc] = await store.query<{ first: string; last: string; n: string; utime: string }>(
    `SELECT min(seqno) AS first, max(seqno) AS last, uniqExact(seqno) AS n,
            (SELECT max(gen_utime) FROM blocks WHERE workchain = -1) AS utime
     FROM ingested_blocks WHERE workchain = -1`,
    undefined,
    settings,
  );
  const n = Number(mc?.n ?? 0);
  const first = n ? Number(mc.first) : null;
  const last = n ? Number(mc.last) : null;
  const mcGaps: [number, number][] = [];
  let mcMissing = first !== null && last !== null ? last - first + 1 - n : 0;
  if (mcMissing > 0) {
    const rows = await store.query<{ s: string; next: string }>(
      `SELECT seqno AS s, next FROM (
         SELECT seqno, leadInFrame(seqno) OVER (ORDER BY seqno ROWS BETWEEN CURRENT ROW AND 1 FOLLOWING) AS next
         FROM (SELECT DISTINCT seqno FROM ingested_blocks WHERE workchain = -1)
       ) WHERE next > seqno + 1 ORDER BY seqno LIMIT {max:UInt32}`,
      { max: MAX_GAP_RANGES },
      settings,
    );
    for (const r of rows) mcGaps.push([Number(r.s) + 1, Number(r.next) - 1]);
  }
  const state = await readIngestState(store);
  const requestedFrom = state?.firstRequested ?? null;
  // a hole below the first indexed block that was asked for (history that a restart must not skip silently)
  if (requestedFrom !== null && first !== null && requestedFrom < first) {
    mcGaps.unshift([requestedFrom, first - 1]);
    if (mcGaps.length > MAX_GAP_RANGES) mcGaps.pop();
    mcMissing += first - requestedFrom;
  }
  const utime = Number(mc?.utime ?? 0);
  return {
    first,
    last,
    mcBlocks: n,
    checkpoint: await getCheckpoint(store, INGEST_CHECKPOINT),
    mcGaps,
    mcMissing,
    requestedFrom,
    range: state?.range ?? null,
    stall: state?.stall ?? null,
    lastUtime: n && utime ? utime : null,
  };
}

/** indexStatus, and what costs a scan of every block: shard-block holes, block and transaction counts, throughput. */
export async function indexStatusDetail(store: StoreClient): Promise<IndexStatusDetail> {
  const st = await indexStatus(store);
  const { first } = st;
  // A shard block committed after the first indexed masterchain block must find each prev block stored
  // (seqno 0 is the zero state). Blocks committed by the first one may legitimately start mid-chain.
  const shardGaps =
    first === null
      ? []
      : (
          await store.query<{ wc: number; shard: string; seqno: number; mc: number; pwc: number; pshard: string; pseqno: number }>(
            `SELECT b.workchain AS wc, b.shard AS shard, b.seqno AS seqno, b.mc_block_seqno AS mc, p.1 AS pwc, p.2 AS pshard, p.3 AS pseqno
             FROM (SELECT DISTINCT workchain, shard, seqno, mc_block_seqno, prev_blocks FROM blocks WHERE workchain != -1 AND mc_block_seqno > {first:UInt32}) AS b
             ARRAY JOIN b.prev_blocks AS p
             WHERE p.3 > 0 AND (p.1, p.2, p.3) NOT IN (SELECT workchain, shard, seqno FROM ingested_blocks)
             ORDER BY mc LIMIT 1000`,
            { first },
          )
        ).map((r) => ({
          block: `${r.wc}:${BigInt(r.shard).toString(16).toUpperCase().padStart(16, '0')}:${r.seqno}`,
          missingPrev: `${r.pwc}:${BigInt(r.pshard).toString(16).toUpperCase().padStart(16, '0')}:${r.pseqno}`,
          mcSeqno: Number(r.mc),
        }));
  const [counts] = await store.query<{ b: string; t: string }>('SELECT (SELECT uniqExact(workchain, shard, seqno) FROM ingested_blocks) AS b, (SELECT sum(tx_count) FROM (SELECT workchain, shard, seqno, any(tx_count) AS tx_count FROM ingested_blocks GROUP BY workchain, shard, seqno)) AS t');
  const [recent] = await store.query<{ b: string; t: string; span: string }>(
    `SELECT count() AS b, sum(tx_count) AS t, greatest(1, dateDiff('millisecond', min(ingested_at), max(ingested_at))) AS span
     FROM ingested_blocks WHERE ingested_at > (SELECT max(ingested_at) FROM ingested_blocks) - INTERVAL 60 SECOND`,
  );
  const span = Number(recent?.span ?? 0) / 1000;
  return {
    ...st,
    shardGaps,
    blocks: Number(counts?.b ?? 0),
    transactions: Number(counts?.t ?? 0),
    recent: Number(recent?.b ?? 0) > 1 && span > 0 ? { blocksPerSec: Number(recent.b) / span, txPerSec: Number(recent.t) / span } : null,
  };
}
