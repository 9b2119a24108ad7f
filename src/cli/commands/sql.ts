import { openStoreOrExplain } from '../open-store.ts';
import { CliError, type Command } from '../command.ts';
import { ReadOnlyQueryError, runReadOnlySql, SQL_FORMATS, assertReadOnly } from '../../store/index.ts';

export const sqlCommand: Command = {
  name: 'sql',
  summary: 'run a read-only SQL query against the store and print the result',
  usage: [
    'Usage: ton-gateway sql "<query>" [--format JSONEachRow|CSV|Pretty] [--data DIR]',
    '',
    'Runs one read-only query (SELECT, SHOW, DESCRIBE, EXPLAIN, WITH) against the store: embedded chdb',
    'under DIR/clickhouse, or the server in CLICKHOUSE_URL. The engine runs it with readonly=1: writes, DDL,',
    'setting changes and table functions that reach files, URLs or other servers are refused, and so are',
    'several statements, INTO OUTFILE and file().',
    '',
    'Options:',
    `  --format F   output format, one of ${SQL_FORMATS.join(', ')} (default JSONEachRow)`,
    '  --data DIR   data directory (default ./data)',
  ].join('\n'),
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
    // read-only engine: ClickHouse itself refuses writes, whatever the text check above missed
    const store = await openStoreOrExplain(dataDir, undefined, { readonly: true });
    try {
      process.stdout.write(await runReadOnlySql(store, query, format));
      return 0;
    } catch (err) {
      if (err instanceof ReadOnlyQueryError) throw new CliError(err.message);
      throw err;
    } finally {
      await store.close();
    }
  },
};
