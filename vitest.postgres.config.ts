import { defineConfig } from 'vitest/config';

/**
 * The suite that runs against PostgreSQL (scripts/test-postgres.mjs sets BERTH_TEST_DATABASE_URL):
 * the whole API suite, the multi-process races, and the tests of PostgreSQL itself
 * (test/postgres). The API tests switch engine through test/helpers/store.ts.
 */
export default defineConfig({
  test: {
    include: [
      'test/api/**/*.test.ts',
      'test/postgres/**/*.test.ts',
      'test/reliability/lock-race.test.ts',
      'test/reliability/create-race.test.ts',
      'test/reliability/concurrent-writes.test.ts',
    ],
    testTimeout: 90_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Every memoized query is checked against its usual build (store/memo-query.ts), in the
    // test workers and in every process they start (CLI runs, serve).
    env: { BERTH_CHECK_MEMO_QUERIES: '1' },
    globalSetup: ['test/helpers/build.ts'],
  },
});
