// `ton-gateway status` and /api/v3/indexStatus give one answer: both are src/store's indexStatus. A generated devnet
// chain imported by the store's importer, with the holes ingest can leave (masterchain markers missing inside the
// range and below it, down to the first seqno requested), a checkpoint, a requested range and a stall; the API over
// the store, then the real CLI process over the same data directory.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as S from '../../schemas/api/v3/entities.ts';
import { KeyStore } from '../../src/api/auth/index.ts';
import { buildServer } from '../../src/api/server.ts';
import { v3Group } from '../../src/api/v3/index.ts';
import { runDevnet } from '../../src/devnet/generate/index.ts';
import { importBlocks } from '../../pipelines/index.ts';
import { INGEST_CHECKPOINT, openStore, setCheckpoint } from '../../src/store/client/index.ts';
import { writeIngestState } from '../../src/store/ingest/index.ts';
import { type IndexStatusDetail } from '../../src/store/read/index.ts';
import { decodeBlock } from '../../src/ton/index.ts';
import { get } from '../api-v3/helpers.ts';

const ROOT = join(import.meta.dirname, '..', '..');
let dir: string;
let mcs: number[];
let lastUtime: number;
let api: ReturnType<typeof S.IndexStatus.parse>;
let cli: IndexStatusDetail;
// ms since the epoch, not on a whole second: the API gives unix seconds
const since = 1_760_000_123_456;

beforeAll(async () => {
  const res = await runDevnet({ seed: 5, blocks: 10 });
  const decoded = res.devnet.blocks.map((b) => decodeBlock(b.boc));
  const mc = decoded.filter((b) => b.id.workchain === -1).sort((a, b) => a.id.seqno - b.id.seqno);
  mcs = mc.map((b) => b.id.seqno);
  lastUtime = mc[mc.length - 1].info.gen_utime;
  dir = mkdtempSync(join(tmpdir(), 'tg-status-'));
  const store = await openStore({ dataDir: dir });
  try {
    await importBlocks(store, decoded);
    // the first masterchain block and two in the middle are not (completely) written
    await store.command('DELETE FROM ingested_blocks WHERE workchain = -1 AND seqno IN {s:Array(UInt32)}', { s: [mcs[0], mcs[4], mcs[5]] });
    await setCheckpoint(store, INGEST_CHECKPOINT, mcs[3]);
    await writeIngestState(store, {
      range: { from: mcs[0], until: mcs[mcs.length - 1] + 5 },
      firstRequested: mcs[0],
      checkpointAtRequest: null,
      stall: { seqno: mcs[mcs.length - 1] + 1, reason: 'no liteserver gives a valid block', since },
    });
    const app = buildServer({ networks: [{ name: 'devnet', testnet: true, services: {} }], keys: new KeyStore({ anonymous: { rps: 1_000_000 } }), groups: [v3Group({ store, testnet: true })] });
    await app.ready();
    const r = await get(app, '/api/v3/indexStatus');
    expect(r.status).toBe(200);
    api = S.IndexStatus.parse(r.body);
    await app.close();
  } finally {
    await store.close();
  }
  const run = spawnSync(process.execPath, [join(ROOT, 'bin', 'ton-gateway.js'), 'status', '--data', dir, '--json'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, CLICKHOUSE_URL: '' },
  });
  expect(run.stderr).not.toMatch(/error/i);
  expect(run.status).toBe(0);
  cli = JSON.parse(run.stdout) as IndexStatusDetail;
}, 300_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('one index status for the CLI and the API', () => {
  it('the indexed range, its holes and the hole below it', () => {
    expect(mcs.length).toBeGreaterThan(7);
    const gaps: [number, number][] = [[mcs[0], mcs[0]], [mcs[4], mcs[5]]];
    expect([cli.first, cli.last, cli.mcBlocks, cli.mcGaps, cli.mcMissing]).toEqual([mcs[1], mcs[mcs.length - 1], mcs.length - 3, gaps, 3]);
    expect([api.first_mc_seqno, api.last_mc_seqno, api.indexed_mc_blocks, api.first_gaps, api.gaps]).toEqual([
      cli.first, cli.last, cli.mcBlocks, cli.mcGaps.map(([from, to]) => ({ from, to })), cli.mcMissing,
    ]);
    expect(cli.lastUtime).toBe(lastUtime);
    expect(api.last_utime).toBe(cli.lastUtime);
  });

  it('the checkpoint, the requested range and where ingest is stalled', () => {
    expect([cli.checkpoint, api.checkpoint_mc_seqno]).toEqual([mcs[3], mcs[3]]);
    expect([cli.requestedFrom, api.requested_from_mc_seqno]).toEqual([mcs[0], mcs[0]]);
    expect(cli.range).toEqual({ from: mcs[0], until: mcs[mcs.length - 1] + 5 });
    expect(cli.stall).toEqual({ seqno: mcs[mcs.length - 1] + 1, reason: 'no liteserver gives a valid block', since });
    expect(api.stalled).toEqual({ mc_seqno: cli.stall!.seqno, reason: cli.stall!.reason, since: Math.floor(since / 1000) });
  });

  it('the CLI also counts what the API leaves out: blocks, transactions, no shard holes', () => {
    expect(cli.shardGaps).toEqual([]);
    expect(cli.blocks).toBeGreaterThan(cli.mcBlocks);
    expect(cli.transactions).toBeGreaterThan(0);
  });
});

describe('status asks the network of the deployment for its tip (TON_GATEWAY_NETWORK, as compose.yml sets it)', () => {
  const status = (env: Record<string, string>) =>
    spawnSync(process.execPath, [join(ROOT, 'bin', 'ton-gateway.js'), 'status', '--data', dir, '--json'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, CLICKHOUSE_URL: '', ...env }, timeout: 120_000 });

  it('the network named: its tip is asked for (none answers on this offline machine, and that is said), the lag where one does', () => {
    const r = status({ TON_GATEWAY_NETWORK: 'testnet' });
    expect(r.status).toBe(0);
    const j = JSON.parse(r.stdout) as { tip: number | null; lag: number | null; tip_error: string | null };
    // offline: the bundled testnet liteservers do not answer; online: a tip and a lag
    if (j.tip === null) expect(j.tip_error).toMatch(/liteserver/i);
    else expect(j.lag).toBe(j.tip - cli.last!);
  });

  it('a name that is no network: one line naming the variable', () => {
    const r = status({ TON_GATEWAY_NETWORK: 'moon' });
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toMatch(/^ton-gateway status: TON_GATEWAY_NETWORK: /);
  });
});
