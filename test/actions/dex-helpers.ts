// Helpers of the DEX family tests (swaps, liquidity, jVault): fixture traces, their real message bodies, and edits
// of a real trace (one message's body, a log removed, interface records dropped) for the branches no fixture shows.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cell } from '@ton/core';
import { parseJsonExact, traceFromToncenterJson } from '../../src/actions/adapters/toncenter-json.ts';
import { classifyTrace } from '../../src/actions/classify.ts';
import type { ActionRow, Trace, TraceMessage } from '../../src/actions/model.ts';

export const DIR = new URL('../fixtures/traces/toncenter-indexer/json/', import.meta.url).pathname;
type Doc = { transactions: Array<{ messages: Array<{ direction: string; opcode: string | null; message_content: { body: string } }> }> };
const docs = new Map<string, Doc>();
const doc = (f: string): Doc => {
  let d = docs.get(f);
  if (!d) docs.set(f, (d = parseJsonExact(readFileSync(join(DIR, f), 'utf8')) as Doc));
  return d;
};

export const load = (f: string): Trace => traceFromToncenterJson(parseJsonExact(readFileSync(join(DIR, f), 'utf8')));

/** The body of the n-th received message with this opcode in a fixture trace. */
export function bodyOf(file: string, opcode: number, nth = 0): Cell {
  let i = 0;
  for (const t of doc(file).transactions) {
    for (const m of t.messages) {
      if (m.direction === 'in' && m.opcode !== null && Number(m.opcode) >>> 0 === opcode && i++ === nth) return Cell.fromBase64(m.message_content.body);
    }
  }
  throw new Error(`no 0x${opcode.toString(16)} #${nth} in ${file}`);
}

/** The trace with every message passed through `f` (a copy; messages are matched by hash, so links hold). */
export function editMessages(trace: Trace, f: (m: TraceMessage) => TraceMessage): Trace {
  return {
    ...trace,
    transactions: trace.transactions.map((t) => ({ ...t, inMsg: t.inMsg ? f({ ...t.inMsg }) : null, outMsgs: t.outMsgs.map((m) => f({ ...m })) })),
  };
}

/** The trace with the n-th message of this opcode (both its copies) given another body. */
export function withBody(trace: Trace, opcode: number, body: (old: Cell) => Cell, nth = 0): Trace {
  const hashes = [...new Set(trace.transactions.flatMap((t) => [t.inMsg, ...t.outMsgs]).filter((m) => m !== null && m.opcode === opcode).map((m) => m!.hash))];
  const target = hashes[nth];
  if (target === undefined) throw new Error(`no 0x${opcode.toString(16)} #${nth}`);
  return editMessages(trace, (m) => (m.hash === target ? { ...m, body: body(Cell.fromBase64(m.body!)).toBoc().toString('base64'), opcode: body(Cell.fromBase64(m.body!)).beginParse().loadUint(32) >>> 0 } : m));
}

/** The trace without the external-out messages (logs) of this opcode. */
export function withoutLogs(trace: Trace, opcode: number, nth: number | null = null): Trace {
  let i = 0;
  return { ...trace, transactions: trace.transactions.map((t) => ({ ...t, outMsgs: t.outMsgs.filter((m) => !(m.destination === null && m.opcode === opcode && (nth === null || i++ === nth))) })) };
}

/** The trace without the interface records of these accounts (all records when `name` is omitted) */
export function withoutInterface(trace: Trace, accounts: string[], name?: string): Trace {
  const interfaces = { ...(trace.interfaces ?? {}) };
  for (const a of accounts) {
    const rec = interfaces[a];
    if (!rec) continue;
    if (name === undefined) delete interfaces[a];
    else interfaces[a] = { ...rec, raw: Object.fromEntries(Object.entries(rec.raw ?? {}).filter(([k]) => k !== name)) };
  }
  return { ...trace, interfaces };
}

export const actionsOf = (t: Trace, type?: string): ActionRow[] => classifyTrace(t).actions.filter((a) => type === undefined || a.type === type);
export const data = (a: ActionRow, col: string) => a[col as `${string}_data`] as Record<string, unknown>;
