/**
 * validators/elections, validators/complaints and the elector's part of validators/cycles (ton-indexer v1.3, issue
 * 35) over a chdb store holding the rows the traces stage derives from a real elector's state: ton-blockchain/ton's
 * elector driven in the emulator through an election, a complaint and a vote (test/entities/elector-scenario.ts),
 * each snapshot written with its masterchain seqno as the stage writes it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Address } from '@ton/core';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type StoreClient } from '../../src/store/client/index.ts';
import { electionScenario, hex, TON } from '../entities/elector-scenario.ts';
import { get, v3App } from './helpers.ts';

let dir: string;
let store: StoreClient;
let app: FastifyInstance;
let r: Awaited<ReturnType<typeof electionScenario>>;
const AA = '-1:' + 'AA'.repeat(32);
const BB = '-1:' + 'BB'.repeat(32);
const CC = '-1:' + 'CC'.repeat(32);
const b64 = (h: string) => Buffer.from(h, 'hex').toString('base64');

beforeAll(async () => {
  r = await electionScenario();
  dir = mkdtempSync(join(tmpdir(), 'api-v3-elections-'));
  store = await openStore({ dataDir: dir, pointReads: 'both' });
  // every snapshot, as the stage writes each batch's (readers keep the latest per key)
  for (const s of [r.open, r.done, r.key1, r.filed, r.voted]) {
    await store.insertRows('validator_elections', s.validator_elections);
    await store.insertRows('validator_election_participants', s.validator_election_participants);
    await store.insertRows('validator_complaints', s.validator_complaints);
    if (s.cycles) {
      await store.insertRows('validator_cycles', s.cycles.validator_cycles);
      await store.insertRows('validator_cycle_members', s.cycles.validator_cycle_members);
    }
  }
  app = await v3App(store, 'tables');
}, 120_000);

afterAll(async () => {
  await app?.close();
  await store?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('validators/elections', () => {
  it('the latest snapshot of each election; participants on request, by stake, with their index in the cycle', async () => {
    const res = await get(app, '/api/v3/validators/elections');
    expect(res.status).toBe(200);
    expect(res.body.elections).toEqual([{
      election_id: r.electAt, elect_close: r.open.validator_elections[0].elect_close, min_stake: String(10n * TON), total_stake: String(550_000n * TON),
      total_participants: 2, failed: false, finished: true,
    }]);
    const idx = new Map(r.members.map((m) => [m.validator_pubkey, m.validator_index]));
    const withP = await get(app, '/api/v3/validators/elections?return_participants=true');
    expect((withP.body.elections as Record<string, unknown>[])[0].participants).toEqual([
      { validator_pubkey: hex(r.k1.publicKey), validator_index: idx.get(hex(r.k1.publicKey)), stake: String(400_000n * TON), max_factor: 2 << 16, stake_holder_address: AA, adnl_addr: hex(r.a1) },
      { validator_pubkey: hex(r.k2.publicKey), validator_index: idx.get(hex(r.k2.publicKey)), stake: String(150_000n * TON), max_factor: 3 << 16, stake_holder_address: BB, adnl_addr: hex(r.a2) },
    ]);
    expect(Object.keys(withP.body.address_book as object).sort()).toEqual([AA, BB]);
    // a participant filter narrows the elections and, with return_participants, the participants listed
    const one = await get(app, `/api/v3/validators/elections?return_participants=true&validator_pubkey=${encodeURIComponent(r.k2.publicKey.toString('base64'))}`);
    expect(((one.body.elections as Record<string, unknown>[])[0].participants as { validator_pubkey: string }[]).map((p) => p.validator_pubkey)).toEqual([hex(r.k2.publicKey)]);
    const ids = async (qs: string) => ((await get(app, `/api/v3/validators/elections?${qs}`)).body.elections as { election_id: number }[]).map((e) => e.election_id);
    expect(await ids(`stake_holder_address=${encodeURIComponent(Address.parseRaw(AA).toString())}`)).toEqual([r.electAt]);
    expect(await ids(`stake_holder_address=${CC}`)).toEqual([]);
    expect(await ids(`adnl_address=${r.a1.toString('hex')}`)).toEqual([r.electAt]);
    expect(await ids('finished=true')).toEqual([r.electAt]);
    expect(await ids('finished=false')).toEqual([]);
    expect(await ids(`election_id=${r.electAt}`)).toEqual([r.electAt]);
    expect(await ids(`start_utime=${r.electAt + 1}`)).toEqual([]);
    expect(await ids(`end_utime=${r.electAt}`)).toEqual([r.electAt]);
  });

  it('refusals as the reference words them', async () => {
    const cases: [string, string][] = [
      ['return_participants=true&limit=101', 'limit must not exceed 100 when return_participants is true'],
      [`stake_holder_address=${AA}&adnl_address=${r.a1.toString('hex')}`, 'provide either stake_holder_address or adnl_address, not both'],
      ['validator_pubkey=abc', 'validator_pubkey must be a 32-byte value in hex, base64 or base64url format'],
    ];
    for (const [qs, error] of cases) {
      const res = await get(app, `/api/v3/validators/elections?${qs}`);
      expect(res.status, qs).toBe(422);
      expect(res.body.error).toBe(error);
    }
    for (const qs of ['finished=maybe', 'election_id=x']) {
      const res = await get(app, `/api/v3/validators/elections?${qs}`);
      expect(res.status, qs).toBe(422);
      expect(String(res.body.error)).toContain(qs.split('=')[0]);
    }
  });
});

describe('validators/cycles: what the elector adds', () => {
  it('election id, total stake, stake bounds; each validator\'s stake, holder, factor and complaints', async () => {
    const res = await get(app, `/api/v3/validators/cycles?cycle_start=${r.set.utime_since}&return_validators=true`);
    expect(res.status).toBe(200);
    const c = (res.body.cycles as Record<string, unknown>[])[0];
    expect(c).toMatchObject({ election_id: r.electAt, total_stake: String(450_000n * TON), min_stake: String(150_000n * TON), max_stake: String(300_000n * TON) });
    const vals = c.validators as Record<string, unknown>[];
    const k1 = vals.find((v) => v.validator_pubkey === hex(r.k1.publicKey))!;
    const k2 = vals.find((v) => v.validator_pubkey === hex(r.k2.publicKey))!;
    expect(k1).toMatchObject({ stake_holder_address: AA, stake: String(300_000n * TON), max_factor: 2 << 16, complaints: [] });
    expect(k2).toMatchObject({ stake_holder_address: BB, stake: String(150_000n * TON), max_factor: 3 << 16 });
    expect((k2.complaints as Record<string, unknown>[]).map((x) => x.complaint_hash)).toEqual([b64(String(r.v.complaint_hash))]);
    expect(Object.keys(res.body.address_book as object).sort()).toEqual([AA, BB, CC]);
    // a stake holder of the cycle's election: its cycle, and with return_validators only its validator
    const mine = await get(app, `/api/v3/validators/cycles?stake_holder_address=${BB}&return_validators=true`);
    const cycles = mine.body.cycles as Record<string, unknown>[];
    expect(cycles.map((x) => x.cycle_start)).toEqual([r.set.utime_since]);
    expect((cycles[0].validators as { validator_pubkey: string }[]).map((v) => v.validator_pubkey)).toEqual([hex(r.k2.publicKey)]);
    expect((await get(app, `/api/v3/validators/cycles?stake_holder_address=${CC}`)).body.cycles).toEqual([]);
    expect((await get(app, `/api/v3/validators/cycles?election_id=${r.electAt}`)).body.cycles).toHaveLength(1);
  });
});

describe('validators/complaints', () => {
  it('the latest snapshot of each complaint, in the reference\'s shape; filters', async () => {
    const res = await get(app, '/api/v3/validators/complaints');
    expect(res.status).toBe(200);
    const v = r.v;
    expect(res.body.complaints).toEqual([{
      cycle_start: r.set.utime_since, election_id: r.electAt, complaint_hash: b64(String(v.complaint_hash)), validator_pubkey: hex(r.k2.publicKey), adnl_addr: hex(r.a2),
      stake_holder_address: BB, description_boc: r.description.toBoc().toString('base64'), created_at: v.created_at, severity: 1, reward_address: CC,
      paid: String(v.paid), suggested_fine: String(5_000n * TON), suggested_fine_part: 0,
      voted_validators: [{ validator_index: r.idx, validator_pubkey: hex(r.k1.publicKey), adnl_addr: hex(r.a1), weight: String(r.weight) }],
      vset_id: r.vset.hash().toString('base64'), weight_remaining: String(r.required - r.weight), approved_percent: v.approved_percent, is_passed: (r.required - r.weight) < 0n,
    }]);
    const n = async (qs: string) => ((await get(app, `/api/v3/validators/complaints?${qs}`)).body.complaints as unknown[]).length;
    expect(await n(`validator_pubkey=${hex(r.k1.publicKey)}`)).toBe(0);
    expect(await n(`validator_pubkey=${hex(r.k2.publicKey)}`)).toBe(1);
    expect(await n(`stake_holder_address=${BB}`)).toBe(1);
    expect(await n(`stake_holder_address=${AA}`)).toBe(0);
    expect(await n(`adnl_address=${r.a2.toString('hex')}`)).toBe(1);
    expect(await n(`cycle_start=${r.set.utime_since}`)).toBe(1);
    expect(await n(`election_id=${r.electAt + 1}`)).toBe(0);
    expect(await n(`start_utime=${Number(v.created_at) + 1}`)).toBe(0);
    expect(await n(`end_utime=${String(v.created_at)}`)).toBe(1);
    const bad = await get(app, '/api/v3/validators/complaints?adnl_address=zz');
    expect(bad.status).toBe(422);
    expect(bad.body.error).toBe('adnl_address must be a 32-byte value in hex, base64 or base64url format');
  });
});
