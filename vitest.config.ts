import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // PostgreSQL only: run by scripts/test-postgres.mjs with vitest.postgres.config.ts.
    exclude: ['test/postgres/**', '**/node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Builds the CLI bundle once for the tests in test/cli, which run `node bin/run.js`.
    globalSetup: ['test/helpers/build.ts'],
  },
});
