/** Our decoder's rows -> the classifier's store-independent trace model (src/actions/model.ts). */
import type { MessageRow, TransactionRow } from '../ton/index.ts';
import type { Trace, TraceMessage, TraceTransaction } from '../actions/index.ts';
import type { CompletedTrace } from './assembler.ts';
import { traceContext, type TraceContextSource } from './records.ts';

function extras(m: Record<string, bigint> | null): Record<string, string> | null {
  return m ? Object.fromEntries(Object.entries(m).map(([k, v]) => [k, v.toString()])) : null;
}

export function toTraceMessage(m: MessageRow): TraceMessage {
  return {
    hash: m.msg_hash,
    source: m.source,
    destination: m.destination,
    value: m.value,
    valueExtraCurrencies: extras(m.value_extra_currencies),
    fwdFee: m.fwd_fee,
    // the decoder keeps the signed int32 toncenter stores; the classifier compares unsigned opcodes
    opcode: m.opcode === null ? null : m.opcode >>> 0,
    body: m.body_boc,
    bounce: m.bounce,
    bounced: m.bounced,
    createdLt: m.created_lt,
    createdAt: m.created_at,
    initState: m.init_state_boc,
  };
}

export function toTraceTransaction(tx: TransactionRow, mcSeqno: number | null): TraceTransaction {
  const d = tx.description;
  return {
    hash: tx.hash,
    account: tx.account,
    lt: tx.lt,
    now: tx.now,
    mcSeqno,
    descr: d.type,
    isTock: d.is_tock ?? null,
    origStatus: tx.orig_status,
    endStatus: tx.end_status,
    aborted: d.aborted ?? false,
    destroyed: d.destroyed ?? false,
    computeSkipped: d.compute_ph?.skipped ?? null,
    computeSkippedReason: d.compute_ph?.reason ?? null,
    computeSuccess: d.compute_ph?.success ?? null,
    computeExitCode: d.compute_ph?.exit_code ?? null,
    actionResultCode: d.action?.result_code ?? null,
    totalFees: tx.total_fees,
    inMsg: tx.in_msg ? toTraceMessage(tx.in_msg) : null,
    outMsgs: tx.out_msgs.map(toTraceMessage),
  };
}

/**
 * A completed trace as the classifier reads it; with the batch's context (trace-context.ts), also the interface
 * records and account states its families read.
 */
export function toTrace(done: CompletedTrace, context?: TraceContextSource): Trace {
  const r = done.row;
  const trace: Trace = {
    traceId: r.trace_id,
    externalHash: r.external_hash,
    externalHashNorm: r.external_hash_norm,
    mcSeqnoStart: r.mc_seqno_start,
    mcSeqnoEnd: r.mc_seqno_end,
    startLt: r.start_lt,
    endLt: r.end_lt,
    startUtime: r.start_utime,
    endUtime: r.end_utime,
    transactions: done.transactions.map((t) => toTraceTransaction(t.tx, t.mcSeqno)),
  };
  return context ? { ...trace, ...traceContext(trace, context) } : trace;
}
