// Cases of toncenter's suite (test/fixtures/traces/toncenter-indexer/test_cases) whose family is not ported yet on the
// new engine (src/actions/README.md, "Action types"). Suites run them with `it.fails`; each family's port removes its lines.
// Every family is ported: the list is empty; a case listed here would run as `it.fails`, so a fix shows up.
export const KNOWN_GAPS = new Set<string>([
]);

// Cases the pipeline's own trace context cannot give what toncenter's records give (test/traces/trace-context.test.ts
// runs them with `it.fails`), each with the reason; README "Known limits" says the same.
export const PIPELINE_GAPS = new Set<string>([
  // jVault: a refused unstake never reaches the pool, so the pool is no account of the trace; toncenter's repository
  // fetches the pool's data (its lock wallet: the staked asset) with the stake wallet's, the pipeline loads the
  // trace's accounts only: without the staked asset the unstake is not reported (jvault.py's rule)
  'jvault.yaml: Unstake (failed)',
]);
