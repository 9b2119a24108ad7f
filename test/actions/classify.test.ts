// Classifier invariants over every real trace in the fixtures, the API v3 rendering, bad input, and the CLI.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifyTrace, parseJsonExact, toApiAction, traceFromToncenterJson, TraceFormatError } from '../../src/actions/index.ts';
import { blockToAction } from '../../src/actions/serializer.ts';

const DIR = new URL('../fixtures/traces/toncenter-indexer/', import.meta.url).pathname;
const load = (f: string) => traceFromToncenterJson(parseJsonExact(readFileSync(join(DIR, 'json', f), 'utf8')));
const files = readdirSync(join(DIR, 'json')).filter((f) => f.endsWith('.json'));

describe('classifier over every fixture trace', () => {
  it('has the 73 traces', () => expect(files.length).toBe(73));
  for (const f of files) {
    it(`${f}: actions cover only the trace, ids unique, API JSON has no numbers for 64-bit values`, () => {
      const trace = load(f);
      const { actions } = classifyTrace(trace);
      expect(actions.length).toBeGreaterThan(0);
      const txs = new Set(trace.transactions.map((t) => t.hash));
      const ids = new Set<string>();
      for (const a of actions) {
        expect(ids.has(a.action_id)).toBe(false);
        ids.add(a.action_id);
        for (const h of a.tx_hashes) expect(txs.has(h)).toBe(true);
        expect(a.start_lt <= a.end_lt).toBe(true);
        const api = toApiAction(a);
        const json = JSON.stringify(api);
        expect(typeof api.start_lt).toBe('string');
        expect(json).not.toMatch(/"(amount|value|query_id|start_lt|end_lt)":\d/);
      }
      // every internal message that reached a transaction is explained by some action
      const covered = new Set(actions.flatMap((a) => a.tx_hashes));
      for (const t of trace.transactions) {
        if (t.inMsg?.source) expect(covered.has(t.hash)).toBe(true);
      }
    });
  }
});

describe('API v3 rendering', () => {
  it('renders a jetton transfer and a pTON transfer as the Go API does', () => {
    // the STON.fi v1 jetton -> TON swap: the user's transfer to the router, and the router's pTON payout
    // both transfers are inside the swap (swaps.py; jetton_swap's children are not serialised): rendered one by one
    const trace = load('01SkGWslZ8iEn3bXyb0ga5dWB5gRzw8zWAuwfUI4ZMA=.json');
    const swap = classifyTrace(trace).blocks.find((b) => b.btype === 'jetton_swap')!;
    const transfers = swap.childrenBlocks.filter((b) => b.btype === 'jetton_transfer').sort((a, b) => (a.minLt < b.minLt ? -1 : 1));
    const [user, pton] = transfers.map((b) => blockToAction(b, trace));
    expect(toApiAction(user).details).toMatchObject({
      asset: '0:B113A994B5024A16719F69139328EB759596C38A25F59028B146FECDC3621DFE',
      sender: '0:49E60973E9A8F252D986DDB49895A0D7419A077891E4CA6B66D4664ED06AB8DC',
      receiver: '0:779DCC815138D9500E449C5291E7F12738C23D575B5310000F6A253BD607384E',
      amount: '1000000000',
      is_encrypted_comment: false,
    });
    expect(typeof toApiAction(user).details.query_id).toBe('string');
    const api = toApiAction(pton);
    expect(api.details).toMatchObject({
      asset: '0:8CDC1D7640AD5EE326527FC1AD0514F468B30DC84B0173F0E155F451B4E11F7C',
      sender_jetton_wallet: null,
      receiver_jetton_wallet: null,
      receiver: '0:1007AD6C70F8F159342BE66A8845294FDAF0F14C8539295DBE2AFB5FA7D70FB7',
      amount: '325487694953',
    });
  });
  it('renders types the Go API has no case for as an error, as it does', () => {
    const row = { ...classifyTrace(load('CFl6PQXQyJ4FQFj9YsZwblnCg3m8Po9wuiBmrR4zGz4=.json')).actions[0], type: 'unknown' };
    expect(toApiAction(row).details).toEqual({ error: "unsupported action type: 'unknown'" });
  });
  it('renders a plain TON transfer', () => {
    const { actions } = classifyTrace(load('CFl6PQXQyJ4FQFj9YsZwblnCg3m8Po9wuiBmrR4zGz4=.json'));
    expect(actions.map((a) => a.type)).toEqual(['ton_transfer']);
    const api = toApiAction(actions[0]);
    expect(api.details).toEqual({
      source: '-1:0000000000000000000000000000000000000000000000000000000000000000',
      destination: '-1:3333333333333333333333333333333333333333333333333333333333333333',
      value: '2630055735', value_extra_currencies: {}, comment: null, encrypted: false,
    });
    expect(api.action_id).toBe('2w63ODTcF5Jcx0ff5OOJKZ9kMhn5BzeYKr3R+OLEZMU=');
    expect(api.start_lt).toBe('55850691000000');
    expect(api.end_lt).toBe('55850691000002');
  });
});

describe('bad input', () => {
  it('names what is wrong in a trace document', () => {
    expect(() => traceFromToncenterJson({})).toThrow(TraceFormatError);
    expect(() => traceFromToncenterJson({ trace: {} })).toThrow(/transactions/);
    expect(() => traceFromToncenterJson({ trace: { trace_id: 'nope' }, transactions: [] })).toThrow(/trace_id/);
  });
  it('keeps big integers exact', () => {
    expect(parseJsonExact('{"a": 18446744073709551615, "b": [1, 2.5]}')).toEqual({ a: '18446744073709551615', b: ['1', 2.5] });
  });
});

describe('conformance CLI', () => {
  it('runs on a directory and exits 0 only when every case passes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'conf-'));
    mkdirSync(join(dir, 'test_cases'));
    mkdirSync(join(dir, 'json'));
    const id = 'CFl6PQXQyJ4FQFj9YsZwblnCg3m8Po9wuiBmrR4zGz4=';
    writeFileSync(join(dir, 'json', `${id}.json`), readFileSync(join(DIR, 'json', `${id}.json`)));
    writeFileSync(join(dir, 'test_cases', 'a.yaml'), readFileSync(join(DIR, 'test_cases', 'ton-transfers.yaml')));
    const ok = execFileSync(process.execPath, ['--import', 'tsx', 'test/actions/conformance/main.ts', dir], { encoding: 'utf8' });
    expect(ok).toContain('PASS a: Simple ton transfer');
    expect(ok.trim().split('\n').at(-1)).toBe('1 passed, 0 failed');
    writeFileSync(join(dir, 'test_cases', 'b.yaml'), `cases:\n  wrong value:\n    trace-id: ${id}\n    expected-actions:\n      - type: ton_transfer\n        values:\n          value: 1\n`);
    const bad = spawnSync(process.execPath, ['--import', 'tsx', 'test/actions/conformance/main.ts', dir], { encoding: 'utf8' });
    expect(bad.status).toBe(1);
    expect(bad.stdout).toContain('FAIL b: wrong value');
    expect(bad.stdout).toContain('ton_transfer.value: expected "1", got "2630055735"');
    expect(bad.stdout.trim().split('\n').at(-1)).toBe('1 passed, 1 failed');
    const missing = spawnSync(process.execPath, ['--import', 'tsx', 'test/actions/conformance/main.ts', join(dir, 'nope')], { encoding: 'utf8' });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/directory not found/);
    expect(missing.stderr).not.toMatch(/at .*\.ts:\d+/);
  });
});
