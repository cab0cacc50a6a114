import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // PostgreSQL only: run by scripts/test-postgres.mjs with vitest.postgres.config.ts; the
    // browser tests by scripts/test-browser.mjs with vitest.browser.config.ts.
    exclude: ['test/postgres/**', 'test/browser/**', '**/node_modules/**'],
    // The last resort only: tests wait for events within bounds of their own, and many start node
    // or terraform processes, slow to start on a loaded machine (CI has two shared cores).
    testTimeout: 90_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Every memoized query is checked against its usual build (store/memo-query.ts), in the
    // test workers and in every process they start (CLI runs, serve).
    env: { BERTH_CHECK_MEMO_QUERIES: '1' },
    // Builds the CLI bundle once for the tests in test/cli, which run `node bin/run.js`.
    globalSetup: ['test/helpers/build.ts'],
  },
});
