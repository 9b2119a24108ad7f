/**
 * `/messages` by hash alone, from the documents of the transactions that sent and received them
 * (clickhouse/0012): one statement instead of the grouped read over `messages` plus `message_contents`. The
 * transactions come from `message_txs_kv` (RocksDB gets by hash and direction, clickhouse/0013); normalized hashes
 * and external-in messages received more than once from `message_hashes`.
 */
import type { Db, Row } from '../db.ts';
import type { Page } from '../params.ts';
import { contentHashes, type TxDoc } from '../../../store/index.ts';
import { keysWithDocs } from './transactions.ts';

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
  // the transaction keys and their documents in one statement: a key without a document sends the caller back
  let { keys, docs } = await keysWithDocs(
    db,
    'SELECT tx_account AS account, tx_lt AS lt, tx_hash, 0 AS tag FROM message_txs_kv WHERE key IN {k:Array(String)}',
    { k: hashes.flatMap((h) => [`${h}/in`, `${h}/out`]) },
  );
  if (!keysComplete(wanted, docs.values())) {
    ({ keys, docs } = await keysWithDocs(db, 'SELECT tx_account AS account, tx_lt AS lt, tx_hash, 0 AS tag FROM message_hashes WHERE hash IN {h:Array(FixedString(64))}', { h: hashes }));
  }
  for (const k of keys) if (!docs.has(`${k.account}|${k.lt}`)) return null;
  const merged = new Map<string, Row>();
  const contents = new Map<string, string>();
  for (const d of docs.values()) {
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

/**
 * Whether the message_txs_kv answer is the whole one: every hash found in a document as a message's own hash (a
 * normalized hash is not a key there; an external-in message received more than once has a zero tx_hash there,
 * which finds no document).
 */
function keysComplete(wanted: ReadonlySet<string>, docs: Iterable<TxDoc>): boolean {
  const found = new Set<string>();
  for (const d of docs) for (const m of d.msgs) if (wanted.has(String(m.msg_hash))) found.add(String(m.msg_hash));
  return found.size === wanted.size;
}
