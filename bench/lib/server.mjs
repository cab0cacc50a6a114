// Processes of the HTTP benchmarks: `berth serve` on a copy of a seed, a bare node:http reference
// server, and the load generator (autocannon, in a process of its own).
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { BIN, ROOT } from '../lib.mjs';

/** Resolves with the first line of `stream` that `pattern` matches (its match). */
function lineMatching(child, stream, pattern, what) {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: stream });
    const seen = [];
    const onExit = (code) => reject(new Error(`${what} exited (${code}) before it was ready:\n${seen.join('\n')}`));
    child.once('exit', onExit);
    lines.on('line', (line) => {
      seen.push(line);
      const m = pattern.exec(line);
      if (!m) return;
      child.off('exit', onExit);
      // Keep draining the stream (the access log) so that the child never blocks on it, as raw
      // chunks: splitting thousands of lines a second would cost this process CPU time that the
      // machine's two cores share with the server under test.
      lines.close();
      stream.on('data', () => {});
      stream.resume();
      resolve(m);
    });
  });
}

function stopper(child, cleanup = () => {}) {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve(cleanup());
      child.once('exit', () => resolve(cleanup()));
      child.kill('SIGTERM');
    });
}

/**
 * `berth serve --port 0` (the built CLI, a real process) over a copy of `seedFile`, with a
 * site-administrator token written into the copy. The access log is read and dropped.
 * BENCH_CPU_PROF=DIR profiles it (node --cpu-prof).
 */
export async function startBerth(seedFile, extraArgs = []) {
  const dir = mkdtempSync(join(tmpdir(), 'berth-bench-'));
  const db = join(dir, 'berth.db');
  copyFileSync(seedFile, db);
  const token = `berth.bench.${randomBytes(20).toString('hex')}`;
  const { default: Database } = await import('better-sqlite3');
  const sqlite = new Database(db);
  // Every person's token belongs to a user: this one to the first site-administrator user.
  const admin = sqlite.prepare(`select id from users where site_admin = 1 order by created_at, id limit 1`).get();
  if (!admin) throw new Error(`the seed ${seedFile} has no site-administrator user`);
  sqlite
    .prepare(
      `insert into tokens (id, kind, user_id, token_hash, description, created_at) values (?, 'user', ?, ?, 'benchmark', ?)`,
    )
    .run(
      `at-bench${randomBytes(6).toString('hex')}`,
      admin.id,
      createHash('sha256').update(token).digest('hex'),
      new Date().toISOString(),
    );
  sqlite.close();
  // No rate limit, unless the caller sets one.
  const rate = extraArgs.includes('--rate-limit') ? [] : ['--rate-limit', '0'];
  // BENCH_CPU_PROF=DIR: the serve process writes a V8 CPU profile there when it stops.
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : [];
  const child = spawn(
    process.execPath,
    [...profile, BIN, 'serve', '--port', '0', '--prune-interval', '0', ...rate, ...extraArgs],
    {
      cwd: ROOT,
      env: { ...process.env, BERTH_DB: db, BERTH_DATABASE_URL: '', NO_COLOR: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  const [, url] = await lineMatching(child, child.stderr, /berth listening on (\S+)/, 'berth serve');
  return { url, token, pid: child.pid, db, stop: stopper(child, () => rmSync(dir, { recursive: true, force: true })) };
}

/**
 * `instances` processes of `berth serve --port 0` on one PostgreSQL database (`url`, already
 * seeded), sharing the site-administrator token `token`.
 */
export async function startBerthsOnPostgres(url, token, instances) {
  const servers = [];
  // The key of sensitive values (PostgreSQL has no file to keep one beside): one, on every instance.
  const secretKey = `berth-secret-key-v1:${randomBytes(32).toString('base64')}`;
  for (let i = 0; i < instances; i++) {
    const child = spawn(
      process.execPath,
      [BIN, 'serve', '--port', '0', '--prune-interval', '0', '--rate-limit', '0', '--database', url],
      {
        cwd: ROOT,
        env: { ...process.env, BERTH_DB: '', BERTH_DATABASE_URL: '', BERTH_SECRET_KEY: secretKey, NO_COLOR: '1' },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    const [, listening] = await lineMatching(child, child.stderr, /berth listening on (\S+)/, 'berth serve');
    servers.push({ url: listening, token, pid: child.pid, stop: stopper(child) });
  }
  return servers;
}

/** A bare node:http server (own process) answering every request with `bytes` bytes of JSON. */
export async function startReference(bytes) {
  const script = `
    const body = JSON.stringify({ data: { pad: 'x'.repeat(Math.max(0, ${bytes} - 22)) } });
    const server = require('node:http').createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/vnd.api+json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
    server.listen(0, '127.0.0.1', () => console.log('listening ' + server.address().port));
    process.on('SIGTERM', () => server.close(() => process.exit(0)));`;
  return startScriptServer(script, [], 'reference server');
}

/**
 * A server of the benchmarks' own (`node -e script ...args`, in its own process) that prints
 * `listening PORT` once it listens on 127.0.0.1; `cleanup` runs after it stopped.
 */
export async function startScriptServer(script, args, what, cleanup = () => {}) {
  const child = spawn(process.execPath, ['-e', script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [, port] = await lineMatching(child, child.stdout, /listening (\d+)/, what);
  return { url: `http://127.0.0.1:${port}`, pid: child.pid, stop: stopper(child, cleanup) };
}

/** Runs bench/lib/load.mjs (autocannon) in a child process and returns its JSON result. */
export function runLoad(options) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'bench', 'lib', 'load.mjs'), JSON.stringify(options)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`load generator failed (${code}): ${out}`));
      resolve(JSON.parse(out));
    });
  });
}

/** Resident memory (VmRSS) of a process, in MB, from /proc. */
export function residentMb(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmRSS for process ${pid}`);
  return Number(m[1]) / 1024;
}

/** One request from the benchmark process itself (set-up, not measured). */
export async function api(server, method, path, body) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/vnd.api+json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return { text, json: JSON.parse(text) };
}
