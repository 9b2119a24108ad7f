import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CliError, intOption, type Command } from '../command.ts';
import { ChainLoadError } from '../../devnet/chain/index.ts';
import { serveDevnetDir } from '../../devnet/liteserver/index.ts';

/** The port DIR/liteserver.json names, if any (so clients configured from it keep working). */
function configuredPort(dir: string): number | undefined {
  const path = join(dir, 'liteserver.json');
  if (!existsSync(path)) return undefined;
  const m = /"port"\s*:\s*(\d+)/.exec(readFileSync(path, 'utf8'));
  return m ? Number(m[1]) : undefined;
}

export const devnetServeCommand: Command = {
  async run(argv) {
    let dir: string | undefined;
    let port: number | undefined;
    let host = '127.0.0.1';
    let live: number | undefined;
    let seed = 'devnet';
    for (let i = 0; i < argv.length; i++) {
      const a = argv[i];
      if (a === '--port') port = intOption('--port', argv[++i], 0, 65535);
      else if (a === '--live') live = intOption('--live', argv[++i], 1, 3_600_000);
      else if (a === '--host') {
        const v = argv[++i];
        if (!v || !/^\d{1,3}(\.\d{1,3}){3}$/.test(v)) throw new CliError('--host needs an IPv4 address, e.g. 127.0.0.1');
        host = v;
      } else if (a === '--seed') {
        const v = argv[++i];
        if (v === undefined) throw new CliError('--seed needs a value');
        seed = v;
      } else if (a.startsWith('--')) throw new CliError(`unknown option "${a}" (see --help)`);
      else if (dir === undefined) dir = a;
      else throw new CliError(`unexpected argument "${a}" (see --help)`);
    }
    if (!dir) throw new CliError('give the devnet directory (see --help)');
    const wanted = port ?? configuredPort(dir) ?? 0;
    let served;
    try {
      served = await serveDevnetDir(dir, { port: wanted, host, startAtFirst: live !== undefined, seed });
    } catch (err) {
      if (err instanceof ChainLoadError) throw new CliError(err.message);
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE') throw new CliError(`port ${wanted} on ${host} is in use (pass --port 0 for any free port)`);
      if (code === 'EADDRNOTAVAIL') throw new CliError(`cannot listen on ${host}: no such local address`);
      if (/liteserver\.key/.test((err as Error).message)) throw new CliError((err as Error).message);
      throw err;
    }
    const { server, chain } = served;
    const tip = chain.lastMasterchain();
    const first = chain.allBlocks().find((b) => b.id.workchain === -1);
    console.log(
      `liteserver listening on ${server.host}:${server.port} key ${server.publicKey.toString('base64')} ` +
        `serving ${dir} (masterchain ${first?.id.seqno}..${live ? chain.masterchainLength : tip.id.seqno}` +
        `${live ? `, releasing one every ${live} ms from ${tip.id.seqno}` : ''}); config in ${join(dir, 'liteserver.json')}`,
    );
    const timer = live
      ? setInterval(() => {
          if (!chain.release()) clearInterval(timer);
        }, live)
      : undefined;
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    if (timer) clearInterval(timer);
    await server.close();
    return 0;
  },
};
