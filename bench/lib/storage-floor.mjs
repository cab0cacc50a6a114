// The storage floor of write-rate: the benchmark's lock/unlock transactions done with
// better-sqlite3 alone (no HTTP, no framework, no berth code) on a copy of the same seed, with
// berth's schema and pragmas. A transaction per lock and per unlock, each as berth's: take the
// write lock, read the workspace row (with its organization and project), update the lock
// columns, insert an audit record, commit.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, id } from '../lib.mjs';

/**
 * A copy of `seedFile` in a new temporary folder (`dir`, for the caller to remove) with berth's
 * own schema: its migrations, run by the built CLI (a read command opens and migrates).
 */
export function migratedCopy(seedFile, name) {
  const dir = mkdtempSync(join(tmpdir(), `berth-${name}-`));
  const file = join(dir, `${name}.db`);
  copyFileSync(seedFile, file);
  execFileSync(process.execPath, [BIN, 'org', 'list', '--json'], {
    env: { ...process.env, BERTH_DB: file, BERTH_DATABASE_URL: '' },
    stdio: 'ignore',
  });
  return { dir, file };
}

/** Pairs per second of the floor on a copy of `seedFile`, with `synchronous` as `durability` ('full' | 'normal') sets it. */
export async function storageFloor(seedFile, { durability, pairs }) {
  const { dir, file } = migratedCopy(seedFile, 'floor');
  try {
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${durability === 'full' ? 'FULL' : 'NORMAL'}`);
    db.pragma('foreign_keys = ON');
    const ids = db.prepare('select id from workspaces order by seq limit ?').pluck().all(pairs);
    const read = db.prepare(
      `select workspaces.*, organizations.name as org_name, projects.default_execution_mode as project_execution_mode
       from workspaces join organizations on organizations.id = workspaces.organization_id
       join projects on projects.id = workspaces.project_id where workspaces.id = ?`,
    );
    const update = db.prepare(
      'update workspaces set locked = ?, locked_reason = ?, locked_by_kind = ?, locked_by_id = ?, locked_at = ? where id = ?',
    );
    const audit = db.prepare(
      `insert into audit_events (id, occurred_at, action, actor_kind, actor_id, actor_token_id, actor_name,
         target_type, target_id, target_name, organization_id, organization_name, workspace_id, request_id)
       values (?, ?, ?, 'user', 'user-bench', 'at-bench', 'admin', 'workspaces', ?, ?, ?, ?, ?, ?)`,
    );
    const begin = db.prepare('begin immediate');
    const commit = db.prepare('commit');
    const transaction = (wsId, lock) => {
      begin.run();
      const row = read.get(wsId);
      const now = new Date().toISOString();
      update.run(
        lock ? 1 : 0,
        lock ? 'bench' : null,
        lock ? 'users' : null,
        lock ? 'user-bench' : null,
        lock ? now : null,
        wsId,
      );
      const action = lock ? 'workspace.lock' : 'workspace.unlock';
      audit.run(
        id('ae'),
        now,
        action,
        wsId,
        row.name,
        row.organization_id,
        row.org_name,
        wsId,
        randomBytes(8).toString('hex'),
      );
      commit.run();
    };
    const started = performance.now();
    for (const wsId of ids) {
      transaction(wsId, true);
      transaction(wsId, false);
    }
    const seconds = (performance.now() - started) / 1000;
    db.close();
    return { pairs: ids.length, seconds, pairsPerSecond: ids.length / seconds };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
