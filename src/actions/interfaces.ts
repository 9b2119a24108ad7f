/**
 * ↔ indexer/events/interface_repository.py: what a matcher may ask about an account, answered from the trace's
 * interface records (`trace.interfaces`, keyed by raw upper-case address). Records carry toncenter's names and
 * fields (`JettonWallet`, `NftItem`, `NftSale`, `NftAuction`, `NominatorPool`, `DedustPool`, `data_boc`): the
 * toncenter JSON adapter passes them as `raw`; the pipeline's trace context (src/traces/trace-context.ts) builds
 * the same, and the typed fields (`jettonWallet`, `nftItem`, …) stand in where a raw record is missing.
 * Upstream's lookups are async (Redis, Postgres); here the records come with the trace, so they are plain calls.
 */
import { hashToBase64 } from '../format/index.ts';
import { extractExtraRequestsFromTrace } from './address-selectors.ts';
import { dedustPool, type DedustPoolAssets } from './dedust-pools.ts';
import type { AccountInterfaces, Trace } from './model.ts';

/** Code hash of the official nominator pool (upstream's NOMINATOR_POOL_CODE_HASH). */
export const NOMINATOR_POOL_CODE_HASH = 'mj7BS8CY9rRAZMMFIiyuooAPF92oXuaoGYpwle3hDc8=';

export interface JettonWalletRecord {
  balance: bigint | null;
  address: string;
  owner: string;
  jetton: string;
}

export interface NftItemRecord {
  address: string;
  init: boolean | null;
  index: bigint | null;
  collection_address: string | null;
  owner_address: string | null;
  /**
   * the item's metadata as toncenter stores it; a record that does not carry the field (the pipeline's: it keeps no
   * metadata here) reads as `{}`, one that carries null stays null
   */
  content: unknown;
  /** base64 code hash (the record's, else the account state's) */
  code_hash: string | null;
}

export interface NftSaleRecord {
  address: string;
  is_complete: boolean | null;
  marketplace_address: string | null;
  nft_address: string | null;
  nft_owner_address: string | null;
  full_price: bigint | null;
  marketplace_fee_address: string | null;
  marketplace_fee: bigint | null;
  royalty_address: string | null;
  royalty_amount: bigint | null;
  code_hash: string | null;
}

export interface NftAuctionRecord {
  address: string;
  nft_addr: string | null;
  nft_owner: string | null;
  mp_addr: string | null;
  last_bid: bigint | null;
  mp_fee_addr: string | null;
  mp_fee_factor: bigint | null;
  mp_fee_base: bigint | null;
  royalty_fee_addr: string | null;
  royalty_fee_base: bigint | null;
  max_bid: bigint | null;
  min_bid: bigint | null;
  code_hash: string | null;
}

export interface MultisigOrderRecord {
  address: string;
  multisig_address: string | null;
  /** raw upper-case addresses; null when the record has none */
  signers: string[] | null;
}

export interface DedustPoolRecord {
  address: string;
  assets: Array<{ is_ton: boolean; address: string | null }>;
}

type J = Record<string, unknown>;

const upper = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v.toUpperCase() : null);
function big(v: unknown): bigint | null {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return BigInt(Math.trunc(v));
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return BigInt(v);
  return null;
}
const bool = (v: unknown): boolean | null => (v === null || v === undefined ? null : Boolean(v));

export class InterfaceRepository {
  private readonly records: Record<string, AccountInterfaces>;
  /** `account|request` pairs of the extra data the trace's matchers may ask for (address-selectors.ts) */
  private readonly extraRequests: Set<string>;

  /** `pools`: the DeDust pool list (dedust-pools.ts) it falls back on for a pool no record describes. */
  constructor(
    trace: Pick<Trace, 'interfaces'> & Partial<Pick<Trace, 'transactions'>>,
    private readonly pools: ReadonlyMap<string, DedustPoolAssets> = new Map(),
  ) {
    this.records = trace.interfaces ?? {};
    const reqs = trace.transactions ? extractExtraRequestsFromTrace({ transactions: trace.transactions }) : [];
    this.extraRequests = new Set(reqs.map((r) => `${r.account.toUpperCase()}|${r.request}`));
  }

  private rec(address: string | null | undefined): AccountInterfaces | undefined {
    return address ? this.records[address.toUpperCase()] : undefined;
  }

  /** The record's base64 code hash, else the account state's (hex) one in base64. */
  private codeHash(address: string | null | undefined, raw: J | undefined): string | null {
    if (raw && typeof raw.code_hash === 'string' && raw.code_hash !== '') return raw.code_hash;
    const h = this.rec(address)?.codeHash;
    return h ? hashToBase64(h) : null;
  }

  private raw(address: string | null | undefined, name: string): J | undefined {
    const r = this.rec(address)?.raw?.[name];
    return r && typeof r === 'object' ? (r as J) : undefined;
  }

  getJettonWallet(address: string | null | undefined): JettonWalletRecord | null {
    const raw = this.raw(address, 'JettonWallet');
    if (raw) return { balance: big(raw.balance), address: upper(raw.address) ?? address!.toUpperCase(), owner: upper(raw.owner) ?? '', jetton: upper(raw.jetton) ?? '' };
    const jw = this.rec(address)?.jettonWallet;
    if (jw) return { balance: jw.balance ?? null, address: address!.toUpperCase(), owner: jw.owner, jetton: jw.jetton };
    return null;
  }

  getNftItem(address: string | null | undefined): NftItemRecord | null {
    const raw = this.raw(address, 'NftItem');
    if (raw) {
      return {
        address: upper(raw.address) ?? address!.toUpperCase(), init: bool(raw.init), index: big(raw.index),
        collection_address: upper(raw.collection_address), owner_address: upper(raw.owner_address),
        content: 'content' in raw ? (raw.content ?? null) : {}, code_hash: this.codeHash(address, raw),
      };
    }
    const n = this.rec(address)?.nftItem;
    if (n) {
      return {
        address: address!.toUpperCase(), init: n.init ?? null, index: n.index, collection_address: n.collection, owner_address: n.owner,
        content: {}, code_hash: this.codeHash(address, undefined),
      };
    }
    return null;
  }

  getNftSale(address: string | null | undefined): NftSaleRecord | null {
    const raw = this.raw(address, 'NftSale') ?? (this.rec(address)?.nftSale as J | undefined);
    if (!raw) return null;
    return {
      address: upper(raw.address) ?? address!.toUpperCase(), is_complete: bool(raw.is_complete), marketplace_address: upper(raw.marketplace_address),
      nft_address: upper(raw.nft_address), nft_owner_address: upper(raw.nft_owner_address), full_price: big(raw.full_price),
      marketplace_fee_address: upper(raw.marketplace_fee_address), marketplace_fee: big(raw.marketplace_fee),
      royalty_address: upper(raw.royalty_address), royalty_amount: big(raw.royalty_amount), code_hash: this.codeHash(address, raw),
    };
  }

  getNftAuction(address: string | null | undefined): NftAuctionRecord | null {
    const raw = this.raw(address, 'NftAuction');
    if (!raw) return null;
    return {
      address: upper(raw.address) ?? address!.toUpperCase(), nft_addr: upper(raw.nft_addr), nft_owner: upper(raw.nft_owner),
      mp_addr: upper(raw.mp_addr), last_bid: big(raw.last_bid), mp_fee_addr: upper(raw.mp_fee_addr), mp_fee_factor: big(raw.mp_fee_factor),
      mp_fee_base: big(raw.mp_fee_base), royalty_fee_addr: upper(raw.royalty_fee_addr), royalty_fee_base: big(raw.royalty_fee_base),
      max_bid: big(raw.max_bid), min_bid: big(raw.min_bid), code_hash: this.codeHash(address, raw),
    };
  }

  getMultisigOrder(address: string | null | undefined): MultisigOrderRecord | null {
    const raw = this.raw(address, 'MultisigOrder');
    if (!raw) return null;
    const signers = Array.isArray(raw.signers) ? (raw.signers as unknown[]).map(upper).filter((x): x is string => x !== null) : null;
    return { address: upper(raw.address) ?? address!.toUpperCase(), multisig_address: upper(raw.multisig_address), signers };
  }

  getDedustPool(address: string | null | undefined): DedustPoolRecord | null {
    const raw = this.raw(address, 'DedustPool') ?? this.raw(address, 'dedust_pool');
    if (raw && Array.isArray(raw.assets)) {
      return { address: address!.toUpperCase(), assets: (raw.assets as J[]).map((a) => ({ is_ton: Boolean(a.is_ton), address: upper(a.address) })) };
    }
    const p = this.rec(address)?.dedustPool;
    if (p) return { address: address!.toUpperCase(), assets: p.assets.map((a) => ({ is_ton: a.isTon, address: a.address })) };
    // the classifier's pool list (dedust-pools.ts), as upstream's repository answers from its shared list
    const listed = dedustPool(this.pools, address);
    if (listed) return { address: address!.toUpperCase(), assets: listed.assets.map((a) => ({ ...a })) };
    return null;
  }

  /**
   * Every record of the account by interface name (`JettonWallet`, `NftItem`, …), `NominatorPool` when its code is
   * the official pool's, and `dedust_pool` when it is a known DeDust pool.
   */
  getInterfaces(address: string | null | undefined): Record<string, unknown> {
    const rec = this.rec(address);
    if (!rec) return {};
    const out: Record<string, unknown> = { ...(rec.raw ?? {}) };
    if (!out.JettonWallet && rec.jettonWallet) out.JettonWallet = this.getJettonWallet(address);
    if (!out.NftItem && rec.nftItem) out.NftItem = this.getNftItem(address);
    if (!out.NftSale && rec.nftSale) out.NftSale = this.getNftSale(address);
    if (!out.NominatorPool && rec.codeHash && hashToBase64(rec.codeHash) === NOMINATOR_POOL_CODE_HASH) out.NominatorPool = { address: address!.toUpperCase() };
    const pool = this.getDedustPool(address);
    if (pool) out.dedust_pool = pool;
    return out;
  }

  /**
   * An extra account datum (`data_boc`: the data cell's BoC). A record carrying it answers; from the account state
   * we have, only for what the trace's messages request (address-selectors.ts), as upstream gathers nothing else.
   */
  getExtraData(address: string | null | undefined, request: string): unknown {
    const rec = this.rec(address);
    if (!rec) return null;
    // a record that carries the datum was gathered for it (toncenter's own records do)
    const v = rec.raw?.[request];
    if (request === 'data_boc') {
      if (typeof v === 'string') return v;
      if (v && typeof v === 'object' && typeof (v as J).data_boc === 'string') return (v as J).data_boc;
    } else if (v !== undefined) {
      return v;
    }
    // otherwise the account state we have, for the accounts the trace requests only
    if (!this.extraRequests.has(`${address!.toUpperCase()}|${request}`)) return null;
    return request === 'data_boc' ? (rec.dataBoc ?? null) : null;
  }
}
