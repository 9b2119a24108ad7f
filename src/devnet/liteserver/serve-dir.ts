/**
 * One call for tests and the CLI: load a devnet directory, start the liteserver on it, and write the
 * actual port into DIR/liteserver.json.
 */
import { loadChainDir, type MemoryChain } from '../chain/index.ts';
import { readServerKeyFile, writeLiteServerJson, writeServerKeyFile } from './config.ts';
import { seedFromText } from './keys.ts';
import { startLiteServer, type LiteServer } from './server.ts';

export interface ServeDirOptions {
  port?: number;
  host?: string;
  /** Start with only the first masterchain block visible (release more with chain.release()). */
  startAtFirst?: boolean;
  /** Text seed for the key when DIR/liteserver.key is missing (the derived key is written there). */
  seed?: string;
  /** Serve this chain (a live devnet's, loaded from DIR) instead of loading DIR. */
  chain?: MemoryChain;
}

export async function serveDevnetDir(dir: string, opts: ServeDirOptions = {}): Promise<{ server: LiteServer; chain: MemoryChain }> {
  const chain = opts.chain ?? loadChainDir(dir, opts.startAtFirst ? { visibleMc: 1 } : {});
  let key = readServerKeyFile(dir);
  if (!key) {
    key = seedFromText(opts.seed ?? 'devnet');
    writeServerKeyFile(dir, key);
  }
  const server = await startLiteServer({ source: chain, key, port: opts.port ?? 0, host: opts.host });
  const first = chain.allBlocks().find((b) => b.id.workchain === -1);
  writeLiteServerJson(dir, server, { zeroState: chain.zeroState, initBlock: first?.id });
  return { server, chain };
}
