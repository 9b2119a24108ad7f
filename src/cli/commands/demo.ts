/**
 * `ton-gateway demo`: the whole product offline. Generates a devnet chain (real contracts in the TVM emulator),
 * serves it over ADNL from this process releasing one masterchain block at a time and, once those are out, making
 * new rounds of the same scenarios for as long as it runs, and runs `start` against it: indexing, traces, actions and
 * both APIs, with no network at all. A restart resumes the same chain (DIR/live/) and store.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CliError, intOption, type Command } from '../command.ts';
import { LiveDevnetDir, LiveDirError } from '../../devnet/live/index.ts';
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
    if (!existsSync(join(dir, 'chain.json'))) console.error(`demo: generating a devnet chain of ${blocks} masterchain blocks in ${dir} ...`);
    let liveDir: LiveDevnetDir;
    try {
      // the chain's clock runs at the release pace, from now: its blocks carry current times
      liveDir = await LiveDevnetDir.open(dir, { seed: 1, blocks, blockInterval: Math.max(1, Math.round(live / 1000)) });
    } catch (err) {
      // a store indexed from another chain would not match this one either: both go, or both are given anew
      if (err instanceof LiveDirError) throw new CliError(`${err.message}; remove the demo's store (${data}) with it`);
      throw err;
    }
    console.error(
      liveDir.fresh
        ? `demo: ${liveDir.round} blocks generated; released one every ${live} ms, then new ones made as they go`
        : `demo: resumed the devnet in ${dir} at masterchain block ${liveDir.tip} (${liveDir.round} made)`,
    );
    const { server } = await serveDevnetDir(dir, { port: 0, host: '127.0.0.1', chain: liveDir.chain });
    // the next block every `live` ms, for as long as the demo runs: made by the generator once the made ones are out
    const timer = setInterval(() => {
      liveDir.step().catch((err: Error) => console.error(`demo: the devnet could not make its next block: ${err.message}`));
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
      await liveDir.close().catch(() => undefined);
      await server.close();
    }
  },
};
