// Account states between transactions of one account in one block, on a devnet chain made for it: wallets that
// send two externals in a round and receive several transfers in the next. The emulator that ran each transaction
// gives the real state after it (ProducedTx.shardAccount): every state the decoder derives, and every state
// /api/v3/transactions renders, is checked against it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cell, loadShardAccount, type Address } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyStore } from '../../src/api/auth/index.ts';
import { buildServer } from '../../src/api/server.ts';
import { v3Group } from '../../src/api/v3/index.ts';
import { comment, createDevnet, walletExternal, type ProducedBlock } from '../../src/devnet/generate/index.ts';
import { importBlocks } from '../../pipelines/index.ts';
import { openStore, type StoreClient } from '../../src/store/client/index.ts';
import { decodeBlock, type DecodedBlock } from '../../src/ton/index.ts';
import { bothWays, get } from './helpers.ts';
import type { FastifyInstance } from 'fastify';

interface Truth {
  hash: string;
  balance: bigint;
  status: string;
  code: string | null;
  data: string | null;
}

/** The emulator's ShardAccount after a transaction, read by @ton/core. */
function truthOf(b64: string): Truth {
  if (!b64) return { hash: '', balance: 0n, status: 'nonexist', code: null, data: null };
  const cell = Cell.fromBase64(b64);
  const sa = loadShardAccount(cell.beginParse());
  const st = sa.account!.storage.state;
  return {
    hash: cell.refs[0].hash().toString('hex'),
    balance: sa.account!.storage.balance.coins,
    status: st.type === 'active' ? 'active' : st.type === 'frozen' ? 'frozen' : 'uninit',
    code: st.type === 'active' && st.state.code ? st.state.code.hash().toString('hex') : null,
    data: st.type === 'active' && st.state.data ? st.state.data.hash().toString('hex') : null,
  };
}

const b64 = (hex: string | null) => (hex === null ? null : Buffer.from(hex, 'hex').toString('base64'));

const produced: ProducedBlock[] = [];
let decoded: DecodedBlock[] = [];
const truth = new Map<string, Truth>();
let aliceRaw = '';
let bobRaw = '';
let dir = '';
let store: StoreClient;
let app: FastifyInstance;

beforeAll(async () => {
  const start = 1_750_000_000;
  const live = await createDevnet({ seed: 'states-devnet', startTime: start });
  const { alice, bob, carol, dave } = live.scenarios;
  const raw = (a: Address) => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;
  aliceRaw = raw(alice.address);
  bobRaw = raw(bob.address);
  const until = start + 10_000;
  const send = (from: typeof alice, to: typeof alice, value: bigint, text: string) =>
    live.sendMessage(walletExternal(from, [{ to: to.address, value, bounce: true, body: comment(text) }], until).toBoc());
  // round 1: alice sends twice (two externals, seqno n and n + 1), carol and dave pay bob and alice
  send(alice, bob, 1_000_000_000n, 'one');
  send(alice, bob, 2_000_000_000n, 'two');
  send(carol, bob, 3_000_000_000n, 'three');
  send(dave, alice, 500_000_000n, 'to alice');
  produced.push(...(await live.produceRound()));
  // round 2: bob receives three transfers; alice receives one and sends again
  send(alice, carol, 700_000_000n, 'again');
  produced.push(...(await live.produceRound()));
  produced.push(...(await live.produceRound()));
  for (const b of produced) for (const t of b.txs) truth.set(t.hash.toString('hex'), truthOf(t.shardAccount));
  decoded = produced.map((b) => decodeBlock(b.boc));

  dir = mkdtempSync(join(tmpdir(), 'tg-states-devnet-'));
  store = await openStore({ dataDir: dir });
  await importBlocks(store, decoded);
  app = buildServer({ networks: [{ name: 'devnet', testnet: true, services: {} }], keys: new KeyStore({ anonymous: { rps: 1_000_000 } }), groups: [v3Group({ store, testnet: true })] });
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await store?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('states between one account\'s transactions in one block (devnet, checked against the emulator)', () => {
  it('the chain has accounts with several transactions in a block: alice (two externals; an external and a transfer) and bob (three transfers)', () => {
    const several = decoded.flatMap((b) => {
      const n = new Map<string, number>();
      for (const t of b.transactions) n.set(t.account, (n.get(t.account) ?? 0) + 1);
      return [...n].filter(([, c]) => c > 1).map(([a, c]) => `${a}:${c}`);
    });
    expect(several).toEqual(expect.arrayContaining([`${aliceRaw}:2`, `${bobRaw}:3`]));
  });

  it('every derived state is the emulator\'s state after that transaction: hash, balance, status, and code / data wherever derived', () => {
    let complete = 0;
    let partial = 0;
    for (const b of decoded) {
      for (const s of b.intermediate_states) {
        const t = truth.get(s.last_trans_hash)!;
        expect(t).toBeDefined();
        expect([s.hash, s.balance, s.account_status]).toEqual([t.hash, t.balance, t.status]);
        if (s.code_hash !== null) expect(s.code_hash).toBe(t.code);
        if (s.data_hash !== null) expect(s.data_hash).toBe(t.data);
        if (s.complete) {
          complete++;
          expect([s.code_hash, s.data_hash]).toEqual([t.code, t.data]);
        } else partial++;
      }
      // the state before an account's first transaction of the block: the one after its previous transaction
      for (const s of b.states_before) {
        const t = truth.get(s.last_trans_hash);
        if (!t) continue; // the previous transaction is the genesis state
        expect([s.hash, s.balance, s.account_status]).toEqual([t.hash, t.balance, t.status]);
        if (s.complete) expect([s.code_hash, s.data_hash]).toEqual([t.code, t.data]);
      }
    }
    // bob's transfers leave his data as it was: proved by the rebuilt cell; alice's first external changes her seqno:
    // only her code is carried (no SETCODE possible), the data after it is not in the block
    expect(complete).toBeGreaterThanOrEqual(2);
    expect(partial).toBeGreaterThanOrEqual(1);
    const aliceFirst = decoded.flatMap((b) => b.intermediate_states).find((s) => s.account === aliceRaw)!;
    expect([aliceFirst.complete, aliceFirst.data_hash, aliceFirst.code_hash]).toEqual([false, null, truth.get(aliceFirst.last_trans_hash)!.code]);
  });

  it('/api/v3/transactions renders each transaction\'s states as the emulator had them; one\'s after is the next one\'s before', async () => {
    for (const account of [aliceRaw, bobRaw]) {
      const r = await get(app, `/api/v3/transactions?account=${account}&limit=50&sort=asc`);
      expect(r.status).toBe(200);
      const txs = r.body.transactions as Record<string, Record<string, unknown>>[];
      expect(txs.length).toBeGreaterThanOrEqual(3);
      for (let i = 0; i < txs.length; i++) {
        const t = txs[i];
        const real = truth.get(Buffer.from(String(t.hash), 'base64').toString('hex'))!;
        const after = t.account_state_after;
        expect(after).toMatchObject({ hash: b64(real.hash), balance: String(real.balance), account_status: real.status, extra_currencies: {} });
        if (after.code_hash !== null) expect(after.code_hash).toBe(b64(real.code));
        if (after.data_hash !== null) expect(after.data_hash).toBe(b64(real.data));
        if (i > 0) expect(t.account_state_before).toEqual(txs[i - 1].account_state_after);
        // extra_flags as toncenter renders it: "0" on internal messages, null on externals
        const inMsg = t.in_msg as Record<string, unknown>;
        expect(inMsg.extra_flags).toBe(inMsg.source === null ? null : '0');
        for (const o of t.out_msgs as unknown as Record<string, unknown>[]) expect(o.extra_flags).toBe('0');
        // BoCs as toncenter's indexer stores them
        expect(String((inMsg.message_content as Record<string, unknown>).body)).toMatch(/^te6cck/);
      }
    }
  });

  it('documents and the flattened tables render the same states', async () => {
    const { docs, flat } = await bothWays(store);
    expect(docs.length).toBeGreaterThan(5);
    // a state before an account's first transaction in a block is the previous block's end state: the flattened tables
    // hold it only where that block is stored (not for an account of the zero state); the document always carries it
    type St = Record<string, unknown>;
    const fromZeroState = flat.filter((t) => (t.account_state_before as St).balance === null).length;
    const patched = flat.map((t, i) => {
      const before = t.account_state_before as St;
      if (before.balance !== null) return t;
      expect((docs[i].account_state_before as St).hash).toBe(before.hash);
      return { ...t, account_state_before: docs[i].account_state_before };
    });
    expect(docs).toEqual(patched);
    expect(fromZeroState).toBeLessThan(flat.length);
    const withBalance = docs.filter((t) => (t.account_state_before as St).balance !== null);
    expect(withBalance.length).toBe(docs.length);
  });
});
