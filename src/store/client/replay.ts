/**
 * Replays leave no physical duplicates (issue 21, hole 5). Every table is a ReplacingMergeTree, so FINAL always
 * hid a row written twice, but plain SQL (`count()`) saw it until a merge. Three cases, three answers:
 *
 * - A block already written (its `ingested_blocks` marker exists: every row of it is in) is skipped whole
 *   (StoreWriter): a re-import, a replay from the checkpoint, a Kafka redelivery.
 * - A write cut by a crash (or an insert retried after a timeout that the server may have applied) left some of
 *   its rows in some tables. Before its first insert each writer records what it is writing in `write_intents`
 *   (0016); a later write of the same blocks / seqnos sees the intent without the completion and inserts only the
 *   rows not stored yet (`withoutStored`). This survives a replay that groups blocks differently, unlike insert
 *   deduplication tokens, which only match the same insert again.
 * - Rows whose identity several blocks share (message bodies, contract codes) are written only when not stored.
 *
 * A row's identity is its table's ORDER BY key; for a versioned table (ReplacingMergeTree(v)), a row is already
 * stored when a row with its key and a version as new or newer is. Read from `system.tables`, so a migration
 * that adds a table needs nothing here.
 */
import type { StoreClient } from './store-client.ts';
import type { Row } from '../../util/index.ts';

export interface TableIdentity {
  /** ORDER BY columns */
  key: string[];
  /** ReplacingMergeTree version column, or null */
  version: string | null;
  /** column name -> type, for the key columns */
  types: Map<string, string>;
}

const identities = new WeakMap<StoreClient, Promise<Map<string, TableIdentity>>>();

async function readIdentities(store: StoreClient): Promise<Map<string, TableIdentity>> {
  const tables = await store.query<{ name: string; sorting_key: string; engine_full: string }>(
    "SELECT name, sorting_key, engine_full FROM system.tables WHERE database = currentDatabase() AND engine LIKE '%MergeTree'",
  );
  const columns = await store.query<{ table: string; name: string; type: string }>('SELECT table, name, type FROM system.columns WHERE database = currentDatabase()');
  const types = new Map<string, Map<string, string>>();
  for (const c of columns) {
    let t = types.get(c.table);
    if (!t) types.set(c.table, (t = new Map()));
    t.set(c.name, c.type);
  }
  const out = new Map<string, TableIdentity>();
  for (const t of tables) {
    const key = t.sorting_key.split(',').map((k) => k.trim());
    // a key made of expressions is not a row's plain identity: such a table is left alone
    if (key.length === 0 || key.some((k) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(k))) continue;
    const version = /^ReplacingMergeTree\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*\)/.exec(t.engine_full)?.[1] ?? null;
    out.set(t.name, { key, version, types: types.get(t.name) ?? new Map() });
  }
  return out;
}

/** Identity of every MergeTree table, read once per store (again when a table is missing: a migration since). */
export async function tableIdentity(store: StoreClient, table: string): Promise<TableIdentity | null> {
  let p = identities.get(store);
  if (!p) identities.set(store, (p = readIdentities(store)));
  let map = await p.catch(() => null);
  if (!map?.has(table)) {
    identities.set(store, (p = readIdentities(store)));
    map = await p;
  }
  return map.get(table) ?? null;
}

/** A key value as text, equal for a row's value and the engine's JSON of the stored one. */
function norm(v: unknown): string {
  if (v === null || v === undefined) return '\u0000';
  if (typeof v === 'boolean') return v ? '1' : '0';
  if (v instanceof Date) return String(v.getTime());
  return String(v);
}

function keyOf(row: Row, cols: readonly string[]): string {
  if (cols.length === 1) return norm(row[cols[0]]);
  let k = norm(row[cols[0]]);
  for (let i = 1; i < cols.length; i++) k += '\u0001' + norm(row[cols[i]]);
  return k;
}

/** a - b for versions (integers, or anything else compared as text). */
function compareVersions(a: unknown, b: unknown): number {
  const x = norm(a);
  const y = norm(b);
  if (/^-?\d+$/.test(x) && /^-?\d+$/.test(y)) {
    const d = BigInt(x) - BigInt(y);
    return d > 0n ? 1 : d < 0n ? -1 : 0;
  }
  return x === y ? 0 : x > y ? 1 : -1;
}

/** One row per key, the newest version (at equal versions the later row, as ReplacingMergeTree keeps). */
export function dedupRows(rows: Row[], id: TableIdentity): Row[] {
  const byKey = new Map<string, number>();
  let dropped = false;
  for (let i = 0; i < rows.length; i++) {
    const k = keyOf(rows[i], id.key);
    const j = byKey.get(k);
    if (j === undefined) byKey.set(k, i);
    else {
      dropped = true;
      if (!id.version || compareVersions(rows[i][id.version], rows[j][id.version]) >= 0) byKey.set(k, i);
    }
  }
  if (!dropped) return rows;
  const keep = new Set(byKey.values());
  return rows.filter((_, i) => keep.has(i));
}

function paramType(type: string): { type: string; cast: boolean } {
  let t = type;
  const lc = /^LowCardinality\((.*)\)$/.exec(t);
  if (lc) t = lc[1];
  // Enum values travel as their names: compared as text
  if (/^Enum(8|16)\(/.test(t)) return { type: 'String', cast: true };
  return { type: t, cast: false };
}

const INTEGER = /^U?Int(8|16|32|64|128|256)$/;

function paramValue(v: unknown, type: string): unknown {
  if (v === null || v === undefined) return v;
  if (INTEGER.test(type)) return typeof v === 'bigint' ? v : BigInt(norm(v));
  return typeof v === 'string' ? v : norm(v);
}

/**
 * Rows per select. A server takes query parameters in the URL (`http_max_uri_size`, 1 MiB by default, and
 * `http_max_field_value_size`, 128 KiB a parameter): 2,000 values of the widest key column (a 64-character hash) are
 * about 140 KB; the embedded engine's profile raises both to 64 MiB (src/engine/config.ts).
 */
const CHUNK = { embedded: 20_000, server: 2_000 } as const;

/**
 * The rows of `rows` that `table` does not hold yet: no stored row has their key, or (versioned table) every
 * stored row with their key is older. Read with the key columns' IN lists (primary-key ranges), not FINAL.
 */
export async function withoutStored(store: StoreClient, table: string, rows: Row[]): Promise<Row[]> {
  if (rows.length === 0) return rows;
  const id = await tableIdentity(store, table);
  if (!id) return rows;
  const stored = new Map<string, unknown>();
  const cols = [...id.key, ...(id.version ? [id.version] : [])];
  const chunk = CHUNK[store.kind];
  for (let start = 0; start < rows.length; start += chunk) {
    const part = rows.slice(start, start + chunk);
    const params: Record<string, unknown> = {};
    const where = id.key.map((c, i) => {
      const { type, cast } = paramType(id.types.get(c) ?? 'String');
      const values = new Map<string, unknown>();
      for (const r of part) if (r[c] !== null && r[c] !== undefined) values.set(norm(r[c]), r[c]);
      params[`k${i}`] = [...values.values()].map((v) => paramValue(v, type));
      return `${cast ? `toString(${c})` : c} IN {k${i}:Array(${type})}`;
    });
    const found = await store.query<Row>(`SELECT ${cols.join(', ')} FROM ${table} WHERE ${where.join(' AND ')}`, params);
    for (const r of found) {
      const k = keyOf(r, id.key);
      if (!id.version) stored.set(k, null);
      else if (!stored.has(k) || compareVersions(r[id.version], stored.get(k)) > 0) stored.set(k, r[id.version]);
    }
  }
  return rows.filter((r) => {
    const k = keyOf(r, id.key);
    if (!stored.has(k)) return true;
    return id.version !== null && compareVersions(r[id.version], stored.get(k)) > 0;
  });
}

/** A writer's open intent: what its write in flight covers. */
export interface Intent {
  writer: string;
  version: bigint;
  items: string[];
}

/** The next version of a writer's intent row: grows by at least 1000 a write (see clearIntent). */
export function nextIntentVersion(prev: bigint): bigint {
  const now = BigInt(Date.now()) * 1000n;
  return now > prev + 1000n ? now : prev + 1000n;
}

/** Records what `writer` is about to write; replaces its previous intent. */
export async function recordIntent(store: StoreClient, writer: string, version: bigint, items: readonly string[]): Promise<void> {
  await store.insertRows('write_intents', [{ writer, version, items: [...items] }]);
}

/**
 * Empties an intent whose write is known complete. `version + 1`: newer than the row it clears, older than the
 * owner's next write (which grows by 1000 or more), so a live owner's next intent is never cleared.
 */
export async function clearIntent(store: StoreClient, intent: Pick<Intent, 'writer' | 'version'>): Promise<void> {
  await store.insertRows('write_intents', [{ writer: intent.writer, version: intent.version + 1n, items: [] }]);
}

/** The open (non-empty) intents of writers whose name starts with `prefix`, other than `self`. */
export async function openIntents(store: StoreClient, prefix: string, self?: string): Promise<Intent[]> {
  const rows = await store.query<{ writer: string; v: string; it: string[] }>(
    `SELECT writer, max(version) AS v, argMax(items, version) AS it FROM write_intents
      WHERE startsWith(writer, {prefix:String}) AND writer != {self:String} GROUP BY writer HAVING notEmpty(it)`,
    { prefix, self: self ?? '' },
  );
  return rows.map((r) => ({ writer: r.writer, version: BigInt(r.v), items: r.it }));
}

/** Per MergeTree table: physical rows (`count()`), rows FINAL, and rows a replay duplicated (same key and version). */
export interface TableDuplicates {
  rows: number;
  final: number;
  /** rows beyond the first of each (key, version): what a merge would drop although nothing superseded them */
  duplicates: number;
  versioned: boolean;
}

/**
 * What plain SQL sees beside FINAL, table by table. A replay leaves `duplicates` 0 everywhere and `rows` equal to
 * `final` in every table without a version column; a versioned table (latest states, entities, traces,
 * bookkeeping) keeps its superseded versions until merges, as ReplacingMergeTree(version) does.
 */
export async function duplicateReport(store: StoreClient): Promise<Record<string, TableDuplicates>> {
  const out: Record<string, TableDuplicates> = {};
  const tables = await store.query<{ name: string }>("SELECT name FROM system.tables WHERE database = currentDatabase() AND engine LIKE '%MergeTree' ORDER BY name");
  for (const { name } of tables) {
    const id = await tableIdentity(store, name);
    if (!id) continue;
    const cols = [...id.key, ...(id.version ? [id.version] : [])].join(', ');
    const [r] = await store.query<{ rows: string; final: string; groups: string }>(
      `SELECT (SELECT count() FROM ${name}) AS rows, (SELECT count() FROM ${name} FINAL) AS final, (SELECT count() FROM (SELECT DISTINCT ${cols} FROM ${name})) AS groups`,
    );
    out[name] = { rows: Number(r.rows), final: Number(r.final), duplicates: Number(r.rows) - Number(r.groups), versioned: id.version !== null };
  }
  return out;
}
