/**
 * A ClickHouse server for the suites that test the CLICKHOUSE_URL path: the one CLICKHOUSE_URL names (with
 * CLICKHOUSE_USER / CLICKHOUSE_PASSWORD), else the project's own engine started for the test file
 * (`ton-gateway engine --data TMP`, a ClickHouse server on loopback, the same one the embedded store runs), stopped
 * when the file is done. So these suites never skip.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { enginePaths, readEngineState } from '../../src/engine/index.ts';
import { until } from './until.ts';

export interface TestServer {
  url: string;
  user?: string;
  password?: string;
  /** what it is, for test names */
  label: string;
}

const ROOT = join(import.meta.dirname, '..', '..');

let started: Promise<TestServer> | null = null;
let child: ChildProcess | null = null;
let dir: string | null = null;

/** The server of this test file (started on first use). Call at the top level of the file: it registers the stop. */
export function testServer(): () => Promise<TestServer> {
  afterAll(async () => {
    if (!child) return;
    const exited = new Promise((r) => child!.once('exit', r));
    child.kill('SIGTERM');
    await exited;
    child = null;
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return () => (started ??= start());
}

async function start(): Promise<TestServer> {
  const url = process.env.CLICKHOUSE_URL;
  if (url) return { url, user: process.env.CLICKHOUSE_USER, password: process.env.CLICKHOUSE_PASSWORD, label: `server ${url}` };
  dir = mkdtempSync(join(tmpdir(), 'tg-test-server-'));
  const data = dir;
  child = spawn(process.execPath, [join(ROOT, 'bin', 'ton-gateway.js'), 'engine', '--data', data], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (d) => (err = (err + d).slice(-2000)));
  let exit: number | null | undefined;
  child.once('exit', (c) => (exit = c));
  await until(() => readEngineState(enginePaths(data)) !== null || exit !== undefined, 'the test server', 120_000);
  if (exit !== undefined) throw new Error(`the test server did not start: ${err}`);
  const state = readEngineState(enginePaths(data))!;
  return {
    url: `http://127.0.0.1:${state.http_port}`,
    user: 'gateway',
    password: readFileSync(enginePaths(data).secret, 'utf8').trim(),
    label: `the project's engine as a server (ClickHouse ${state.version})`,
  };
}
