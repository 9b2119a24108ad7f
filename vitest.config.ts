import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    // chdb allows one engine per process per data dir; forks keep suites isolated.
    pool: 'forks',
  },
});
