import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES } from './helpers.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'tg-store-import-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = (...args: string[]) =>
  spawnSync(process.execPath, [join(ROOT, 'bin/ton-gateway.js'), ...args], { encoding: 'utf8', env: { ...process.env, CLICKHOUSE_URL: '' } });

const acton = ['mc-1', 'mc-2', 'wc0-8000000000000000-1', 'wc0-8000000000000000-2'].map((n) => join(FIXTURES, `blocks/localnet/localnet-acton-${n}.boc`));
const proof = join(FIXTURES, 'blocks/proofs/mainnet-mc-34288980.proof.boc');

describe('ton-gateway import-blocks', { timeout: 300_000 }, () => {
  it('imports the linked acton chain, sets mc_block_seqno by walking the set, skips what does not decode', () => {
    const r = cli('import-blocks', ...acton, proof, join(dir, 'missing.boc'), '--data', dir);
    expect(r.stdout).toBe(`imported 4 blocks, 3 transactions into ${dir}\n`);
    const err = r.stderr.trim().split('\n');
    expect(err[0]).toMatch(new RegExp(`^ton-gateway import-blocks: skipped ${proof}: not a decodable block: .+`));
    expect(err[1]).toBe(`ton-gateway import-blocks: skipped ${join(dir, 'missing.boc')}: cannot read (ENOENT)`);
    expect(err[2]).toBe('ton-gateway import-blocks: 2 of 6 files skipped');
    expect(r.status).toBe(1);
    const q = cli('sql', 'SELECT workchain, seqno, mc_block_seqno, tx_count FROM blocks FINAL ORDER BY workchain, seqno', '--format', 'CSV', '--data', dir);
    expect(q.stderr).toBe('');
    expect(q.stdout).toBe('-1,1,1,0\n-1,2,2,0\n0,1,1,1\n0,2,2,2\n');
  });

  it('importing the same files again changes nothing', () => {
    const count = 'SELECT (SELECT count() FROM transactions FINAL), (SELECT count() FROM messages FINAL), (SELECT count() FROM blocks FINAL), (SELECT count() FROM latest_account_states FINAL)';
    const before = cli('sql', count, '--format', 'CSV', '--data', dir).stdout;
    expect(before).toBe('3,4,4,1\n');
    const r = cli('import-blocks', ...acton, '--data', dir);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`imported 4 blocks, 3 transactions into ${dir} (4 already stored: skipped; --rewrite writes them again)\n`);
    expect(cli('sql', count, '--format', 'CSV', '--data', dir).stdout).toBe(before);
    // plain SQL too: nothing was written twice (issue 21, hole 5)
    const plain = count.replace(/ FINAL/g, '');
    expect(cli('sql', plain, '--format', 'CSV', '--data', dir).stdout).toBe(before);
    // --rewrite writes them again (rows of an older decoder are replaced at the next merge); FINAL is unchanged
    const again = cli('import-blocks', ...acton, '--rewrite', '--data', dir);
    expect(again.stdout).toBe(`imported 4 blocks, 3 transactions into ${dir}\n`);
    expect(cli('sql', count, '--format', 'CSV', '--data', dir).stdout).toBe(before);
  });

  it('usage errors are one line', () => {
    const r = cli('import-blocks', '--data', dir);
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toBe('ton-gateway import-blocks: give at least one block file (see --help)');
  });
});
