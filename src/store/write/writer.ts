import { clearIntent, dedupRows, encodeCompact, encodeJsonLines, nextIntentVersion, openIntents, recordIntent, RowEncodeError, tableIdentity, withoutStored, type InsertFormat, type StoreClient } from '../client/index.ts';
import { randomUUID } from 'node:crypto';
import { mirrorRows, type MirrorInput } from '../../kv/index.ts';
import { BLOCK_TABLES, emptyRows, type BlockTable, type StoreRows } from '../../decode/index.ts';
import type { Row } from '../../util/index.ts';

export interface WriterOptions {
  /** Flush when the buffered batch holds this many rows (all tables together). Default 200 000. */
  maxRows?: number;
  /** Flush at the latest this long after the first buffered row. Default 1000 ms. */
  maxDelayMs?: number;
  /** Sealed batches waiting for the database before `write()` awaits (backpressure). Default 2. */
  maxQueuedBatches?: number;
  /** Attempts per insert before the writer fails. Default 6 (backoff 100 ms doubling, max 5 s). */
  attempts?: number;
  backoffMs?: number;
  /** Wire format of inserts: Native (default, measured fastest, see bench/README.md) or a JSON text format. */
  format?: InsertFormat | 'Native';
  /** Called after each batch is fully written. */
  onFlush?: (stats: FlushStats) => void;
  /**
   * Write blocks whose markers are stored again instead of skipping them (rows of an older decoder, upgraded by a
   * re-import): the new rows replace the old at the next merge; until then plain `count()` sees both.
   */
  rewrite?: boolean;
  /**
   * Key-value store entries (src/kv) carry each block's masterchain seqno, so readers see them once the checkpoint
   * passes it: the pipeline's store stage. Default false: visible at once (imports, the bench's fill), for writers
   * that no checkpoint follows.
   */
  gate?: boolean;
}

export interface FlushStats {
  blocks: number;
  transactions: number;
  rows: number;
  ms: number;
  /** blocks of the batch already stored (their markers exist): not written again */
  skipped: number;
}

/**
 * Tables whose rows several blocks of a batch may share (a body, a code, an account's state): one row per key in
 * an insert, the newest version.
 */
const IN_BATCH_DEDUP = new Set<BlockTable>(['message_contents', 'contract_code', 'contract_methods', 'account_states', 'latest_account_states']);

/**
 * Content-addressed tables: a body or a code many blocks carry. Each writer remembers the keys it wrote (or found
 * stored), up to MEMO_KEYS per table, and drops rows with those keys; contract codes and their method lists (a
 * few new ones a batch) are also looked up in the store (replay.ts withoutStored). Bodies are not: most of a
 * batch's bodies are new, and looking them up reads a granule of `message_contents` each, a cost that grows with
 * the table (bench:store at 200k transactions: 4x the CPU with bodies and states looked up). A body another
 * process wrote stays twice until a merge.
 */
const MEMO_TABLES = new Set<BlockTable>(['message_contents', 'contract_code', 'contract_methods']);
const SHARED = new Set<BlockTable>(['contract_code', 'contract_methods']);
const MEMO_KEYS = 200_000;

/** Written last, in this order: a block's marker only exists once all its rows do. */
const MARKER_TABLES: BlockTable[] = ['blocks', 'ingested_blocks'];
const DATA_TABLES = BLOCK_TABLES.filter((t) => !MARKER_TABLES.includes(t));

/**
 * The rows one append put in a batch: `[from[i], to[i])` of table BLOCK_TABLES[i], and the ids of the blocks they
 * belong to (their `ingested_blocks` rows; none for rows without markers, which are then always written).
 */
interface Segment {
  ids: string[];
  from: number[];
  to: number[];
}

/** The key of a content row: the body hash, or the code hash. */
function contentKey(table: BlockTable, r: Row): string {
  return String(table === 'message_contents' ? r.hash : r.code_hash);
}

/** `workchain:shard:seqno:root_hash` of an `ingested_blocks` row (shard as a decimal UInt64). */
function blockIdOf(marker: Row): string {
  return `${String(marker.workchain)}:${String(marker.shard)}:${String(marker.seqno)}:${String(marker.root_hash)}`;
}

function lengths(rows: StoreRows): number[] {
  return BLOCK_TABLES.map((t) => rows[t].length);
}

/** The ids among `ids` whose `ingested_blocks` marker is stored: every row of those blocks is in. */
export async function storedBlocks(store: StoreClient, ids: readonly string[]): Promise<Set<string>> {
  const out = new Set<string>();
  // 2,000 tuples of ~40 characters: well inside a server's max_query_size (256 KiB)
  for (let i = 0; i < ids.length; i += 2000) {
    const tuples = ids.slice(i, i + 2000).map((id) => {
      const [wc, shard, seqno] = id.split(':');
      // integers only (they came from our own rows): safe to spell out
      if (!/^-?\d+$/.test(wc) || !/^\d+$/.test(shard) || !/^\d+$/.test(seqno)) throw new Error(`bad block id ${id}`);
      return `(${wc}, ${shard}, ${seqno})`;
    });
    const rows = await store.query<Row>(`SELECT workchain, shard, seqno, root_hash FROM ingested_blocks WHERE (workchain, shard, seqno) IN (${tuples.join(', ')})`);
    for (const r of rows) out.add(blockIdOf(r));
  }
  return out;
}

/** What a batch writes: the segments not stored yet, and those a crashed write may have partly stored. */
interface BatchPlan {
  keep: Segment[];
  suspect: Set<Segment>;
  skipped: number;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Batched, idempotent block writer.
 *
 * - Batches are bounded by rows and time; at most `maxQueuedBatches` sealed batches wait, after
 *   that `write()` awaits (backpressure).
 * - A batch's data tables are inserted first, then `blocks`, then `ingested_blocks`: a block with a
 *   marker is complete. A failed insert is retried with backoff.
 * - Writing a block again leaves no physical duplicate (replay.ts): a block whose marker is stored is skipped;
 *   the blocks of a write a crash cut (named by another writer's open intent) and a retried insert send only the
 *   rows not stored yet; codes are written once, bodies once per writer (MEMO_TABLES).
 */
export class StoreWriter {
  private rows: StoreRows = emptyRows();
  private segments: Segment[] = [];
  private buffered = 0;
  private blocks = 0;
  private txs = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly queue: { rows: StoreRows; segments: Segment[]; blocks: number; txs: number }[] = [];
  /** this writer's row in write_intents (replay.ts) */
  private readonly intentName = `blocks/${randomUUID()}`;
  private intentVersion = 0n;
  /** other writers' intents left complete by a crash are cleared once, at the first batch */
  private intentsSwept = false;
  /** keys of content rows this writer wrote or found stored, per table (MEMO_TABLES) */
  private readonly memo = new Map<BlockTable, Set<string>>();
  private draining: Promise<void> | null = null;
  private failure: Error | null = null;
  private readonly waiters: (() => void)[] = [];
  private readonly opts: Required<Omit<WriterOptions, 'onFlush'>> & Pick<WriterOptions, 'onFlush'>;

  constructor(
    private readonly store: StoreClient,
    opts: WriterOptions = {},
  ) {
    this.opts = {
      maxRows: opts.maxRows ?? 200_000,
      maxDelayMs: opts.maxDelayMs ?? 1000,
      maxQueuedBatches: opts.maxQueuedBatches ?? 2,
      attempts: opts.attempts ?? 6,
      backoffMs: opts.backoffMs ?? 100,
      format: opts.format ?? 'Native',
      onFlush: opts.onFlush,
      rewrite: opts.rewrite ?? false,
      gate: opts.gate ?? false,
    };
  }

  /** Buffers a block's rows (src/decode), or several blocks'; awaits while the queue of sealed batches is full. `blocks`/`txs` only feed the stats. */
  async writeRows(rows: StoreRows, counts: { blocks?: number; txs?: number } = {}): Promise<void> {
    this.throwIfFailed();
    const from = lengths(this.rows);
    for (const t of BLOCK_TABLES) {
      const src = rows[t] ?? [];
      const dst = this.rows[t];
      for (let i = 0; i < src.length; i++) dst.push(src[i]);
      this.buffered += src.length;
    }
    this.addSegment(from);
    this.blocks += counts.blocks ?? rows.ingested_blocks.length;
    this.txs += counts.txs ?? rows.transactions.length;
    await this.afterAppend();
  }

  /** Writes everything buffered and waits until it is in the database. */
  async flush(): Promise<void> {
    this.seal();
    while (this.draining) await this.draining;
    this.throwIfFailed();
  }

  /** Flushes; then the writer's intent is cleared (its writes are complete). */
  async close(): Promise<void> {
    await this.flush();
    if (this.intentVersion > 0n) {
      await clearIntent(this.store, { writer: this.intentName, version: this.intentVersion });
      this.intentVersion += 1000n;
    }
  }

  private addSegment(from: number[]): void {
    const markers = this.rows.ingested_blocks.slice(from[BLOCK_TABLES.indexOf('ingested_blocks')]);
    this.segments.push({ ids: markers.map(blockIdOf), from, to: lengths(this.rows) });
  }

  private async afterAppend(): Promise<void> {
    if (this.buffered >= this.opts.maxRows) this.seal();
    else if (!this.timer && this.buffered > 0) {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.seal();
      }, this.opts.maxDelayMs);
    }
    while (this.queue.length >= this.opts.maxQueuedBatches && !this.failure) {
      await new Promise<void>((r) => this.waiters.push(r));
    }
    this.throwIfFailed();
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure;
  }

  private seal(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.buffered === 0) return;
    this.queue.push({ rows: this.rows, segments: this.segments, blocks: this.blocks, txs: this.txs });
    this.rows = emptyRows();
    this.segments = [];
    this.buffered = this.blocks = this.txs = 0;
    if (!this.draining) {
      this.draining = this.drain().finally(() => {
        this.draining = null;
      });
    }
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0 && !this.failure) {
      const batch = this.queue[0];
      try {
        await this.writeBatch(batch.rows, batch.segments, batch.blocks, batch.txs);
      } catch (err) {
        this.failure = err instanceof Error ? err : new Error(String(err));
      }
      this.queue.shift();
      this.waiters.splice(0).forEach((w) => w());
    }
    if (this.failure) {
      this.queue.length = 0;
      this.waiters.splice(0).forEach((w) => w());
    }
  }

  /**
   * Which segments to write: those whose blocks are not all stored (markers) nor earlier in the batch; of those,
   * the ones another writer's open intent names (a write a crash cut: some of their rows may be stored).
   */
  private async plan(segments: Segment[]): Promise<BatchPlan> {
    const ids = [...new Set(segments.flatMap((s) => s.ids))];
    if (ids.length === 0) return { keep: segments, suspect: new Set(), skipped: 0 };
    const [stored, open] = await Promise.all([this.opts.rewrite ? new Set<string>() : storedBlocks(this.store, ids), openIntents(this.store, 'blocks/', this.intentName)]);
    if (!this.intentsSwept) {
      this.intentsSwept = true;
      // intents of writers that died after their write completed (or that were never cleared): all blocks stored
      for (const intent of open) {
        const done = await storedBlocks(this.store, intent.items);
        if (intent.items.every((id) => done.has(id))) await clearIntent(this.store, intent);
      }
    }
    const openIds = new Set(open.flatMap((i) => i.items));
    const seen = new Set<string>();
    const keep: Segment[] = [];
    const suspect = new Set<Segment>();
    let skipped = 0;
    for (const seg of segments) {
      if (seg.ids.length > 0 && seg.ids.every((id) => stored.has(id) || seen.has(id))) {
        skipped += seg.ids.length;
        continue;
      }
      for (const id of seg.ids) seen.add(id);
      keep.push(seg);
      if (seg.ids.some((id) => openIds.has(id))) suspect.add(seg);
    }
    return { keep, suspect, skipped };
  }

  /** A table's rows of the batch as they are to be inserted (see plan; replay.ts). */
  private async rowsFor(table: BlockTable, rows: StoreRows, plan: BatchPlan, all: number): Promise<Row[]> {
    const i = BLOCK_TABLES.indexOf(table);
    let list: Row[];
    if (plan.keep.length === all && plan.suspect.size === 0) list = rows[table];
    else {
      const plain: Row[] = [];
      let suspect: Row[] = [];
      for (const seg of plan.keep) {
        const into = plan.suspect.has(seg) ? suspect : plain;
        for (let r = seg.from[i]; r < seg.to[i]; r++) into.push(rows[table][r]);
      }
      if (suspect.length) suspect = await withoutStored(this.store, table, suspect);
      list = suspect.length ? plain.concat(suspect) : plain;
    }
    if (list.length > 1 && IN_BATCH_DEDUP.has(table)) {
      const id = await tableIdentity(this.store, table);
      if (id) list = dedupRows(list, id);
    }
    const memo = this.memo.get(table);
    if (memo) list = list.filter((r) => !memo.has(contentKey(table, r)));
    if (SHARED.has(table)) {
      const candidates = list;
      list = await withoutStored(this.store, table, list);
      if (list.length < candidates.length) this.remember(table, candidates);
    }
    return list;
  }

  /** After a successful insert (or a lookup that found them stored): these content keys need no write again. */
  private remember(table: BlockTable, rows: Row[]): void {
    if (!MEMO_TABLES.has(table)) return;
    let memo = this.memo.get(table);
    if (!memo) this.memo.set(table, (memo = new Set()));
    if (memo.size + rows.length > MEMO_KEYS) memo.clear();
    for (const r of rows) memo.add(contentKey(table, r));
  }

  private async writeBatch(rows: StoreRows, segments: Segment[], blocks: number, txs: number): Promise<void> {
    const t0 = performance.now();
    const plan = await this.plan(segments);
    if (plan.keep.length === 0) {
      this.opts.onFlush?.({ blocks: 0, transactions: 0, rows: 0, ms: performance.now() - t0, skipped: plan.skipped });
      return;
    }
    const ids = [...new Set(plan.keep.flatMap((s) => s.ids))];
    if (ids.length) {
      // before the first insert: a crash from here on leaves an intent naming these blocks
      this.intentVersion = nextIntentVersion(this.intentVersion);
      await recordIntent(this.store, this.intentName, this.intentVersion, ids);
    }
    // the key-value store's entries of the batch, committed before the markers (in parallel with the inserts)
    const kv = this.store.kv;
    const kvDone = kv ? mirrorRows(kv, this.mirrorInputs(rows, plan, segments.length)) : null;
    kvDone?.catch(() => undefined);
    const m = BLOCK_TABLES.indexOf('ingested_blocks');
    const markerTxs = (s: Segment) => rows.ingested_blocks.slice(s.from[m], s.to[m]).reduce((n, r) => n + Number(r.tx_count ?? 0), 0);
    const written = plan.keep.length === segments.length ? { blocks, txs } : { blocks: plan.keep.length, txs: plan.keep.reduce((n, s) => n + markerTxs(s), 0) };
    let total = 0;
    // Data tables go in parallel (independent tables); markers strictly after them. A failure waits for the other
    // tables' inserts to end: the engine runs statements side by side, so one still in flight would land after the
    // write that replays this batch had looked for what is stored, and be stored twice.
    const inserted = await Promise.allSettled(
      DATA_TABLES.map(async (t) => {
        // documents live in the key-value store alone where it serves point reads (clickhouse/0017)
        if (t === 'transaction_docs_kv' && this.store.pointReads === 'kv') return;
        const list = await this.rowsFor(t, rows, plan, segments.length);
        total += list.length;
        await this.insert(t, list);
        this.remember(t, list);
      }),
    );
    const failed = inserted.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    await kvDone;
    for (const t of MARKER_TABLES) {
      const list = await this.rowsFor(t, rows, plan, segments.length);
      total += list.length;
      await this.insert(t, list);
    }
    this.opts.onFlush?.({ blocks: written.blocks, transactions: written.txs, rows: total, ms: performance.now() - t0, skipped: plan.skipped });
  }

  /**
   * The rows of the segments the batch writes, per table, with their tags: each block's masterchain seqno (`gate`),
   * else 0. Entries are idempotent, so a segment a crash cut is simply written again whole.
   */
  private mirrorInputs(rows: StoreRows, plan: BatchPlan, all: number): MirrorInput[] {
    if (!this.opts.gate && plan.keep.length === all) return BLOCK_TABLES.map((table) => ({ table, rows: rows[table], tag: 0 }));
    const m = BLOCK_TABLES.indexOf('ingested_blocks');
    const out: MirrorInput[] = [];
    for (const seg of plan.keep) {
      let tag = 0;
      if (this.opts.gate) for (let r = seg.from[m]; r < seg.to[m]; r++) tag = Math.max(tag, Number(rows.ingested_blocks[r].mc_block_seqno ?? 0));
      BLOCK_TABLES.forEach((table, i) => {
        if (seg.to[i] > seg.from[i]) out.push({ table, rows: rows[table].slice(seg.from[i], seg.to[i]), tag });
      });
    }
    return out;
  }

  private async insert(table: BlockTable, all: Row[]): Promise<void> {
    let rows = all;
    if (rows.length === 0) return;
    const format = this.opts.format;
    let delay = this.opts.backoffMs;
    for (let attempt = 1; ; attempt++) {
      try {
        // a failed attempt may have been applied (a timeout after the server took it): send only what is missing
        if (attempt > 1) rows = await withoutStored(this.store, table, rows);
        if (rows.length === 0) return;
        const text = format === 'Native' ? null : format === 'JSONEachRow' ? { body: encodeJsonLines(rows), columns: undefined } : encodeCompact(rows);
        // blockToRows rows of one table share their keys: the first row names the columns.
        if (text === null) await this.store.insertRows(table, rows, Object.keys(rows[0]));
        else await this.store.insertFormatted(table, text.body, format as InsertFormat, text.columns);
        return;
      } catch (err) {
        const transient = isTransient(err);
        if (!transient || attempt >= this.opts.attempts) {
          const first = firstLine(err);
          throw new Error(`insert into ${table} failed${transient ? ` after ${attempt} attempts` : ''}: ${first}`, { cause: err });
        }
        await sleep(delay);
        delay = Math.min(delay * 2, 5000);
      }
    }
  }
}

/**
 * ClickHouse error codes worth retrying (timeouts, network, memory, too many parts, readonly replica).
 * Errors without a ClickHouse code are transport failures: retried too. Everything else (parse,
 * type, schema errors) fails the same way again: not retried.
 */
const TRANSIENT_CODES = new Set([159, 164, 202, 209, 210, 241, 242, 252, 285, 319, 425, 439, 999, 1000]);

function isTransient(err: unknown): boolean {
  if (err instanceof RowEncodeError) return false;
  const code = (err as { code?: unknown; clickhouseCode?: unknown })?.code;
  const n = Number(typeof code === 'string' && /^\d+$/.test(code) ? code : (err as { clickhouseCode?: unknown })?.clickhouseCode);
  return Number.isFinite(n) && n > 0 ? TRANSIENT_CODES.has(n) : true;
}

/** First line of an error message, capped (engine errors can carry whole rows). */
export function firstLine(err: unknown, max = 300): string {
  const line = String((err as Error)?.message ?? err).split('\n')[0].trim();
  return line.length > max ? line.slice(0, max) + '…' : line;
}
