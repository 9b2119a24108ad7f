// Reading a transaction document back (src/decode/docs.ts): rows with every field in its layout order, shared
// between readers of the same text and frozen, and a changed document (its trace id added) read as the new one.
import { describe, expect, it } from 'vitest';
import { parseTxDoc, stringifyTxDoc, TxDocCache } from '../../src/decode/index.ts';
import { MSG_FIELDS, STATE_FIELDS, TX_FIELDS } from '../../src/decode/docs.ts';

const hex = (c: string) => c.repeat(64);
const A = '0:' + 'A1'.repeat(32);

function doc(traceId: string | null) {
  const tx: Record<string, unknown> = Object.fromEntries(TX_FIELDS.map((f, i) => [f, `${f}-${i}`]));
  Object.assign(tx, { account: A, lt: 5n, hash: hex('1'), mc_block_seqno: 9, trace_id: traceId, account_state_hash_before: hex('2'), account_state_hash_after: hex('3') });
  const msg: Record<string, unknown> = Object.fromEntries(MSG_FIELDS.map((f, i) => [f, i % 3 === 0 ? null : `${f}-${i}`]));
  const state: Record<string, unknown> = Object.fromEntries(STATE_FIELDS.map((f) => [f, `${f}-v`]));
  return stringifyTxDoc({ tx, msgs: [msg, { ...msg, direction: 'out' }], contents: { [hex('4')]: 'te6cc' }, states: { [hex('3')]: state }, absent: [hex('2')] });
}

describe('parseTxDoc', () => {
  it('gives rows with every field in layout order, message rows led by their transaction fields', () => {
    const d = parseTxDoc(doc(null));
    expect(Object.keys(d.tx)).toEqual([...TX_FIELDS]);
    expect(d.tx.lt).toBe('5');
    expect(d.tx.compute_gas_fees).toBe(`compute_gas_fees-${TX_FIELDS.indexOf('compute_gas_fees')}`);
    expect(Object.keys(d.msgs[0])).toEqual(['tx_account', 'tx_lt', 'tx_hash', 'mc_seqno', 'trace_id', ...MSG_FIELDS]);
    expect(d.msgs[1]).toMatchObject({ tx_account: A, tx_lt: '5', tx_hash: hex('1'), mc_seqno: 9, trace_id: null, direction: 'out', msg_hash: 'msg_hash-1', msg_hash_norm: 'msg_hash_norm-2', message_type: null });
    expect(Object.keys(d.states[hex('3')])).toEqual(['account', ...STATE_FIELDS]);
    expect(d.states[hex('3')].account).toBe(A);
    expect(d.contents).toEqual({ [hex('4')]: 'te6cc' });
    expect(d.absent).toEqual([hex('2')]);
  });

  it('a cache shares one frozen result per text; another text (trace id added) is read as itself', () => {
    const cache = new TxDocCache();
    const text = doc(null);
    const a = cache.parse(text);
    // a copy of the text (another string object) finds the same result
    expect(cache.parse((' ' + text).slice(1))).toBe(a);
    expect(Object.isFrozen(a.tx) && Object.isFrozen(a.msgs[0]) && Object.isFrozen(a.msgs) && Object.isFrozen(a.states[hex('3')])).toBe(true);
    expect(() => {
      (a.tx as Record<string, unknown>).trace_id = hex('9');
    }).toThrow(TypeError);
    const traced = cache.parse(doc(hex('9')));
    expect(traced).not.toBe(a);
    expect(traced.tx.trace_id).toBe(hex('9'));
    expect(traced.msgs[0].trace_id).toBe(hex('9'));
    expect(cache.parse(text).tx.trace_id).toBeNull();
  });

  it('two texts of one transaction that differ only past their beginning are each read as themselves, alternately', () => {
    const cache = new TxDocCache();
    const a = doc(hex('7'));
    const b = a.replace('te6cc', 'te6cd'); // a content changed: the same account, lt, hash and every leading field
    expect(b).not.toBe(a);
    expect(a.slice(0, 400)).toBe(b.slice(0, 400));
    for (let i = 0; i < 3; i++) {
      expect(cache.parse(a).contents[hex('4')]).toBe('te6cc');
      expect(cache.parse(b).contents[hex('4')]).toBe('te6cd');
    }
  });

  it('a cache holds no document longer than 16 Ki characters: each read of one parses it again', () => {
    const cache = new TxDocCache();
    const small = doc(hex('5'));
    expect(cache.parse(small)).toBe(cache.parse(small));
    const big = doc(hex('6')).replace('te6cc', 'te6cc' + 'A'.repeat(16 * 1024));
    const first = cache.parse(big);
    expect(first.contents[hex('4')]).toHaveLength(5 + 16 * 1024);
    expect(cache.parse(big)).not.toBe(first);
    expect(cache.parse(big)).toEqual(first);
  });

  it('parseTxDoc alone caches nothing, and two caches share nothing', () => {
    const text = doc(hex('8'));
    const a = parseTxDoc(text);
    expect(Object.isFrozen(a.tx)).toBe(true);
    expect(parseTxDoc(text)).not.toBe(a);
    expect(parseTxDoc(text)).toEqual(a);
    const one = new TxDocCache();
    const two = new TxDocCache();
    expect(one.parse(text)).toBe(one.parse(text));
    expect(two.parse(text)).not.toBe(one.parse(text));
  });

  it('refuses a layout it does not know', () => {
    expect(() => parseTxDoc(JSON.stringify([2, [], [], {}, {}, []]))).toThrow(/layout 2/);
  });
});
