/**
 * Every account state a block's transactions name, derived exactly from the block (no liteserver, no earlier block).
 *
 * A block carries an account's state after its last transaction (the new ShardState of the block's Merkle update),
 * sometimes its state before the first (the old ShardState, when the collator's usage tree kept the account's cell;
 * often it is pruned), and each transaction's own state hashes (HASH_UPDATE Account). The states in between exist
 * nowhere in the block. toncenter's indexer stores only the state after each account's last transaction of a block
 * (ton-index-worker DataParser `parse_transactions` keeps one AccountStateShort per address), so its API renders
 * the intermediate `account_state_before` / `account_state_after` with only `hash` set. Here they are derived:
 *
 * - balance and extra currencies, backwards from the state after the last transaction, by the currency flow the
 *   validator enforces for every transaction (validate-query.cpp: "violates the currency flow"):
 *   balance_before + imported = balance_after + exported + total_fees, imported = the internal in-message's value
 *   (+ its ihr_fee before global version 12), exported = every internal out-message's value + fwd_fee (+ ihr_fee);
 * - status: the transaction's orig_status / end_status;
 * - code, data and frozen hashes: proved by the state's own hash, rebuilding its Account cell from a state the block
 *   has (the state after the last transaction, the state before the first when present, a state proved before) with
 *   the balance, last_trans_lt (the transaction's end lt), last_paid and due_payment it must have; where no rebuild
 *   matches, carried over a transaction that cannot have changed them (code: no successful action phase with special
 *   actions, i.e. no SETCODE; data: a skipped compute phase, so no TVM run; frozen hash: frozen before and after),
 *   or set by a deploy's StateInit (code); absent for uninit / nonexist / frozen states as their status says.
 *   Otherwise (the TVM ran and changed the data, or set_code may have run, and no rebuild proves the result) the
 *   field is not known: null, as toncenter renders the whole state.
 */
import type { Cells } from '../cell/boc.ts';
import { CELL_PRUNED, parseBoc } from '../cell/boc.ts';
import { accountCellHash, readAccountTemplate, type AccountTemplate, type AccountValues } from '../tlb/account-cell.ts';
import type { AccountStatus, ExtraCurrencies } from '../tlb/common.ts';
import { EXTRA_FLAGS_VERSION } from '../tlb/message.ts';
import type { TransactionRow } from '../tlb/transaction.ts';

/** One derived state: the AccountStateRow fields, with `complete` false when a code / data / frozen hash is unknown. */
export interface DerivedState {
  hash: string;
  balance: bigint;
  balance_extra_currencies: ExtraCurrencies;
  account_status: AccountStatus;
  frozen_hash: string | null;
  code_hash: string | null;
  data_hash: string | null;
  /** every field is the state's own (rebuilt and hash-checked, read from the block, or carried by the rules above) */
  complete: boolean;
  /** how code / data / frozen were established: the Account cell rebuilt to the state hash, read from the block, or rules */
  proof: 'block' | 'rebuilt' | 'rules';
}

export interface AccountStates {
  /** states[0]: before the first transaction; states[i]: after transaction i (1-based), states[n]: the block's end state */
  states: DerivedState[];
}

/** `undefined`: not known; `null`: known to be absent. */
type Known<T> = T | null | undefined;

interface Work {
  hash: string;
  status: AccountStatus;
  balance: bigint;
  extra: Map<number, bigint>;
  tpl: AccountTemplate | null;
  code: Known<string>;
  data: Known<string>;
  frozen: Known<string>;
  proof: DerivedState['proof'];
}

function extraMap(e: ExtraCurrencies): Map<number, bigint> {
  const m = new Map<number, bigint>();
  if (e) for (const [k, v] of Object.entries(e)) if (v !== 0n) m.set(Number(k), v);
  return m;
}

function addExtra(into: Map<number, bigint>, e: ExtraCurrencies, sign: 1n | -1n): void {
  if (!e) return;
  for (const [k, v] of Object.entries(e)) {
    const id = Number(k);
    const x = (into.get(id) ?? 0n) + sign * v;
    if (x === 0n) into.delete(id);
    else into.set(id, x);
  }
}

function extraOf(m: Map<number, bigint>): ExtraCurrencies {
  if (m.size === 0) return null;
  const out: Record<string, bigint> = {};
  for (const k of [...m.keys()].sort((a, b) => a - b)) out[String(k)] = m.get(k)!;
  return out;
}

function sameExtra(a: Map<number, bigint>, b: ExtraCurrencies): boolean {
  const bm = extraMap(b);
  if (a.size !== bm.size) return false;
  for (const [k, v] of a) if (bm.get(k) !== v) return false;
  return true;
}

/** The currency flow of one transaction: what came in with the in-message and what left with the out-messages. */
function flow(tx: TransactionRow, globalVersion: number): { grams: bigint; extra: Map<number, bigint> } {
  const ihr = globalVersion < EXTRA_FLAGS_VERSION;
  let grams = -tx.total_fees;
  const extra = new Map<number, bigint>();
  addExtra(extra, tx.total_fees_extra_currencies, -1n);
  const m = tx.in_msg;
  if (m && m.message_type === 'int') {
    grams += m.value! + (ihr ? (m.ihr_fee ?? 0n) : 0n);
    addExtra(extra, m.value_extra_currencies, 1n);
  }
  for (const o of tx.out_msgs) {
    if (o.message_type !== 'int') continue;
    grams -= o.value! + o.fwd_fee! + (ihr ? (o.ihr_fee ?? 0n) : 0n);
    addExtra(extra, o.value_extra_currencies, -1n);
  }
  return { grams, extra };
}

/** No SETCODE can have taken effect: no action phase, a failed one, or one without special actions. */
function keepsCode(tx: TransactionRow): boolean {
  const a = tx.description.action;
  return !a || !a.success || a.spec_actions === 0;
}

/** The TVM did not run, so c4 was not committed (a compute phase skipped, or a transaction kind without one). */
function keepsData(tx: TransactionRow): boolean {
  const d = tx.description;
  if (d.type === 'storage' || d.type === 'merge_prepare' || d.type === 'split_install') return true;
  return d.compute_ph?.skipped === true;
}

/** The code hash of the StateInit a deploy's in-message carries (undefined when it carries none or no code). */
function initCodeHash(tx: TransactionRow): Known<string> {
  const boc = tx.in_msg?.init_state_boc;
  if (!boc) return undefined;
  const cells = parseBoc(Buffer.from(boc, 'base64'));
  const root = cells.roots[0];
  // _ split_depth:(Maybe (## 5)) special:(Maybe TickTock) code:(Maybe ^Cell) ...
  const off = cells.dataOff[root] * 8;
  const bit = (p: number) => (cells.buf[p >> 3] >> (7 - (p & 7))) & 1;
  let p = off;
  if (bit(p++)) p += 5;
  if (bit(p++)) p += 2;
  if (!bit(p)) return null;
  return cells.hash0Hex(cells.refs[root * 4]);
}

function fromTemplate(w: Work, t: AccountTemplate, proof: DerivedState['proof']): void {
  w.tpl = t;
  w.code = t.code_hash;
  w.data = t.data_hash;
  w.frozen = t.frozen_hash;
  w.proof = proof;
}

/** Candidate values of the fields a transaction rewrites in the Account cell. */
function valueCandidates(tx: TransactionRow, w: Work, cand: AccountTemplate): AccountValues[] {
  const extraRef = w.extra.size === 0 ? null : sameExtra(w.extra, cand.extra) ? cand.extraRef : undefined;
  if (extraRef === undefined) return [];
  const lt = tx.lt + BigInt(tx.outmsg_cnt) + 1n;
  const st = tx.description.storage_ph;
  const cr = tx.description.credit_ph;
  const dues = new Set<bigint | null>([null, cand.due_payment]);
  if (st?.storage_fees_due != null) {
    dues.add(st.storage_fees_due);
    if (cr?.due_fees_collected != null) dues.add(st.storage_fees_due - cr.due_fees_collected);
  }
  const out: AccountValues[] = [];
  for (const last_paid of new Set([tx.now, cand.last_paid])) {
    for (const due_payment of dues) {
      if (due_payment !== null && due_payment < 0n) continue;
      out.push({ last_paid, due_payment, last_trans_lt: lt, balance: w.balance, extraRef });
    }
  }
  return out;
}

/** Try to prove state `w` (after `tx`) by rebuilding its Account cell from candidate templates. */
function rebuild(tx: TransactionRow, w: Work, candidates: (AccountTemplate | null)[]): boolean {
  for (const cand of candidates) {
    if (!cand || cand.status !== w.status) continue;
    for (const v of valueCandidates(tx, w, cand)) {
      if (accountCellHash(cand, v) !== w.hash) continue;
      fromTemplate(w, { ...cand, hash: w.hash, last_paid: v.last_paid, due_payment: v.due_payment, last_trans_lt: v.last_trans_lt, balance: v.balance, extra: extraOf(w.extra), extraRef: v.extraRef }, 'rebuilt');
      return true;
    }
  }
  return false;
}

/** Fields the status alone settles. */
function byStatus(w: Work): void {
  if (w.status !== 'active') {
    if (w.code === undefined) w.code = null;
    if (w.data === undefined) w.data = null;
  }
  if (w.status !== 'frozen' && w.frozen === undefined) w.frozen = null;
}

/**
 * Derive the states of one account's transactions in one block. `txs`: the account's transactions in lt order;
 * `before` / `after`: the Account cells of the old / new ShardState (-1 when the block does not carry it: absent from
 * the new state means the account does not exist after the block). Returns null when the transactions' state hashes
 * do not chain (not one account's consecutive transactions).
 */
export function deriveAccountStates(
  cells: Cells,
  txs: TransactionRow[],
  before: number,
  after: number,
  afterAbsent: boolean,
  globalVersion: number,
  /** `rebuild: false` leaves the intermediate states to the rules alone (tests compare the two) */
  opts: { rebuild?: boolean } = {},
): AccountStates | null {
  const n = txs.length;
  for (let i = 1; i < n; i++) if (txs[i].account_state_hash_before !== txs[i - 1].account_state_hash_after) return null;
  const w: Work[] = [];
  for (let i = 0; i <= n; i++) {
    w.push({
      hash: i === 0 ? txs[0].account_state_hash_before : txs[i - 1].account_state_hash_after,
      status: i === 0 ? txs[0].orig_status : txs[i - 1].end_status,
      balance: 0n,
      extra: new Map(),
      tpl: null,
      code: undefined,
      data: undefined,
      frozen: undefined,
      proof: 'rules',
    });
  }
  // the end state: from the new ShardState (or nonexistent)
  const end = w[n];
  if (!afterAbsent) {
    if (after < 0 || cells.type[after] === CELL_PRUNED) return null;
    const t = readAccountTemplate(cells, after);
    if (t) {
      if (t.hash !== end.hash) return null;
      fromTemplate(end, t, 'block');
      end.balance = t.balance;
      end.extra = extraMap(t.extra);
    } else if (end.status !== 'nonexist') return null;
  } else if (end.status !== 'nonexist') return null;
  // balances backwards by the currency flow
  for (let i = n; i >= 1; i--) {
    const f = flow(txs[i - 1], globalVersion);
    w[i - 1].balance = w[i].balance - f.grams;
    const e = new Map(w[i].extra);
    for (const [k, v] of f.extra) {
      const x = (e.get(k) ?? 0n) - v;
      if (x === 0n) e.delete(k);
      else e.set(k, x);
    }
    w[i - 1].extra = e;
  }
  // the state before: from the old ShardState when the block kept it
  if (before >= 0 && cells.type[before] !== CELL_PRUNED) {
    const t = readAccountTemplate(cells, before);
    if (t && t.hash === w[0].hash && t.balance === w[0].balance && sameExtra(w[0].extra, t.extra)) fromTemplate(w[0], t, 'block');
  }
  // intermediate states: rebuilt from the nearest proved states, backwards then forwards
  if (opts.rebuild !== false) {
    for (let i = n - 1; i >= 1; i--) rebuild(txs[i - 1], w[i], [w[i + 1].tpl, w[n].tpl, w[0].tpl]);
    for (let i = 1; i < n; i++) if (!w[i].tpl) rebuild(txs[i - 1], w[i], [w[i - 1].tpl, w[0].tpl]);
  }
  for (const x of w) byStatus(x);
  // what the transactions cannot have changed, carried both ways until nothing moves
  for (let changed = true; changed; ) {
    changed = false;
    for (let i = 1; i <= n; i++) {
      const tx = txs[i - 1];
      const a = w[i - 1];
      const b = w[i];
      const activeBoth = tx.orig_status === 'active' && tx.end_status === 'active';
      if (activeBoth && keepsCode(tx)) changed = carry(a, b, 'code') || changed;
      if (activeBoth && keepsData(tx)) changed = carry(a, b, 'data') || changed;
      if (tx.orig_status === 'frozen' && tx.end_status === 'frozen') changed = carry(a, b, 'frozen') || changed;
      if (!activeBoth && tx.end_status === 'active' && b.code === undefined && keepsCode(tx)) {
        const c = initCodeHash(tx);
        if (c !== undefined) {
          b.code = c;
          changed = true;
        }
      }
    }
  }
  return {
    states: w.map((x) => ({
      hash: x.hash,
      balance: x.balance,
      balance_extra_currencies: extraOf(x.extra),
      account_status: x.status,
      frozen_hash: x.frozen ?? null,
      code_hash: x.code ?? null,
      data_hash: x.data ?? null,
      complete: x.code !== undefined && x.data !== undefined && x.frozen !== undefined,
      proof: x.proof,
    })),
  };
}

function carry(a: Work, b: Work, f: 'code' | 'data' | 'frozen'): boolean {
  if (a[f] !== undefined && b[f] === undefined) {
    b[f] = a[f];
    return true;
  }
  if (b[f] !== undefined && a[f] === undefined) {
    a[f] = b[f];
    return true;
  }
  return false;
}
