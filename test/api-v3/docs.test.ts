// The OpenAPI document generated from the zod schemas, and the interactive docs page rendered in
// headless Chromium (skipped with a message when /usr/bin/chromium is absent).
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium } from 'playwright-core';
import { get, openFixture, type Fixture } from './helpers.ts';

const CHROMIUM = '/usr/bin/chromium';
const ENDPOINTS = [
  'accountStates', 'addressBook', 'metadata', 'walletStates', 'topAccountsByBalance', 'actions', 'traces', 'pendingActions', 'pendingTraces',
  'adjacentTransactions', 'blocks', 'masterchainBlockShardState', 'masterchainBlockShards', 'masterchainInfo', 'messages', 'pendingTransactions',
  'transactions', 'transactionsByMasterchainBlock', 'transactionsByMessage', 'jetton/burns', 'jetton/masters', 'jetton/transfers', 'jetton/wallets',
  'nft/collections', 'nft/items', 'nft/transfers', 'dns/records', 'dns/activeAuctions', 'validators/events', 'validators/cycles', 'multisig/orders', 'multisig/wallets', 'vesting', 'decode', 'addressInformation',
  'walletInformation', 'runGetMethod', 'estimateFee', 'message', 'indexStatus', 'balanceChanges',
];

let f: Fixture;
beforeAll(async () => {
  f = await openFixture();
});
afterAll(async () => {
  await f?.close();
});

describe('OpenAPI document', () => {
  it('lists every endpoint with its parameters and response schema', async () => {
    const r = await get(f.app, '/api/v3/openapi.json');
    expect(r.status).toBe(200);
    const doc = r.body as unknown as { openapi: string; paths: Record<string, Record<string, { parameters?: { name: string }[]; responses: Record<string, unknown> }>> };
    expect(doc.openapi).toMatch(/^3\./);
    for (const e of ENDPOINTS) expect(Object.keys(doc.paths)).toContain(`/${e}`);
    const tx = doc.paths['/transactions'].get;
    expect(tx.parameters!.map((p) => p.name)).toEqual(expect.arrayContaining(['account', 'hash', 'lt', 'start_lt', 'end_lt', 'limit', 'offset', 'sort']));
    expect(JSON.stringify(tx.responses['200'])).toContain('out_msgs');
    expect(doc.paths['/decode'].post).toBeDefined();
  });
});

describe.skipIf(!existsSync(CHROMIUM))('docs page in headless Chromium', () => {
  it('loads and lists the endpoints', async () => {
    const address = await f.app.listen({ host: '127.0.0.1', port: 0 });
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    try {
      const page = await browser.newPage();
      const resp = await page.goto(`${address}/api/v3/`);
      expect(resp?.status()).toBe(200);
      await page.getByText('Transactions by account, hash, block, masterchain block, lt or utime window').first().waitFor({ timeout: 60_000 });
      const text = await page.locator('body').innerText();
      // the sidebar lists every tag group; the first (blockchain) group is open with its operations
      for (const tag of ['blockchain', 'accounts', 'jettons', 'nfts', 'dns', 'multisig', 'vesting', 'actions and traces', 'utils', 'api/v2']) {
        expect(text.toLowerCase()).toContain(tag);
      }
      for (const s of ['First and last indexed masterchain blocks', 'Blocks by id, hash, masterchain seqno, utime or lt window']) expect(text).toContain(s);
      await page.screenshot({ path: join(tmpdir(), 'ton-gateway-api-v3-docs.png') });
    } finally {
      await browser.close();
    }
  });
});

if (!existsSync(CHROMIUM)) console.warn(`docs page test skipped: ${CHROMIUM} not found (apt-get install -y chromium)`);
