/**
 * `ton-gateway demo` as a person runs it, twice: it serves, goes on past the blocks it generated, stops cleanly on
 * Ctrl-C (SIGINT: exit 0, an info line that it stopped, no error), and a second start on the same directories resumes
 * (the stored checkpoint is served again at once) and goes on. The devnet is named devnet and its times are current.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'tg-demo-'));
const procs: ChildProcess[] = [];
afterAll(() => {
  for (const p of procs) if (p.exitCode === null) p.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

interface Demo {
  proc: ChildProcess;
  port: number;
  logs: () => Record<string, unknown>[];
  stderr: () => string;
  exited: Promise<number | string>;
}

async function startDemo(): Promise<Demo> {
  const port = await freePort();
  const proc = spawn(process.execPath, ['bin/ton-gateway.js', 'demo', '--dir', join(dir, 'devnet'), '--data', join(dir, 'store'), '--blocks', '6', '--live', '500', '--port', String(port)], {
    cwd: ROOT,
    env: { ...process.env, LOG_FORMAT: 'json', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  procs.push(proc);
  let err = '';
  proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  proc.stdout!.on('data', (d: Buffer) => (err += d.toString()));
  // a signal's name where the process died of one (a native crash shows as SIGSEGV / SIGABRT)
  const exited = new Promise<number | string>((resolve) => proc.on('exit', (code, signal) => resolve(code ?? `${signal}: ${err.slice(-1500)}`)));
  const logs = () =>
    err
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { proc, port, logs, stderr: () => err, exited };
}

async function getJson(port: number, path: string): Promise<Record<string, unknown> | null> {
  try {
    const r = await fetch(`http://127.0.0.1:${port}${path}`);
    return r.ok ? ((await r.json()) as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The last indexed masterchain seqno, once it reaches `seqno` (polls; the demo exiting fails at once). */
async function waitIndexed(d: Demo, seqno: number): Promise<number> {
  let exited = false;
  void d.exited.then(() => (exited = true));
  for (let i = 0; i < 600; i++) {
    if (exited) throw new Error(`demo exited: ${d.stderr().slice(-2000)}`);
    const st = await getJson(d.port, '/api/v3/indexStatus');
    const last = st?.checkpoint_mc_seqno;
    if (typeof last === 'number' && last >= seqno) return last;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`demo did not index masterchain block ${seqno}: ${d.stderr().slice(-2000)}`);
}

async function stop(d: Demo): Promise<number | string> {
  d.proc.kill('SIGINT');
  return d.exited;
}

describe('demo', () => {
  it('serves past its generated blocks, stops cleanly on SIGINT, and a restart resumes and goes on', async () => {
    const first = await startDemo();
    // 6 blocks generated, then made as it goes
    const reached = await waitIndexed(first, 8);
    const health = await getJson(first.port, '/healthcheck');
    expect(health).toEqual({ ok: true, networks: [{ name: 'devnet', base: '/' }] });
    const status = await getJson(first.port, '/api/v3/indexStatus');
    // current times: the lag is the pipeline's, not years
    expect(status?.lag_seconds).toBeLessThan(600);
    expect(await stop(first)).toBe(0);
    const logs = first.logs();
    expect(logs.filter((l) => Number(l.level) >= 50)).toEqual([]);
    expect(logs.some((l) => l.msg === 'stopped' && l.level === 30 && l.signal === 'SIGINT')).toBe(true);

    const second = await startDemo();
    expect(await waitIndexed(second, reached + 3)).toBeGreaterThanOrEqual(reached + 3);
    expect(second.stderr()).toMatch(/demo: resumed the devnet/);
    expect(await stop(second)).toBe(0);
    expect(second.logs().filter((l) => Number(l.level) >= 50)).toEqual([]);
  }, 600_000);
});
