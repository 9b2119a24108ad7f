// toncenter's own classifier test cases (test_cases/*.yaml) against our classifier, one test per case.
// Cases listed in KNOWN_GAPS (./known-gaps.ts: families not ported yet) run with `it.fails`,
// so the suite stays green, and a gap that starts passing shows up as a failure to un-list.
import { describe, expect, it } from 'vitest';
import { loadCases, runCase } from './conformance/runner.ts';
import { KNOWN_GAPS } from './known-gaps.ts';

const DIR = new URL('../fixtures/traces/toncenter-indexer/', import.meta.url).pathname;
const cases = loadCases(DIR);

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
