// elections.py: a stake sent to the elector and its confirmation, a stake recovery and its response; without the
// answer the action is failed. No fixture block has an elector exchange, so the bodies are written from the
// elector's TL-B (new_stake#4e73744b, new_stake_confirmation#f374484c, recover_stake#47657424, recover_stake_ok#f96f7324).
import { beginCell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { classifyTrace, toApiAction } from '../../src/actions/index.ts';
import { addr, buildTrace, type TxSpec } from './trace-builder.ts';

const ELECTOR = '-1:3333333333333333333333333333333333333333333333333333333333333333';
const VALIDATOR = addr(-1, 'a1');
const NEW_STAKE = beginCell().storeUint(0x4e73744b, 32).storeUint(1, 64).storeBuffer(Buffer.alloc(32, 1)).storeUint(1_700_000_000, 32).storeUint(196608, 32)
  .storeBuffer(Buffer.alloc(32, 2)).storeRef(beginCell().storeBuffer(Buffer.alloc(64, 3))).endCell();
const CONFIRMATION = beginCell().storeUint(0xf374484c, 32).storeUint(1, 64).storeUint(0, 32).endCell();
const RECOVER = beginCell().storeUint(0x47657424, 32).storeUint(2, 64).endCell();
const RECOVER_OK = beginCell().storeUint(0xf96f7324, 32).storeUint(2, 64).endCell();

const run = (body: typeof NEW_STAKE, answer: TxSpec | null, value = 300_000n * 10n ** 9n) =>
  classifyTrace(buildTrace({ account: VALIDATOR, from: null, out: [{ account: ELECTOR, from: VALIDATOR, body, value, out: answer ? [answer] : [] }] })).actions;

describe('election_deposit / election_recover', () => {
  it('a stake confirmed by the elector', () => {
    const [a, ...rest] = run(NEW_STAKE, { account: VALIDATOR, from: ELECTOR, body: CONFIRMATION, value: 1_000_000_000n });
    expect(rest).toEqual([]);
    expect(a).toMatchObject({ type: 'election_deposit', source: VALIDATOR, amount: 300_000n * 10n ** 9n, success: true });
    expect(a.tx_hashes).toHaveLength(3);
    expect(toApiAction(a).details).toEqual({ stake_holder: VALIDATOR, amount: '300000000000000' });
  });

  it('a stake without the confirmation is failed', () => {
    const [a] = run(NEW_STAKE, null);
    expect(a).toMatchObject({ type: 'election_deposit', success: false });
  });

  it('a recovery: the amount the elector returns; without its response, failed and without amount', () => {
    const [a] = run(RECOVER, { account: VALIDATOR, from: ELECTOR, body: RECOVER_OK, value: 301_000n * 10n ** 9n }, 1_000_000_000n);
    expect(a).toMatchObject({ type: 'election_recover', source: VALIDATOR, amount: 301_000n * 10n ** 9n, success: true });
    const [b] = run(RECOVER, null, 1_000_000_000n);
    expect(b).toMatchObject({ type: 'election_recover', amount: null, success: false });
    expect(toApiAction(b).details).toEqual({ stake_holder: VALIDATOR }); // amount is omitempty
  });
});
