import { openStoreOrExplain } from '../open-store.ts';
import { CliError, type Command } from '../command.ts';
import { ReadOnlyQueryError, runReadOnlySql, assertReadOnly } from '../../store/index.ts';

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
