#!/usr/bin/env node
// Runs the compiled CLI in dist/. Where dist/ is missing, or in a git checkout older than the sources (src/ edited,
// not rebuilt), it runs the TypeScript sources through tsx instead: slower to start, but the code you see is the
// code that runs (CONTRIBUTING.md, "Build").
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { distState } from './dist-state.js';

const state = distState();
if (state.run === 'tsx') {
  if (!existsSync(state.entry)) {
    console.error(`ton-gateway: ${state.why} and the sources are not here; run \`npm run build\` where they are`);
    process.exit(1);
  }
  // One line for a person at a terminal; scripts and tests that read stderr get the command's output only.
  if (process.stderr.isTTY) console.error(`ton-gateway: ${state.why}; running the sources through tsx (slow start). \`npm run build\` to start fast`);
  const { register } = await import('tsx/esm/api');
  register();
}
const { main } = await import(pathToFileURL(state.entry).href);
process.exitCode = await main(process.argv.slice(2));
