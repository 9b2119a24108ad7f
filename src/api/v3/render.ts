/**
 * Store rows (ClickHouse JSON: 64-bit+ integers as decimal strings, hashes lower-case hex, addresses
 * raw upper-case) -> API v3 entities (§3 of the reference): hashes base64, 64-bit values strings,
 * opcodes `0x%08x`, shards 16 upper-case hex digits.
 */
import type { BalanceChanges } from './queries/balance-changes.ts';
import type { LoadedTx, TxContext } from './queries/transactions.ts';
import { formatOpcode, hashToBase64 } from '../../format/index.ts';
import { MAX_ENCODED_BOC_BYTES, constructorName, decodeMessageBody } from './decode/index.ts';
import type { Row } from './db.ts';
import type { ApiCaches } from './caches.ts';
import { ACCOUNT_NONE_HASH } from '../../ton/index.ts';

const NONEXIST_STATE: Row = { balance: '0', extra_currencies: {}, account_status: 'nonexist', frozen_hash: null, data_hash: null, code_hash: null };

export function b64(h: unknown): string | null {
  if (typeof h !== 'string' || h.length !== 64 || /[^0-9a-fA-F]/.test(h)) return null;
  return hashToBase64(h);
}

export function str(v: unknown): string | null {
  return v === null || v === undefined ? null : String(v);
}

export function num(v: unknown): number | null {
  return v === null || v === undefined ? null : Number(v);
}

export function bool(v: unknown): boolean | null {
  return v === null || v === undefined ? null : Boolean(v);
}

/** Unsigned shard (decimal string or bigint) -> 16 upper-case hex digits. */
export function shardHex(v: unknown): string {
  const s = String(v);
  const n = /^[0-9A-Fa-f]{16}$/.test(s) && /[A-Fa-f]/.test(s) ? BigInt('0x' + s) : BigInt(s);
  return BigInt.asUintN(64, n).toString(16).toUpperCase().padStart(16, '0');
}

/** Map(UInt32, UInt256) -> `{ "<id>": "<amount>" }`. */
export function extra(v: unknown): Record<string, string> {
  if (!v || typeof v !== 'object') return {};
  return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, String(x)]));
}

function omitNull<T extends Record<string, unknown>>(o: T): T {
  for (const k of Object.keys(o)) if (o[k] === null || o[k] === undefined) delete o[k];
  return o;
}

// ---------------------------------------------------------------- blocks

export function blockJson(r: Row): Record<string, unknown> {
  return {
    workchain: num(r.workchain),
    shard: shardHex(r.shard),
    seqno: num(r.seqno),
    root_hash: b64(r.root_hash),
    file_hash: b64(r.file_hash),
    global_id: num(r.global_id),
    version: num(r.version),
    after_merge: bool(r.after_merge),
    before_split: bool(r.before_split),
    after_split: bool(r.after_split),
    want_merge: bool(r.want_merge),
    want_split: bool(r.want_split),
    key_block: bool(r.key_block),
    vert_seqno_incr: bool(r.vert_seqno_incr),
    flags: num(r.flags),
    gen_utime: str(r.gen_utime),
    start_lt: str(r.start_lt),
    end_lt: str(r.end_lt),
    validator_list_hash_short: num(r.validator_list_hash_short),
    gen_catchain_seqno: num(r.gen_catchain_seqno),
    min_ref_mc_seqno: num(r.min_ref_mc_seqno),
    prev_key_block_seqno: num(r.prev_key_block_seqno),
    vert_seqno: num(r.vert_seqno),
    master_ref_seqno: num(r.master_ref_seqno),
    rand_seed: b64(r.rand_seed),
    created_by: b64(r.created_by),
    tx_count: num(r.tx_count),
    masterchain_block_ref: { workchain: num(r.mc_block_workchain) ?? -1, shard: shardHex(r.mc_block_shard ?? '9223372036854775808'), seqno: num(r.mc_block_seqno) },
    prev_blocks: ((r.prev_blocks as Row[] | unknown[][] | undefined) ?? []).map((p) => {
      const o = Array.isArray(p) ? { workchain: p[0], shard: p[1], seqno: p[2] } : p;
      return { workchain: num(o.workchain), shard: shardHex(o.shard), seqno: num(o.seqno) };
    }),
  };
}

// ---------------------------------------------------------------- messages

/** `decoded_opcode`: the constructor name ton-marker gives the opcode (./decode), null when it knows none. */
export function opcodeName(op: number | null): string | null {
  return op === null ? null : constructorName(op);
}

/** ton-marker's own input limit: longer bodies decode to nothing there either. */
const MAX_DECODED_BODY = MAX_ENCODED_BOC_BYTES;

/**
 * `message_content.decoded`: the body as ton-marker decodes it (./decode: its TL-B tree; a top-level text comment
 * as `{'@type':'text_comment', comment, type:'text_comment'}`), null when nothing decodes it.
 */
export function decodeBody(boc: string | null, hash?: string | null, decoded?: ApiCaches['bodies']): Record<string, unknown> | null {
  if (!boc || boc.length > MAX_DECODED_BODY) return null;
  if (!hash || !decoded) return decodeMessageBody(boc);
  // bodies are immutable per hash and repeat a lot (excesses, comments, notifications): keep recent decodings
  const hit = decoded.get(hash);
  if (hit !== undefined) return hit;
  const d = decodeMessageBody(boc);
  decoded.set(hash, d);
  return d;
}

/** `decoded`: the network's decoded-body cache (caches.ts); without it each body is decoded anew. */
export function messageJson(m: Row, contents: Map<string, string>, extraFields: Record<string, unknown> = {}, decoded?: ApiCaches['bodies']): Record<string, unknown> {
  const op = num(m.opcode);
  const bodyHash = str(m.body_hash);
  const bodyBoc = bodyHash ? (contents.get(bodyHash) ?? null) : null;
  const initHash = str(m.init_state_hash);
  const out: Record<string, unknown> = {
    hash: b64(m.msg_hash),
    source: str(m.source),
    destination: str(m.destination),
    value: str(m.value),
    value_extra_currencies: m.message_type === 'int' ? extra(m.value_extra_currencies) : null,
    fwd_fee: str(m.fwd_fee),
    ihr_fee: str(m.ihr_fee),
    extra_flags: str(m.extra_flags),
    created_lt: str(m.created_lt),
    created_at: str(m.created_at),
    opcode: op === null ? null : formatOpcode(op),
    decoded_opcode: opcodeName(op),
    ihr_disabled: bool(m.ihr_disabled),
    bounce: bool(m.bounce),
    bounced: bool(m.bounced),
    import_fee: str(m.import_fee),
    ...extraFields,
    message_content: bodyHash ? { hash: b64(bodyHash), body: bodyBoc, decoded: decodeBody(bodyBoc, bodyHash, decoded) } : null,
    init_state: initHash ? { hash: b64(initHash), body: contents.get(initHash) ?? null, decoded: null } : null,
  };
  if (m.msg_hash_norm) out.hash_norm = b64(m.msg_hash_norm);
  return out;
}

// ---------------------------------------------------------------- transactions

/**
 * A transaction's account_state_before / _after. Without a stored row: the state of an account that does not exist has
 * one hash for every account (the `account_none$0` cell) and says all there is (toncenter's indexer stores that row
 * once, when its database is created); any other state renders with only its hash, as the reference does.
 */
export function accountStateJson(hash: unknown, s: Row | undefined): Record<string, unknown> {
  if (!s && hash === ACCOUNT_NONE_HASH) s = NONEXIST_STATE;
  return {
    hash: b64(hash),
    balance: s ? str(s.balance) : null,
    extra_currencies: s ? extra(s.extra_currencies) : null,
    account_status: s ? str(s.account_status) : null,
    frozen_hash: s ? b64(s.frozen_hash) : null,
    data_hash: s ? b64(s.data_hash) : null,
    code_hash: s ? b64(s.code_hash) : null,
  };
}

function descriptionJson(t: Row): Record<string, unknown> {
  const d: Record<string, unknown> = omitNull({
    type: str(t.descr),
    aborted: bool(t.aborted),
    destroyed: bool(t.destroyed),
    credit_first: bool(t.credit_first),
    is_tock: bool(t.is_tock),
    installed: bool(t.installed),
  });
  if (t.storage_fees_collected !== null && t.storage_fees_collected !== undefined) {
    d.storage_ph = omitNull({ storage_fees_collected: str(t.storage_fees_collected), storage_fees_due: str(t.storage_fees_due), status_change: str(t.storage_status_change) });
  }
  if (t.credit !== null && t.credit !== undefined || t.credit_due_fees_collected !== null && t.credit_due_fees_collected !== undefined) {
    d.credit_ph = omitNull({ due_fees_collected: str(t.credit_due_fees_collected), credit: str(t.credit), credit_extra_currencies: extra(t.credit_extra_currencies) });
  }
  if (t.compute_skipped !== null && t.compute_skipped !== undefined) {
    if (t.compute_skipped) d.compute_ph = { skipped: true, reason: str(t.skipped_reason) };
    else {
      const fees = t.compute_gas_fees;
      const used = t.compute_gas_used;
      d.compute_ph = omitNull({
        skipped: false,
        success: bool(t.compute_success),
        msg_state_used: bool(t.compute_msg_state_used),
        account_activated: bool(t.compute_account_activated),
        gas_fees: str(fees),
        gas_used: str(used),
        gas_limit: str(t.compute_gas_limit),
        gas_credit: str(t.compute_gas_credit),
        mode: num(t.compute_mode),
        exit_code: num(t.compute_exit_code),
        exit_arg: num(t.compute_exit_arg),
        vm_steps: num(t.compute_vm_steps),
        vm_init_state_hash: b64(t.compute_vm_init_state_hash),
        vm_final_state_hash: b64(t.compute_vm_final_state_hash),
      });
    }
  }
  if (t.action_success !== null && t.action_success !== undefined) {
    d.action = omitNull({
      success: bool(t.action_success),
      valid: bool(t.action_valid),
      no_funds: bool(t.action_no_funds),
      status_change: str(t.action_status_change),
      total_fwd_fees: str(t.action_total_fwd_fees),
      total_action_fees: str(t.action_total_action_fees),
      result_code: num(t.action_result_code),
      result_arg: num(t.action_result_arg),
      tot_actions: num(t.action_tot_actions),
      spec_actions: num(t.action_spec_actions),
      skipped_actions: num(t.action_skipped_actions),
      msgs_created: num(t.action_msgs_created),
      action_list_hash: b64(t.action_action_list_hash),
      tot_msg_size: { cells: str(t.action_tot_msg_size_cells), bits: str(t.action_tot_msg_size_bits) },
    });
  }
  if (t.bounce !== null && t.bounce !== undefined) {
    d.bounce = omitNull({
      type: str(t.bounce),
      msg_size: t.bounce_msg_size_cells === null ? null : { cells: str(t.bounce_msg_size_cells), bits: str(t.bounce_msg_size_bits) },
      req_fwd_fees: str(t.bounce_req_fwd_fees),
      msg_fees: str(t.bounce_msg_fees),
      fwd_fees: str(t.bounce_fwd_fees),
    });
  }
  if (t.split_info_cur_shard_pfx_len !== null && t.split_info_cur_shard_pfx_len !== undefined) {
    d.split_info = {
      cur_shard_pfx_len: num(t.split_info_cur_shard_pfx_len),
      acc_split_depth: num(t.split_info_acc_split_depth),
      this_addr: str(t.split_info_this_addr),
      sibling_addr: str(t.split_info_sibling_addr),
    };
  }
  return d;
}

/** Transactions as API v3 renders them, in the order loaded (queries/transactions.ts). */
export function transactionsJson(txs: readonly LoadedTx[]): Record<string, unknown>[] {
  return txs.map((t) => transactionJson(t.tx, t.ctx));
}

/** Transactions rendered, by hex hash (an action's `transactions`). */
export function renderedByHash(txs: readonly LoadedTx[]): Map<string, Record<string, unknown>> {
  return new Map(transactionsJson(txs).map((t) => [Buffer.from(String(t.hash), 'base64').toString('hex'), t]));
}

export function transactionJson(t: Row, ctx: TxContext): Record<string, unknown> {
  const key = `${t.account}|${t.lt}`;
  const msgs = ctx.messages.get(key) ?? [];
  const inMsg = msgs.find((m) => m.direction === 'in');
  const outs = msgs
    .filter((m) => m.direction === 'out')
    .sort((a, b) => (BigInt(String(a.created_lt ?? 0)) < BigInt(String(b.created_lt ?? 0)) ? -1 : BigInt(String(a.created_lt ?? 0)) > BigInt(String(b.created_lt ?? 0)) ? 1 : 0));
  const out: Record<string, unknown> = {
    account: str(t.account),
    hash: b64(t.hash),
    lt: str(t.lt),
    now: num(t.now),
    mc_block_seqno: num(t.mc_block_seqno),
    trace_id: b64(t.trace_id),
    prev_trans_hash: b64(t.prev_trans_hash),
    prev_trans_lt: str(t.prev_trans_lt),
    orig_status: str(t.orig_status),
    end_status: str(t.end_status),
    total_fees: str(t.total_fees),
    total_fees_extra_currencies: extra(t.total_fees_extra_currencies),
    description: descriptionJson(t),
    block_ref: { workchain: num(t.block_workchain), shard: shardHex(t.block_shard), seqno: num(t.block_seqno) },
    in_msg: inMsg ? messageJson(inMsg, ctx.contents, {}, ctx.decoded) : null,
    out_msgs: outs.map((m) => messageJson(m, ctx.contents, {}, ctx.decoded)),
    account_state_before: accountStateJson(t.account_state_hash_before, ctx.states.get(`${t.account}|${t.account_state_hash_before}`)),
    account_state_after: accountStateJson(t.account_state_hash_after, ctx.states.get(`${t.account}|${t.account_state_hash_after}`)),
    emulated: false,
    finality: 'finalized',
  };
  if (out.trace_id === null) delete out.trace_id;
  return out;
}

/** Raw addresses a transaction page puts in its address_book (§2.2). */
export function transactionAddresses(txs: Record<string, unknown>[]): string[] {
  const s = new Set<string>();
  for (const t of txs) {
    s.add(t.account as string);
    const im = t.in_msg as Row | null;
    if (im?.source) s.add(im.source as string);
    for (const m of t.out_msgs as Row[]) if (m.destination) s.add(m.destination as string);
  }
  return [...s];
}

const byKey = (a: [string, unknown], b: [string, unknown]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/**
 * `{changes: {addr: int}, fees: {addr: int}, jettons: {addr: {master: "amount"}}}` as JSON text, addresses
 * sorted: integers are written exactly (the reference's int64 JSON numbers; JSON.stringify would round
 * anything beyond 2^53 nanotons).
 */
export function balanceChangesJson(bc: BalanceChanges): string {
  const ints = (m: Map<string, bigint>) => '{' + [...m].sort(byKey).map(([k, v]) => `${JSON.stringify(k)}:${v.toString()}`).join(',') + '}';
  const jettons = '{' + [...bc.jettons].sort(byKey).map(([owner, row]) =>
    `${JSON.stringify(owner)}:{${[...row].sort(byKey).map(([m, v]) => `${JSON.stringify(m)}:${JSON.stringify(v.toString())}`).join(',')}}`,
  ).join(',') + '}';
  return `{"changes":${ints(bc.changes)},"fees":${ints(bc.fees)},"jettons":${jettons}}`;
}
