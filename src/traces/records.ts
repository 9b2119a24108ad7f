/**
 * The interface records of a trace (`Trace.interfaces` and `Trace.accountStates`, src/actions/model.ts), from the
 * batch's context (read-context.ts), in the shapes src/actions/adapters/toncenter-json.ts builds from toncenter's
 * JSON (jettonWallet owner/jetton, nftItem, nftSale, codeHash, dataBoc, raw interface records under toncenter's
 * names). Pure.
 *
 * An account is a jetton wallet / NFT item when the store says so, or when its data reads exactly in the standard
 * layout (src/contracts/data-layouts.ts, item-layouts.ts) and either a transaction of the trace received a TEP-74 /
 * TEP-62 message (the rule the entities stage uses, src/entities/events.ts) or its code declares the standard's
 * get-method (src/contracts/interfaces.ts; the code comes from the context, or from a StateInit a message of the
 * trace carries, e.g. a freshly minted item).
 */
import { Cell, loadStateInit } from '@ton/core';
import type { AccountInterfaces, AccountStateSnapshot, Trace } from '../actions/index.ts';
import { cellFromBoc, OP, cellOf, parseJettonWalletData, parseNftItemData, detectInterfaces, isWalletCodeHash, parseDnsItemData, parseTelemintItemData, parseOrderData, type Interface, type ItemContent } from '../contracts/index.ts';
import type { AccountSnapshot, KnownJettonWallet, KnownMultisigOrder, KnownNftItem, KnownSale } from '../store/traces/index.ts';
import { traceAddresses, traceMessages } from './addresses.ts';
import type { DedustPoolAssets } from './context-dedust.ts';
import { dataRequestAccounts, jvaultReach } from './context-jvault.ts';

export type { AccountSnapshot, KnownJettonWallet, KnownMultisigOrder, KnownNftItem, KnownSale };

/** Interfaces whose account data the context reads (jetton wallet, NFT item kinds). */
const DATA_READ_INTERFACES: ReadonlySet<Interface> = new Set<Interface>(['jetton_wallet', 'telemint', 'dns_item', 'nft_item']);

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

const JETTON_OPS = new Set<number>([OP.jettonTransfer, OP.jettonInternalTransfer, OP.jettonBurn]);
const NFT_OPS = new Set<number>([OP.nftTransfer, OP.nftGetStaticData]);

// A memo of a pure function of the StateInit BoC (its code cell and hash): sharing it cannot change an answer, so it
// stays at module level (CONTRIBUTING), not in the stage's context.
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
