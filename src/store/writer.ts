import type { DecodedBlock } from '../ton/block/types.ts';
import type { StoreClient } from './client.ts';
import { encodeCompact, encodeJsonLines, type InsertFormat } from './encode.ts';
import { RowEncodeError } from './native.ts';
import { appendBlockRows, BLOCK_TABLES, emptyRows, type BlockTable, type BlockToRowsOptions, type Row, type StoreRows } from './rows.ts';

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
}

export interface FlushStats {
  blocks: number;
  transactions: number;
  rows: number;
  ms: number;
}

/** Tables whose rows are content-addressed: duplicates inside a batch are dropped before insert. */
const DEDUP_KEY: Partial<Record<BlockTable, string>> = { message_contents: 'hash', contract_code: 'code_hash' };

/** Written last, in this order: a block's marker only exists once all its rows do. */
const MARKER_TABLES: BlockTable[] = ['blocks', 'ingested_blocks'];
const DATA_TABLES = BLOCK_TABLES.filter((t) => !MARKER_TABLES.includes(t));

function rowCount(rows: StoreRows): number {
  let n = 0;
  for (const t of BLOCK_TABLES) n += rows[t].length;
  return n;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Batched, idempotent block writer.
 *
 * - Batches are bounded by rows and time; at most `maxQueuedBatches` sealed batches wait, after
 *   that `write()` awaits (backpressure).
 * - A batch's data tables are inserted first, then `blocks`, then `ingested_blocks`: a block with a
 *   marker is complete. A failed insert is retried with backoff; re-sending rows is harmless because
 *   every table is a ReplacingMergeTree keyed by the row's natural id (readers use FINAL).
 */
export class StoreWriter {
  private rows: StoreRows = emptyRows();
  private buffered = 0;
  private blocks = 0;
  private txs = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly queue: { rows: StoreRows; blocks: number; txs: number }[] = [];
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
    };
  }

  /** Buffers one decoded block; awaits while the queue of sealed batches is full. */
  async writeBlock(block: DecodedBlock, opts: BlockToRowsOptions = {}): Promise<void> {
    this.throwIfFailed();
    const before = rowCount(this.rows);
    appendBlockRows(this.rows, block, opts);
    this.buffered += rowCount(this.rows) - before;
    this.blocks++;
    this.txs += block.transactions.length;
    await this.afterAppend();
  }

  /** Buffers prepared rows (e.g. from the bench generator). `blocks`/`txs` only feed the stats. */
  async writeRows(rows: StoreRows, counts: { blocks?: number; txs?: number } = {}): Promise<void> {
    this.throwIfFailed();
    for (const t of BLOCK_TABLES) {
      const src = rows[t];
      const dst = this.rows[t];
      for (let i = 0; i < src.length; i++) dst.push(src[i]);
      this.buffered += src.length;
    }
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

  async close(): Promise<void> {
    await this.flush();
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
    this.queue.push({ rows: this.rows, blocks: this.blocks, txs: this.txs });
    this.rows = emptyRows();
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
        await this.writeBatch(batch.rows, batch.blocks, batch.txs);
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

  private async writeBatch(rows: StoreRows, blocks: number, txs: number): Promise<void> {
    const t0 = performance.now();
    let total = 0;
    // Data tables go in parallel (independent tables); markers strictly after them.
    await Promise.all(
      DATA_TABLES.map(async (t) => {
        const list = dedup(t, rows[t]);
        total += list.length;
        await this.insert(t, list);
      }),
    );
    for (const t of MARKER_TABLES) {
      total += rows[t].length;
      await this.insert(t, rows[t]);
    }
    this.opts.onFlush?.({ blocks, transactions: txs, rows: total, ms: performance.now() - t0 });
  }

  private async insert(table: BlockTable, rows: Row[]): Promise<void> {
    if (rows.length === 0) return;
    const format = this.opts.format;
    const text = format === 'Native' ? null : format === 'JSONEachRow' ? { body: encodeJsonLines(rows), columns: undefined } : encodeCompact(rows);
    let delay = this.opts.backoffMs;
    for (let attempt = 1; ; attempt++) {
      try {
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

function dedup(table: BlockTable, rows: Row[]): Row[] {
  const key = DEDUP_KEY[table];
  if (!key) return rows;
  const seen = new Set<unknown>();
  return rows.filter((r) => (seen.has(r[key]) ? false : (seen.add(r[key]), true)));
}

/** Records a named checkpoint (e.g. 'ingest' = last masterchain seqno whose blocks are all written). */
export async function setCheckpoint(store: StoreClient, name: string, mcSeqno: number): Promise<void> {
  await store.command('INSERT INTO checkpoints (name, mc_seqno) VALUES ({name:String}, {seqno:UInt32})', { name, seqno: mcSeqno });
}

export async function getCheckpoint(store: StoreClient, name: string): Promise<number | null> {
  const rows = await store.query<{ mc_seqno: number }>('SELECT mc_seqno FROM checkpoints FINAL WHERE name = {name:String}', { name });
  return rows.length ? Number(rows[0].mc_seqno) : null;
}
