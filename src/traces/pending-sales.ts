/**
 * NFT sale rows of seqnos processed but not written yet, for the traces a later seqno completes.
 *
 * A sale's row comes from its get-methods, derived beside the classification and completed seqno by seqno
 * (stage.ts), and written with the seqno later; a trace completing a few seqnos after the sale changed (a purchase
 * after the listing) reads the store, which has no row yet, so the purchase looked like a plain transfer. Upstream's
 * classifier reads the sale from its database after the worker stored the block that changed it. Here a batch whose
 * traces name an account that an earlier, not yet completed seqno derives a sale row for waits for that completion,
 * and the rows completed but not written are laid over the store's. Only sale contracts (by code) wait, so a batch
 * waits only where a sale changed in a recent seqno and a trace of this batch names it.
 */
import { Cell } from '@ton/core';
import { detectInterfaces, type Interface } from '../contracts/index.ts';
import type { CodeBocs, EntityStateRows } from '../entities/index.ts';
import type { Row } from '../util/index.ts';
import type { AccountStateRow } from '../ton/index.ts';
import { BoundedMap } from '../util/index.ts';
import type { KnownSale, TraceContextSource } from './records.ts';

/** The code interfaces whose accounts get an `nft_sales` row (src/entities/nft-sales.ts). */
const SALE_INTERFACES: ReadonlySet<Interface> = new Set<Interface>(['nft_sale', 'getgems_sale_v4', 'getgems_auction_v4', 'telemint']);

/** Completed sale rows kept at most (the newest win; a written row is in the store anyway). */
const MAX_ROWS = 20_000;

export class PendingSales {
  /** account -> the completion of the latest seqno that derives its sale row */
  private readonly pending = new Map<string, Promise<unknown>>();
  private readonly rows = new BoundedMap<string, KnownSale>(MAX_ROWS);
  private readonly saleCodes = new Map<string, boolean>();

  /** Marks the batch's sale candidates as pending until `completed` settles, then keeps their rows. */
  track(candidates: readonly AccountStateRow[], codes: CodeBocs, completed: Promise<EntityStateRows>): void {
    const accounts = candidates.filter((c) => this.isSaleCode(c.code_hash?.toLowerCase() ?? null, codes)).map((c) => c.account);
    if (!accounts.length) return;
    for (const a of accounts) this.pending.set(a, completed);
    completed.then(
      (done) => {
        for (const r of done.tables.nft_sales ?? []) this.rows.set(String(r.address), knownSale(r));
        this.settle(accounts, completed);
      },
      () => this.settle(accounts, completed),
    );
  }

  /**
   * The trace context with the sale rows of unwritten seqnos laid over the store's, after waiting for the
   * completions of earlier seqnos that derive a sale row for an account the context names.
   */
  async overlay(trace: TraceContextSource): Promise<TraceContextSource> {
    const names = new Set<string>([...trace.states.keys(), ...trace.sales.keys()]);
    const waits = [...new Set([...names].flatMap((a) => this.pending.get(a) ?? []))];
    // a failed completion fails its own seqno (stage.ts); here it only means no row
    if (waits.length) await Promise.all(waits.map((w) => w.catch(() => undefined)));
    let sales: Map<string, KnownSale> | null = null;
    for (const a of names) {
      const row = this.rows.get(a);
      if (!row) continue;
      sales ??= new Map(trace.sales);
      sales.set(a, row);
    }
    return sales ? { ...trace, sales } : trace;
  }

  private settle(accounts: readonly string[], completed: Promise<unknown>): void {
    for (const a of accounts) if (this.pending.get(a) === completed) this.pending.delete(a);
  }

  private isSaleCode(hash: string | null, codes: CodeBocs): boolean {
    if (!hash) return false;
    const known = this.saleCodes.get(hash);
    if (known !== undefined) return known;
    const boc = codes.get(hash);
    let code: Cell | null;
    try {
      code = boc ? Cell.fromBase64(boc) : null;
    } catch {
      code = null;
    }
    const yes = detectInterfaces(hash, code).some((i) => SALE_INTERFACES.has(i));
    // a code the batch did not have may be known later: only a code read is remembered
    if (code) this.saleCodes.set(hash, yes);
    return yes;
  }
}

/** A derived `nft_sales` row as the context reads the store's (src/store/traces/context.ts readSales). */
function knownSale(r: Row): KnownSale {
  const details = typeof r.details === 'string' ? (JSON.parse(r.details) as Record<string, unknown>) : ((r.details as Record<string, unknown> | undefined) ?? {});
  return {
    type: r.type as KnownSale['type'],
    nftAddress: (r.nft_address as string | null) ?? null,
    nftOwner: (r.nft_owner_address as string | null) ?? null,
    marketplace: (r.marketplace_address as string | null) ?? null,
    details,
  };
}
