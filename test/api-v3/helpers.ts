// Fixture store + server for the API v3 suites (reads only test/fixtures/).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/api/server.ts';
import { KeyStore } from '../../src/api/auth/index.ts';
import { v3Group } from '../../src/api/v3/index.ts';
import { fillKvFromStore, openStore, type StoreClient } from '../../src/store/client/index.ts';
import { importBlocks } from '../../pipelines/index.ts';
import { parseTxDoc } from '../../src/decode/index.ts';
import { kvPointReads } from '../../src/kv/index.ts';
import { Db } from '../../src/api/v3/db.ts';
import { loadByKeys, loadRows, transactionsByKeys, type TxKey } from '../../src/api/v3/queries/transactions.ts';
import { transactionsJson } from '../../src/api/v3/render.ts';
import { decodeBlock } from '../../src/ton/index.ts';

export const FIXTURES = new URL('../fixtures/', import.meta.url).pathname;

export interface TxIndexEntry {
  network: string;
  block: string;
  block_seqno: number;
  wc: number;
  shard: string;
  account: string;
  lt: string;
  now: number;
  hash: string;
  in_type: string | null;
  in_value: string | null;
  aborted: boolean;
  orig: string;
  end: string;
}

export function txIndex(): TxIndexEntry[] {
  return JSON.parse(readFileSync(join(FIXTURES, 'blocks/tx-index.json'), 'utf8')) as TxIndexEntry[];
}

/** Mainnet fixture block files that decode (two are pruned / partial BoCs). */
export function mainnetBlockFiles(): string[] {
  const d = join(FIXTURES, 'blocks/mainnet');
  return readdirSync(d).filter((f) => f.endsWith('.boc')).sort().map((f) => join(d, f));
}

export interface Fixture {
  dir: string;
  store: StoreClient;
  /** The v3 API reading `points` (default the key-value store). */
  app: FastifyInstance;
  /** The same store's v3 API with point reads from ClickHouse's tables (a server deployment's read path). */
  tablesApp: FastifyInstance;
  blocks: string[];
  close(): Promise<void>;
}

/**
 * A chdb store filled with the decodable mainnet fixture blocks through the store's importer, and the
 * server shell with the v3 group on it. The store keeps both point-read paths (`both`): `extra` seeds rows by SQL,
 * which the key-value store then takes from ClickHouse as an upgraded store does (fillKvFromStore); the API reads
 * the key-value store (`points: 'kv'`, the embedded default) or ClickHouse's tables (`tables`, a server's).
 */
export async function openFixture(opts: { extra?: (store: StoreClient) => Promise<void>; points?: 'kv' | 'tables' } = {}): Promise<Fixture> {
  const dir = mkdtempSync(join(tmpdir(), 'tg-api-v3-'));
  const store = await openStore({ dataDir: dir, pointReads: 'both' });
  const blocks: string[] = [];
  const decoded = [];
  for (const f of mainnetBlockFiles()) {
    try {
      decoded.push(decodeBlock(readFileSync(f)));
      blocks.push(f);
    } catch {
      // pruned fixture BoCs (MANIFEST: partial blocks)
    }
  }
  // the store's importer: the real writer, masterchain seqnos assigned from the blocks' shard descriptors
  await importBlocks(store, decoded);
  await opts.extra?.(store);
  if (opts.extra) await fillKvFromStore(store, store.kv!);
  const app = await v3App(store, (opts.points ?? 'kv') === 'kv' ? 'kv' : 'tables');
  const tablesApp = await v3App(store, 'tables');
  return {
    dir,
    store,
    app,
    tablesApp,
    blocks,
    async close() {
      await app.close();
      await tablesApp.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The server shell with the v3 group over `store` (opened with pointReads 'both'), its lookups by key from the
 * key-value store (`kv`) or from ClickHouse's tables (`tables`).
 */
export async function v3App(store: StoreClient, points: 'kv' | 'tables'): Promise<FastifyInstance> {
  const app = buildServer({
    networks: [{ name: 'mainnet', testnet: false, services: {} }],
    // tests are not about rate limits: a generous anonymous plan
    keys: new KeyStore({ anonymous: { rps: 1_000_000 } }),
    groups: [v3Group({ store, points: points === 'kv' ? kvPointReads(store.kv!) : undefined })],
  });
  await app.ready();
  return app;
}

export async function get(app: FastifyInstance, url: string, headers: Record<string, string> = {}) {
  const r = await app.inject({ method: 'GET', url, headers });
  let body: unknown;
  try {
    body = r.json();
  } catch {
    body = r.body;
  }
  return { status: r.statusCode, body: body as Record<string, unknown> & unknown[], headers: r.headers };
}

/** Every stored transaction rendered both ways: from documents, and from transactions + messages + contents + states. */
export async function bothWays(store: StoreClient): Promise<{ docs: Record<string, unknown>[]; flat: Record<string, unknown>[] }> {
  const db = new Db(store);
  const keys = (await store.query<{ account: string; lt: string; hash: string }>('SELECT DISTINCT account, lt, hash FROM transactions ORDER BY lt, account')).map(
    (k): TxKey => [k.account, k.lt, k.hash],
  );
  const docs = transactionsJson(await loadByKeys(db, keys, 'ASC'));
  const flat = transactionsJson(await loadRows(db, await transactionsByKeys(db, keys.map(([a, l]) => [a, l]), 'ASC')));
  return { docs, flat };
}

/**
 * The flattened tables hold an account's state before its first transaction in a block only as the earlier block's
 * end-state row (src/decode/rows.ts writes no second copy): where that block is not stored they render the state's hash
 * alone, and the document carries the whole state. `flat` with those states taken from `docs` (matched by transaction
 * hash, the state's hash checked equal), for comparing the two ways.
 */
export function withDocStatesBefore(flat: Record<string, unknown>[], docs: Record<string, unknown>[]): Record<string, unknown>[] {
  type St = Record<string, unknown>;
  const byHash = new Map(docs.map((d) => [String(d.hash), d]));
  return flat.map((t) => {
    const before = t.account_state_before as St | null;
    const doc = byHash.get(String(t.hash));
    if (!before || before.balance !== null || !doc) return t;
    const full = doc.account_state_before as St;
    if (full?.hash !== before.hash) return t;
    return { ...t, account_state_before: full };
  });
}

/** Every stored document: the key-value store's where it alone holds them (pointReads 'kv'), else transaction_docs_kv. */
export async function docsOf(store: StoreClient): Promise<ReturnType<typeof parseTxDoc>[]> {
  if (store.kv && store.pointReads === 'kv') return [...store.kv.db.docs.getRange({})].map(({ value }) => parseTxDoc((value as [number, number, string])[2]));
  return (await store.query<{ doc: string }>('SELECT doc FROM transaction_docs_kv')).map((r) => parseTxDoc(r.doc));
}
