/**
 * Liteserver lists from TON global-config files (`global.config.json` shape: `{liteservers: [{ip, port,
 * id: {"@type": "pub.ed25519", key}}]}`, ip a signed int32). Mainnet and testnet are bundled under
 * src/config/networks/; any other file (the devnet's liteserver.json) is read with `--config PATH`.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { packagePath } from '../util/index.ts';
import { MASTER_SHARD, type BlockIdExt } from './block-id.ts';

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
  const { path, json } = readConfig(opts);
  return parseGlobalConfig(json, `config ${path}`);
}

const configBlockSchema = z.object({
  workchain: z.number().int(),
  seqno: z.number().int().min(0).max(0xffffffff),
  root_hash: z.string(),
  file_hash: z.string(),
});
const validatorSchema = z.object({ validator: z.object({ zero_state: configBlockSchema.optional(), init_block: configBlockSchema.optional() }).optional() });

/**
 * The root of trust of a network config: `validator.init_block` (a key block the config's authors vouch for), else
 * `validator.zero_state`. Ingest proves every masterchain block from it (src/source/trust.ts).
 */
export function parseTrustAnchor(json: unknown, what: string): BlockIdExt {
  const parsed = validatorSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new NetworkConfigError(`${what}: ${issue.path.join('.')}: ${issue.message} (expected "validator": {"init_block" | "zero_state": {"workchain", "seqno", "root_hash", "file_hash"}})`);
  }
  const v = parsed.data.validator;
  const block = v?.init_block ?? v?.zero_state;
  const field = v?.init_block ? 'validator.init_block' : 'validator.zero_state';
  if (!block) throw new NetworkConfigError(`${what} names no validator.init_block or validator.zero_state: ingest has no root to verify the chain from`);
  if (block.workchain !== -1) throw new NetworkConfigError(`${what}: ${field} is not a masterchain block (workchain ${block.workchain})`);
  const hash = (b64: string, name: string) => {
    const buf = Buffer.from(b64, 'base64');
    if (buf.length !== 32) throw new NetworkConfigError(`${what}: ${field}.${name} is not a base64 256-bit hash`);
    return buf.toString('hex');
  };
  // the shard of a masterchain block is always the whole chain (the JSON number is not exact in JS anyway)
  return { workchain: -1, shard: MASTER_SHARD, seqno: block.seqno, rootHash: hash(block.root_hash, 'root_hash'), fileHash: hash(block.file_hash, 'file_hash') };
}

/** The trust anchor of `path`, or of the bundled config of `network`. */
export function loadTrustAnchor(opts: { network?: NetworkName; configPath?: string }): BlockIdExt {
  const { path, json } = readConfig(opts);
  return parseTrustAnchor(json, `config ${path}`);
}

function readConfig(opts: { network?: NetworkName; configPath?: string }): { path: string; json: unknown } {
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
  return { path, json };
}

const NAME_RE = /^[a-z0-9][a-z0-9_-]{0,31}$/;

/** validator.zero_state.root_hash of a config (base64 as written), if it names one. */
function zeroStateRootOf(json: unknown): string | undefined {
  const parsed = validatorSchema.safeParse(json);
  return parsed.success ? parsed.data.validator?.zero_state?.root_hash : undefined;
}

/**
 * What the network a config follows is called (/healthcheck, key plans' `networks`): without a config path the
 * `--network` name; with one, `mainnet` / `testnet` when its zero state is that network's, else the config's own
 * top-level `network_name` (devnet directories write `"devnet"`), else `custom`. A devnet is never called mainnet.
 */
export function networkNameOf(opts: { network?: NetworkName; configPath?: string }): string {
  if (!opts.configPath) return opts.network ?? 'mainnet';
  const { path, json } = readConfig(opts);
  const root = zeroStateRootOf(json);
  if (root !== undefined) {
    for (const n of NETWORKS) if (zeroStateRootOf(readConfig({ network: n }).json) === root) return n;
  }
  const named = (json as { network_name?: unknown } | null)?.network_name;
  if (named === undefined) return 'custom';
  if (typeof named !== 'string' || !NAME_RE.test(named) || (NETWORKS as string[]).includes(named)) {
    throw new NetworkConfigError(`config ${path}: network_name must be a lower-case name (a-z, 0-9, _ and -, up to 32) other than ${NETWORKS.join(' and ')}, got ${JSON.stringify(named)}`);
  }
  return named;
}

export function parseNetwork(value: string): NetworkName {
  if ((NETWORKS as string[]).includes(value)) return value as NetworkName;
  throw new NetworkConfigError(`unknown network "${value}": expected ${NETWORKS.join(' or ')} (or --config PATH)`);
}
