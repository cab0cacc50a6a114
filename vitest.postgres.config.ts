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
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    globalSetup: ['test/helpers/build.ts'],
  },
});
