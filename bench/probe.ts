/**
 * The issue 21 probe (npm run bench:probe): the whole gateway on a generated devnet, attacked as a client would.
 * Prints the figures the issue asks for; asserts nothing (the tests do).
 *
 * - Malformed requests: every API v3 route of the OpenAPI document and every API v2 method, each parameter given
 *   each bad value below (and unknown / prototype parameter names, bad bodies, bad jsonRPC), GET and POST. Counts
 *   the answers by status; any 5xx is listed.
 * - Limit bypasses: requests past a 2 rps limit that should have been refused (spoofed X-Forwarded-For behind a
 *   trusted proxy, one key on two networks, unknown keys, jsonRPC batches).
 * - Read-only escapes: `sql` payloads that wrote, read a file, or ran a second statement.
 *
 * Env: PROBE_BLOCKS (devnet masterchain blocks, default 8).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { runIndexer } from '../pipelines/index.ts';
import { ALL_METHODS, buildGateway, buildServer, hashApiKey, KeyStore, LiteNode, MemoryRateLimiter, v2Group } from '../src/api/index.ts';
import { MemoryBus } from '../src/bus/index.ts';
import { loadChainDir } from '../src/devnet/chain/index.ts';
import { generateDevnet } from '../src/devnet/generate/index.ts';
import { startLiteServer } from '../src/devnet/liteserver/index.ts';
import { LiteserverPool } from '../src/source/index.ts';
import { openStore, type StoreClient } from '../src/store/client/index.ts';
import { runReadOnlySql } from '../src/store/read/index.ts';

const BAD_VALUES = [
  '', ' ', 'x', '%00', '-1', '0', '1.5', 'NaN', '1e999', '99999999999999999999999999', '4294967297', '-9223372036854775809',
  'true', '[]', '{}', 'null', '0:zz', '-1:' + 'f'.repeat(64), 'EQ' + 'A'.repeat(46), 'a'.repeat(5000), '%F0%9F%92%A9',
  "'%3B DROP TABLE blocks%3B --", '%27%22%5C', '..%2F..%2Fetc%2Fpasswd', 'te6ccgAA', 'te6cckEBAQEAAgAAAEysuc0=',
];
const BAD_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'unknown_param', 'limit[]'];

interface Tally {
  total: number;
  byStatus: Map<number, number>;
  fivexx: string[];
}

async function send(app: FastifyInstance, tally: Tally, method: 'GET' | 'POST', url: string, payload?: unknown, headers?: Record<string, string>): Promise<void> {
  const r = await app.inject({ method, url: url.replace(/ /g, '%20'), payload: payload as never, headers });
  tally.total++;
  tally.byStatus.set(r.statusCode, (tally.byStatus.get(r.statusCode) ?? 0) + 1);
  if (r.statusCode >= 500 && tally.fivexx.length < 40) {
    tally.fivexx.push(`${r.statusCode} ${method} ${url.slice(0, 160)} ${payload ? JSON.stringify(payload).slice(0, 80) : ''} -> ${r.body.slice(0, 120)}`);
  }
}

function decoded(v: string): string {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}

async function malformed(app: FastifyInstance): Promise<Tally> {
  const tally: Tally = { total: 0, byStatus: new Map(), fivexx: [] };
  const doc = (await app.inject({ method: 'GET', url: '/api/v3/openapi.json' })).json() as { paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>> };
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [verb, op] of Object.entries(ops)) {
      const url = path.startsWith('/api/v3') ? path : `/api/v3${path}`;
      const names = (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
      const method = verb.toUpperCase() === 'POST' ? 'POST' : 'GET';
      for (const name of [...names, ...BAD_NAMES]) {
        for (const v of BAD_VALUES) {
          if (method === 'GET') await send(app, tally, 'GET', `${url}?${name}=${v}`);
          else await send(app, tally, 'POST', url, { [name]: decoded(v) });
        }
        if (method === 'GET') await send(app, tally, 'GET', `${url}?${name}=1&${name}=2`);
      }
      if (method === 'POST') for (const body of ['{', '[]', 'null', '"x"', '{"a":' + '['.repeat(2000) + ']'.repeat(2000) + '}']) await send(app, tally, 'POST', url, body, { 'content-type': 'application/json' });
    }
  }
  for (const m of ALL_METHODS) {
    const shape = (m.params as unknown as { shape?: Record<string, unknown> }).shape ?? {};
    for (const name of [...Object.keys(shape), ...BAD_NAMES]) {
      for (const v of BAD_VALUES) {
        if (!m.post_only) await send(app, tally, 'GET', `/api/v2/${m.name}?${name}=${v}`);
        await send(app, tally, 'POST', `/api/v2/${m.name}`, { [name]: decoded(v) });
        await send(app, tally, 'POST', '/api/v2/jsonRPC', { jsonrpc: '2.0', id: 1, method: m.name, params: { [name]: decoded(v) } });
      }
    }
    for (const body of ['{', '[]', 'null', '7', '{"a":' + '['.repeat(2000) + ']'.repeat(2000) + '}']) await send(app, tally, 'POST', `/api/v2/${m.name}`, body, { 'content-type': 'application/json' });
  }
  for (const body of ['{', '[]', '[1,2]', '[null]', 'null', '{"method":"__proto__"}', '{"method":"constructor","params":{}}', JSON.stringify(Array(101).fill({ method: 'detectHash' }))]) {
    await send(app, tally, 'POST', '/api/v2/jsonRPC', body, { 'content-type': 'application/json' });
  }
  return tally;
}

/** Requests past a 2 rps limit that got through (each scenario at one instant of a frozen clock). */
async function bypasses(): Promise<Record<string, { sent: number; passed: number; allowed: number }>> {
  const keys = new KeyStore({ anonymous: { rps: 2 }, plans: { p: { rps: 2 } }, keys: [{ sha256: hashApiKey('probe-key'), plan: 'p' }] });
  const now = 1_000_000;
  const app = buildServer({
    networks: [
      { name: 'mainnet', testnet: false, services: {} },
      { name: 'testnet', testnet: true, services: {} },
    ],
    keys,
    limiter: new MemoryRateLimiter(() => now),
    groups: [v2Group()],
    trustProxy: ['127.0.0.1'],
  });
  const url = `/api/v2/detectHash?hash=${'ab'.repeat(32)}`;
  type Req = { method: 'GET' | 'POST'; url: string; remoteAddress?: string; headers?: Record<string, string>; payload?: unknown };
  const run = async (n: number, f: (i: number) => Req) => {
    let passed = 0;
    for (let i = 0; i < n; i++) if ((await app.inject(f(i) as never)).statusCode === 200) passed++;
    return passed;
  };
  const out: Record<string, { sent: number; passed: number; allowed: number }> = {};
  out.spoofedXForwardedFor = { sent: 200, allowed: 2, passed: await run(200, (i) => ({ method: 'GET', url, remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': `198.51.100.${i % 250}, 203.0.113.7` } })) };
  out.keyOnTwoNetworks = { sent: 200, allowed: 2, passed: await run(200, (i) => ({ method: 'GET', url: `${i % 2 ? '/testnet' : ''}${url}`, headers: { 'x-api-key': 'probe-key' } })) };
  // unknown keys: a 401 is an answer the limit should have refused past the anonymous rate
  let answered401 = 0;
  for (let i = 0; i < 200; i++) if ((await app.inject({ method: 'GET', url, remoteAddress: '10.5.5.5', headers: { 'x-api-key': `guess-${i}` } })).statusCode === 401) answered401++;
  out.unknownKeys = { sent: 200, allowed: 2, passed: answered401 };
  const batch = Array.from({ length: 10 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'detectHash', params: { hash: 'ab'.repeat(32) } }));
  // a batch of 10 at 2 rps: the first is admitted (a full bucket), the debt refuses the rest of the second
  out.batchCalls = { sent: 200, allowed: 10, passed: 10 * (await run(20, () => ({ method: 'POST', url: '/api/v2/jsonRPC', payload: batch, remoteAddress: '10.6.6.6' }))) };
  await app.close();
  return out;
}

const SQL_PAYLOADS = [
  "SELECT $$'$$; DROP TABLE blocks; SELECT $$'$$",
  'SELECT 1; DROP TABLE blocks',
  "SELECT 1 INTO OUTFILE '/tmp/tg-probe-outfile'",
  "SELECT file('/etc/hostname')",
  "SELECT * FROM file('/etc/hostname', 'LineAsString')",
  "SELECT * FROM url('http://127.0.0.1:9/', 'LineAsString')",
  "SELECT * FROM remote('127.0.0.1:9', system.one)",
  "SELECT * FROM s3('http://127.0.0.1:9/b/x.csv', 'LineAsString')",
  "SELECT * FROM executable('ls', 'LineAsString', 'x String')",
  'SELECT 1 SETTINGS readonly = 0',
  "WITH 1 AS x SELECT x; INSERT INTO checkpoints (name, mc_seqno) VALUES ('x', 1)",
  'KILL QUERY WHERE 1',
  '/* */ DROP TABLE blocks',
];

async function escapes(store: StoreClient): Promise<{ tried: number; escaped: string[] }> {
  const escaped: string[] = [];
  for (const q of SQL_PAYLOADS) {
    const ok = await runReadOnlySql(store, q, 'CSV').then(
      () => true,
      () => false,
    );
    if (ok) escaped.push(q);
  }
  const [{ n }] = await store.query<{ n: string }>("SELECT count() AS n FROM system.tables WHERE database = currentDatabase() AND name = 'blocks'");
  if (n !== '1') escaped.push('(the blocks table is gone)');
  if (existsSync('/tmp/tg-probe-outfile')) escaped.push('(INTO OUTFILE wrote /tmp/tg-probe-outfile)');
  return { tried: SQL_PAYLOADS.length, escaped };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'tg-probe-'));
  const data = mkdtempSync(join(tmpdir(), 'tg-probe-data-'));
  const ls = await (async () => {
    await generateDevnet(dir, { blocks: Number(process.env.PROBE_BLOCKS ?? 8), bulkWallets: 2, bulkFanout: 2, states: 'last', seed: 5 });
    return startLiteServer({ source: loadChainDir(dir), key: Buffer.alloc(32, 5), host: '127.0.0.1' });
  })();
  const store = await openStore({ dataDir: data });
  const pool = new LiteserverPool([{ host: `127.0.0.1:${ls.port}`, publicKey: ls.publicKey }], { timeoutMs: 5000 });
  try {
    await pool.start();
    const tip = Math.max(...(JSON.parse(readFileSync(join(dir, 'chain.json'), 'utf8')) as { blocks: { workchain: number; seqno: number }[] }).blocks.filter((b) => b.workchain === -1).map((b) => b.seqno));
    const bus = new MemoryBus();
    const h = await runIndexer({ bus, source: pool, store, fromSeqno: 1, untilSeqno: tip });
    await h.done;
    await h.stop();
    await bus.close();
    const app = await buildGateway({
      networks: [{ name: 'mainnet', testnet: true, services: { node: LiteNode.fromPool(pool, { timeoutMs: 5000 }), store } }],
      keys: new KeyStore({ anonymous: { rps: 1e9 } }),
    });
    const t0 = performance.now();
    const m = await malformed(app);
    await app.close();
    console.log(`malformed requests: ${m.total} in ${Math.round((performance.now() - t0) / 1000)} s; by status ${JSON.stringify(Object.fromEntries([...m.byStatus].sort((a, b) => a[0] - b[0])))}`);
    const fivexx = [...m.byStatus].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0);
    console.log(`5xx: ${fivexx}${m.fivexx.length ? '\n  ' + m.fivexx.join('\n  ') : ''}`);
    const b = await bypasses();
    for (const [k, v] of Object.entries(b)) console.log(`limit ${k}: ${v.passed} of ${v.sent} passed (allowed ${v.allowed}; bypasses ${Math.max(0, v.passed - v.allowed)})`);
    const e = await escapes(store);
    console.log(`read-only escapes: ${e.escaped.length} of ${e.tried} payloads${e.escaped.length ? ': ' + e.escaped.join(' | ') : ''}`);
  } finally {
    await pool.close();
    await store.close();
    await ls.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(data, { recursive: true, force: true });
  }
}

await main();
