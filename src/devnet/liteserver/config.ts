/**
 * DIR/liteserver.json (global-config style) and DIR/liteserver.key.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BlockIdExt, ZeroStateId } from '../chain/index.ts';

export interface LiteServerJson {
  liteservers: { ip: number; port: number; id: { '@type': 'pub.ed25519'; key: string } }[];
  validator?: {
    '@type'?: string;
    zero_state?: { workchain: number; shard: string; seqno: number; root_hash: string; file_hash: string };
    init_block?: { workchain: number; shard: string; seqno: number; root_hash: string; file_hash: string };
  };
  [key: string]: unknown;
}

/** IPv4 dotted quad -> signed 32-bit integer, as global configs store it. */
export function ipToInt(ip: string): number {
  const parts = ip.split('.').map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) throw new Error(`not an IPv4 address: ${ip}`);
  return ((parts[0] << 24) | (parts[1] << 16) | (parts[2] << 8) | parts[3]) | 0;
}

export function intToIp(n: number): string {
  const u = n >>> 0;
  return [u >>> 24, (u >>> 16) & 255, (u >>> 8) & 255, u & 255].join('.');
}

/** Global-config block id; the shard is a signed 64-bit integer written as a bare JSON number, like TON's configs. */
function blockIdText(id: { workchain: number; shard?: bigint; seqno?: number; rootHash: Buffer; fileHash: Buffer }): string {
  const shard = BigInt.asIntN(64, id.shard ?? 0x8000000000000000n).toString();
  return `{"workchain": ${id.workchain}, "shard": ${shard}, "seqno": ${id.seqno ?? 0}, "root_hash": "${id.rootHash.toString('base64')}", "file_hash": "${id.fileHash.toString('base64')}"}`;
}

/**
 * Writes DIR/liteserver.json for one liteserver, or updates the "liteservers" entry of an existing one in
 * place (the rest of the file is kept byte for byte: its 64-bit shard numbers do not survive JSON.parse).
 */
export function writeLiteServerJson(
  dir: string,
  server: { host: string; port: number; publicKey: Buffer },
  chain?: { zeroState: ZeroStateId; initBlock?: BlockIdExt },
): string {
  const path = join(dir, 'liteserver.json');
  const entry = `[{"ip": ${ipToInt(server.host)}, "port": ${server.port}, "id": {"@type": "pub.ed25519", "key": "${server.publicKey.toString('base64')}"}}]`;
  if (existsSync(path)) {
    const text = readFileSync(path, 'utf8');
    const re = /"liteservers"\s*:\s*\[(?:[^[\]]|\[[^\]]*\])*\]/;
    if (re.test(text)) {
      const updated = text.replace(re, `"liteservers": ${entry}`);
      writeFileSync(path, updated);
      return updated;
    }
  }
  const validator = chain
    ? `,\n  "validator": {"@type": "validator.config.global", "zero_state": ${blockIdText({ ...chain.zeroState, seqno: 0 })}${chain.initBlock ? `, "init_block": ${blockIdText(chain.initBlock)}` : ''}}`
    : '';
  const text = `{\n  "@type": "config.global",\n  "network_name": "devnet",\n  "liteservers": ${entry}${validator}\n}\n`;
  writeFileSync(path, text);
  return text;
}

/** Reads DIR/liteserver.json (or a path to one): host, port and public key of each liteserver. */
export function readLiteServerJson(dirOrFile: string): { host: string; port: number; publicKey: Buffer }[] {
  const path = dirOrFile.endsWith('.json') ? dirOrFile : join(dirOrFile, 'liteserver.json');
  if (!existsSync(path)) throw new Error(`${path} not found`);
  let json: LiteServerJson;
  try {
    json = JSON.parse(readFileSync(path, 'utf8')) as LiteServerJson;
  } catch (err) {
    throw new Error(`${path}: not valid JSON (${(err as Error).message})`, { cause: err });
  }
  if (!Array.isArray(json.liteservers)) throw new Error(`${path}: no "liteservers" array`);
  return json.liteservers.map((l, i) => {
    const key = Buffer.from(l.id?.key ?? '', 'base64');
    if (key.length !== 32 || !Number.isInteger(l.port)) throw new Error(`${path}: liteservers[${i}] needs port and a 32-byte base64 id.key`);
    return { host: intToIp(l.ip), port: l.port, publicKey: key };
  });
}

/** DIR/liteserver.key: the ed25519 seed as hex. */
export function readServerKeyFile(dir: string): Buffer | undefined {
  const path = join(dir, 'liteserver.key');
  if (!existsSync(path)) return undefined;
  const hex = readFileSync(path, 'utf8').trim();
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new Error(`${path}: expected 64 hex digits (an ed25519 seed)`);
  return Buffer.from(hex, 'hex');
}

export function writeServerKeyFile(dir: string, seed: Buffer): void {
  writeFileSync(join(dir, 'liteserver.key'), seed.toString('hex') + '\n');
}
