/**
 * `npm run conformance:actions -- DIR`: classifies every case of DIR (toncenter test layout) and
 * prints `PASS name` or what differed, then `N passed, M failed`. Exit code 0 only if all pass.
 */
import { existsSync } from 'node:fs';
import { ConformanceInputError, loadCases, runCase } from './runner.ts';

const DEFAULT_DIR = 'test/fixtures/traces/toncenter-indexer';

function main(argv: string[]): number {
  const args = argv.filter((a) => a !== '--');
  if (args.includes('-h') || args.includes('--help')) {
    console.log('usage: npm run conformance:actions -- [DIR]   (DIR/test_cases/*.yaml, DIR/json/<trace id>.json)');
    return 0;
  }
  const dir = args[0] ?? DEFAULT_DIR;
  if (!existsSync(dir)) {
    console.error(`conformance:actions: directory not found: ${dir}`);
    return 1;
  }
  let passed = 0, failed = 0;
  try {
    for (const c of loadCases(dir)) {
      const r = runCase(dir, c);
      const name = `${c.file.replace(/\.ya?ml$/, '')}: ${c.name}`;
      if (r.ok) {
        passed++;
        console.log(`PASS ${name}`);
      } else {
        failed++;
        console.log(`FAIL ${name}`);
        for (const f of r.failures) console.log(`     ${f.replace(/\n/g, ' ')}`);
      }
    }
  } catch (e) {
    if (e instanceof ConformanceInputError) {
      console.error(`conformance:actions: ${e.message}`);
      return 1;
    }
    throw e;
  }
  console.log(`${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

process.exitCode = main(process.argv.slice(2));
