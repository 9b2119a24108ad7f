/**
 * Emulated traces (src/emulate `EmulatedRows`, `PendingRows`) rendered as API v3 renders indexed ones (the same renderers: the
 * transactions from their documents, the trace with its tree, the actions), in upstream's pending shape
 * (ton-index-go crud/pending.go `FillFromRawData`, emulated/models.go `ToTransaction`): transactions `emulated: true`,
 * `finality: "pending"`, `trace_external_hash` (the trace's key, the normalized hash); the trace without trace_id (its
 * root is not on chain), `external_hash` the message's hash, `trace_state: "pending"`, every message of it counted in
 * `pending_messages`; actions `finality: "pending"` without trace_id.
 */
import { hashToBase64 } from '../../format/index.ts';
import type { PendingRows } from '../../emulate/index.ts';
import { parseTxDoc, type TxDoc } from '../../decode/index.ts';
import { actionJson, loadWithDocs, MAX_TRACE_TXS, traceJson, transactionsJson, type Db, type Row } from '../v3/index.ts';

export interface RenderedEmulation {
  /** /api/v3/traces' trace object, pending (transactions, transactions_order, trace tree), without actions */
  trace: Record<string, unknown>;
  /** the transactions, lt ascending */
  txs: Record<string, unknown>[];
  /** action rows (trace_id cleared) */
  actionRows: Row[];
  addrs: string[];
}

export async function renderEmulated(db: Db, rows: PendingRows, supported?: ReadonlySet<string>): Promise<RenderedEmulation> {
  const docs = new Map<string, TxDoc>();
  for (const text of rows.docs) {
    const d = parseTxDoc(text);
    docs.set(`${d.tx.account}|${d.tx.lt}`, d);
  }
  const keys = [...docs.values()].map((d) => [String(d.tx.account), String(d.tx.lt), String(d.tx.hash)] as [string, string, string]);
  const txs = transactionsJson(await loadWithDocs(db, keys, docs, 'ASC')).map((t) => ({ ...t, emulated: true, finality: 'pending', trace_external_hash: hashToBase64(rows.norm) }));
  const actionRows = rows.actions
    .map((a) => ({ ...a.row, trace_id: null }) as Row)
    .filter((a) => !supported || (supported.has(String(a.type)) && !((a.ancestor_type as string[] | undefined) ?? []).some((t) => supported.has(t))));
  const t = rows.trace;
  const traceRow: Row = {
    ...t,
    trace_id: null,
    external_hash: rows.externalHash,
    state: 'pending',
    // upstream counts every message of an emulated node as pending
    pending_edges: t.edges,
    classification_state: rows.limitExceeded ? 'unclassified' : t.classification_state,
  };
  const r = traceJson(traceRow, Number(t.nodes) > MAX_TRACE_TXS ? null : txs, null);
  if (rows.limitExceeded) r.trace.is_incomplete = true;
  return { trace: r.trace, txs, actionRows, addrs: r.addrs };
}

/** An emulated action as /api/v3/actions renders it, pending. */
export function pendingActionJson(row: Row, opts: { accounts?: string[]; transactionsFull?: unknown[] } = {}): Record<string, unknown> {
  const o = { ...actionJson(row, opts), finality: 'pending' } as Record<string, unknown>;
  if (o.trace_id === null) delete o.trace_id;
  return o;
}
