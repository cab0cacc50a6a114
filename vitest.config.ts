import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Builds the CLI bundle once for the tests in test/cli, which run `node bin/run.js`.
    globalSetup: ['test/helpers/build.ts'],
  },
});
