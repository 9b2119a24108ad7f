/**
 * Trace assembly: a pure fold over finalized transactions, fed one masterchain batch at a time
 * (the shard blocks a masterchain block commits, and the masterchain block itself).
 *
 * A trace is the tree of transactions caused by one root (api-v3.md §7.2): a transaction whose in_msg is
 * external, comes from the system address, is absent (tick-tock), or is internal with no known parent (the
 * trace is then `broken`: indexing started after its parent). Children are linked when a transaction's
 * in_msg hash equals an out message still in flight. `trace_id` = the root transaction's hash.
 *
 * Parents always come before children if each batch is processed in lt order: a receiving transaction's lt
 * is greater than its in message's created_lt, which is greater than the sending transaction's lt.
 */
import type { TransactionRow } from '../ton/index.ts';

export const SYSTEM_ACCOUNT = '-1:' + '0'.repeat(64);

export type TraceState = 'complete' | 'pending' | 'broken';
export type RootKind = 'ext' | 'sys' | 'tick_tock' | 'broken' | 'ord';

/** One trace as the `traces` table and API v3 `trace_info` see it. */
export interface TraceRow {
  trace_id: string;
  /** the root transaction's in_msg hash (external message for ordinary traces) */
  external_hash: string | null;
  /** normalized hash of the external root message (api-v3.md §7.1), only when it differs */
  external_hash_norm: string | null;
  mc_seqno_start: number;
  mc_seqno_end: number;
  start_lt: bigint;
  start_utime: number;
  end_lt: bigint;
  end_utime: number;
  /** `pending` while messages are in flight; `broken` when the root's parent was never seen */
  state: TraceState;
  /** in-flight internal messages */
  pending_edges: number;
  /** messages delivered or emitted: external-in, internal consumed, external-out (logs) */
  edges: number;
  /** transactions */
  nodes: number;
  classification_state: 'unclassified' | 'ok' | 'failed' | 'broken';
}

/** A transaction as assembled: its trace and the transaction whose out message it consumed. */
export interface TraceEdge {
  tx_hash: string;
  trace_id: string;
  /** null for the root */
  parent_tx_hash: string | null;
  in_msg_hash: string | null;
}

interface OpenTrace {
  row: TraceRow;
  root: RootKind;
  transactions: Array<{ tx: TransactionRow; mcSeqno: number; parent: string | null }>;
}

/** What the assembler must remember between batches; JSON-safe through `encodeState`. */
export interface AssemblerState {
  /** in-flight internal messages: msg hash -> [trace id, sending tx hash] */
  pending: Array<[string, string, string]>;
  traces: OpenTrace[];
  /**
   * the elector's address (config param 1 of the last key block folded): validator events need it for every block,
   * a block carries the config only when it is a key block; absent in states saved before it was kept
   */
  elector?: string | null;
}

/** A finished trace: every transaction in lt order with its parent link, ready for classification. */
export interface CompletedTrace {
  row: TraceRow;
  transactions: Array<{ tx: TransactionRow; mcSeqno: number; parent: string | null }>;
}

export interface BatchResult {
  /** every transaction of the batch with its trace */
  edges: TraceEdge[];
  /** every trace the batch touched, in its state after the batch */
  traces: TraceRow[];
  /** traces whose last in-flight message was delivered in this batch (or single-transaction traces) */
  completed: CompletedTrace[];
}

function rootKind(tx: TransactionRow): RootKind {
  const m = tx.in_msg;
  if (!m) return tx.description.type === 'tick_tock' ? 'tick_tock' : 'ord';
  if (m.message_type === 'ext_in') return 'ext';
  if (m.source === SYSTEM_ACCOUNT) return 'sys';
  return 'broken';
}

function byLt(a: TransactionRow, b: TransactionRow): number {
  return a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : a.account < b.account ? -1 : a.account > b.account ? 1 : 0;
}

export class TraceAssembler {
  private readonly pending = new Map<string, { traceId: string; txHash: string }>();
  private readonly open = new Map<string, OpenTrace>();

  /** config param 1 as of the last key block folded (AssemblerState.elector) */
  elector: string | null = null;

  constructor(state?: AssemblerState) {
    if (!state) return;
    this.elector = state.elector ?? null;
    for (const [msg, traceId, txHash] of state.pending) this.pending.set(msg, { traceId, txHash });
    for (const t of state.traces) this.open.set(t.row.trace_id, t);
  }

  /** Number of traces still waiting for messages. */
  get openTraces(): number {
    return this.open.size;
  }

  /**
   * Fold one masterchain batch. `transactions` may come from several blocks in any order; each carries the
   * seqno of the masterchain block that commits it.
   */
  addBatch(mcSeqno: number, transactions: TransactionRow[]): BatchResult {
    const txs = [...transactions].sort(byLt);
    const touched = new Map<string, OpenTrace>();
    const edges: TraceEdge[] = [];
    for (const tx of txs) {
      const inHash = tx.in_msg?.msg_hash ?? null;
      const link = inHash && tx.in_msg?.message_type === 'int' ? this.pending.get(inHash) : undefined;
      let trace: OpenTrace;
      let parent: string | null = null;
      if (link) {
        this.pending.delete(inHash!);
        const found = this.open.get(link.traceId);
        if (!found) throw new Error(`trace ${link.traceId} has a pending message but is not open`);
        trace = found;
        parent = link.txHash;
        trace.row.pending_edges -= 1;
        trace.row.edges += 1;
      } else {
        const kind = rootKind(tx);
        trace = {
          root: kind,
          transactions: [],
          row: {
            trace_id: tx.hash,
            external_hash: inHash,
            external_hash_norm:
              tx.in_msg?.message_type === 'ext_in' && tx.in_msg.hash_norm && tx.in_msg.hash_norm !== inHash
                ? tx.in_msg.hash_norm
                : null,
            mc_seqno_start: mcSeqno,
            mc_seqno_end: mcSeqno,
            start_lt: tx.lt,
            start_utime: tx.now,
            end_lt: tx.lt,
            end_utime: tx.now,
            state: kind === 'broken' ? 'broken' : 'pending',
            pending_edges: 0,
            edges: inHash ? 1 : 0,
            nodes: 0,
            classification_state: 'unclassified',
          },
        };
        this.open.set(tx.hash, trace);
      }
      trace.transactions.push({ tx, mcSeqno, parent });
      const row = trace.row;
      row.nodes += 1;
      row.mc_seqno_end = Math.max(row.mc_seqno_end, mcSeqno);
      if (tx.lt > row.end_lt) {
        row.end_lt = tx.lt;
        row.end_utime = tx.now;
      }
      for (const out of tx.out_msgs) {
        if (out.message_type === 'int') {
          this.pending.set(out.msg_hash, { traceId: row.trace_id, txHash: tx.hash });
          row.pending_edges += 1;
        } else {
          row.edges += 1; // external-out: a log, delivered at once
        }
      }
      touched.set(row.trace_id, trace);
      edges.push({ tx_hash: tx.hash, trace_id: row.trace_id, parent_tx_hash: parent, in_msg_hash: inHash });
    }

    const completed: CompletedTrace[] = [];
    for (const trace of touched.values()) {
      if (trace.row.pending_edges > 0) continue;
      if (trace.row.state === 'pending') trace.row.state = 'complete';
      this.open.delete(trace.row.trace_id);
      completed.push({ row: trace.row, transactions: trace.transactions });
    }
    return { edges, traces: [...touched.values()].map((t) => ({ ...t.row })), completed };
  }

  /**
   * Transactions of the open traces that `transactions` continue (an in-message of theirs is pending here): with
   * the batch's own, everything the traces this batch may complete are made of (their context is loaded first).
   */
  continuedBy(transactions: readonly TransactionRow[]): TransactionRow[] {
    const ids = new Set<string>();
    for (const tx of transactions) {
      const link = tx.in_msg ? this.pending.get(tx.in_msg.msg_hash) : undefined;
      if (link) ids.add(link.traceId);
    }
    return [...ids].flatMap((id) => this.open.get(id)?.transactions.map((t) => t.tx) ?? []);
  }

  /** The state to persist so that a restart continues exactly here. */
  snapshot(): AssemblerState {
    return {
      pending: [...this.pending].map(([msg, v]) => [msg, v.traceId, v.txHash]),
      traces: [...this.open.values()],
      elector: this.elector,
    };
  }
}

// bigint survives JSON as a tagged string; no field of a TransactionRow is a string starting with NUL.
const BIGINT_TAG = '\u0000n';

/** Serialize an assembler state (bigints included) for the store. */
export function encodeState(state: AssemblerState): string {
  return JSON.stringify(state, (_k, v: unknown) => (typeof v === 'bigint' ? BIGINT_TAG + v.toString() : v));
}

export function decodeState(text: string): AssemblerState {
  return JSON.parse(text, (_k, v: unknown) =>
    typeof v === 'string' && v.startsWith(BIGINT_TAG) ? BigInt(v.slice(BIGINT_TAG.length)) : v,
  ) as AssemblerState;
}
