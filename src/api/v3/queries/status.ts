/**
 * Index progress for /indexStatus: the store's own reading (src/store status.ts, the one `ton-gateway status`
 * prints) in the API's shape, with the lag behind the network when the node layer is configured.
 */
import { indexStatus as storeIndexStatus } from '../../../store/read/index.ts';
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
  /** Where ingest stands still (a block no liteserver gives valid) and why; null while it moves. `since`: unix seconds. */
  stalled: { mc_seqno: number; reason: string; since: number } | null;
}

export async function indexStatus(db: Db, node?: LegacyNode, now = Math.floor(Date.now() / 1000)): Promise<IndexStatus> {
  const st = await db.read('indexStatus', storeIndexStatus);
  let network: number | null;
  try {
    network = (await node?.lastMcSeqno?.()) ?? null;
  } catch {
    network = null;
  }
  return {
    first_mc_seqno: st.first,
    last_mc_seqno: st.last,
    indexed_mc_blocks: st.mcBlocks,
    gaps: st.mcMissing,
    first_gaps: st.mcGaps.slice(0, 10).map(([from, to]) => ({ from, to })),
    last_utime: st.lastUtime,
    lag_seconds: st.lastUtime === null ? null : Math.max(0, now - st.lastUtime),
    checkpoint_mc_seqno: st.checkpoint,
    network_mc_seqno: network,
    lag_blocks: network !== null && st.last !== null ? Math.max(0, network - st.last) : null,
    requested_from_mc_seqno: st.requestedFrom,
    stalled: st.stall ? { mc_seqno: st.stall.seqno, reason: st.stall.reason, since: Math.floor(st.stall.since / 1000) } : null,
  };
}
