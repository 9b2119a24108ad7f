// Builds classifier traces for families no real trace in the fixtures covers. Message bodies are written by the
// tests from the contracts' TL-B; this helper only links transactions the way a real trace is linked (each
// child transaction's in-message is an out-message of its parent) and numbers lts. Hashes are sha256 labels,
// not real message hashes.
import { createHash } from 'node:crypto';
import { beginCell, type Cell } from '@ton/core';
import type { AccountInterfaces, Trace, TraceMessage, TraceTransaction } from '../../src/actions/index.ts';
import type { AccountStateSnapshot } from '../../src/actions/model.ts';

export interface TxSpec {
  account: string;
  /** sender of the in-message; null for an external-in message */
  from: string | null;
  value?: bigint;
  body?: Cell | null;
  bounce?: boolean;
  bounced?: boolean;
  aborted?: boolean;
  /** compute phase skip reason (e.g. 'no_gas') */
  skippedReason?: string;
  origStatus?: string;
  endStatus?: string;
  /** transactions caused by this one's out-messages */
  out?: TxSpec[];
  /** bodies of external-out messages (logs) this transaction sent, after its internal ones */
  logs?: Cell[];
  /** StateInit cell the in-message carries */
  init?: Cell;
}

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

/** One trace from a tree of transactions; lts follow depth-first order, created_lt = receiving lt - 1. */
export function buildTrace(root: TxSpec, extra: { interfaces?: Record<string, AccountInterfaces>; accountStates?: Record<string, { before?: AccountStateSnapshot; after?: AccountStateSnapshot }> } = {}): Trace {
  const txs: TraceTransaction[] = [];
  let lt = 1000n;
  const now = 1_700_000_000;
  const visit = (spec: TxSpec, inMsg: TraceMessage): TraceTransaction => {
    const tx: TraceTransaction = {
      hash: sha(`tx:${lt}:${spec.account}`),
      account: spec.account,
      lt,
      now,
      mcSeqno: 1,
      descr: 'ord',
      origStatus: spec.origStatus ?? 'active',
      endStatus: spec.endStatus ?? 'active',
      aborted: spec.aborted ?? false,
      computeExitCode: spec.aborted ? 9 : 0,
      computeSkippedReason: spec.skippedReason ?? null,
      inMsg,
      outMsgs: [],
    };
    txs.push(tx);
    lt += 10n;
    for (const child of spec.out ?? []) {
      const m = message(child, lt - 1n);
      tx.outMsgs.push(m);
      visit(child, m);
    }
    for (const [i, log] of (spec.logs ?? []).entries()) {
      tx.outMsgs.push({
        hash: sha(`log:${tx.hash}:${i}`), source: spec.account, destination: null, value: null, opcode: log.bits.length >= 32 ? log.beginParse().loadUint(32) >>> 0 : null,
        body: log.toBoc().toString('base64'), bounce: null, bounced: null, createdLt: tx.lt + 1n + BigInt(i), createdAt: now,
      });
    }
    return tx;
  };
  const message = (spec: TxSpec, createdLt: bigint | null): TraceMessage => {
    // a message without a body still has one: the empty cell (as the decoder and toncenter give it)
    const body = spec.body ?? beginCell().endCell();
    const bits = body?.bits.length ?? 0;
    return {
      hash: sha(`msg:${createdLt}:${spec.from}:${spec.account}:${body?.hash().toString('hex') ?? ''}`),
      source: spec.from,
      destination: spec.account,
      value: spec.from === null ? null : (spec.value ?? 1_000_000_000n),
      opcode: bits >= 32 ? body.beginParse().loadUint(32) >>> 0 : null,
      body: body.toBoc().toString('base64'),
      bounce: spec.bounce ?? (spec.from === null ? null : true),
      bounced: spec.bounced ?? (spec.from === null ? null : false),
      createdLt: spec.from === null ? null : createdLt,
      createdAt: spec.from === null ? null : now,
      ...(spec.init ? { initState: spec.init.toBoc().toString('base64') } : {}),
    };
  };
  visit(root, message(root, null));
  const first = txs[0], last = txs[txs.length - 1];
  return {
    traceId: first.hash,
    externalHash: root.from === null ? first.inMsg!.hash : null,
    mcSeqnoStart: 1,
    mcSeqnoEnd: 1,
    startLt: first.lt,
    endLt: last.lt,
    startUtime: now,
    endUtime: now,
    transactions: txs,
    ...extra,
  };
}

/** Raw upper-case address `wc:HEX` with a recognisable fill byte. */
export function addr(wc: number, fill: string): string {
  return `${wc}:${fill.repeat(64 / fill.length).toUpperCase()}`;
}
