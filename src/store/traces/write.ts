/**
 * The traces stage's write (its rows: entity tables, transactions / messages / documents with their trace_id, trace
 * tables; then its state). After this the seqnos written are durable.
 *
 * Replays of the stage's writes (issue 21, hole 5). A write's rows go to many tables, then the assembler state; a
 * crash between two of them leaves some rows of seqnos the saved state does not cover, and the restarted stage
 * processes those seqnos again (grouped as it then finds them ready). Before its first insert each write records
 * its seqno range in `write_intents` (replay.ts); the first write of a loaded state that overlaps the range of an
 * earlier write beyond the saved state inserts only the rows not stored yet.
 */
import { mirrorRows } from '../../kv/index.ts';
import { saveTracesState, TRACES_STATE_NAME } from './state.ts';
import { nextIntentVersion, openIntents, recordIntent, withoutStored, type StoreClient } from '../client/index.ts';
import type { Row } from '../../util/index.ts';
import { TRACED_TABLES } from '../../decode/index.ts';

const INTENT = `traces/${TRACES_STATE_NAME}`;

/** Where the stage's writes are, for the replay check: one per loaded state (null: written without the check). */
export interface TracesWriteProgress {
  /** the last seqno whose write is complete (the saved state's), -1 for none */
  written: number;
  /** the seqnos up to which an earlier write may have left rows (an intent beyond the saved state), null: unread */
  suspectUpTo: number | null;
  intentVersion: bigint;
}

/** The progress of a state loaded at `mcSeqno` (null: nothing saved). */
export function tracesWriteProgress(mcSeqno: number | null): TracesWriteProgress {
  return { written: mcSeqno ?? -1, suspectUpTo: null, intentVersion: 0n };
}

/** One table's rows. */
export interface TableRows {
  table: string;
  rows: Row[];
}

/** What one write of the traces stage holds, each group in the order its tables are written. */
export interface TracesWrite {
  /** jetton / NFT entities and events, entity state tables */
  entities: readonly TableRows[];
  /** transactions, messages and their documents, now with their trace_id */
  traced: Record<(typeof TRACED_TABLES)[number], Row[]>;
  /** traces, trace_transactions, actions, action_accounts */
  traces: readonly TableRows[];
}

/**
 * Writes what the stage produced for the seqnos after the last write up to `mcSeqno`, then its state (`state`, the
 * encoded assembler): after this the batch is durable. Rows a crashed earlier write of these seqnos stored are not
 * written again (with `progress`).
 */
export async function writeTracesBatch(store: StoreClient, progress: TracesWriteProgress | null, mcSeqno: number, out: TracesWrite, state: () => string): Promise<void> {
  let suspect = false;
  if (progress) {
    if (progress.suspectUpTo === null) {
      const [intent] = await openIntents(store, INTENT);
      const upTo = intent?.writer === INTENT ? Number(intent.items[1]) : -1;
      progress.suspectUpTo = Number.isInteger(upTo) ? upTo : -1;
      progress.intentVersion = intent?.writer === INTENT ? intent.version : 0n;
    }
    suspect = progress.written < progress.suspectUpTo;
    progress.intentVersion = nextIntentVersion(progress.intentVersion);
    // while earlier rows may be stored beyond this write (a crash cut a longer write), the intent keeps naming them:
    // a second crash here must leave the next restart just as suspicious of those seqnos
    const end = Math.max(mcSeqno, progress.suspectUpTo);
    await recordIntent(store, INTENT, progress.intentVersion, [String(progress.written + 1), String(end)]);
  }
  const traced = TRACED_TABLES.map((table) => ({ table, rows: out.traced[table] }));
  // the key-value store's entries (src/kv), tagged with the write's last seqno: committed in parallel with the
  // inserts, before the state (the checkpoint never passes a seqno before the state covers it)
  const kv = store.kv;
  const kvDone = kv ? mirrorRows(kv, [...out.entities, ...traced, ...out.traces].map(({ table, rows }) => ({ table, rows, tag: mcSeqno }))) : null;
  kvDone?.catch(() => undefined);
  const put = async (table: string, rows: Row[]) => store.insertRows(table, suspect ? await withoutStored(store, table, rows) : rows);
  for (const t of out.entities) await put(t.table, t.rows);
  // trace_version makes these rows win over the ones the store stage wrote without trace_id; documents live in the
  // key-value store alone where it serves point reads (clickhouse/0017)
  for (const t of traced) if (t.table !== 'transaction_docs_kv' || store.pointReads !== 'kv') await put(t.table, t.rows);
  for (const t of out.traces) await put(t.table, t.rows);
  await kvDone;
  await saveTracesState(store, mcSeqno, state());
  if (progress) progress.written = mcSeqno;
}

/**
 * A code the traces stage read from a liteserver (src/entities/liteserver-codes.ts): `contract_code`, and its
 * get-method ids in `contract_methods` when its method table reads.
 */
export async function writeFetchedCode(store: StoreClient, codeHash: string, codeBoc: string, methods: readonly number[] | null): Promise<void> {
  await store.insertRows('contract_code', [{ code_hash: codeHash, code_boc: codeBoc }]);
  // stored unsigned, as the store stage does (the column is UInt32)
  if (methods) await store.insertRows('contract_methods', [{ code_hash: codeHash, methods: methods.map((m) => m >>> 0) }]);
}
