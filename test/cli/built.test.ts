/**
 * The compiled CLI (dist/, `npm run build`; `npm ci` builds it through `prepare`): help from the command registry
 * without loading any command, a real command's output equal to what the sources produce, and the files the code
 * reads at run time (migrations, bundled network configs, devnet contract codes, TL-B schemes) found from a tree laid
 * out like the Docker image: dist/ and assets, no TypeScript.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distState } from '../../bin/dist-state.js';
import { commands } from '../../src/cli/commands/index.ts';
import { decodedBlockJson } from '../../src/cli/commands/decode-block.ts';
import { SQL_FORMATS } from '../../src/store/read/sql.ts';
import { decodeBlock } from '../../src/ton/index.ts';
import { FIXTURES } from '../ton/fixtures.ts';
import { testServer } from '../helpers/server.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const SHARD_BLOCK = join(FIXTURES, 'blocks/mainnet/mainnet-wc0-a000000000000000-54302208.boc');
const dirs: string[] = [];

function run(root: string, args: string[], cwd = root, env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [join(root, 'bin', 'ton-gateway.js'), ...args], { encoding: 'utf8', cwd, maxBuffer: 64 << 20, env: { ...process.env, CLICKHOUSE_URL: '', ...env } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/**
 * A tree laid out like docker/Dockerfile's image: package.json, bin/, dist/, clickhouse/ and the non-TypeScript
 * files of src/; no .git, so the launcher runs dist/ without looking at sources. `drop` removes dist files.
 */
function imageTree(drop: (rel: string) => boolean = () => false, opts: { engine?: boolean } = {}): string {
  const d = mkdtempSync(join(tmpdir(), 'tg-image-'));
  dirs.push(d);
  for (const f of ['package.json', 'bin', 'clickhouse']) cpSync(join(ROOT, f), join(d, f), { recursive: true });
  cpSync(join(ROOT, 'dist'), join(d, 'dist'), { recursive: true, filter: (src) => !drop(src.slice(join(ROOT, 'dist').length + 1)) });
  cpSync(join(ROOT, 'src'), join(d, 'src'), { recursive: true, filter: (src) => !src.endsWith('.ts') });
  if (opts.engine === false) {
    // the server image (docker/Dockerfile, target server): node_modules without the engine's library and its FFI
    mkdirSync(join(d, 'node_modules'));
    for (const e of readdirSync(join(ROOT, 'node_modules'))) {
      if (!['@chdb', 'ffi-rs', '@yuuang'].includes(e)) symlinkSync(join(ROOT, 'node_modules', e), join(d, 'node_modules', e), 'dir');
    }
  } else symlinkSync(join(ROOT, 'node_modules'), join(d, 'node_modules'), 'dir');
  return d;
}

beforeAll(() => {
  // `npm ci` built dist/; after an edit of src/ without a rebuild it is stale, and this suite is about the build.
  if (distState(ROOT).run !== 'dist') {
    const b = spawnSync(process.execPath, [join(ROOT, 'bin', 'build.js')], { encoding: 'utf8' });
    expect(b.status, b.stdout + b.stderr).toBe(0);
  }
  expect(distState(ROOT).run).toBe('dist');
});

afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('compiled CLI', () => {
  it('--help lists every registered command with its summary, in registry order', () => {
    const r = run(ROOT, ['--help']);
    expect(r).toMatchObject({ code: 0, err: '' });
    const listed = r.out
      .split('\n')
      .filter((l) => l.startsWith('  '))
      .map((l) => l.trim());
    const width = Math.max(...commands.map((c) => c.name.length));
    expect(listed).toEqual(commands.map((c) => `${c.name.padEnd(width)}  ${c.summary}`));
    expect(commands.map((c) => c.name)).toEqual(expect.arrayContaining(['start', 'decode-block', 'devnet generate', 'serve']));
  });

  it('<command> --help prints the registry usage of that command, which names it', () => {
    for (const c of commands) {
      expect(c.usage.startsWith(`Usage: ton-gateway ${c.name} `), c.name).toBe(true);
      expect(run(ROOT, [...c.name.split(' '), '--help'])).toEqual({ code: 0, out: c.usage + '\n', err: '' });
    }
  });

  it('sql --help lists the formats the store accepts (spelled out in the registry so help does not load the store)', () => {
    const sql = commands.find((c) => c.name === 'sql')!;
    expect(/one of ([^(]+) \(default/.exec(sql.usage)?.[1].split(', ')).toEqual([...SQL_FORMATS]);
  });

  it('an unknown command: one line, exit 1', () => {
    expect(run(ROOT, ['frobnicate'])).toEqual({ code: 1, out: '', err: 'ton-gateway: unknown command "frobnicate". Run `ton-gateway --help` for the list.\n' });
  });

  it('decode-block prints what the sources print for the same block', () => {
    const r = run(ROOT, ['decode-block', SHARD_BLOCK, '--compact']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toBe(decodedBlockJson(decodeBlock(readFileSync(SHARD_BLOCK)), false) + '\n');
    const j = JSON.parse(r.out);
    expect(j.id).toMatchObject({ workchain: 0, shard: 'A000000000000000', seqno: 54302208 });
    expect(j.transactions).toHaveLength(11);
  });

  it('help loads no command module: it works with every command file but the registry removed; running one then fails', () => {
    const d = imageTree((rel) => /^src\/cli\/commands\/(?!index\.js)/.test(rel));
    expect(readdirSync(join(d, 'dist/src/cli/commands'))).toEqual(['index.js', 'index.js.map']);
    expect(run(d, ['--help'])).toMatchObject({ code: 0, err: '' });
    const decode = commands.find((c) => c.name === 'decode-block')!;
    expect(run(d, ['decode-block', '--help'])).toEqual({ code: 0, out: decode.usage + '\n', err: '' });
    const r = run(d, ['decode-block', SHARD_BLOCK]);
    expect(r.code).not.toBe(0);
    expect(r.err).toMatch(/Cannot find module .*decode-block\.js/);
  });
});

describe('compiled code in an image-like tree (dist/ and assets, no TypeScript)', () => {
  let d: string;
  beforeAll(() => {
    d = imageTree();
  });

  it('decode-block', () => {
    const r = run(d, ['decode-block', SHARD_BLOCK, '--compact']);
    expect(r).toMatchObject({ code: 0, err: '' });
    expect(JSON.parse(r.out).transactions).toHaveLength(11);
  });

  it('migrate applies clickhouse/*.sql of the package, sql reads them back', () => {
    const data = join(d, 'data');
    const m = run(d, ['migrate', '--data', data]);
    expect(m.err).toBe('');
    expect(m.code).toBe(0);
    const versions = readdirSync(join(ROOT, 'clickhouse'))
      .filter((f) => /^\d{4}_.*\.sql$/.test(f))
      .map((f) => Number(f.slice(0, 4)));
    const q = run(d, ['sql', 'SELECT version FROM schema_migrations ORDER BY version', '--format', 'CSV', '--data', data]);
    expect(q).toMatchObject({ code: 0, err: '' });
    expect(q.out.trim().split('\n').map(Number)).toEqual(versions);
  });

  it('devnet generate reads the contract codes under src/devnet/contracts', () => {
    const out = join(d, 'devnet');
    const before = Math.floor(Date.now() / 1000);
    const r = run(d, ['devnet', 'generate', out, '--blocks', '1', '--bulk', '0', '--states', 'none']);
    const after = Math.ceil(Date.now() / 1000);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^wrote .*: 2 blocks \(1 masterchain\), 3 transactions/);
    expect(readdirSync(join(out, 'blocks')).length).toBe(2);
    // the chain's clock starts at the generation time (its blocks carry current times), block 1 three seconds on
    const chain = JSON.parse(readFileSync(join(out, 'chain.json'), 'utf8')) as { start_time: number };
    expect(chain.start_time).toBeGreaterThanOrEqual(before);
    expect(chain.start_time).toBeLessThanOrEqual(after);
    const block = decodeBlock(readFileSync(join(out, 'blocks', '-1_8000000000000000_1.boc')));
    expect(block.info.gen_utime).toBe(chain.start_time + 3);
    // --start-time fixes it: the same seed and time give the same files
    const fixed = join(d, 'devnet-fixed');
    expect(run(d, ['devnet', 'generate', fixed, '--blocks', '1', '--bulk', '0', '--states', 'none', '--start-time', '1700000000']).code).toBe(0);
    expect(decodeBlock(readFileSync(join(fixed, 'blocks', '-1_8000000000000000_1.boc'))).info.gen_utime).toBe(1700000003);
  });

  it('the bundled network configs and the TL-B schemes, read by the compiled modules', () => {
    const script = [
      `const { loadLiteservers } = await import('./dist/src/source/network-config.js');`,
      `const { scheme } = await import('./dist/src/api/v3/decode/scheme.js');`,
      `const { packageRoot } = await import('./dist/src/util/package-root.js');`,
      `console.log(JSON.stringify({ root: packageRoot(), mainnet: loadLiteservers({ network: 'mainnet' }).length, testnet: loadLiteservers({ network: 'testnet' }).length, types: scheme().byName.size }));`,
    ].join('\n');
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: d, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    const got = JSON.parse(r.stdout);
    const bundled = (n: string) => (JSON.parse(readFileSync(join(ROOT, 'src/config/networks', `${n}.json`), 'utf8')) as { liteservers: unknown[] }).liteservers.length;
    expect(got).toMatchObject({ root: d, mainnet: bundled('mainnet'), testnet: bundled('testnet') });
    expect(got.types).toBeGreaterThan(10);
  });
});

describe('the server image (docker/Dockerfile target server: no embedded engine)', () => {
  const server = testServer();
  let d: string;
  beforeAll(() => {
    d = imageTree(undefined, { engine: false });
  });

  it('an embedded store is one clear line: the engine is not installed, use CLICKHOUSE_URL', () => {
    const r = run(d, ['sql', 'SELECT 1', '--data', join(d, 'data')]);
    expect(r.code).toBe(1);
    expect(r.err.trim()).toBe(
      'ton-gateway sql: cannot open the store: no embedded ClickHouse engine for linux-x64 (the optional package @chdb/lib-linux-x64-gnu is not installed): set CLICKHOUSE_URL to a ClickHouse server',
    );
  });

  it('with CLICKHOUSE_URL it migrates, reads and serves from the server', async () => {
    const s = await server();
    const env = { CLICKHOUSE_URL: s.url, CLICKHOUSE_USER: s.user ?? '', CLICKHOUSE_PASSWORD: s.password ?? '', CLICKHOUSE_DATABASE: `tg_image_${process.pid}` };
    const m = run(d, ['migrate'], d, env);
    expect(m.err).toBe('');
    expect(m.code).toBe(0);
    const q = run(d, ['sql', 'SELECT count() > 10 AS ok FROM schema_migrations', '--format', 'CSV'], d, env);
    expect(q).toMatchObject({ code: 0, err: '', out: '1\n' });
  });
});
