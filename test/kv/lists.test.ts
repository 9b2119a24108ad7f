// The lists of /actions and /traces by account in the key-value store (src/kv/lists-mirror.ts, lists.ts): what the
// traces stage's rows become, what a reader sees at each `visible`, a trace's older versions, replays, the cursor.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Kv, kvListReads, mirrorRows, type ListReads } from '../../src/kv/index.ts';

const A = '0:' + 'A1'.repeat(32);
const B = '0:' + 'B2'.repeat(32);
const C = '-1:' + 'C3'.repeat(32);
const h = (n: number) => n.toString(16).padStart(64, '0');
const all = { dir: 'ASC' as const, limit: 100, offset: 0 };
const any = () => true;

/** An action of trace `t` ending at `end`, of `type`, naming `accounts`: its actions row and action_accounts rows. */
function action(t: number, traceEnd: bigint, id: number, end: bigint, type: string, accounts: string[], ancestors: string[] = []) {
  const row = { trace_id: h(t), action_id: h(id), type, start_lt: end - 1n, end_lt: end, trace_end_lt: traceEnd, ancestor_type: ancestors, details: '{}' };
  return { row, accounts: accounts.map((account) => ({ account, trace_end_lt: traceEnd, trace_id: h(t), action_end_lt: end, action_id: h(id), trace_end_utime: 1, action_end_utime: 1 })) };
}

describe('kv lists', () => {
  let dir: string;
  let kv: Kv;
  let lists: ListReads;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tg-kv-lists-'));
    kv = Kv.open({ dataDir: dir });
    lists = kvListReads(kv);
  });
  afterEach(async () => {
    await kv.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const write = (tag: number, actions: ReturnType<typeof action>[]) =>
    mirrorRows(kv, [
      { table: 'actions', rows: actions.map((a) => a.row), tag },
      { table: 'action_accounts', rows: actions.flatMap((a) => a.accounts), tag },
    ]);
  const ids = (rows: Record<string, unknown>[]) => rows.map((r) => Number.parseInt(String(r.action_id), 16));

  it("an account's actions in (trace_end_lt, trace_id, end_lt, action_id) order, visible from their tag, paged, filtered, after a cursor", async () => {
    await write(5, [action(1, 100n, 11, 90n, 'ton_transfer', [A, B]), action(1, 100n, 12, 80n, 'jetton_transfer', [A]), action(2, 100n, 13, 100n, 'ton_transfer', [A])]);
    await write(6, [action(3, 50n, 14, 50n, 'ton_transfer', [A, C], ['jetton_transfer'])]);
    expect(await lists.actionsByAccount(A, { ...all, keep: any })).toEqual([]);
    await kv.setVisible(5);
    expect(ids(await lists.actionsByAccount(A, { ...all, keep: any }))).toEqual([12, 11, 13]);
    await kv.setVisible(6);
    expect(ids(await lists.actionsByAccount(A, { ...all, keep: any }))).toEqual([14, 12, 11, 13]);
    expect(ids(await lists.actionsByAccount(A, { ...all, dir: 'DESC', keep: any }))).toEqual([13, 11, 12, 14]);
    expect(ids(await lists.actionsByAccount(A, { ...all, limit: 2, offset: 1, keep: any }))).toEqual([12, 11]);
    expect(ids(await lists.actionsByAccount(A, { ...all, startLt: 51n, keep: any }))).toEqual([12, 11, 13]);
    expect(ids(await lists.actionsByAccount(A, { ...all, dir: 'DESC', endLt: 99n, keep: any }))).toEqual([14]);
    expect(ids(await lists.actionsByAccount(A, { ...all, keep: (r) => r.type === 'ton_transfer' }))).toEqual([14, 11, 13]);
    expect(ids(await lists.actionsByAccount(C, { ...all, keep: any }))).toEqual([14]);
    // rows strictly after the cursor (the ORDER BY tuple of a row), in either direction
    const at12 = { traceEnd: 100n, traceId: h(1), end: 80n, actionId: h(12) };
    expect(ids(await lists.actionsByAccount(A, { ...all, cursor: at12, keep: any }))).toEqual([11, 13]);
    expect(ids(await lists.actionsByAccount(A, { ...all, dir: 'DESC', cursor: at12, keep: any }))).toEqual([14]);
    expect(await lists.actionAccounts((await lists.actionsByAccount(A, { ...all, keep: any })).slice(0, 2))).toEqual(
      new Map([
        [h(14), [A, C].sort()],
        [h(12), [A]],
      ]),
    );
    // a trace's actions in (start_lt, end_lt, action_id) order
    expect(ids(await lists.actionsOfTraces([h(1), h(3)], any))).toEqual([12, 11, 14]);
    // a replay writes the same entries
    await write(5, [action(1, 100n, 11, 90n, 'ton_transfer', [A, B])]);
    expect(ids(await lists.actionsByAccount(A, { ...all, keep: any }))).toEqual([14, 12, 11, 13]);
  });

  it("an account's traces: one entry per version, the newest visible one's place in the list", async () => {
    const trace = (id: number, endLt: bigint) => ({ trace_id: h(id), end_lt: endLt, state: 'pending' });
    // trace 1 starts at A (lt 10); trace 2 at B
    await mirrorRows(kv, [
      { table: 'trace_transactions', rows: [{ trace_id: h(1), lt: 10n, account: A, hash: h(101) }, { trace_id: h(2), lt: 20n, account: B, hash: h(102) }], tag: 5 },
      { table: 'traces', rows: [trace(1, 10n), trace(2, 20n)], tag: 5 },
    ]);
    // trace 1 reaches B at lt 30 (a later seqno): its new version names both accounts
    await mirrorRows(kv, [
      { table: 'trace_transactions', rows: [{ trace_id: h(1), lt: 30n, account: B, hash: h(103) }], tag: 6 },
      { table: 'traces', rows: [trace(1, 30n)], tag: 6 },
    ]);
    const traces = async (a: string, dir: 'ASC' | 'DESC' = 'ASC') => (await lists.tracesByAccount(a, { ...all, dir })).map((t) => `${Number.parseInt(String(t.trace_id), 16)}@${t.end_lt}`);
    await kv.setVisible(5);
    expect(await traces(A)).toEqual(['1@10']);
    expect(await traces(B)).toEqual(['2@20']);
    await kv.setVisible(6);
    // the older version's entry of A is skipped: A's trace is now at lt 30
    expect(await traces(A)).toEqual(['1@30']);
    expect(await traces(B)).toEqual(['2@20', '1@30']);
    expect(await traces(B, 'DESC')).toEqual(['1@30', '2@20']);
    expect((await lists.tracesByAccount(B, { ...all, endLt: 29n })).map((t) => t.end_lt)).toEqual(['20']);
    expect((await lists.tracesByAccount(B, { ...all, limit: 1, offset: 1 })).map((t) => t.end_lt)).toEqual(['30']);
  });

  it('a replay of a trace version finds a later write already there: the later transactions are not its accounts', async () => {
    await mirrorRows(kv, [
      { table: 'trace_transactions', rows: [{ trace_id: h(1), lt: 10n, account: A, hash: h(101) }], tag: 5 },
      { table: 'trace_transactions', rows: [{ trace_id: h(1), lt: 30n, account: B, hash: h(103) }], tag: 7 },
    ]);
    // the replayed write of seqno 5 (the one of 7 was cut before its traces row)
    await mirrorRows(kv, [{ table: 'traces', rows: [{ trace_id: h(1), end_lt: 10n, state: 'pending' }], tag: 5 }]);
    await kv.setVisible(7);
    expect((await lists.tracesByAccount(A, all)).map((t) => t.end_lt)).toEqual(['10']);
    expect(await lists.tracesByAccount(B, all)).toEqual([]);
  });
});
