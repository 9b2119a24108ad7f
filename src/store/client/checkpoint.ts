/** Named checkpoints (`checkpoints`): how far a writer's rows are durable. */
import type { StoreClient } from './store-client.ts';

/**
 * The checkpoint ingest advances (pipelines/stages.ts): the last masterchain seqno whose rows (traces included) are
 * all durable. The key-value store's `visible` follows it (kv-fill.ts).
 */
export const INGEST_CHECKPOINT = 'ingest';

/**
 * Records a named checkpoint. The ingest checkpoint also makes the key-value store's entries of seqnos up to it
 * visible (src/kv): after ClickHouse has it, so a crash between the two leaves `visible` behind, and the next open
 * moves it up (kv-fill.ts prepareKv).
 */
export async function setCheckpoint(store: StoreClient, name: string, mcSeqno: number): Promise<void> {
  await store.command('INSERT INTO checkpoints (name, mc_seqno) VALUES ({name:String}, {seqno:UInt32})', { name, seqno: mcSeqno });
  if (name === INGEST_CHECKPOINT) await store.kv?.setVisible(mcSeqno);
}

export async function getCheckpoint(store: StoreClient, name: string): Promise<number | null> {
  const rows = await store.query<{ mc_seqno: number }>('SELECT mc_seqno FROM checkpoints FINAL WHERE name = {name:String}', { name });
  return rows.length ? Number(rows[0].mc_seqno) : null;
}
