#!/usr/bin/env node
// Copies the README's pictures of the console from the browser tests' screenshots
// (test/browser/screenshots, written by `npm run test:browser`) into docs/images.
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const from = join(root, 'test', 'browser', 'screenshots');
const to = join(root, 'docs', 'images');
const PICTURES = { 'locks-board.png': 'console-locks-board.png', 'workspace.png': 'console-workspace.png' };

mkdirSync(to, { recursive: true });
for (const [source, target] of Object.entries(PICTURES)) {
  const file = join(from, source);
  if (!existsSync(file)) {
    console.error(`readme-screenshots: ${file} is missing; run npm run test:browser first`);
    process.exit(1);
  }
  copyFileSync(file, join(to, target));
  console.log(`docs/images/${target}`);
}
