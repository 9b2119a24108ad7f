/**
 * Liteserver lists from TON global-config files (`global.config.json` shape: `{liteservers: [{ip, port,
 * id: {"@type": "pub.ed25519", key}}]}`, ip a signed int32). Mainnet and testnet are bundled under
 * src/config/networks/; any other file (the devnet's liteserver.json) is read with `--config PATH`.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { packagePath } from '../util/package-root.ts';

export interface LiteserverEndpoint {
  /** "a.b.c.d:port" */
  host: string;
  /** ed25519 public key, 32 bytes. */
  publicKey: Buffer;
}

export type NetworkName = 'mainnet' | 'testnet';
export const NETWORKS: NetworkName[] = ['mainnet', 'testnet'];

export class NetworkConfigError extends Error {
  override name = 'NetworkConfigError';
}

const liteserverSchema = z.object({
  ip: z.number().int(),
  port: z.number().int().min(1).max(65535),
  id: z.object({ '@type': z.literal('pub.ed25519').optional(), key: z.string() }),
});
const globalConfigSchema = z.object({ liteservers: z.array(liteserverSchema).min(1) });

/** Signed int32 (as global configs store IPv4 addresses) -> dotted quad. */
export function intToIp(ip: number): string {
  const u = ip >>> 0;
  return [u >>> 24, (u >>> 16) & 255, (u >>> 8) & 255, u & 255].join('.');
}

/** Parses a global config's liteserver list; `what` names the file in errors. */
export function parseGlobalConfig(json: unknown, what: string): LiteserverEndpoint[] {
  const parsed = globalConfigSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new NetworkConfigError(`${what} is not a TON global config: ${issue.path.join('.') || '(root)'}: ${issue.message} (expected {"liteservers": [{"ip", "port", "id": {"key"}}]})`);
  }
  return parsed.data.liteservers.map((ls, i) => {
    const publicKey = Buffer.from(ls.id.key, 'base64');
    if (publicKey.length !== 32) throw new NetworkConfigError(`${what}: liteservers[${i}].id.key is not a base64 ed25519 key (32 bytes)`);
    return { host: `${intToIp(ls.ip)}:${ls.port}`, publicKey };
  });
}

export function bundledConfigPath(network: NetworkName): string {
  return packagePath('src', 'config', 'networks', `${network}.json`);
}

/** Reads `path`, or the bundled config of `network` when no path is given. */
export function loadLiteservers(opts: { network?: NetworkName; configPath?: string }): LiteserverEndpoint[] {
  const path = opts.configPath ?? bundledConfigPath(opts.network ?? 'mainnet');
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new NetworkConfigError(`cannot read config ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new NetworkConfigError(`config ${path} is not valid JSON: ${(err as Error).message}`);
  }
  return parseGlobalConfig(json, `config ${path}`);
}

export function parseNetwork(value: string): NetworkName {
  if ((NETWORKS as string[]).includes(value)) return value as NetworkName;
  throw new NetworkConfigError(`unknown network "${value}": expected ${NETWORKS.join(' or ')} (or --config PATH)`);
}
