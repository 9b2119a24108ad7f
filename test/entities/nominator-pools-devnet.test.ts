/**
 * The official nominator pool (its real code, test/fixtures/codes/nominator-pool-v1.boc) on a devnet generated at
 * test time: deployed in the masterchain by the validator's wallet, nominators depositing ("d") from the basechain,
 * two deposits processed by the pool in one block, the validator depositing (op 4) and withdrawing (op 5), a
 * nominator withdrawing ("w"). The chain is served by the devnet liteserver over ADNL and indexed by runIndexer with
 * that liteserver, so the pool's state before each block comes from getAccountState and its transactions are
 * replayed in the emulator (src/entities/nominator-pool-replay.ts). The truth is the generator's own emulator state
 * after each pool transaction (ProducedTx.shardAccount), read by the pool's layout.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Address, beginCell, Cell, contractAddress, loadShardAccount, toNano, type StateInit } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexDevnetDir } from '../helpers/devnet-index.ts';
import { KeyStore } from '../../src/api/auth/index.ts';
import { buildServer } from '../../src/api/server.ts';
import { v3Group } from '../../src/api/v3/index.ts';
import { parseNominatorPoolStorage, type NominatorPoolStorage } from '../../src/contracts/index.ts';
import { comment, createDevnet, walletExternal, writeDevnetDir, type ProducedBlock, type Wallet } from '../../src/devnet/generate/index.ts';
import type { LiteServer } from '../../src/devnet/liteserver/index.ts';
import { openStore, type StoreClient } from '../../src/store/client/index.ts';
import { decodeBlock, type DecodedBlock } from '../../src/ton/index.ts';

const CODE = Cell.fromBoc(readFileSync(new URL('../fixtures/codes/nominator-pool-v1.boc', import.meta.url)))[0];
const START = 1_760_000_000;

let dir = '';
let data = '';
let ls: LiteServer;
let store: StoreClient;
let pool: Address;
let validator: Wallet;
let nominators: Wallet[];
const produced: ProducedBlock[] = [];
let decoded: DecodedBlock[] = [];

/** The pool's initial data (nominator-pool's storage layout): validator, 40% reward share, 10 nominators, stakes. */
function poolData(validatorHash: Buffer): Cell {
  const config = beginCell().storeBuffer(validatorHash, 32).storeUint(4000, 16).storeUint(10, 16).storeCoins(toNano('10')).storeCoins(toNano('10')).endCell();
  return beginCell()
    .storeUint(0, 8).storeUint(0, 16).storeCoins(0).storeCoins(0).storeRef(config)
    .storeMaybeRef(null).storeMaybeRef(null).storeUint(0, 32).storeUint(0, 256).storeUint(0, 8).storeUint(0, 32).storeUint(0, 32).storeMaybeRef(null)
    .endCell();
}

const raw = (a: Address) => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;

beforeAll(async () => {
  const live = await createDevnet({ seed: 'nominator-pools', startTime: START });
  const { alice, bob, master } = live.scenarios;
  validator = master;
  nominators = [alice, bob];
  const init: StateInit = { code: CODE, data: poolData(master.address.hash) };
  pool = contractAddress(-1, init);
  const until = START + 100_000;
  const send = (w: Wallet, to: Address, value: bigint, body?: Cell, withInit?: StateInit) =>
    live.sendMessage(walletExternal(w, [{ to, value, bounce: !withInit, body, init: withInit }], until).toBoc());
  const round = async () => produced.push(...(await live.produceRound()));
  // 1: the validator deploys the pool; 2: the validator deposits (op 4), alice and bob deposit ("d"): their
  // messages cross from the basechain and reach the pool in the same round; 4: alice withdraws ("w"), the validator
  // withdraws 20 TON (op 5)
  send(master, pool, toNano('2'), undefined, init);
  await round();
  send(master, pool, toNano('100'), beginCell().storeUint(4, 32).storeUint(7, 64).endCell());
  send(alice, pool, toNano('30'), comment('d'));
  send(bob, pool, toNano('45'), comment('d'));
  await round();
  await round();
  await round();
  send(alice, pool, toNano('1'), comment('w'));
  send(master, pool, toNano('1'), beginCell().storeUint(5, 32).storeUint(8, 64).storeCoins(toNano('20')).endCell());
  await round();
  await round();
  await round();
  decoded = produced.map((b) => decodeBlock(b.boc));
  dir = mkdtempSync(join(tmpdir(), 'tg-pools-devnet-'));
  data = mkdtempSync(join(tmpdir(), 'tg-pools-store-'));
  writeDevnetDir(live.devnet, dir, { states: 'all' });
  store = await openStore({ dataDir: data });
  const last = Math.max(...decoded.filter((b) => b.id.workchain === -1).map((b) => b.id.seqno));
  ls = await indexDevnetDir(dir, store, { until: last, key: 29 });
}, 300_000);

afterAll(async () => {
  await store?.close();
  await ls?.close();
  for (const d of [dir, data]) if (d) rmSync(d, { recursive: true, force: true });
});

/** The generator's pool transactions in lt order, with its storage after each (the emulator's own state). */
function truth(): { hash: string; inSource: string | null; storage: NominatorPoolStorage }[] {
  const txs = produced.flatMap((b) => b.txs).filter((t) => t.workchain === -1 && t.account === BigInt('0x' + pool.hash.toString('hex')));
  txs.sort((a, b) => (a.lt < b.lt ? -1 : 1));
  const byHash = new Map(decoded.flatMap((b) => b.transactions).map((t) => [t.hash, t]));
  return txs.map((t) => {
    const row = byHash.get(t.hash.toString('hex'))!;
    return { hash: row.hash, inSource: row.in_msg?.source ?? null, storage: storageOf(t.shardAccount) };
  });
}

/** The pool's data in the generator's ShardAccount (@ton/core's Account reader), read by the pool's layout. */
function storageOf(shardAccountB64: string): NominatorPoolStorage {
  const sa = loadShardAccount(Cell.fromBase64(shardAccountB64).beginParse());
  const st = sa.account!.storage.state;
  if (st.type !== 'active' || !st.state.data) throw new Error('the pool is not active');
  return parseNominatorPoolStorage(st.state.data);
}

describe('nominator pools replayed from a liteserver state and the emulator (devnet, the real pool code)', () => {
  it('the chain has two pool transactions in one block (the replay crosses a state the block does not carry)', () => {
    const poolRaw = raw(pool);
    const counts = decoded.map((b) => b.transactions.filter((t) => t.account === poolRaw).length);
    expect(Math.max(...counts)).toBeGreaterThanOrEqual(3);
  });

  it('nominator events: each deposit and the withdrawal, with the balances the chain had before and after', async () => {
    const t = truth();
    const rows = await store.query<Record<string, string | number | boolean>>(
      'SELECT * FROM nominator_pool_events FINAL WHERE pool_address = {p:String} ORDER BY tx_lt, event_index', { p: raw(pool) });
    const want: Record<string, unknown>[] = [];
    let prev: NominatorPoolStorage | null = null;
    for (const x of t) {
      if (prev) {
        for (const w of nominators) {
          const a = raw(w.address);
          const b = prev.nominators.find((n) => n.address === a);
          const c = x.storage.nominators.find((n) => n.address === a);
          const before = (b?.amount ?? 0n) + (b?.pendingDepositAmount ?? 0n);
          const after = (c?.amount ?? 0n) + (c?.pendingDepositAmount ?? 0n);
          if (after > before) want.push({ tx_hash: x.hash, nominator_address: a, event_type: 'deposit', amount: String(after - before), balance_after: String(c?.amount ?? 0n) });
          if (after < before) want.push({ tx_hash: x.hash, nominator_address: a, event_type: 'withdrawal', amount: String(before - after), balance_after: String(c?.amount ?? 0n) });
        }
      }
      prev = x.storage;
    }
    expect(want.map((w) => w.event_type)).toEqual(['deposit', 'deposit', 'withdrawal']);
    expect(rows.map((r) => ({ tx_hash: r.tx_hash, nominator_address: r.nominator_address, event_type: r.event_type, amount: String(r.amount), balance_after: String(r.balance_after) }))).toEqual(want);
  });

  it('validator events: the deposit (op 4) and the withdrawal (op 5) with their query ids', async () => {
    const rows = await store.query<Record<string, string | number | null>>(
      'SELECT event_type, amount, balance_before, balance_after, query_id, validator_address, validator_reward_share FROM nominator_pool_validator_events FINAL WHERE pool_address = {p:String} ORDER BY tx_lt', { p: raw(pool) });
    const t = truth();
    // the validator's amount after the deposit and after the withdrawal, as the generator's states have them
    const changes = t.map((x) => x.storage.validatorAmount).filter((v, i, all) => i === 0 || v !== all[i - 1]).filter((v) => v !== 0n);
    expect(rows.map((r) => [r.event_type, String(r.query_id), r.validator_address, Number(r.validator_reward_share)])).toEqual([
      ['deposit', '7', raw(validator.address), 4000],
      ['withdrawal', '8', raw(validator.address), 4000],
    ]);
    expect(rows.map((r) => [String(r.balance_before), String(r.balance_after), String(r.amount)])).toEqual([
      ['0', String(changes[0]), String(changes[0])],
      [String(changes[0]), String(changes[1]), String(changes[0] - changes[1])],
    ]);
  });

  it('the pool row is its storage after the last transaction', async () => {
    const t = truth();
    const last = t[t.length - 1].storage;
    const rows = await store.query<Record<string, string | number>>('SELECT * FROM nominator_pools FINAL WHERE address = {p:String}', { p: raw(pool) });
    expect(rows).toHaveLength(1);
    expect({ validator_amount: String(rows[0].validator_amount), nominators_count: Number(rows[0].nominators_count), state: Number(rows[0].state) })
      .toEqual({ validator_amount: String(last.validatorAmount), nominators_count: last.nominatorsCount, state: last.state });
    expect(JSON.parse(String(rows[0].active_nominators))).toEqual(last.nominators.map((n) => ({ address: n.address, balance: String(n.amount), pending_balance: String(n.pendingDepositAmount) })));
  });
});

describe('API v3 staking/nominatorPools/* over those rows', () => {
  async function get(url: string): Promise<{ status: number; body: Record<string, unknown> }> {
    const app = buildServer({ networks: [{ name: 'devnet', testnet: true, services: {} }], keys: new KeyStore({ anonymous: { rps: 1_000_000 } }), groups: [v3Group({ store, testnet: true })] });
    await app.ready();
    try {
      const r = await app.inject({ method: 'GET', url });
      return { status: r.statusCode, body: r.json() as Record<string, unknown> };
    } finally {
      await app.close();
    }
  }
  const p = () => encodeURIComponent(raw(pool));

  it('pool: the latest state; an unknown pool is 404, a missing one 422', async () => {
    const last = truth().at(-1)!.storage;
    const r = await get(`/api/v3/staking/nominatorPools/pool?pool=${p()}`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ validator_amount: String(last.validatorAmount), validator_address: raw(validator.address), validator_reward_share: 4000, max_nominators_count: 10, min_nominator_stake: '10000000000' });
    expect((await get(`/api/v3/staking/nominatorPools/pool?pool=${encodeURIComponent(raw(validator.address))}`)).status).toBe(404);
    expect((await get('/api/v3/staking/nominatorPools/pool')).status).toBe(422);
  });

  it('nominator: bob\'s position; nominatorEvents newest first; validatorEvents by pool with a type, and one of the two required', async () => {
    const bob = raw(nominators[1].address);
    const pos = await get(`/api/v3/staking/nominatorPools/nominator?nominator=${encodeURIComponent(bob)}`);
    const last = truth().at(-1)!.storage.nominators.find((n) => n.address === bob)!;
    expect(pos.body.nominator_pools).toEqual([{ pool_address: raw(pool), balance: String(last.amount), pending_balance: String(last.pendingDepositAmount) }]);
    const ev = await get(`/api/v3/staking/nominatorPools/nominatorEvents?pool=${p()}`);
    expect((ev.body.events as { type: string }[]).map((e) => e.type)).toEqual(['withdrawal', 'deposit', 'deposit']);
    const v = await get(`/api/v3/staking/nominatorPools/validatorEvents?pool=${p()}&type=deposit`);
    expect((v.body.events as { type: string; query_id: string }[]).map((e) => [e.type, e.query_id])).toEqual([['deposit', '7']]);
    expect((await get('/api/v3/staking/nominatorPools/validatorEvents')).body).toMatchObject({ error: 'validator or pool parameter is required' });
    const bad = await get(`/api/v3/staking/nominatorPools/nominatorEvents?pool=${p()}&start_utime=5&end_utime=4`);
    expect(bad.status).toBe(422);
  });
});
