import { existsSync, statSync } from 'node:fs';
import { CliError, intOption, type Command } from '../command.ts';
import { generateDevnet, type StatesMode } from '../../devnet/generate/index.ts';

export const devnetGenerateCommand: Command = {
  async run(argv) {
    let dir: string | undefined;
    let seed = '1';
    let blocks = 32;
    let bulk = 8;
    let fanout = 4;
    let states: StatesMode | undefined;
    let port: number | undefined;
    // the chain's clock starts now: its blocks carry current times (index lag reads true); --start-time fixes it
    let startTime = Math.floor(Date.now() / 1000);
    for (let i = 0; i < argv.length; i++) {
      const a = argv[i];
      if (a === '--seed') {
        const v = argv[++i];
        if (v === undefined || !/^[0-9A-Za-z_-]{1,64}$/.test(v)) throw new CliError('--seed needs a value (letters, digits, - or _)');
        seed = v;
      } else if (a === '--blocks') blocks = intOption('--blocks', argv[++i], 1, 1_000_000);
      else if (a === '--bulk') bulk = intOption('--bulk', argv[++i], 0, 10_000);
      else if (a === '--fanout') fanout = intOption('--fanout', argv[++i], 1, 4);
      else if (a === '--start-time') startTime = intOption('--start-time', argv[++i], 0, 0xffffffff - 10_000_000);
      else if (a === '--port') port = intOption('--port', argv[++i], 0, 65535);
      else if (a === '--states') {
        const v = argv[++i];
        if (v !== 'all' && v !== 'last' && v !== 'none') throw new CliError('--states must be all, last or none');
        states = v;
      } else if (a.startsWith('--')) throw new CliError(`unknown option "${a}" (see --help)`);
      else if (dir === undefined) dir = a;
      else throw new CliError(`unexpected argument "${a}" (see --help)`);
    }
    if (!dir) throw new CliError('give the directory to write the chain into (see --help)');
    if (existsSync(dir) && !statSync(dir).isDirectory()) throw new CliError(`${dir} exists and is not a directory`);
    const res = await generateDevnet(dir, { seed, blocks, bulkWallets: bulk, bulkFanout: fanout, states, port, startTime });
    const rate = res.elapsedMs > 0 ? (res.transactions / res.elapsedMs) * 1000 : 0;
    const cpuRate = res.cpuMs > 0 ? (res.transactions / res.cpuMs) * 1000 : 0;
    console.log(
      `wrote ${dir}: ${res.devnet.blocks.length} blocks (${blocks} masterchain), ${res.transactions} transactions, ` +
        `${res.devnet.inFlight().length} messages in flight at the tip; generation ${(res.elapsedMs / 1000).toFixed(1)} s wall ` +
        `(${rate.toFixed(0)} tx/s), ${(res.cpuMs / 1000).toFixed(1)} s CPU (${cpuRate.toFixed(0)} tx/s per CPU second)`,
    );
    return 0;
  },
};
