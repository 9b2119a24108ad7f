import type {
  AccountStateRow,
  DecodedBlock,
  ExtraCurrencies,
  MessageRow,
  TransactionRow,
  TransactionStateRow,
} from '../ton/index.ts';
import { methodsOfCode } from '../contracts/index.ts';
import { blockDocRows, type PriorStates } from './docs.ts';
import type { Row } from '../util/index.ts';

/**
 * Pure mapping decoded block -> rows per ClickHouse table (no I/O). Values keep their code types
 * (bigint for lt / coins / 64-bit ids); `encodeJsonLines` turns them into decimal strings on the wire.
 * Column names are the table columns of clickhouse/0001_core.sql.
 */


/** Tables written per block, in the order the writer inserts them (markers last). */
export const BLOCK_TABLES = [
  'transactions',
  'transactions_by_hash',
  'transactions_by_lt',
  'messages',
  'transaction_docs_kv',
  'message_hashes',
  'message_contents',
  'account_states',
  'latest_account_states',
  'contract_code',
  'contract_methods',
  'shard_state',
  'blocks',
  'ingested_blocks',
] as const;

export type BlockTable = (typeof BLOCK_TABLES)[number];

/** The tables whose rows carry trace_id: `tables: 'traced'` builds only these, and the traces stage writes them. */
export const TRACED_TABLES = ['transactions', 'messages', 'transaction_docs_kv'] as const satisfies readonly BlockTable[];

export type StoreRows = Record<BlockTable, Row[]>;

export interface BlockToRowsOptions {
  /**
   * Seqno of the masterchain block that commits this block. Masterchain blocks commit themselves
   * (their own seqno is used whatever is passed); 0 = unknown.
   */
  mcSeqno?: number;
  /** trace id per transaction hash when already known (the traces stage fills it later otherwise). */
  traceIds?: ReadonlyMap<string, string>;
  /**
   * Which tables: every one (default); `untraced`, all but the two whose rows carry trace_id (`transactions`,
   * `messages`, and their `transaction_docs_kv`: the traces stage writes those); `traced`, only those three.
   */
  tables?: 'all' | 'untraced' | 'traced';
  /** End states of earlier blocks, for the documents' states before (src/decode/docs.ts); updated with this block's. */
  priorStates?: PriorStates;
}

export function emptyRows(): StoreRows {
  return Object.fromEntries(BLOCK_TABLES.map((t) => [t, []])) as unknown as StoreRows;
}

/** Unsigned 64-bit shard from its 16-digit hex form. */
export function shardToBigint(shard: string): bigint {
  if (!/^[0-9A-Fa-f]{1,16}$/.test(shard)) throw new Error(`invalid shard "${shard}" (want up to 16 hex digits)`);
  return BigInt('0x' + shard);
}

/** Raw address in the stored form: `wc:HEX` upper-case hex (as API v3 prints it). */
function addr(a: string | null): string | null {
  if (a === null) return null;
  const i = a.indexOf(':');
  return i < 0 ? a : a.slice(0, i) + ':' + a.slice(i + 1).toUpperCase();
}

function hex(h: string): string {
  return h.toLowerCase();
}

function hexOrNull(h: string | null | undefined): string | null {
  return h == null ? null : h.toLowerCase();
}

function extra(e: ExtraCurrencies | undefined): Record<string, bigint> {
  return e ?? {};
}

function mcSeqnoOf(block: DecodedBlock, opts: BlockToRowsOptions): number {
  return block.id.workchain === -1 ? block.id.seqno : (opts.mcSeqno ?? 0);
}

/** Maps one decoded block to rows of every table it touches. */
export function blockToRows(block: DecodedBlock, opts: BlockToRowsOptions = {}): StoreRows {
  const rows = emptyRows();
  appendBlockRows(rows, block, opts);
  return rows;
}

/** The complete states before the accounts' first transactions of a block, as rows (for its documents, not stored). */
export function statesBeforeRows(block: DecodedBlock): Row[] {
  return block.states_before.filter((st) => st.complete && st.account_status !== 'nonexist').map(accountStateRow);
}

/** Same as blockToRows, appending into existing row lists (batching several blocks). */
export function appendBlockRows(rows: StoreRows, block: DecodedBlock, opts: BlockToRowsOptions = {}): void {
  const mc = mcSeqnoOf(block, opts);
  const shard = shardToBigint(block.id.shard);
  const traced = opts.tables !== 'untraced';
  const untraced = opts.tables !== 'traced';
  const stateRows = block.account_states.map(accountStateRow);
  // the other states the block's transactions name (src/ton/block/states.ts): every intermediate one, and the state
  // before an account's first transaction when it is complete (a partial one would read worse than the stored row,
  // and nonexist is one hash for every account). The documents carry both; `account_states` gets the intermediate
  // ones only: a state before is the previous block's end state, row for row, which that block writes, so writing it
  // here too would leave a physical duplicate in plain SQL (issue 21, hole 5).
  const intermediate = block.intermediate_states.map(accountStateRow);
  const transitional = [...statesBeforeRows(block), ...intermediate];
  const firstTx = rows.transactions.length;
  const firstMsg = rows.messages.length;
  const contents = pushTransactionRows(rows, block, { mc, shard, traceIds: opts.traceIds, traced, untraced });
  if (traced) {
    const docs = blockDocRows(
      { transactions: rows.transactions.slice(firstTx), messages: rows.messages.slice(firstMsg), contents, states: stateRows, transitional },
      opts.priorStates,
    );
    for (const d of docs) rows.transaction_docs_kv.push(d);
  }
  if (!untraced) return;
  pushAccountStateRows(rows, block, stateRows, intermediate);
  if (block.shards) pushShardStateRows(rows, block, shard);
  rows.blocks.push(blockRow(block, shard, mc));
  rows.ingested_blocks.push({
    workchain: block.id.workchain,
    shard,
    seqno: block.id.seqno,
    root_hash: hex(block.id.root_hash),
    mc_block_seqno: mc,
    tx_count: block.transactions.length,
  });
}

/** Which of a block's transaction tables to fill, and where its transactions stand. */
interface TransactionTables {
  mc: number;
  /** the block's own shard (a transaction's block_ref names its own) */
  shard: bigint;
  traceIds: ReadonlyMap<string, string> | undefined;
  /** `transactions` and `messages` */
  traced: boolean;
  /** the lookup tables: `transactions_by_hash`, `transactions_by_lt`, `message_hashes`, `message_contents` */
  untraced: boolean;
}

/**
 * The rows of the block's transactions and messages, in the tables asked for. Returns the body / init-state BoCs of
 * the block's messages, for its documents (filled when `traced`).
 */
function pushTransactionRows(rows: StoreRows, block: DecodedBlock, t: TransactionTables): Map<string, string> {
  const { id } = block;
  const { mc, traced, untraced } = t;
  const contents = new Map<string, string>();
  for (const tx of block.transactions) {
    const traceId = t.traceIds?.get(tx.hash) ?? null;
    const wc = tx.block_ref?.workchain ?? id.workchain;
    const bshard = tx.block_ref ? shardToBigint(tx.block_ref.shard) : t.shard;
    const bseqno = tx.block_ref?.seqno ?? id.seqno;
    if (traced) {
      rows.transactions.push(transactionRow(tx, { wc, shard: bshard, seqno: bseqno, mc, traceId }));
      if (tx.in_msg) rows.messages.push(messageRow(tx, tx.in_msg, 'in', mc, traceId));
      for (const m of tx.out_msgs) rows.messages.push(messageRow(tx, m, 'out', mc, traceId));
      for (const m of tx.in_msg ? [tx.in_msg, ...tx.out_msgs] : tx.out_msgs) for (const [h, boc] of messageContents(m)) contents.set(h, boc);
    }
    if (!untraced) continue;
    const account = addr(tx.account)!;
    rows.transactions_by_hash.push({ hash: hex(tx.hash), account, lt: tx.lt });
    rows.transactions_by_lt.push({
      lt: tx.lt,
      account,
      hash: hex(tx.hash),
      now: tx.now,
      mc_block_seqno: mc,
      block_workchain: wc,
      block_shard: bshard,
      block_seqno: bseqno,
    });
    if (tx.in_msg) pushMessageIndexes(rows, tx, tx.in_msg, 'in');
    for (const m of tx.out_msgs) pushMessageIndexes(rows, tx, m, 'out');
  }
  return contents;
}

/** The intermediate states, then each account's end state with its latest-state row, code and code's methods. */
function pushAccountStateRows(rows: StoreRows, block: DecodedBlock, stateRows: Row[], intermediate: Row[]): void {
  for (const r of intermediate) rows.account_states.push(r);
  for (const [i, st] of block.account_states.entries()) {
    rows.account_states.push(stateRows[i]);
    rows.latest_account_states.push(latestStateRow(st));
    if (st.code_hash && st.code_boc) {
      rows.contract_code.push({ code_hash: hex(st.code_hash), code_boc: st.code_boc });
      const methods = methodsOfCode(hex(st.code_hash), st.code_boc);
      // stored unsigned (the table is UInt32): recv_external -1 is 4294967295
      if (methods) rows.contract_methods.push({ code_hash: hex(st.code_hash), methods: methods.map((m) => m >>> 0) });
    }
  }
}

/** A masterchain block's `shard_state`: the block itself, then every shard's top block it commits. */
function pushShardStateRows(rows: StoreRows, block: DecodedBlock, shard: bigint): void {
  const { id } = block;
  rows.shard_state.push({
    mc_seqno: id.seqno,
    workchain: id.workchain,
    shard,
    seqno: id.seqno,
    root_hash: hex(id.root_hash),
    file_hash: hex(id.file_hash),
  });
  for (const s of block.shards ?? []) {
    rows.shard_state.push({
      mc_seqno: id.seqno,
      workchain: s.workchain,
      shard: shardToBigint(s.shard),
      seqno: s.seqno,
      root_hash: hex(s.root_hash),
      file_hash: hex(s.file_hash),
    });
  }
}

/** The `blocks` row: the id, BlockInfo, the committing masterchain block and the previous blocks. */
function blockRow(block: DecodedBlock, shard: bigint, mc: number): Row {
  const { id, info } = block;
  return {
    workchain: id.workchain,
    shard,
    seqno: id.seqno,
    root_hash: hex(id.root_hash),
    file_hash: hex(id.file_hash),
    mc_block_workchain: -1,
    mc_block_shard: 0x8000000000000000n,
    mc_block_seqno: mc,
    global_id: block.global_id,
    version: info.version,
    after_merge: info.after_merge,
    before_split: info.before_split,
    after_split: info.after_split,
    want_merge: info.want_merge,
    want_split: info.want_split,
    key_block: info.key_block,
    vert_seqno_incr: info.vert_seqno_incr,
    flags: info.flags,
    gen_utime: info.gen_utime,
    start_lt: info.start_lt,
    end_lt: info.end_lt,
    validator_list_hash_short: info.gen_validator_list_hash_short,
    gen_catchain_seqno: info.gen_catchain_seqno,
    min_ref_mc_seqno: info.min_ref_mc_seqno,
    prev_key_block_seqno: info.prev_key_block_seqno,
    vert_seqno: info.vert_seqno,
    master_ref_seqno: info.master_ref?.seqno ?? 0,
    rand_seed: hex(block.rand_seed),
    created_by: hex(block.created_by),
    tx_count: block.transactions.length,
    // after a merge the two prev blocks are the children; otherwise the referenced block's shard is resolved by the decoder
    prev_blocks: info.prev_ref.map((p) => ({
      workchain: p.workchain,
      shard: shardToBigint(p.shard),
      seqno: p.seqno,
      root_hash: hex(p.root_hash),
      file_hash: hex(p.file_hash),
    })),
  };
}

interface TxPlace {
  wc: number;
  shard: bigint;
  seqno: number;
  mc: number;
  traceId: string | null;
}

function transactionRow(tx: TransactionRow, p: TxPlace): Row {
  const d = tx.description;
  const st = d.storage_ph;
  const cr = d.credit_ph;
  const cp = d.compute_ph;
  const ac = d.action;
  const bo = d.bounce;
  const sp = d.split_info;
  return {
    account: addr(tx.account),
    lt: tx.lt,
    hash: hex(tx.hash),
    now: tx.now,
    block_workchain: p.wc,
    block_shard: p.shard,
    block_seqno: p.seqno,
    mc_block_seqno: p.mc,
    trace_id: p.traceId,
    prev_trans_hash: hex(tx.prev_trans_hash),
    prev_trans_lt: tx.prev_trans_lt,
    orig_status: tx.orig_status,
    end_status: tx.end_status,
    total_fees: tx.total_fees,
    total_fees_extra_currencies: extra(tx.total_fees_extra_currencies),
    account_state_hash_before: hex(tx.account_state_hash_before),
    account_state_hash_after: hex(tx.account_state_hash_after),
    descr: d.type,
    aborted: d.aborted ?? null,
    destroyed: d.destroyed ?? null,
    credit_first: d.credit_first ?? null,
    is_tock: d.is_tock ?? null,
    installed: d.installed ?? null,
    storage_fees_collected: st?.storage_fees_collected ?? null,
    storage_fees_due: st?.storage_fees_due ?? null,
    storage_status_change: st?.status_change ?? null,
    credit_due_fees_collected: cr?.due_fees_collected ?? null,
    credit: cr?.credit ?? null,
    credit_extra_currencies: extra(cr?.credit_extra_currencies),
    compute_skipped: cp?.skipped ?? null,
    skipped_reason: cp?.reason ?? null,
    compute_success: cp?.success ?? null,
    compute_msg_state_used: cp?.msg_state_used ?? null,
    compute_account_activated: cp?.account_activated ?? null,
    compute_gas_fees: cp?.gas_fees ?? null,
    compute_gas_used: cp?.gas_used ?? null,
    compute_gas_limit: cp?.gas_limit ?? null,
    compute_gas_credit: cp?.gas_credit ?? null,
    compute_mode: cp?.mode ?? null,
    compute_exit_code: cp?.exit_code ?? null,
    compute_exit_arg: cp?.exit_arg ?? null,
    compute_vm_steps: cp?.vm_steps ?? null,
    compute_vm_init_state_hash: hexOrNull(cp?.vm_init_state_hash),
    compute_vm_final_state_hash: hexOrNull(cp?.vm_final_state_hash),
    action_success: ac?.success ?? null,
    action_valid: ac?.valid ?? null,
    action_no_funds: ac?.no_funds ?? null,
    action_status_change: ac?.status_change ?? null,
    action_total_fwd_fees: ac?.total_fwd_fees ?? null,
    action_total_action_fees: ac?.total_action_fees ?? null,
    action_result_code: ac?.result_code ?? null,
    action_result_arg: ac?.result_arg ?? null,
    action_tot_actions: ac?.tot_actions ?? null,
    action_spec_actions: ac?.spec_actions ?? null,
    action_skipped_actions: ac?.skipped_actions ?? null,
    action_msgs_created: ac?.msgs_created ?? null,
    action_action_list_hash: hexOrNull(ac?.action_list_hash),
    action_tot_msg_size_cells: ac?.tot_msg_size.cells ?? null,
    action_tot_msg_size_bits: ac?.tot_msg_size.bits ?? null,
    bounce: bo?.type ?? null,
    bounce_msg_size_cells: bo?.msg_size?.cells ?? null,
    bounce_msg_size_bits: bo?.msg_size?.bits ?? null,
    bounce_req_fwd_fees: bo?.req_fwd_fees ?? null,
    bounce_msg_fees: bo?.msg_fees ?? null,
    bounce_fwd_fees: bo?.fwd_fees ?? null,
    split_info_cur_shard_pfx_len: sp?.cur_shard_pfx_len ?? null,
    split_info_acc_split_depth: sp?.acc_split_depth ?? null,
    split_info_this_addr: sp?.this_addr ?? null,
    split_info_sibling_addr: sp?.sibling_addr ?? null,
  };
}

/** hash_norm when it differs from msg_hash (the row and the hash index keep it only then). */
function normOf(m: MessageRow, msgHash: string): string | null {
  return m.hash_norm && hex(m.hash_norm) !== msgHash ? hex(m.hash_norm) : null;
}

function messageRow(tx: TransactionRow, m: MessageRow, direction: 'in' | 'out', mc: number, traceId: string | null): Row {
  const msgHash = hex(m.msg_hash);
  return {
    tx_account: addr(tx.account)!,
    tx_lt: tx.lt,
    direction,
    msg_hash: msgHash,
    tx_hash: hex(tx.hash),
    msg_hash_norm: normOf(m, msgHash),
    message_type: m.message_type,
    mc_seqno: mc,
    trace_id: traceId,
    source: addr(m.source),
    destination: addr(m.destination),
    value: m.value,
    value_extra_currencies: extra(m.value_extra_currencies),
    fwd_fee: m.fwd_fee,
    ihr_fee: m.ihr_fee,
    extra_flags: m.extra_flags,
    created_lt: m.created_lt,
    created_at: m.created_at,
    opcode: m.opcode,
    ihr_disabled: m.ihr_disabled,
    bounce: m.bounce,
    bounced: m.bounced,
    import_fee: m.import_fee,
    body_hash: hex(m.body_hash),
    init_state_hash: hexOrNull(m.init_state_hash),
  };
}

/** The message's hash index rows and its body / init state contents. */
function pushMessageIndexes(rows: StoreRows, tx: TransactionRow, m: MessageRow, direction: 'in' | 'out'): void {
  const account = addr(tx.account)!;
  const msgHash = hex(m.msg_hash);
  const norm = normOf(m, msgHash);
  const txHash = hex(tx.hash);
  rows.message_hashes.push({ hash: msgHash, direction, is_norm: 0, msg_hash: msgHash, tx_account: account, tx_lt: tx.lt, tx_hash: txHash });
  if (norm) rows.message_hashes.push({ hash: norm, direction, is_norm: 1, msg_hash: msgHash, tx_account: account, tx_lt: tx.lt, tx_hash: txHash });
  for (const [hash, boc] of messageContents(m)) rows.message_contents.push({ hash, boc });
}

/** A message's body and (when it carries one) init state, as (hash, BoC) pairs: `message_contents` rows and documents. */
function messageContents(m: MessageRow): [string, string][] {
  const out: [string, string][] = [[hex(m.body_hash), m.body_boc]];
  if (m.init_state_hash && m.init_state_boc) out.push([hex(m.init_state_hash), m.init_state_boc]);
  return out;
}

function accountStateRow(st: AccountStateRow | TransactionStateRow): Row {
  return {
    account: addr(st.account),
    hash: hex(st.hash),
    balance: st.balance,
    extra_currencies: extra(st.balance_extra_currencies),
    account_status: st.account_status,
    frozen_hash: hexOrNull(st.frozen_hash),
    data_hash: hexOrNull(st.data_hash),
    code_hash: hexOrNull(st.code_hash),
    last_trans_lt: st.last_trans_lt,
  };
}

function latestStateRow(st: AccountStateRow): Row {
  return {
    account: addr(st.account),
    hash: hex(st.hash),
    balance: st.balance,
    extra_currencies: extra(st.balance_extra_currencies),
    account_status: st.account_status,
    timestamp: st.timestamp,
    last_trans_hash: hex(st.last_trans_hash),
    last_trans_lt: st.last_trans_lt,
    frozen_hash: hexOrNull(st.frozen_hash),
    data_hash: hexOrNull(st.data_hash),
    code_hash: hexOrNull(st.code_hash),
    data_boc: st.data_boc,
  };
}
