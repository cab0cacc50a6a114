// PostgreSQL for the benchmarks: a throwaway cluster (scripts/pg-cluster.sh) unless
// BERTH_BENCH_DATABASE_URL names a server to use, and seeded schemas copied from the SQLite seeds
// with `berth db copy`.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { BIN, ROOT } from '../lib.mjs';
import { api } from './server.mjs';

const CLUSTER = join(ROOT, 'scripts', 'pg-cluster.sh');

/** A PostgreSQL server for the run: `{ url, stop }`. */
export function benchPostgres() {
  if (process.env.BERTH_BENCH_DATABASE_URL) return { url: process.env.BERTH_BENCH_DATABASE_URL, stop: () => {} };
  const dir = mkdtempSync(join(tmpdir(), 'berth-bench-pg-'));
  const started = spawnSync('bash', [CLUSTER, 'start', dir], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (started.status !== 0)
    throw new Error('could not start a PostgreSQL cluster (set BERTH_BENCH_DATABASE_URL to use a running server)');
  const url = readFileSync(join(dir, 'url'), 'utf8').trim();
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    spawnSync('bash', [CLUSTER, 'stop', dir], { stdio: 'inherit' });
  };
  process.on('exit', stop);
  return { url, stop };
}

/**
 * A fresh schema on the server holding a copy of the SQLite `seedFile` (through `berth db copy`)
 * and a site-administrator token. Returns its URL, the token, and `drop()`.
 */
export async function seededPostgres(serverUrl, seedFile) {
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const u = new URL(serverUrl);
  u.searchParams.set('options', `-c search_path=${schema}`);
  const url = u.toString();
  // Copy from a copy: opening a SQLite file may write beside it, and the seed stays pristine.
  const dir = mkdtempSync(join(tmpdir(), 'berth-bench-'));
  const source = join(dir, 'seed.db');
  copyFileSync(seedFile, source);
  execFileSync(process.execPath, [BIN, 'db', 'copy', '--db', source, '--to', url], {
    env: { ...process.env, BERTH_DB: '', BERTH_DATABASE_URL: '' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  rmSync(dir, { recursive: true, force: true });
  const token = `berth.bench.${randomBytes(20).toString('hex')}`;
  // Every person's token belongs to a user: this one to the first site-administrator user.
  const { rows } = await admin.query(
    `select id from ${schema}.users where site_admin = 1 order by created_at, id limit 1`,
  );
  if (rows.length === 0) throw new Error('the copied seed has no site-administrator user');
  await admin.query(
    `insert into ${schema}.tokens (id, kind, user_id, token_hash, description, created_at) values ($1, 'user', $2, $3, 'benchmark', $4)`,
    [
      `at-bench${randomBytes(6).toString('hex')}`,
      rows[0].id,
      createHash('sha256').update(token).digest('hex'),
      new Date().toISOString(),
    ],
  );
  // The seed sealed no value; the key it names stayed beside the seed file: the copy takes the
  // instances' own key at their first start (startBerthsOnPostgres).
  await admin.query(`delete from ${schema}.settings where key = 'secret-key-id'`);
  await admin.query(`analyze`);
  return {
    url,
    token,
    drop: async () => {
      await admin.query(`drop schema ${schema} cascade`);
      await admin.end();
    },
  };
}

/** Creates organization `name` through a running instance (an empty one: its default project only). */
export async function addOrganization(server, name) {
  await api(server, 'POST', '/api/v2/organizations', {
    data: { type: 'organizations', attributes: { name, email: `${name}@bench.test` } },
  });
  return name;
}
