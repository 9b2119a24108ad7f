// toncenter's own classifier test cases (test_cases/*.yaml) against our classifier, one test per case.
import { describe, expect, it } from 'vitest';
import { loadCases, runCase } from '../../src/actions/conformance/runner.ts';

const DIR = new URL('../fixtures/traces/toncenter-indexer/', import.meta.url).pathname;
const cases = loadCases(DIR);

describe('toncenter action test cases', () => {
  it('loads every case', () => {
    expect(cases.length).toBe(72);
  });
  for (const c of cases) {
    it(`${c.file}: ${c.name}`, () => {
      const r = runCase(DIR, c);
      expect(r.failures).toEqual([]);
    });
  }
});
