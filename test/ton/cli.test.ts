/** `ton-gateway decode-block` end to end (real process, real fixture files). */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from './fixtures.ts';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'ton-gateway.js');
function run(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, 'decode-block', ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('decode-block CLI', () => {
  it('prints one JSON document for a key masterchain block, bigints as strings', () => {
    const r = run(join(FIXTURES, 'blocks/mainnet/mainnet-mc-46991999.boc'));
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    expect(j.id).toEqual({
      workchain: -1,
      shard: '8000000000000000',
      seqno: 46991999,
      root_hash: 'cbebaa6ac4270c987c90c5ed930ff37f9b73c705999585d6d8c1c5e9fa3dd6e3',
      file_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(j.info.start_lt).toBe('56255102000000');
    expect(j.transactions).toHaveLength(3);
    expect(typeof j.transactions[0].lt).toBe('string');
    expect(j.transactions[0].hash).toMatch(/^[0-9a-f]{64}$/);
    expect(j.transactions[0].description.type).toBe('tick_tock');
    expect(j.shards.map((s: { shard: string }) => s.shard)).toEqual(['2000000000000000', '6000000000000000', 'A000000000000000', 'E000000000000000']);
    expect(j.config.params).toHaveLength(35);
    expect(j.account_states.length).toBe(2);
    // three tick-tock transactions of two accounts: one state before each account, one between the two of one
    expect(j.states_before.length).toBe(2);
    expect(j.intermediate_states.length).toBe(1);
    expect(j.intermediate_states[0]).toMatchObject({ complete: true, proof: 'rebuilt' });
    expect(j.intermediate_states[0].balance).toMatch(/^\d+$/);
  });

  it('shard block: no shards/config keys; transactions with messages', () => {
    const r = run(join(FIXTURES, 'blocks/mainnet/mainnet-wc0-a000000000000000-54302208.boc'), '--compact');
    expect(r.code).toBe(0);
    expect(r.out.trim().split('\n')).toHaveLength(1);
    const j = JSON.parse(r.out);
    expect(j.shards).toBeUndefined();
    expect(j.config).toBeUndefined();
    expect(j.transactions).toHaveLength(11);
    expect(j.transactions.some((t: { in_msg: { message_type: string } | null }) => t.in_msg?.message_type === 'ext_in')).toBe(true);
  });

  it.each([
    ['missing file', ['/no/such/block.boc'], /no such file/],
    ['not a BoC', [join(FIXTURES, 'MANIFEST.md')], /not a BoC/],
    ['a transaction, not a block', [join(FIXTURES, 'txs/mainnet-bounced-in-mc-1-lt1000007-34517c7b.boc')], /not a block/],
    ['a pruned block proof', [join(FIXTURES, 'blocks/proofs/mainnet-mc-34288980.proof.boc')], /pruned|not a block/],
    ['no argument', [], /exactly one/],
  ])('%s: one-line error, exit 1, no stack trace', (_n, args, re) => {
    const r = run(...args);
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    const lines = r.err.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^ton-gateway decode-block: /);
    expect(lines[0]).toMatch(re);
    expect(r.err).not.toMatch(/\n\s+at /);
  });
});
