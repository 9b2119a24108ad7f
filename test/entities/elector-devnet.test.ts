/**
 * The elector read from a liteserver while indexing (src/entities/elector-reader.ts through the traces stage): a devnet
 * generated at test time whose elector (config param 1, -1:3333…) runs ton-blockchain/ton's elector code
 * (test/fixtures/codes/elector-code.boc) from a genesis state with an announced election. The masterchain wallet stakes
 * (a signed new_stake, accepted: the elector's data changes), a basechain wallet stakes later (returned: the data does
 * not change, and the block proves it, so nothing is read). The chain is served by the devnet liteserver over ADNL and indexed by runIndexer with that liteserver: the
 * batch of the accepted stake reads the elector's state at its masterchain block and runs participant_list_extended.
 * The truth is the generator's own state of the elector after that transaction, read by the elector's data layout.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Address, beginCell, Cell, Dictionary, loadShardAccount, toNano, type Slice } from '@ton/core';
import { keyPairFromSeed, sign } from '@ton/crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexDevnetDir } from '../helpers/devnet-index.ts';
import { Devnet, Scenarios, walletExternal, writeDevnetDir, type ProducedBlock, type Wallet } from '../../src/devnet/generate/index.ts';
import type { LiteServer } from '../../src/devnet/liteserver/index.ts';
import { openStore, type StoreClient } from '../../src/store/client/index.ts';
import { decodeBlock } from '../../src/ton/index.ts';
import { electorDataChanged, electorTriggers } from '../../src/entities/index.ts';

const CODE = Cell.fromBoc(readFileSync(new URL('../fixtures/codes/elector-code.boc', import.meta.url)))[0];
const ELECTOR = Address.parse('-1:' + '33'.repeat(32));
const START = 1_760_000_000;
const ELECT_AT = START + 20_000;
const key = keyPairFromSeed(Buffer.alloc(32, 7));
const ADNL = Buffer.alloc(32, 0x3d);
const hex = (b: Buffer) => b.toString('hex').toUpperCase();
const raw = (a: Address) => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;

let dir = '';
let data = '';
let ls: LiteServer;
let store: StoreClient;
let master: Wallet;
const produced: ProducedBlock[] = [];

/** The elector's data (elector-code.fc load_data) with elections announced: elect_at, elect_close, min_stake 10 TON, no members. */
function electorData(): Cell {
  const elect = beginCell().storeUint(ELECT_AT, 32).storeUint(ELECT_AT - 8192, 32).storeCoins(toNano('10')).storeCoins(0).storeBit(0).storeInt(0, 1).storeInt(0, 1).endCell();
  return beginCell().storeMaybeRef(elect).storeBit(0).storeBit(0).storeCoins(0).storeUint(0, 32).storeUint(0, 256).endCell();
}

function newStake(from: Address, maxFactor: number, queryId: bigint): Cell {
  const signed = beginCell().storeUint(0x654c5074, 32).storeUint(ELECT_AT, 32).storeUint(maxFactor, 32).storeBuffer(from.hash).storeBuffer(ADNL).endCell();
  const signature = sign(signed.beginParse().loadBuffer(76), key.secretKey);
  return beginCell().storeUint(0x4e73744b, 32).storeUint(queryId, 64).storeBuffer(key.publicKey).storeUint(ELECT_AT, 32).storeUint(maxFactor, 32)
    .storeBuffer(ADNL).storeRef(beginCell().storeBuffer(signature).endCell()).endCell();
}

beforeAll(async () => {
  const devnet = await Devnet.create({ seed: 'elector', startTime: START });
  const scenarios = new Scenarios(devnet, { bulkWallets: 0, scripted: false });
  devnet.addGenesisAccount(ELECTOR, { code: CODE, data: electorData() }, toNano('1000'));
  await devnet.start();
  master = scenarios.master;
  const until = START + 100_000;
  const round = async () => produced.push(...(await devnet.produceRound()));
  await round();
  // the masterchain wallet stakes 50 TON (the elector keeps 1); alice, in the basechain, is refused
  devnet.submitExternal(walletExternal(master, [{ to: ELECTOR, value: toNano('51'), bounce: true, body: newStake(master.address, 2 << 16, 5n) }], until).toBoc());
  for (let i = 0; i < 3; i++) await round();
  // a block of its own: the states before and after it are both the block's (their data hashes proved)
  devnet.submitExternal(walletExternal(scenarios.alice, [{ to: ELECTOR, value: toNano('20'), bounce: true, body: newStake(scenarios.alice.address, 2 << 16, 6n) }], until).toBoc());
  for (let i = 0; i < 3; i++) await round();
  dir = mkdtempSync(join(tmpdir(), 'tg-elector-devnet-'));
  data = mkdtempSync(join(tmpdir(), 'tg-elector-store-'));
  writeDevnetDir(devnet, dir, { states: 'all' });
  store = await openStore({ dataDir: data });
  const last = Math.max(...produced.filter((b) => b.ref.workchain === -1).map((b) => b.ref.seqno));
  ls = await indexDevnetDir(dir, store, { until: last, key: 31 });
}, 300_000);

afterAll(async () => {
  await store?.close();
  await ls?.close();
  for (const d of [dir, data]) if (d) rmSync(d, { recursive: true, force: true });
});

/** The generator's elector transactions in lt order, each with the members of the active election after it. */
function electorTxs() {
  const id = BigInt('0x' + '33'.repeat(32));
  return produced.flatMap((b) => b.txs.map((t) => ({ t, seqno: b.ref.seqno, wc: b.ref.workchain }))).filter((x) => x.wc === -1 && x.t.account === id).map((x) => {
    const sa = loadShardAccount(Cell.fromBase64(x.t.shardAccount).beginParse());
    const st = sa.account!.storage.state;
    if (st.type !== 'active') throw new Error('elector not active');
    const elect = st.state.data!.beginParse().loadMaybeRef()!.beginParse();
    elect.skip(64);
    elect.loadCoins();
    const total = elect.loadCoins();
    const raw = { serialize: () => { throw new Error('read only'); }, parse: (s: Slice) => s };
    const members = Dictionary.load(Dictionary.Keys.BigUint(256), raw, elect);
    return { seqno: x.seqno, hash: x.t.hash.toString('hex'), total, members: [...members].map(([k, v]) => ({ pubkey: k.toString(16).toUpperCase().padStart(64, '0'), stake: v.loadCoins(), time: v.loadUint(32), factor: v.loadUint(32), addr: v.loadBuffer(32), adnl: v.loadBuffer(32) })) };
  });
}

describe('the elector read from a liteserver while indexing (devnet, the real elector code)', () => {
  it('the accepted stake\'s block gives the election and its participant as participant_list_extended answers on the liteserver\'s state', async () => {
    const txs = electorTxs();
    // two stakes reached the elector; only the masterchain one joined the election
    expect(txs).toHaveLength(2);
    const after = txs[txs.length - 1];
    expect(after.members).toHaveLength(1);
    const m = after.members[0];
    expect(m.pubkey).toBe(hex(key.publicKey));
    const elections = await store.query<Record<string, unknown>>('SELECT * FROM validator_elections FINAL');
    expect(elections).toEqual([{ election_id: ELECT_AT, source_mc_seqno: expect.any(Number), elect_close: ELECT_AT - 8192, min_stake: String(toNano('10')), total_stake: String(after.total), failed: false, finished: false }]);
    const seqnos = txs.filter((t) => t.members.length).map((t) => t.seqno);
    expect(seqnos).toContain(Number(elections[0].source_mc_seqno));
    const parts = await store.query<Record<string, unknown>>('SELECT * FROM validator_election_participants FINAL');
    expect(parts).toEqual([{
      election_id: ELECT_AT, validator_pubkey: m.pubkey, stake_holder_address: '-1:' + hex(m.addr), source_mc_seqno: elections[0].source_mc_seqno,
      stake: String(m.stake), max_factor: m.factor, adnl_addr: hex(m.adnl),
    }]);
    expect('-1:' + hex(m.addr)).toBe(raw(master.address));
    expect(m.stake).toBe(toNano('50'));
  });

  it('triggers: the accepted stake changed the elector\'s data and dirties the election; the returned one changed none', () => {
    const elector = raw(ELECTOR);
    const blocks = produced.map((b) => decodeBlock(b.boc)).filter((b) => b.id.workchain === -1);
    const txs = electorTxs();
    const byHash = new Map(txs.map((t, i) => [t.hash, { ...t, joined: t.members.length > (i ? txs[i - 1].members.length : 0) }]));
    let seen = 0;
    for (const b of blocks) {
      const mine = b.transactions.filter((t) => t.account === elector);
      if (!mine.length) continue;
      for (const tx of mine) {
        seen++;
        expect(electorDataChanged(tx, b), tx.hash).toBe(byHash.get(tx.hash)!.joined);
      }
      expect(electorTriggers([b], elector)).toEqual({ hasKeyBlock: false, activeElectionDirty: mine.some((t) => byHash.get(t.hash)!.joined), complaintElectionIds: new Set() });
    }
    expect(seen).toBe(2);
    expect([...byHash.values()].map((t) => t.joined).sort()).toEqual([false, true]);
    // the key block (1) triggers on its own; without the elector's address nothing else does
    expect(electorTriggers(blocks.filter((b) => b.id.seqno === 1), null).hasKeyBlock).toBe(true);
    expect(electorTriggers(blocks, null).activeElectionDirty).toBe(false);
  });

  it('the key block\'s cycles are the config\'s: the elector had no state in that block, so no election id', async () => {
    const cycles = await store.query<Record<string, unknown>>('SELECT utime_since, election_id FROM validator_cycles FINAL');
    expect(cycles.length).toBeGreaterThan(0);
    expect(cycles.every((c) => c.election_id === null)).toBe(true);
  });
});
