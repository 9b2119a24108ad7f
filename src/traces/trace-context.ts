/**
 * The account context of a trace: what the classifier reads besides the transactions (`Trace.interfaces` and
 * `Trace.accountStates`, src/actions/model.ts), built from what the pipeline has, in the shapes
 * src/actions/adapters/toncenter-json.ts builds from toncenter's JSON (jettonWallet owner/jetton, nftItem,
 * nftSale, codeHash, dataBoc, raw interface records under toncenter's names).
 *
 * Two halves:
 * - `loadTraceContext` (I/O, once per masterchain batch, before classification): for every address the batch's
 *   traces name, the latest account state (the batch's own decoded states, else states of recent batches, else
 *   `latest_account_states_kv`), contract code (the batch's blocks, else `contract_code`), and the jetton wallets,
 *   NFT items and NFT sales the store knows (`jetton_wallets`, `nft_items`, `nft_sales`). One query per table.
 *   Then what upstream's repository gathers beyond the trace's own layouts, from the chain: DeDust pools' assets
 *   (context-dedust.ts), Telegram items' content (context-telemint.ts), a jVault unstake's pool and lock wallet
 *   (context-jvault.ts), a GetGems auction's NFT item.
 * - `traceContext` (pure, per trace): turns that into interface records. An account is a jetton wallet / NFT item
 *   when the store says so, or when its data reads exactly in the standard layout (src/entities/data-layouts.ts)
 *   and either a transaction of the trace received a TEP-74 / TEP-62 message (the rule the entities stage uses,
 *   src/entities/events.ts) or its code declares the standard's get-method (src/entities/interfaces.ts; the code
 *   comes from the context, or from a StateInit a message of the trace carries, e.g. a freshly minted item).
 *
 * Addresses a trace names: its transactions' accounts, its messages' ends, and the standard addresses inside its
 * message bodies (a swap's target wallet, the intended messages of a failed wallet external): toncenter gathers
 * those with per-protocol extractors (`extract_additional_addresses`); here every `addr_std` a body carries is
 * taken, which covers them all (an address that is not an account only costs a lookup that finds nothing).
 */
import { Cell, loadStateInit } from '@ton/core';
import type { AccountInterfaces, AccountStateSnapshot, Trace, TraceTransaction } from '../actions/index.ts';
import { cellFromBoc, loadAddr, OP, cellOf, parseJettonWalletData, parseNftItemData, detectInterfaces, isWalletCodeHash, type Interface } from '../contracts/index.ts';
import type { KnownEntities } from '../entities/index.ts';
import { parseOrderData } from '../contracts/index.ts';
import { storeEntityLookup } from '../entities/index.ts';
import type { StoreClient } from '../store/index.ts';
import { latestStatesAnyTag } from '../kv/index.ts';
import { CELL_ORDINARY, parseBoc, Slice, type AccountStateRow, type Cells, type TransactionRow } from '../ton/index.ts';
import { BoundedMap } from '../util/index.ts';
import { loadDedustPools, type ContextMessage, type DedustPoolAssets } from './context-dedust.ts';
import { dataRequestAccounts, jvaultReach, poolLockWalletOf, stakeWalletPool } from './context-jvault.ts';
import { loadTelemintContents, TELEITEM_DEPLOY_OPCODE, type ItemContent } from './context-telemint.ts';

/** An account's latest state as the pipeline knows it. */

/** Interfaces whose account data the context reads (jetton wallet, NFT item kinds). */
const DATA_READ_INTERFACES: ReadonlySet<Interface> = new Set<Interface>(['jetton_wallet', 'telemint', 'dns_item', 'nft_item']);
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

/** Everything `traceContext` reads, keyed by raw upper-case address (codes by lower-case code hash). */
export interface TraceContextSource {
  states: ReadonlyMap<string, AccountSnapshot>;
  codes: ReadonlyMap<string, Cell>;
  jettonWallets: ReadonlyMap<string, KnownJettonWallet>;
  nftItems: ReadonlyMap<string, KnownNftItem>;
  sales: ReadonlyMap<string, KnownSale>;
  /** the store's rows of the multisig orders among the addresses (their code tells them) */
  multisigOrders?: ReadonlyMap<string, KnownMultisigOrder>;
  /** DeDust pools' assets, from the chain (context-dedust.ts) */
  dedustPools?: ReadonlyMap<string, DedustPoolAssets>;
  /** Telegram items' content, from the chain (context-telemint.ts) */
  itemContents?: ReadonlyMap<string, ItemContent>;
}

export function emptyTraceContext(): TraceContextSource {
  return { states: new Map(), codes: new Map(), jettonWallets: new Map(), nftItems: new Map(), sales: new Map() };
}

// ---------------------------------------------------------------- addresses a trace names

/** A body is walked at most this many cells deep into its tree (forward payloads can be large). */
const MAX_BODY_CELLS = 64;
// addr_std$10 anycast:nothing$0 workchain_id:int8 (0 or -1) address:bits256 (block.tlb MsgAddressInt): the 11
// leading bits of a basechain and of a masterchain address
const PREFIX_WC0 = 0b100_0000_0000;
const PREFIX_WCM1 = 0b100_1111_1111;

/** A one-root BoC's structure (no hashes: nothing here reads one), or null when it does not parse. */
function bodyCells(boc: string): Cells | null {
  try {
    const cells = parseBoc(Buffer.from(boc, 'base64'), { hash: false });
    return cells.roots.length === 1 ? cells : null;
  } catch {
    return null;
  }
}

/**
 * Every bit offset of every ordinary cell is a candidate (an address may sit anywhere in a body), so the scan
 * slides an 11-bit window over the bytes: this runs over every body of a batch.
 */
function scanBody(boc: string): string[] {
  const cells = bodyCells(boc);
  if (!cells) return [];
  const out = new Set<string>();
  // breadth first from the root, each cell once, ordinary cells only
  const queue = [cells.roots[0]];
  const seen = new Set<number>();
  const { buf } = cells;
  for (let q = 0; q < queue.length && seen.size < MAX_BODY_CELLS; q++) {
    const c = queue[q];
    if (seen.has(c) || cells.type[c] !== CELL_ORDINARY) continue;
    seen.add(c);
    for (let r = 0; r < cells.refCount[c]; r++) queue.push(cells.refs[c * 4 + r]);
    const n = cells.bits[c];
    if (n < 267) continue;
    const off = cells.dataOff[c];
    // the 256 bits from bit `at` of the cell (a hit is rare: a slice per hit)
    const addressAt = (at: number) => {
      const s = new Slice(cells, c);
      s.skip(at);
      return s.hex(256, true);
    };
    // after bit i the window holds bits i-10..i; the address follows at i+1 and must end within the cell
    let win = 0;
    let masterchain: string[] | null = null;
    for (let i = 0; i < n - 256; i++) {
      win = ((win << 1) | ((buf[off + (i >> 3)] >> (7 - (i & 7))) & 1)) & 0x7ff;
      if (i < 10) continue;
      if (win === PREFIX_WC0) out.add(`0:${addressAt(i + 1)}`);
      else if (win === PREFIX_WCM1) (masterchain ??= []).push(`-1:${addressAt(i + 1)}`);
    }
    // a cell's basechain addresses come before its masterchain ones (the order the callers have always seen)
    if (masterchain) for (const a of masterchain) out.add(a);
  }
  return [...out];
}

// the stage scans a group's bodies for its prefetch, again per batch and per completed trace: the cache holds a
// group's worth (a full clear when it filled made the group scans all misses)
const scanned = new BoundedMap<string, string[]>(65_536);

/** Every standard basechain / masterchain address written anywhere in a body's cells (raw upper-case). */
export function bodyAddresses(boc: string | null | undefined, out: Set<string> = new Set()): Set<string> {
  if (!boc) return out;
  let found = scanned.get(boc);
  if (!found) {
    found = scanBody(boc);
    scanned.set(boc, found);
  }
  for (const a of found) out.add(a);
  return out;
}

interface MessageLike {
  source: string | null;
  destination: string | null;
  body: string | null;
}

function addMessage(out: Set<string>, m: MessageLike | null): void {
  if (!m) return;
  if (m.source) out.add(m.source);
  if (m.destination) out.add(m.destination);
  bodyAddresses(m.body, out);
}

/** Addresses a trace names: accounts, message ends, addresses inside message bodies. */
export function traceAddresses(txs: readonly TraceTransaction[]): Set<string> {
  const out = new Set<string>();
  for (const tx of txs) {
    out.add(tx.account);
    addMessage(out, tx.inMsg);
    for (const m of tx.outMsgs) addMessage(out, m);
  }
  return out;
}

/** Same as traceAddresses, over the decoder's rows (what the stage has before it assembles traces). */
export function rowAddresses(txs: readonly TransactionRow[]): Set<string> {
  const out = new Set<string>();
  const msg = (m: TransactionRow['in_msg']) => m && addMessage(out, { source: m.source, destination: m.destination, body: m.body_boc });
  for (const tx of txs) {
    out.add(tx.account);
    msg(tx.in_msg);
    for (const m of tx.out_msgs) msg(m);
  }
  return out;
}

/** Every message of a trace's transactions, as the context reads them. */
export function traceMessages(txs: readonly TraceTransaction[]): ContextMessage[] {
  const out: ContextMessage[] = [];
  for (const tx of txs) for (const m of [tx.inMsg, ...tx.outMsgs]) if (m) out.push(m);
  return out;
}

/** Same as traceMessages, over the decoder's rows. */
export function rowMessages(txs: readonly TransactionRow[]): ContextMessage[] {
  const out: ContextMessage[] = [];
  for (const tx of txs) {
    for (const m of [tx.in_msg, ...tx.out_msgs]) if (m) out.push({ source: m.source, destination: m.destination, opcode: m.opcode, body: m.body_boc, initState: m.init_state_boc });
  }
  return out;
}

// ---------------------------------------------------------------- layouts of NFT items beyond TEP-62's

/**
 * ton-blockchain/dns-contract func/nft-item.fc `store_data`: `index:uint256 collection_address:MsgAddress
 * owner_address:MsgAddress content:^Cell domain:^Cell auction:(Maybe ^Cell) last_fill_up_time:uint64`, or only
 * `index collection_address` before init. Read exactly (the root's bits; refs may be pruned).
 */
function parseDnsItemData(cell: Cell): KnownNftItem | null {
  try {
    const s = cell.beginParse(true);
    const index = s.loadUintBig(256);
    const collection = loadAddr(s);
    if (s.remainingBits === 0) return s.remainingRefs === 0 ? { index, collection, owner: null, init: false } : null;
    const owner = loadAddr(s);
    const hasAuction = s.loadBit();
    s.loadUintBig(64);
    return s.remainingBits === 0 && s.remainingRefs === 2 + (hasAuction ? 1 : 0) ? { index, collection, owner, init: true } : null;
  } catch {
    return null;
  }
}

/**
 * TelegramMessenger/telemint nft-item: `config:^(item_index:uint256 collection_address:MsgAddressInt)
 * state:(Maybe ^(owner_address:MsgAddressInt content:^Cell auction:(Maybe ^Cell) royalty_params:^Cell))`.
 * The config never changes, so a block usually prunes it: index and collection are then unknown.
 */
function parseTelemintItemData(cell: Cell): KnownNftItem | null {
  try {
    const s = cell.beginParse(true);
    const config = s.loadRef();
    const state = s.loadMaybeRef();
    if (s.remainingBits !== 0 || s.remainingRefs !== 0) return null;
    let index: bigint | null = null;
    let collection: string | null = null;
    if (!config.isExotic) {
      const c = config.beginParse();
      index = c.loadUintBig(256);
      collection = loadAddr(c);
    }
    const owner = state && !state.isExotic ? loadAddr(state.beginParse()) : null;
    return { index, collection, owner, init: state !== null };
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------- per trace (pure)

const JETTON_OPS = new Set<number>([OP.jettonTransfer, OP.jettonInternalTransfer, OP.jettonBurn]);
const NFT_OPS = new Set<number>([OP.nftTransfer, OP.nftGetStaticData]);

const codeCache = new Map<string, { hash: string; code: Cell } | null>();

/** Code cell (and its hash) of a StateInit BoC, or null. */
function initCode(boc: string): { hash: string; code: Cell } | null {
  const hit = codeCache.get(boc);
  if (hit !== undefined) return hit;
  let v: { hash: string; code: Cell } | null = null;
  const c = cellFromBoc(boc);
  try {
    const code = c ? loadStateInit(c.beginParse()).code : null;
    if (code) v = { hash: code.hash().toString('hex'), code };
  } catch {
    v = null;
  }
  if (codeCache.size >= 1024) codeCache.clear();
  codeCache.set(boc, v);
  return v;
}

function jettonRecord(a: string, w: KnownJettonWallet): Record<string, unknown> {
  return { address: a, owner: w.owner, jetton: w.jetton, ...(w.balance !== undefined ? { balance: w.balance.toString() } : {}) };
}

function nftRecord(a: string, n: KnownNftItem, content: unknown): Record<string, unknown> {
  const rec: Record<string, unknown> = { address: a, init: n.init ?? true, index: n.index?.toString() ?? null, collection_address: n.collection, owner_address: n.owner ?? null };
  // a record without the key reads as no metadata (interfaces.ts); only what the chain or the store says is given
  if (content !== undefined) rec.content = content;
  return rec;
}

/**
 * Accounts no transaction or message of the trace names whose records toncenter's repository gathers for it: the
 * NFT of a GetGems auction the trace names (`nft_batch`), the staking pool and lock wallet of a jVault unstake
 * (context-jvault.ts). `poolData`: the pools' data, given as `data_boc` records.
 */
export function reachedAccounts(trace: Pick<Trace, 'transactions'>, named: ReadonlySet<string>, src: TraceContextSource): { accounts: Set<string>; poolData: Map<string, string> } {
  const accounts = new Set<string>();
  for (const a of named) {
    const sale = src.sales.get(a);
    if (sale?.type === 'getgems_auction' && sale.nftAddress) accounts.add(sale.nftAddress);
  }
  const stakeWallets = dataRequestAccounts(traceMessages(trace.transactions));
  const reach = stakeWallets.size ? jvaultReach(stakeWallets, (a) => src.states.get(a)?.dataBoc) : { pools: new Map<string, string>(), lockWallets: new Set<string>() };
  for (const a of reach.pools.keys()) accounts.add(a);
  for (const a of reach.lockWallets) accounts.add(a);
  for (const a of named) accounts.delete(a);
  return { accounts, poolData: reach.pools };
}

/** toncenter's record names for the sale contracts: `NftSale` (fixed price), `NftAuction` (with `nft_addr`). */
function saleRecords(a: string, s: KnownSale): { raw: Record<string, unknown>; nftSale?: Record<string, unknown> } {
  if (s.type === 'getgems_sale') {
    const sale = { address: a, marketplace_address: s.marketplace, nft_address: s.nftAddress, nft_owner_address: s.nftOwner, ...s.details };
    return { raw: { NftSale: sale }, nftSale: sale };
  }
  if (s.type === 'getgems_auction') {
    // toncenter's record names the fee and royalty addresses mp_fee_addr / royalty_fee_addr
    const d = s.details;
    const auction = { address: a, nft_addr: s.nftAddress, nft_owner: s.nftOwner, mp_addr: s.marketplace, ...d, mp_fee_addr: d.mp_fee_address ?? null, royalty_fee_addr: d.royalty_fee_address ?? null };
    return { raw: { NftAuction: auction } };
  }
  return { raw: {} };
}

/** Interface records and account states of one trace, from the batch's context. Pure. */
export function traceContext(trace: Pick<Trace, 'transactions'>, src: TraceContextSource): Pick<Trace, 'interfaces' | 'accountStates'> {
  const jettonCand = new Set<string>();
  const nftCand = new Set<string>();
  const codes = new Map<string, Cell>();
  for (const tx of trace.transactions) {
    const m = tx.inMsg;
    if (m && m.source !== null && m.opcode !== null) {
      if (JETTON_OPS.has(m.opcode)) jettonCand.add(tx.account);
      if (NFT_OPS.has(m.opcode)) nftCand.add(tx.account);
    }
    for (const msg of [tx.inMsg, ...tx.outMsgs]) {
      const ic = msg?.initState ? initCode(msg.initState) : null;
      if (ic) codes.set(ic.hash, ic.code);
    }
  }
  const interfaces: Record<string, AccountInterfaces> = {};
  const accountStates: Record<string, { after: AccountStateSnapshot }> = {};
  const addresses = traceAddresses(trace.transactions);
  const reached = reachedAccounts(trace, addresses, src);
  for (const a of reached.accounts) addresses.add(a);
  for (const a of addresses) {
    const st = src.states.get(a);
    const codeHash = st?.codeHash ?? null;
    let ifaces: Interface[] = [];
    if (codeHash && !isWalletCodeHash(codeHash)) ifaces = detectInterfaces(codeHash, src.codes.get(codeHash) ?? codes.get(codeHash) ?? null);
    const sale = src.sales.get(a);
    // a Telegram item: by its code, its sale row, or its deploy (context-telemint.ts: a gift's code is a library)
    const teleitem = ifaces.includes('telemint') || sale?.type === 'telemint' || src.itemContents?.has(a) === true;
    // The data cell is parsed only for an account that may be a jetton wallet or an NFT item: most trace
    // accounts are wallets, and parsing every state's data was a visible share of the stage's time.
    const mayReadData = jettonCand.has(a) || nftCand.has(a) || teleitem || ifaces.some((i) => DATA_READ_INTERFACES.has(i));
    const data = mayReadData && st?.status === 'active' ? cellOf(st.dataBoc) : null;

    // the state, when it reads as one, is at least as new as the store's row (balance); owner / jetton never change
    let jw: KnownJettonWallet | undefined;
    const jwData = data && (jettonCand.has(a) || ifaces.includes('jetton_wallet')) ? parseJettonWalletData(data) : null;
    if (jwData) jw = { owner: jwData.owner, jetton: jwData.jetton, balance: jwData.balance };
    else jw = src.jettonWallets.get(a);

    let nft: KnownNftItem | undefined;
    if (!jw && data) {
      if (teleitem) nft = parseTelemintItemData(data) ?? undefined;
      else if (ifaces.includes('dns_item')) nft = parseDnsItemData(data) ?? undefined;
      else if (nftCand.has(a) || ifaces.includes('nft_item')) nft = parseNftItemData(data) ?? parseDnsItemData(data) ?? undefined;
    }
    if (!jw) nft ??= src.nftItems.get(a);

    const rec: AccountInterfaces = {};
    const raw: Record<string, unknown> = {};
    if (codeHash) rec.codeHash = codeHash;
    if (st?.dataBoc) rec.dataBoc = st.dataBoc;
    if (jw) {
      rec.jettonWallet = { owner: jw.owner, jetton: jw.jetton, ...(jw.balance !== undefined ? { balance: jw.balance } : {}) };
      raw.JettonWallet = jettonRecord(a, jw);
    }
    if (nft) {
      rec.nftItem = { index: nft.index, collection: nft.collection, owner: nft.owner ?? null, ...(nft.init !== undefined ? { init: nft.init } : {}) };
      raw.NftItem = nftRecord(a, nft, src.itemContents?.get(a) ?? nft.content ?? src.nftItems.get(a)?.content);
    }
    const pool = ifaces.includes('dedust_pool') ? src.dedustPools?.get(a) : undefined;
    if (pool) {
      rec.dedustPool = { assets: pool.assets.map((x) => ({ isTon: x.is_ton, address: x.address })) };
      raw.DedustPool = { address: a, assets: pool.assets.map((x) => ({ ...x })) };
    }
    const poolData = reached.poolData.get(a);
    if (poolData !== undefined) raw.data_boc = { account: a, request: 'data_boc', data_boc: poolData };
    if (sale) {
      const s = saleRecords(a, sale);
      Object.assign(raw, s.raw);
      if (s.nftSale) rec.nftSale = s.nftSale;
    }
    if (ifaces.includes('multisig_order_v2')) {
      // the store's row (signers the block pruned come from earlier rows there), else the state's own data
      const row = src.multisigOrders?.get(a);
      const d = !row && st?.status === 'active' ? cellOf(st.dataBoc) : null;
      const parsed = d ? parseOrderData(d) : null;
      const order = row ?? (parsed?.init?.signers ? { multisig: parsed.multisig, signers: parsed.init.signers } : null);
      if (order) raw.MultisigOrder = { address: a, multisig_address: order.multisig, signers: order.signers };
    }
    if (Object.keys(raw).length) rec.raw = raw;
    if (Object.keys(rec).length) interfaces[a] = rec;
    if (st) accountStates[a] = { after: { balance: st.balance, codeHash: st.codeHash, dataBoc: st.dataBoc } };
  }
  return { interfaces, accountStates };
}

// ---------------------------------------------------------------- per batch (I/O)

/**
 * States of the batches this process has folded, newest last: the stage may process several masterchain seqnos
 * before anything is written, and the store stage writes account states on its own schedule, so a trace that
 * spans seqnos finds its earlier accounts here. Bounded; a state here is never newer than the batch being folded.
 */
const MAX_RECENT_STATES = 50_000;
const recentStates = new WeakMap<StoreClient, BoundedMap<string, AccountSnapshot>>();

/**
 * Addresses the store has no jetton wallet / NFT item / NFT sale row for. Such a row only appears after a change of
 * the account's state; a changed account is dropped from these sets and not added back while its rows may still be
 * unwritten (UNWRITTEN_BATCHES), so an address is asked for again whenever it may have a row.
 * Without this every batch asked the three tables for every address it names, most of them plain wallets.
 */
interface Absent {
  jetton: Set<string>;
  nft: Set<string>;
  sale: Set<string>;
  /** batch counter, and the batch in which each account last changed */
  batch: number;
  changedAt: BoundedMap<string, number>;
}
const MAX_ABSENT = 200_000;
/**
 * Rows of a changed account may stay unwritten for this many batches (the traces stage writes up to 32 seqnos at
 * once); an account changed that recently is never recorded as absent.
 */
const UNWRITTEN_BATCHES = 64;
const absentByStore = new WeakMap<StoreClient, Absent>();

function absentFor(store: StoreClient): Absent {
  let a = absentByStore.get(store);
  if (!a) absentByStore.set(store, (a = { jetton: new Set(), nft: new Set(), sale: new Set(), batch: 0, changedAt: new BoundedMap(MAX_ABSENT) }));
  return a;
}

function remember(absent: Absent, set: Set<string>, asked: readonly string[], found: ReadonlySet<string>): void {
  if (set.size > MAX_ABSENT) set.clear();
  for (const a of asked) {
    const at = absent.changedAt.get(a);
    if (!found.has(a) && (at === undefined || absent.batch - at >= UNWRITTEN_BATCHES)) set.add(a);
  }
}

function snapshotOf(st: AccountStateRow): AccountSnapshot {
  return {
    status: st.account_status,
    balance: st.balance,
    codeHash: st.code_hash?.toLowerCase() ?? null,
    dataBoc: st.data_root_boc ?? st.data_boc,
    lastTransLt: st.last_trans_lt,
  };
}

export interface TraceContextInput {
  /** every address the batch's completed traces may name (`rowAddresses` of the batch and of the traces it continues) */
  addresses: ReadonlySet<string>;
  /** the batch's decoded account states (several blocks of a shard: the latest wins) */
  states: readonly AccountStateRow[];
  /** jetton wallets / NFT items already loaded for the batch (the store's and the unwritten seqnos') */
  known?: KnownEntities;
  /** the store's rows for these addresses, read once for the consecutive batches this one is part of */
  prefetched?: StoreContextRows;
  /**
   * every message of the transactions the addresses come from (`rowMessages`): what leads beyond them (a jVault
   * unstake's pool) and what the chain says there of a DeDust pool or a Telegram item
   */
  messages?: readonly ContextMessage[];
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

async function readStates(store: StoreClient, addresses: readonly string[]): Promise<Map<string, AccountSnapshot>> {
  const out = new Map<string, AccountSnapshot>();
  type StateRow = { account: string; account_status: string; balance: string; code_hash: string | null; data_boc: string | null; last_trans_lt: string };
  // the key-value store where this process has one (src/kv; its RocksDB table is gone there, clickhouse/0017)
  const kv = store.kv;
  const rows = kv
    ? (latestStatesAnyTag(kv, addresses) as StateRow[])
    : await readChunked(addresses, (a) =>
        store.query<StateRow>('SELECT account, account_status, balance, code_hash, data_boc, last_trans_lt FROM latest_account_states_kv WHERE account IN {a:Array(String)}', { a }),
      );
  for (const r of rows) {
    out.set(r.account, { status: r.account_status, balance: BigInt(r.balance), codeHash: r.code_hash?.toLowerCase() ?? null, dataBoc: r.data_boc, lastTransLt: BigInt(r.last_trans_lt) });
  }
  return out;
}

async function readJettonWallets(store: StoreClient, addresses: readonly string[]): Promise<Map<string, KnownJettonWallet>> {
  const rows = await readChunked(addresses, (a) =>
    store.query<{ address: string; owner: string; jetton: string; balance: string }>('SELECT address, owner, jetton, balance FROM jetton_wallets FINAL WHERE address IN {a:Array(String)}', { a }),
  );
  return new Map(rows.map((r) => [r.address, { owner: r.owner, jetton: r.jetton, balance: BigInt(r.balance) }]));
}

async function readNftItems(store: StoreClient, addresses: readonly string[]): Promise<Map<string, KnownNftItem>> {
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

async function readMultisigOrders(store: StoreClient, addresses: readonly string[]): Promise<Map<string, KnownMultisigOrder>> {
  const rows = await readChunked(addresses, (a) =>
    store.query<{ address: string; multisig_address: string | null; signers: string[] }>(
      'SELECT address, multisig_address, signers FROM multisig_orders FINAL WHERE address IN {a:Array(String)}',
      { a },
    ),
  );
  return new Map(rows.map((r) => [r.address, { multisig: r.multisig_address, signers: r.signers }]));
}

/** The addresses whose state's code is a multisig v2 order's (by hash, else by its get-methods), each code once. */
function multisigOrderAddresses(addresses: readonly string[], states: ReadonlyMap<string, AccountSnapshot>, codes: ReadonlyMap<string, Cell>): string[] {
  const isOrder = new Map<string, boolean>();
  const out: string[] = [];
  for (const a of addresses) {
    const h = states.get(a)?.codeHash;
    if (!h || isWalletCodeHash(h)) continue;
    let yes = isOrder.get(h);
    if (yes === undefined) isOrder.set(h, (yes = detectInterfaces(h, codes.get(h) ?? null).includes('multisig_order_v2')));
    if (yes) out.push(a);
  }
  return out;
}

async function readSales(store: StoreClient, addresses: readonly string[]): Promise<Map<string, KnownSale>> {
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

/**
 * Rows `want` needs from one table: those `prefetched` covers (its rows, or none), the rest read by `read`; the
 * addresses read are recorded as absent where the store had no row (when `absentSet` is given).
 */
async function rowsFor<V>(
  want: readonly string[],
  prefetched: { asked: ReadonlySet<string>; rows: ReadonlyMap<string, V> } | undefined,
  read: (addresses: string[]) => Promise<Map<string, V>>,
  into: Map<string, V>,
  absent?: { state: Absent; set: Set<string> },
): Promise<void> {
  const ask: string[] = [];
  for (const a of want) {
    if (!prefetched?.asked.has(a)) ask.push(a);
    else {
      const r = prefetched.rows.get(a);
      if (r !== undefined) into.set(a, r);
    }
  }
  if (!ask.length) return;
  const rows = await read(ask);
  for (const [a, r] of rows) into.set(a, r);
  if (absent) remember(absent.state, absent.set, ask, new Set(rows.keys()));
}

/** The store's jetton wallet / NFT item rows of these addresses, `prefetched` ones first (no absent bookkeeping). */
export async function readEntityRows(
  store: StoreClient,
  jetton: readonly string[],
  nft: readonly string[],
  prefetched?: StoreContextRows,
): Promise<{ jettonWallets: Map<string, KnownJettonWallet>; nftItems: Map<string, KnownNftItem> }> {
  const jettonWallets = new Map<string, KnownJettonWallet>();
  const nftItems = new Map<string, KnownNftItem>();
  await rowsFor(jetton, prefetched && { asked: prefetched.asked.jetton, rows: prefetched.jettonWallets }, (a) => readJettonWallets(store, a), jettonWallets);
  await rowsFor(nft, prefetched && { asked: prefetched.asked.nft, rows: prefetched.nftItems }, (a) => readNftItems(store, a), nftItems);
  return { jettonWallets, nftItems };
}

/**
 * The store's context rows for every address of several consecutive batches, in one query per table instead of
 * one per table and batch: each statement waits behind the inserts queued in the engine, so the count matters
 * more than the size. Addresses known absent, or whose state this process already holds, are not asked.
 */
export async function prefetchTraceContext(store: StoreClient, addresses: ReadonlySet<string>): Promise<StoreContextRows> {
  const recent = recentStates.get(store);
  const absent = absentFor(store);
  const all = [...addresses];
  const askStates = all.filter((a) => !recent?.has(a));
  const askJetton = all.filter((a) => !absent.jetton.has(a));
  const askNft = all.filter((a) => !absent.nft.has(a));
  const askSale = all.filter((a) => !absent.sale.has(a));
  const states = new Map<string, AccountSnapshot>();
  const jettonWallets = new Map<string, KnownJettonWallet>();
  const nftItems = new Map<string, KnownNftItem>();
  const sales = new Map<string, KnownSale>();
  await rowsFor(askStates, undefined, (a) => readStates(store, a), states);
  await rowsFor(askJetton, undefined, (a) => readJettonWallets(store, a), jettonWallets, { state: absent, set: absent.jetton });
  await rowsFor(askNft, undefined, (a) => readNftItems(store, a), nftItems, { state: absent, set: absent.nft });
  await rowsFor(askSale, undefined, (a) => readSales(store, a), sales, { state: absent, set: absent.sale });
  return { asked: { states: new Set(askStates), jetton: new Set(askJetton), nft: new Set(askNft), sale: new Set(askSale) }, states, jettonWallets, nftItems, sales };
}

/** Loads the context of one masterchain batch: a few batched queries whatever the number of traces. */
export async function loadTraceContext(store: StoreClient, input: TraceContextInput): Promise<TraceContextSource> {
  const states = new Map<string, AccountSnapshot>();
  const codes = new Map<string, Cell>();
  for (const st of input.states) {
    const prev = states.get(st.account);
    if (!prev || st.last_trans_lt > prev.lastTransLt) states.set(st.account, snapshotOf(st));
    if (st.code_hash && st.code_boc && !codes.has(st.code_hash.toLowerCase())) {
      const c = cellOf(st.code_boc);
      if (c) codes.set(st.code_hash.toLowerCase(), c);
    }
  }
  let recent = recentStates.get(store);
  if (!recent) recentStates.set(store, (recent = new BoundedMap(MAX_RECENT_STATES)));
  for (const [a, s] of states) recent.set(a, s);

  const all = [...input.addresses];
  const absent = absentFor(store);
  absent.batch++;
  for (const st of input.states) {
    absent.jetton.delete(st.account);
    absent.nft.delete(st.account);
    absent.sale.delete(st.account);
    absent.changedAt.set(st.account, absent.batch);
  }
  const pre = input.prefetched;
  /** the latest states of these accounts: the batch's, the recent batches', else the store's */
  const fillStates = async (accounts: readonly string[]) => {
    const missing: string[] = [];
    for (const a of accounts) {
      if (states.has(a)) continue;
      const r = recent.get(a);
      if (r) states.set(a, r);
      else missing.push(a);
    }
    await rowsFor(missing, pre && { asked: pre.asked.states, rows: pre.states }, (a) => readStates(store, a), states);
  };
  await fillStates(all);

  // jVault: the pools the batch's stake wallets name and the pools' lock wallets (context-jvault.ts), each read
  // from the state the one before names; they join the batch's addresses for every lookup below
  const messages = input.messages ?? [];
  const stakeWallets = dataRequestAccounts(messages);
  if (stakeWallets.size) {
    const named = new Set(all);
    const pools = [...new Set([...stakeWallets].map((w) => stakeWalletPool(states.get(w)?.dataBoc)).filter((p): p is string => p !== null))];
    await fillStates(pools);
    const locks = [...new Set(pools.map((p) => poolLockWalletOf(states.get(p)?.dataBoc)).filter((l): l is string => l !== null))];
    await fillStates(locks);
    for (const a of [...pools, ...locks]) if (!named.has(a)) all.push(a);
  }

  // code of the accounts whose interfaces their code tells (wallets are told by the hash alone)
  const wantCode = new Set<string>();
  for (const a of all) {
    const h = states.get(a)?.codeHash;
    if (h && !codes.has(h) && !isWalletCodeHash(h)) wantCode.add(h);
  }
  if (wantCode.size) for (const [h, c] of await storeEntityLookup(store).codes([...wantCode])) codes.set(h, c);

  const jettonWallets = new Map<string, KnownJettonWallet>(input.known?.jettonWallets ?? []);
  const nftItems = new Map<string, KnownNftItem>();
  for (const [a, n] of input.known?.nftItems ?? []) nftItems.set(a, { index: n.index, collection: n.collection });
  const askJetton = all.filter((a) => !jettonWallets.has(a) && !absent.jetton.has(a));
  await rowsFor(askJetton, pre && { asked: pre.asked.jetton, rows: pre.jettonWallets }, (a) => readJettonWallets(store, a), jettonWallets, { state: absent, set: absent.jetton });
  const askNft = all.filter((a) => !nftItems.has(a) && !jettonWallets.has(a) && !absent.nft.has(a));
  await rowsFor(askNft, pre && { asked: pre.asked.nft, rows: pre.nftItems }, (a) => readNftItems(store, a), nftItems, { state: absent, set: absent.nft });
  const sales = new Map<string, KnownSale>();
  const askSale = all.filter((a) => !absent.sale.has(a));
  await rowsFor(askSale, pre && { asked: pre.asked.sale, rows: pre.sales }, (a) => readSales(store, a), sales, { state: absent, set: absent.sale });
  // the NFTs of the GetGems auctions among them (toncenter's repository reads them with the auctions: a bid names
  // the auction only)
  const auctionNfts = [...new Set([...sales.values()].flatMap((x) => (x.type === 'getgems_auction' && x.nftAddress ? [x.nftAddress] : [])))];
  const askAuctionNft = auctionNfts.filter((a) => !nftItems.has(a) && !absent.nft.has(a));
  await rowsFor(askAuctionNft, pre && { asked: pre.asked.nft, rows: pre.nftItems }, (a) => readNftItems(store, a), nftItems, { state: absent, set: absent.nft });
  // multisig orders: only accounts whose code is an order's, so a batch without one asks nothing
  const orders = multisigOrderAddresses(all, states, codes);
  const multisigOrders = orders.length ? await readMultisigOrders(store, orders) : new Map<string, KnownMultisigOrder>();

  // DeDust pools and Telegram items, told by their code: what the chain says of their assets / content
  const interfacesOf = codeInterfaces(states, codes);
  const pools = all.filter((a) => interfacesOf(a).includes('dedust_pool'));
  const dedustPools = await loadDedustPools(store, {
    pools,
    isPool: (a) => interfacesOf(a).includes('dedust_pool'),
    state: (a) => {
      const st = states.get(a);
      return st && { balance: st.balance, dataBoc: st.dataBoc, code: (st.codeHash && codes.get(st.codeHash)) || null };
    },
    messages,
  });
  const items = all.filter((a) => interfacesOf(a).includes('telemint') || sales.get(a)?.type === 'telemint');
  const candidates = telemintCandidates(messages, (a) => {
    const h = states.get(a)?.codeHash;
    return !!h && !isWalletCodeHash(h);
  });
  const itemContents = items.length || candidates.length ? await loadTelemintContents(store, { items, candidates, dataBoc: (a) => states.get(a)?.dataBoc, messages }) : new Map<string, ItemContent>();
  return { states, codes, jettonWallets, nftItems, sales, multisigOrders, dedustPools, itemContents };
}

/** What the families that need a Telegram item's content send it (auction.ts, nft.ts): a bid is a plain transfer. */
const TELEITEM_CALLS = new Set<number>([0, 0x487a8e81 /* teleitem_start_auction */, 0x371638ae /* teleitem_cancel_auction */, TELEITEM_DEPLOY_OPCODE]);
/** nft ownership_assigned: a Fragment purchase is read from the one the item sends */
const OWNERSHIP_ASSIGNED = 0x05138d91;

/**
 * Accounts of a batch that may be Telegram items known by their deploy only (a gift, whose code is a library): the
 * non-wallet receivers of what a bid, an auction start / cancel or a deploy sends, and the senders of
 * ownership_assigned. Only these are looked for in the store, once in a while each (context-telemint.ts).
 */
function telemintCandidates(messages: readonly ContextMessage[], mayBeItem: (a: string) => boolean): string[] {
  const out = new Set<string>();
  for (const m of messages) {
    const op = m.opcode === null ? 0 : m.opcode >>> 0;
    if (m.destination !== null && m.source !== null && TELEITEM_CALLS.has(op) && mayBeItem(m.destination)) out.add(m.destination);
    if (m.source !== null && op === OWNERSHIP_ASSIGNED && mayBeItem(m.source)) out.add(m.source);
  }
  return [...out];
}

/** The interfaces of an account's code (by hash, each code read once), none for wallets and unknown codes. */
function codeInterfaces(states: ReadonlyMap<string, AccountSnapshot>, codes: ReadonlyMap<string, Cell>): (account: string) => Interface[] {
  const byHash = new Map<string, Interface[]>();
  return (account) => {
    const h = states.get(account)?.codeHash;
    if (!h || isWalletCodeHash(h)) return [];
    let out = byHash.get(h);
    if (!out) byHash.set(h, (out = detectInterfaces(h, codes.get(h) ?? null)));
    return out;
  };
}
