// `--dedust-pools-api`: upstream's DeDust pool list as an opt-in fallback of the traces stage, against a real local
// HTTP server in DeDust's API shape (the two real mainnet pools of test/actions/dedust-pools.test.ts).
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dedustPool } from '../../src/actions/dedust-pools.ts';
import { CliError } from '../../src/cli/command.ts';
import { startDedustPools, takeDedustPoolsArgs } from '../../src/cli/dedust-pools-args.ts';
import { until } from '../helpers/until.ts';

const POOL_A = '0:A1D92FB606164F65C41A1D3E2BAA54691243BA1B83D55304C22AE2AD39E6C0F5';
const POOL_B = '0:948673A596FC6D2C3123DFFF64D3231E4D0E16BFAAC506D5EBDB09F32B3B9C65';
const API = [
  { address: POOL_A, assets: [{ type: 'native' }, { type: 'jetton', address: '0:78DB4C90B19A1B19CCB45580DF48A1E91B6410970FA3D5FFED3EED49E3CF08FF' }] },
  { address: POOL_B, assets: [{ type: 'native' }, { type: 'jetton', address: '0:2F956143C461769579BAEF2E32CC2D7BC18283F40D20BB03E432CD603AC33FFC' }] },
];

describe('takeDedustPoolsArgs', () => {
  it('off unless asked for, by flag or environment; the rest is left for the command', () => {
    expect(takeDedustPoolsArgs(['--data', 'x'], {})).toEqual({ dedust: { enabled: false }, rest: ['--data', 'x'] });
    expect(takeDedustPoolsArgs(['--dedust-pools-api', '--dedust-pools-file', '/tmp/p.json'], {}).dedust).toEqual({ enabled: true, file: '/tmp/p.json' });
    expect(takeDedustPoolsArgs([], { TON_GATEWAY_DEDUST_POOLS_API: 'yes', TON_GATEWAY_DEDUST_POOLS_FILE: '/tmp/q.json' }).dedust).toEqual({ enabled: true, file: '/tmp/q.json' });
  });

  it('a file without the list, or a flag without its value, is one line', () => {
    expect(() => takeDedustPoolsArgs(['--dedust-pools-file', '/tmp/p.json'], {})).toThrow(CliError);
    expect(() => takeDedustPoolsArgs(['--dedust-pools-file', '/tmp/p.json'], {})).toThrow(/goes with --dedust-pools-api/);
    expect(() => takeDedustPoolsArgs(['--dedust-pools-api', '--dedust-pools-file'], {})).toThrow(/--dedust-pools-file needs a value/);
  });
});

describe('startDedustPools', () => {
  let server: Server;
  let url = '';
  let answer = { status: 200, body: JSON.stringify(API) };
  const dir = mkdtempSync(join(tmpdir(), 'tg-dedust-cli-'));
  const lines: Array<{ level: number; msg: string }> = [];
  const log = pino({ level: 'info' }, { write: (s: string) => void lines.push(JSON.parse(s) as { level: number; msg: string }) });

  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(answer.body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2/pools`;
  });
  afterAll(() => server.close());

  it('off: nothing is fetched, the registry stays empty', async () => {
    const { list, stop } = await startDedustPools({ enabled: false }, log, { url });
    stop();
    expect(list.pools.size).toBe(0);
  });

  it('on: the list is loaded and saved, then refreshed on its schedule', async () => {
    const file = join(dir, 'pools.json');
    answer = { status: 200, body: JSON.stringify([API[0]]) };
    const { list, stop } = await startDedustPools({ enabled: true, file }, log, { url, intervalMs: 20 });
    try {
      expect(dedustPool(list.pools, POOL_A)).not.toBeNull();
      expect(dedustPool(list.pools, POOL_B)).toBeNull();
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual([API[0]]);
      answer = { status: 200, body: JSON.stringify(API) };
      await until(() => dedustPool(list.pools, POOL_B) !== null, 'the refreshed list');
    } finally {
      stop();
    }
  });

  it('an API that does not answer and no file: a warning, the indexer goes on without the list', async () => {
    answer = { status: 503, body: 'down' };
    const { list, stop } = await startDedustPools({ enabled: true }, log, { url, intervalMs: 60_000 });
    stop();
    expect(list.pools.size).toBe(0);
    expect(lines.some((l) => l.level === 40 && /DeDust pool list not loaded/.test(l.msg))).toBe(true);
  });
});
