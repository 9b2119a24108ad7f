/**
 * ton-blockchain/ton's elector (test/fixtures/codes/elector-code.boc, compiled from elector-code.fc: MANIFEST.md)
 * driven in the emulator (@ton/sandbox) through an election: its tick announces it, two validators stake (signed
 * new_stake), a later tick conducts it and sends the new set to the config contract, then a complaint and a vote of
 * the elected set. `electionScenario` reads the snapshots (src/entities/elector.ts) at each step and checks, with
 * `expect`, what it drove; test/entities/elector.test.ts and test/api-v3/validator-elections.test.ts use it.
 */
import { readFileSync } from 'node:fs';
import { Address, beginCell, Cell, Dictionary, type Slice } from '@ton/core';
import { keyPairFromSeed, sign, type KeyPair } from '@ton/crypto';
import { Blockchain, createShardAccount, defaultConfig, internal } from '@ton/sandbox';
import { expect } from 'vitest';
import { configDictCell, configParamReader, electorSnapshot, type ElectorTriggers } from '../../src/entities/index.ts';
import { electorGetMethod } from '../../src/entities/elector-reader.ts';
import { readValidatorSet } from '../../src/contracts/index.ts';

export const CODE = Cell.fromBoc(readFileSync(new URL('../fixtures/codes/elector-code.boc', import.meta.url)))[0];
export const ELECTOR = Address.parse('-1:' + '33'.repeat(32));
export const TON = 1_000_000_000n;

export const base = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), Cell.fromBase64(defaultConfig));
export function config(over: Record<number, Cell | null>): Cell {
  const params = new Map<number, Cell>();
  for (const k of base.keys()) params.set(k, base.get(k)!);
  for (const [k, v] of Object.entries(over)) {
    if (v) params.set(Number(k), v);
    else params.delete(Number(k));
  }
  return configDictCell(params);
}
// one validator may be elected (config 16), small stakes (config 17), and no next set yet (36) so the tick announces
export const p16 = beginCell().storeUint(400, 16).storeUint(100, 16).storeUint(1, 16).endCell();
export const p17 = beginCell().storeCoins(10n * TON).storeCoins(10_000_000n * TON).storeCoins(10n * TON).storeUint(3 << 16, 32).endCell();
export const cur = readValidatorSet(base.get(34)!);
const p15 = base.get(15)!.beginParse();
p15.skip(32); // validators_elected_for
const [beginBefore, endBefore] = [p15.loadUint(32), p15.loadUint(32)];

export const key = (n: number): KeyPair => keyPairFromSeed(Buffer.alloc(32, n));
export const hex = (b: Buffer): string => b.toString('hex').toUpperCase();
const holder = (n: number) => Address.parse('-1:' + n.toString(16).padStart(2, '0').repeat(32));

function newStake(k: KeyPair, from: Address, electAt: number, maxFactor: number, adnl: Buffer, queryId: bigint): Cell {
  const signed = beginCell().storeUint(0x654c5074, 32).storeUint(electAt, 32).storeUint(maxFactor, 32).storeBuffer(from.hash).storeBuffer(adnl).endCell();
  const signature = sign(signed.beginParse().loadBuffer(76), k.secretKey);
  return beginCell().storeUint(0x4e73744b, 32).storeUint(queryId, 64).storeBuffer(k.publicKey).storeUint(electAt, 32).storeUint(maxFactor, 32)
    .storeBuffer(adnl).storeRef(beginCell().storeBuffer(signature).endCell()).endCell();
}

export async function electorState(bc: Blockchain) {
  const sa = (await bc.getContract(ELECTOR)).account;
  const st = sa.account!.storage.state;
  if (st.type !== 'active') throw new Error('elector not active');
  return { code: st.state.code!, data: st.state.data!, address: ELECTOR, balance: sa.account!.storage.balance.coins };
}

export const triggers = (t: Partial<ElectorTriggers>): ElectorTriggers => ({ hasKeyBlock: false, activeElectionDirty: false, complaintElectionIds: new Set(), ...t });

export async function electionScenario() {
  let cfg = config({ 16: p16, 17: p17, 36: null });
  const bc = await Blockchain.create({ config: cfg });
  const data = beginCell().storeBit(0).storeBit(0).storeBit(0).storeCoins(0).storeUint(0, 32).storeUint(0, 256).endCell();
  await bc.setShardAccount(ELECTOR, createShardAccount({ address: ELECTOR, code: CODE, data, balance: 1000n * TON, workchain: -1 }));

  // before any election: participant_list_extended answers elect_at 0, no row
  let now = cur.utime_until - beginBefore + 30;
  bc.now = now;
  const run0 = electorGetMethod(await electorState(bc), cfg, now);
  const none = await electorSnapshot(triggers({ activeElectionDirty: true }), run0, configParamReader(cfg), 10);
  expect(none.validator_elections).toEqual([]);
  expect(none.failures).toEqual([]);

  // the tick announces elections (started at t0, less than 60 s ago)
  await bc.runTickTock(ELECTOR, 'tick');
  const electAt = cur.utime_until - beginBefore + beginBefore;
  const [k1, k2] = [key(1), key(2)];
  const [a1, a2] = [Buffer.alloc(32, 0xa1), Buffer.alloc(32, 0xa2)];
  now += 100;
  bc.now = now;
  const s1 = await bc.sendMessage(internal({ from: holder(0xaa), to: ELECTOR, value: 400_001n * TON, body: newStake(k1, holder(0xaa), electAt, 2 << 16, a1, 7n) }));
  const s2 = await bc.sendMessage(internal({ from: holder(0xbb), to: ELECTOR, value: 150_001n * TON, body: newStake(k2, holder(0xbb), electAt, 3 << 16, a2, 0n) }));
  for (const s of [s1, s2]) expect(s.transactions[0].description.type === 'generic' && s.transactions[0].description.computePhase.type === 'vm' && s.transactions[0].description.computePhase.success).toBe(true);

  const run1 = electorGetMethod(await electorState(bc), cfg, now);
  const open = await electorSnapshot(triggers({ activeElectionDirty: true }), run1, configParamReader(cfg), 11);
  expect(open.failures).toEqual([]);
  expect(open.validator_elections).toEqual([{
    election_id: electAt, elect_close: electAt - endBefore, min_stake: 10n * TON, total_stake: 550_000n * TON, failed: false, finished: false, source_mc_seqno: 11,
  }]);
  const byKey = new Map(open.validator_election_participants.map((p) => [p.validator_pubkey, p]));
  expect(byKey.get(hex(k1.publicKey))).toEqual({
    election_id: electAt, validator_pubkey: hex(k1.publicKey), stake: 400_000n * TON, max_factor: 2 << 16, stake_holder_address: '-1:' + 'AA'.repeat(32), adnl_addr: hex(a1), source_mc_seqno: 11,
  });
  expect(byKey.get(hex(k2.publicKey))).toMatchObject({ stake: 150_000n * TON, max_factor: 3 << 16, stake_holder_address: '-1:' + 'BB'.repeat(32), adnl_addr: hex(a2) });
  // not a key block, no complaint: no cycles asked of past_elections
  expect(open.cycles).toBeNull();

  // after elect_close the tick conducts the election and sends the set to the config contract
  now = electAt - endBefore + 5;
  bc.now = now;
  const conducted = await bc.runTickTock(ELECTOR, 'tick');
  const toConfig = conducted.transactions[0].outMessages.values().find((m) => m.info.dest?.toString() === Address.parse('-1:' + '55'.repeat(32)).toString());
  expect(toConfig).toBeDefined();
  const vset = toConfig!.body.refs[0];
  const set = readValidatorSet(vset);
  expect(set.total).toBe(2);

  // a key block that makes it the current set (34): the cycle gets election_id, total_stake and each member's stake
  cfg = config({ 16: p16, 17: p17, 34: vset, 36: null, 32: base.get(34)! });
  bc.setConfig(cfg);
  const run2 = electorGetMethod(await electorState(bc), cfg, now);
  const key1 = await electorSnapshot(triggers({ hasKeyBlock: true }), run2, configParamReader(cfg), 12);
  // the conducting tick changed the active election: finished, still listed until the set is installed
  const done = await electorSnapshot(triggers({ activeElectionDirty: true }), run2, configParamReader(cfg), 12);
  expect(done.validator_elections).toMatchObject([{ election_id: electAt, finished: true, failed: false, total_stake: 550_000n * TON }]);
  expect(key1.failures).toEqual([]);
  const cycle = key1.cycles!.validator_cycles.find((c) => c.utime_since === set.utime_since)!;
  expect(cycle.election_id).toBe(electAt);
  const members = key1.cycles!.validator_cycle_members.filter((m) => m.utime_since === set.utime_since);
  const stakes = members.map((m) => m.stake as bigint);
  expect(cycle.total_stake).toBe(stakes.reduce((a, b) => a + b, 0n));
  // k1's factor 2 bounds its stake to twice the smallest (k2's 150k): both elected (450k) beat k1 alone (400k): the elector's own try_elect
  expect(new Map(members.map((m) => [m.validator_pubkey, m.stake]))).toEqual(new Map([[hex(k1.publicKey), 300_000n * TON], [hex(k2.publicKey), 150_000n * TON]]));
  // the previous set (32) is no election of this elector: no election id, no stakes
  const old = key1.cycles!.validator_cycles.find((c) => c.utime_since === cur.utime_since)!;
  expect(old.election_id).toBeNull();
  expect(key1.validator_complaints).toEqual([]);
  // the block did not touch the active election: participant_list_extended not run
  expect(key1.validator_elections).toEqual([]);

  // a complaint against k2, from a third masterchain address
  const description = beginCell().storeUint(0xfeedbeef, 32).endCell();
  const complaintBody = beginCell().storeUint(0x52674370, 32).storeUint(9, 64).storeUint(electAt, 32)
    .storeInt(0xbc - 0x100, 8).storeBuffer(k2.publicKey).storeRef(description).storeUint(0, 32).storeUint(1, 8).storeUint(0, 256)
    .storeCoins(0).storeCoins(5_000n * TON).storeUint(0, 32).endCell();
  now += 60;
  bc.now = now;
  const sent = await bc.sendMessage(internal({ from: holder(0xcc), to: ELECTOR, value: 10_000n * TON, body: complaintBody }));
  const answer = sent.transactions[0].outMessages.values()[0].body.beginParse();
  expect(answer.loadUint(32)).toBe(0xf2676350); // accepted
  const run3 = electorGetMethod(await electorState(bc), cfg, now);
  const filed = await electorSnapshot(triggers({ complaintElectionIds: new Set([electAt]) }), run3, configParamReader(cfg), 13);
  expect(filed.failures).toEqual([]);
  expect(filed.cycles).toBeNull();
  expect(filed.validator_complaints).toHaveLength(1);
  const c = filed.validator_complaints[0];
  const required = (set.total_weight * 2n) / 3n;
  expect(c).toMatchObject({
    election_id: electAt, validator_pubkey: hex(k2.publicKey), adnl_addr: hex(a2), created_at: now, severity: 1, reward_address: '-1:' + 'CC'.repeat(32),
    suggested_fine: 5_000n * TON, suggested_fine_part: 0, voted_validators: '[]', vset_id: '0'.repeat(64), weight_remaining: required, is_passed: false, approved_percent: 0,
    description_boc: description.toBoc().toString('base64'), source_mc_seqno: 13,
  });
  expect(c.paid as bigint).toBeGreaterThan(0n);
  const chash = BigInt('0x' + String(c.complaint_hash));

  // k1 (index 0 of the set) votes: its weight alone is more than 2/3, the complaint passes
  const idx = members.find((m) => m.validator_pubkey === hex(k1.publicKey))!.validator_index as number;
  const weight = set.members[idx].weight;
  const signedPart = beginCell().storeUint(0x56744350, 32).storeUint(idx, 16).storeUint(electAt, 32).storeUint(chash, 256).endCell();
  const sig = sign(signedPart.beginParse().loadBuffer(42), k1.secretKey);
  const vote = beginCell().storeUint(0x56744370, 32).storeUint(10, 64).storeBuffer(sig).storeSlice(signedPart.beginParse() as Slice).endCell();
  now += 60;
  bc.now = now;
  await bc.sendMessage(internal({ from: holder(0xdd), to: ELECTOR, value: 2n * TON, body: vote }));
  const run4 = electorGetMethod(await electorState(bc), cfg, now);
  const voted = await electorSnapshot(triggers({ complaintElectionIds: new Set([electAt]) }), run4, configParamReader(cfg), 14);
  expect(voted.failures).toEqual([]);
  const v = voted.validator_complaints[0];
  const remaining = required - weight;
  expect(v).toMatchObject({
    complaint_hash: c.complaint_hash, vset_id: vset.hash().toString('hex').toUpperCase(), weight_remaining: remaining, is_passed: remaining < 0n,
    approved_percent: Math.round((Number(weight) / Number(set.total_weight)) * 100 * 1000) / 1000,
  });
  expect(JSON.parse(String(v.voted_validators))).toEqual([{ validator_index: idx, validator_pubkey: hex(k1.publicKey), adnl_addr: hex(a1), weight: String(weight) }]);

  // a complaint trigger for another election reads nothing
  const other = await electorSnapshot(triggers({ complaintElectionIds: new Set([electAt + 1]) }), run4, configParamReader(cfg), 15);
  expect(other.validator_complaints).toEqual([]);
  // no elector state (the block has none): cycles from config alone, no election rows
  const bare = await electorSnapshot(triggers({ hasKeyBlock: true, activeElectionDirty: true }), null, configParamReader(cfg), 16);
  expect(bare.cycles!.validator_cycles.every((x) => x.election_id === null)).toBe(true);
  expect(bare.validator_elections).toEqual([]);
  return { none, open, done, key1, filed, voted, other, bare, electAt, set, vset, members, k1, k2, a1, a2, c, v, required, weight, idx, description };
}
