/**
 * Validators (ton-indexer v1.3, issue 35): cycles from real mainnet config (the config proof of masterchain block
 * 65466080, checked against tongo's decoding of the same proof, an independent reader) and from a real key block
 * through the traces stage; stake events from transactions carrying the elector's messages; both routes over a chdb
 * store with the reference's parameters, defaults and refusals.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Address, beginCell, Cell } from '@ton/core';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromProof } from '../../src/api/v2/tlb.ts';
import { validatorCycleRows, validatorEventOf } from '../../src/entities/index.ts';
import { configParam } from '../../src/proofs/index.ts';
import { openStore, type StoreClient } from '../../src/store/client/index.ts';
import { type Row } from '../../src/util/index.ts';
import { decodeBlock, type MessageRow, type TransactionRow } from '../../src/ton/index.ts';
import { createTracesContext, loadAssembler, processMcBatch, writeMcBatch } from '../../src/traces/index.ts';
import { FIXTURES, get, v3App } from './helpers.ts';

const MC = 65466080;
const config = configFromProof(readFileSync(join(FIXTURES, 'config/mainnet-config-state-proof-mc65466080-tongo.boc')));
const param = (id: number) => configParam(config, id);
// tongo's decoding, with the 64-bit weights kept exact
const tongo = JSON.parse(
  readFileSync(join(FIXTURES, 'config/mainnet-config-mc65466080-tongo-decoded.json'), 'utf8').replace(/"(TotalWeight|Weight)": (\d+)/g, '"$1": "$2"'),
) as Record<string, Record<string, unknown>>;

interface TongoSet {
  UtimeSince: number;
  UtimeUntil: number;
  Total: number;
  Main: number;
  TotalWeight: string;
  List: Record<string, { ValidatorAddr: { PublicKey: { PubKey: string }; Weight: string; AdnlAddr: string } }>;
}
const setOf = (p: string, k: string) => (tongo[p][k] as { ValidatorsExt: TongoSet }).ValidatorsExt;

describe('cycles from a real mainnet config', () => {
  it('config 34 and 32 with config 15 / 16 / 17: every value as tongo reads the same proof', () => {
    const { cycles, members } = validatorCycleRows(param, MC);
    const cur = setOf('ConfigParam34', 'CurValidators');
    const prev = setOf('ConfigParam32', 'PrevValidators');
    expect(cycles.map((c) => c.utime_since)).toEqual([cur.UtimeSince, prev.UtimeSince]);
    const p15 = tongo.ConfigParam15 as Record<string, number>;
    const p16 = tongo.ConfigParam16 as Record<string, number>;
    const p17 = tongo.ConfigParam17 as Record<string, string | number>;
    expect(cycles[0]).toEqual({
      utime_since: cur.UtimeSince, utime_until: cur.UtimeUntil, total: cur.Total, main: cur.Main, total_weight: BigInt(cur.TotalWeight),
      election_id: null, total_stake: null, source_mc_seqno: MC,
      validators_elected_for: p15.ValidatorsElectedFor, elections_start_before: p15.ElectionsStartBefore, elections_end_before: p15.ElectionsEndBefore, stake_held_for: p15.StakeHeldFor,
      max_validators: p16.MaxValidators, max_main_validators: p16.MaxMainValidators, min_validators: p16.MinValidators,
      min_stake: BigInt(p17.MinStake), max_stake: BigInt(p17.MaxStake), min_total_stake: BigInt(p17.MinTotalStake), max_stake_factor: p17.MaxStakeFactor,
    });
    const curMembers = members.filter((m) => m.utime_since === cur.UtimeSince);
    expect(curMembers).toHaveLength(cur.Total);
    for (const [i, d] of Object.entries(cur.List)) {
      expect(curMembers[Number(i)]).toEqual({
        utime_since: cur.UtimeSince, validator_index: Number(i), validator_pubkey: d.ValidatorAddr.PublicKey.PubKey.toUpperCase(), adnl_addr: d.ValidatorAddr.AdnlAddr.toUpperCase(),
        weight: BigInt(d.ValidatorAddr.Weight), stake: null, source_mc_seqno: MC,
      });
    }
    expect(curMembers.reduce((t, m) => t + (m.weight as bigint), 0n)).toBe(BigInt(cur.TotalWeight));
    expect(members.filter((m) => m.utime_since === prev.UtimeSince)).toHaveLength(prev.Total);
  });

  it('a param that does not unpack is zeros, as the worker leaves them; a set seen twice is one cycle', () => {
    const bad = (id: number) => (id === 16 ? beginCell().storeUint(1, 16).storeUint(2, 16).storeUint(1, 16).endCell() : id === 32 ? param(34) : param(id));
    const { cycles } = validatorCycleRows(bad, 1);
    expect(cycles).toHaveLength(1);
    expect(cycles[0]).toMatchObject({ max_validators: 0, max_main_validators: 0, min_validators: 0, validators_elected_for: 65536 });
  });
});

// transactions as the block decoder gives them, carrying the elector's messages (elector-code.fc bodies)
const ELECTOR = `-1:${'33'.repeat(32)}`;
const HOLDER = `-1:${'AB'.repeat(32)}`;
const msg = (body: Cell, over: Partial<MessageRow>): MessageRow => ({
  msg_hash: body.hash().toString('hex'), message_type: 'int', source: HOLDER, destination: ELECTOR, source_external: null, destination_external: null, value: 0n,
  value_extra_currencies: {}, fwd_fee: 0n, ihr_fee: 0n, extra_flags: 0n, import_fee: null, created_lt: 1n, created_at: 1, ihr_disabled: true, bounce: true, bounced: false,
  opcode: body.bits.length >= 32 ? body.beginParse().preloadInt(32) : null, body_hash: body.hash().toString('hex'), body_boc: body.toBoc().toString('base64'),
  init_state_hash: null, init_state_boc: null, hash_norm: null, ...over,
});
let lt = 100n;
const tx = (account: string, inMsg: MessageRow, outs: MessageRow[] = [], ok = true): TransactionRow => ({
  hash: (lt++).toString(16).padStart(64, '0'), lt, account, now: 1_700_000_000 + Number(lt), prev_trans_hash: '00'.repeat(32), prev_trans_lt: 0n, outmsg_cnt: outs.length,
  orig_status: 'active', end_status: 'active', total_fees: 0n, total_fees_extra_currencies: {}, account_state_hash_before: '00'.repeat(32), account_state_hash_after: '00'.repeat(32),
  description: { type: 'ord', aborted: !ok, compute_ph: { skipped: false, success: ok } }, in_msg: inMsg, out_msgs: outs, block_ref: null,
});
const PUB = Buffer.alloc(32, 0x5a);
const ADNL = Buffer.alloc(32, 0xad);
const newStake = (q: bigint) => beginCell().storeUint(0x4e73744b, 32).storeUint(q, 64).storeBuffer(PUB).storeUint(1_700_100_000, 32).storeUint(196608, 32).storeBuffer(ADNL)
  .storeRef(beginCell().storeBuffer(Buffer.alloc(64)).endCell()).endCell();
const answer = (op: number, q: bigint, reason?: number) => {
  const b = beginCell().storeUint(op, 32).storeUint(q, 64);
  if (reason !== undefined) b.storeUint(reason, 32);
  return b.endCell();
};

describe('stake events (parse_validator_event)', () => {
  it('every branch', () => {
    const stake = 500_001_000_000_000n;
    const accepted = validatorEventOf(tx(ELECTOR, msg(newStake(7n), { value: stake }), [msg(answer(0xf374484c, 7n), { source: ELECTOR, destination: HOLDER, value: 1_000_000_000n })]), ELECTOR);
    expect(accepted).toEqual({
      event_type: 'stake_accepted', stake_holder_address: HOLDER, validator_pubkey: PUB.toString('hex').toUpperCase(), adnl_addr: ADNL.toString('hex').toUpperCase(),
      election_id: 1_700_100_000, query_id: 7n, amount: stake - 1_000_000_000n, reason: null,
    });
    const rejected = validatorEventOf(tx(ELECTOR, msg(newStake(8n), { value: stake }), [msg(answer(0xee6f454c, 8n, 2), { source: ELECTOR, destination: HOLDER, value: stake - 1234n })]), ELECTOR);
    expect(rejected).toMatchObject({ event_type: 'stake_rejected', amount: stake - 1234n, reason: 2, query_id: 8n });
    // an answer to another query id is not this stake's; query id 0 without an answer counts as accepted, another does not
    expect(validatorEventOf(tx(ELECTOR, msg(newStake(9n), { value: stake }), [msg(answer(0xf374484c, 10n), { source: ELECTOR })]), ELECTOR)).toBeNull();
    expect(validatorEventOf(tx(ELECTOR, msg(newStake(0n), { value: 500_000_000n })), ELECTOR)).toMatchObject({ event_type: 'stake_accepted', amount: 0n, query_id: 0n });
    // a failed compute phase, a short body, another account: nothing
    expect(validatorEventOf(tx(ELECTOR, msg(newStake(0n), { value: stake }), [], false), ELECTOR)).toBeNull();
    expect(validatorEventOf(tx(ELECTOR, msg(answer(0x4e73744b, 0n), { value: stake })), ELECTOR)).toBeNull();
    expect(validatorEventOf(tx(HOLDER, msg(newStake(0n), { value: stake, destination: HOLDER })), ELECTOR)).toBeNull();
    // recover: the request, the elector's two answers to the holder
    expect(validatorEventOf(tx(ELECTOR, msg(answer(0x47657424, 3n), { value: 1_000_000_000n })), ELECTOR)).toMatchObject({ event_type: 'recover_requested', stake_holder_address: HOLDER, amount: 1_000_000_000n, query_id: 3n });
    expect(validatorEventOf(tx(HOLDER, msg(answer(0xf96f7324, 3n), { source: ELECTOR, destination: HOLDER, value: stake })), ELECTOR)).toMatchObject({ event_type: 'stake_recovered', stake_holder_address: HOLDER, amount: stake });
    expect(validatorEventOf(tx(HOLDER, msg(answer(0xfffffffe, 3n), { source: ELECTOR, destination: HOLDER, value: 5n })), ELECTOR)).toMatchObject({ event_type: 'recover_failed', amount: 5n });
    expect(validatorEventOf(tx(HOLDER, msg(answer(0xf96f7324, 3n), { source: HOLDER, destination: HOLDER, value: stake })), ELECTOR)).toBeNull();
  });
});

let dir: string;
let store: StoreClient;
let app: FastifyInstance;
let localStarts: number[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'api-v3-validators-'));
  store = await openStore({ dataDir: dir, pointReads: 'both' });
  // a real key block (ton4j's local net) through the traces stage: its cycles and the elector its config names
  const key = decodeBlock(readFileSync(join(FIXTURES, 'blocks/localnet/localnet-ton4j-mc-189235.boc')));
  expect(key.config).not.toBeNull();
  const traces = createTracesContext({ store });
  const { assembler } = await loadAssembler(traces);
  const out = await processMcBatch(traces, assembler, key.id.seqno, [key]);
  expect(assembler.elector).toBe(key.config!.elector_address);
  // written as the stage writes; the elector's address is saved with the assembler, so a restart keeps it
  await writeMcBatch(traces, assembler, key.id.seqno, out);
  expect((await loadAssembler(traces)).assembler.elector).toBe(key.config!.elector_address);
  localStarts = out.entities.validator_cycles.map((c) => c.utime_since as number);
  expect(localStarts.length).toBeGreaterThan(0);
  expect(out.entities.validator_cycles.every((c) => c.source_mc_seqno === key.id.seqno)).toBe(true);
  // the mainnet config's cycles, snapshotted twice (a later key block carrying the same set)
  const { cycles, members } = validatorCycleRows(param, MC);
  const later = validatorCycleRows(param, MC + 100);
  await store.insertRows('validator_cycles', [...cycles, ...later.cycles]);
  await store.insertRows('validator_cycle_members', [...members, ...later.members]);
  // three events
  const rows: Row[] = [];
  const evs = [
    tx(ELECTOR, msg(newStake(7n), { value: 2_000_000_000n }), [msg(answer(0xf374484c, 7n), { source: ELECTOR, destination: HOLDER })]),
    tx(ELECTOR, msg(answer(0x47657424, 3n), { value: 1_000_000_000n })),
    tx(HOLDER, msg(answer(0xf96f7324, 3n), { source: ELECTOR, destination: HOLDER, value: 9n })),
  ];
  for (const t of evs) rows.push({ tx_hash: t.hash, tx_lt: t.lt, tx_now: t.now, mc_seqno: 1, ...validatorEventOf(t, ELECTOR)! });
  await store.insertRows('validator_events', rows);
  app = await v3App(store, 'tables');
}, 120_000);

afterAll(async () => {
  await app?.close();
  await store?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('validators/events', () => {
  it('events by time, newest first; filters; the reference\'s shape', async () => {
    const r = await get(app, '/api/v3/validators/events');
    expect(r.status).toBe(200);
    const events = r.body.events as Record<string, unknown>[];
    expect(events.map((e) => e.type)).toEqual(['stake_recovered', 'recover_requested', 'stake_accepted']);
    expect(events[2]).toEqual({
      tx_hash: expect.stringMatching(/=$/), tx_lt: expect.stringMatching(/^\d+$/), utime: expect.any(Number), type: 'stake_accepted', stake_holder_address: HOLDER,
      validator_pubkey: PUB.toString('hex').toUpperCase(), adnl_addr: ADNL.toString('hex').toUpperCase(), election_id: 1_700_100_000, query_id: '7', amount: '1000000000',
    });
    expect(events[0]).toEqual({ tx_hash: expect.any(String), tx_lt: expect.any(String), utime: expect.any(Number), type: 'stake_recovered', stake_holder_address: HOLDER, query_id: '3', amount: '9' });
    expect(Object.keys(r.body.address_book as object)).toEqual([HOLDER]);
    const types = async (qs: string) => ((await get(app, `/api/v3/validators/events?${qs}`)).body.events as { type: string }[]).map((e) => e.type);
    expect(await types('type=stake_accepted')).toEqual(['stake_accepted']);
    expect(await types('type=nothing')).toEqual([]);
    expect(await types('sort=asc&limit=2')).toEqual(['stake_accepted', 'recover_requested']);
    expect(await types(`validator_pubkey=${PUB.toString('base64')}`)).toEqual(['stake_accepted']);
    expect(await types(`adnl_address=${ADNL.toString('hex')}`)).toEqual(['stake_accepted']);
    expect(await types(`stake_holder_address=${encodeURIComponent(Address.parseRaw(HOLDER).toString())}`)).toHaveLength(3);
    const win = await get(app, `/api/v3/validators/events?start_utime=${events[1].utime}&end_utime=${events[1].utime}`);
    expect(win.body).toMatchObject({ start_utime: events[1].utime, end_utime: events[1].utime });
    expect((win.body.events as { type: string }[]).map((e) => e.type)).toEqual(['recover_requested']);
  });

  it('refusals as the reference words them', async () => {
    const cases: [string, string][] = [
      [`stake_holder_address=${HOLDER}&adnl_address=${ADNL.toString('hex')}`, 'provide either stake_holder_address or adnl_address, not both'],
      ['validator_pubkey=abc', 'validator_pubkey must be a 32-byte value in hex, base64 or base64url format'],
      ['adnl_address=zz', 'adnl_address must be a 32-byte value in hex, base64 or base64url format'],
      ['start_utime=10&end_utime=5', 'start_utime must be less than or equal to end_utime'],
    ];
    for (const [qs, error] of cases) {
      const r = await get(app, `/api/v3/validators/events?${qs}`);
      expect(r.status, qs).toBe(422);
      expect(r.body.error).toBe(error);
    }
  });
});

describe('validators/cycles', () => {
  const cur = setOf('ConfigParam34', 'CurValidators');
  it('cycles newest first, merged over their snapshots; default limit 10; config values; validators on request', async () => {
    const r = await get(app, '/api/v3/validators/cycles');
    expect(r.status).toBe(200);
    const cycles = r.body.cycles as Record<string, unknown>[];
    // the two mainnet cycles and the local net key block's one
    expect(cycles.map((c) => c.cycle_start)).toEqual([cur.UtimeSince, setOf('ConfigParam32', 'PrevValidators').UtimeSince, ...[...localStarts].sort((a, b) => b - a)]);
    expect(cycles[0]).toEqual({
      cycle_start: cur.UtimeSince, cycle_end: cur.UtimeUntil, total: 400, main: 100, total_weight: cur.TotalWeight, validators_elected_for: 65536, elections_start_before: 32768,
      elections_end_before: 8192, stake_held_for: 32768, max_validators: 400, max_main_validators: 100, min_validators: 75, min_stake_limit: '300000000000000',
      max_stake_limit: '10000000000000000', min_total_stake: '75000000000000000', max_stake_factor: 196608,
    });
    const pub = cur.List['5'].ValidatorAddr.PublicKey.PubKey;
    const one = await get(app, `/api/v3/validators/cycles?validator_pubkey=${pub}&return_validators=true`);
    const c = (one.body.cycles as Record<string, unknown>[]).find((x) => x.cycle_start === cur.UtimeSince)!;
    expect(c.validators).toEqual([{ validator_index: 5, validator_pubkey: pub.toUpperCase(), adnl_addr: cur.List['5'].ValidatorAddr.AdnlAddr.toUpperCase(), weight: cur.List['5'].ValidatorAddr.Weight, complaints: [] }]);
    const all = await get(app, `/api/v3/validators/cycles?cycle_start=${cur.UtimeSince}&return_validators=1`);
    expect(((all.body.cycles as Record<string, unknown>[])[0].validators as unknown[]).length).toBe(400);
    expect((await get(app, `/api/v3/validators/cycles?start_utime=${cur.UtimeSince}`)).body.cycles).toHaveLength(1);
    expect((await get(app, '/api/v3/validators/cycles?sort=asc&limit=1')).body.cycles).toHaveLength(1);
    // a stake holder is an election participant's: none is known here
    expect((await get(app, `/api/v3/validators/cycles?stake_holder_address=${HOLDER}`)).body.cycles).toEqual([]);
    // the local net key block's sets: as @ton/core reads its config's param 34
    const key = decodeBlock(readFileSync(join(FIXTURES, 'blocks/localnet/localnet-ton4j-mc-189235.boc')));
    const p34 = Cell.fromBase64(key.config!.params.find((p) => p.id === 34)!.boc).beginParse();
    p34.skip(8);
    const since = p34.loadUint(32);
    const until = p34.loadUint(32);
    const local = cycles.find((x) => x.cycle_start === since)!;
    expect(local).toMatchObject({ cycle_end: until, total: p34.loadUint(16), main: p34.loadUint(16) });
  });

  it('refusals', async () => {
    const big = await get(app, '/api/v3/validators/cycles?return_validators=true&limit=101');
    expect(big.status).toBe(422);
    expect(big.body.error).toBe('limit must not exceed 100 when return_validators is true');
    expect((await get(app, '/api/v3/validators/cycles?limit=101')).status).toBe(200);
    expect((await get(app, '/api/v3/validators/cycles?cycle_start=x')).status).toBe(422);
  });
});
