#!/usr/bin/env node
require('./boot.js').boot();
