import { openStoreOrExplain, readerDataDir } from '../open-store.ts';
import { CliError, type Command } from '../command.ts';
import { ReadOnlyQueryError, runReadOnlySql, assertReadOnly } from '../../store/read/index.ts';

/** Rows in a result printed in `format` (text formats print nothing for none; these print a header or a document). */
export function resultRows(format: string, text: string): number {
  if (format === 'JSON') return Number((JSON.parse(text) as { rows?: number }).rows ?? 0);
  const lines = text.split('\n').filter((l) => l.length > 0).length;
  if (format === 'CSVWithNames') return Math.max(0, lines - 1);
  return lines;
}

export const sqlCommand: Command = {
  async run(argv) {
    let dataDir: string | undefined;
    let format = 'JSONEachRow';
    const rest: string[] = [];
    for (let i = 0; i < argv.length; i++) {
      const a = argv[i];
      if (a === '--data' || a === '--format') {
        const v = argv[++i];
        if (!v) throw new CliError(`${a} needs a value`);
        if (a === '--data') dataDir = v;
        else format = v;
      } else if (a.startsWith('--')) throw new CliError(`unknown option "${a}" (see --help)`);
      else rest.push(a);
    }
    if (rest.length !== 1) throw new CliError('give exactly one query, quoted (see --help)');
    const query = rest[0];
    try {
      assertReadOnly(query);
    } catch (err) {
      throw new CliError((err as Error).message);
    }
    const say = (line: string) => process.stderr.write(`ton-gateway sql: ${line}\n`);
    // read-only: the engine's reader user refuses writes, whatever the text checks miss; a running gateway's engine
    // answers it beside the indexer's statements
    const store = await openStoreOrExplain(readerDataDir(dataDir, say), undefined, { readonly: true });
    try {
      const out = await runReadOnlySql(store, query, format);
      process.stdout.write(out);
      // an empty result prints nothing in most formats: say so where a person reads, not in the data
      if (resultRows(format, out) === 0) say('0 rows');
      return 0;
    } catch (err) {
      if (err instanceof ReadOnlyQueryError) throw new CliError(err.message);
      throw err;
    } finally {
      await store.close();
    }
  },
};
