/**
 * `ton-gateway demo`: the whole product offline. Generates a devnet chain (real contracts in the TVM emulator)
 * once, serves it over ADNL from this process releasing one masterchain block at a time, and runs `start`
 * against it: indexing, traces, actions and both APIs, with no network at all.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CliError, intOption, type Command } from '../command.ts';
import { generateDevnet } from '../../devnet/generate/index.ts';
import { serveDevnetDir } from '../../devnet/liteserver/index.ts';
import { startCommand } from './start.ts';

/**
 * The demo serves one local user: the anonymous limit of a public gateway (1 request/s) would only get in the way,
 * and so would HTTP workers (one process serves it).
 */
const DEMO_KEYS = { anonymous: { rps: 100 } };

export const demoCommand: Command = {
  async run(argv) {
    let dir = join('data', 'devnet');
    let blocks = 48;
    let live = 2000;
    let port = '8080';
    let data = join('data', 'demo-store');
    for (let i = 0; i < argv.length; i++) {
      const a = argv[i];
      if (a === '--dir') dir = argv[++i] ?? '';
      else if (a === '--blocks') blocks = intOption('--blocks', argv[++i], 4, 100_000);
      else if (a === '--live') live = intOption('--live', argv[++i], 1, 3_600_000);
      else if (a === '--port') port = String(intOption('--port', argv[++i], 0, 65535));
      else if (a === '--data') data = argv[++i] ?? '';
      else throw new CliError(`unknown option "${a}" (see --help)`);
    }
    if (!dir || !data) throw new CliError('--dir and --data need a directory');
    if (!existsSync(join(dir, 'chain.json'))) {
      console.error(`demo: generating a devnet chain of ${blocks} masterchain blocks in ${dir} ...`);
      const r = await generateDevnet(dir, { seed: 1, blocks });
      console.error(`demo: ${r.blocks} blocks, ${r.transactions} transactions`);
    }
    const { server, chain } = await serveDevnetDir(dir, { port: 0, host: '127.0.0.1', startAtFirst: true });
    const timer = setInterval(() => {
      if (!chain.release()) clearInterval(timer);
    }, live);
    console.error(`demo: devnet liteserver on 127.0.0.1:${server.port}, one masterchain block every ${live} ms`);
    console.error(`demo: API at http://localhost:${port}/api/v3/ (docs), http://localhost:${port}/api/v2/getMasterchainInfo`);
    try {
      // A fresh store starts at the devnet's first block; an existing one resumes from its checkpoint.
      const from = existsSync(data) ? [] : ['--from-seqno', '1'];
      mkdirSync(data, { recursive: true });
      const keys = join(data, 'demo-keys.json');
      writeFileSync(keys, JSON.stringify(DEMO_KEYS));
      return await startCommand.run(['--config', join(dir, 'liteserver.json'), ...from, '--data', data, '--port', port, '--keys', keys, '--api-workers', '1']);
    } finally {
      clearInterval(timer);
      await server.close();
    }
  },
};
