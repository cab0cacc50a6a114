// Shared helpers of the benchmarks: timing with medians, the built CLI, and a fast seed of a
// database through berth's own migrations plus bulk inserts in large transactions.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const BIN = join(ROOT, 'bin', 'run.js');
export const CACHE = join(ROOT, 'bench', '.cache');
export const SMOKE = process.argv.includes('--smoke') || process.env.BENCH_SMOKE === '1';

export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Wall time of one run of a command, in milliseconds. */
export function timeRun(cmd, args, env = {}) {
  const started = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return ms;
}

export function ensureBuilt() {
  if (!existsSync(join(ROOT, 'dist', 'cli.cjs'))) execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { stdio: 'inherit' });
}

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz123456789';
export function id(prefix) {
  const bytes = randomBytes(16);
  let tail = '';
  for (const b of bytes) tail += ALPHABET[b % ALPHABET.length];
  return `${prefix}-${tail}`;
}

/**
 * A database with one organization `bench` and `count` workspaces (`ws-00000`...), cached in
 * bench/.cache by size. The organization and schema are made by berth itself; workspaces are
 * bulk-inserted in one transaction.
 */
export async function seededDatabase(count) {
  mkdirSync(CACHE, { recursive: true });
  const file = join(CACHE, `seed-${count}.db`);
  if (existsSync(file)) return file;
  const tmp = `${file}.tmp`;
  for (const f of [tmp, `${tmp}-wal`, `${tmp}-shm`]) if (existsSync(f)) execFileSync('rm', ['-f', f]);
  execFileSync(process.execPath, [BIN, 'org', 'create', 'bench', '--email', 'bench@example.test'], { env: { ...process.env, BERTH_DB: tmp } });
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(tmp);
  const org = db.prepare('select id from organizations where name = ?').get('bench');
  const project = db.prepare('select id from projects where organization_id = ? and is_default = 1').get(org.id);
  const now = new Date().toISOString();
  const insert = db.prepare(`insert into workspaces (id, organization_id, project_id, name, name_lower, terraform_version, latest_change_at, created_at, updated_at)
    values (?, ?, ?, ?, ?, '1.13.3', ?, ?, ?)`);
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const name = `ws-${String(i).padStart(6, '0')}`;
      insert.run(id('ws'), org.id, project.id, name, name, now, now, now);
    }
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  execFileSync('mv', [tmp, file]);
  return file;
}
