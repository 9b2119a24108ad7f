/**
 * Transaction documents (`transaction_docs`, clickhouse/0012): per transaction, the rows the API renders it from,
 * in one JSON string, so a point read is one column instead of ~90 over four tables. Pure; built from the same
 * rows the writer inserts into the flattened tables, so both say the same thing.
 *
 * Account states: `account_states` holds each account's state at the end of each block, so a transaction's
 * state after is stored only when it is the account's last in its block, and its state before only when it is
 * the first (the end state of an earlier block). The other hashes are intermediate states that no table holds:
 * the document lists them as `absent`. A first transaction's state before goes in when the writer still holds
 * that earlier block's end state (`PriorStates`); otherwise the reader looks it up by (account, hash).
 */
import type { Row } from './rows.ts';

export interface TxDoc {
  tx: Row;
  /** in / out message rows */
  msgs: Row[];
  /** body / init-state hash -> BoC (base64), for the messages' contents */
  contents: Record<string, string>;
  /** state hash -> account_states row, for the before / after states the writer knew */
  states: Record<string, Row>;
  /** state hashes no table holds (intermediate states inside a block) */
  absent: string[];
}

/** End states of accounts seen in earlier blocks (account -> account_states row), bounded, oldest out first. */
export class PriorStates {
  private readonly m = new Map<string, Row>();
  constructor(private readonly max = 100_000) {}

  get(account: string): Row | undefined {
    return this.m.get(account);
  }

  set(account: string, row: Row): void {
    this.m.delete(account); // re-insert: the map's order is the eviction order
    this.m.set(account, row);
    if (this.m.size > this.max) this.m.delete(this.m.keys().next().value as string);
  }
}

/** The rows of one block a document set is built from (the rows' own values: bigint, string, null, …). */
export interface BlockDocInput {
  transactions: readonly Row[];
  messages: readonly Row[];
  /** body / init-state hash -> BoC */
  contents: ReadonlyMap<string, string>;
  /** the block's account_states rows (one per account: its state after the block) */
  states: readonly Row[];
}

const txKey = (account: unknown, lt: unknown) => `${account}|${lt}`;

/** transaction_docs rows for one block; `prior` is read for states before and then takes the block's end states. */
export function blockDocRows(input: BlockDocInput, prior?: PriorStates): Row[] {
  const msgsOf = new Map<string, Row[]>();
  for (const m of input.messages) {
    const k = txKey(m.tx_account, m.tx_lt);
    const l = msgsOf.get(k);
    if (l) l.push(m);
    else msgsOf.set(k, [m]);
  }
  const endState = new Map<string, Row>();
  for (const s of input.states) endState.set(String(s.account), s);
  // first and last transaction of each account in the block
  const first = new Map<string, bigint>();
  const last = new Map<string, bigint>();
  for (const t of input.transactions) {
    const a = String(t.account);
    const lt = BigInt(t.lt as bigint | string);
    const f = first.get(a);
    if (f === undefined || lt < f) first.set(a, lt);
    const l = last.get(a);
    if (l === undefined || lt > l) last.set(a, lt);
  }
  const out: Row[] = [];
  for (const t of input.transactions) {
    const a = String(t.account);
    const lt = BigInt(t.lt as bigint | string);
    const before = String(t.account_state_hash_before);
    const after = String(t.account_state_hash_after);
    const states: Record<string, Row> = {};
    const absent: string[] = [];
    if (lt !== first.get(a)) absent.push(before);
    else {
      const p = prior?.get(a);
      if (p && p.hash === before) states[before] = p;
    }
    if (lt !== last.get(a)) absent.push(after);
    else {
      const e = endState.get(a);
      if (e && e.hash === after) states[after] = e;
    }
    const msgs = msgsOf.get(txKey(t.account, t.lt)) ?? [];
    const contents: Record<string, string> = {};
    for (const m of msgs) {
      for (const h of [m.body_hash, m.init_state_hash]) {
        const boc = typeof h === 'string' ? input.contents.get(h) : undefined;
        if (boc !== undefined) contents[h as string] = boc;
      }
    }
    const doc: TxDoc = { tx: t, msgs, contents, states, absent };
    out.push({ account: t.account, lt: t.lt, hash: t.hash, traced: t.trace_id == null ? 0 : 1, doc: JSON.stringify(doc, bigintText) });
  }
  if (prior) for (const [a, s] of endState) prior.set(a, s);
  return out;
}

/** JSON.stringify replacer: bigint as its decimal string, as the store's JSON output prints 64-bit and wider integers. */
function bigintText(_k: string, v: unknown): unknown {
  return typeof v === 'bigint' ? v.toString() : v;
}

export function parseTxDoc(text: string): TxDoc {
  return JSON.parse(text) as TxDoc;
}
