import { readFileSync } from 'node:fs';
import { openStoreOrExplain } from '../open-store.ts';
import { CliError, type Command } from '../command.ts';
import { firstLine } from '../../store/write/index.ts';
import { importBlocks } from '../../../pipelines/index.ts';
import { decodeBlock, type DecodedBlock } from '../../ton/index.ts';

export const importBlocksCommand: Command = {
  async run(argv) {
    let dataDir: string | undefined;
    let rewrite = false;
    const files: string[] = [];
    for (let i = 0; i < argv.length; i++) {
      const a = argv[i];
      if (a === '--data') {
        dataDir = argv[++i];
        if (!dataDir) throw new CliError('--data needs a directory');
      } else if (a === '--rewrite') rewrite = true;
      else if (a.startsWith('--')) throw new CliError(`unknown option "${a}" (see --help)`);
      else files.push(a);
    }
    if (files.length === 0) throw new CliError('give at least one block file (see --help)');
    const blocks: DecodedBlock[] = [];
    const failed: string[] = [];
    for (const f of files) {
      let bytes: Buffer;
      try {
        bytes = readFileSync(f);
      } catch (err) {
        failed.push(`${f}: cannot read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
        continue;
      }
      try {
        blocks.push(decodeBlock(bytes));
      } catch (err) {
        failed.push(`${f}: not a decodable block: ${(err as Error).message}`);
      }
    }
    for (const f of failed) console.error(`ton-gateway import-blocks: skipped ${f}`);
    if (blocks.length > 0) {
      const store = await openStoreOrExplain(dataDir);
      try {
        const r = await importBlocks(store, blocks, { rewrite });
        const skipped = r.skipped ? ` (${r.skipped} already stored: skipped; --rewrite writes them again)` : '';
        console.log(`imported ${r.blocks} blocks, ${r.transactions} transactions into ${store.location}${skipped}`);
      } catch (err) {
        throw new CliError(firstLine(err));
      } finally {
        await store.close();
      }
    }
    if (failed.length > 0) throw new CliError(`${failed.length} of ${files.length} files skipped`);
    return 0;
  },
};
