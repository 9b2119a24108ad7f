/**
 * Trace edges -> rows of the `trace_transactions` table, and the four tables the stage writes
 * (clickhouse/0002_traces_entities.sql; action rows: src/actions action-rows.ts). Pure; the stage inserts them.
 */
import type { Row } from '../util/index.ts';
import type { TraceEdge } from './assembler.ts';

export interface TraceTables {
  traces: Row[];
  trace_transactions: Row[];
  actions: Row[];
  action_accounts: Row[];
}

export const TRACE_TABLES = ['trace_transactions', 'actions', 'action_accounts', 'traces'] as const;


export function traceTransactionRows(edges: TraceEdge[], accountOf: ReadonlyMap<string, { account: string; lt: bigint }>): Row[] {
  return edges.map((e) => {
    const tx = accountOf.get(e.tx_hash)!;
    return { trace_id: e.trace_id, lt: tx.lt, account: tx.account, hash: e.tx_hash };
  });
}
