// The Action renderer API v3 serves is the one the actions tests check: every action of the conformance traces,
// classified, stored as the traces stage stores it (actionRows) in a chdb store, and read back through
// /api/v3/actions, is what toApiAction renders for it.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionRows, classifyTrace, toApiAction, traceFromToncenterJson, type ActionRow } from '../../src/actions/index.ts';
import { KeyStore } from '../../src/api/auth/index.ts';
import { buildServer } from '../../src/api/server.ts';
import { v3Group } from '../../src/api/v3/index.ts';
import { hashToBase64 } from '../../src/format/index.ts';
import { openStore, type StoreClient } from '../../src/store/client/index.ts';
import { FIXTURES, get } from './helpers.ts';

let dir: string;
let store: StoreClient;
let app: FastifyInstance;
const actions: ActionRow[] = [];

beforeAll(async () => {
  const json = join(FIXTURES, 'traces/toncenter-indexer/json');
  for (const f of readdirSync(json).sort()) {
    actions.push(...classifyTrace(traceFromToncenterJson(JSON.parse(readFileSync(join(json, f), 'utf8')) as unknown)).actions);
  }
  dir = mkdtempSync(join(tmpdir(), 'tg-actions-render-'));
  store = await openStore({ dataDir: dir });
  const rows = actions.map(actionRows);
  await store.insertRows('actions', rows.map((r) => r.action));
  await store.insertRows('action_accounts', rows.flatMap((r) => r.accounts));
  app = buildServer({ networks: [{ name: 'mainnet', testnet: false, services: {} }], keys: new KeyStore({ anonymous: { rps: 1_000_000 } }), groups: [v3Group({ store, testnet: false })] });
  await app.ready();
}, 300_000);

afterAll(async () => {
  await app?.close();
  await store?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('one Action renderer', () => {
  it('every classified action, served by /api/v3/actions, is what toApiAction renders', async () => {
    expect(actions.length).toBeGreaterThan(100);
    const types = [...new Set(actions.map((a) => a.type))];
    expect(types.length).toBeGreaterThan(10);
    let compared = 0;
    for (let i = 0; i < actions.length; i += 50) {
      const page = actions.slice(i, i + 50);
      const q = new URLSearchParams({ include_accounts: 'true', limit: '1000' });
      for (const a of page) q.append('action_id', a.action_id);
      // every type as it is named, children of newer types included: the rows as stored
      for (const t of new Set(page.map((a) => a.type))) q.append('action_type', t);
      const r = await get(app, `/api/v3/actions?${q}`);
      expect(r.status).toBe(200);
      const served = new Map((r.body.actions as { action_id: string }[]).map((s) => [s.action_id, s]));
      for (const a of page) {
        const want = toApiAction(a, { includeAccounts: true });
        expect(served.get(hashToBase64(Buffer.from(a.action_id, 'base64').toString('hex'))), a.type).toEqual({ ...want, accounts: [...new Set(want.accounts)].sort() });
        compared++;
      }
    }
    expect(compared).toBe(actions.length);
  });
});
