// The pending set and the service's fate of a pending trace (src/emulate pending.ts, service.ts onFeed): bounded in
// count, masterchain seqnos and time; confirmed, invalidated or unresolved by what the indexer's feed brings.
// Pure: traces given as rows (an emulated trace's documents are built from decoded transactions elsewhere; here the
// bounds and the bookkeeping are under test, with the feed's own schema).
import { describe, expect, it } from 'vitest';
import { feedEventSchema, type FeedEvent } from '../../schemas/bus/index.ts';
import { EmulationService, PendingTraces, type EmulatedRows, type PendingEvent } from '../../src/emulate/index.ts';
import type { StoreClient } from '../../src/store/client/index.ts';

const hex = (n: number) => n.toString(16).padStart(64, '0');

function rows(n: number, accounts: string[] = [`0:${hex(n).toUpperCase()}`]): EmulatedRows {
  return {
    externalHash: hex(1000 + n), norm: hex(n), mcSeqno: 10, trace: { trace_id: hex(2000 + n), nodes: 1, edges: 1 }, docs: [], txs: [], actions: [],
    accounts, cells: { code: new Map(), data: new Map() }, limitExceeded: false, randSeed: '',
  };
}

const seqno = (mc: number, traces: { norm: string; complete: boolean }[] = []): FeedEvent =>
  feedEventSchema.parse({ kind: 'seqno', mc_seqno: mc, part: 0, last: true, at: 0, traces: traces.map((t) => ({ trace: {}, norm: t.norm, docs: [], accounts: [], complete: t.complete, earlier: [], actions: [] })), accounts: [], jetton_wallets: [] });

describe('PendingTraces', () => {
  it('holds at most maxTraces, the oldest out first; finds by account, message hash or normalized hash', () => {
    const p = new PendingTraces({ maxTraces: 3 });
    expect(p.add(rows(1, ['0:AA', '0:BB']), 1, 5)).toEqual([]);
    p.add(rows(2, ['0:BB']), 2, 5);
    p.add(rows(3), 3, 5);
    const out = p.add(rows(4), 4, 5);
    expect(out.map((e) => e.rows.norm)).toEqual([hex(1)]);
    expect(p.size).toBe(3);
    expect(p.find({ accounts: ['0:AA'] })).toEqual([]);
    expect(p.find({ accounts: ['0:BB'] }).map((e) => e.rows.norm)).toEqual([hex(2)]);
    expect(p.find({ hashes: [hex(1003)] }).map((e) => e.rows.norm)).toEqual([hex(3)]);
    expect(p.find({ hashes: [hex(4).toUpperCase()] }).map((e) => e.rows.norm)).toEqual([hex(4)]);
    // newest first
    expect(p.find({ hashes: [hex(2), hex(3), hex(4)] }).map((e) => e.rows.norm)).toEqual([hex(4), hex(3), hex(2)]);
  });

  it('expires by masterchain seqnos or time, whichever comes first', () => {
    const p = new PendingTraces({ maxSeqnos: 2, maxMs: 1000 });
    p.add(rows(1), 0, 10);
    p.add(rows(2), 500, 11);
    expect(p.expired(12, 900)).toEqual([]);
    expect(p.expired(13, 900).map((e) => e.rows.norm)).toEqual([hex(1)]);
    expect(p.expired(13, 1501).map((e) => e.rows.norm)).toEqual([hex(2)]);
    expect(p.size).toBe(0);
  });
});

describe('EmulationService: what the feed does to a pending trace', () => {
  const service = (bounds = {}) => {
    // the store and the state are not reached: nothing is emulated here, only tracked
    const s = new EmulationService({ store: {} as StoreClient, state: () => Promise.reject(new Error('not used')), bounds: { maxSeqnos: 2, maxMs: 1e12, ...bounds }, now: () => 0 });
    const events: PendingEvent[] = [];
    s.on((e) => events.push(e));
    return { s, events };
  };

  it('a trace that never comes is invalidated once the bound passes, and leaves the lists', () => {
    const { s, events } = service();
    s.onFeed(seqno(10));
    s.track(rows(1));
    expect(events.map((e) => e.kind)).toEqual(['pending']);
    s.onFeed(seqno(11));
    s.onFeed(seqno(12));
    expect(s.find({ hashes: [hex(1)] })).toHaveLength(1);
    s.onFeed(seqno(13));
    expect(events.map((e) => e.kind)).toEqual(['pending', 'invalidated']);
    expect(events[1]).toMatchObject({ norm: hex(1), reason: 'no trace of the message on chain within 2 masterchain blocks or 1000000000 s' });
    expect(s.find({ hashes: [hex(1)] })).toEqual([]);
    expect(s.stats()).toMatchObject({ pending: 0, invalidated: 1 });
  });

  it('a trace the chain began leaves the pending lists at once; still open past the bound: unresolved, not invalidated', () => {
    const { s, events } = service();
    s.onFeed(seqno(10));
    s.track(rows(1));
    s.onFeed(seqno(11, [{ norm: hex(1), complete: false }]));
    expect(s.find({ hashes: [hex(1)] })).toEqual([]);
    s.onFeed(seqno(12));
    s.onFeed(seqno(13));
    expect(events.map((e) => e.kind)).toEqual(['pending', 'unresolved']);
  });

  it('a completed trace on chain is compared: one that differs (here: neither has the root) is invalidated naming why', () => {
    const { s, events } = service();
    s.onFeed(seqno(10));
    s.track(rows(1));
    s.onFeed(seqno(11, [{ norm: hex(1), complete: true }]));
    expect(events.map((e) => e.kind)).toEqual(['pending', 'invalidated']);
    const inv = events[1] as Extract<PendingEvent, { kind: 'invalidated' }>;
    expect(inv.reason).toBe('the trace on chain differs from the emulation: root: in neither trace');
    expect(inv.comparison?.equal).toBe(false);
  });

  it('an emulation finished after the chain showed its trace is not held (nothing to compare it with)', () => {
    const { s, events } = service();
    s.onFeed(seqno(10, [{ norm: hex(1), complete: true }]));
    expect(s.track(rows(1))).toBeNull();
    expect(events.map((e) => e.kind)).toEqual(['unresolved']);
    expect(s.find({ hashes: [hex(1)] })).toEqual([]);
    expect(s.track(rows(2))).not.toBeNull();
  });

  it('past maxTraces the oldest is dropped and invalidated, so whoever was told of it does not wait', () => {
    const { s, events } = service({ maxTraces: 1 });
    s.track(rows(1));
    s.track(rows(2));
    expect(events.map((e) => [e.kind, 'norm' in e ? e.norm : (e as Extract<PendingEvent, { kind: 'pending' }>).entry.rows.norm])).toEqual([
      ['pending', hex(1)],
      ['pending', hex(2)],
      ['invalidated', hex(1)],
    ]);
    expect((events[2] as { reason: string }).reason).toBe('dropped: more than 1 pending traces');
  });

  it('past the queue bound an emulation is refused before it starts (429 at the API)', () => {
    const s = new EmulationService({ store: {} as StoreClient, state: () => new Promise(() => undefined), maxQueued: 2 });
    const cell = { beginParse: () => { throw new Error('not reached'); } } as never;
    void s.emulate(cell).catch(() => undefined);
    void s.emulate(cell).catch(() => undefined);
    expect(s.stats().queued).toBe(2);
    expect(() => s.emulate(cell)).toThrow('too many messages being emulated (2 running or waiting); retry later');
    expect(s.stats().busy).toBe(1);
  });
});
