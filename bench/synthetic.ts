import { blockDocRows, blockToRows, BLOCK_TABLES, emptyRows, type StoreRows } from '../src/decode/index.ts';
import { StoreWriter, type FlushStats, type WriterOptions } from '../src/store/write/index.ts';
import { type StoreClient } from '../src/store/client/index.ts';
import { type Row } from '../src/util/index.ts';
import type { DecodedBlock } from '../src/ton/index.ts';

/**
 * Synthetic store data for benchmarks: real decoded blocks, copied N times with every id rewritten
 * so each copy is a distinct set of rows (hashes, lt, block seqnos, accounts), while the shape of
 * the data (columns, nulls, message mix, body sizes) stays the real one.
 *
 * Copy k of template block i gets:
 * - hashes: first 12 hex digits replaced by a per-copy mix (consistent across tables, so joins
 *   tx <-> messages <-> hash tables still match); code hashes are kept (code is shared on chain);
 * - lt += k * LT_STRIDE (later copies are newer), now = BASE_UTIME + k * 5;
 * - block seqno = mc_block_seqno = k * templates + i + 1 (each block its own masterchain seqno);
 * - account: first 8 hex digits replaced by (k mod accountVariants), so accounts gain history.
 */

const LT_STRIDE = 100_000_000_000_000n; // above any template lt
const BASE_UTIME = 1_700_000_000;

export interface SyntheticOptions {
  /** Stop after at least this many transactions. */
  transactions: number;
  /** Distinct variants of each template account (default 64): account history length ~ copies / variants. */
  accountVariants?: number;
  /** First copy index (default 0): runs with disjoint copy ranges produce disjoint rows. */
  firstCopy?: number;
}

function mix(k: number): string {
  // 48-bit multiplicative hash of k: spreads copies over the hash space.
  const v = (BigInt(k + 1) * 0x9e3779b97f4an) & 0xffffffffffffn;
  return v.toString(16).padStart(12, '0');
}

function rehash(h: unknown, prefix: string): unknown {
  return typeof h === 'string' && h.length === 64 ? prefix + h.slice(12) : h;
}

function readdr(a: unknown, acc: string): unknown {
  if (typeof a !== 'string') return a;
  const i = a.indexOf(':');
  if (i < 0 || a.length - i - 1 !== 64) return a;
  return a.slice(0, i + 1) + acc + a.slice(i + 9);
}

const HASH_FIELDS: Partial<Record<string, string[]>> = {
  transactions: ['hash', 'prev_trans_hash', 'account_state_hash_before', 'account_state_hash_after', 'trace_id', 'compute_vm_init_state_hash', 'compute_vm_final_state_hash', 'action_action_list_hash'],
  transactions_by_hash: ['hash'],
  transactions_by_lt: ['hash'],
  messages: ['msg_hash', 'tx_hash', 'msg_hash_norm', 'body_hash', 'init_state_hash', 'trace_id'],
  message_hashes: ['hash', 'msg_hash', 'tx_hash'],
  message_contents: ['hash'],
  account_states: ['hash', 'data_hash', 'frozen_hash'],
  latest_account_states: ['hash', 'last_trans_hash', 'data_hash', 'frozen_hash'],
  blocks: ['root_hash', 'file_hash', 'rand_seed'],
  ingested_blocks: ['root_hash'],
};
const ADDR_FIELDS: Partial<Record<string, string[]>> = {
  transactions: ['account'],
  transactions_by_hash: ['account'],
  transactions_by_lt: ['account'],
  messages: ['tx_account', 'source', 'destination'],
  message_hashes: ['tx_account'],
  account_states: ['account'],
  latest_account_states: ['account'],
};
const LT_FIELDS: Partial<Record<string, string[]>> = {
  transactions: ['lt', 'prev_trans_lt'],
  transactions_by_hash: ['lt'],
  transactions_by_lt: ['lt'],
  messages: ['tx_lt', 'created_lt'],
  message_hashes: ['tx_lt'],
  account_states: ['last_trans_lt'],
  latest_account_states: ['last_trans_lt'],
  blocks: ['start_lt', 'end_lt'],
};
const SEQNO_FIELDS: Partial<Record<string, string[]>> = {
  transactions: ['block_seqno', 'mc_block_seqno'],
  transactions_by_lt: ['block_seqno', 'mc_block_seqno'],
  messages: ['mc_seqno'],
  blocks: ['seqno', 'mc_block_seqno'],
  ingested_blocks: ['seqno', 'mc_block_seqno'],
};
const TIME_FIELDS: Partial<Record<string, string[]>> = {
  transactions: ['now'],
  transactions_by_lt: ['now'],
  messages: ['created_at'],
  latest_account_states: ['timestamp'],
  blocks: ['gen_utime'],
};

/** Copy k of one template block's rows (shard_state and contract_code are not copied: shared). */
export function copyBlockRows(template: StoreRows, k: number, blockIndex: number, templates: number, accountVariants = 64): StoreRows {
  const out = emptyRows();
  const prefix = mix(k);
  const acc = (k % accountVariants).toString(16).toUpperCase().padStart(8, '0');
  const ltAdd = BigInt(k) * LT_STRIDE;
  const seqno = k * templates + blockIndex + 1;
  const now = BASE_UTIME + k * 5;
  for (const t of BLOCK_TABLES) {
    // documents are rebuilt from the copied rows below
    if (t === 'shard_state' || t === 'contract_code' || t === 'transaction_docs_kv') continue;
    const hf = HASH_FIELDS[t] ?? [];
    const af = ADDR_FIELDS[t] ?? [];
    const lf = LT_FIELDS[t] ?? [];
    const sf = SEQNO_FIELDS[t] ?? [];
    const tf = TIME_FIELDS[t] ?? [];
    const dst = out[t];
    for (const src of template[t]) {
      const r: Row = { ...src };
      for (const f of hf) r[f] = rehash(r[f], prefix);
      for (const f of af) r[f] = readdr(r[f], acc);
      for (const f of lf) if (typeof r[f] === 'bigint') r[f] = (r[f] as bigint) + ltAdd;
      for (const f of sf) r[f] = seqno;
      for (const f of tf) if (r[f] !== null) r[f] = now;
      if (t === 'blocks') r.prev_blocks = [];
      dst.push(r);
    }
  }
  const contents = new Map(out.message_contents.map((c) => [c.hash as string, c.boc as string]));
  out.transaction_docs_kv = blockDocRows({ transactions: out.transactions, messages: out.messages, contents, states: out.account_states });
  return out;
}

/** Yields copies of the template blocks until `transactions` transactions were produced. */
export function* syntheticBlocks(templates: StoreRows[], opts: SyntheticOptions): Generator<{ rows: StoreRows; txs: number }> {
  const withTx = templates.filter((t) => t.transactions.length > 0);
  if (withTx.length === 0) throw new Error('synthetic data needs at least one template block with transactions');
  let produced = 0;
  for (let k = opts.firstCopy ?? 0; produced < opts.transactions; k++) {
    for (let i = 0; i < withTx.length && produced < opts.transactions; i++) {
      const rows = copyBlockRows(withTx[i], k, i, withTx.length, opts.accountVariants);
      produced += rows.transactions.length;
      yield { rows, txs: rows.transactions.length };
    }
  }
}

/** Template rows from decoded blocks (mcSeqno irrelevant: the copies get their own). */
export function templatesFromBlocks(blocks: DecodedBlock[]): StoreRows[] {
  return blocks.map((b) => blockToRows(b, { mcSeqno: 1 }));
}

export interface FillResult {
  transactions: number;
  rows: number;
  ms: number;
  /** copy index after the last one written (pass as firstCopy to continue) */
  nextCopy: number;
}

/**
 * Fills a store with at least `transactions` synthetic transactions through the real writer
 * (reusable by the API benchmark: open a store, call this, then measure queries).
 */
export async function fillSyntheticStore(
  store: StoreClient,
  templates: StoreRows[],
  opts: SyntheticOptions & { writer?: WriterOptions; onFlush?: (s: FlushStats) => void },
): Promise<FillResult> {
  let rows = 0;
  let txs = 0;
  const writer = new StoreWriter(store, {
    ...opts.writer,
    onFlush: (s) => {
      rows += s.rows;
      opts.onFlush?.(s);
    },
  });
  // contract code is shared by every copy: write it once
  const code = emptyRows();
  for (const t of templates) code.contract_code.push(...t.contract_code);
  const t0 = performance.now();
  await writer.writeRows(code, { blocks: 0, txs: 0 });
  let blocks = 0;
  for (const b of syntheticBlocks(templates, opts)) {
    txs += b.txs;
    blocks++;
    await writer.writeRows(b.rows, { blocks: 1, txs: b.txs });
  }
  await writer.close();
  const perCopy = templates.filter((t) => t.transactions.length > 0).length;
  return { transactions: txs, rows, ms: performance.now() - t0, nextCopy: (opts.firstCopy ?? 0) + Math.ceil(blocks / perCopy) };
}
