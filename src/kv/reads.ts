/**
 * PointReads over the key-value store: gets and short range scans, no engine statement. Every read sees only
 * entries whose tag is at most `visible` (kv.ts), read once per call.
 */
import type { Database } from 'lmdb';
import { addrKey, hashKey, prefixEnd, readAddr, u64 } from './keys.ts';
import type { Kv } from './kv.ts';

/** The key-value store's sub-dbs, by name. */
type KvDbs = Kv['db'];
import { METADATA_TYPES } from './mirror.ts';
import type { Row } from '../util/index.ts';
import type { FactRow, LtPage, MessageTx, PointReads, TraceTx, TxKeyRow } from './point-reads.ts';

const tagOf = (key: Buffer): number => key.readUInt32BE(key.length - 4);

/** The newest version under `prefix` whose tag is at most `visible` (kv.ts: `prefix, version, tag` keys). */
export function newestVisible(db: Database, prefix: Buffer, visible: number): unknown {
  for (const { key, value } of db.getRange({ start: prefixEnd(prefix, 13), end: prefix, reverse: true })) {
    if (tagOf(key as Buffer) <= visible) return value;
  }
  return undefined;
}

type DocEntry = [tag: number, traced: number, text: string];

/** Rows of a versioned db for keys of `addresses`, the newest visible version each. */
function heads(db: Database, addresses: readonly string[], visible: number): Row[] {
  const out: Row[] = [];
  for (const a of new Set(addresses)) {
    const v = newestVisible(db, addrKey(a), visible);
    if (v !== undefined) out.push(v as Row);
  }
  return out;
}

/** Entries of `db` under `prefix` in key order (`reverse`: descending), as [key, value]. */
function* scan(db: Database, prefix: Buffer, reverse = false): Generator<[Buffer, unknown]> {
  const range = reverse ? { start: prefixEnd(prefix, 64), end: prefix, reverse: true } : { start: prefix, end: prefixEnd(prefix, 64) };
  for (const { key, value } of db.getRange(range)) yield [key as Buffer, value];
}

const LT_MAX = 2n ** 64n - 1n;

/**
 * The entries of one lt-ordered list (`prefix`, then lt as 8 bytes at `ltAt`) within the page's window, in its
 * order, visible ones only (`tag` reads an entry's tag), at most `want` of them.
 */
function ltWindow<T>(db: Database, prefix: Buffer, page: LtPage, visible: number, want: number, take: (key: Buffer, value: unknown) => T | null, tag: (value: unknown) => number): T[] {
  const lo = page.startLt ?? 0n;
  const hi = page.endLt ?? LT_MAX;
  const out: T[] = [];
  if (want <= 0 || lo > hi) return out;
  const at = prefix.length;
  for (const [key, value] of scan(db, prefix, page.dir === 'DESC')) {
    const lt = key.readBigUInt64BE(at);
    if (page.dir === 'DESC' ? lt > hi : lt < lo) continue;
    if (page.dir === 'DESC' ? lt < lo : lt > hi) break;
    if (tag(value) > visible) continue;
    const item = take(key, value);
    if (item === null) continue;
    out.push(item);
    if (out.length >= want) break;
  }
  return out;
}

/**
 * `everything`: entries past the checkpoint too (the writer's own process reading back what it wrote: the streaming
 * publisher after a restart, the traces stage's context reading the states the store stage wrote ahead of the
 * checkpoint, src/store/traces/context.ts); readers serving clients never set it.
 */
export function kvPointReads(kv: Kv, opts: { everything?: boolean } = {}): PointReads {
  const db = kv.db;
  const visibleNow = () => (opts.everything ? Number.MAX_SAFE_INTEGER : kv.visible());
  return {
    kind: 'kv',
    async docs(hashes) {
      const visible = visibleNow();
      const out: string[] = [];
      for (const h of new Set(hashes)) {
        const v = db.docs.get(hashKey(h)) as DocEntry | undefined;
        if (v && v[0] <= visible) out.push(v[2]);
      }
      return out;
    },
    async statesByHash(hashes) {
      const visible = visibleNow();
      const out: Row[] = [];
      for (const h of new Set(hashes)) {
        const v = db.states.get(hashKey(h)) as [number, Row] | undefined;
        if (v && v[0] <= visible) out.push(v[1]);
      }
      return out;
    },
    async messageTxs(hashes) {
      return messageTxsOf(db, hashes, visibleNow());
    },
    async traces(ids) {
      const visible = visibleNow();
      const out: Row[] = [];
      for (const id of new Set(ids)) {
        const v = newestVisible(db.traces, hashKey(id), visible);
        if (v !== undefined) out.push(v as Row);
      }
      return out;
    },
    async traceTxs(ids) {
      const visible = visibleNow();
      const out: TraceTx[] = [];
      for (const id of new Set(ids)) {
        for (const [key, value] of scan(db.tracetx, hashKey(id))) {
          const [tag, account] = value as [number, string];
          if (tag <= visible) out.push({ trace_id: id, account, lt: key.readBigUInt64BE(32).toString(), hash: key.toString('hex', 40, 72) });
        }
      }
      return out;
    },
    async latestStates(accounts) {
      return heads(db.latest, accounts, visibleNow());
    },
    async codeHashes(accounts) {
      const out = new Map<string, string | null>();
      for (const s of heads(db.latest, accounts, visibleNow())) out.set(String(s.account), (s.code_hash as string | null) ?? null);
      return out;
    },
    async codes(codeHashes) {
      return byHash<string>(db.codes, codeHashes);
    },
    async methods(codeHashes) {
      return byHash<number[]>(db.methods, codeHashes);
    },
    async facts(addresses, facts) {
      return factsOf(db, addresses, facts, visibleNow());
    },
    async domains(wallets) {
      return ownedDomains(db, wallets, visibleNow());
    },
    async jettonWallets(addresses) {
      return heads(db.jwallets, addresses, visibleNow());
    },
    async addressMetadata(addresses) {
      return metadataHeads(db, addresses, visibleNow());
    },
    async visibleTxs(keys) {
      const visible = visibleNow();
      return keys.filter((k) => {
        const v = db.txs.get(Buffer.concat([addrKey(k.account), u64(BigInt(k.lt))])) as [number, string] | undefined;
        return v !== undefined && v[0] <= visible && v[1] === k.hash;
      });
    },
    async accountTxKeys(account, page) {
      const visible = visibleNow();
      const prefix = addrKey(account);
      const rows = ltWindow(
        db.txs,
        prefix,
        page,
        visible,
        page.offset + page.limit,
        (key, value) => ({ account, lt: key.readBigUInt64BE(prefix.length).toString(), hash: (value as [number, string])[1] }),
        (value) => (value as [number])[0],
      );
      return rows.slice(page.offset) satisfies TxKeyRow[];
    },
    async jettonTransfers(owners, direction, page) {
      return jettonTransferPage(db, owners, direction, page, visibleNow());
    },
  };
}

/** The shortest domain of each wallet that a DNS item names while the wallet owns it. */
function ownedDomains(db: KvDbs, wallets: readonly string[], visible: number): Map<string, string> {
  const out = new Map<string, string>();
  for (const w of new Set(wallets)) {
    const prefix = addrKey(w);
    let best: string | null = null;
    for (const [key, value] of scan(db.dnsw, prefix)) {
      if ((value as [number])[0] > visible) continue;
      const item = readAddr(key, prefix.length).address;
      const e = newestVisible(db.dns, addrKey(item), visible) as { nft_item_owner: string | null; domain: string; dns_wallet: string | null } | undefined;
      if (!e || e.dns_wallet !== w || e.nft_item_owner !== w) continue;
      if (best === null || e.domain.length < best.length || (e.domain.length === best.length && e.domain < best)) best = e.domain;
    }
    if (best !== null) out.set(w, best);
  }
  return out;
}

/** The newest visible address_metadata row of each type, per address. */
function metadataHeads(db: KvDbs, addresses: readonly string[], visible: number): Row[] {
  const out: Row[] = [];
  for (const a of new Set(addresses)) {
    const prefix = addrKey(a);
    const seen = new Set<number>();
    // versions newest first within each type byte
    for (const [key, value] of scan(db.meta, prefix, true)) {
      const type = key[prefix.length];
      if (seen.has(type) || tagOf(key) > visible || type >= METADATA_TYPES.length) continue;
      seen.add(type);
      out.push(value as Row);
    }
  }
  return out;
}

/** The facts among `facts` of these addresses. */
function factsOf(db: KvDbs, addresses: readonly string[], facts: readonly string[], visible: number): FactRow[] {
  const wanted = new Set(facts);
  const out: FactRow[] = [];
  for (const a of new Set(addresses)) {
    const prefix = addrKey(a);
    for (const [key, value] of scan(db.facts, prefix)) {
      const fact = key.toString('utf8', prefix.length);
      const [tag, v] = value as [number, string | null];
      if (tag <= visible && wanted.has(fact)) out.push({ address: a, fact, value: v });
    }
  }
  return out;
}

/** Non-aborted jetton transfers of `owners` in (tx_lt, tx_hash) order, one per transfer, paged (PointReads.jettonTransfers). */
function jettonTransferPage(db: KvDbs, owners: readonly string[], direction: 'in' | 'out' | 'both', page: LtPage, visible: number): Row[] {
  const flag = direction === 'in' ? 1 : direction === 'out' ? 2 : 3;
  const want = page.offset + page.limit;
  const byKey = new Map<string, { lt: bigint; hash: string; row: Row }>();
  for (const owner of new Set(owners)) {
    const prefix = addrKey(owner);
    const rows = ltWindow(
      db.jt,
      prefix,
      page,
      visible,
      want,
      (key, value) => {
        const [, flags, row] = value as [number, number, Row];
        return flags & flag ? { lt: key.readBigUInt64BE(prefix.length), hash: key.toString('hex', prefix.length + 8), row } : null;
      },
      (value) => (value as [number])[0],
    );
    for (const r of rows) byKey.set(`${r.lt}|${r.hash}`, r);
  }
  const s = page.dir === 'ASC' ? 1 : -1;
  const all = [...byKey.values()].sort((a, b) => s * (a.lt !== b.lt ? (a.lt < b.lt ? -1 : 1) : a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0));
  return all.slice(page.offset, want).map((r) => r.row);
}

/** Entries of an unversioned db keyed by hash (code BoCs, method ids), for those of `hashes` it has. */
function byHash<T>(db: Database, hashes: readonly string[]): Map<string, T> {
  const out = new Map<string, T>();
  for (const h of new Set(hashes)) {
    const v = db.get(hashKey(h)) as T | undefined;
    if (v !== undefined) out.set(h, v);
  }
  return out;
}

/** The visible transactions that sent or received messages whose own or normalized hash is one of `hashes`. */
function messageTxsOf(db: KvDbs, hashes: readonly string[], visible: number): MessageTx[] {
  const out: MessageTx[] = [];
  for (const h of new Set(hashes)) {
    for (const [key, value] of scan(db.msgs, hashKey(h))) {
      const [tag, account, lt, msgHash] = value as [number, string, string, string];
      if (tag > visible) continue;
      out.push({ hash: h, direction: key[32] === 0 ? 'in' : 'out', is_norm: key[33] ? 1 : 0, msg_hash: msgHash, tx_account: account, tx_lt: lt, tx_hash: key.toString('hex', 34, 66) });
    }
  }
  return out;
}
