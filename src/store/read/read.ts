import { TupleParam } from '@clickhouse/client';
import type { StoreClient } from '../client/index.ts';
import { kvPointReads } from '../../kv/index.ts';
import { parseTxDoc, type TxDoc } from '../../decode/index.ts';

/**
 * Lookups the API needs, each served by a primary key (see clickhouse/README.md). Every read uses
 * FINAL so a block written twice is seen once. Hashes: lower-case hex; addresses: raw `wc:HEX`
 * (upper-cased here); rows come back as ClickHouse JSON (64-bit+ integers as decimal strings).
 */
import type { Row } from '../../util/index.ts';

const HEX64 = /^[0-9a-fA-F]{64}$/;

function hash(h: string, what = 'hash'): string {
  if (!HEX64.test(h)) throw new Error(`invalid ${what} "${h}": want 64 hex characters`);
  return h.toLowerCase();
}

/** Normalizes a raw address to the stored form; rejects anything else. */
/** Documents of the transactions with hashes `{h:Array(FixedString(64))}`: RocksDB gets by key (clickhouse/0013). */
const DOCS_BY_HASH_SQL = 'SELECT doc FROM transaction_docs_kv WHERE hash IN {h:Array(FixedString(64))}';

export function rawAddress(a: string): string {
  const m = /^(-?\d+):([0-9a-fA-F]{64})$/.exec(a);
  if (!m) throw new Error(`invalid raw address "${a}": want <workchain>:<64 hex>`);
  return `${m[1]}:${m[2].toUpperCase()}`;
}

export interface LtRange {
  startLt?: bigint;
  endLt?: bigint;
  limit?: number;
  offset?: number;
  sort?: 'asc' | 'desc';
}

function page(r: LtRange): { limit: number; offset: number; dir: 'ASC' | 'DESC' } {
  return { limit: r.limit ?? 100, offset: r.offset ?? 0, dir: r.sort === 'asc' ? 'ASC' : 'DESC' };
}

const TX_COLUMNS = '* EXCEPT (block_shard), lpad(hex(block_shard), 16, \'0\') AS block_shard';

/** Transactions by hash (0..n rows: the same hash could exist in several places only by collision). */
export async function transactionsByHash(store: StoreClient, hashes: string[]): Promise<Row[]> {
  if (hashes.length === 0) return [];
  return store.query(
    `SELECT ${TX_COLUMNS} FROM transactions FINAL
     WHERE (account, lt, hash) IN (SELECT account, lt, hash FROM transactions_by_hash WHERE hash IN {h:Array(FixedString(64))})
     ORDER BY lt DESC, account`,
    { h: hashes.map((h) => hash(h)) },
  );
}

/**
 * Transaction documents (clickhouse/0012) by hash, parsed: what the API renders a transaction by hash from (the
 * key-value store's, src/kv, where it serves point reads).
 */
export async function transactionDocsByHash(store: StoreClient, hashes: string[]): Promise<TxDoc[]> {
  if (hashes.length === 0) return [];
  if (store.kv && store.pointReads === 'kv') return (await kvPointReads(store.kv).docs(hashes.map((h) => hash(h)))).map(parseTxDoc);
  const rows = await store.query<{ doc: string }>(DOCS_BY_HASH_SQL, { h: hashes.map((h) => hash(h)) });
  return rows.map((r) => parseTxDoc(r.doc));
}

/** An account's transactions, optionally within [startLt, endLt], newest first by default. */
export async function transactionsByAccount(store: StoreClient, account: string, range: LtRange = {}): Promise<Row[]> {
  const { limit, offset, dir } = page(range);
  return store.query(
    `SELECT ${TX_COLUMNS} FROM transactions FINAL
     WHERE account = {a:String} AND lt >= {s:UInt64} AND lt <= {e:UInt64}
     ORDER BY lt ${dir} LIMIT {limit:UInt32} OFFSET {offset:UInt32}`,
    { a: rawAddress(account), s: range.startLt ?? 0n, e: range.endLt ?? 2n ** 64n - 1n, limit, offset },
  );
}

/** Transactions committed by masterchain block `seqno` (lt order, then account). */
export async function transactionsByMcSeqno(store: StoreClient, seqno: number, range: LtRange = {}): Promise<Row[]> {
  const { limit, offset, dir } = page(range);
  return store.query(
    `SELECT ${TX_COLUMNS} FROM transactions FINAL
     WHERE (account, lt, hash) IN (SELECT account, lt, hash FROM transactions_by_lt WHERE mc_block_seqno = {seqno:UInt32})
     ORDER BY lt ${dir}, account ASC LIMIT {limit:UInt32} OFFSET {offset:UInt32}`,
    { seqno, limit, offset },
  );
}

/** In and out messages of the given transactions (the (account, lt) keys of a transaction page). */
export async function messagesOfTransactions(store: StoreClient, txs: { account: string; lt: bigint | string }[]): Promise<Row[]> {
  if (txs.length === 0) return [];
  return store.query(
    `SELECT * FROM messages FINAL
     WHERE (tx_account, tx_lt) IN {k:Array(Tuple(String, UInt64))}
     ORDER BY tx_account, tx_lt, direction, created_lt`,
    { k: txs.map((t) => new TupleParam([rawAddress(t.account), BigInt(t.lt)])) },
  );
}

/** Message rows whose msg_hash or msg_hash_norm is one of `hashes` (one row per direction). */
export async function messagesByHash(store: StoreClient, hashes: string[], direction?: 'in' | 'out'): Promise<Row[]> {
  if (hashes.length === 0) return [];
  return store.query(
    `SELECT * FROM messages FINAL
     WHERE (tx_account, tx_lt, tx_hash, direction, msg_hash) IN (
       SELECT tx_account, tx_lt, tx_hash, direction, msg_hash FROM message_hashes
       WHERE hash IN {h:Array(FixedString(64))} ${direction ? 'AND direction = {d:String}' : ''})
     ORDER BY msg_hash, direction`,
    { h: hashes.map((h) => hash(h)), d: direction ?? '' },
  );
}

/** Latest state of an account (null when never seen), with its code from contract_code (or the key-value store, src/kv). */
export async function latestAccountState(store: StoreClient, account: string): Promise<Row | null> {
  if (store.kv && store.pointReads === 'kv') {
    const reads = kvPointReads(store.kv);
    const [s] = await reads.latestStates([rawAddress(account)]);
    if (!s) return null;
    const code = typeof s.code_hash === 'string' ? (await reads.codes([s.code_hash])).get(s.code_hash) : undefined;
    return { ...s, code_boc: code ?? null };
  }
  const rows = await store.query(
    `SELECT s.*, c.code_boc AS code_boc
     FROM (SELECT * FROM latest_account_states_kv WHERE account = {a:String}) AS s
     LEFT JOIN (SELECT code_hash, any(code_boc) AS code_boc FROM contract_code
                WHERE code_hash IN (SELECT code_hash FROM latest_account_states_kv WHERE account = {a:String} AND code_hash IS NOT NULL)
                GROUP BY code_hash) AS c
       ON s.code_hash = c.code_hash`,
    { a: rawAddress(account) },
    { join_use_nulls: 1 },
  );
  return rows[0] ?? null;
}

const BLOCK_COLUMNS =
  "* EXCEPT (shard, mc_block_shard), lpad(hex(shard), 16, '0') AS shard, lpad(hex(mc_block_shard), 16, '0') AS mc_block_shard";

/** One block by its id (shard as 16 hex digits). */
export async function blockById(store: StoreClient, workchain: number, shard: string, seqno: number): Promise<Row | null> {
  if (!/^[0-9a-fA-F]{1,16}$/.test(shard)) throw new Error(`invalid shard "${shard}": want up to 16 hex digits`);
  const rows = await store.query(
    `SELECT ${BLOCK_COLUMNS} FROM blocks AS b FINAL
     WHERE b.workchain = {wc:Int32} AND b.shard = {shard:UInt64} AND b.seqno = {seqno:UInt32}`,
    { wc: workchain, shard: BigInt('0x' + shard), seqno },
  );
  return rows[0] ?? null;
}

/** Masterchain block `seqno` and every shard block it commits. */
export async function blocksByMcSeqno(store: StoreClient, mcSeqno: number): Promise<Row[]> {
  return store.query(
    `SELECT ${BLOCK_COLUMNS} FROM blocks AS b FINAL WHERE b.mc_block_seqno = {seqno:UInt32} ORDER BY b.workchain, b.shard, b.seqno`,
    { seqno: mcSeqno },
  );
}

/**
 * Row counts per table as readers see them (FINAL: duplicates collapsed; the RocksDB `_kv` tables of clickhouse/0013
 * hold one row per key already and take no FINAL).
 */
export async function tableCounts(store: StoreClient, tables: readonly string[]): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of tables) {
    if (!/^[a-z_]+$/.test(t)) throw new Error(`invalid table name "${t}"`);
    if (t === 'transaction_docs_kv' && store.kv && store.pointReads === 'kv') {
      // the documents live in the key-value store alone there (clickhouse/0017)
      out[t] = store.kv.db.docs.getCount();
      continue;
    }
    const [r] = await store.query<{ c: string }>(`SELECT count() AS c FROM ${t}${t.endsWith('_kv') ? '' : ' FINAL'}`);
    out[t] = Number(r.c);
  }
  return out;
}
