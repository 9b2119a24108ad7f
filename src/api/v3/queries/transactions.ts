/**
 * Transaction reads. A page's keys are taken in one narrow statement over `transactions` (deduplicated, see
 * below), with the selective part pushed into a primary-key range of a helper table (`transactions_by_hash`,
 * `transactions_by_lt`, `message_hashes`) where that helps (an account's latest transactions: the key-value store's
 * list, src/kv); then the transactions are loaded from their documents (src/decode/docs.ts), a point read each
 * (db.points: the key-value store, or `transaction_docs_kv` on a server). Keys without a document
 * (stored before migration 0012, or written by the store stage and not yet by the traces stage) are loaded from
 * the flattened rows: the transaction, its messages, bodies and account states, each fetched by primary key.
 * What they return is rows (`LoadedTx`: a transaction's row and what it names); the routes render them
 * (render.ts `transactionsJson`).
 *
 * Dedup without FINAL (FINAL merges every touched granule and costs ~10x on point reads): rows of
 * one (account, lt) only differ by trace_id, which the traces stage fills later, so reads keep one row
 * per key with `LIMIT 1 BY account, lt`, preferring the row that has a trace_id. Immutable tables
 * (messages, account_states, hash indexes) are deduplicated by key in code.
 *
 * Order is total: (lt, account, hash), so offset paging never skips or repeats a row as long as no
 * rows are inserted inside the window; use start_lt/end_lt windows for deep history.
 */
import type { ApiCaches } from '../caches.ts';
import type { Db, Row } from '../db.ts';
import type { Page } from '../params.ts';
import { contentHashes, type TxDoc } from '../../../decode/index.ts';

const TX_COLUMNS = '*';

/** What a page of transactions names, for rendering them: their messages, bodies and account states. */
export interface TxContext {
  /** messages by `${account}|${lt}` */
  messages: Map<string, Row[]>;
  contents: Map<string, string>;
  /** account states by `${account}|${hash}` */
  states: Map<string, Row>;
  /** the network's decoded-body cache (caches.ts) */
  decoded?: ApiCaches['bodies'];
}

/** One transaction to render (render.ts `transactionJson`): its row, from its document or the flattened tables, and what it names. */
export interface LoadedTx {
  tx: Row;
  ctx: TxContext;
}

export interface TxFilter {
  account?: string[];
  /** Accounts left out (a condition of the page query, so pages stay full). */
  excludeAccount?: string[];
  hash?: string[];
  lt?: bigint;
  startLt?: bigint;
  endLt?: bigint;
  startUtime?: number;
  endUtime?: number;
  workchain?: number;
  shard?: bigint;
  seqno?: number;
  mcSeqno?: number;
  /** Transactions of the block with this root / file hash. */
  blockRootHash?: string;
  blockFileHash?: string;
  /** A message of the transaction matches every given field (the reference's join of messages and transactions). */
  msg?: MessageFilter;
}

export interface MessageFilter {
  /** Message hash or the normalized hash of an external-in message. */
  hashes?: string[];
  direction?: 'in' | 'out';
  source?: string;
  destination?: string;
  bodyHash?: string;
  /** Opcode of the message, on either side unless `direction` says which (the reference since 23a3a903). */
  opcode?: number;
  /** External-in messages only, or none of them (they have no created_lt). */
  externals?: 'only' | 'exclude';
}

/** `(account, lt) IN (...)` over the messages matching `m`, all conditions on the same message row; params named m_*. */
function messageCondition(m: MessageFilter, params: Record<string, unknown>): string {
  const c: string[] = [];
  if (m.hashes?.length) {
    params.m_hash = m.hashes;
    c.push('(tx_account, tx_lt, direction, msg_hash) IN (SELECT tx_account, tx_lt, direction, msg_hash FROM message_hashes WHERE hash IN {m_hash:Array(FixedString(64))})');
  }
  if (m.direction) {
    params.m_dir = m.direction;
    c.push('direction = {m_dir:String}');
  }
  if (m.source !== undefined) {
    params.m_src = m.source;
    c.push('source = {m_src:String}');
  }
  if (m.destination !== undefined) {
    params.m_dst = m.destination;
    c.push('destination = {m_dst:String}');
  }
  if (m.bodyHash !== undefined) {
    params.m_body = m.bodyHash;
    c.push('body_hash = {m_body:FixedString(64)}');
  }
  if (m.opcode !== undefined) {
    params.m_op = m.opcode;
    c.push('opcode = {m_op:Int32}');
  }
  if (m.externals === 'only') c.push("message_type = 'ext_in'");
  if (m.externals === 'exclude') c.push("message_type != 'ext_in'");
  return `(account, lt) IN (SELECT tx_account, tx_lt FROM messages WHERE ${c.length ? c.join(' AND ') : '1'})`;
}

/** `(block_workchain, block_shard, block_seqno) IN (...)` for the block hashes of `f`; params named b_*. */
function blockHashCondition(f: TxFilter, params: Record<string, unknown>): string | null {
  const c: string[] = [];
  if (f.blockRootHash !== undefined) {
    params.b_root = f.blockRootHash;
    c.push('root_hash = {b_root:FixedString(64)}');
  }
  if (f.blockFileHash !== undefined) {
    params.b_file = f.blockFileHash;
    c.push('file_hash = {b_file:FixedString(64)}');
  }
  return c.length ? `(block_workchain, block_shard, block_seqno) IN (SELECT workchain, shard, seqno FROM blocks WHERE ${c.join(' AND ')})` : null;
}

/** Builds WHERE conditions over `transactions` columns; params named p_*. */
function conditions(f: TxFilter, params: Record<string, unknown>): string[] {
  const c: string[] = [];
  if (f.account?.length === 1) {
    params.p_account = f.account[0];
    c.push('account = {p_account:String}');
  } else if (f.account?.length) {
    params.p_account = f.account;
    c.push('account IN {p_account:Array(String)}');
  }
  if (f.hash?.length) {
    params.p_hash = f.hash;
    c.push('(account, lt) IN (SELECT account, lt FROM transactions_by_hash WHERE hash IN {p_hash:Array(FixedString(64))})');
    c.push('hash IN {p_hash:Array(FixedString(64))}');
  }
  if (f.lt !== undefined) {
    params.p_lt = f.lt;
    c.push('lt = {p_lt:UInt64}');
  }
  if (f.startLt !== undefined) {
    params.p_slt = f.startLt;
    c.push('lt >= {p_slt:UInt64}');
  }
  if (f.endLt !== undefined) {
    params.p_elt = f.endLt;
    c.push('lt <= {p_elt:UInt64}');
  }
  if (f.startUtime !== undefined) {
    params.p_sut = f.startUtime;
    c.push('now >= {p_sut:UInt32}');
  }
  if (f.endUtime !== undefined) {
    params.p_eut = f.endUtime;
    c.push('now <= {p_eut:UInt32}');
  }
  if (f.workchain !== undefined) {
    params.p_wc = f.workchain;
    c.push('block_workchain = {p_wc:Int32}');
  }
  if (f.shard !== undefined) {
    params.p_shard = f.shard;
    c.push('block_shard = {p_shard:UInt64}');
  }
  if (f.seqno !== undefined) {
    params.p_seqno = f.seqno;
    c.push('block_seqno = {p_seqno:UInt32}');
  }
  if (f.mcSeqno !== undefined) {
    params.p_mc = f.mcSeqno;
    c.push('mc_block_seqno = {p_mc:UInt32}');
  }
  const block = blockHashCondition(f, params);
  if (block) c.push(block);
  if (f.excludeAccount?.length) {
    params.p_xacc = f.excludeAccount;
    c.push('account NOT IN {p_xacc:Array(String)}');
  }
  if (f.msg) c.push(messageCondition(f.msg, params));
  return c;
}

/** The page of transactions matching `f`, ordered (lt, account, hash) in `page.dir` (utime filters: now first). */
export async function findTransactions(db: Db, f: TxFilter, page: Page): Promise<LoadedTx[]> {
  const params: Record<string, unknown> = { p_limit: page.limit, p_offset: page.offset };
  const c = conditions(f, params);
  const dir = page.dir;
  const byUtime = f.startUtime !== undefined || f.endUtime !== undefined;
  const order = `${byUtime ? `now ${dir}, ` : ''}lt ${dir}, account ${dir}, hash ${dir}`;
  const hashes = f.hash;
  if (hashes?.length && Object.entries(f).every(([k, v]) => k === 'hash' || v === undefined)) {
    // by hash alone: the documents in one statement (hash -> (account, lt) inside it)
    const docs = await docsByHash(db, hashes);
    if (docs.length === new Set(hashes).size) {
      const sorted = sortDocs(docs, dir).slice(page.offset, page.offset + page.limit);
      return loadDocs(db, sorted);
    }
    // the key-value store: hashes without a visible document are either past the checkpoint (not shown) or stored
    // before documents existed (their flattened rows); few hashes, so the page is cut here
    if (db.points.kind === 'kv') return (await loadByHashes(db, hashes, dir)).slice(page.offset, page.offset + page.limit);
  }
  if (f.account?.length === 1 && !byUtime && Object.entries(f).every(([k, v]) => k === 'account' || k === 'startLt' || k === 'endLt' || v === undefined)) {
    // an account's transactions in lt order: the key-value store's list (null: the store leaves lists to ClickHouse)
    const keys = await db.points.accountTxKeys(f.account[0], { startLt: f.startLt, endLt: f.endLt, dir, limit: page.limit, offset: page.offset });
    if (keys) return loadByKeys(db, keys.map((k) => [k.account, k.lt, k.hash]), 'given');
  }
  const selective = f.account?.length || f.hash?.length || f.msg;
  let keys: { account: string; lt: string; hash: string }[];
  if (!selective) {
    // global list: find the page's keys in the lt-ordered index
    const ic: string[] = [];
    if (f.lt !== undefined) ic.push('lt = {p_lt:UInt64}');
    if (f.startLt !== undefined) ic.push('lt >= {p_slt:UInt64}');
    if (f.endLt !== undefined) ic.push('lt <= {p_elt:UInt64}');
    if (f.startUtime !== undefined) ic.push('now >= {p_sut:UInt32}');
    if (f.endUtime !== undefined) ic.push('now <= {p_eut:UInt32}');
    if (f.workchain !== undefined) ic.push('block_workchain = {p_wc:Int32}');
    if (f.shard !== undefined) ic.push('block_shard = {p_shard:UInt64}');
    if (f.seqno !== undefined) ic.push('block_seqno = {p_seqno:UInt32}');
    if (f.mcSeqno !== undefined) ic.push('mc_block_seqno = {p_mc:UInt32}');
    const block = blockHashCondition(f, params);
    if (block) ic.push(block);
    if (f.excludeAccount?.length) ic.push('account NOT IN {p_xacc:Array(String)}');
    keys = await db.q<{ account: string; lt: string; hash: string }>(
      `SELECT account, lt, hash FROM transactions_by_lt ${ic.length ? 'WHERE ' + ic.join(' AND ') : ''}
       ORDER BY ${order} LIMIT 1 BY lt, account LIMIT {p_limit:UInt32} OFFSET {p_offset:UInt32}`,
      params,
    );
  } else {
    // the page's keys only: a narrow read (the rows themselves come from their documents)
    keys = await db.q<{ account: string; lt: string; hash: string }>(
      `SELECT account, lt, hash FROM transactions WHERE ${c.join(' AND ')}
       ORDER BY ${order}, isNull(trace_id) LIMIT 1 BY account, lt LIMIT {p_limit:UInt32} OFFSET {p_offset:UInt32}`,
      params,
    );
  }
  return loadByKeys(db, keys.map((k) => [k.account, k.lt, k.hash]), 'given');
}

/** A transaction's key: (account, lt) finds and orders its rows, hash finds its document. */
export type TxKey = [account: string, lt: string | bigint, hash: string];

/** Flattened transaction rows by (account, lt) keys, in `dir` order of (lt, account): for keys without a document. */
export async function transactionsByKeys(db: Db, keys: [string, string | bigint][], dir: 'ASC' | 'DESC' = 'DESC'): Promise<Row[]> {
  if (keys.length === 0) return [];
  return db.q(
    `SELECT ${TX_COLUMNS} FROM transactions WHERE (account, lt) IN {k:Array(Tuple(String, UInt64))}
     ORDER BY lt ${dir}, account ${dir}, hash ${dir}, isNull(trace_id) LIMIT 1 BY account, lt`,
    { k: keys.map(([a, l]) => [a, BigInt(l)]) },
  );
}

async function docsByHash(db: Db, hashes: string[]): Promise<TxDoc[]> {
  return (await db.points.docs(hashes)).map((t) => db.caches.docs.parse(t));
}

function compareTx(a: Row, b: Row): number {
  const la = BigInt(String(a.lt));
  const lb = BigInt(String(b.lt));
  if (la !== lb) return la < lb ? -1 : 1;
  const aa = String(a.account);
  const ab = String(b.account);
  if (aa !== ab) return aa < ab ? -1 : 1;
  const ha = String(a.hash);
  const hb = String(b.hash);
  return ha < hb ? -1 : ha > hb ? 1 : 0;
}

function sortDocs(docs: TxDoc[], dir: 'ASC' | 'DESC'): TxDoc[] {
  const s = dir === 'ASC' ? 1 : -1;
  return docs.sort((a, b) => s * compareTx(a.tx, b.tx));
}

/**
 * Transactions by keys: from their documents, and from the flattened tables for keys that have none (stored before
 * documents existed). Order: as given, or (lt, account, hash) ASC / DESC.
 */
export async function loadByKeys(db: Db, keys: TxKey[], order: 'ASC' | 'DESC' | 'given' = 'DESC'): Promise<LoadedTx[]> {
  if (keys.length === 0) return [];
  const docs = await db.points.docs([...new Set(keys.map((k) => k[2]))]);
  return loadWithDocs(db, keys, docsByTxKey(db, docs), order);
}

/** Transactions by hash (unknown hashes left out), in (lt, account, hash) `order`. */
export async function loadByHashes(db: Db, hashes: string[], order: 'ASC' | 'DESC' = 'ASC'): Promise<LoadedTx[]> {
  if (hashes.length === 0) return [];
  const docs = docsByTxKey(db, await db.points.docs(hashes));
  const found = new Set([...docs.values()].map((d) => String(d.tx.hash)));
  const missing = hashes.filter((h) => !found.has(h));
  // hashes without a document (stored before 0012): their keys, for the flattened tables
  const keys: TxKey[] = [...docs.values()].map((d) => [String(d.tx.account), String(d.tx.lt), String(d.tx.hash)]);
  if (missing.length) {
    const rows = await db.q<{ account: string; lt: string; hash: string }>(
      'SELECT DISTINCT account, toString(lt) AS lt, hash FROM transactions_by_hash WHERE hash IN {h:Array(FixedString(64))}',
      { h: missing },
    );
    // (the key-value store's readers see none past the checkpoint, documents or not)
    for (const r of await db.points.visibleTxs(rows)) keys.push([r.account, r.lt, r.hash]);
  }
  return loadWithDocs(db, keys, docs, order);
}

/** Parsed documents (through the network's cache) by `${account}|${lt}` (the key loadWithDocs looks them up by). */
export function docsByTxKey(db: Db, texts: readonly string[]): Map<string, TxDoc> {
  const docs = new Map<string, TxDoc>();
  for (const text of texts) {
    const d = db.caches.docs.parse(text);
    docs.set(`${d.tx.account}|${d.tx.lt}`, d);
  }
  return docs;
}

/** loadByKeys with the documents already read (`docs` by `${account}|${lt}`). */
export async function loadWithDocs(
  db: Db,
  keys: readonly TxKey[],
  docs: ReadonlyMap<string, TxDoc>,
  order: 'ASC' | 'DESC' | 'given',
): Promise<LoadedTx[]> {
  const uniq = [...new Map(keys.map(([a, l]) => [`${a}|${l}`, [a, l] as [string, string | bigint]])).values()];
  const found = uniq.flatMap(([a, l]) => docs.get(`${a}|${l}`) ?? []);
  const missing = uniq.filter(([a, l]) => !docs.has(`${a}|${l}`));
  const [fromDocs, fromRows] = await Promise.all([
    loadDocs(db, found),
    missing.length ? transactionsByKeys(db, missing).then((rows) => loadRows(db, rows)) : Promise.resolve([]),
  ]);
  const all = [...fromDocs, ...fromRows];
  if (order === 'given') {
    const pos = new Map(uniq.map(([a, l], i) => [`${a}|${l}`, i]));
    return all.sort((x, y) => (pos.get(`${x.tx.account}|${x.tx.lt}`) ?? 0) - (pos.get(`${y.tx.account}|${y.tx.lt}`) ?? 0));
  }
  const s = order === 'ASC' ? 1 : -1;
  return all.sort((x, y) => s * compareTx(x.tx, y.tx));
}

/**
 * Transactions from their documents. States the writer did not hold (a first transaction's state before, when its
 * earlier block was not in the writer's memory) are point reads by hash.
 */
export async function loadDocs(db: Db, docs: TxDoc[]): Promise<LoadedTx[]> {
  const ctx: TxContext = { messages: new Map(), contents: new Map(), states: new Map(), decoded: db.caches.bodies };
  const lookup = new Set<string>();
  for (const d of docs) {
    const account = String(d.tx.account);
    ctx.messages.set(`${account}|${d.tx.lt}`, d.msgs);
    for (const [h, boc] of Object.entries(d.contents)) ctx.contents.set(h, boc);
    for (const h of [d.tx.account_state_hash_before, d.tx.account_state_hash_after] as string[]) {
      const st = d.states[h];
      if (st) ctx.states.set(`${account}|${h}`, st);
      else if (!d.absent.includes(h)) lookup.add(h);
    }
  }
  if (lookup.size) for (const s of await db.points.statesByHash([...lookup])) ctx.states.set(`${s.account}|${s.hash}`, s);
  return docs.map((d) => ({ tx: d.tx, ctx }));
}

/** The account_states columns a transaction renders (accountStateJson). */
const STATE_COLUMNS = 'account, hash, balance, extra_currencies, account_status, frozen_hash, data_hash, code_hash';
/** Keeps the first row of each key (rows of immutable tables repeat only when a block is written twice). */
export function uniqueBy<T extends Row>(rows: T[], key: (r: T) => string): T[] {
  const seen = new Set<string>();
  return rows.filter((r) => {
    const k = key(r);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** Fetches the messages, bodies and account states a page of transactions renders. */
export async function hydrate(db: Db, txs: Row[]): Promise<TxContext> {
  const ctx: TxContext = { messages: new Map(), contents: new Map(), states: new Map(), decoded: db.caches.bodies };
  if (txs.length === 0) return ctx;
  const keys = txs.map((t) => [t.account, BigInt(String(t.lt))]);
  const stateKeys: [string, string][] = [];
  for (const t of txs) {
    stateKeys.push([t.account as string, t.account_state_hash_before as string], [t.account as string, t.account_state_hash_after as string]);
  }
  const [msgRows, stateRows] = await Promise.all([
    db.q(`SELECT * FROM messages WHERE (tx_account, tx_lt) IN {k:Array(Tuple(String, UInt64))}`, { k: keys }),
    db.q(`SELECT ${STATE_COLUMNS} FROM account_states WHERE (account, hash) IN {k:Array(Tuple(String, FixedString(64)))}`, { k: stateKeys }),
  ]);
  const msgs = uniqueBy(msgRows, (m) => `${m.tx_account}|${m.tx_lt}|${m.direction}|${m.msg_hash}`);
  const states = uniqueBy(stateRows, (r) => `${r.account}|${r.hash}`);
  for (const m of msgs) {
    const k = `${m.tx_account}|${m.tx_lt}`;
    const list = ctx.messages.get(k);
    if (list) list.push(m);
    else ctx.messages.set(k, [m]);
  }
  for (const s of states) ctx.states.set(`${s.account}|${s.hash}`, s);
  await loadContents(db, msgs, ctx.contents);
  return ctx;
}

/** Bodies and init states of `msgs` into `into` (hash -> base64 BoC). */
export async function loadContents(db: Db, msgs: Row[], into: Map<string, string>): Promise<void> {
  const hashes = new Set<string>();
  for (const m of msgs) {
    for (const h of contentHashes(m)) hashes.add(h);
  }
  if (hashes.size === 0) return;
  const rows = await db.q<{ hash: string; boc: string }>(
    'SELECT hash, any(boc) AS boc FROM message_contents WHERE hash IN {h:Array(FixedString(64))} GROUP BY hash',
    { h: [...hashes] },
  );
  for (const r of rows) into.set(r.hash, r.boc);
}

/** A page of transaction rows with their messages and states. */
export async function loadRows(db: Db, txs: Row[]): Promise<LoadedTx[]> {
  const ctx = await hydrate(db, txs);
  return txs.map((t) => ({ tx: t, ctx }));
}

/** Keys of transactions that sent (out) / received (in) messages with the given hash. */
export async function txKeysByMessage(db: Db, hashes: string[], direction?: 'in' | 'out'): Promise<TxKey[]> {
  const rows = await db.q<{ tx_account: string; tx_lt: string; tx_hash: string }>(
    `SELECT DISTINCT tx_account, tx_lt, tx_hash FROM message_hashes WHERE hash IN {h:Array(FixedString(64))} ${direction ? 'AND direction = {d:String}' : ''}`,
    { h: hashes, d: direction ?? '' },
  );
  return rows.map((r) => [r.tx_account, r.tx_lt, r.tx_hash]);
}

export async function mcBlockExists(db: Db, seqno: number): Promise<boolean> {
  const r = await db.q(
    "SELECT 1 FROM blocks WHERE workchain = -1 AND shard = 9223372036854775808 AND seqno = {s:UInt32} LIMIT 1",
    { s: seqno },
  );
  return r.length > 0;
}
