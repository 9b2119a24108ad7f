/** Shared setup: the API server over a real devnet liteserver (ADNL over TCP, ton-lite-client). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { LiteSingleEngine } from 'ton-lite-client';
import { buildServer } from '../../src/api/server.ts';
import { KeyStore, MemoryRateLimiter } from '../../src/api/auth/index.ts';
import { LiteNode, v2Group } from '../../src/api/v2/index.ts';
import { loadChainDir } from '../../src/devnet/chain/index.ts';
import { generateDevnet, type GenerateOptions, type GenerateResult } from '../../src/devnet/generate/index.ts';
import { readServerKeyFile, startLiteServer, type LiteServer } from '../../src/devnet/liteserver/index.ts';

export { FIX, ACTON, ACTON_IDS } from '../helpers/acton.ts';

export const b64 = (hex: string) => Buffer.from(hex, 'hex').toString('base64');

export async function connectEngine(port: number, publicKey: Buffer): Promise<LiteSingleEngine> {
  const engine = new LiteSingleEngine({ host: `tcp://127.0.0.1:${port}`, publicKey });
  await new Promise<void>((resolve, reject) => {
    engine.once('ready', () => resolve());
    engine.once('error', () => reject(new Error('lite engine error')));
  });
  return engine;
}

/** An API server whose one network ("testnet", the devnets are test networks) is served by `node`. */
export async function apiOver(node: LiteNode, opts: { testnet?: boolean } = {}): Promise<FastifyInstance> {
  const app = buildServer({
    networks: [{ name: 'devnet', testnet: opts.testnet ?? false, services: { node } }],
    keys: new KeyStore({ anonymous: { rps: 1_000_000 } }),
    limiter: new MemoryRateLimiter(),
    groups: [v2Group()],
  });
  await app.ready();
  return app;
}

export async function call(app: FastifyInstance, method: string, params: Record<string, unknown> = {}, verb: 'GET' | 'POST' = 'GET') {
  const res =
    verb === 'GET'
      ? await app.inject({ method: 'GET', url: `/api/v2/${method}`, query: Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])) })
      : await app.inject({ method: 'POST', url: `/api/v2/${method}`, payload: params });
  const body = res.json() as { ok: boolean; result?: unknown; error?: string; code?: number };
  return { status: res.statusCode, body, result: body.result as Record<string, unknown> & unknown[] & string };
}

/** A generated devnet in a temporary directory, served by a devnet liteserver, with API v2 over it. */
export interface DevnetV2 {
  dir: string;
  gen: GenerateResult;
  server: LiteServer;
  engine: LiteSingleEngine;
  app: FastifyInstance;
  close(): Promise<void>;
}

export async function devnetV2(prefix: string, opts: GenerateOptions): Promise<DevnetV2> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const gen = await generateDevnet(dir, opts);
  const server = await startLiteServer({ source: loadChainDir(dir), key: readServerKeyFile(dir)!, port: 0 });
  const engine = await connectEngine(server.port, server.publicKey);
  const app = await apiOver(LiteNode.fromEngine(engine, { timeoutMs: 10_000 }), { testnet: true });
  return {
    dir,
    gen,
    server,
    engine,
    app,
    async close() {
      await app.close();
      engine.close();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
