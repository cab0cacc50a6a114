#!/usr/bin/env node
// Development entry: rebuilds the bundle from src/ (esbuild takes well under a second), then runs it.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

execFileSync(process.execPath, [fileURLToPath(new URL('../scripts/build.mjs', import.meta.url))], { stdio: 'inherit' });
const { execute } = await import('../dist/cli.js');
await execute({ development: true, dir: import.meta.url });
