/**
 * `ton-gateway export`: a table over a masterchain seqno, lt or time range, or a read-only query, written by the
 * engine in Parquet, CSV or JSON lines, to a file (streamed from the engine) or to an S3-compatible URL (the engine's
 * own s3() writer). The statement is built here (pure), from a table of known range columns or from one read-only
 * SELECT the engine has canonicalized (sql.ts), so what runs is always `SELECT ... FROM (...)` and nothing else.
 */
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import type { QueryParams, StoreClient } from '../client/index.ts';
import { canonicalReadOnly } from './sql.ts';

/**
 * The tables `--table` takes, with the columns a range is on (masterchain seqno, lt, unix time): the chain's own data
 * and what the traces stage derives. Entity tables hold each entity's latest state: their range is on the lt of the
 * transaction that last changed it. Any other table or shape: `--query`.
 */
export const EXPORT_TABLES: Readonly<Record<string, { seqno?: string; lt: string; time?: string }>> = {
  blocks: { seqno: 'mc_block_seqno', lt: 'end_lt', time: 'gen_utime' },
  transactions: { seqno: 'mc_block_seqno', lt: 'lt', time: 'now' },
  messages: { seqno: 'mc_seqno', lt: 'tx_lt', time: 'created_at' },
  account_states: { lt: 'last_trans_lt' },
  traces: { seqno: 'mc_seqno_end', lt: 'end_lt', time: 'end_utime' },
  actions: { seqno: 'trace_mc_seqno_end', lt: 'end_lt', time: 'end_utime' },
  jetton_transfers: { seqno: 'mc_seqno', lt: 'tx_lt', time: 'tx_now' },
  jetton_burns: { seqno: 'mc_seqno', lt: 'tx_lt', time: 'tx_now' },
  nft_transfers: { seqno: 'mc_seqno', lt: 'tx_lt', time: 'tx_now' },
  jetton_wallets: { lt: 'last_transaction_lt' },
  jetton_masters: { lt: 'last_transaction_lt' },
  nft_items: { lt: 'last_transaction_lt' },
  nft_collections: { lt: 'last_transaction_lt' },
  nft_sales: { lt: 'last_transaction_lt', time: 'created_at' },
  dns_entries: { lt: 'last_transaction_lt' },
};

/** Output formats, by the name `--format` takes. */
export const EXPORT_FORMATS = { parquet: 'Parquet', csv: 'CSVWithNames', jsonl: 'JSONEachRow' } as const;
export type ExportFormat = keyof typeof EXPORT_FORMATS;

/** A range on one axis; bounds inclusive, either may be open. */
export interface ExportRange {
  by: 'seqno' | 'lt' | 'time';
  from?: bigint;
  until?: bigint;
}

/** Raised for an export that cannot be: the message names the option. */
export class ExportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExportError';
  }
}

const RANGE_TYPE = { seqno: 'UInt32', lt: 'UInt64', time: 'UInt32' } as const;
const RANGE_OPTION = { seqno: 'seqno', lt: 'lt', time: 'time' } as const;

/** The SELECT of a table export: its rows as of now (FINAL), inside the range, in the range column's order. */
export function tableExportStatement(table: string, range?: ExportRange): { sql: string; params: QueryParams } {
  const cols = EXPORT_TABLES[table];
  if (!cols) throw new ExportError(`--table: unknown table "${table}" (one of ${Object.keys(EXPORT_TABLES).join(', ')}; any other with --query)`);
  const params: QueryParams = {};
  const where: string[] = [];
  let order = cols.lt;
  if (range) {
    const col = range.by === 'lt' ? cols.lt : range.by === 'seqno' ? cols.seqno : cols.time;
    if (!col) throw new ExportError(`--from-${RANGE_OPTION[range.by]} / --until-${RANGE_OPTION[range.by]}: ${table} has no ${range.by} to select by (it has: ${['lt', cols.seqno && 'seqno', cols.time && 'time'].filter(Boolean).join(', ')})`);
    const type = RANGE_TYPE[range.by];
    if (range.from !== undefined) {
      params.from = range.from;
      where.push(`${col} >= {from:${type}}`);
    }
    if (range.until !== undefined) {
      params.until = range.until;
      where.push(`${col} <= {until:${type}}`);
    }
    order = col;
  }
  return { sql: `SELECT * FROM ${table} FINAL${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY ${order}`, params };
}

/** The statement of a query export: the engine's canonical text of one read-only statement (sql.ts). */
export async function queryExportStatement(store: StoreClient, query: string): Promise<{ sql: string; params: QueryParams }> {
  return { sql: await canonicalReadOnly(store, query), params: {} };
}

/** Where the output goes: a file, or an object of an S3-compatible store. */
export type ExportTarget = { kind: 'file'; path: string } | { kind: 's3'; url: string; accessKey: string; secretKey: string };

/**
 * `s3://bucket/key` (AWS, virtual-hosted) or an http(s) URL of an object (any S3-compatible endpoint, path-style:
 * `https://host/bucket/key`); `endpoint` turns `s3://bucket/key` into `endpoint/bucket/key`.
 */
export function s3ObjectUrl(out: string, endpoint?: string): string {
  const m = /^s3:\/\/([^/]+)\/(.+)$/.exec(out);
  if (m) return endpoint ? `${endpoint.replace(/\/+$/, '')}/${m[1]}/${m[2]}` : `https://${m[1]}.s3.amazonaws.com/${m[2]}`;
  if (/^https?:\/\/[^/]+\/[^/]+\/.+/.test(out)) return out;
  throw new ExportError(`--out: "${out}" is not an S3 object (s3://bucket/key, or http(s)://host/bucket/key)`);
}

/** Runs an export; resolves with the bytes written (a file) or null (S3: the engine wrote it). */
export async function runExport(store: StoreClient, statement: { sql: string; params: QueryParams }, format: ExportFormat, target: ExportTarget): Promise<number | null> {
  const fmt = EXPORT_FORMATS[format];
  if (target.kind === 's3') {
    // the engine writes the object itself (replacing one of that name, as a file is replaced); the credentials travel as
    // bound parameters, never in the statement's text
    await store.command(`INSERT INTO FUNCTION s3({s3url:String}, {s3key:String}, {s3secret:String}, '${fmt}') SELECT * FROM (${statement.sql}) SETTINGS s3_truncate_on_insert = 1`, {
      ...statement.params,
      s3url: target.url,
      s3key: target.accessKey,
      s3secret: target.secretKey,
    });
    return null;
  }
  // streamed from the engine into a file beside the target, renamed when whole: an export cut short leaves no half file
  const part = `${target.path}.part`;
  const source = await store.queryStream(statement.sql, fmt, statement.params);
  const sink = createWriteStream(part);
  try {
    await pipeline(source, sink);
    await rename(part, target.path);
  } catch (err) {
    await rm(part, { force: true });
    throw err;
  }
  return sink.bytesWritten;
}
