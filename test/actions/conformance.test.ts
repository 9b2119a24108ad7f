// toncenter's own classifier test cases (test_cases/*.yaml) against our classifier, one test per case.
// Cases listed in KNOWN_GAPS are not supported yet (see the report for why): they run with `it.fails`,
// so the suite stays green, and a gap that starts passing shows up as a failure to un-list.
import { describe, expect, it } from 'vitest';
import { loadCases, runCase } from '../../src/actions/conformance/runner.ts';

const DIR = new URL('../fixtures/traces/toncenter-indexer/', import.meta.url).pathname;
const cases = loadCases(DIR);

// none left: every case of the reference's suite passes (see src/actions/README.md for how Ethena is recognised)
const KNOWN_GAPS = new Set<string>([]);

describe('toncenter action test cases', () => {
  it('loads every case', () => {
    expect(cases.length).toBe(72);
  });
  for (const c of cases) {
    const name = `${c.file}: ${c.name}`;
    const test = KNOWN_GAPS.has(name) ? it.fails : it;
    test(name, () => {
      const r = runCase(DIR, c);
      expect(r.failures).toEqual([]);
    });
  }
});
