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
  if (!existsSync(join(ROOT, 'dist', 'cli.cjs')))
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { stdio: 'inherit' });
}

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz123456789';
export function id(prefix) {
  const bytes = randomBytes(16);
  let tail = '';
  for (const b of bytes) tail += ALPHABET[b % ALPHABET.length];
  return `${prefix}-${tail}`;
}

/**
 * A fresh `FILE.tmp` beside the cached seed `file`, holding berth's schema and the organization
 * `bench`, both made by berth itself; the caller fills it and renames it into place.
 */
function newSeedFile(file) {
  mkdirSync(CACHE, { recursive: true });
  const tmp = `${file}.tmp`;
  for (const f of [tmp, `${tmp}-wal`, `${tmp}-shm`]) if (existsSync(f)) execFileSync('rm', ['-f', f]);
  ensureBuilt();
  execFileSync(process.execPath, [BIN, 'org', 'create', 'bench', '--email', 'bench@example.test'], {
    env: { ...process.env, BERTH_DB: tmp },
  });
  return tmp;
}

/**
 * A database with one organization `bench` and `count` workspaces (`ws-00000`...), cached in
 * bench/.cache by size. The organization and schema are made by berth itself; workspaces are
 * bulk-inserted in one transaction.
 */
export async function seededDatabase(count) {
  const file = join(CACHE, `seed-${count}.db`);
  if (existsSync(file)) return file;
  const tmp = newSeedFile(file);
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(tmp);
  const org = db.prepare('select id from organizations where name = ?').get('bench');
  const project = db.prepare('select id from projects where organization_id = ? and is_default = 1').get(org.id);
  const now = new Date().toISOString();
  const insert =
    db.prepare(`insert into workspaces (id, organization_id, project_id, name, name_lower, terraform_version, latest_change_at, created_at, updated_at)
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

/** A small deterministic random generator (mulberry32), so that a seed shape is reproducible. */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const TAGGED_SHAPE = {
  projects: 50,
  flatTags: [
    'a',
    'b',
    'c',
    'd',
    'e',
    'web',
    'api',
    'db',
    'cache',
    'queue',
    'eu',
    'us',
    'ap',
    'critical',
    'legacy',
    'pci',
    'gpu',
    'batch',
    'edge',
    'internal',
  ],
  bindingKeys: ['env', 'team', 'region', 'tier', 'owner', 'app'],
  envs: ['prod', 'staging', 'dev'],
  regions: ['eu', 'us', 'ap'],
  teams: ['core', 'data', 'infra', 'payments', 'search', 'mobile', 'platform', 'security'],
};

/**
 * The list-scale database: one organization `bench`, `count` workspaces spread over 50 projects
 * (`proj-00`...), each workspace with 2 to 5 flat tags and 1 to 5 key-value tag bindings, each
 * project with 1 to 3 bindings (inherited). Names look like `svc17-prod-eu-000123`. Rows are the
 * ones the services would write (ids, name_lower, lower-case tag names, timestamps), inserted
 * in one transaction; the schema and the organization come from berth itself.
 */
export async function seededTaggedDatabase(count) {
  const file = join(CACHE, `seed-tagged-v3-${count}.db`);
  if (existsSync(file)) return file;
  const tmp = newSeedFile(file);
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(tmp);
  db.pragma('journal_mode = WAL');
  const rand = prng(9);
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const some = (list, min, max) => {
    const n = min + Math.floor(rand() * (max - min + 1));
    const copy = [...list];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [copy[i], copy[j]] = [copy[j], copy[i]];
    }
    return copy.slice(0, n);
  };
  const S = TAGGED_SHAPE;
  const valueOf = (key) =>
    key === 'env'
      ? pick(S.envs)
      : key === 'region'
        ? pick(S.regions)
        : key === 'team'
          ? pick(S.teams)
          : `${key}-${Math.floor(rand() * 20)}`;
  const org = db.prepare('select id, default_execution_mode from organizations where name = ?').get('bench');
  const base = Date.parse('2025-01-01T00:00:00.000Z');
  const at = (i) => new Date(base + i * 60_000).toISOString();
  const now = at(0);
  const insertProject =
    db.prepare(`insert into projects (id, organization_id, name, name_lower, default_execution_mode, is_default, created_at)
    values (?, ?, ?, ?, ?, 0, ?)`);
  const insertProjectBinding = db.prepare(
    'insert into project_tag_bindings (id, project_id, key, value, created_at) values (?, ?, ?, ?, ?)',
  );
  const insertTag = db.prepare('insert into tags (id, organization_id, name, created_at) values (?, ?, ?, ?)');
  const insertWorkspace =
    db.prepare(`insert into workspaces (id, organization_id, project_id, name, name_lower, terraform_version, latest_change_at, created_at, updated_at)
    values (?, ?, ?, ?, ?, '1.13.3', ?, ?, ?)`);
  const insertWorkspaceTag = db.prepare(
    'insert into workspace_tags (workspace_id, workspace_seq, tag_id) values (?, ?, ?)',
  );
  const insertBinding = db.prepare(
    'insert into workspace_tag_bindings (id, workspace_id, workspace_seq, project_id, key, value, created_at) values (?, ?, ?, ?, ?, ?, ?)',
  );
  db.transaction(() => {
    const projects = [];
    for (let p = 0; p < S.projects; p++) {
      const pid = id('prj');
      const name = `proj-${String(p).padStart(2, '0')}`;
      insertProject.run(pid, org.id, name, name, org.default_execution_mode, now);
      for (const key of some(['env', 'team', 'cost-center'], 1, 3))
        insertProjectBinding.run(id('tb'), pid, key, valueOf(key), now);
      projects.push(pid);
    }
    const tagIds = new Map(S.flatTags.map((name) => [name, id('tag')]));
    for (const [name, tagId] of tagIds) insertTag.run(tagId, org.id, name, now);
    for (let i = 0; i < count; i++) {
      const wid = id('ws');
      const name = `svc${Math.floor(rand() * 200)}-${pick(S.envs)}-${pick(S.regions)}-${String(i).padStart(6, '0')}`;
      // Creation order and latest change differ, so that the sorts have work to do.
      const created = at(i);
      const changed = at(Math.floor(rand() * count * 2));
      const { lastInsertRowid: seq } = insertWorkspace.run(
        wid,
        org.id,
        projects[i % projects.length],
        name,
        name.toLowerCase(),
        changed,
        created,
        created,
      );
      for (const tag of some(S.flatTags, 2, 5)) insertWorkspaceTag.run(wid, seq, tagIds.get(tag));
      for (const key of some(S.bindingKeys, 1, 5))
        insertBinding.run(id('tb'), wid, seq, projects[i % projects.length], key, valueOf(key), created);
    }
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  execFileSync('mv', [tmp, file]);
  return file;
}
