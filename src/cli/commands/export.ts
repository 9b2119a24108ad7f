/**
 * `ton-gateway export`: a table over a seqno, lt or time range, or a read-only query, to Parquet, CSV or JSON lines, in a
 * file or an S3-compatible object (src/store/read/export.ts). Read-only on the store: a file is streamed through the
 * engine's `reader` user, beside a running gateway; an S3 object is written by the engine itself, through its writer
 * user, with no writer lock (nothing of the store is written).
 */
import { resolve } from 'node:path';
import { CliError, optionValue, type Command } from '../command.ts';
import { openStoreOrExplain, readerDataDir } from '../open-store.ts';
import {
  EXPORT_FORMATS,
  ExportError,
  queryExportStatement,
  ReadOnlyQueryError,
  runExport,
  s3ObjectUrl,
  tableExportStatement,
  type ExportFormat,
  type ExportRange,
  type ExportTarget,
} from '../../store/read/index.ts';

const RANGES = { seqno: 'seqno', lt: 'lt', time: 'time' } as const;

function bound(name: string, v: string): bigint {
  if (!/^\d{1,20}$/.test(v)) throw new CliError(`${name}: expected a whole number, got "${v}"`);
  return BigInt(v);
}

export const exportCommand: Command = {
  async run(argv) {
    let table: string | undefined;
    let query: string | undefined;
    let format: ExportFormat | undefined;
    let out: string | undefined;
    let endpoint: string | undefined;
    let dataDir: string | undefined;
    let range: ExportRange | undefined;
    for (let i = 0; i < argv.length; i++) {
      const a = argv[i];
      const val = () => optionValue(a, argv[++i]);
      const r = /^--(from|until)-(seqno|lt|time)$/.exec(a);
      if (r) {
        const by = RANGES[r[2] as keyof typeof RANGES];
        if (range && range.by !== by) throw new CliError(`${a}: a range is on one of seqno, lt or time; --${r[1] === 'from' ? 'until' : 'from'}-${range.by} was given`);
        range ??= { by };
        range[r[1] as 'from' | 'until'] = bound(a, val());
      } else if (a === '--table') table = val();
      else if (a === '--query') query = val();
      else if (a === '--format') {
        const f = val();
        if (!(f in EXPORT_FORMATS)) throw new CliError(`--format: "${f}" is not one of ${Object.keys(EXPORT_FORMATS).join(', ')}`);
        format = f as ExportFormat;
      } else if (a === '--out') out = val();
      else if (a === '--s3-endpoint') endpoint = val();
      else if (a === '--data') dataDir = val();
      else throw new CliError(`unknown option "${a}" (see --help)`);
    }
    if ((table === undefined) === (query === undefined)) throw new CliError('give --table NAME or --query "SELECT ..." (one of them)');
    if (query !== undefined && range) throw new CliError('--from-* / --until-* select a --table\'s rows; with --query, put the range in its WHERE');
    if (range?.from !== undefined && range.until !== undefined && range.from > range.until) throw new CliError(`--from-${range.by} is above --until-${range.by}`);
    if (!out) throw new CliError('--out: a file, s3://bucket/key or http(s)://host/bucket/key');
    const s3 = /^(s3|https?):\/\//.test(out);
    format ??= /\.csv$/i.test(out) ? 'csv' : /\.jsonl?$/i.test(out) ? 'jsonl' : 'parquet';
    let target: ExportTarget;
    try {
      if (s3) {
        const accessKey = process.env.AWS_ACCESS_KEY_ID;
        const secretKey = process.env.AWS_SECRET_ACCESS_KEY;
        if (!accessKey || !secretKey) throw new CliError('--out s3: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (the store\'s credentials are never taken from options, so they stay out of shell history and process lists)');
        target = { kind: 's3', url: s3ObjectUrl(out, endpoint), accessKey, secretKey };
      } else target = { kind: 'file', path: resolve(out) };
    } catch (err) {
      if (err instanceof ExportError) throw new CliError(err.message);
      throw err;
    }
    if (endpoint && !s3) throw new CliError('--s3-endpoint goes with an s3:// --out');
    const say = (line: string) => process.stderr.write(`ton-gateway export: ${line}\n`);
    // a file: the reader user; S3: the engine writes the object, which takes its writer user (not the store's lock)
    const store = await openStoreOrExplain(readerDataDir(dataDir, say), undefined, s3 ? { lock: false, migrate: false, pointReads: 'tables' } : { readonly: true });
    try {
      const statement = table !== undefined ? tableExportStatement(table, range) : await queryExportStatement(store, query!);
      const t0 = performance.now();
      const bytes = await runExport(store, statement, format, target);
      const secs = ((performance.now() - t0) / 1000).toFixed(1);
      say(`${table ?? 'query'} -> ${s3 ? out : (target as { path: string }).path} (${format}${bytes === null ? '' : `, ${bytes.toLocaleString('en')} bytes`}) in ${secs} s`);
      return 0;
    } catch (err) {
      if (err instanceof ExportError || err instanceof ReadOnlyQueryError) throw new CliError(err.message);
      throw new CliError(`export failed: ${(err as Error).message.split('\n')[0]}`);
    } finally {
      await store.close();
    }
  },
};
