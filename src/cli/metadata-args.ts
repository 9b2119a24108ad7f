/**
 * `--metadata-fetch` and its options, shared by `start`, `index` and `serve`: the off-chain metadata fetcher
 * (src/metadata) is off unless asked for, by flag or environment.
 */
import type pino from 'pino';
import { MetadataFetcher } from '../metadata/index.ts';
import type { StoreClient } from '../store/client/index.ts';
import { CliError, optionValue } from './command.ts';

export interface MetadataArgs {
  enabled: boolean;
  ipfsGateway?: string;
  hostRps?: number;
}

const TRUE = new Set(['1', 'true', 'yes', 'on']);

function rps(v: string, from: string): number {
  const n = Number(v);
  if (!/^\d+(\.\d+)?$/.test(v) || !(n > 0) || n > 1000) throw new CliError(`${from} must be a number of requests per second in (0, 1000], got "${v}"`);
  return n;
}

function gateway(v: string, from: string): string {
  if (!/^https?:\/\/[^/]/.test(v)) throw new CliError(`${from} must be an http(s) URL, got "${v}"`);
  return v;
}

/** Takes the metadata options out of `argv` (the rest goes to the command's own parser); env gives defaults. */
export function takeMetadataArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): { metadata: MetadataArgs; rest: string[] } {
  const metadata: MetadataArgs = { enabled: TRUE.has((env.TON_GATEWAY_METADATA_FETCH ?? '').trim().toLowerCase()) };
  if (env.TON_GATEWAY_IPFS_GATEWAY) metadata.ipfsGateway = gateway(env.TON_GATEWAY_IPFS_GATEWAY, 'TON_GATEWAY_IPFS_GATEWAY');
  if (env.TON_GATEWAY_METADATA_RPS) metadata.hostRps = rps(env.TON_GATEWAY_METADATA_RPS, 'TON_GATEWAY_METADATA_RPS');
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => optionValue(a, argv[++i]);
    if (a === '--metadata-fetch') metadata.enabled = true;
    else if (a === '--metadata-ipfs-gateway') metadata.ipfsGateway = gateway(val(), a);
    else if (a === '--metadata-rps') metadata.hostRps = rps(val(), a);
    else rest.push(a);
  }
  return { metadata, rest };
}

/** Starts the fetcher on `store` when enabled; returns its stop function (a no-op otherwise). */
export function startMetadataFetcher(store: StoreClient, args: MetadataArgs, log: pino.Logger): () => Promise<void> {
  if (!args.enabled) return async () => undefined;
  const f = new MetadataFetcher(store, { ipfsGateway: args.ipfsGateway, hostRps: args.hostRps, logger: log.child({ component: 'metadata' }) });
  f.start();
  log.info({ ipfsGateway: args.ipfsGateway ?? 'https://ipfs.io', hostRps: args.hostRps ?? 1 }, 'metadata fetcher on');
  return () => f.stop();
}
