/**
 * An emulated trace in the store's row forms, so that API v3 and the streaming API render it with the renderers of
 * indexed data: each transaction decoded by the block decoder's transaction reader, its documents built as a block's
 * (src/store `blockToRows`, the states before and after each transaction from the emulator's ShardAccounts), the trace
 * folded by the traces stage's assembler and classified by the same classifier, with the interface records the
 * indexer would read for it (the store's, overlaid with the states the emulation produced) and the DeDust pool list
 * the indexer's classifier falls back on (`--dedust-pools-api`).
 */
import { Cell } from '@ton/core';
import type { DedustPoolList } from '../actions/index.ts';
import { blockToRows } from '../decode/index.ts';
import type { StoreClient } from '../store/client/index.ts';
import type { Row } from '../util/index.ts';
import { ACCOUNT_NONE_HASH, decodeAccount, decodeTransaction, type AccountStateRow, type DecodedBlock, type TransactionRow, type TransactionStateRow } from '../ton/index.ts';
import { assembleBatch, createTracesContext, loadTraceContext, TraceAssembler, type AccountSnapshot, type TraceContextSource, type TraceRow } from '../traces/index.ts';
import type { EmulatedTrace } from './trace.ts';

/** A value in the store's JSON form: bigint as a decimal string (the feed's rows, schemas/bus/notifications.ts). */
function jsonValue(v: unknown): unknown {
  if (typeof v === 'bigint') return v.toString();
  if (Array.isArray(v)) return v.map(jsonValue);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, jsonValue(x)]));
  return v;
}

export interface EmulatedRows {
  /** hex hash of the external message, and its normalized hash (trace_external_hash_norm) */
  externalHash: string;
  norm: string;
  mcSeqno: number;
  /** the `traces` row as the assembler makes it (JSON form); trace_id is the root transaction's hash */
  trace: Row;
  /** transaction_docs_kv documents, in emulation order (the root first) */
  docs: string[];
  /** the decoded transactions, same order */
  txs: TransactionRow[];
  /** action rows with their accounts (JSON form), as the feed carries them; [] when the trace was cut by a bound */
  actions: { row: Row; accounts: string[] }[];
  /** accounts of the transactions (raw) */
  accounts: string[];
  /** code and data cells of the accounts' states after the trace: hash (hex) -> BoC (base64), for emulateTrace's include_code_data */
  cells: { code: Map<string, string>; data: Map<string, string> };
  limitExceeded: boolean;
  randSeed: string;
}

function stateRow(account: string, shardAccount: Cell, timestamp: number): AccountStateRow {
  const acc = shardAccount.refs[0];
  const s = shardAccount.beginParse();
  s.loadRef();
  const lastHash = s.loadUintBig(256).toString(16).padStart(64, '0');
  const lastLt = s.loadUintBig(64);
  const info = decodeAccount(acc.toBoc());
  return {
    account,
    hash: info.status === 'nonexist' ? ACCOUNT_NONE_HASH : acc.hash().toString('hex'),
    last_trans_hash: lastHash,
    last_trans_lt: lastLt,
    balance: info.balance,
    balance_extra_currencies: info.extra,
    account_status: info.status,
    frozen_hash: info.frozen_hash,
    code_hash: info.code_hash,
    data_hash: info.data_hash,
    code_boc: info.code_boc,
    data_boc: info.data_boc,
    data_root_boc: info.data_root_boc,
    timestamp,
  };
}

function transitional(st: AccountStateRow): TransactionStateRow {
  return {
    account: st.account, hash: st.hash, last_trans_hash: st.last_trans_hash, last_trans_lt: st.last_trans_lt, balance: st.balance,
    balance_extra_currencies: st.balance_extra_currencies, account_status: st.account_status, frozen_hash: st.frozen_hash, code_hash: st.code_hash,
    data_hash: st.data_hash, complete: true, proof: 'rebuilt', timestamp: st.timestamp,
  };
}

/**
 * The emulated transactions as decoded rows and the blocks-like groups their documents are built from: one group per
 * account (its transactions in order), so each transaction's states before and after are the emulator's.
 */
function decoded(trace: EmulatedTrace, utime: number): { txs: TransactionRow[]; blocks: DecodedBlock[] } {
  const txs: TransactionRow[] = [];
  const byAccount = new Map<string, { rows: TransactionRow[]; states: AccountStateRow[]; block: EmulatedTrace['txs'][number]['block'] }>();
  for (const e of trace.txs) {
    const row = decodeTransaction(e.tx.toBoc(), e.address.workChain);
    row.block_ref = { workchain: e.block.workchain, shard: e.block.shard, seqno: e.block.seqno };
    txs.push(row);
    let g = byAccount.get(e.account);
    if (!g) byAccount.set(e.account, (g = { rows: [], states: [stateRow(e.account, e.before, utime)], block: e.block }));
    g.rows.push(row);
    g.states.push(stateRow(e.account, e.after, utime));
  }
  const blocks: DecodedBlock[] = [];
  for (const g of byAccount.values()) {
    const states = g.states;
    // only what blockToRows reads for the traced tables: the block id, its transactions and their states
    blocks.push({
      id: { workchain: g.block.workchain, shard: g.block.shard, seqno: g.block.seqno, root_hash: '', file_hash: '' },
      transactions: g.rows,
      account_states: [states[states.length - 1]],
      states_before: [transitional(states[0])],
      intermediate_states: states.slice(1, -1).map(transitional),
    } as unknown as DecodedBlock);
  }
  return { txs, blocks };
}

/** The interface records the classifier reads: the store's for these addresses, the emulation's states over them. */
async function contextFor(store: StoreClient, txs: TransactionRow[], emulated: AccountStateRow[]): Promise<TraceContextSource> {
  const addresses = new Set<string>();
  for (const t of txs) {
    addresses.add(t.account);
    for (const m of [t.in_msg, ...t.out_msgs]) {
      if (m?.source) addresses.add(m.source);
      if (m?.destination) addresses.add(m.destination);
    }
  }
  // The traces stage keeps caches in its context (its recent states, the addresses known absent and its batch
  // counter): an emulation must neither read the indexer's nor write into them, so it reads with a context of its
  // own, for this emulation only (no states of it to learn: an address found absent now may have a row later), and
  // passes no states
  const base = await loadTraceContext(createTracesContext({ store }), { addresses, states: [] });
  const states = new Map<string, AccountSnapshot>(base.states);
  const codes = new Map<string, Cell>(base.codes);
  for (const st of emulated) {
    states.set(st.account, { status: st.account_status, balance: st.balance, codeHash: st.code_hash?.toLowerCase() ?? null, dataBoc: st.data_root_boc ?? st.data_boc, lastTransLt: st.last_trans_lt });
    if (st.code_hash && st.code_boc && !codes.has(st.code_hash.toLowerCase())) codes.set(st.code_hash.toLowerCase(), Cell.fromBase64(st.code_boc));
  }
  return { ...base, states, codes };
}

/**
 * The rows of an emulated trace; `store` gives the classifier's context, `dedustPools` the pool list it falls back on
 * for a pool no record describes (default: none).
 */
export async function emulatedRows(trace: EmulatedTrace, deps: { store: StoreClient; utime: number; dedustPools?: DedustPoolList }): Promise<EmulatedRows> {
  const { txs, blocks } = decoded(trace, deps.utime);
  const docs = new Map<string, string>();
  for (const b of blocks) {
    // trace_id null in the documents: upstream's emulated transactions carry none (their root is not on chain)
    const rows = blockToRows(b, { mcSeqno: trace.mcSeqno, tables: 'traced' });
    for (const d of rows.transaction_docs_kv) docs.set(String(d.hash), String(d.doc));
  }
  const ends: AccountStateRow[] = [];
  const cells = { code: new Map<string, string>(), data: new Map<string, string>() };
  for (const b of blocks) {
    const st = b.account_states[0];
    ends.push(st);
    if (st.code_hash && st.code_boc) cells.code.set(st.code_hash.toLowerCase(), st.code_boc);
    if (st.data_hash && st.data_boc) cells.data.set(st.data_hash.toLowerCase(), st.data_boc);
  }
  const asm = new TraceAssembler();
  let traceRow: TraceRow;
  let actions: EmulatedRows['actions'] = [];
  if (trace.limitExceeded) {
    // messages left unemulated: the trace stays open (pending edges), unclassified, as upstream leaves it
    const res = asm.addBatch(trace.mcSeqno, txs);
    traceRow = res.traces[0];
  } else {
    const context = await contextFor(deps.store, txs, ends);
    const batch = assembleBatch(asm, trace.mcSeqno, txs, context, deps.dedustPools?.pools);
    traceRow = batch.traces[0];
    const accountsOf = new Map<string, Set<string>>();
    for (const a of batch.tables.action_accounts) {
      const k = String(a.action_id);
      const s = accountsOf.get(k) ?? new Set<string>();
      s.add(String(a.account));
      accountsOf.set(k, s);
    }
    actions = batch.tables.actions.map((a) => ({ row: jsonValue(a) as Row, accounts: [...(accountsOf.get(String(a.action_id)) ?? [])].sort() }));
  }
  return {
    externalHash: trace.message.hash().toString('hex'),
    // TEP-467 normalized hash of the external message, as the decoder gives it (trace_external_hash_norm)
    norm: (txs[0]?.in_msg?.hash_norm ?? trace.message.hash().toString('hex')).toLowerCase(),
    mcSeqno: trace.mcSeqno,
    trace: jsonValue(traceRow) as Row,
    docs: txs.map((t) => docs.get(t.hash.toLowerCase())!),
    txs,
    actions,
    accounts: [...new Set(txs.map((t) => t.account))],
    cells,
    limitExceeded: trace.limitExceeded,
    randSeed: trace.randSeed.toString('base64'),
  };
}

