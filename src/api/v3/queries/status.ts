/** Index progress for /indexStatus: indexed masterchain range, gaps inside it (and below it, down to the first seqno requested), where ingest is stalled, lag vs the network. */
import type { Db } from '../db.ts';
import type { LegacyNode } from '../route.ts';

export interface IndexStatus {
  first_mc_seqno: number | null;
  last_mc_seqno: number | null;
  indexed_mc_blocks: number;
  gaps: number;
  first_gaps: { from: number; to: number }[];
  last_utime: number | null;
  lag_seconds: number | null;
  checkpoint_mc_seqno: number | null;
  network_mc_seqno: number | null;
  lag_blocks: number | null;
  /** The lowest masterchain seqno ingest was ever asked to start at: seqnos from there up are expected. */
  requested_from_mc_seqno: number | null;
  /** Where ingest stands still (a block no liteserver gives valid) and why; null while it moves. */
  stalled: { mc_seqno: number; reason: string; since: number } | null;
}

export async function indexStatus(db: Db, node?: LegacyNode, now = Math.floor(Date.now() / 1000)): Promise<IndexStatus> {
  const [agg, gaps, cp] = await Promise.all([
    db.q<{ first: number | null; last: number | null; n: string; last_utime: number | null }>(
      `SELECT if(count() = 0, NULL, min(seqno)) AS first, if(count() = 0, NULL, max(seqno)) AS last, uniqExact(seqno) AS n,
              if(count() = 0, NULL, max(gen_utime)) AS last_utime
       FROM blocks WHERE workchain = -1`,
    ),
    db.q<{ from: number; to: number }>(
      `SELECT prev + 1 AS from, seqno - 1 AS to FROM (
         SELECT seqno, lagInFrame(seqno) OVER (ORDER BY seqno ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS prev
         FROM (SELECT DISTINCT seqno FROM blocks WHERE workchain = -1))
       WHERE prev > 0 AND seqno > prev + 1 ORDER BY seqno LIMIT 10`,
    ),
    db.q<{ mc_seqno: number }>("SELECT mc_seqno FROM checkpoints FINAL WHERE name = 'ingest'"),
  ]);
  const [state] = await db.q<{ first_requested: number | string; stalled_seqno: number | string; stall_reason: string; since: number | string }>(
    "SELECT first_requested, stalled_seqno, stall_reason, toUnixTimestamp(stalled_since) AS since FROM ingest_state FINAL WHERE name = 'ingest'",
  );
  const a = agg[0];
  const first = a?.first === null || a?.first === undefined ? null : Number(a.first);
  const last = a?.last === null || a?.last === undefined ? null : Number(a.last);
  const n = Number(a?.n ?? 0);
  let network: number | null;
  try {
    network = (await node?.lastMcSeqno?.()) ?? null;
  } catch {
    network = null;
  }
  const lastUtime = a?.last_utime === null || a?.last_utime === undefined ? null : Number(a.last_utime);
  const requested = state ? Number(state.first_requested) : null;
  // seqnos asked for below the first indexed block are missing too (history a restart skipped)
  const below = requested !== null && first !== null && requested < first ? { from: requested, to: first - 1 } : null;
  const firstGaps = gaps.map((g) => ({ from: Number(g.from), to: Number(g.to) }));
  return {
    first_mc_seqno: first,
    last_mc_seqno: last,
    indexed_mc_blocks: n,
    gaps: (first === null || last === null ? 0 : last - first + 1 - n) + (below ? below.to - below.from + 1 : 0),
    first_gaps: below ? [below, ...firstGaps].slice(0, 10) : firstGaps,
    last_utime: lastUtime,
    lag_seconds: lastUtime === null ? null : Math.max(0, now - lastUtime),
    checkpoint_mc_seqno: cp.length ? Number(cp[0].mc_seqno) : null,
    network_mc_seqno: network,
    lag_blocks: network !== null && last !== null ? Math.max(0, network - last) : null,
    requested_from_mc_seqno: requested,
    stalled: state && Number(state.stalled_seqno) > 0 ? { mc_seqno: Number(state.stalled_seqno), reason: state.stall_reason, since: Number(state.since) } : null,
  };
}
