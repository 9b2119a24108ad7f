import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CliError, intOption, type Command } from '../command.ts';
import { ChainLoadError } from '../../devnet/chain/index.ts';
import { serveDevnetDir } from '../../devnet/liteserver/index.ts';
import { LiveDevnetDir } from '../../devnet/live/index.ts';

/** The port DIR/liteserver.json names, if any (so clients configured from it keep working). */
function configuredPort(dir: string): number | undefined {
  const path = join(dir, 'liteserver.json');
  if (!existsSync(path)) return undefined;
  const m = /"port"\s*:\s*(\d+)/.exec(readFileSync(path, 'utf8'));
  return m ? Number(m[1]) : undefined;
}

/** A directory `--live` grows: none yet, or one whose chain.json has a live generator's parameters. */
function isLiveDir(dir: string): boolean {
  const path = join(dir, 'chain.json');
  if (!existsSync(path)) return true;
  return (JSON.parse(readFileSync(path, 'utf8')) as { live?: unknown }).live !== undefined;
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
    // --live on a live directory (made by `demo` or by this command), or on a new one: the generator goes on round
    // after round and includes the messages sent to the liteserver (what the gateway's emulated traces are compared
    // with); on a directory of `devnet generate`, its recorded blocks are released and messages refused, as before
    let liveDir: LiveDevnetDir | undefined;
    if (live !== undefined && isLiveDir(dir)) {
      if (!existsSync(join(dir, 'chain.json'))) console.error(`devnet serve: generating a live devnet chain in ${dir} ...`);
      liveDir = await LiveDevnetDir.open(dir, { seed: 1, blockInterval: Math.max(1, Math.round(live / 1000)) });
    }
    let served;
    try {
      served = await serveDevnetDir(dir, { port: wanted, host, startAtFirst: live !== undefined, seed, chain: liveDir?.chain });
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
    const timer = liveDir
      ? setInterval(() => {
          liveDir.step().catch((err: Error) => console.error(`devnet serve: the devnet could not make its next block: ${err.message}`));
        }, live)
      : live
        ? setInterval(() => {
            if (!chain.release()) clearInterval(timer);
          }, live)
        : undefined;
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    if (timer) clearInterval(timer);
    await liveDir?.close().catch(() => undefined);
    await server.close();
    return 0;
  },
};
