/**
 * The key-value store of point reads: an LMDB environment under `<data dir>/kv` (the `lmdb` package: memory-mapped,
 * one writer process, any number of reader processes, each reading a consistent snapshot without locks).
 *
 * Visibility. Every entry carries a tag: the masterchain seqno whose write put it there (0: visible at once, for
 * writers outside the pipeline). `visible` is the pipeline's checkpoint, advanced with it: readers see an entry only
 * when its tag is at most `visible`, so the API never answers from rows ClickHouse has not completed (the checkpoint
 * passes a seqno only once every table holds its rows). Entries whose value changes over time (an account's latest
 * state, a trace, a jetton wallet) keep one entry per version, newest first in key order; a reader takes the newest
 * visible one, a writer drops the versions below it. A replay writes the same keys with the same values; a write a
 * crash cut is written again by the replay before the checkpoint can pass it (see mirror.ts).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';

/** Layout version of the entries; a store with another one is rebuilt (meta `format`). */
export const KV_FORMAT = 1;

/** The sub-databases (LMDB named databases), each with binary keys (keys.ts) and msgpack values. */
export const KV_DBS = [
  'docs', // tx hash -> [tag, traced, document text]
  'txs', // account, lt -> [tag, tx hash]: an account's transactions in lt order
  'msgs', // msg hash, direction, is_norm, tx hash -> [tag, tx account, tx lt, msg hash]
  'states', // state hash -> [tag, account_states row]
  'latest', // account, version last_trans_lt, tag -> latest_account_states row
  'codes', // code hash -> code BoC
  'methods', // code hash -> method ids
  'traces', // trace id, version end_lt, tag -> traces row
  'tracetx', // trace id, lt, tx hash -> [tag, account]
  'facts', // address, fact name -> [tag, value]
  'jwallets', // address, version last_transaction_lt, tag -> jetton wallet (address, owner, jetton, balance)
  'nftitems', // address, version last_transaction_lt, tag -> NFT item (address, init, index, collection_address, owner_address)
  'dns', // item address, version last_transaction_lt, tag -> dns entry (nft_item_owner, domain, dns_wallet)
  'dnsw', // wallet, item address -> tag: the items that named a wallet
  'meta', // address, type byte, version updated_at (ms), tag -> address_metadata row
  'jt', // owner, tx lt, tx hash -> [tag, flags (1 in, 2 out), jetton_transfers row]
  // the lists of /actions and /traces by account (lists.ts, issue 30)
  'actrows', // trace id, action id -> [tag, actions row]
  'actaccts', // trace id, action id, account -> [tag, account]: an action's accounts
  'acts', // account, trace_end_lt, trace id, action end_lt, action id -> [tag]: an account's actions in the list's order
  'acctraces', // account, trace end_lt, trace id -> [tag]: an account's traces, one entry per version of the trace
] as const;

export type KvDbName = (typeof KV_DBS)[number];

export interface KvOptions {
  /** The data directory: the environment lives in `<dir>/kv`. */
  dataDir: string;
  /** Readers (API workers) open the writer's environment read-only. */
  readOnly?: boolean;
}

const MAP_SIZE = 2 ** 40; // address space only: the file grows with what is written

export class Kv {
  readonly db: Record<KvDbName, Database>;
  private readonly info: Database;

  private constructor(
    readonly root: RootDatabase,
    readonly path: string,
    readonly readOnly: boolean,
  ) {
    const dbs = {} as Record<KvDbName, Database>;
    for (const name of KV_DBS) dbs[name] = root.openDB({ name, keyEncoding: 'binary', encoding: 'msgpack' });
    this.db = dbs;
    this.info = root.openDB({ name: 'info', encoding: 'msgpack' });
  }

  /** Opens (a writer: creates) `<dataDir>/kv`. Only the process holding the data dir lock may open it for writing. */
  static open(opts: KvOptions): Kv {
    const path = join(opts.dataDir, 'kv');
    if (!opts.readOnly) mkdirSync(path, { recursive: true });
    const root = open({ path, mapSize: MAP_SIZE, maxDbs: 32, readOnly: opts.readOnly === true });
    return new Kv(root, path, opts.readOnly === true);
  }

  /** The highest tag readers see (the checkpoint); 0 before the first one. */
  visible(): number {
    return (this.info.get('visible') as number | undefined) ?? 0;
  }

  /** Moves `visible` up to `seqno` (never down: a replay of older seqnos leaves it where it is). */
  async setVisible(seqno: number): Promise<void> {
    if (seqno <= this.visible()) return;
    await this.info.put('visible', seqno);
  }

  /** Whether every stored row has its entries here (built from the first write, or filled from ClickHouse). */
  complete(): boolean {
    return this.info.get('complete') === true && this.info.get('format') === KV_FORMAT;
  }

  /** Whether the entries were written in another layout (KV_FORMAT): they are removed and written again. */
  hasOtherFormat(): boolean {
    const f = this.info.get('format');
    return f !== undefined && f !== KV_FORMAT;
  }

  /** Whether a mark (`info` key set to true) is set: parts of the layout added since KV_FORMAT (lists.ts: 'lists'). */
  hasMark(name: string): boolean {
    return this.info.get(name) === true;
  }

  async setMark(name: string): Promise<void> {
    await this.info.put(name, true);
  }

  async markComplete(): Promise<void> {
    await this.info.put('format', KV_FORMAT);
    await this.info.put('complete', true);
  }

  /** Whether nothing was ever written (a new environment). */
  isEmpty(): boolean {
    for (const name of KV_DBS) if (this.db[name].getKeysCount({ limit: 1 }) > 0) return false;
    return true;
  }

  /** Removes every entry and the marks (a rebuild from ClickHouse starts from nothing). */
  async clear(): Promise<void> {
    for (const name of KV_DBS) await this.db[name].clearAsync();
    await this.info.clearAsync();
  }

  /** Resolves once everything written so far is committed. */
  async committed(): Promise<void> {
    await this.root.committed;
  }

  async close(): Promise<void> {
    await this.root.close();
  }
}
