/**
 * `address_book` and `metadata` blocks (reference §1.8, §1.9), built from latest_account_states_kv
 * (code hash -> bounceable rule and wallet interface), dns_entries (domain), jetton/NFT tables and
 * address_metadata (token info).
 */
import { formatFriendly, highloadTypeOfCodeHash, isBounceableByDefault, tryParseAddress, walletTypeOfCodeHash } from '../../format/index.ts';
import type { BookRow, Db, FactRow } from './db.ts';

/**
 * Entity tables that hold rows, cached for a few seconds: most deployments fill only some of them,
 * and a lookup in an empty table still costs a query per request.
 */
const NON_EMPTY_TTL_MS = 5000;
const nonEmptyCache = new WeakMap<object, { at: number; tables: Promise<Set<string>> }>();

export function nonEmptyTables(db: Db): Promise<Set<string>> {
  const key = db.store as object;
  const hit = nonEmptyCache.get(key);
  if (hit && Date.now() - hit.at < NON_EMPTY_TTL_MS) return hit.tables;
  const tables = db
    .q<{ table: string }>(
      `SELECT table FROM system.parts WHERE active AND database = currentDatabase() AND rows > 0
       AND table IN ('jetton_masters', 'jetton_wallets', 'nft_collections', 'nft_items', 'multisig', 'multisig_orders', 'vesting_contracts', 'dns_entries', 'address_metadata')
       GROUP BY table`,
    )
    .then((r) => new Set(r.map((x) => x.table)));
  nonEmptyCache.set(key, { at: Date.now(), tables });
  tables.catch(() => nonEmptyCache.delete(key));
  return tables;
}

/** Drops the cached list for a store: a writer that just made a table non-empty (the streaming hub at a checkpoint). */
export function forgetNonEmptyTables(store: object): void {
  nonEmptyCache.delete(store);
}

/** Entity tables and the address book interface each gives its addresses. */
const KINDS: [table: string, kind: string][] = [
  ['jetton_masters', 'jetton_master'],
  ['jetton_wallets', 'jetton_wallet'],
  ['nft_collections', 'nft_collection'],
  ['nft_items', 'nft_item'],
  ['multisig', 'multisig_v2'],
  ['multisig_orders', 'multisig_order_v2'],
  ['vesting_contracts', 'lockup_vesting'],
];
const KIND_OF = new Map(KINDS);
/** The address book's rows of facts have kind `fact:NAME`. */
const FACT_KIND = 'fact:';
/** Metadata types (address_metadata.type) the metadata block reads. */
const METADATA_TYPES = ['jetton_masters', 'nft_collections', 'nft_items'];
/** The facts the metadata block reads; the address book asks for these too, so the block need not. */
const METADATA_FACTS = ['jetton_wallets', ...METADATA_TYPES, ...METADATA_TYPES.map((t) => `address_metadata:${t}`)];

/** address_facts_kv keys of `facts` for each address. */
function factKeys(addresses: Iterable<string>, facts: readonly string[]): string[] {
  const keys: string[] = [];
  for (const a of addresses) for (const f of facts) keys.push(`${a}/${f}`);
  return keys;
}

/** Facts of `addresses` among `facts`: RocksDB gets. */
function factsOf(db: Db, addresses: Iterable<string>, facts: readonly string[]): Promise<FactRow[]> {
  const keys = factKeys(addresses, facts);
  if (keys.length === 0) return Promise.resolve([]);
  return db.q<FactRow>('SELECT address, toString(fact) AS fact, value FROM address_facts_kv WHERE key IN {k:Array(String)}', { k: keys });
}

/** Raw addresses among `values` (other forms and nulls left out), once each. */
export function rawAddresses(values: Iterable<string | null | undefined>): string[] {
  return [...new Set([...values].filter((v): v is string => !!v && /^-?\d+:[0-9A-F]{64}$/.test(v)))];
}

/**
 * The address book's sources for `raws` as one statement of `UNION ALL` parts with columns (address, value, kind),
 * each statement having a fixed cost in the engine: code hashes (for `askCodes`), and the addresses' facts (rows of kind
 * `fact:NAME`, from address_facts_kv) when an entity table or dns_entries holds rows. Null when there is nothing to ask.
 */
export async function bookQuery(
  db: Db,
  raws: string[],
  askCodes: string[],
): Promise<{ sql: string; params: Record<string, unknown>; facts: boolean } | null> {
  if (raws.length === 0) return null;
  const live = await nonEmptyTables(db);
  const parts: string[] = [];
  if (askCodes.length) {
    parts.push(`SELECT account AS address, CAST(code_hash AS Nullable(String)) AS value, 'code' AS kind FROM latest_account_states_kv WHERE account IN {c:Array(String)}`);
  }
  // entity kinds and DNS wallets: RocksDB gets of address_facts_kv (clickhouse/0014), kind = the fact; with the
  // metadata block's facts, which it then need not ask (db.facts)
  const facts = KINDS.some(([t]) => live.has(t)) || live.has('dns_entries');
  if (facts) parts.push(`SELECT address, value, concat('${FACT_KIND}', toString(fact)) AS kind FROM address_facts_kv WHERE key IN {k:Array(String)}`);
  const keys = facts ? factKeys(raws, [...new Set([...KINDS.map(([t]) => t), 'dns_entries', ...METADATA_FACTS])]) : [];
  return parts.length ? { sql: parts.join(' UNION ALL '), params: { c: askCodes, k: keys }, facts } : null;
}

export interface AddressBookRow {
  user_friendly: string | null;
  domain: string | null;
  interfaces: string[];
}

function interfaceName(codeHash: string | null): string[] {
  if (!codeHash) return [];
  const w = walletTypeOfCodeHash(codeHash);
  if (w) return [w.replace(/^wallet v(\d) (r\d|beta)$/, (_m, v: string, r: string) => `wallet_v${v}${r === 'beta' ? '_beta' : r}`)];
  const h = highloadTypeOfCodeHash(codeHash);
  if (h) return ['wallet_' + h.replace(' ', '_').replace(/ /g, '')];
  return [];
}

/**
 * Address book over raw addresses (keys as given). `inputs` maps the key -> raw address (null = unparseable).
 * `knownCodes`: code hashes the caller has just read from latest_account_states_kv (those addresses are not asked again).
 */
export async function addressBook(
  db: Db,
  keys: Map<string, string | null>,
  testnet: boolean,
  knownCodes?: ReadonlyMap<string, string | null>,
): Promise<Record<string, AddressBookRow>> {
  const raws = rawAddresses(keys.values());
  const codes = new Map<string, string | null>(knownCodes);
  const domains = new Map<string, string>();
  const kinds = new Map<string, string[]>();
  if (raws.length) {
    // rows read ahead for this request (db.prefetchedBook), and a statement for the addresses they lack
    const pre = db.prefetchedBook;
    const ask = pre ? raws.filter((r) => !pre.raws.has(r)) : raws;
    const q = await bookQuery(db, ask, ask.filter((r) => !codes.has(r)));
    const rows = [...(pre?.rows ?? []), ...(q ? await db.q<BookRow>(q.sql, q.params) : [])];
    const facts: FactRow[] = [];
    for (const r of rows) {
      if (r.kind === 'code') codes.set(r.address, r.value);
      else if (r.kind.startsWith(FACT_KIND)) {
        const fact = r.kind.slice(FACT_KIND.length);
        facts.push({ address: r.address, fact, value: r.value });
        const kind = KIND_OF.get(fact);
        if (kind) kinds.set(r.address, [...(kinds.get(r.address) ?? []), kind]);
      }
    }
    // domains: dns_entries is read only for the wallets a DNS item has named
    const dnsWallets = [...new Set(facts.filter((f) => f.fact === 'dns_entries').map((f) => f.address))];
    if (dnsWallets.length) {
      const named = await db.q<{ address: string; domain: string }>(
        `SELECT dns_wallet AS address, argMin(domain, length(domain)) AS domain FROM dns_entries FINAL
         WHERE dns_wallet IN {a:Array(String)} AND nft_item_owner = dns_wallet GROUP BY dns_wallet`,
        { a: dnsWallets },
      );
      for (const r of named) domains.set(r.address, r.domain);
    }
    // the facts read for the metadata block (metadataOf), of the addresses asked with them
    const covered = [...(pre?.facts ? pre.raws : []), ...(q?.facts ? ask : [])];
    if (covered.length) db.facts = { covered: new Set([...(db.facts?.covered ?? []), ...covered]), rows: [...(db.facts?.rows ?? []), ...facts] };
  }
  const out: Record<string, AddressBookRow> = {};
  for (const [key, raw] of keys) {
    const parsed = raw ? tryParseAddress(raw) : null;
    if (!parsed) {
      out[key] = { user_friendly: raw === null ? null : 'addr_none', domain: null, interfaces: [] };
      continue;
    }
    const code = codes.get(raw!) ?? null;
    out[key] = {
      user_friendly: formatFriendly(parsed, { bounceable: isBounceableByDefault(code), testOnly: testnet, urlSafe: true }),
      domain: domains.get(raw!) ?? null,
      interfaces: [...interfaceName(code), ...(kinds.get(raw!) ?? [])].sort(),
    };
  }
  return out;
}

/** Address book over raw addresses found in a result (keys = the raw addresses); `knownCodes` as in addressBook. */
export function bookOf(
  db: Db,
  raws: Iterable<string | null | undefined>,
  testnet: boolean,
  knownCodes?: ReadonlyMap<string, string | null>,
): Promise<Record<string, AddressBookRow>> {
  const m = new Map<string, string | null>();
  for (const r of raws) if (r && /^-?\d+:[0-9A-Fa-f]{64}$/.test(r)) m.set(r, r);
  return addressBook(db, m, testnet, knownCodes);
}

export interface TokenInfo {
  valid?: boolean;
  type: string;
  name?: string;
  symbol?: string;
  description?: string;
  image?: string;
  nft_index?: string;
  is_nsfw?: boolean;
  is_scam?: boolean;
  extra?: Record<string, unknown>;
}

export type Metadata = Record<string, { is_indexed: boolean; token_info: TokenInfo[] }>;

/** Metadata for the jetton / NFT addresses among `raws` (others absent); jetton wallets add their master. */
export async function metadataOf(db: Db, raws: Iterable<string | null | undefined>): Promise<Metadata> {
  const set = new Set(rawAddresses(raws));
  if (set.size === 0) return {};
  const live = await nonEmptyTables(db);
  if (!['jetton_masters', 'jetton_wallets', 'nft_collections', 'nft_items', 'address_metadata'].some((t) => live.has(t))) return {};
  const out: Metadata = {};
  // what each address is (address_facts_kv gets, except those the address book read in this request); the entity
  // and metadata tables are read only for the addresses that have rows there
  const had = db.facts;
  const facts = [...(had?.rows.filter((f) => set.has(f.address) && METADATA_FACTS.includes(f.fact)) ?? [])];
  facts.push(...(await factsOf(db, had ? [...set].filter((a) => !had.covered.has(a)) : set, METADATA_FACTS)));
  const walletAddrs = facts.filter((f) => f.fact === 'jetton_wallets').map((f) => f.address);
  const wallets = walletAddrs.length
    ? await db.q<{ address: string; owner: string; jetton: string; balance: string }>(
        'SELECT address, owner, jetton, balance FROM jetton_wallets FINAL WHERE address IN {a:Array(String)}',
        { a: walletAddrs },
      )
    : [];
  const masters = new Set<string>();
  for (const w of wallets) {
    out[w.address] = { is_indexed: true, token_info: [{ valid: true, type: 'jetton_wallets', extra: { owner: w.owner, jetton: w.jetton, balance: w.balance } }] };
    if (!set.has(w.jetton)) masters.add(w.jetton);
  }
  if (masters.size) facts.push(...(await factsOf(db, masters, METADATA_FACTS.filter((f) => f !== 'jetton_wallets'))));
  const metaAddrs = [...new Set(facts.filter((f) => f.fact.startsWith('address_metadata:')).map((f) => f.address))];
  const meta = metaAddrs.length
    ? await db.q<Record<string, unknown>>('SELECT * FROM address_metadata FINAL WHERE address IN {a:Array(String)}', { a: metaAddrs })
    : [];
  const known = facts
    .filter((f) => METADATA_TYPES.includes(f.fact))
    .sort((x, y) => METADATA_TYPES.indexOf(x.fact) - METADATA_TYPES.indexOf(y.fact))
    .map((f) => ({ address: f.address, type: f.fact, idx: f.fact === 'nft_items' ? f.value : null }));
  const byKey = new Map(meta.map((m) => [`${m.address}|${m.type}`, m]));
  const seen = new Set<string>();
  const add = (address: string, type: string, idx: string | null) => {
    const k = `${address}|${type}`;
    if (seen.has(k)) return;
    seen.add(k);
    const m = byKey.get(k);
    const info: TokenInfo = { type };
    if (idx !== null) info.nft_index = idx;
    if (m && m.valid !== null) {
      info.valid = Boolean(m.valid);
      if (m.valid) {
        for (const f of ['name', 'symbol', 'description', 'image'] as const) if (m[f] !== null && m[f] !== undefined) info[f] = String(m[f]);
        info.is_nsfw = Boolean(m.is_nsfw);
        info.is_scam = Boolean(m.is_scam);
        try {
          info.extra = JSON.parse(String(m.extra || '{}')) as Record<string, unknown>;
        } catch {
          info.extra = {};
        }
      }
    }
    const entry = (out[address] ??= { is_indexed: true, token_info: [] });
    entry.token_info.push(info);
    entry.is_indexed = entry.is_indexed && info.valid !== undefined;
  };
  for (const k of known) add(k.address, k.type, k.idx);
  for (const m of meta) if (!(m.type === 'jetton_wallets')) add(String(m.address), String(m.type), null);
  return out;
}

/**
 * The address book and metadata blocks of a response over the addresses in it (as the request's headers ask). The book
 * goes first: its statement reads the facts the metadata block needs too (chdb runs one statement at a time, so
 * nothing is lost by not running both at once).
 */
export async function bookAndMetadata(
  ctx: { db: Db; testnet: boolean; noBook: boolean; noMeta: boolean },
  raws: (string | null | undefined)[],
  opts: { knownCodes?: ReadonlyMap<string, string | null>; metadata?: boolean } = {},
): Promise<{ address_book: Record<string, AddressBookRow>; metadata: Metadata }> {
  const address_book = ctx.noBook ? {} : await bookOf(ctx.db, raws, ctx.testnet, opts.knownCodes);
  const metadata = ctx.noMeta || opts.metadata === false ? {} : await metadataOf(ctx.db, raws);
  return { address_book, metadata };
}
