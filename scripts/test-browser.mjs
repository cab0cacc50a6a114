#!/usr/bin/env node
// Runs the browser tests (vitest.browser.config.ts, test/browser): a real `berth serve` driven
// through Debian's chromium by playwright-core. Installs chromium from apt when it is missing
// (scripts/chromium.mjs). Extra arguments go to vitest (e.g. a test file).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureChromium } from './chromium.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const chromium = ensureChromium();
if (!chromium) {
  console.error(
    'test-browser: chromium is missing and could not be installed (needs apt-get as root or passwordless sudo); install Debian chromium or set BERTH_CHROMIUM',
  );
  process.exit(1);
}

const vitest = spawn(
  process.execPath,
  [
    join(root, 'node_modules', 'vitest', 'vitest.mjs'),
    'run',
    '--config',
    'vitest.browser.config.ts',
    ...process.argv.slice(2),
  ],
  { cwd: root, stdio: 'inherit', env: { ...process.env, BERTH_CHROMIUM: chromium } },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => vitest.kill(signal));
vitest.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
