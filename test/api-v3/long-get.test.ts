/**
 * Issue 21, hole 9: the documented maximum of a list parameter (1,000 values, e.g. addresses for addressBook) fits a GET (Node's
 * default 16 KiB header limit allowed about 210), and what Node refuses before routing (too long, malformed) is
 * answered in the project's envelope. A real socket: inject() bypasses Node's HTTP parser and its limits.
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildGateway } from '../../src/api/gateway.ts';
import { KeyStore } from '../../src/api/auth/index.ts';
import { MAX_HEADER_BYTES } from '../../src/api/server.ts';
import { openStore, type StoreClient } from '../../src/store/client/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'tg-long-get-'));
let store: StoreClient;
let app: FastifyInstance;
let port: number;
let logs = '';

/** `n` distinct raw masterchain addresses, the longest form a client sends (`-1%3A` + 64 hex once encoded). */
const addresses = (n: number) => Array.from({ length: n }, (_, i) => `-1:${i.toString(16).padStart(64, '0')}`);
const query = (list: string[]) => list.map((a) => `address=${encodeURIComponent(a)}`).join('&');

function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body }));
    });
    req.on('error', reject);
    req.end();
  });
}

function raw(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => s.write(text));
    let out = '';
    s.on('data', (d) => (out += d));
    s.on('close', () => resolve(out));
    s.on('error', reject);
  });
}

beforeAll(async () => {
  store = await openStore({ dataDir: dir });
  const stream = new Writable({
    write(chunk, _enc, cb) {
      logs += String(chunk);
      cb();
    },
  });
  app = await buildGateway({
    networks: [{ name: 'mainnet', testnet: false, services: { store } }],
    keys: new KeyStore({ anonymous: { rps: 1000 } }),
    logger: { level: 'trace', stream },
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  port = (app.server.address() as { port: number }).port;
});

afterAll(async () => {
  await app?.close();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('long GET requests', { timeout: 120_000 }, () => {
  it('addressBook with the maximum of 1,000 addresses, by GET', async () => {
    const list = addresses(1000);
    const path = `/api/v3/addressBook?${query(list)}`;
    expect(path.length).toBeGreaterThan(16 * 1024 * 4); // far over Node's default limit
    const r = await get(path);
    expect(r.status, r.body.slice(0, 200)).toBe(200);
    const book = JSON.parse(r.body) as Record<string, { user_friendly: string }>;
    expect(Object.keys(book).sort()).toEqual([...list].sort());
    expect(book[list[5]].user_friendly).toMatch(/^[A-Za-z0-9_-]{48}$/);
    // one over the maximum: the route's own 422, in the v3 envelope
    const over = await get(`/api/v3/addressBook?${query(addresses(1001))}`);
    expect(over.status).toBe(422);
    expect(JSON.parse(over.body)).toEqual({ code: 422, error: 'invalid address: at most 1000 values' });
  });

  it('beyond the limit: 431 in the envelope {ok, code, error}, not Fastify\'s shape, and the key is not logged', async () => {
    const list = addresses(2000);
    const r = await get(`/api/v3/addressBook?${query(list)}&api_key=secret-in-a-long-url`);
    expect(r.status).toBe(431);
    expect(r.type).toMatch(/^application\/json/);
    expect(JSON.parse(r.body)).toEqual({ ok: false, code: 431, error: `request line and headers exceed ${MAX_HEADER_BYTES} bytes` });
    const big = await get('/api/v3/addressBook?address=x', { 'x-junk': 'j'.repeat(MAX_HEADER_BYTES) });
    expect(big.status).toBe(431);
    expect(JSON.parse(big.body)).toMatchObject({ ok: false, code: 431 });
    expect(logs).not.toContain('secret-in-a-long-url');
  });

  it('malformed HTTP: 400 in the envelope', async () => {
    const out = await raw('GARBAGE / HTTP/9.9\r\n\r\n');
    expect(out).toMatch(/^HTTP\/1.1 400 Bad Request\r\n/);
    expect(JSON.parse(out.slice(out.indexOf('\r\n\r\n') + 4))).toEqual({ ok: false, code: 400, error: 'malformed HTTP request' });
  });
});
