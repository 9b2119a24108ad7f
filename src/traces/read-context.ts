/**
 * The account context of a masterchain batch (I/O, once per batch, before the fold): for every address the batch's
 * traces name, the latest account state (the batch's own decoded states, else states of recent batches, else
 * `latest_account_states_kv`), contract code (the batch's blocks, else `contract_code`), and the jetton wallets,
 * NFT items and NFT sales the store knows (`jetton_wallets`, `nft_items`, `nft_sales`). One query per table
 * (src/store/traces/context.ts). Then what upstream's repository gathers beyond the trace's own layouts, from
 * the chain: DeDust pools' assets (context-dedust.ts), Telegram items' content (context-telemint.ts), a jVault
 * unstake's pool and lock wallet (context-jvault.ts), a GetGems auction's NFT item. records.ts turns it into each
 * trace's interface records.
 */
import type { Cell } from '@ton/core';
import { cellOf, detectInterfaces, isWalletCodeHash, TELEITEM_DEPLOY_OPCODE, type Interface, type ItemContent } from '../contracts/index.ts';
import { blockIdExtOf, candidates, planEntityStates, planStats, readEntityCodes, withFetchedCodes, type KnownEntities, type LiteserverCodeFetcher } from '../entities/index.ts';
import { readJettonWallets, readMultisigOrders, readNftItems, readSales, readStates, type StoreContextRows } from '../store/traces/index.ts';
import { type StoreClient } from '../store/client/index.ts';
import type { AccountStateRow, DecodedBlock, TransactionRow } from '../ton/index.ts';
import { loadDedustPools, type ContextMessage } from './context-dedust.ts';
import { dataRequestAccounts, poolLockWalletOf, stakeWalletPool } from './context-jvault.ts';
import { loadTelemintContents } from './context-telemint.ts';
import { rowAddresses, rowMessages } from './addresses.ts';
import type { TraceAssembler } from './assembler.ts';
import type { AccountSnapshot, KnownJettonWallet, KnownMultisigOrder, KnownNftItem, KnownSale, TraceContextSource } from './records.ts';
import type { TracesContext } from './stage-context.ts';
import type { BatchContext, UnwrittenEntities } from './step.ts';

export type { StoreContextRows };

import { MAX_ABSENT, UNWRITTEN_BATCHES, type Absent } from './context-caches.ts';


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
export async function prefetchTraceContext(ctx: TracesContext, addresses: ReadonlySet<string>): Promise<StoreContextRows> {
  const { store, recentStates: recent, absent } = ctx;
  const all = [...addresses];
  const askStates = all.filter((a) => !recent.has(a));
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
export async function loadTraceContext(ctx: TracesContext, input: TraceContextInput): Promise<TraceContextSource> {
  const { store, recentStates: recent, absent } = ctx;
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
  for (const [a, s] of states) recent.set(a, s);

  const all = [...input.addresses];
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
  if (wantCode.size) for (const [h, c] of await ctx.entityLookup.codes([...wantCode])) codes.set(h, c);

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
  const dedustPools = await loadDedustPools(ctx, {
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
  const itemContents = items.length || candidates.length ? await loadTelemintContents(ctx, { items, candidates, dataBoc: (a) => states.get(a)?.dataBoc, messages }) : new Map<string, ItemContent>();
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

/**
 * Jetton wallets / NFT items of earlier batches among the batch's candidate accounts (`prefetched`: the store's
 * rows read for a group of batches, taken where they cover an address).
 */
export async function loadKnownEntities(store: StoreClient, txs: readonly TransactionRow[], prefetched?: StoreContextRows): Promise<KnownEntities> {
  const cand = candidates(txs.map((tx) => ({ tx, mcSeqno: 0, traceId: null })));
  const rows = await readEntityRows(store, [...cand.jetton], [...cand.nft], prefetched);
  const jettonWallets = new Map<string, { owner: string; jetton: string }>();
  const nftItems = new Map<string, { index: bigint; collection: string | null }>();
  for (const [a, w] of rows.jettonWallets) jettonWallets.set(a, { owner: w.owner, jetton: w.jetton });
  for (const [a, n] of rows.nftItems) if (n.index !== null) nftItems.set(a, { index: n.index, collection: n.collection });
  return { jettonWallets, nftItems };
}

/**
 * The store's context rows for a group of consecutive batches read at once (see prefetchTraceContext): every
 * address their transactions name, and those of the open traces they continue (traces the group itself opens
 * are made of its own transactions).
 */
export function prefetchForBatches(ctx: TracesContext, asm: TraceAssembler, groups: readonly (readonly DecodedBlock[])[]): Promise<StoreContextRows> {
  const txs = groups.flatMap((blocks) => blocks.flatMap((b) => b.transactions));
  return prefetchTraceContext(ctx, rowAddresses([...txs, ...asm.continuedBy(txs)]));
}

/**
 * Everything the step (step.ts `startBatch`) needs of the store and the chain for one masterchain batch, read before
 * it: the known entities (with `unwritten`: those of the seqnos processed but not written yet, newer than the
 * store's), the interface records' sources of every account the traces the batch may complete name (its own and
 * the open traces it continues: `asm` is only read), and what the entity-state rows of the accounts it changed are
 * derived from (the candidates and their codes; derived and completed after the step: stage.ts).
 * `opts.codes`: reads the codes neither the blocks nor the store have from a liteserver, at this masterchain block.
 */
export async function readBatchContext(
  ctx: TracesContext,
  asm: TraceAssembler,
  blocks: readonly DecodedBlock[],
  unwritten?: UnwrittenEntities,
  opts: { codes?: LiteserverCodeFetcher; prefetched?: StoreContextRows } = {},
): Promise<BatchContext> {
  const txs = blocks.flatMap((b) => b.transactions);
  const states = blocks.flatMap((b) => b.account_states);
  const known = await loadKnownEntities(ctx.store, txs, opts.prefetched);
  if (unwritten) {
    for (const [k, v] of unwritten.jettonWallets) (known.jettonWallets as Map<string, typeof v>).set(k, v);
    for (const [k, v] of unwritten.nftItems) (known.nftItems as Map<string, typeof v>).set(k, v);
  }
  const completable = [...txs, ...asm.continuedBy(txs)];
  const trace = await loadTraceContext(ctx, { addresses: rowAddresses(completable), states, known, prefetched: opts.prefetched, messages: rowMessages(completable) });
  const mc = blocks.find((b) => b.id.workchain === -1);
  const lookup = opts.codes ? withFetchedCodes(ctx.entityLookup, opts.codes, mc ? blockIdExtOf(mc.id) : null) : ctx.entityLookup;
  const plan = planEntityStates(states);
  const stats = planStats(plan);
  const codes = await readEntityCodes(plan, lookup, stats);
  return { known, trace, entityPlan: { candidates: plan.candidates, codes, stats } };
}
