/**
 * `balanceChanges` of a trace or of one action (reference: ton-index-go `crud/balances.go`
 * CalculateBalanceChanges + QueryBalanceChanges, read at toncenter/ton-indexer@0053ba46).
 *
 * The reference walks the trace tree and gives every transaction node:
 * - `fees[account] += total_fees` (the node's own transaction),
 * - for an internal in-message from S with value v: `value[S] -= v`, `value[account] += v`, and
 *   `fees[S] += fwd_fee` of that message (what S paid to forward it, charged where it lands),
 * - jetton transfer requests (`transfer#0f8a7ea5` in-messages of a jetton wallet): the owner sending
 *   (`in_msg.source`) loses `amount` of the wallet's master, the owner named in the body gains it.
 * `changes = value - fees` per address (so fees are inside `changes`), `fees` alone, `jettons` as decimal
 * strings. For an action the nodes of its transactions are merged, except its earliest transaction when
 * that one was started by an internal message (its value/fees belong to whoever sent it).
 *
 * Where this differs (each a case where the reference is wrong or fails):
 * - an internal message still in flight (no receiving transaction in the trace) is debited from its sender
 *   (value + fwd_fee) on the sending node; the reference dereferences the missing node and fails;
 * - external-out messages cost nothing extra (their forwarding fee is inside the sender's total_fees); the
 *   reference adds their fwd_fee on top, twice when the field is set;
 * - a transaction without an in-message (tick-tock) still pays its total_fees, and the messages it sends still charge
 *   their fwd_fee to it; the reference skips both;
 * - jettons come from the stored jetton_transfers / jetton_burns of the scope's transactions: aborted transfer
 *   requests move nothing (the reference counts them), burns are debited from the owner (the reference ignores
 *   burns), owners are the transfer's own source/destination (the reference re-resolves them through
 *   jetton_wallets and keys unknown ones as "");
 * - any action works (the reference only knows top-level actions of the default types and answers nulls for
 *   contract_deploy or child actions).
 */
import type { Db } from '../db.ts';

export interface BcMessage {
  hash: string;
  type: 'int' | 'ext_in' | 'ext_out';
  source: string | null;
  destination: string | null;
  value: bigint | null;
  fwdFee: bigint | null;
}

export interface BcTransaction {
  hash: string;
  account: string;
  lt: bigint;
  totalFees: bigint;
  inMsg: BcMessage | null;
  outMsgs: BcMessage[];
}

/** A jetton movement of one transaction: a transfer (from -> to) or a burn (from only). */
export interface BcJettonMove {
  txHash: string;
  master: string;
  from: string;
  to: string | null;
  amount: bigint;
  aborted: boolean;
}

export interface BalanceChanges {
  changes: Map<string, bigint>;
  fees: Map<string, bigint>;
  jettons: Map<string, Map<string, bigint>>;
}

function add(m: Map<string, bigint>, k: string | null, v: bigint): void {
  if (k === null) return;
  m.set(k, (m.get(k) ?? 0n) + v);
}

/**
 * Pure: balance changes of the transactions in `scope` (hashes) of a trace whose every transaction is
 * `txs`. `moves` are the trace's jetton transfers and burns.
 */
export function computeBalanceChanges(txs: readonly BcTransaction[], moves: readonly BcJettonMove[], scope?: ReadonlySet<string>): BalanceChanges {
  const received = new Set<string>();
  for (const t of txs) if (t.inMsg) received.add(t.inMsg.hash);
  const value = new Map<string, bigint>();
  const fees = new Map<string, bigint>();
  for (const t of txs) {
    if (scope && !scope.has(t.hash)) continue;
    add(fees, t.account, t.totalFees);
    const m = t.inMsg;
    if (m && m.type === 'int') {
      const v = m.value ?? 0n;
      add(value, m.source, -v);
      add(value, t.account, v);
      add(fees, m.source, m.fwdFee ?? 0n);
    }
    for (const o of t.outMsgs) {
      if (o.type !== 'int' || received.has(o.hash)) continue;
      // in flight: it left the sender and reached nobody in this trace yet
      add(value, t.account, -(o.value ?? 0n));
      add(fees, t.account, o.fwdFee ?? 0n);
    }
  }
  const changes = new Map(value);
  for (const [a, f] of fees) add(changes, a, -f);
  const jettons = new Map<string, Map<string, bigint>>();
  const addJ = (owner: string, master: string, v: bigint) => {
    const row = jettons.get(owner) ?? new Map<string, bigint>();
    jettons.set(owner, row);
    add(row, master, v);
  };
  for (const j of moves) {
    if (j.aborted || (scope && !scope.has(j.txHash))) continue;
    addJ(j.from, j.master, -j.amount);
    if (j.to !== null) addJ(j.to, j.master, j.amount);
  }
  return { changes, fees, jettons };
}

/**
 * The transactions an action's changes are taken from: its own, minus the earliest one when an internal
 * message started it (reference rule, see the module comment).
 */
export function actionScope(txs: readonly BcTransaction[], actionTxHashes: readonly string[]): Set<string> {
  const mine = txs.filter((t) => actionTxHashes.includes(t.hash)).sort((a, b) => (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0));
  const scope = new Set(mine.map((t) => t.hash));
  const first = mine[0];
  if (first?.inMsg && first.inMsg.type === 'int') scope.delete(first.hash);
  return scope;
}

const big = (v: unknown): bigint | null => (v === null || v === undefined ? null : BigInt(String(v)));

/** Every transaction of a trace with its messages, and the trace's jetton transfers and burns (null: unknown trace). */
export async function loadTraceForBalances(db: Db, traceId: string): Promise<{ txs: BcTransaction[]; moves: BcJettonMove[] } | null> {
  const keys = await db.q<{ account: string; lt: string; hash: string }>(
    'SELECT DISTINCT account, lt, hash FROM trace_transactions WHERE trace_id = {t:FixedString(64)}',
    { t: traceId },
  );
  if (keys.length === 0) return null;
  const k = keys.map((r) => [r.account, BigInt(r.lt)]);
  const hashes = keys.map((r) => r.hash);
  const [txRows, msgRows, transfers, burns] = await Promise.all([
    db.q<{ account: string; lt: string; hash: string; total_fees: string }>(
      'SELECT account, lt, hash, total_fees FROM transactions WHERE (account, lt) IN {k:Array(Tuple(String, UInt64))} LIMIT 1 BY account, lt',
      { k },
    ),
    db.q<{ tx_account: string; tx_lt: string; direction: string; msg_hash: string; message_type: string; source: string | null; destination: string | null; value: string | null; fwd_fee: string | null }>(
      `SELECT tx_account, tx_lt, direction, msg_hash, message_type, source, destination, value, fwd_fee
       FROM messages WHERE (tx_account, tx_lt) IN {k:Array(Tuple(String, UInt64))} LIMIT 1 BY tx_account, tx_lt, direction, msg_hash`,
      { k },
    ),
    db.q<{ tx_hash: string; tx_aborted: boolean | number; amount: string; source: string; destination: string; jetton_master_address: string }>(
      `SELECT tx_hash, tx_aborted, amount, source, destination, jetton_master_address FROM jetton_transfers
       WHERE tx_hash IN {h:Array(FixedString(64))} LIMIT 1 BY tx_lt, tx_hash`,
      { h: hashes },
    ),
    db.q<{ tx_hash: string; tx_aborted: boolean | number; amount: string; owner: string; jetton_master_address: string }>(
      `SELECT tx_hash, tx_aborted, amount, owner, jetton_master_address FROM jetton_burns
       WHERE tx_hash IN {h:Array(FixedString(64))} LIMIT 1 BY tx_lt, tx_hash`,
      { h: hashes },
    ),
  ]);
  const byTx = new Map<string, BcTransaction>();
  for (const t of txRows) {
    byTx.set(`${t.account}|${t.lt}`, { hash: t.hash, account: t.account, lt: BigInt(t.lt), totalFees: BigInt(t.total_fees), inMsg: null, outMsgs: [] });
  }
  for (const m of msgRows) {
    const t = byTx.get(`${m.tx_account}|${m.tx_lt}`);
    if (!t) continue;
    const msg: BcMessage = {
      hash: m.msg_hash, type: m.message_type as BcMessage['type'], source: m.source, destination: m.destination, value: big(m.value), fwdFee: big(m.fwd_fee),
    };
    if (m.direction === 'in') t.inMsg = msg;
    else t.outMsgs.push(msg);
  }
  const moves: BcJettonMove[] = [
    ...transfers.map((j) => ({ txHash: j.tx_hash, master: j.jetton_master_address, from: j.source, to: j.destination, amount: BigInt(j.amount), aborted: Boolean(j.tx_aborted) })),
    ...burns.map((j) => ({ txHash: j.tx_hash, master: j.jetton_master_address, from: j.owner, to: null, amount: BigInt(j.amount), aborted: Boolean(j.tx_aborted) })),
  ];
  return { txs: [...byTx.values()], moves };
}

/** The trace and the transactions of action `actionId`; null when no such action is indexed. */
export async function actionTraceAndTxs(db: Db, actionId: string): Promise<{ trace_id: string; tx_hashes: string[] } | null> {
  const [a] = await db.q<{ trace_id: string; tx_hashes: string[] }>(
    'SELECT trace_id, tx_hashes FROM actions FINAL WHERE action_id = {a:FixedString(64)} LIMIT 1',
    { a: actionId },
  );
  return a ?? null;
}
