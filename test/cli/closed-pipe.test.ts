/**
 * CLI output into a pipe whose reader has gone (`ton-gateway decode-block F | head`): the command ends quietly with
 * exit 0, as a Unix tool stopped by SIGPIPE leaves a pipeline's status to its reader; no EPIPE stack trace.
 */
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const BLOCK = 'test/fixtures/blocks/mainnet/mainnet-wc0-8000000000000000-71398501.boc';

/** Runs `sh -c` in bash with pipefail, so the pipeline's status is the CLI's own when it fails. */
function pipeline(cmd: string) {
  const r = spawnSync('bash', ['-c', `set -o pipefail; ${cmd}`], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('output into a closed pipe', () => {
  it('decode-block | head -c 1: exit 0, nothing on stderr', () => {
    // the JSON is far larger than a pipe's buffer, so the CLI is still writing when head exits
    expect(statSync(join(ROOT, BLOCK)).size).toBeGreaterThan(100_000);
    const r = pipeline(`node bin/ton-gateway.js decode-block ${BLOCK} | head -c 1`);
    expect(r).toEqual({ code: 0, out: '{', err: '' });
  });

});
