#!/usr/bin/env node
// `npm run build` (and `prepare`, so `npm ci` builds too): tsc with tsconfig.build.json compiles src/, pipelines/ and
// schemas/ into dist/ (incremental: a rebuild re-emits what changed), then stamps dist/ with the time the build
// started, which bin/dist-state.js compares the sources against.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROOT, stampBuild } from './dist-state.js';

const started = new Date();
let tsc;
try {
  tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
} catch {
  // `npm ci --omit=dev`: no compiler. The CLI still runs, from the sources through tsx (a dependency).
  console.error('build: typescript is not installed (dev dependencies omitted); dist/ not built, the CLI runs the sources through tsx');
  process.exit(0);
}
const r = spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json')], { stdio: 'inherit' });
if (r.status !== 0) {
  console.error(`build: tsc failed (exit ${r.status ?? r.signal}); dist/ is not marked as built`);
  process.exit(r.status || 1);
}
stampBuild(started);
