/**
 * `address_book` and `metadata` blocks (reference §1.8, §1.9), built from point reads (db.points: the key-value
 * store, or ClickHouse's tables on a server): latest states' code hashes (bounceable rule and wallet interface),
 * address facts (what an address is, clickhouse/0014), DNS entries (domain), jetton wallets and address_metadata
 * (token info).
 */
import type { ApiCaches } from './caches.ts';
import { formatFriendly, highloadTypeOfCodeHash, isBounceableByDefault, tryParseAddress, walletTypeOfCodeHash } from '../../format/index.ts';
import type { Db } from './db.ts';

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
/** Metadata types (address_metadata.type) the metadata block reads. */
const METADATA_TYPES = ['jetton_masters', 'nft_collections', 'nft_items'];
/** The facts the metadata block reads; the address book asks for these too, so the block need not. */
const METADATA_FACTS = ['jetton_wallets', ...METADATA_TYPES, ...METADATA_TYPES.map((t) => `address_metadata:${t}`)];
/** Every fact the address book asks for: the kinds, a DNS item's wallet, and the metadata block's. */
const BOOK_FACTS = [...new Set([...KINDS.map(([t]) => t), 'dns_entries', ...METADATA_FACTS])];

/** Raw addresses among `values` (other forms and nulls left out), once each. */
export function rawAddresses(values: Iterable<string | null | undefined>): string[] {
  return [...new Set([...values].filter((v): v is string => !!v && /^-?\d+:[0-9A-F]{64}$/.test(v)))];
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
 * `knownCodes`: code hashes the caller has just read with the latest states (those addresses are not asked again).
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
    // code hashes and facts: gets of the key-value store, or a statement each on the RocksDB tables (a server)
    const [known, facts] = await Promise.all([db.points.codeHashes(raws.filter((r) => !codes.has(r))), db.points.facts(raws, BOOK_FACTS)]);
    for (const [a, h] of known) codes.set(a, h);
    for (const f of facts) {
      const kind = KIND_OF.get(f.fact);
      if (kind) kinds.set(f.address, [...(kinds.get(f.address) ?? []), kind]);
    }
    // domains: dns entries are read only for the wallets a DNS item has named
    const dnsWallets = [...new Set(facts.filter((f) => f.fact === 'dns_entries').map((f) => f.address))];
    if (dnsWallets.length) for (const [a, d] of await db.points.domains(dnsWallets)) domains.set(a, d);
    // the facts read for the metadata block (metadataOf)
    db.facts = { covered: new Set([...(db.facts?.covered ?? []), ...raws]), rows: [...(db.facts?.rows ?? []), ...facts] };
  }
  const out: Record<string, AddressBookRow> = {};
  for (const [key, raw] of keys) {
    const code = raw ? (codes.get(raw) ?? null) : null;
    const friendly = raw ? friendlyOf(db.caches.friendly, raw, isBounceableByDefault(code), testnet) : null;
    if (friendly === null) {
      out[key] = { user_friendly: raw === null ? null : 'addr_none', domain: null, interfaces: [] };
      continue;
    }
    out[key] = {
      user_friendly: friendly,
      domain: domains.get(raw!) ?? null,
      interfaces: [...interfaceName(code), ...(kinds.get(raw!) ?? [])].sort(),
    };
  }
  return out;
}

/**
 * The user-friendly form of `raw` (null: not an address), remembered in the network's cache (caches.ts): a pure
 * function of its arguments, and parsing
 * plus checksumming each address of every response was a visible share of a point read's CPU.
 */
function friendlyOf(friendlyCache: ApiCaches['friendly'], raw: string, bounceable: boolean, testnet: boolean): string | null {
  const key = `${bounceable ? 'b' : 'n'}${testnet ? 't' : 'm'}${raw}`;
  const hit = friendlyCache.get(key);
  if (hit !== undefined) return hit;
  const parsed = tryParseAddress(raw);
  const f = parsed ? formatFriendly(parsed, { bounceable, testOnly: testnet, urlSafe: true }) : null;
  friendlyCache.set(key, f);
  return f;
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
  const out: Metadata = {};
  // what each address is (facts, except those the address book read in this request); the entity and metadata rows
  // are read only for the addresses that have some
  const had = db.facts;
  const facts = [...(had?.rows.filter((f) => set.has(f.address) && METADATA_FACTS.includes(f.fact)) ?? [])];
  facts.push(...(await db.points.facts(had ? [...set].filter((a) => !had.covered.has(a)) : [...set], METADATA_FACTS)));
  const walletAddrs = facts.filter((f) => f.fact === 'jetton_wallets').map((f) => f.address);
  const wallets = walletAddrs.length ? ((await db.points.jettonWallets(walletAddrs)) as { address: string; owner: string; jetton: string; balance: string }[]) : [];
  const masters = new Set<string>();
  for (const w of wallets) {
    out[w.address] = { is_indexed: true, token_info: [{ valid: true, type: 'jetton_wallets', extra: { owner: w.owner, jetton: w.jetton, balance: w.balance } }] };
    if (!set.has(w.jetton)) masters.add(w.jetton);
  }
  if (masters.size) facts.push(...(await db.points.facts([...masters], METADATA_FACTS.filter((f) => f !== 'jetton_wallets'))));
  const metaAddrs = [...new Set(facts.filter((f) => f.fact.startsWith('address_metadata:')).map((f) => f.address))];
  const meta = metaAddrs.length ? await db.points.addressMetadata(metaAddrs) : [];
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
 * goes first: its statement reads the facts the metadata block needs too, so the metadata block waits for it.
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
