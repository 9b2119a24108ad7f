/**
 * `ton-gateway export` as a user runs it, on a store of two real mainnet blocks (test/fixtures/stores): tables over a
 * seqno and an lt range and a query, to Parquet, CSV and JSON lines, read back through the engine and compared with the
 * table itself; beside a process that holds the store as its writer; to an S3-compatible endpoint, which receives
 * the object signed with the given key (a small S3 PutObject endpoint in this test: no S3 service runs here); and the
 * mistakes a user makes, each one line naming the option.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type StoreClient } from '../../src/store/client/index.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const parent = mkdtempSync(join(tmpdir(), 'tg-export-'));
const data = join(parent, 'legacy');
const out = (name: string) => join(parent, name);

/** `ton-gateway export ARGS --data DIR`, without blocking this process: the test's S3 endpoint answers from its event loop. */
function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string; err: string }> {
  const p = spawn(process.execPath, [join(ROOT, 'bin', 'ton-gateway.js'), 'export', ...args, '--data', data], { cwd: ROOT, env: { ...process.env, CLICKHOUSE_URL: '', ...env } });
  let out = '';
  let err = '';
  p.stdout.on('data', (d: Buffer) => (out += d.toString()));
  p.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve) => p.on('close', (code) => resolve({ code, out, err })));
}

let store: StoreClient;
/** What the engine reads back from an exported file: rows, the sum of lt, and the hashes in order. */
const readBack = async (file: string, format: string) =>
  (await store.query<{ n: string; lts: string; first: string; last: string }>(`SELECT count() AS n, sum(lt) AS lts, argMin(hash, lt) AS first, argMax(hash, lt) AS last FROM file({f:String}, ${format})`, { f: file }))[0];

beforeAll(async () => {
  expect(spawnSync('tar', ['xzf', join(ROOT, 'test', 'fixtures', 'stores', 'inprocess-f8cbab7.tgz'), '-C', parent]).status).toBe(0);
  // this process holds the store as its writer (a running gateway would): the exports run beside it
  store = await openStore({ dataDir: data });
}, 300_000);

afterAll(async () => {
  await store?.close();
  rmSync(parent, { recursive: true, force: true });
});

describe('export', { timeout: 300_000 }, () => {
  it('a table over a seqno range to Parquet: the rows of that range, as the table has them', async () => {
    const [mc] = await store.query<{ s: number }>('SELECT max(mc_block_seqno) AS s FROM transactions FINAL');
    const r = await cli(['--table', 'transactions', '--from-seqno', String(mc.s), '--until-seqno', String(mc.s), '--out', out('mc.parquet')]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/^ton-gateway export: transactions -> .*mc\.parquet \(parquet, [\d,]+ bytes\) in /);
    const [want] = await store.query<{ n: string; lts: string; first: string; last: string }>(
      'SELECT count() AS n, sum(lt) AS lts, argMin(hash, lt) AS first, argMax(hash, lt) AS last FROM transactions FINAL WHERE mc_block_seqno = {s:UInt32}',
      { s: mc.s },
    );
    expect(Number(want.n)).toBeGreaterThan(0);
    expect(Number(want.n)).toBeLessThan(275);
    expect(await readBack(out('mc.parquet'), 'Parquet')).toEqual(want);
    expect(existsSync(out('mc.parquet.part'))).toBe(false);
  });

  it('an lt range to CSV with a header; the whole table; a query to JSON lines', async () => {
    const [b] = await store.query<{ lo: string; hi: string }>('SELECT quantileExact(0.25)(lt) AS lo, quantileExact(0.75)(lt) AS hi FROM transactions FINAL');
    const lo = BigInt(b.lo);
    const hi = BigInt(b.hi);
    const r = await cli(['--table', 'transactions', '--from-lt', lo.toString(), '--until-lt', hi.toString(), '--out', out('mid.csv')]);
    expect(r.code, r.err).toBe(0);
    const lines = readFileSync(out('mid.csv'), 'utf8').trim().split('\n');
    expect(lines[0]).toMatch(/^"account","lt","hash",/);
    const [{ n }] = await store.query<{ n: string }>('SELECT count() AS n FROM transactions FINAL WHERE lt BETWEEN {lo:UInt64} AND {hi:UInt64}', { lo, hi });
    expect(lines.length - 1).toBe(Number(n));
    expect(Number(n)).toBeGreaterThan(0);
    // the rows in lt order, every lt inside the range
    const lts = lines.slice(1).map((l) => BigInt(l.split(',')[1]));
    expect(lts.every((x, i) => x >= lo && x <= hi && (i === 0 || x >= lts[i - 1]))).toBe(true);

    expect((await cli(['--table', 'transactions', '--out', out('all.parquet')])).code).toBe(0);
    expect(await readBack(out('all.parquet'), 'Parquet')).toMatchObject({ n: '275' });

    const q = await cli(['--query', 'SELECT account, count() AS n FROM transactions FINAL GROUP BY account ORDER BY n DESC, account LIMIT 3', '--out', out('top.jsonl')]);
    expect(q.code, q.err).toBe(0);
    const top = readFileSync(out('top.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { account: string; n: string });
    const want = await store.query<{ account: string; n: string }>('SELECT account, count() AS n FROM transactions FINAL GROUP BY account ORDER BY n DESC, account LIMIT 3');
    expect(top).toEqual(want);
  });

  it('to an S3-compatible endpoint: the engine puts the object, signed with the given key; the key is in no output', async () => {
    const objects = new Map<string, Buffer>();
    const auth: string[] = [];
    const s3: Server = createServer((req, res) => {
      const body: Buffer[] = [];
      req.on('data', (d: Buffer) => body.push(d));
      req.on('end', () => {
        auth.push(String(req.headers.authorization ?? ''));
        if (req.method === 'PUT') {
          objects.set(req.url!, Buffer.concat(body));
          res.writeHead(200, { ETag: '"1"' }).end();
        } else res.writeHead(404).end();
      });
    });
    await new Promise<void>((r) => s3.listen(0, '127.0.0.1', r));
    const endpoint = `http://127.0.0.1:${(s3.address() as { port: number }).port}`;
    try {
      const secret = 'sEcReT-never-printed';
      const r = await cli(['--table', 'transactions', '--out', 's3://ton-data/export/tx.parquet', '--s3-endpoint', endpoint], { AWS_ACCESS_KEY_ID: 'AKIDTEST', AWS_SECRET_ACCESS_KEY: secret });
      expect(r.code, r.err).toBe(0);
      expect(r.err).toMatch(/^ton-gateway export: transactions -> s3:\/\/ton-data\/export\/tx\.parquet \(parquet\) in [\d.]+ s\n$/);
      expect(r.out + r.err).not.toContain(secret);
      expect(auth.every((a) => a.startsWith('AWS4-HMAC-SHA256 Credential=AKIDTEST/'))).toBe(true);
      const object = objects.get('/ton-data/export/tx.parquet');
      expect(object).toBeDefined();
      writeFileSync(out('from-s3.parquet'), object!);
      expect(await readBack(out('from-s3.parquet'), 'Parquet')).toEqual(await readBack(out('all.parquet'), 'Parquet'));
      // a second export replaces the object, as a file is replaced
      expect((await cli(['--table', 'transactions', '--out', 's3://ton-data/export/tx.parquet', '--s3-endpoint', endpoint], { AWS_ACCESS_KEY_ID: 'AKIDTEST', AWS_SECRET_ACCESS_KEY: secret })).code).toBe(0);
      const without = await cli(['--table', 'transactions', '--out', 's3://ton-data/x.parquet', '--s3-endpoint', endpoint], { AWS_ACCESS_KEY_ID: '', AWS_SECRET_ACCESS_KEY: '' });
      expect(without.code).toBe(1);
      expect(without.err).toMatch(/^ton-gateway export: --out s3: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY/);
    } finally {
      s3.close();
    }
  });

  it('mistakes: one line naming the option, exit 1, no file', async () => {
    const cases: [string[], RegExp][] = [
      [['--table', 'accounts', '--out', out('x.parquet')], /^ton-gateway export: --table: unknown table "accounts" \(one of blocks, transactions,/],
      [['--table', 'jetton_wallets', '--from-seqno', '1', '--out', out('x.parquet')], /--from-seqno \/ --until-seqno: jetton_wallets has no seqno to select by \(it has: lt\)/],
      [['--table', 'transactions', '--query', 'SELECT 1', '--out', out('x.parquet')], /give --table NAME or --query "SELECT \.\.\." \(one of them\)/],
      [['--table', 'transactions', '--from-lt', '9', '--until-lt', '3', '--out', out('x.parquet')], /--from-lt is above --until-lt/],
      [['--table', 'transactions', '--from-lt', '1', '--until-seqno', '3', '--out', out('x.parquet')], /--until-seqno: a range is on one of seqno, lt or time; --from-lt was given/],
      [['--table', 'transactions', '--from-time', '-5', '--out', out('x.parquet')], /--from-time: expected a whole number, got "-5"/],
      [['--query', "INSERT INTO checkpoints (name) VALUES ('x')", '--out', out('x.parquet')], /only read queries are allowed .*got INSERT/],
      [['--query', 'SELECT 1; DROP TABLE blocks', '--out', out('x.parquet')], /give one statement only/],
      [['--table', 'transactions', '--format', 'xlsx', '--out', out('x.parquet')], /--format: "xlsx" is not one of parquet, csv, jsonl/],
      [['--table', 'transactions'], /--out: a file, s3:\/\/bucket\/key/],
      [['--table', 'transactions', '--out', 'https://host-only/x'], /--out: "https:\/\/host-only\/x" is not an S3 object/],
    ];
    for (const [args, why] of cases) {
      const r = await cli(args, { AWS_ACCESS_KEY_ID: 'k', AWS_SECRET_ACCESS_KEY: 's' });
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.err.trim(), args.join(' ')).toMatch(why);
      expect(r.err.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
    expect(existsSync(out('x.parquet'))).toBe(false);
  });
});
