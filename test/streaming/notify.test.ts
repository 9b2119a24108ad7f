// Per-subscriber filtering of a rendered part (toncenter's AdjustForClient), pure: finality, addresses, action
// filters, address book / metadata restricted to what the subscriber gets, content keys.
import { describe, expect, it } from 'vitest';
import { notesFor, type RenderedPart } from '../../src/api/streaming/notify.ts';
import { parseSubscription, type Subscription } from '../../src/api/streaming/subscription.ts';

const A = '0:' + 'AA'.repeat(32);
const B = '0:' + 'BB'.repeat(32);
const C = '0:' + 'CC'.repeat(32);
const NORM = '11'.repeat(32);

function part(finality: 'confirmed' | 'finalized'): RenderedPart {
  const tx = (account: string, lt: string, dest: string) => ({ json: { account, lt, hash: `h${lt}`, finality }, account, addrs: [account, dest] });
  const action = (type: string, accounts: string[], ancestors: string[] = []) => ({ json: { type, accounts }, bare: { type }, type, ancestors, accounts, addrs: accounts });
  return {
    mcSeqno: 7,
    part: 0,
    finality,
    traces: [
      {
        norm: NORM,
        normB64: Buffer.from(NORM, 'hex').toString('base64'),
        txs: [tx(B, '30', A), tx(A, '20', B), tx(C, '10', A)],
        actions: [action('ton_transfer', [A, B]), action('jetton_transfer', [C, B]), action('jetton_swap', [A, C]), action('jetton_transfer', [A, C], ['jetton_swap'])],
        trace: { trace_id: 'tid', transactions: {} },
        traceAddrs: [A, B, C],
      },
      null,
    ],
    accounts: [{ account: A, state: { hash: 'sa' } }, { account: C, state: { hash: 'sc' } }],
    jettons: [{ json: { address: C, owner: A }, address: C, owner: A, bookAddrs: [C, A, B], metaAddrs: [A, B] }],
    book: { [A]: { user_friendly: 'a' }, [B]: { user_friendly: 'b' }, [C]: { user_friendly: 'c' } },
    metadata: { [B]: { is_indexed: true } },
  };
}

const sub = (body: Record<string, unknown>): Subscription => parseSubscription(body, { transport: 'sse', maxAddresses: 100 });

describe('notesFor', () => {
  it('finality: a finalized subscriber gets nothing of a confirmed part; pending gets both', () => {
    const s = sub({ types: ['transactions'], addresses: [A] });
    expect(notesFor(s, part('confirmed'))).toEqual([]);
    expect(notesFor(s, part('finalized')).map((n) => n.type)).toEqual(['transactions']);
    const p = sub({ types: ['transactions'], addresses: [A], min_finality: 'pending' });
    expect(notesFor(p, part('confirmed')).length).toBe(1);
  });

  it("transactions: only the subscriber's accounts; the book and metadata of what it gets, when asked", () => {
    const s = sub({ types: ['transactions'], addresses: [C], include_address_book: true, include_metadata: true });
    const [n] = notesFor(s, part('finalized'));
    const body = n.make();
    expect(body).toEqual({
      type: 'transactions',
      finality: 'finalized',
      trace_external_hash_norm: Buffer.from(NORM, 'hex').toString('base64'),
      mc_seqno: 7,
      transactions: [{ account: C, lt: '10', hash: 'h10', finality: 'finalized' }],
      address_book: { [C]: { user_friendly: 'c' }, [A]: { user_friendly: 'a' } },
      metadata: {},
    });
    expect('address_book' in notesFor(sub({ types: ['transactions'], addresses: [C] }), part('finalized'))[0].make()).toBe(false);
  });

  it('actions: by account, action_types, and supported types (an ancestor the client supports hides the part)', () => {
    const types = (s: Subscription) => (notesFor(s, part('finalized'))[0]?.make().actions as { type: string }[] | undefined)?.map((a) => a.type);
    expect(types(sub({ types: ['actions'], addresses: [A] }))).toEqual(['ton_transfer', 'jetton_swap']);
    expect(types(sub({ types: ['actions'], addresses: [A], action_types: ['jetton_transfer'] }))).toBeUndefined();
    // the transfer inside the swap (ancestor jetton_swap, a type v1 has) is left out: the client gets the swap
    expect(types(sub({ types: ['actions'], addresses: [C], supported_action_types: ['v1'] }))).toEqual(['jetton_transfer', 'jetton_swap']);
  });

  it('trace: whole, to the subscribers of its norm, actions filtered as for actions', () => {
    const s = sub({ types: ['trace'], trace_external_hash_norms: [Buffer.from(NORM, 'hex').toString('base64url')], action_types: ['ton_transfer'] });
    const [n] = notesFor(s, part('finalized'));
    expect(n.type).toBe('trace');
    expect(n.make()).toMatchObject({ type: 'trace', finality: 'finalized', trace_id: 'tid', transactions: {}, actions: [{ type: 'ton_transfer' }] });
    expect(notesFor(sub({ types: ['trace'], trace_external_hash_norms: ['22'.repeat(32)] }), part('finalized'))).toEqual([]);
  });

  it('account states and jettons: by the account, by the wallet or its owner', () => {
    const notes = notesFor(sub({ types: ['account_state_change', 'jettons_change'], addresses: [A], include_metadata: true }), part('finalized'));
    expect(notes.map((n) => n.make())).toEqual([
      { type: 'account_state_change', finality: 'finalized', account: A, state: { hash: 'sa' }, mc_seqno: 7 },
      { type: 'jettons_change', finality: 'finalized', jetton: { address: C, owner: A }, mc_seqno: 7, metadata: { [B]: { is_indexed: true } } },
    ]);
  });

  it('equal content, equal key; different filters, different keys', () => {
    const p = part('finalized');
    const k = (s: Subscription) => notesFor(s, p).map((n) => n.key);
    expect(k(sub({ types: ['transactions'], addresses: [A] }))).toEqual(k(sub({ types: ['transactions'], addresses: [A, '-1:' + '00'.repeat(32)] })));
    expect(k(sub({ types: ['transactions'], addresses: [A] }))).not.toEqual(k(sub({ types: ['transactions'], addresses: [A, B] })));
    expect(k(sub({ types: ['transactions'], addresses: [A] }))).not.toEqual(k(sub({ types: ['transactions'], addresses: [A], include_address_book: true })));
  });
});
