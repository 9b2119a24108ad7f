/**
 * Elections, cycles and complaints read from a real elector's state (src/entities/elector.ts, elector-reader.ts's
 * get-method runner): ton-blockchain/ton's elector-code.fc compiled and driven in the emulator through an election,
 * a complaint and a vote (./elector-scenario.ts, which checks each snapshot against what it drove). Every value
 * checked is what the elector's get-methods answer on its own state.
 */
import { beginCell, type Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { complaintElectionId, configParamReader, electorSnapshot } from '../../src/entities/index.ts';
import type { TransactionRow } from '../../src/ton/index.ts';
import { electorGetMethod } from '../../src/entities/elector-reader.ts';
import { readValidatorSet } from '../../src/contracts/index.ts';
import { base, CODE, config, cur, ELECTOR, electionScenario, p16, p17, triggers } from './elector-scenario.ts';

describe('the elector read through its get-methods', () => {
  it('an election, the cycle it makes, a complaint and a vote', async () => {
    const r = await electionScenario();
    // what each trigger read, in the worker's order
    expect(r.none.validator_elections).toEqual([]);
    expect(r.open.validator_election_participants).toHaveLength(2);
    expect(r.key1.cycles!.validator_cycles.map((c) => c.election_id)).toEqual([r.electAt, null]);
    expect(r.filed.validator_complaints.map((c) => c.complaint_hash)).toEqual(r.voted.validator_complaints.map((c) => c.complaint_hash));
  }, 60_000);

  it('a get-method that fails is a failure of that read, not of the others', async () => {
    const cfg = config({ 16: p16, 17: p17, 36: null });
    // data the elector cannot load: every get-method that reads it throws (exit code 9)
    const broken = { code: CODE, data: beginCell().storeUint(1, 1).endCell(), address: ELECTOR, balance: 0n };
    const snap = await electorSnapshot(triggers({ hasKeyBlock: true, activeElectionDirty: true }), electorGetMethod(broken, cfg, cur.utime_since + 10), configParamReader(cfg), 20);
    expect(snap.failures.map((f) => f.split(':')[0])).toEqual(['Failed to read past elections', 'Failed to parse validator election']);
    // the cycles are still the config's (34 and 32), without what the elector adds
    expect(snap.cycles!.validator_cycles.map((c) => [c.utime_since, c.election_id])).toEqual([[cur.utime_since, null], [readValidatorSet(base.get(32)!).utime_since, null]]);
  }, 30_000);

  it('the election a complaint or a vote names (complaint_election_id_from_body)', () => {
    // only the inbound body is read
    const txOf = (body: Cell) => ({ in_msg: { body_boc: body.toBoc().toString('base64') } }) as unknown as TransactionRow;
    const complaint = beginCell().storeUint(0x52674370, 32).storeUint(9, 64).storeUint(1_760_448_264, 32).storeInt(0xbc - 0x100, 8).endCell();
    expect(complaintElectionId(txOf(complaint), 0x52674370)).toBe(1_760_448_264);
    const vote = beginCell().storeUint(0x56744370, 32).storeUint(10, 64).storeBuffer(Buffer.alloc(64, 1)).storeUint(0x56744350, 32).storeUint(3, 16).storeUint(1_760_448_265, 32).storeUint(1n, 256).endCell();
    expect(complaintElectionId(txOf(vote), 0x56744370)).toBe(1_760_448_265);
    // too short for the field, or another op: none
    expect(complaintElectionId(txOf(beginCell().storeUint(0x52674370, 32).storeUint(9, 64).storeUint(1, 16).endCell()), 0x52674370)).toBeNull();
    expect(complaintElectionId(txOf(beginCell().storeUint(0x56744370, 32).storeUint(10, 64).storeBuffer(Buffer.alloc(64)).endCell()), 0x56744370)).toBeNull();
    expect(complaintElectionId(txOf(complaint), 0x4e73744b)).toBeNull();
  });
});
