/**
 * Every role stops on SIGTERM within 10 s, as a real process (`node bin/ton-gateway.js index --roles ...`), caught
 * while it works or waits: ingest and checkpoint together (the checkpoint waiting for blocks no store role writes:
 * before issue 20 its handler waited inside and the process ignored SIGTERM), each role alone, and every role in one
 * process. On the in-process bus each process has its own bus; with KAFKA_BROKERS set they are members on the broker.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadChainDir } from '../../src/devnet/chain/index.ts';
import { generateDevnet } from '../../src/devnet/generate/index.ts';
import { startLiteServer, writeLiteServerJson, type LiteServer } from '../../src/devnet/liteserver/index.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const STOP_WITHIN_MS = 10_000;
let dir: string;
let ls: LiteServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tg-sigterm-'));
  await generateDevnet(dir, { blocks: 8, bulkWallets: 2, bulkFanout: 2, states: 'last', seed: 3 });
  // only the first masterchain blocks are served: ingest then waits for the next one, the checkpoint for blocks
  const chain = loadChainDir(dir, { visibleMc: 3 });
  ls = await startLiteServer({ source: chain, key: Buffer.alloc(32, 31), host: '127.0.0.1' });
  writeLiteServerJson(dir, { host: '127.0.0.1', port: ls.port, publicKey: ls.publicKey });
}, 600_000);

afterAll(async () => {
  await ls?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Starts `index` with these roles, waits until it runs (its start log line) and a little more, sends SIGTERM. */
async function stopsOnSigterm(roles: string | null): Promise<{ code: number | null; signal: NodeJS.Signals | null; stopped: boolean; err: string }> {
  const data = mkdtempSync(join(tmpdir(), 'tg-sigterm-data-'));
  const args = ['index', '--config', join(dir, 'liteserver.json'), '--data', data, '--from-seqno', '1', ...(roles ? ['--roles', roles] : [])];
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'ton-gateway.js'), ...args], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, LOG_LEVEL: 'info' } });
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => child.once('exit', (code, signal) => r({ code, signal })));
  try {
    const ready = await Promise.race([
      new Promise<boolean>((r) => {
        const look = () => /"msg":"(indexing|running)"/.test(err) && r(true);
        child.stderr!.on('data', look);
        look();
      }),
      exited.then(() => false),
      new Promise<boolean>((r) => setTimeout(() => r(false), 120_000)),
    ]);
    expect(ready, `index ${roles ?? '(all roles)'} did not start: ${err}`).toBe(true);
    // at work: ingest publishing, stages handling, the checkpoint waiting
    await new Promise((r) => setTimeout(r, 1500));
    child.kill('SIGTERM');
    const outcome = await Promise.race([exited, new Promise<null>((r) => setTimeout(() => r(null), STOP_WITHIN_MS))]);
    if (outcome === null) {
      child.kill('SIGKILL');
      await exited;
      return { code: null, signal: null, stopped: false, err };
    }
    return { ...outcome, stopped: true, err };
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(data, { recursive: true, force: true });
  }
}

describe(`every role stops on SIGTERM within ${STOP_WITHIN_MS / 1000} s (real processes${process.env.KAFKA_BROKERS ? ', on Kafka' : ''})`, () => {
  for (const roles of ['ingest,checkpoint', 'ingest', 'decode', 'store', 'checkpoint', 'traces', null]) {
    it(`index --roles ${roles ?? '(all)'}`, async () => {
      const r = await stopsOnSigterm(roles);
      expect(r.stopped, `still running ${STOP_WITHIN_MS / 1000} s after SIGTERM: ${r.err.slice(-2000)}`).toBe(true);
      expect(r.code, r.err.slice(-2000)).toBe(0);
    }, 180_000);
  }
});
