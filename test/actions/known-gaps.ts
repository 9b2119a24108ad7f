// Cases of toncenter's suite (test/fixtures/traces/toncenter-indexer/test_cases) whose family is not ported yet on the
// new engine (src/actions/README.md, "Action types"). Suites run them with `it.fails`; each family's port removes its lines.
// Every family is ported: the list is empty; a case listed here would run as `it.fails`, so a fix shows up.
export const KNOWN_GAPS = new Set<string>([
]);

// Cases the pipeline's own trace context cannot give what toncenter's records give (test/traces/trace-context.test.ts
// runs them with `it.fails`), each with the reason; README "Known limits" says the same. Empty: the last one (a refused
// jVault unstake, whose pool the trace never reaches) is read through the stake wallet's data to the pool and its lock
// wallet (src/traces/context-jvault.ts), as toncenter's repository gathers them.
export const PIPELINE_GAPS = new Set<string>([
]);
