/**
 * `/messages` by hash alone, from the documents of the transactions that sent and received them
 * (clickhouse/0012): point reads (db.points) of the message's transactions (by its own or normalized hash) and their
 * documents, instead of the grouped read over `messages` plus `message_contents`.
 */
import type { Db, Row } from '../db.ts';
import type { Page } from '../params.ts';
import { contentHashes } from '../../../store/index.ts';
import { docsByTxKey } from './transactions.ts';

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
  const docs = docsByTxKey(await db.points.docs([...new Set(keys.map((k) => k.tx_hash))]));
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
