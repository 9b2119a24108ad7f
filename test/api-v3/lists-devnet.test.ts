// The lists of /actions and /traces by account (issue 30): served from the key-value store's lists (src/kv/lists.ts)
// they answer exactly as the statements over ClickHouse's tables do, on a devnet chain indexed by the whole pipeline
// (traces stage, checkpoint): both sorts, lt windows, limit / offset, the actions cursor, type filters, accounts,
// transactions and actions included. What the lists do not serve (utime windows, other filters) falls back to the
// statements and answers the same too.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDevnet } from '../../src/devnet/generate/index.ts';
import { LISTS_MARK } from '../../src/kv/index.ts';
import type { LiteServer } from '../../src/devnet/liteserver/index.ts';
import { openStore, type StoreClient } from '../../src/store/client/index.ts';
import { indexDevnetDir } from '../helpers/devnet-index.ts';
import { recordQueries } from '../helpers/store.ts';
import { get, v3App } from './helpers.ts';

type Row = Record<string, unknown>;

describe('/actions and /traces by account: the key-value lists and the statements on a devnet chain', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tg-lists-devnet-'));
  let ls: LiteServer | undefined;
  let store: StoreClient;
  let kvApp: FastifyInstance;
  let tablesApp: FastifyInstance;
  let busy: { account: string; actions: number; traces: number; mid: string; types: string[] }[];

  beforeAll(async () => {
    await generateDevnet(join(dir, 'chain'), { blocks: 24, bulkWallets: 2, bulkFanout: 2, states: 'last', seed: 30 });
    const chain = JSON.parse(readFileSync(join(dir, 'chain', 'chain.json'), 'utf8')) as { blocks: { workchain: number; seqno: number }[] };
    const tip = Math.max(...chain.blocks.filter((b) => b.workchain === -1).map((b) => b.seqno));
    // both: the key-value store and ClickHouse's own point-read tables are written, so each app reads its own
    store = await openStore({ dataDir: join(dir, 'store'), pointReads: 'both' });
    ls = await indexDevnetDir(join(dir, 'chain'), store, { until: tip, key: 30 });
    kvApp = await v3App(store, 'kv');
    tablesApp = await v3App(store, 'tables');
    const rows = await store.query<{ account: string; actions: string; traces: string; mid: string; types: string[] }>(
      `SELECT aa.account AS account, uniqExact(aa.action_id) AS actions, uniqExact(aa.trace_id) AS traces,
              toString(quantileExact(0.5)(aa.trace_end_lt)) AS mid, groupUniqArray(a.type) AS types
       FROM action_accounts AS aa FINAL JOIN actions AS a FINAL ON a.action_id = aa.action_id
       GROUP BY account ORDER BY actions DESC, account LIMIT 5`,
    );
    busy = rows.map((r) => ({ ...r, actions: Number(r.actions), traces: Number(r.traces), types: [...r.types].sort() }));
  }, 600_000);
  afterAll(async () => {
    await kvApp?.close();
    await tablesApp?.close();
    await store?.close();
    await ls?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** `u` from both apps: the same status and body; `served`: the key-value app asked the engine nothing. */
  async function same(u: string, served: boolean): Promise<Row> {
    const rec = recordQueries(store);
    let kv;
    try {
      kv = await get(kvApp, u);
    } finally {
      rec.restore();
    }
    const tables = await get(tablesApp, u);
    expect(kv.status, u).toBe(200);
    expect(kv.body, u).toEqual(tables.body);
    if (served) expect(rec.sql, u).toEqual([]);
    else expect(rec.sql.length, u).toBeGreaterThan(0);
    return kv.body;
  }

  it('the chain has accounts with many actions and traces, of several types', () => {
    expect(busy.length).toBe(5);
    expect(busy[0].actions).toBeGreaterThan(10);
    expect(busy[0].traces).toBeGreaterThan(5);
    expect(new Set(busy.flatMap((b) => b.types)).size).toBeGreaterThan(2);
  });

  it('/actions by account: sorts, lt windows, paging, type filters, accounts and transactions', async () => {
    let nonEmpty = 0;
    for (const { account, mid, types } of busy) {
      const a = `/api/v3/actions?account=${encodeURIComponent(account)}`;
      const t = types[0];
      const queries = [
        'limit=1000',
        'limit=1000&sort=asc',
        'limit=3&offset=2',
        'limit=2&offset=1&sort=asc',
        `start_lt=${mid}&limit=1000`,
        `end_lt=${mid}&sort=asc&limit=1000`,
        `start_lt=${mid}&end_lt=${mid}`,
        `action_type=${t}&limit=1000`,
        `exclude_action_type=${t}&limit=1000&sort=asc`,
        'supported_action_types=v1&limit=1000',
        'include_accounts=true&limit=20',
        'include_transactions=true&limit=5&sort=asc',
        'limit=1000&offset=1000',
      ];
      for (const q of queries) {
        const body = await same(`${a}&${q}`, true);
        if ((body.actions as Row[]).length) nonEmpty++;
      }
      // the cursor through the whole list, both orders: each page the same, and every action once
      for (const sort of ['asc', 'desc']) {
        const all = (await same(`${a}&limit=1000&sort=${sort}`, true)).actions as Row[];
        const seen: unknown[] = [];
        let cursor: string | undefined;
        for (let i = 0; i < 50; i++) {
          const body = await same(`${a}&limit=3&sort=${sort}${cursor ? `&cursor=${cursor}` : ''}`, true);
          seen.push(...(body.actions as Row[]).map((x) => x.action_id));
          cursor = body.next_cursor as string | undefined;
          if (!cursor) break;
        }
        expect(seen).toEqual(all.map((x) => x.action_id));
      }
      // not served by the lists: a utime window (its own order), other filters beside the account
      const first = ((await same(`${a}&limit=1&sort=asc`, true)).actions as Row[])[0];
      await same(`${a}&start_utime=${first.trace_end_utime}&limit=1000`, false);
      await same(`${a}&trace_id=${encodeURIComponent(String(first.trace_id))}`, false);
    }
    expect(nonEmpty).toBeGreaterThan(busy.length * 8);
  });

  it('/traces and /events by account: sorts, lt windows, paging, actions included', async () => {
    let nonEmpty = 0;
    for (const { account, mid } of busy) {
      const a = `account=${encodeURIComponent(account)}`;
      const queries = ['limit=1000', 'limit=1000&sort=asc', 'limit=2&offset=1', 'limit=3&sort=asc&offset=2', `start_lt=${mid}&limit=1000`, `end_lt=${mid}&sort=asc`, 'include_actions=true&limit=5', 'include_actions=true&supported_action_types=v1&sort=asc&limit=1000'];
      for (const q of queries) {
        const body = await same(`/api/v3/traces?${a}&${q}`, true);
        if ((body.traces as Row[]).length) nonEmpty++;
      }
      const events = await same(`/api/v3/events?${a}&limit=4&sort=asc`, true);
      expect((events.events as Row[]).length).toBeGreaterThan(0);
      const first = ((await same(`/api/v3/traces?${a}&limit=1&sort=asc`, true)).traces as Row[])[0];
      await same(`/api/v3/traces?${a}&start_utime=${first.end_utime}&limit=1000`, false);
    }
    expect(nonEmpty).toBeGreaterThan(busy.length * 6);
  });

  it('a store written before the lists gets them at open, filled from ClickHouse', async () => {
    const u = `/api/v3/actions?account=${encodeURIComponent(busy[0].account)}&limit=1000&include_accounts=true`;
    const t = `/api/v3/traces?account=${encodeURIComponent(busy[0].account)}&limit=1000&include_actions=true`;
    const before = [(await get(kvApp, u)).body, (await get(kvApp, t)).body];
    // as a store written before them: no list entries, no mark
    const kv = store.kv!;
    expect(kv.hasMark(LISTS_MARK)).toBe(true);
    for (const name of ['actrows', 'actaccts', 'acts', 'acctraces'] as const) await kv.db[name].clearAsync();
    await kv.root.openDB({ name: 'info', encoding: 'msgpack' }).remove(LISTS_MARK);
    expect(((await get(kvApp, u)).body.actions as Row[]).length).toBe(0);
    await kvApp.close();
    await tablesApp.close();
    await store.close();
    store = await openStore({ dataDir: join(dir, 'store'), pointReads: 'both' });
    kvApp = await v3App(store, 'kv');
    tablesApp = await v3App(store, 'tables');
    expect(store.kv!.hasMark(LISTS_MARK)).toBe(true);
    expect((await same(u, true)).actions).toEqual(before[0].actions);
    expect((await same(t, true)).traces).toEqual(before[1].traces);
    for (const { account } of busy) await same(`/api/v3/events?account=${encodeURIComponent(account)}&limit=1000&sort=asc`, true);
  });
});
