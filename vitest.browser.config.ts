import { defineConfig } from 'vitest/config';

/**
 * The browser tests (scripts/test-browser.mjs, which finds or installs chromium first): each file
 * starts a real `berth serve` and drives the console in headless chromium through playwright-core.
 * One file at a time: a browser and a server per file are heavy for small machines.
 */
export default defineConfig({
  test: {
    include: ['test/browser/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // A poll waits for a round trip to serve and a render beside chromium on a loaded machine: 10 s
    // by default rather than vitest's 1 s (a poll that succeeds returns at once all the same).
    expect: { poll: { timeout: 10_000 } },
    pool: 'forks',
    fileParallelism: false,
    env: { BERTH_CHECK_MEMO_QUERIES: '1' },
    // The CLI bundle and the console (dist/console), built once.
    globalSetup: ['test/helpers/build.ts'],
  },
});
