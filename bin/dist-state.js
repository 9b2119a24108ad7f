/**
 * Which code bin/ton-gateway.js runs: the compiled dist/ (built by `npm ci` through `prepare`, or `npm run build`)
 * when it is there and current, else the TypeScript sources through tsx.
 *
 * "Current" is checked only in a git checkout, where a developer edits src/ and may not rebuild: bin/build.js
 * writes dist/.built after tsc has written the JS, dated when the build started, so dist/ is current when no source
 * it compiles is newer than that (while a build runs, the old stamp is older than the sources, so nothing runs a
 * half-written dist/). An installed package or an image has no .git and runs dist/ as built, without looking at
 * sources.
 */
import { existsSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root (bin/..). */
export const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));

/** Written after a successful build, dated when it started. */
export const STAMP = join(ROOT, 'dist', '.built');

/** What tsconfig.build.json compiles, and the configs that shape the output. */
const SOURCE_DIRS = ['src', 'pipelines', 'schemas'];
const CONFIGS = ['tsconfig.json', 'tsconfig.build.json'];

/**
 * @typedef {{ run: 'dist', entry: string } | { run: 'tsx', entry: string, why: string }} DistState
 * `entry` is the CLI's main module (it exports `main(argv)`); `why` says in a few words why dist/ is not used.
 */

/**
 * The newest compiled source under `dir` (tests are not compiled, so they do not count).
 * @param {string} dir
 * @param {{ mtimeMs: number, path: string }} newest
 */
function scan(dir, newest) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) scan(p, newest);
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')) {
      const m = statSync(p).mtimeMs;
      if (m > newest.mtimeMs) Object.assign(newest, { mtimeMs: m, path: p });
    }
  }
}

/**
 * @param {string} root
 * @returns {{ mtimeMs: number, path: string }}
 */
export function newestSource(root) {
  const newest = { mtimeMs: 0, path: '' };
  for (const d of SOURCE_DIRS) if (existsSync(join(root, d))) scan(join(root, d), newest);
  for (const f of CONFIGS) {
    const p = join(root, f);
    if (existsSync(p) && statSync(p).mtimeMs > newest.mtimeMs) Object.assign(newest, { mtimeMs: statSync(p).mtimeMs, path: p });
  }
  return newest;
}

/**
 * @param {string} [root]
 * @returns {DistState}
 */
export function distState(root = ROOT) {
  const compiled = join(root, 'dist', 'src', 'cli', 'main.js');
  const stamp = join(root, 'dist', '.built');
  const sources = join(root, 'src', 'cli', 'main.ts');
  if (!existsSync(compiled) || !existsSync(stamp)) return { run: 'tsx', entry: sources, why: 'dist/ is not built' };
  if (existsSync(join(root, '.git'))) {
    const newest = newestSource(root);
    if (newest.mtimeMs > statSync(stamp).mtimeMs) {
      return { run: 'tsx', entry: sources, why: `dist/ is older than ${relative(root, newest.path)}` };
    }
  }
  return { run: 'dist', entry: compiled };
}

/**
 * Marks dist/ as built from the sources as they were at `started`.
 * @param {Date} started
 */
export function stampBuild(started) {
  writeFileSync(STAMP, `${started.toISOString()}\n`);
  utimesSync(STAMP, started, started);
}
