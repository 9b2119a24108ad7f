#!/usr/bin/env node
// Runs the TypeScript sources through tsx so `npx ton-gateway` works right after `npm ci`, no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
