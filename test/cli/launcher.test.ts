/**
 * bin/ton-gateway.js picks the code it runs (bin/dist-state.js): dist/ when it is built and, in a git checkout, not
 * older than the sources; else the sources through tsx. These run the real launcher in throwaway package trees whose
 * dist/ is a stand-in main module, so which one ran shows in the output.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { distState } from '../../bin/dist-state.js';

const ROOT = join(import.meta.dirname, '..', '..');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const T0 = new Date('2030-01-01T00:00:00Z');
const LATER = new Date('2030-01-01T00:00:05Z');
const EARLIER = new Date('2029-12-31T23:59:55Z');

function write(path: string, text: string, mtime: Date) {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  utimesSync(path, mtime, mtime);
}

/** A package tree: bin/ (the real launcher), src/cli/main.ts and dist/src/cli/main.js that say who they are. */
function tree(opts: { git: boolean; dist: boolean; src: boolean }): string {
  const d = mkdtempSync(join(tmpdir(), 'tg-launcher-'));
  dirs.push(d);
  cpSync(join(ROOT, 'bin'), join(d, 'bin'), { recursive: true });
  writeFileSync(join(d, 'package.json'), '{"type":"module"}\n');
  symlinkSync(join(ROOT, 'node_modules'), join(d, 'node_modules'), 'dir');
  if (opts.git) mkdirSync(join(d, '.git'));
  if (opts.src) {
    // Type-only syntax, so it runs only through tsx.
    write(join(d, 'src/cli/main.ts'), 'export async function main(argv: string[]): Promise<number> {\n  console.log(`sources ${argv.join(" ")}`);\n  return 3;\n}\n', EARLIER);
    write(join(d, 'src/cli/other.ts'), 'export const x: number = 1;\n', EARLIER);
  }
  if (opts.dist) {
    write(join(d, 'dist/src/cli/main.js'), 'export async function main(argv) {\n  console.log(`dist ${argv.join(" ")}`);\n  return 4;\n}\n', T0);
    write(join(d, 'dist/.built'), T0.toISOString() + '\n', T0);
  }
  return d;
}

function run(dir: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [join(dir, 'bin', 'ton-gateway.js'), ...args], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('bin/ton-gateway.js: dist/ or the sources', () => {
  it('built and current: runs dist/ (argv and exit code pass through)', () => {
    const d = tree({ git: true, dist: true, src: true });
    expect(distState(d)).toEqual({ run: 'dist', entry: join(d, 'dist/src/cli/main.js') });
    expect(run(d, 'a', 'b')).toEqual({ code: 4, out: 'dist a b\n', err: '' });
  });

  it('a source edited after the build, in a git checkout: runs the sources through tsx, naming the newer file', () => {
    const d = tree({ git: true, dist: true, src: true });
    utimesSync(join(d, 'src/cli/other.ts'), LATER, LATER);
    expect(distState(d)).toEqual({ run: 'tsx', entry: join(d, 'src/cli/main.ts'), why: 'dist/ is older than src/cli/other.ts' });
    // stderr is not a terminal here: the notice is for people, so the output stays the command's own
    expect(run(d, 'x')).toEqual({ code: 3, out: 'sources x\n', err: '' });
  });

  it('a build config newer than the build counts; a test file or a non-TypeScript file does not', () => {
    const d = tree({ git: true, dist: true, src: true });
    write(join(d, 'src/cli/main.test.ts'), 'export {};\n', LATER);
    write(join(d, 'src/cli/README.md'), 'notes\n', LATER);
    expect(distState(d).run).toBe('dist');
    write(join(d, 'tsconfig.build.json'), '{}\n', LATER);
    expect(distState(d)).toMatchObject({ run: 'tsx', why: 'dist/ is older than tsconfig.build.json' });
  });

  it('not a git checkout (an installed package, an image): dist/ runs as built, sources are not looked at', () => {
    const d = tree({ git: false, dist: true, src: true });
    utimesSync(join(d, 'src/cli/other.ts'), LATER, LATER);
    expect(run(d, 'y')).toEqual({ code: 4, out: 'dist y\n', err: '' });
  });

  it('dist/ not built (no stamp: tsc failed or is still writing): the sources run', () => {
    const d = tree({ git: false, dist: true, src: true });
    rmSync(join(d, 'dist/.built'));
    expect(distState(d)).toMatchObject({ run: 'tsx', why: 'dist/ is not built' });
    expect(run(d)).toEqual({ code: 3, out: 'sources \n', err: '' });
  });

  it('neither dist/ nor sources: one line saying what to do, exit 1', () => {
    const d = tree({ git: false, dist: false, src: false });
    const r = run(d, '--help');
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toBe('ton-gateway: dist/ is not built and the sources are not here; run `npm run build` where they are\n');
  });
});
