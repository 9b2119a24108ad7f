/**
 * `start`, `index` and `status` as real processes against devnet liteservers served from this process (honest,
 * withholding its first block, lying) and against nothing at all: a requested range survives a kill -9, a bounded
 * range that cannot be fetched valid ends with exit 1 and a reason `status` shows, and no liteserver reachable is
 * one line and exit 1, with no JSON logs on a terminal.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadChainDir } from '../../src/devnet/chain/index.ts';
import { generateDevnet } from '../../src/devnet/generate/index.ts';
import { ErrorCode, LiteServerError, startLiteServer, type LiteServer } from '../../src/devnet/liteserver/index.ts';
import type { TlObject } from '../../src/tl/index.ts';
import { forgedSignature } from './liars.ts';

const ROOT = join(import.meta.dirname, '..', '..');
let dir: string;
let tip: number;
let validator: unknown;
const servers: LiteServer[] = [];
let dropper: Server;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI (asynchronously: the liteservers answer from this process); `until` may end it early. */
function cli(args: string[], opts: { env?: Record<string, string>; until?: (stderr: string) => boolean } = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'ton-gateway.js'), ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, CLICKHOUSE_URL: '', LOG_FORMAT: 'json', ...opts.env },
    });
    let stdout = '';
    let stderr = '';
    const guard = setTimeout(() => child.kill('SIGKILL'), 240_000);
    child.stdout.on('data', (d) => (stdout += String(d)));
    child.stderr.on('data', (d) => {
      stderr += String(d);
      if (opts.until?.(stderr)) child.kill('SIGKILL');
    });
    child.on('exit', (code) => {
      clearTimeout(guard);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A global config naming these liteservers, with the devnet's validator section (its init_block). */
function configFor(name: string, hosts: { port: number; publicKey: Buffer }[]): string {
  const path = join(dir, `${name}.json`);
  const liteservers = hosts.map((h) => ({ ip: 2130706433, port: h.port, id: { '@type': 'pub.ed25519', key: h.publicKey.toString('base64') } }));
  writeFileSync(path, JSON.stringify({ liteservers, validator }));
  return path;
}

async function serve(intercept?: Parameters<typeof startLiteServer>[0]['intercept']): Promise<LiteServer> {
  const ls = await startLiteServer({ source: loadChainDir(dir), key: Buffer.alloc(32, 40 + servers.length), host: '127.0.0.1', intercept });
  servers.push(ls);
  return ls;
}

const tmpData = () => mkdtempSync(join(tmpdir(), 'tg-ingest-cli-'));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tg-ingest-cli-net-'));
  await generateDevnet(dir, { seed: 'ingest-cli', blocks: 5, bulkWallets: 1, bulkFanout: 1 });
  const chain = JSON.parse(readFileSync(join(dir, 'chain.json'), 'utf8')) as { blocks: { workchain: number; seqno: number }[] };
  tip = Math.max(...chain.blocks.filter((b) => b.workchain === -1).map((b) => b.seqno));
  validator = (JSON.parse(readFileSync(join(dir, 'liteserver.json'), 'utf8')) as { validator: unknown }).validator;
  dropper = createServer((sock) => sock.destroy());
  await new Promise<void>((r) => dropper.listen(0, '127.0.0.1', () => r()));
}, 300_000);

afterAll(async () => {
  for (const s of servers) await s.close();
  await new Promise((r) => dropper?.close(r));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('ingest as processes', { timeout: 600_000 }, () => {
  it('a requested range survives kill -9 before its first checkpoint: the restart continues it, status sees a skipped part', async () => {
    const honest = await serve();
    // a liteserver that has not got masterchain block 1 yet: ingest waits on it (no end: it waits, not gives up)
    const withholding = await serve(async (q, answer) => {
      if (q._ === 'liteServer.getBlock' && (q.id as TlObject).workchain === -1 && (q.id as TlObject).seqno === 1) throw new LiteServerError(ErrorCode.notready, 'block is not applied yet');
      return answer(q);
    });
    const honestConfig = configFor('honest', [honest]);
    const withholdingConfig = configFor('withholding', [withholding]);
    const killedBeforeCheckpoint = async (data: string) => {
      const r = await cli(['start', '--config', withholdingConfig, '--from-seqno', '1', '--data', data, '--port', '0'], { until: (e) => e.includes('"msg":"stalled at mc seqno 1"') });
      expect(r.code).toBeNull(); // killed
      const st = await cli(['status', '--data', data, '--json']);
      const json = JSON.parse(st.stdout) as { first: number | null; requestedFrom: number; range: unknown; stall: { seqno: number; reason: string } | null };
      expect(json.first).toBeNull();
      expect(json.requestedFrom).toBe(1);
      expect(json.range).toEqual({ from: 1, until: null });
      expect(json.stall?.seqno).toBe(1);
      expect(json.stall?.reason).toMatch(/block is not applied yet/);
      const text = await cli(['status', '--data', data]);
      expect(text.stdout).toContain('nothing indexed yet (requested from masterchain seqno 1)');
      expect(text.stdout).toMatch(/stalled at mc seqno 1: masterchain block 1: .*block is not applied yet/);
    };

    const data = tmpData();
    const skipped = tmpData();
    try {
      await killedBeforeCheckpoint(data);
      // restarted without --from-seqno: the stored range goes on from 1, not from the tip
      const again = await cli(['index', '--config', honestConfig, '--until-seqno', String(tip), '--data', data]);
      expect(again.stderr).toMatch(/"msg":"continuing the requested range"/);
      expect(again.code).toBe(0);
      const st = JSON.parse((await cli(['status', '--data', data, '--json'])).stdout) as { first: number; last: number; checkpoint: number; mcGaps: unknown[]; stall: unknown };
      expect([st.first, st.last, st.checkpoint]).toEqual([1, tip, tip]);
      expect(st.mcGaps).toEqual([]);
      expect(st.stall).toBeNull();

      // the same kill, then a restart that starts later on purpose: the part asked for and skipped is a gap
      await killedBeforeCheckpoint(skipped);
      expect((await cli(['index', '--config', honestConfig, '--from-seqno', '3', '--until-seqno', String(tip), '--data', skipped])).code).toBe(0);
      const text = (await cli(['status', '--data', skipped])).stdout;
      expect(text).toContain(`indexed masterchain seqnos: 3 .. ${tip}`);
      expect(text).toContain('masterchain gaps: 1-2');
    } finally {
      rmSync(data, { recursive: true, force: true });
      rmSync(skipped, { recursive: true, force: true });
    }
  });

  it('a bounded range whose block no liteserver gives valid ends with exit 1 and the reason; status shows where and why', async () => {
    const liar = forgedSignature();
    const ls = await serve(liar.intercept);
    const data = tmpData();
    try {
      const r = await cli(['index', '--config', configFor('liar', [ls]), '--from-seqno', '1', '--until-seqno', String(tip), '--give-up-after', '2', '--data', data]);
      expect(r.code).toBe(1);
      const last = r.stderr.trim().split('\n').pop()!;
      // the last line, after the stages' own logs
      expect(last).toMatch(/^ton-gateway index: indexing stopped: stalled at mc seqno [12]: .*bad signature of NodeIdShort [0-9a-f]{64}/);
      const text = (await cli(['status', '--data', data])).stdout;
      expect(text).toMatch(/^stalled at mc seqno [12]: .*bad signature of NodeIdShort/m);
      expect(text).toContain(`requested range: 1 .. ${tip}`);
      expect(liar.lies).toBeGreaterThan(0);
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  });

  it('no liteserver reachable: start prints one line naming each server and why, and exits 1', async () => {
    // a port nobody listens on, and one that takes TCP connections and drops them
    const closed = await new Promise<number>((resolve) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => {
        const port = (s.address() as { port: number }).port;
        s.close(() => resolve(port));
      });
    });
    const key = Buffer.alloc(32, 1);
    const config = configFor('unreachable', [
      { port: closed, publicKey: key },
      { port: (dropper.address() as { port: number }).port, publicKey: key },
    ]);
    const data = tmpData();
    try {
      const r = await cli(['start', '--config', config, '--data', data, '--port', '0'], { env: { LOG_FORMAT: '' } });
      expect(r.code).toBe(1);
      const lines = r.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^ton-gateway start: no liteserver answered \(tried 127\.0\.0\.1:\d+ \[connection refused\], 127\.0\.0\.1:\d+ \[TCP connects but no liteserver answer \(.*\)\]\); check the network config/,
      );
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  });

  const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;
  it.skipIf(!hasScript)('on a terminal the logs are text lines, not JSON', async () => {
    const honest = await serve();
    const data = tmpData();
    try {
      // `script` gives the process a terminal; its output is what the terminal shows
      const cmd = [process.execPath, join(ROOT, 'bin', 'ton-gateway.js'), 'index', '--config', configFor('tty', [honest]), '--from-seqno', '1', '--until-seqno', String(tip), '--data', data]
        .map((a) => `'${a}'`)
        .join(' ');
      const r = await new Promise<Run>((resolve) => {
        const child = spawn('script', ['-qec', cmd, '/dev/null'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CLICKHOUSE_URL: '', LOG_FORMAT: '' } });
        let stdout = '';
        child.stdout.on('data', (d) => (stdout += String(d)));
        child.on('exit', (code) => resolve({ code, stdout, stderr: '' }));
      });
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/\d\d:\d\d:\d\d INFO indexing {2}from=1 until=\d+/);
      expect(r.stdout).not.toMatch(/\{"level"/);
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  });
});
