// What rate limiting costs a request: `berth serve` on loopback, GET /api/v2/organizations with
// one token, measured with autocannon with the limiter off and on (limit too high to refuse),
// and the share of 429s at the default limit. Bounded: a few seconds per run, loopback only.
// `node bench/serve-rate-limit.mjs [--smoke]`
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { BIN, SMOKE, ensureBuilt } from './lib.mjs';

const DURATION = SMOKE ? 1 : 5;

function startServe(db, rateLimit) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [BIN, 'serve', '--port', '0', '--db', db, '--rate-limit', String(rateLimit)],
      {
        env: { ...process.env, BERTH_DB: '' },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
      const url = /berth listening on (http:\/\/\S+)/.exec(err)?.[1];
      if (url) resolve({ child, url, token: /^\s+(berth\.\S+)$/m.exec(err)?.[1] });
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${err}`)));
  });
}

async function measure(label, db, rateLimit, token) {
  const server = await startServe(db, rateLimit);
  token ??= server.token;
  try {
    const r = await autocannon({
      url: `${server.url}/api/v2/organizations`,
      connections: 8,
      duration: DURATION,
      headers: { Authorization: `Bearer ${token}` },
    });
    const limited = r.statusCodeStats?.['429']?.count ?? 0;
    console.log(
      `${label.padEnd(24)} ${String(Math.round(r.requests.average)).padStart(7)} req/s  p50 ${r.latency.p50} ms  p99 ${r.latency.p99} ms  429s ${limited}/${r.requests.total}`,
    );
    return token;
  } finally {
    server.child.kill('SIGTERM');
    await new Promise((res) => server.child.once('exit', res));
  }
}

ensureBuilt();
const dir = mkdtempSync(join(tmpdir(), 'berth-bench-rl-'));
try {
  const db = join(dir, 'berth.db');
  const token = await measure('rate limit off', db, 0);
  await measure('rate limit on (1e9/s)', db, 1_000_000_000, token);
  await measure('rate limit 30/s', db, 30, token);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
