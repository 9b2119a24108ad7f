/**
 * Ingest's bookkeeping in the store (src/store ingest_state): the requested masterchain range is part of the
 * store's state, so a restart without --from-seqno continues it (instead of jumping to the tip and leaving a hole
 * nobody sees), and the stall (a seqno no liteserver gives valid, and why) is there for `status` and indexStatus.
 */
import type { Logger } from 'pino';
import type { Stall } from '../src/source/index.ts';
import { nextIngestVersion, readIngestState, writeIngestState, type IngestState } from '../src/store/ingest/index.ts';
import { type StoreClient } from '../src/store/client/index.ts';

export interface RangeRequest {
  fromSeqno?: number;
  untilSeqno?: number;
}

export interface PlannedRange {
  /** null: nothing to continue, start at the network's tip. */
  from: number | null;
  until?: number;
  /** The range comes from the store (a restart continuing what was asked before). */
  continued: boolean;
}

/**
 * Where ingest starts. An explicit --from-seqno wins. Otherwise a stored range that is not done is continued:
 * from the checkpoint once the checkpoint moved since the range was asked for (it tracks the range's progress),
 * else from the range's start (nothing of it is confirmed). With no range to continue: the checkpoint, else the tip.
 * `resume` is where the checkpoint (and the traces stage) say to resume, `checkpoint` the checkpoint itself.
 */
export function planRange(req: RangeRequest, saved: IngestState | null, checkpoint: number | null, resume: number | null): PlannedRange {
  if (req.fromSeqno !== undefined) return { from: req.fromSeqno, until: req.untilSeqno, continued: false };
  const range = saved?.range ?? null;
  if (range) {
    const moved = checkpoint !== null && checkpoint !== saved!.checkpointAtRequest && checkpoint >= range.from - 1;
    const from = moved && resume !== null ? resume : range.from;
    const until = req.untilSeqno ?? range.until ?? undefined;
    const done = range.until !== null && moved && checkpoint >= range.until;
    if (!done && (until === undefined || from <= until)) return { from, until, continued: true };
  }
  return { from: resume, until: req.untilSeqno, continued: false };
}

export class IngestBook {
  private state: IngestState;
  private writing: Promise<void> = Promise.resolve();
  /** the version of the last write: each write's is past it (store/ingest nextIngestVersion) */
  private version: bigint;

  private constructor(
    private readonly store: StoreClient,
    state: IngestState,
    version: bigint,
    private readonly log?: Logger,
  ) {
    this.state = state;
    this.version = version;
  }

  /** Reads the saved state (for planRange). */
  static read(store: StoreClient): Promise<IngestState | null> {
    return readIngestState(store);
  }

  /** Records the range ingest works on now (a new one, or the stored one continued) and the checkpoint it starts over. */
  static async begin(store: StoreClient, saved: IngestState | null, plan: { from: number; until?: number; continued: boolean }, checkpoint: number | null, log?: Logger): Promise<IngestBook> {
    const kept = plan.continued && saved?.range ? saved : null;
    const state: IngestState = {
      // a continued range keeps its start and the checkpoint it was asked over (its progress is measured from there)
      range: kept ? { from: kept.range!.from, until: plan.until ?? null } : { from: plan.from, until: plan.until ?? null },
      firstRequested: Math.min(saved?.firstRequested ?? plan.from, plan.from),
      checkpointAtRequest: kept ? kept.checkpointAtRequest : checkpoint,
      stall: null,
    };
    const version = nextIngestVersion(0n);
    await writeIngestState(store, state, version);
    return new IngestBook(store, state, version, log);
  }

  private write(next: IngestState): Promise<void> {
    this.state = next;
    const version = (this.version = nextIngestVersion(this.version));
    this.writing = this.writing.then(
      () => writeIngestState(this.store, next, version),
      () => writeIngestState(this.store, next, version),
    );
    this.writing.catch((err: Error) => this.log?.warn({ err: err.message }, 'cannot record the ingest state in the store'));
    return this.writing;
  }

  /** The follower's stall (or null: moving again). */
  async stall(stall: Stall | null): Promise<void> {
    const was = this.state.stall;
    await this.write({ ...this.state, stall });
    // said once it is recorded (status shows it from then on)
    if (stall) this.log?.warn({ seqno: stall.seqno, reason: stall.reason }, `stalled at mc seqno ${stall.seqno}`);
    else if (was) this.log?.info({ seqno: was.seqno }, 'moving again');
  }

  /** The range was ingested to its end: a restart without flags follows from the checkpoint again. */
  rangeDone(checkpoint: number | null): Promise<void> {
    return this.write({ ...this.state, range: null, checkpointAtRequest: checkpoint, stall: null });
  }

  /** Waits for the writes queued so far. */
  async flush(): Promise<void> {
    await this.writing.catch(() => undefined);
  }
}
