/**
 * The API served by several processes (`start --api-workers N`, src/api/cluster.ts), all real processes:
 *   - a worker's store proxy against a real primary (a chdb store in this test process): statements with bigint and
 *     tuple parameters answered as the primary's client answers them, engine errors with their class and code, every
 *     write refused (by the worker, by the primary's keyword check, by the engine's readonly), one limiter;
 *   - `start --api-workers 2` on a devnet: both workers answer, the same bodies as `--api-workers 1` on the same store,
 *     an anonymous rate limit that holds across workers, a worker killed with SIGKILL replaced, SIGTERM stopping all.
 */
import cluster from 'node:cluster';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey, MemoryRateLimiter, startApiWorkers } from '../../src/api/index.ts';
import { openStore } from '../../src/store/index.ts';
import { generateDevnet } from '../../src/devnet/generate/index.ts';
import { loadChainDir } from '../../src/devnet/chain/index.ts';
import { startLiteServer, writeLiteServerJson, type LiteServer } from '../../src/devnet/liteserver/index.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('an API worker and its primary over IPC', { timeout: 300_000 }, () => {
  it('statements run on the primary, errors keep their fields, writes are refused, limits are one set', async () => {
    const data = mkdtempSync(join(tmpdir(), 'tg-api-ipc-'));
    const store = await openStore({ dataDir: data, pointReads: 'tables' });
    try {
      await store.command('CREATE TABLE probe (k String, v String) ENGINE = MergeTree ORDER BY k');
      await store.command("INSERT INTO probe VALUES ('probe', 'primary')");
      const reports: Record<string, { ok: boolean; value?: unknown; name?: string; message?: string; clickhouseCode?: number; code?: string }>[] = [];
      const onMessage = (_w: unknown, m: { tg?: string; report?: (typeof reports)[number] }) => m?.tg === 'probe' && reports.push(m.report!);
      cluster.on('message', onMessage);
      const workers = await startApiWorkers({
        count: 1,
        store,
        limiter: new MemoryRateLimiter(),
        log: silent,
        exec: { file: join(import.meta.dirname, 'fixtures', 'api-worker-probe.ts'), execArgv: ['--import', 'tsx'] },
      });
      await workers.stop();
      cluster.off('message', onMessage);
      expect(reports).toHaveLength(1);
      const r = reports[0];
      // parameters cross the channel whole: a UInt64 above 2^53 and a tuple of a string and a UInt64 max
      expect(r.params).toEqual({ ok: true, value: [{ n: (2n ** 63n + 5n).toString(), t: [['a', (2n ** 64n - 1n).toString()]] }] });
      expect(r.rows).toEqual({ ok: true, value: [{ v: 'primary' }] });
      // the engine's error as the primary's client threw it: what mapDbError reads
      expect(r.missing).toMatchObject({ ok: false, name: 'ChdbQueryError', clickhouseCode: 60, code: 'CHDB_QUERY' });
      // writes: the primary's keyword check, the engine's readonly (DDL, file()), the worker's own refusal
      expect(r.insert).toMatchObject({ ok: false, name: 'ReadOnlyQueryError' });
      expect(r.hiddenInsert).toMatchObject({ ok: false, name: 'ReadOnlyQueryError' });
      expect(r.ddl).toMatchObject({ ok: false, name: 'ReadOnlyQueryError' });
      expect(r.fileRead).toMatchObject({ ok: false, clickhouseCode: 164 });
      expect(r.settingsOverride).toEqual({ ok: true, value: [{ name: 'readonly', value: '1' }] });
      expect(r.command).toMatchObject({ ok: false, message: expect.stringMatching(/does not write/) });
      expect(r.insertRows).toMatchObject({ ok: false, message: expect.stringMatching(/does not write/) });
      // the limiter is the primary's: a bucket of one token at 0.01 rps admits the first take only
      expect((r.takes as unknown as { ok: boolean }[]).map((t) => t.ok)).toEqual([true, false]);
      expect(await store.query('SELECT v FROM probe ORDER BY v')).toEqual([{ v: 'primary' }]);
    } finally {
      await store.close();
      rmSync(data, { recursive: true, force: true });
    }
  });
});
