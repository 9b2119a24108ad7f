/**
 * The traces stage's saved state (`trace_assembler_state`): the assembler's encoded state and the masterchain seqno
 * it has folded up to. The traces stage loads and saves it; the checkpoint stage reads how far it is
 * (`tracesResumePoint`). The encoding is the traces stage's own (src/traces/assembler.ts): a string here.
 */
import type { StoreClient } from '../client/index.ts';

/** The state's row name: one traces stage per store. */
export const TRACES_STATE_NAME = 'main';

/** The saved state and its seqno, or null when nothing was saved yet. */
export async function loadTracesState(store: StoreClient): Promise<{ mcSeqno: number; state: string } | null> {
  const rows = await store.query<{ mc_seqno: number | string; state: string }>(
    'SELECT mc_seqno, state FROM trace_assembler_state FINAL WHERE name = {name:String}',
    { name: TRACES_STATE_NAME },
  );
  return rows.length ? { mcSeqno: Number(rows[0].mc_seqno), state: rows[0].state } : null;
}

export async function saveTracesState(store: StoreClient, mcSeqno: number, state: string): Promise<void> {
  await store.insertRows('trace_assembler_state', [{ name: TRACES_STATE_NAME, mc_seqno: mcSeqno, state }]);
}

/** The masterchain seqno the traces stage has durably processed (null: nothing yet). */
export async function tracesResumePoint(store: StoreClient): Promise<number | null> {
  // only the seqno: the checkpoint stage asks on every poll, and the state itself can be large
  // max() over the seqno column alone: no FINAL over the (large) state blobs; saved seqnos only grow
  const rows = await store.query<{ s: number | string | null }>(
    'SELECT max(mc_seqno) AS s, count() AS n FROM trace_assembler_state WHERE name = {name:String} HAVING n > 0',
    { name: TRACES_STATE_NAME },
  );
  return rows.length && rows[0].s !== null ? Number(rows[0].s) : null;
}
