// API v3 jetton, trace and action endpoints on rows derived from the real fixture transactions
// (seed.ts parses the real transfer bodies and wallet data), plus the entity endpoints' strict checks.
import { Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import * as S from '../../schemas/api/v3/entities.ts';
import { get } from './helpers.ts';
import { seededFixture } from './seed.ts';

const b64 = (hex: string) => Buffer.from(hex, 'hex').toString('base64');

const ref = seededFixture();

describe('jettons', () => {
  it('jetton/transfers by owner, wallet, master, direction; real body fields', async () => {
    const t = ref.seeded.transfer;
    const r = await get(ref.fx.app, `/api/v3/jetton/transfers?owner_address=${t.source}&direction=out`);
    const body = S.JettonTransfer.array().parse(r.body.jetton_transfers);
    const row = body.find((x) => x.transaction_hash === b64(t.txHash))!;
    expect(row).toMatchObject({ source: t.source, destination: t.destination, amount: t.amount, source_wallet: t.wallet, jetton_master: t.master, query_id: t.queryId, transaction_lt: t.lt });
    const inDir = S.JettonTransfer.array().parse((await get(ref.fx.app, `/api/v3/jetton/transfers?owner_address=${t.source}&direction=in`)).body.jetton_transfers);
    expect(inDir.some((x) => x.transaction_hash === b64(t.txHash))).toBe(false);
    const byWallet = S.JettonTransfer.array().parse((await get(ref.fx.app, `/api/v3/jetton/transfers?jetton_wallet=${t.wallet}`)).body.jetton_transfers);
    expect(byWallet.every((x) => x.source_wallet === t.wallet)).toBe(true);
    const byMaster = S.JettonTransfer.array().parse((await get(ref.fx.app, `/api/v3/jetton/transfers?jetton_master=${t.master}&sort=asc&limit=1000`)).body.jetton_transfers);
    expect(byMaster.every((x) => x.jetton_master === t.master)).toBe(true);
    const lts = byMaster.map((x) => BigInt(x.transaction_lt));
    expect(lts).toEqual([...lts].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(r.body.address_book).toHaveProperty(t.source);
    expect(r.body.metadata).toHaveProperty(t.wallet);
  });

  it('jetton/transfers by owner (the key-value list) and traces by id answer as ClickHouse\'s tables do', async () => {
    const owners = [...new Set(ref.seeded.wallets.map((w) => w.owner))].slice(0, 6);
    const t = ref.seeded.transfer;
    expect(owners.length).toBeGreaterThan(0);
    const urls = [
      ...owners.flatMap((o) => ['', '&direction=in', '&direction=out', '&sort=asc&limit=2&offset=1'].map((q) => `/api/v3/jetton/transfers?owner_address=${o}${q}`)),
      `/api/v3/jetton/transfers?${owners.map((o) => `owner_address=${o}`).join('&')}&limit=1000`,
      `/api/v3/jetton/transfers?owner_address=${t.source}&start_lt=${t.lt}&end_lt=${t.lt}`,
      `/api/v3/jetton/transfers?address=${t.destination}&end_lt=${t.lt}&sort=asc`,
      `/api/v3/traces?trace_id=${ref.seeded.trace.traceId}`,
      `/api/v3/traces?trace_id=${ref.seeded.trace.traceId}&trace_id=${ref.seeded.pendingTrace.traceId}&sort=asc`,
    ];
    let rows = 0;
    for (const u of urls) {
      const kv = await get(ref.fx.app, u);
      expect(kv.status, u).toBe(200);
      expect(kv.body, u).toEqual((await get(ref.fx.tablesApp, u)).body);
      rows += ((kv.body.jetton_transfers ?? kv.body.traces) as unknown[]).length;
    }
    expect(rows).toBeGreaterThan(urls.length);
  });

  it('jetton/transfers decode forward payloads as /decode does: comments checked against @ton/core', async () => {
    const all = S.JettonTransfer.array().parse((await get(ref.fx.app, `/api/v3/jetton/transfers?jetton_master=${ref.seeded.transfer.master}&limit=1000`)).body.jetton_transfers);
    const withPayload = all.filter((x) => x.forward_payload);
    expect(withPayload.length).toBeGreaterThan(0);
    let comments = 0;
    for (const x of withPayload) {
      const sl = Cell.fromBase64(x.forward_payload!).beginParse();
      if (sl.remainingBits >= 32 && sl.preloadUint(32) === 0) {
        sl.skip(32);
        expect(x.decoded_forward_payload).toEqual({ type: 'text_comment', '@type': 'text_comment', comment: sl.loadStringTail() });
        comments++;
      } else if (sl.remainingBits === 0 && sl.remainingRefs === 0) {
        expect(x.decoded_forward_payload).toEqual({ '@type': 'empty_cell' }); // ton-marker's text for an empty cell
      }
    }
    expect(comments + withPayload.filter((x) => x.decoded_forward_payload && !('comment' in (x.decoded_forward_payload as object))).length).toBeGreaterThan(0);
    expect(all.filter((x) => !x.forward_payload).every((x) => x.decoded_forward_payload === null)).toBe(true);
  });

  it('jetton/wallets by owner and jetton; sort by balance; metadata of wallets and their master', async () => {
    const w = ref.seeded.wallets[0];
    const r = await get(ref.fx.app, `/api/v3/jetton/wallets?owner_address=${w.owner}`);
    const list = S.JettonWallet.array().parse(r.body.jetton_wallets);
    expect(list.map((x) => x.address)).toContain(w.address);
    expect(list.find((x) => x.address === w.address)).toMatchObject({ balance: w.balance, owner: w.owner, jetton: w.jetton });
    const md = S.Metadata.parse(r.body.metadata);
    expect(md[w.address].token_info[0]).toMatchObject({ type: 'jetton_wallets', valid: true, extra: { owner: w.owner, jetton: w.jetton, balance: w.balance } });
    expect(S.AddressBook.parse(r.body.address_book)[w.address].interfaces).toContain('jetton_wallet');
    const usdt = ref.seeded.wallets.filter((x) => x.jetton === ref.seeded.wallets.find((y) => y.jetton.startsWith('0:B113'))?.jetton);
    const sorted = S.JettonWallet.array().parse((await get(ref.fx.app, `/api/v3/jetton/wallets?jetton_address=${usdt[0].jetton}&sort=desc`)).body.jetton_wallets);
    expect(sorted.length).toBe(usdt.length);
    const bal = sorted.map((x) => BigInt(x.balance));
    expect(bal).toEqual([...bal].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0)));
    expect((await get(ref.fx.app, '/api/v3/jetton/wallets')).body).toEqual({ code: 422, error: 'at least one of address, owner_address, jetton_address is required' });
    expect((await get(ref.fx.app, `/api/v3/jetton/wallets?jetton_address=${w.jetton}&jetton_address=${usdt[0].jetton}`)).status).toBe(422);
  });

  it('entity endpoints answer empty lists with their envelopes; their own 422s', async () => {
    for (const [url, key] of [['/api/v3/jetton/masters', 'jetton_masters'], ['/api/v3/jetton/burns', 'jetton_burns'], ['/api/v3/nft/collections', 'nft_collections'],
      ['/api/v3/nft/items', 'nft_items'], ['/api/v3/nft/transfers', 'nft_transfers']] as const) {
      const r = await get(ref.fx.app, url);
      expect(r.status).toBe(200);
      expect(r.body[key]).toEqual([]);
    }
    expect((await get(ref.fx.app, '/api/v3/dns/records')).body.error).toBe('either wallet address or domain is required');
    expect((await get(ref.fx.app, `/api/v3/dns/records?domain=a.ton&wallet=${ref.seeded.transfer.source}`)).body.error).toBe('provide either wallet address or domain, not both');
    expect((await get(ref.fx.app, '/api/v3/multisig/wallets')).status).toBe(422);
    expect((await get(ref.fx.app, '/api/v3/multisig/orders')).status).toBe(422);
    expect((await get(ref.fx.app, '/api/v3/vesting')).body.error).toBe('at least one of contract_address or wallet_address is required');
    expect((await get(ref.fx.app, '/api/v3/nft/items?index=1')).body.error).toBe('index parameter is not allowed without the collection_address');
    expect((await get(ref.fx.app, `/api/v3/nft/items?collection_address=${ref.seeded.transfer.master}&index=x1`)).body.error).toMatch(/invalid index/);
  });
});

describe('traces and actions', () => {
  it('traces by trace_id / tx_hash / account: every transaction, tree from the root', async () => {
    const t = ref.seeded.trace;
    for (const q of [`trace_id=${t.traceId}`, `tx_hash=${encodeURIComponent(b64(t.txHashes[1]))}`, `account=${t.accounts[0]}`, `msg_hash=${t.externalHash}`]) {
      const r = await get(ref.fx.app, `/api/v3/traces?${q}`);
      expect(r.status).toBe(200);
      const { traces } = S.TracesResponse.parse(r.body);
      const tr = traces.find((x) => x.trace_id === b64(t.traceId))!;
      expect(tr.external_hash).toBe(b64(t.externalHash));
      expect(tr.trace_info).toMatchObject({ trace_state: 'complete', transactions: t.txHashes.length, pending_messages: 0 });
      expect(tr.transactions_order).toEqual(t.txHashes.map(b64));
      expect(Object.keys(tr.transactions!).sort()).toEqual(t.txHashes.map(b64).sort());
      expect(tr.trace!.tx_hash).toBe(b64(t.traceId));
      const count = (n: { children: unknown[] }): number => 1 + n.children.reduce((a: number, c) => a + count(c as { children: unknown[] }), 0);
      expect(count(tr.trace!)).toBe(t.txHashes.length);
      expect(tr.warning).toBeUndefined();
      expect(tr.actions).toBeUndefined();
      for (const tx of Object.values(tr.transactions!)) expect(tx.trace_id).toBe(b64(t.traceId));
    }
    expect((await get(ref.fx.app, `/api/v3/traces?account=${ref.seeded.trace.accounts[0]}&trace_id=${ref.seeded.trace.traceId}`)).body.error).toBe(
      'only one of account, trace_id, tx_hash, msg_hash should be specified',
    );
  });

  it('traces with actions; events alias; latest traces ordered by end_lt', async () => {
    const r = S.TracesResponse.parse((await get(ref.fx.app, `/api/v3/traces?trace_id=${ref.seeded.trace.traceId}&include_actions=true`)).body);
    expect(r.traces[0].actions!.map((a) => a.type)).toEqual(['jetton_transfer']);
    const ev = await get(ref.fx.app, `/api/v3/events?trace_id=${ref.seeded.trace.traceId}`);
    expect((ev.body.events as { actions: unknown[] }[])[0].actions).toHaveLength(1);
    const latest = S.TracesResponse.parse((await get(ref.fx.app, '/api/v3/traces')).body).traces;
    expect(latest.length).toBe(2);
    expect(BigInt(latest[0].end_lt!) >= BigInt(latest[1].end_lt!)).toBe(true);
  });

  it('actions: by account, trace, action id; children hidden unless asked for by type', async () => {
    const byAcc = S.ActionsResponse.parse((await get(ref.fx.app, `/api/v3/actions?account=${ref.seeded.action.source}`)).body);
    expect(byAcc.actions.map((a) => a.action_id)).toEqual([b64(ref.seeded.action.actionId)]);
    expect(byAcc.actions[0]).toMatchObject({ type: 'jetton_transfer', trace_id: b64(ref.seeded.trace.traceId), trace_external_hash: b64(ref.seeded.trace.externalHash), finality: 'finalized' });
    expect(byAcc.actions[0].details).toMatchObject({ asset: ref.seeded.action.master, sender: ref.seeded.action.source });
    const child = S.ActionsResponse.parse((await get(ref.fx.app, `/api/v3/actions?trace_id=${ref.seeded.trace.traceId}&action_type=ton_transfer`)).body);
    expect(child.actions.map((a) => a.action_id)).toEqual([b64(ref.seeded.action.childId)]);
    const withTx = S.ActionsResponse.parse((await get(ref.fx.app, `/api/v3/actions?action_id=${ref.seeded.action.actionId}&include_transactions=true&include_accounts=true`)).body);
    expect(withTx.actions[0].transactions_full!.map((t) => t.hash)).toEqual(withTx.actions[0].transactions);
    expect(withTx.actions[0].accounts).toContain(ref.seeded.action.source);
    expect((await get(ref.fx.app, '/api/v3/actions?action_type=bad-type')).body.error).toBe('action_type contains invalid characters');
    expect((await get(ref.fx.app, '/api/v3/actions?mc_seqno=3')).status).toBe(404);
  });

  it('pending: traces whose messages are still in flight, and their transactions', async () => {
    const p = ref.seeded.pendingTrace;
    expect(p.state).toBe('pending');
    const r = S.TracesResponse.parse((await get(ref.fx.app, `/api/v3/pendingTraces?account=${p.accounts[0]}`)).body);
    expect(r.traces.map((t) => t.trace_id)).toEqual([b64(p.traceId)]);
    expect(r.traces[0].trace_info).toMatchObject({ trace_state: 'pending', pending_messages: p.pendingEdges });
    expect(S.TracesResponse.parse((await get(ref.fx.app, `/api/v3/pendingTraces?account=${ref.seeded.trace.accounts[0]}`)).body).traces).toEqual([]);
    const txs = S.TransactionsResponse.parse((await get(ref.fx.app, `/api/v3/pendingTransactions?account=${p.accounts[0]}`)).body).transactions;
    expect(txs.map((t) => t.hash)).toEqual(p.txHashes.map(b64));
    expect((await get(ref.fx.app, `/api/v3/pendingTransactions?account=${ref.seeded.trace.accounts[0]}`)).status).toBe(404);
    expect((await get(ref.fx.app, '/api/v3/pendingTraces')).body.error).toBe('account or ext_msg_hash should be specified');
    const byExt = S.TracesResponse.parse((await get(ref.fx.app, `/api/v3/pendingTraces?ext_msg_hash=${p.externalHash}`)).body);
    expect(byExt.traces).toHaveLength(1);
  });
});

describe('utilities and legacy group', () => {
  it('decode: opcode names and a text comment body, GET and POST', async () => {
    const g = await get(ref.fx.app, '/api/v3/decode?opcodes=0x0f8a7ea5&opcodes=178d4519&opcodes=zz1');
    expect(g.body.error).toBe('invalid opcode format at index 2: zz1');
    const ok = await get(ref.fx.app, '/api/v3/decode?opcodes=0x0f8a7ea5&opcodes=7362d09c&bodies=te6ccgEBAQEADgAAGAAAAADZhdmK2LLZiA==');
    // /decode returns ton-marker's shape (`text`); only message_content.decoded keeps the back-compatible `comment`
    expect(ok.body).toEqual({ opcodes: ['jetton_transfer', 'jetton_notify'], bodies: [{ '@type': 'text_comment', text: 'ميزو' }] });
    const post = await ref.fx.app.inject({ method: 'POST', url: '/api/v3/decode', payload: { opcodes: ['0xd53276db'] } });
    expect(post.json()).toEqual({ opcodes: ['excess'], bodies: [] });
    const bad = await ref.fx.app.inject({ method: 'POST', url: '/api/v3/decode', payload: { opcode: ['x'] } });
    expect(bad.statusCode).toBe(422);
  });

  it('node-layer calls are 501 without a node; bad bodies 422', async () => {
    const r = await ref.fx.app.inject({ method: 'POST', url: '/api/v3/runGetMethod', payload: { address: ref.seeded.transfer.source, method: 'seqno', stack: [] } });
    expect(r.statusCode).toBe(501);
    expect(r.json().error).toMatch(/node layer/);
    const bad = await ref.fx.app.inject({ method: 'POST', url: '/api/v3/message', payload: {} });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error).toMatch(/boc/);
  });
});
