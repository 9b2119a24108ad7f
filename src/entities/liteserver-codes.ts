/**
 * Code cells neither the batch's blocks nor `contract_code` have, from a liteserver (issue #6): a block carries an
 * account's code only when it changes (deploys), so after a start from the tip most contracts' codes were never
 * seen. For one account per missing code hash, the account's state at the masterchain block being processed
 * (liteServer.getAccountState; the tip when the liteserver no longer has that block's state) is read, and its code
 * cell is taken only when its hash is the code hash the block named: any other answer (a liteserver serving wrong
 * data, or a code changed since, when read at the tip) is refused and counted, never used. A code taken is written
 * to `contract_code` and `contract_methods` (the rows the store stage writes from a deploy), so the next batches and
 * the API find it in the store.
 *
 * Bounded so that the traces stage never waits long on a liteserver: at most `perBatch` codes per batch,
 * `concurrency` requests in flight (across batches: a request a batch stopped waiting for keeps its slot), and
 * `timeoutMs` per batch. What is not fetched in time is skipped and counted (the account stays `no_code` for that
 * batch; a request still running completes in the background and stores its code); the account is tried again at
 * its next state change. After a batch whose requests all failed, no request is made for `pauseMs`, so a dead
 * liteserver costs one timeout per pause, not one per batch. Liteserver and store errors are counted and logged,
 * never thrown.
 */
import { Address, Cell } from '@ton/core';
import type { Logger } from 'pino';
import type { BlockIdExt } from '../source/index.ts';
import { writeFetchedCode } from '../store/traces/index.ts';
import { type StoreClient } from '../store/client/index.ts';
import { decodeAccount, nodeBoc, type BlockId } from '../ton/index.ts';
import { methodsOfCode } from '../contracts/index.ts';
import { BoundedMap } from '../util/index.ts';

/** What the fetch needs from the liteservers (`LiteserverPool` has it). */
export interface AccountStateSource {
  getAccountStateBoc(address: Address, block: BlockIdExt | null, opts?: { attempts?: number; timeoutMs?: number }): Promise<{ block: BlockIdExt; state: Buffer }>;
}

export interface CodeFetchOptions {
  /** Code hashes fetched at most per batch (default 16); the others are skipped this time. */
  perBatch?: number;
  /** Requests in flight at most (default 4). */
  concurrency?: number;
  /** How long a batch waits for its requests (default 3000 ms). */
  timeoutMs?: number;
  /** No requests for this long after a batch whose requests all failed (default 30 s). */
  pauseMs?: number;
  logger?: Logger;
}

/** One account per missing code hash. */
export interface CodeWanted {
  /** raw `wc:HEX` */
  account: string;
  /** lower-case hex */
  codeHash: string;
}

/** Per code hash asked. */
export interface CodeFetchStats {
  /** read from a liteserver, hash checked, stored */
  fetched: number;
  /** the answer's code has another hash: refused */
  mismatch: number;
  /** error, timeout, or an answer without the account's whole code (not active, pruned) */
  failed: number;
  /** not asked: over the per-batch bound, no free request slot, or paused after failures */
  skipped: number;
}

export interface CodeFetchResult {
  codes: Map<string, Cell>;
  stats: CodeFetchStats;
}

/** `answered`: a liteserver gave an answer (a failure then says nothing about the liteservers being down). */
type Outcome = { kind: 'code'; cell: Cell } | { kind: 'mismatch'; got: string | null } | { kind: 'failed'; reason: string; answered: boolean };

const MAX_REMEMBERED = 5_000;

/** A block id of the decoder's shape (hex shard) as the liteserver pool takes it. */
export function blockIdExtOf(id: BlockId): BlockIdExt {
  return { workchain: id.workchain, shard: BigInt('0x' + id.shard), seqno: id.seqno, rootHash: id.root_hash, fileHash: id.file_hash };
}

export class LiteserverCodeFetcher {
  private readonly perBatch: number;
  private readonly concurrency: number;
  private readonly timeoutMs: number;
  private readonly pauseMs: number;
  private readonly log?: Logger;
  /** requests running, by code hash (a later batch asking for the same code joins it) */
  private readonly inFlight = new Map<string, Promise<Outcome>>();
  /** codes fetched by this process: the store lookup caches its misses for a while, this answers meanwhile */
  private readonly fetched = new BoundedMap<string, Cell>(MAX_REMEMBERED);
  private pausedUntil = 0;

  constructor(
    private readonly source: AccountStateSource,
    private readonly store: StoreClient,
    opts: CodeFetchOptions = {},
  ) {
    this.perBatch = opts.perBatch ?? 16;
    this.concurrency = opts.concurrency ?? 4;
    this.timeoutMs = opts.timeoutMs ?? 3_000;
    this.pauseMs = opts.pauseMs ?? 30_000;
    this.log = opts.logger;
  }

  /**
   * Codes of `wanted` whose hash checked, read at masterchain block `at` (null: the tip). Never throws; waits at
   * most about `timeoutMs`.
   */
  async fetch(wanted: readonly CodeWanted[], at: BlockIdExt | null): Promise<CodeFetchResult> {
    const stats: CodeFetchStats = { fetched: 0, mismatch: 0, failed: 0, skipped: 0 };
    const codes = new Map<string, Cell>();
    const seen = new Set<string>();
    const ask: { want: CodeWanted; run: Promise<Outcome> }[] = [];
    const deadline = Date.now() + this.timeoutMs;
    for (const w of wanted) {
      if (seen.has(w.codeHash)) continue;
      seen.add(w.codeHash);
      const known = this.fetched.get(w.codeHash);
      if (known) {
        codes.set(w.codeHash, known);
        continue;
      }
      const running = this.inFlight.get(w.codeHash);
      if (running) ask.push({ want: w, run: running });
      else if (ask.length >= this.perBatch || this.inFlight.size >= this.concurrency || Date.now() < this.pausedUntil) stats.skipped++;
      else ask.push({ want: w, run: this.start(w, at, deadline) });
    }
    if (!ask.length) return { codes, stats };

    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), Math.max(0, deadline - Date.now()))));
    const outcomes = await Promise.all(ask.map((a) => Promise.race([a.run, late])));
    clearTimeout(timer);
    let answered = 0;
    for (const [i, o] of outcomes.entries()) {
      if (o !== 'late' && (o.kind !== 'failed' || o.answered)) answered++;
      const { codeHash, account } = ask[i].want;
      if (o === 'late') {
        stats.failed++;
        this.log?.debug({ account, codeHash }, 'code fetch: no liteserver answer in time, account skipped');
      } else if (o.kind === 'code') {
        stats.fetched++;
        codes.set(codeHash, o.cell);
      } else if (o.kind === 'mismatch') {
        stats.mismatch++;
        this.log?.warn({ account, codeHash, got: o.got }, 'code fetch: the liteserver answered another code, refused');
      } else {
        stats.failed++;
        this.log?.debug({ account, codeHash, reason: o.reason }, 'code fetch failed, account skipped');
      }
    }
    if (answered === 0) {
      this.pausedUntil = Date.now() + this.pauseMs;
      this.log?.warn({ failed: stats.failed, pauseMs: this.pauseMs }, 'code fetch: no liteserver answered, pausing code fetches');
    }
    return { codes, stats };
  }

  /** Resolves once every request started has settled (the stage awaits it before the store closes). */
  async settled(): Promise<void> {
    await Promise.all([...this.inFlight.values()]);
  }

  private start(want: CodeWanted, at: BlockIdExt | null, deadline: number): Promise<Outcome> {
    const run = this.request(want, at, deadline)
      .catch((err: unknown): Outcome => ({ kind: 'failed', reason: (err as Error).message, answered: false }))
      .then(async (o) => {
        // also when the batch stopped waiting: the code is then in the store for the account's next change
        if (o.kind === 'code') await this.remember(want.codeHash, o.cell);
        return o;
      })
      .finally(() => this.inFlight.delete(want.codeHash));
    this.inFlight.set(want.codeHash, run);
    return run;
  }

  private async request(want: CodeWanted, at: BlockIdExt | null, deadline: number): Promise<Outcome> {
    const address = Address.parseRaw(want.account);
    const left = () => Math.max(1, deadline - Date.now());
    let answer: { state: Buffer };
    try {
      answer = await this.source.getAccountStateBoc(address, at, { attempts: 2, timeoutMs: left() });
    } catch (err) {
      // a liteserver that no longer keeps that block's state (not archival) still has the tip's; an account's code
      // rarely changes, and a changed one is refused by the hash check
      if (at === null || deadline - Date.now() < 200) throw err;
      answer = await this.source.getAccountStateBoc(address, null, { attempts: 1, timeoutMs: left() });
    }
    if (!answer.state.length) return { kind: 'failed', reason: 'no account state in the answer', answered: true };
    let acc;
    try {
      acc = decodeAccount(answer.state);
    } catch (err) {
      return { kind: 'failed', reason: `unreadable account state: ${(err as Error).message}`, answered: true };
    }
    if (acc.status !== 'active' || !acc.code_hash) return { kind: 'failed', reason: `account is ${acc.status}`, answered: true };
    // the hash of the cell that will be used and stored, computed here: a liteserver's word is not taken for it
    const cell = acc.code_boc ? Cell.fromBase64(acc.code_boc) : null;
    const got = cell ? cell.hash().toString('hex') : acc.code_hash;
    if (got !== want.codeHash) return { kind: 'mismatch', got };
    if (!cell) return { kind: 'failed', reason: 'the answer prunes the code', answered: true };
    return { kind: 'code', cell };
  }

  private async remember(codeHash: string, cell: Cell): Promise<void> {
    this.fetched.set(codeHash, cell);
    // as the decoder stores code (the node's cell order, no CRC: toncenter's latest_account_states code_boc)
    const boc = nodeBoc(cell).toString('base64');
    const methods = methodsOfCode(codeHash, cell);
    try {
      await writeFetchedCode(this.store, codeHash, boc, methods);
    } catch (err) {
      // the code still serves this process; the store gets it when a block or a later fetch carries it again
      this.log?.warn({ codeHash, err: (err as Error).message }, 'code fetch: writing contract_code failed');
    }
  }
}
