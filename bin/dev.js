#!/usr/bin/env node
// Development entry: rebuilds the bundle from src/ (esbuild takes a second or two), then runs it.
const { execFileSync } = require('node:child_process');
const { join } = require('node:path');

execFileSync(process.execPath, [join(__dirname, '..', 'scripts', 'build.mjs')], { stdio: 'inherit' });
require('./boot.js').boot({ development: true });
