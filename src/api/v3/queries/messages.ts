/**
 * `/messages`: one row per message (its in / out rows merged) with the contents of its body and init state. By hash
 * alone, from the documents of the transactions that sent and received them (clickhouse/0012): point reads
 * (db.points) of the message's transactions (by its own or normalized hash) and their documents, instead of the
 * grouped read over `messages` plus `message_contents`; with other filters, the grouped read.
 */
import type { Db, Row } from '../db.ts';
import type { LtWindow, Page } from '../params.ts';
import { contentHashes } from '../../../decode/index.ts';
import { docsByTxKey, loadContents } from './transactions.ts';

export interface MessagesFilter extends LtWindow {
  /** Message hashes or normalized hashes (external-in). */
  hashes: string[];
  body_hash?: string;
  /** Sender; null: external-in messages. */
  source?: string | null;
  /** Receiver; null: external-out messages. */
  destination?: string | null;
  opcode?: number;
  direction?: 'in' | 'out';
  exclude_externals?: boolean;
  only_externals?: boolean;
}

/**
 * Messages matching `f`, ordered created_lt (created_at with a utime bound) then msg_hash in `page.dir`, paged;
 * external-in messages (no created_lt) last in DESC. Rows carry in_tx / out_tx: the receiving and sending transactions.
 */
export async function findMessages(db: Db, f: MessagesFilter, page: Page): Promise<MessagesFromDocs> {
  const otherFilters =
    [f.body_hash, f.source, f.destination, f.opcode, f.direction, f.start_lt, f.end_lt, f.start_utime, f.end_utime].some((v) => v !== undefined) ||
    f.exclude_externals === true ||
    f.only_externals === true;
  if (f.hashes.length && !otherFilters) {
    const fromDocs = await messagesByHashFromDocs(db, f.hashes, page);
    if (fromDocs) return fromDocs;
  }
  const rows = await messagesGrouped(db, f, page);
  const contents = new Map<string, string>();
  await loadContents(db, rows, contents);
  return { rows, contents };
}

/** findMessages over the flattened tables: `messages` rows filtered, then grouped by msg_hash. */
async function messagesGrouped(db: Db, f: MessagesFilter, pg: Page): Promise<Row[]> {
  const p: Record<string, unknown> = { limit: pg.limit, offset: pg.offset };
  const c: string[] = [];
  if (f.hashes.length) {
    p.h = f.hashes;
    c.push('(tx_account, tx_lt, direction, msg_hash) IN (SELECT tx_account, tx_lt, direction, msg_hash FROM message_hashes WHERE hash IN {h:Array(FixedString(64))})');
  }
  if (f.body_hash !== undefined) {
    p.bh = f.body_hash;
    c.push('body_hash = {bh:FixedString(64)}');
  }
  if (f.source !== undefined) {
    if (f.source === null) c.push("message_type = 'ext_in'");
    else {
      p.src = f.source;
      c.push('source = {src:String}');
    }
  }
  if (f.destination !== undefined) {
    if (f.destination === null) c.push("message_type = 'ext_out'");
    else {
      p.dst = f.destination;
      c.push('destination = {dst:String}');
    }
  }
  if (f.opcode !== undefined) {
    p.op = f.opcode;
    c.push('opcode = {op:Int32}');
  }
  if (f.direction !== undefined) {
    p.d = f.direction;
    c.push('direction = {d:String}');
  }
  const byUtime = f.start_utime !== undefined || f.end_utime !== undefined;
  const col = byUtime ? 'created_at' : 'created_lt';
  if (f.start_utime !== undefined) { p.sut = f.start_utime; c.push('created_at >= {sut:UInt32}'); }
  if (f.end_utime !== undefined) { p.eut = f.end_utime; c.push('created_at <= {eut:UInt32}'); }
  if (f.start_lt !== undefined) { p.slt = f.start_lt; c.push('created_lt >= {slt:UInt64}'); }
  if (f.end_lt !== undefined) { p.elt = f.end_lt; c.push('created_lt <= {elt:UInt64}'); }
  if (f.exclude_externals) c.push(`${col} IS NOT NULL`);
  if (f.only_externals) c.push(`${col} IS NULL`);
  const where = c.length ? 'WHERE ' + c.join(' AND ') : '';
  // one row per msg_hash: group the in/out rows, keep both transaction hashes
  return db.q(
    `SELECT msg_hash, any(m.message_type) AS message_type, any(m.msg_hash_norm) AS msg_hash_norm, any(m.source) AS source,
            any(m.destination) AS destination, any(m.value) AS value, any(m.value_extra_currencies) AS value_extra_currencies,
            any(m.fwd_fee) AS fwd_fee, any(m.ihr_fee) AS ihr_fee, any(m.extra_flags) AS extra_flags, any(m.created_lt) AS created_lt,
            any(m.created_at) AS created_at, any(m.opcode) AS opcode, any(m.ihr_disabled) AS ihr_disabled, any(m.bounce) AS bounce,
            any(m.bounced) AS bounced, any(m.import_fee) AS import_fee, any(m.body_hash) AS body_hash, any(m.init_state_hash) AS init_state_hash,
            anyIf(m.tx_hash, m.direction = 'in') AS in_tx, anyIf(m.tx_hash, m.direction = 'out') AS out_tx
     FROM (SELECT * FROM messages ${where}) AS m
     GROUP BY msg_hash
     ORDER BY ${col} ${pg.dir} NULLS ${pg.dir === 'DESC' ? 'LAST' : 'FIRST'}, msg_hash ${pg.dir}
     LIMIT {limit:UInt32} OFFSET {offset:UInt32}`,
    p,
  );
}

export interface MessagesFromDocs {
  /** one row per message: the fields of its in / out rows (first non-null, as any() gives), plus in_tx / out_tx */
  rows: Row[];
  contents: Map<string, string>;
}

/**
 * Messages whose hash or normalized hash is in `hashes`, ordered (created_lt, msg_hash) in `page.dir` (external-in
 * messages, without created_lt, last in DESC and first in ASC), paged. Null when a transaction that holds one of
 * them has no document (stored before 0012): the caller reads the flattened tables then.
 */
export async function messagesByHashFromDocs(db: Db, hashes: string[], page: Page): Promise<MessagesFromDocs | null> {
  const wanted = new Set(hashes);
  const keys = await db.points.messageTxs(hashes);
  const docs = docsByTxKey(db, await db.points.docs([...new Set(keys.map((k) => k.tx_hash))]));
  for (const k of keys) if (!docs.has(`${k.tx_account}|${k.tx_lt}`)) return null;
  const merged = new Map<string, Row>();
  const contents = new Map<string, string>();
  // in transaction order, so the first non-null field (and the first receiver of an external-in message accepted
  // more than once) is the same whatever order the point reads gave
  const ordered = [...docs.values()].sort((a, b) => {
    const la = BigInt(String(a.tx.lt));
    const lb = BigInt(String(b.tx.lt));
    return la !== lb ? (la < lb ? -1 : 1) : String(a.tx.hash) < String(b.tx.hash) ? -1 : 1;
  });
  for (const d of ordered) {
    for (const m of d.msgs) {
      const h = String(m.msg_hash);
      if (!wanted.has(h) && !(typeof m.msg_hash_norm === 'string' && wanted.has(m.msg_hash_norm))) continue;
      let row = merged.get(h);
      if (!row) merged.set(h, (row = { msg_hash: h, in_tx: null, out_tx: null }));
      for (const [f, v] of Object.entries(m)) if (row[f] == null && v != null) row[f] = v;
      if (m.direction === 'in') row.in_tx ??= m.tx_hash;
      else row.out_tx ??= m.tx_hash;
      for (const c of contentHashes(m)) if (d.contents[c] !== undefined) contents.set(c, d.contents[c]);
    }
  }
  const s = page.dir === 'ASC' ? 1 : -1;
  const sorted = [...merged.values()].sort((a, b) => {
    // NULLS LAST for DESC, FIRST for ASC: a null created_lt sorts below every value
    const la = a.created_lt == null ? -1n : BigInt(String(a.created_lt));
    const lb = b.created_lt == null ? -1n : BigInt(String(b.created_lt));
    if (la !== lb) return s * (la < lb ? -1 : 1);
    return s * (String(a.msg_hash) < String(b.msg_hash) ? -1 : String(a.msg_hash) > String(b.msg_hash) ? 1 : 0);
  });
  return { rows: sorted.slice(page.offset, page.offset + page.limit), contents };
}
