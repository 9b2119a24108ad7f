// utils/dedust_pools.py: DeDust's pool list (the API's shape), the list the interface repository falls back on,
// and the fetch / fallback-file cycle, against a real local HTTP server.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Address } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dedustPool, DedustPoolList, initDedustPools, parseRawPoolsData, refreshDedustPools } from '../../src/actions/dedust-pools.ts';
import { InterfaceRepository } from '../../src/actions/interfaces.ts';

// two real mainnet pools (coffee.yaml's DeDust hop), as DeDust's API lists them: user-friendly addresses
const POOL_A = '0:A1D92FB606164F65C41A1D3E2BAA54691243BA1B83D55304C22AE2AD39E6C0F5';
const JETTON_A = '0:78DB4C90B19A1B19CCB45580DF48A1E91B6410970FA3D5FFED3EED49E3CF08FF';
const POOL_B = '0:948673A596FC6D2C3123DFFF64D3231E4D0E16BFAAC506D5EBDB09F32B3B9C65';
const uf = (raw: string) => Address.parseRaw(raw).toString({ bounceable: true });
const API = [
  { address: uf(POOL_A), assets: [{ type: 'native' }, { type: 'jetton', address: uf(JETTON_A) }] },
  { address: POOL_B.toLowerCase(), assets: [{ type: 'native' }, { type: 'jetton', address: '0:2f956143c461769579baef2e32cc2d7bc18283f40d20bb03e432cd603ac33ffc' }] },
];

describe('parse_raw_pools_data', () => {
  it('keys pools by raw address, TON as no address, jettons raw upper-case', () => {
    const pools = parseRawPoolsData(API);
    expect([...pools.keys()]).toEqual([POOL_A, POOL_B]);
    expect(pools.get(POOL_A)).toEqual({ assets: [{ is_ton: true, address: null }, { is_ton: false, address: JETTON_A }] });
    expect(pools.get(POOL_B)!.assets[1].address).toBe('0:2F956143C461769579BAEF2E32CC2D7BC18283F40D20BB03E432CD603AC33FFC');
  });

  it('refuses what upstream refuses: a native asset with an address, not a list', () => {
    expect(() => parseRawPoolsData([{ address: POOL_A, assets: [{ type: 'native', address: JETTON_A }] }])).toThrow(/native asset with an address/);
    expect(() => parseRawPoolsData({})).toThrow(/array/);
  });
});

describe('the list', () => {
  it('answers the repository it is given to for a pool no trace record describes; a trace record wins', () => {
    const interfaces = { [POOL_B]: { raw: { DedustPool: { assets: [{ is_ton: false, address: JETTON_A }, { is_ton: true, address: null }] } } } };
    expect(new InterfaceRepository({ interfaces }).getDedustPool(POOL_A)).toBeNull();
    const pools = parseRawPoolsData(API);
    const repo = new InterfaceRepository({ interfaces }, pools);
    expect(repo.getDedustPool(POOL_A)).toEqual({ address: POOL_A, assets: [{ is_ton: true, address: null }, { is_ton: false, address: JETTON_A }] });
    expect(repo.getDedustPool(POOL_B)!.assets[0]).toEqual({ is_ton: false, address: JETTON_A });
    expect(dedustPool(pools, POOL_A.toLowerCase())).not.toBeNull();
    expect(dedustPool(pools, null)).toBeNull();
  });
});

describe('fetch and fallback file', () => {
  let server: Server;
  let url = '';
  let answer: { status: number; body: string } = { status: 200, body: JSON.stringify(API) };
  const agents: Array<string | undefined> = [];
  const dir = mkdtempSync(join(tmpdir(), 'tg-dedust-pools-'));

  beforeAll(async () => {
    server = createServer((req, res) => {
      agents.push(req.headers['user-agent']);
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(answer.body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2/pools`;
  });
  afterAll(() => {
    server.close();
  });

  it('takes the API\'s list and saves it as the fallback', async () => {
    const file = join(dir, 'ok.json');
    answer = { status: 200, body: JSON.stringify(API) };
    const list = new DedustPoolList();
    expect(await initDedustPools(list, { url, fallbackFile: file })).toBe(2);
    expect(dedustPool(list.pools, POOL_A)).not.toBeNull();
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(API);
    expect(agents.at(-1)).toBe('Chrome');
  });

  it('falls back to the saved list when the API fails or answers an empty list, and fails without one', async () => {
    const file = join(dir, 'saved.json');
    writeFileSync(file, JSON.stringify([API[1]]));
    const list = new DedustPoolList();
    answer = { status: 500, body: 'no' };
    expect(await initDedustPools(list, { url, fallbackFile: file })).toBe(1);
    answer = { status: 200, body: '[]' };
    expect(await initDedustPools(list, { url, fallbackFile: file })).toBe(1);
    expect(dedustPool(list.pools, POOL_A)).toBeNull();
    await expect(initDedustPools(list, { url, fallbackFile: join(dir, 'missing.json') })).rejects.toThrow();
  });

  it('a refresh that fails keeps the list', async () => {
    const list = new DedustPoolList();
    list.set(parseRawPoolsData(API));
    answer = { status: 502, body: '' };
    expect(await refreshDedustPools(list, { url })).toBe(false);
    expect(dedustPool(list.pools, POOL_A)).not.toBeNull();
    answer = { status: 200, body: JSON.stringify([API[1]]) };
    expect(await refreshDedustPools(list, { url })).toBe(true);
    expect(dedustPool(list.pools, POOL_A)).toBeNull();
  });
});
