/**
 * The emulated traces waiting for the chain: bounded in count, each until the indexer shows its real trace (then it
 * is compared: `confirmed` when equal, `invalidated` when not) or until a bound passes without it (`invalidated`:
 * upstream's trace_invalidated for a trace that never arrives). Pure state; the service (service.ts) feeds it.
 */
import type { EmulatedRows } from './rows.ts';

/** What a pending trace keeps of its emulation: its documents, trace row and actions (not the decoded rows nor the cells). */
export type PendingRows = Omit<EmulatedRows, 'txs' | 'cells'>;

/** Only what the pending lists, the streaming API and the comparison read. */
export function pendingRows(r: EmulatedRows): PendingRows {
  return { externalHash: r.externalHash, norm: r.norm, mcSeqno: r.mcSeqno, trace: r.trace, docs: r.docs, actions: r.actions, accounts: r.accounts, limitExceeded: r.limitExceeded, randSeed: r.randSeed };
}

export interface PendingEntry {
  rows: PendingRows;
  /** ms since the epoch when it was added */
  at: number;
  /** the newest masterchain seqno the indexer had processed when it was added */
  seenSeqno: number;
}

export interface PendingBounds {
  /** traces held; past it the oldest leaves (unannounced: its subscribers resync, as after any gap) */
  maxTraces: number;
  /** masterchain seqnos processed after it without its trace, past which it is invalidated */
  maxSeqnos: number;
  /** and milliseconds, whichever comes first */
  maxMs: number;
}

export const DEFAULT_PENDING_BOUNDS: PendingBounds = { maxTraces: 2000, maxSeqnos: 16, maxMs: 120_000 };

export class PendingTraces {
  /** norm (hex) -> entry, oldest first */
  private readonly byNorm = new Map<string, PendingEntry>();
  private readonly byAccount = new Map<string, Set<string>>();
  readonly bounds: PendingBounds;

  constructor(bounds: Partial<PendingBounds> = {}) {
    this.bounds = { ...DEFAULT_PENDING_BOUNDS, ...bounds };
  }

  get size(): number {
    return this.byNorm.size;
  }

  /** Adds a trace (replacing one of the same norm); returns the entries pushed out by the count bound. */
  add(rows: PendingRows, at: number, seenSeqno: number): PendingEntry[] {
    this.remove(rows.norm);
    this.byNorm.set(rows.norm, { rows, at, seenSeqno });
    for (const a of rows.accounts) {
      const s = this.byAccount.get(a) ?? new Set<string>();
      s.add(rows.norm);
      this.byAccount.set(a, s);
    }
    const out: PendingEntry[] = [];
    for (const [norm, e] of this.byNorm) {
      if (this.byNorm.size <= this.bounds.maxTraces) break;
      this.remove(norm);
      out.push(e);
    }
    return out;
  }

  get(norm: string): PendingEntry | undefined {
    return this.byNorm.get(norm);
  }

  remove(norm: string): PendingEntry | undefined {
    const e = this.byNorm.get(norm);
    if (!e) return undefined;
    this.byNorm.delete(norm);
    for (const a of e.rows.accounts) {
      const s = this.byAccount.get(a);
      s?.delete(norm);
      if (s && s.size === 0) this.byAccount.delete(a);
    }
    return e;
  }

  /** Entries by external message hash or normalized hash (hex), or touching an account (raw), newest first. */
  find(q: { accounts?: readonly string[]; hashes?: readonly string[] }): PendingEntry[] {
    const norms = new Set<string>();
    for (const a of q.accounts ?? []) for (const n of this.byAccount.get(a) ?? []) norms.add(n);
    if (q.hashes?.length) {
      const want = new Set(q.hashes.map((h) => h.toLowerCase()));
      for (const [n, e] of this.byNorm) if (want.has(n) || want.has(e.rows.externalHash)) norms.add(n);
    }
    return [...norms].map((n) => this.byNorm.get(n)!).sort((a, b) => b.at - a.at);
  }

  /** The entries past their bounds at `seqno` / `now`, removed. */
  expired(seqno: number, now: number): PendingEntry[] {
    const out: PendingEntry[] = [];
    for (const [norm, e] of this.byNorm) {
      if (seqno - e.seenSeqno > this.bounds.maxSeqnos || now - e.at > this.bounds.maxMs) {
        this.remove(norm);
        out.push(e);
      }
    }
    return out;
  }
}
