/**
 * The write side: rows of the ClickHouse tables the key-value store mirrors, turned into its entries. Writers call
 * `mirrorRows` with the rows of a write in the same batch as their ClickHouse inserts (the store writer, the traces
 * stage, the metadata fetcher), and await it before the write's last step (the block markers, the traces stage's
 * saved state), so entries are committed before the checkpoint can pass their seqnos.
 *
 * Idempotent, as the ClickHouse side is: a replay writes the same keys with the same values; versioned entries keep
 * the newest version a reader can see and everything newer (see kv.ts), never an older one.
 */
import type { Database } from 'lmdb';
import { jsonRow } from './json.ts';
import { addrKey, hashKey, prefixEnd, u32, u64 } from './keys.ts';
import type { Row } from '../util/index.ts';
import type { Kv } from './kv.ts';
import { mirrorListRows } from './lists-mirror.ts';

/** Rows of one table and the tag of their entries (the masterchain seqno of their write; 0: visible at once). */
export interface MirrorInput {
  table: string;
  rows: readonly Row[];
  tag: number;
}

/** Entity tables whose rows make an address fact (what the address is), and the column holding the address. */
const FACT_TABLES: Record<string, string> = {
  jetton_masters: 'address',
  jetton_wallets: 'address',
  nft_collections: 'address',
  nft_items: 'address',
  multisig: 'address',
  multisig_orders: 'address',
  vesting_contracts: 'address',
};

/** address_metadata.type values, as the byte in `meta` keys. */
export const METADATA_TYPES = ['jetton_masters', 'jetton_wallets', 'nft_items', 'nft_collections'] as const;

/** The tables mirrored here; rows of others are ignored. */
export const MIRRORED_TABLES = new Set([
  'transaction_docs_kv',
  'transactions_by_lt',
  'message_hashes',
  'account_states',
  'latest_account_states',
  'contract_code',
  'contract_methods',
  'traces',
  'trace_transactions',
  'jetton_wallets',
  'nft_items',
  'dns_entries',
  'address_metadata',
  'jetton_transfers',
  ...Object.keys(FACT_TABLES),
]);

const DIRECTION = { in: 0, out: 1 } as const;

/** A version column's value as an unsigned 64-bit integer (a DateTime64 as its milliseconds). */
function versionOf(v: unknown): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number') return BigInt(Math.trunc(v));
  if (v instanceof Date) return BigInt(v.getTime());
  const s = String(v ?? '0');
  if (/^\d+$/.test(s)) return BigInt(s);
  // DateTime64(3) input as "seconds.millis" since the epoch (src/metadata)
  const epoch = /^(\d+)\.(\d{1,3})$/.exec(s);
  if (epoch) return BigInt(epoch[1]) * 1000n + BigInt(epoch[2].padEnd(3, '0'));
  const ms = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(s) ? s.replace(' ', 'T') : `${s.replace(' ', 'T')}Z`);
  if (!Number.isFinite(ms)) throw new Error(`kv: version "${s}" is neither an integer nor a time`);
  return BigInt(ms);
}

function text(v: unknown): string {
  return typeof v === 'string' ? v : String(v);
}

/** One mirrored write: puts and removes queued on LMDB's write thread; `done` resolves once all are committed. */
class Batch {
  private last: Promise<unknown> = Promise.resolve();
  private readonly visible: number;
  private readonly earliest = new Map<Database, Map<string, number>>();

  constructor(private readonly kv: Kv) {
    this.visible = kv.visible();
  }

  put(db: Database, key: Buffer, value: unknown): void {
    this.last = db.put(key, value);
  }

  remove(db: Database, key: Buffer): void {
    this.last = db.remove(key);
  }

  /**
   * A versioned entry: key `prefix, version, tag`. Nothing older than the newest version readers already see is
   * written; the versions under the newest visible one (including this entry, when it is visible at once) go.
   */
  putVersioned(db: Database, prefix: Buffer, version: bigint, tag: number, value: unknown): void {
    const key = Buffer.concat([prefix, u64(version), u32(tag)]);
    const existing: Buffer[] = [];
    for (const k of db.getKeys({ start: prefixEnd(prefix, 13), end: prefix, reverse: true })) existing.push(k as Buffer);
    const head = existing.findIndex((k) => k.readUInt32BE(k.length - 4) <= this.visible);
    if (head >= 0 && Buffer.compare(key, existing[head]) < 0) {
      for (const k of existing.slice(head + 1)) this.remove(db, k);
      return;
    }
    this.put(db, key, value);
    // from here down, versions no reader will ask for: those under the newest visible one (this one, when visible)
    const cut = tag <= this.visible ? existing.findIndex((k) => Buffer.compare(k, key) < 0) : head >= 0 ? head + 1 : -1;
    if (cut >= 0) for (const k of existing.slice(cut)) if (!k.equals(key)) this.remove(db, k);
  }

  /** A set entry `[tag, ...]` whose earliest tag wins (a fact is as old as its first row). */
  putEarliest(db: Database, key: Buffer, value: [tag: number, ...rest: unknown[]]): void {
    // this write's own earlier puts are not committed yet: a get would not see them
    const id = key.toString('latin1');
    let pending = this.earliest.get(db);
    if (!pending) this.earliest.set(db, (pending = new Map()));
    const mine = pending.get(id);
    if (mine !== undefined && mine <= value[0]) return;
    if (mine === undefined) {
      const old = db.get(key) as unknown[] | undefined;
      if (old !== undefined && (old[0] as number) <= value[0]) {
        pending.set(id, old[0] as number);
        return;
      }
    }
    pending.set(id, value[0]);
    this.put(db, key, value);
  }

  done(): Promise<void> {
    return this.last.then(() => undefined);
  }
}

/** Writes the entries of `inputs`; resolves once they are committed (durable before the caller's next step). */
export function mirrorRows(kv: Kv, inputs: readonly MirrorInput[]): Promise<void> {
  const b = new Batch(kv);
  const db = kv.db;
  for (const { table, rows, tag } of inputs) {
    if (rows.length === 0 || !MIRRORED_TABLES.has(table)) continue;
    switch (table) {
      case 'transaction_docs_kv':
        for (const r of rows) {
          const key = hashKey(text(r.hash));
          const traced = Number(r.traced) ? 1 : 0;
          // a document with its trace id is never replaced by one without (as ReplacingMergeTree(traced) kept)
          if (!traced && (db.docs.get(key) as unknown[] | undefined)?.[1] === 1) continue;
          b.put(db.docs, key, [tag, traced, text(r.doc)]);
        }
        break;
      case 'transactions_by_lt':
        for (const r of rows) b.put(db.txs, Buffer.concat([addrKey(text(r.account)), u64(r.lt as bigint)]), [tag, text(r.hash)]);
        break;
      case 'message_hashes':
        for (const r of rows) {
          const key = Buffer.concat([hashKey(text(r.hash)), Buffer.from([DIRECTION[r.direction as 'in' | 'out'], Number(r.is_norm) ? 1 : 0]), hashKey(text(r.tx_hash))]);
          b.put(db.msgs, key, [tag, text(r.tx_account), text(r.tx_lt), text(r.msg_hash)]);
        }
        break;
      case 'account_states':
        for (const r of rows) b.put(db.states, hashKey(text(r.hash)), [tag, jsonRow(r)]);
        break;
      case 'latest_account_states':
        for (const r of rows) b.putVersioned(db.latest, addrKey(text(r.account)), versionOf(r.last_trans_lt), tag, jsonRow(r));
        break;
      case 'contract_code':
        for (const r of rows) {
          const key = hashKey(text(r.code_hash));
          if (!db.codes.doesExist(key)) b.put(db.codes, key, text(r.code_boc));
        }
        break;
      case 'contract_methods':
        for (const r of rows) {
          const key = hashKey(text(r.code_hash));
          if (!db.methods.doesExist(key)) b.put(db.methods, key, (r.methods as unknown[]).map(Number));
        }
        break;
      case 'traces':
        for (const r of rows) b.putVersioned(db.traces, hashKey(text(r.trace_id)), versionOf(r.end_lt), tag, jsonRow(r));
        break;
      case 'trace_transactions':
        for (const r of rows) b.put(db.tracetx, Buffer.concat([hashKey(text(r.trace_id)), u64(r.lt as bigint), hashKey(text(r.hash))]), [tag, text(r.account)]);
        break;
      case 'dns_entries':
        for (const r of rows) {
          const item = text(r.nft_item_address);
          b.putVersioned(db.dns, addrKey(item), versionOf(r.last_transaction_lt), tag, jsonRow(r, ['nft_item_owner', 'domain', 'dns_wallet']));
          const wallet = r.dns_wallet == null ? null : text(r.dns_wallet);
          if (wallet === null) continue;
          b.putEarliest(db.dnsw, Buffer.concat([addrKey(wallet), addrKey(item)]), [tag]);
          // the address book reads dns_entries only for wallets a DNS item named while owned by them
          if (r.nft_item_owner != null && text(r.nft_item_owner) === wallet) b.putEarliest(db.facts, factKey(wallet, 'dns_entries'), [tag, null]);
        }
        break;
      case 'address_metadata':
        for (const r of rows) {
          const type = METADATA_TYPES.indexOf(text(r.type) as (typeof METADATA_TYPES)[number]);
          if (type < 0) throw new Error(`kv: unknown address_metadata type "${text(r.type)}"`);
          const address = text(r.address);
          b.putVersioned(db.meta, Buffer.concat([addrKey(address), Buffer.from([type])]), versionOf(r.updated_at), tag, jsonRow(r));
          b.putEarliest(db.facts, factKey(address, `address_metadata:${text(r.type)}`), [tag, null]);
        }
        break;
      case 'jetton_transfers':
        for (const r of rows) {
          if (r.tx_aborted === true || r.tx_aborted === 1) continue; // the API never lists aborted transfers
          const row = jsonRow(r);
          const tail = Buffer.concat([u64(r.tx_lt as bigint), hashKey(text(r.tx_hash))]);
          const source = text(r.source);
          const destination = text(r.destination);
          if (source === destination) b.put(db.jt, Buffer.concat([addrKey(source), tail]), [tag, 3, row]);
          else {
            if (source) b.put(db.jt, Buffer.concat([addrKey(source), tail]), [tag, 2, row]);
            if (destination) b.put(db.jt, Buffer.concat([addrKey(destination), tail]), [tag, 1, row]);
          }
        }
        break;
    }
    const factColumn = FACT_TABLES[table];
    if (factColumn) {
      for (const r of rows) {
        const address = text(r[factColumn]);
        // an NFT item's index never changes: the metadata block's nft_index
        b.putEarliest(db.facts, factKey(address, table), [tag, table === 'nft_items' ? text(r.index) : null]);
      }
      if (table === 'jetton_wallets') {
        for (const r of rows) b.putVersioned(db.jwallets, addrKey(text(r.address)), versionOf(r.last_transaction_lt), tag, jsonRow(r, ['address', 'owner', 'jetton', 'balance']));
      }
      if (table === 'nft_items') {
        for (const r of rows) {
          b.putVersioned(db.nftitems, addrKey(text(r.address)), versionOf(r.last_transaction_lt), tag, jsonRow(r, ['address', 'init', 'index', 'collection_address', 'owner_address']));
        }
      }
    }
  }
  // the lists of /actions and /traces by account (lists-mirror.ts)
  return Promise.all([b.done(), mirrorListRows(kv, inputs)]).then(() => undefined);
}

/** `facts` key of (address, fact name). */
export function factKey(address: string, fact: string): Buffer {
  return Buffer.concat([addrKey(address), Buffer.from(fact, 'utf8')]);
}
