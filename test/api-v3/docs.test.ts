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
  'nft/collections', 'nft/items', 'nft/transfers', 'dns/records', 'dns/activeAuctions', 'validators/events', 'validators/elections', 'validators/cycles', 'validators/complaints', 'multisig/orders', 'multisig/wallets', 'vesting', 'decode', 'addressInformation',
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

  it('describes every response of every operation (no "Default Response") and gives 200 its schema', async () => {
    const r = await get(f.app, '/api/v3/openapi.json');
    const doc = r.body as unknown as { paths: Record<string, Record<string, { summary: string; responses: Record<string, { description: string; content?: Record<string, { schema?: unknown }> }> }>> };
    let operations = 0;
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        operations++;
        for (const [status, resp] of Object.entries(op.responses)) {
          expect(resp.description, `${method} ${path} ${status}`).not.toBe('Default Response');
          expect(resp.description.length, `${method} ${path} ${status}`).toBeGreaterThan(8);
        }
        expect(op.responses['200'].content?.['application/json']?.schema, `${method} ${path}`).toBeDefined();
        expect(op.responses['422'].description).toMatch(/names the parameter/);
      }
    }
    expect(operations).toBeGreaterThanOrEqual(ENDPOINTS.length);
    expect(doc.paths['/transactions'].get.responses['200'].description).toBe(doc.paths['/transactions'].get.summary);
  });
});

describe('docs page HTML', () => {
  it('embeds the OpenAPI document in the page and turns the hosted-service features off', async () => {
    const r = await f.app.inject('/api/v3/');
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/html/);
    const m = /Scalar\.createApiReference\('#app', (\{.*\})\)/s.exec(r.body);
    expect(m).not.toBeNull();
    const config = JSON.parse(m![1]) as { content?: { openapi: string; paths: Record<string, unknown> }; url?: string; agent?: { disabled: boolean }; showDeveloperTools?: string; telemetry?: boolean };
    expect(config.url).toBeUndefined();
    expect(config.content?.openapi).toMatch(/^3\./);
    expect(Object.keys(config.content!.paths)).toContain('/transactions');
    expect(config.agent).toEqual({ disabled: true });
    expect(config.showDeveloperTools).toBe('never');
    expect(config.telemetry).toBe(false);
    // no text of the document can close the script element
    expect(r.body.match(/<\/script>/g)?.length).toBe(2);
    const js = await f.app.inject('/api/v3/js/scalar.js');
    expect(js.statusCode).toBe(200);
    expect(js.body).toContain('createApiReference');
    const bare = await f.app.inject('/api/v3');
    expect(bare.statusCode).toBe(301);
    expect(bare.headers.location).toBe('/api/v3/');
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
      // the page renders from the document it embeds: a request for the document itself would fail here
      const specRequests: string[] = [];
      await page.route('**/openapi.json', (route) => {
        specRequests.push(route.request().url());
        return route.abort();
      });
      const resp = await page.goto(`${address}/api/v3/`);
      expect(resp?.status()).toBe(200);
      await page.getByText('Transactions by account, hash, block, masterchain block, lt or utime window').first().waitFor({ timeout: 60_000 });
      const text = await page.locator('body').innerText();
      // the sidebar lists every tag group; the first (blockchain) group is open with its operations
      for (const tag of ['blockchain', 'accounts', 'jettons', 'nfts', 'dns', 'multisig', 'vesting', 'actions and traces', 'utils', 'api/v2']) {
        expect(text.toLowerCase()).toContain(tag);
      }
      for (const s of ['First and last indexed masterchain blocks', 'Blocks by id, hash, masterchain seqno, utime or lt window']) expect(text).toContain(s);
      expect(specRequests).toEqual([]);
      // a self-hosted (maybe offline) page shows none of Scalar's hosted services
      for (const s of ['Ask AI', 'Generate MCP', 'Deploy', 'Share']) {
        expect(await page.getByRole('button', { name: s }).count(), s).toBe(0);
        expect(text).not.toContain(s);
      }
      // an operation's response is described, not "Default Response"
      await page.getByText('First and last indexed masterchain blocks').first().click();
      const after = await page.locator('body').innerText();
      expect(after).not.toContain('Default Response');
      await page.screenshot({ path: join(tmpdir(), 'ton-gateway-api-v3-docs.png') });
    } finally {
      await browser.close();
    }
  });
});

if (!existsSync(CHROMIUM)) console.warn(`docs page test skipped: ${CHROMIUM} not found (apt-get install -y chromium)`);
