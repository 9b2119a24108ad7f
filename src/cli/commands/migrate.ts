import { CliError, type Command } from '../command.ts';
import { DataDirLockedError, migrate, openClient, storeConfigFromEnv } from '../../store/client/index.ts';

export const migrateCommand: Command = {
  async run(argv) {
    let dataDir: string | undefined;
    for (let i = 0; i < argv.length; i++) {
      if (argv[i] === '--data') {
        dataDir = argv[++i];
        if (!dataDir) throw new CliError('--data needs a directory');
      } else throw new CliError(`unknown argument "${argv[i]}" (see --help)`);
    }
    let store;
    try {
      store = await openClient(storeConfigFromEnv(dataDir));
    } catch (err) {
      if (err instanceof DataDirLockedError) throw new CliError(err.message);
      throw new CliError(`cannot open the store: ${(err as Error).message}`);
    }
    try {
      const res = await migrate(store);
      if (res.applied.length === 0) console.log(`store ${store.location}: up to date (version ${res.current})`);
      for (const m of res.applied) console.log(`applied ${String(m.version).padStart(4, '0')}_${m.name}`);
      return 0;
    } catch (err) {
      throw new CliError((err as Error).message.split('\n')[0]);
    } finally {
      await store.close();
    }
  },
};
