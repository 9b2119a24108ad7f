/**
 * Transaction documents (`transaction_docs_kv`, clickhouse/0012 and 0013, keyed by hash): per transaction, the rows the API renders it from,
 * in one JSON string, so a point read is one column instead of ~90 over four tables. Pure; built from the same
 * rows the writer inserts into the flattened tables, so both say the same thing.
 *
 * Account states: `account_states` holds each account's state at the end of each block and, since the decoder derives
 * them (src/ton/block/states.ts), the states between an account's transactions inside a block (with the code / data
 * hashes the block proves) and its state before its first one when the block determines it completely. A document
 * holds the states its transaction names that the block gives: after (the end state or an intermediate one), before
 * (an intermediate one, the previous block's end state when the writer still holds it (`PriorStates`), or the
 * block's own complete one); otherwise the reader looks the state before up by (account, hash). `absent` lists hashes
 * no table holds: intermediate states of documents written before the derivation (rendered with only their hash, as
 * toncenter renders every intermediate state), and any the derivation could not give.
 */
import { BoundedMap } from '../util/index.ts';
import type { Row } from '../util/index.ts';

/**
 * Stored layout (version 1): `[1, tx, msgs, contents, states, absent]`, rows as value arrays in the field orders
 * below: names repeated per row were half of a document's bytes. Message rows leave out what their transaction
 * gives (tx_account, tx_lt, tx_hash, mc_seqno, trace_id), state rows their account. A change to the rows' columns
 * needs a new version here (a test compares these lists with the row builders' keys); older documents keep theirs.
 */
export const TX_FIELDS = [
  'account', 'lt', 'hash', 'now', 'block_workchain', 'block_shard', 'block_seqno', 'mc_block_seqno', 'trace_id', 'prev_trans_hash',
  'prev_trans_lt', 'orig_status', 'end_status', 'total_fees', 'total_fees_extra_currencies', 'account_state_hash_before',
  'account_state_hash_after', 'descr', 'aborted', 'destroyed', 'credit_first', 'is_tock', 'installed', 'storage_fees_collected',
  'storage_fees_due', 'storage_status_change', 'credit_due_fees_collected', 'credit', 'credit_extra_currencies', 'compute_skipped',
  'skipped_reason', 'compute_success', 'compute_msg_state_used', 'compute_account_activated', 'compute_gas_fees', 'compute_gas_used',
  'compute_gas_limit', 'compute_gas_credit', 'compute_mode', 'compute_exit_code', 'compute_exit_arg', 'compute_vm_steps',
  'compute_vm_init_state_hash', 'compute_vm_final_state_hash', 'action_success', 'action_valid', 'action_no_funds', 'action_status_change',
  'action_total_fwd_fees', 'action_total_action_fees', 'action_result_code', 'action_result_arg', 'action_tot_actions',
  'action_spec_actions', 'action_skipped_actions', 'action_msgs_created', 'action_action_list_hash', 'action_tot_msg_size_cells',
  'action_tot_msg_size_bits', 'bounce', 'bounce_msg_size_cells', 'bounce_msg_size_bits', 'bounce_req_fwd_fees', 'bounce_msg_fees',
  'bounce_fwd_fees', 'split_info_cur_shard_pfx_len', 'split_info_acc_split_depth', 'split_info_this_addr', 'split_info_sibling_addr',
] as const;
export const MSG_FIELDS = [
  'direction', 'msg_hash', 'msg_hash_norm', 'message_type', 'source', 'destination', 'value', 'value_extra_currencies', 'fwd_fee',
  'ihr_fee', 'extra_flags', 'created_lt', 'created_at', 'opcode', 'ihr_disabled', 'bounce', 'bounced', 'import_fee', 'body_hash',
  'init_state_hash',
] as const;
export const STATE_FIELDS = ['hash', 'balance', 'extra_currencies', 'account_status', 'frozen_hash', 'data_hash', 'code_hash', 'last_trans_lt'] as const;
const LAYOUT = 1;

/**
 * A row's values in `fields` order, bigint as decimal strings (as the store's JSON output prints 64-bit and wider
 * integers; maps of them too): done here so JSON.stringify runs without a replacer, which made it several times slower.
 */
function values(row: Row, fields: readonly string[]): unknown[] {
  const out = new Array<unknown>(fields.length);
  for (let i = 0; i < fields.length; i++) out[i] = jsonValue(row[fields[i]]);
  return out;
}

function jsonValue(v: unknown): unknown {
  if (typeof v === 'bigint') return v.toString();
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
  let o: Record<string, unknown> | null = null;
  for (const [k, x] of Object.entries(v)) (o ??= {})[k] = typeof x === 'bigint' ? x.toString() : x;
  return o ?? {};
}

/**
 * A function building a row from its values in `fields` order, after the `prefix` fields (given as further arguments),
 * keys in that order. Generated once per layout: an object literal with fixed keys is cloned from one boilerplate
 * shape, where assigning 70 keys one by one walked 70 map transitions per row (the largest cost of reading a
 * document in a `bench:api` profile). The keys are this module's constants, never input.
 */
function rowBuilder(fields: readonly string[], prefix: readonly string[] = []): (vals: unknown[], ...pre: unknown[]) => Row {
  const props = [...prefix.map((f, i) => `${JSON.stringify(f)}: p${i}`), ...fields.map((f, i) => `${JSON.stringify(f)}: v[${i}]`)];
  return new Function('v', ...prefix.map((_, i) => `p${i}`), `return { ${props.join(', ')} };`) as (vals: unknown[], ...pre: unknown[]) => Row;
}

const txRow = rowBuilder(TX_FIELDS);
const msgRow = rowBuilder(MSG_FIELDS, ['tx_account', 'tx_lt', 'tx_hash', 'mc_seqno', 'trace_id']);
const stateRow = rowBuilder(STATE_FIELDS, ['account']);

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
export class PriorStates extends BoundedMap<string, Row> {
  constructor(max = 100_000) {
    super(max);
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
  /** account_states rows of the block's other states (intermediate; complete states before), by their hash */
  transitional?: readonly Row[];
}

const txKey = (account: unknown, lt: unknown) => `${account}|${lt}`;

/** A message row's body and init-state hashes: the keys of its contents (`message_contents`, a document's `contents`). */
export function contentHashes(m: Row): string[] {
  const out: string[] = [];
  for (const h of [m.body_hash, m.init_state_hash]) if (typeof h === 'string' && h) out.push(h);
  return out;
}

/** transaction_docs_kv rows for one block; `prior` is read for states before and then takes the block's end states. */
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
  const byHash = new Map<string, Row>();
  for (const s of input.transitional ?? []) byHash.set(`${s.account}|${s.hash}`, s);
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
    const own = (h: string) => byHash.get(`${a}|${h}`);
    if (lt !== first.get(a)) {
      const st = own(before);
      if (st) states[before] = st;
      else absent.push(before);
    } else {
      const p = prior?.get(a);
      const st = p && p.hash === before ? p : own(before);
      if (st) states[before] = st;
    }
    if (lt !== last.get(a)) {
      const st = own(after);
      if (st) states[after] = st;
      else absent.push(after);
    } else {
      const e = endState.get(a);
      if (e && e.hash === after) states[after] = e;
    }
    const msgs = msgsOf.get(txKey(t.account, t.lt)) ?? [];
    const contents: Record<string, string> = {};
    for (const m of msgs) {
      for (const h of contentHashes(m)) {
        const boc = input.contents.get(h);
        if (boc !== undefined) contents[h] = boc;
      }
    }
    out.push({ account: t.account, lt: t.lt, hash: t.hash, traced: t.trace_id == null ? 0 : 1, doc: stringifyTxDoc({ tx: t, msgs, contents, states, absent }) });
  }
  if (prior) for (const [a, s] of endState) prior.set(a, s);
  return out;
}

/** A document in its stored layout (message rows' transaction fields and state rows' account are taken from `doc.tx`). */
export function stringifyTxDoc(doc: TxDoc): string {
  const states: Record<string, unknown[]> = {};
  for (const [h, st] of Object.entries(doc.states)) states[h] = values(st, STATE_FIELDS);
  return JSON.stringify([LAYOUT, values(doc.tx, TX_FIELDS), doc.msgs.map((m) => values(m, MSG_FIELDS)), doc.contents, states, doc.absent]);
}

/**
 * Parsed documents, by the beginning of their text: the transaction's account, lt and hash come first in the stored
 * layout (TX_FIELDS), within the first 170 characters, so a short key finds a transaction's document without hashing
 * a text of up to 256 KB on every read. A hit is only a hit when the whole text is the same (a document rewritten
 * with its trace id is another text): nothing to invalidate. Point reads of the API parse the same documents over and
 * over (a message's two transactions, a trace's, an account's latest page), and parsing was most of their CPU. The
 * API makes one per network it serves (src/api/v3/caches.ts) and its requests share it.
 *
 * Bounded by the texts' total length (8 Mi characters, about 20 MB with the parsed rows), not their count:
 * documents run from 1 KB to 256 KB. Held by count (4,096), the bench's message sample kept about 80 MB more on
 * the JS heap, and routes that never read a document ran slower beside it (bench/README.md, "The parsed-document
 * cache bounded by size").
 */
export class TxDocCache {
  private readonly parsed = new BoundedMap<string, { text: string; doc: TxDoc }>(Infinity, { weigh: (e) => e.text.length, maxWeight: 8 * 2 ** 20 });

  /** parseTxDoc, the result shared with every caller of this cache that reads the same text. */
  parse(text: string): TxDoc {
    const key = text.slice(0, KEY_CHARS);
    const hit = this.parsed.get(key);
    if (hit && hit.text === text) return hit.doc;
    const doc = parseTxDoc(text);
    if (text.length <= MAX_CACHED_DOC_CHARS) this.parsed.set(key, { text, doc });
    return doc;
  }
}

/** Characters of a text that identify its transaction (see TxDocCache). */
const KEY_CHARS = 192;
/**
 * Longer documents (a transaction with dozens or hundreds of messages: in the bench's 1M store 1 in 400 of all, but
 * over 1 in 10 of those a random message is read from) are parsed every time rather than held. Held, each pushed out
 * hundreds of small ones and was itself gone before its next read, after surviving into the old generation.
 */
const MAX_CACHED_DOC_CHARS = 16 * 1024;

/**
 * A stored document back as rows (the shapes the flattened tables read as), frozen: a reader that caches it
 * (TxDocCache) shares it between its callers, who render from it and never change it.
 */
export function parseTxDoc(text: string): TxDoc {
  return freezeDoc(parseTxDocText(text));
}

function parseTxDocText(text: string): TxDoc {
  const [layout, tx, msgs, contents, states, absent] = JSON.parse(text) as [number, unknown[], unknown[][], Record<string, string>, Record<string, unknown[]>, string[]];
  if (layout !== LAYOUT) throw new Error(`transaction document layout ${layout} is not known to this version`);
  const t = txRow(tx);
  const msgRows = msgs.map((m) => msgRow(m, t.account, t.lt, t.hash, t.mc_block_seqno, t.trace_id));
  const stateRows: Record<string, Row> = {};
  for (const [h, v] of Object.entries(states)) stateRows[h] = stateRow(v, t.account);
  return { tx: t, msgs: msgRows, contents, states: stateRows, absent };
}

/** Freezes a parsed document's rows and lists (values inside rows are strings, numbers, null or small maps). */
function freezeDoc(d: TxDoc): TxDoc {
  Object.freeze(d.tx);
  for (const m of d.msgs) Object.freeze(m);
  Object.freeze(d.msgs);
  Object.freeze(d.contents);
  for (const st of Object.values(d.states)) Object.freeze(st);
  Object.freeze(d.states);
  Object.freeze(d.absent);
  return Object.freeze(d);
}
