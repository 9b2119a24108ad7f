/**
 * The store reads of the traces stage's context (src/traces/read-context.ts decides what to ask and caches what it
 * learnt): account states, the entity rows the store keeps (jetton wallets, NFT items, NFT sales, multisig orders),
 * contract codes, the previous rows of the entity-state tables, and the messages a DeDust pool's or a Telegram item's
 * record is read from. Each is one statement per table (IN lists chunked), whatever the number of addresses.
 * Addresses are raw upper-case, code hashes lower-case hex.
 */
import { Cell } from '@ton/core';
import { kvPointReads } from '../../kv/index.ts';
import type { StoreClient } from '../client/index.ts';
import type { Row } from '../../util/index.ts';

/** An account's latest state as the pipeline knows it. */
export interface AccountSnapshot {
  status: string;
  balance: bigint;
  /** lower-case hex */
  codeHash: string | null;
  /** data cell BoC (base64); from a block, unchanged subtrees are pruned branches (the root's fields read) */
  dataBoc: string | null;
  lastTransLt: bigint;
}

export interface KnownJettonWallet {
  owner: string;
  jetton: string;
  balance?: bigint;
}

export interface KnownNftItem {
  index: bigint | null;
  collection: string | null;
  owner?: string | null;
  init?: boolean;
  /** the item's content as `nft_items.content` keeps it (toncenter's JSON object), when the row has one */
  content?: Record<string, unknown>;
}

/** An `nft_sales` row (src/entities/nft-sales.ts). */
export interface KnownSale {
  type: 'getgems_sale' | 'getgems_auction' | 'telemint';
  nftAddress: string | null;
  nftOwner: string | null;
  marketplace: string | null;
  details: Record<string, unknown>;
}

/** A `multisig_orders` row (src/entities/multisig.ts): the order's multisig and signers. */
export interface KnownMultisigOrder {
  multisig: string | null;
  signers: string[];
}

/**
 * The store's context rows for a set of addresses. `asked`: the addresses each table was read for; an asked
 * address without a row has none in the store.
 */
export interface StoreContextRows {
  asked: { states: ReadonlySet<string>; jetton: ReadonlySet<string>; nft: ReadonlySet<string>; sale: ReadonlySet<string> };
  states: ReadonlyMap<string, AccountSnapshot>;
  jettonWallets: ReadonlyMap<string, KnownJettonWallet>;
  nftItems: ReadonlyMap<string, KnownNftItem>;
  sales: ReadonlyMap<string, KnownSale>;
}

/** IN lists of at most this many addresses (a group of batches can name tens of thousands). */
const READ_CHUNK = 20_000;

async function readChunked<T>(addresses: readonly string[], read: (chunk: string[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < addresses.length; i += READ_CHUNK) out.push(...(await read(addresses.slice(i, i + READ_CHUNK))));
  return out;
}

type StateRow = { account: string; account_status: string; balance: string; code_hash: string | null; data_boc: string | null; last_trans_lt: string; timestamp: number };

/**
 * Latest states of these accounts, whatever the checkpoint: the traces stage needs the states written ahead of it, by
 * the store stage of the same process. The key-value store where this process has one (src/kv; its RocksDB table is
 * gone there, clickhouse/0017).
 */
async function latestStateRows(store: StoreClient, accounts: readonly string[], where = ''): Promise<StateRow[]> {
  const kv = store.kv;
  return kv
    ? ((await kvPointReads(kv, { everything: true }).latestStates(accounts)) as StateRow[])
    : readChunked(accounts, (a) =>
        store.query<StateRow>(`SELECT account, account_status, balance, code_hash, data_boc, last_trans_lt, timestamp FROM latest_account_states_kv WHERE account IN {a:Array(String)}${where}`, { a }),
      );
}

export async function readStates(store: StoreClient, addresses: readonly string[]): Promise<Map<string, AccountSnapshot>> {
  const out = new Map<string, AccountSnapshot>();
  for (const r of await latestStateRows(store, addresses)) {
    out.set(r.account, { status: r.account_status, balance: BigInt(r.balance), codeHash: r.code_hash?.toLowerCase() ?? null, dataBoc: r.data_boc, lastTransLt: BigInt(r.last_trans_lt) });
  }
  return out;
}

/** The full data cells the store holds for these accounts (`latest_account_states_kv.data_boc`, set after a deploy). */
export async function readFullData(store: StoreClient, accounts: readonly string[]): Promise<Map<string, { dataBoc: string; balance: bigint; timestamp: number }>> {
  if (!accounts.length) return new Map();
  const rows = (await latestStateRows(store, accounts, ' AND data_boc IS NOT NULL')).filter((r) => r.data_boc !== null && r.data_boc !== undefined);
  return new Map(rows.map((r) => [r.account, { dataBoc: r.data_boc!, balance: BigInt(r.balance), timestamp: Number(r.timestamp) }]));
}

export async function readJettonWallets(store: StoreClient, addresses: readonly string[]): Promise<Map<string, KnownJettonWallet>> {
  const rows = await readChunked(addresses, (a) =>
    store.query<{ address: string; owner: string; jetton: string; balance: string }>('SELECT address, owner, jetton, balance FROM jetton_wallets FINAL WHERE address IN {a:Array(String)}', { a }),
  );
  return new Map(rows.map((r) => [r.address, { owner: r.owner, jetton: r.jetton, balance: BigInt(r.balance) }]));
}

export async function readNftItems(store: StoreClient, addresses: readonly string[]): Promise<Map<string, KnownNftItem>> {
  const rows = await readChunked(addresses, (a) =>
    store.query<{ address: string; init: boolean | number; index: string; collection_address: string | null; owner_address: string | null; content: string }>(
      'SELECT address, init, `index`, collection_address, owner_address, content FROM nft_items FINAL WHERE address IN {a:Array(String)}',
      { a },
    ),
  );
  return new Map(
    rows.map((r) => {
      const content = storedContent(r.content);
      return [r.address, { index: BigInt(r.index), collection: r.collection_address, owner: r.owner_address, init: Boolean(r.init), ...(content ? { content } : {}) }];
    }),
  );
}

/** `nft_items.content` as the API renders it (a JSON object, as toncenter's jsonb column); '' and others: none. */
function storedContent(text: string | null | undefined): Record<string, unknown> | null {
  if (!text || !text.trim().startsWith('{')) return null;
  try {
    const o = JSON.parse(text) as unknown;
    return o && typeof o === 'object' && !Array.isArray(o) && Object.keys(o).length ? (o as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export async function readMultisigOrders(store: StoreClient, addresses: readonly string[]): Promise<Map<string, KnownMultisigOrder>> {
  const rows = await readChunked(addresses, (a) =>
    store.query<{ address: string; multisig_address: string | null; signers: string[] }>(
      'SELECT address, multisig_address, signers FROM multisig_orders FINAL WHERE address IN {a:Array(String)}',
      { a },
    ),
  );
  return new Map(rows.map((r) => [r.address, { multisig: r.multisig_address, signers: r.signers }]));
}

export async function readSales(store: StoreClient, addresses: readonly string[]): Promise<Map<string, KnownSale>> {
  const rows = await readChunked(addresses, (a) =>
    store.query<{ address: string; type: KnownSale['type']; nft_address: string | null; nft_owner_address: string | null; marketplace_address: string | null; details: string }>(
      'SELECT address, type, nft_address, nft_owner_address, marketplace_address, details FROM nft_sales FINAL WHERE address IN {a:Array(String)}',
      { a },
    ),
  );
  const out = new Map<string, KnownSale>();
  for (const r of rows) {
    let details: Record<string, unknown> = {};
    try {
      details = JSON.parse(r.details) as Record<string, unknown>;
    } catch {
      // a row without readable details still names its NFT
    }
    out.set(r.address, { type: r.type, nftAddress: r.nft_address, nftOwner: r.nft_owner_address, marketplace: r.marketplace_address, details });
  }
  return out;
}

/** A stored message body of an account (`messages` keyed by the account: a primary-key range, `message_contents`). */
export interface StoredBody {
  account: string;
  initStateHash: string | null;
  boc: string;
}

/**
 * Up to four message bodies per account with this opcode (signed int32 as stored): the external-out messages the
 * accounts sent (`direction: 'ext_out'`: a DeDust pool's swap events) or the messages they received (`'in'`: a
 * Telegram item's deploy).
 */
export async function readMessageBodies(store: StoreClient, accounts: readonly string[], direction: 'ext_out' | 'in', opcode: number): Promise<StoredBody[]> {
  if (!accounts.length) return [];
  const where = direction === 'ext_out' ? "direction = 'out' AND message_type = 'ext_out'" : "direction = 'in'";
  const rows = await store.query<{ account: string; init_state_hash: string | null; boc: string }>(
    `SELECT m.tx_account AS account, m.init_state_hash AS init_state_hash, c.boc AS boc
       FROM (SELECT tx_account, body_hash, init_state_hash FROM messages
              WHERE tx_account IN {a:Array(String)} AND ${where} AND opcode = {op:Int32}
              LIMIT 4 BY tx_account) AS m
       INNER JOIN message_contents AS c ON c.hash = m.body_hash`,
    { a: [...accounts], op: opcode | 0 },
  );
  return rows.map((r) => ({ account: r.account, initStateHash: r.init_state_hash, boc: r.boc }));
}

/** Code cells by hash from `contract_code` (written from every block that carries a code unpruned); unreadable BoCs are left out. */
export async function readContractCodes(store: StoreClient, hashes: readonly string[]): Promise<Map<string, Cell>> {
  const rows = await store.query<{ code_hash: string; code_boc: string }>(
    'SELECT code_hash, any(code_boc) AS code_boc FROM contract_code WHERE code_hash IN {h:Array(FixedString(64))} GROUP BY code_hash',
    { h: [...hashes] },
  );
  const out = new Map<string, Cell>();
  for (const r of rows) {
    try {
      out.set(r.code_hash, Cell.fromBase64(r.code_boc));
    } catch {
      // an unreadable BoC stays a miss
    }
  }
  return out;
}

/** The latest rows of an entity-state table for these keys (`key`: its key column). */
export async function readLatestRows(store: StoreClient, table: string, key: string, addresses: readonly string[]): Promise<Map<string, Row>> {
  const out = new Map<string, Row>();
  for (const r of await store.query<Row>(`SELECT * FROM ${table} FINAL WHERE ${key} IN {a:Array(String)}`, { a: [...addresses] })) out.set(r[key] as string, r);
  return out;
}
